"""The simulator against itself before the package's redesign (issue 15), both in this process.

The package as of commit ``e7e4231`` (the last before the redesign) is taken from git, its
``analyzer`` renamed ``analyzer_e7e4231`` so that both import side by side, and kept with its
compiled kernels under ``$XDG_CACHE_HOME/risk-analyzer/`` (the first run compiles them: a few
minutes). Each side plays the same 4-player games of the classic heuristic bot (the old code's
"default"), in many short runs, the sides taking turns so that other load on the machine falls on
both alike. Prints player-turns per CPU second: each side's median and best run, with their ratios.
Other load only ever slows a run, and on a shared machine it moves single runs by a third, so the
best of many short runs is the steadier figure of what the code can do. Asserts nothing.
``--quick`` runs a quarter as many runs of fewer games; ``--runs N`` sets the number of runs.

Without the commit in the clone (a shallow checkout) it says so and stops.
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
from io import BytesIO
from pathlib import Path

import numpy as np

BEFORE = "e7e4231"
NAME = f"analyzer_{BEFORE}"
ROOT = Path(__file__).resolve().parent.parent
QUICK = "--quick" in sys.argv
GAMES = 100 if QUICK else 250
RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 10 if QUICK else 40


def old_tree() -> Path | None:
    """A folder holding ``analyzer_e7e4231/`` and the ``data/`` its board module reads, or None."""
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "risk-analyzer" / f"redesign-{BEFORE}"
    if (home / NAME / "__init__.py").exists():
        return home
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", BEFORE, "analyzer", "data"], capture_output=True)
    if archive.returncode != 0:
        return None
    staging = home.with_name(home.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        # Our own history, but the safe filter where this Python has it (3.11.4 and later).
        if hasattr(tarfile, "data_filter"):
            tar.extractall(staging, filter="data")
        else:
            tar.extractall(staging)
    # Every mention of the package, in imports and in module-name strings alike ("analyzer.battle"
    # decides whether its kernels are cached), but not the project's name "risk-analyzer".
    pattern = re.compile(r"(?<![\w-])analyzer(?![\w-])")
    for path in (staging / "analyzer").rglob("*.py"):
        path.write_text(pattern.sub(NAME, path.read_text()))
    (staging / "analyzer").rename(staging / NAME)
    shutil.rmtree(home, ignore_errors=True)
    staging.rename(home)
    return home


def main() -> None:
    tree = old_tree()
    if tree is None:
        print(f"commit {BEFORE} is not in this clone (git fetch --unshallow), so there is nothing to compare with")
        return
    sys.path.insert(0, str(tree))
    old = importlib.import_module(f"{NAME}.simulate").simulate
    from analyzer.sim.simulate import simulate as new

    sides = {"before": (old, "default"), "after": (new, "classic")}
    for simulate, bot in sides.values():  # compiles, and fills each side's battle cache with these games
        simulate(4, bot, GAMES, 1, progress=False)
    figures: dict[str, list[float]] = {name: [] for name in sides}
    turns: dict[str, int] = {}
    for run in range(RUNS):
        for name in ("before", "after") if run % 2 else ("after", "before"):
            simulate, bot = sides[name]
            cpu = time.process_time()
            result = simulate(4, bot, GAMES, 1, progress=False)
            figures[name].append(result.turns_played / (time.process_time() - cpu))
            turns[name] = result.turns_played
    same = "the same games" if turns["before"] == turns["after"] else "DIFFERENT games"
    print(
        f"player-turns per CPU second, 4 classic bots, compiled, {RUNS} runs each of {GAMES:,} games ({same}: "
        f"{turns['after']:,} player-turns a run):"
    )
    print(f"  {'':30} {'median':>9} {'best':>9}")
    for name, label in (("before", f"before the redesign ({BEFORE})"), ("after", "now")):
        print(f"  {label:30} {np.median(figures[name]):>9,.0f} {max(figures[name]):>9,.0f}")
    median = np.median(figures["after"]) / np.median(figures["before"])
    best = max(figures["after"]) / max(figures["before"])
    print(f"  {'now / before':30} {median:>8.2f}x {best:>8.2f}x")


if __name__ == "__main__":
    main()
