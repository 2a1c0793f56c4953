"""Simulator throughput and the default bot's strength. Prints figures; asserts nothing.

* player-turns/s on one core: 4-player classic games (cards on) with the
  default bot in every seat, battles sampled from the exact solver (the
  simulator's default) and rolled die by die, in the compiled playout and,
  as the baseline in the same process, in the Python loop;
* games/s for 2 to 6 players;
* the scaling from 1 local worker process to 2;
* the default bot's win rates against the random bot (2 players) and against
  the simpler bots (4 players), with 95% Wilson intervals;
* the speed of this tree against a baseline revision (``--baseline REV``, by default
  :data:`BASELINE`, the last one before the simulator was split into modules): player-turns/s,
  compiled, 4 players, default bots, per CPU second, this tree and the baseline's tree played
  alternately in subprocesses under the same load. The baseline's tree is exported by ``git archive``
  into a folder of the temporary directory named for the revision, kept for the next run (its first
  run compiles its kernels: minutes). ``--baseline-tree DIR`` takes a checkout instead; ``--baseline ""``
  skips it. Each side also plays the same seeded runs (:data:`HASHED`: default bots at 2, 3, 4 and 6
  players, and mixed tables of bots) and prints a sha256 of their result tables, so a change that should
  leave the games as they were is seen to: the hashes say whether both trees play the same games, and
  where they differ, which tables and columns do.

``--quick`` runs a tenth of the games. ``--only-baseline`` runs only the comparison.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from analyzer.game.vocabulary import PLAYER_COUNTS
from analyzer.sim.simulate import simulate

SCALE = 0.1 if "--quick" in sys.argv else 1.0
ROOT = Path(__file__).resolve().parent.parent
#: The simulator's last revision before simulate.py was split into modules: its speed is the baseline.
BASELINE = "2c798dc"
#: One measurement, run in a tree: player-turns per CPU second of compiled 4-player games of default bots.
_MEASURE = """
import time
from analyzer.sim.simulate import simulate
simulate(4, "default", 20, 0, progress=False)  # warm the kernels and the solver's caches
cpu = time.process_time()
r = simulate(4, "default", {games}, {seed}, progress=False)
print(r.turns_played / (time.process_time() - cpu))
"""
#: Seeded runs played by both trees, whose tables are hashed: (players, bots, games, seed). The bots are
#: names both this tree and the baselines know.
HASHED: tuple[tuple[int, str | list[str], int, int], ...] = (
    (2, "default", 500, 21),
    (3, "default", 500, 22),
    (4, "default", 500, 23),
    (6, "default", 300, 24),
    (4, ["default", "classic", "greedy", "random"], 500, 25),
    (6, ["default", "planner", "hunter", "classic", "cautious", "random"], 300, 26),
)
#: The tables of :data:`HASHED`'s runs, run in a tree: for each run, each table's columns (in name order,
#: so that a reordering is not a difference) with a sha256 of each column's values written as CSV (so that
#: a change of integer width is not a difference either), and the player-turns played; one line of JSON.
_HASH = """
import hashlib, json
from analyzer.sim.simulate import simulate
def digest(column):
    text = column.to_csv(index=False, header=False, lineterminator="\\n", float_format="%.17g")
    return hashlib.sha256(text.encode()).hexdigest()
out = []
for n, bots, games, seed in {runs!r}:
    r = simulate(n, bots, games, seed, progress=False)
    tables = {{}}
    for name in ("games", "seats", "eliminations", "trades", "starts", "turns"):
        table = getattr(r, name).reset_index(drop=True)
        tables[name] = {{c: digest(table[c]) for c in sorted(table.columns)}}
    out.append({{"tables": tables, "turns_played": r.turns_played}})
print(json.dumps(out))
"""


def games(n: int) -> int:
    return max(10, int(n * SCALE))


def run(n_players: int, bots: list[str], n_games: int, seed: int, **kw: object):
    return simulate(n_players, bots, n_games, seed, progress=False, **kw)


def serial(n_players: int, bots: list[str], n_games: int, seed: int, **kw: object):
    """A one-process run and the CPU seconds it took: per-core figures that other load on the machine
    does not drag down as it does wall-clock ones."""
    cpu = time.process_time()
    r = run(n_players, bots, n_games, seed, **kw)
    return r, time.process_time() - cpu


def turns_per_second() -> None:
    print("4 players, classic rules with cards, default bot in every seat, one core (per CPU second)")
    print("baseline: the same games played through the Python loop (simulate(compiled=False))")
    sampled = 0.0
    for label, sample in (("battles sampled from the solver", True), ("battles rolled die by die", False)):
        r, cpu = serial(4, ["default"] * 4, games(4000), 1, sample_battles=sample)
        base, base_cpu = serial(4, ["default"] * 4, games(200), 1, sample_battles=sample, compiled=False)
        fast, slow = r.turns_played / cpu, base.turns_played / base_cpu
        sampled = fast if sample else sampled
        print(
            f"  {label:<32} {fast:>9,.0f} player-turns/s  {len(r.games) / cpu:>7.1f} games/s  "
            f"({len(r.games)} games, {r.games['turns'].mean():.1f} turns each); "
            f"Python loop {slow:,.0f} player-turns/s: {fast / slow:.1f}x"
        )
    # The classic bot (the default before the planning bot) beside it, compiled, in the same process.
    cpu = time.process_time()
    classic = run(4, ["classic"] * 4, games(4000), 1)
    classic_speed = classic.turns_played / (time.process_time() - cpu)
    print(
        f"  classic bot, battles sampled          {classic_speed:>9,.0f} player-turns/s  (the default bot is {sampled / classic_speed:.2f}x it)"
    )


def games_per_second() -> None:
    print("\ngames/s by number of players, default bot in every seat, one core (per CPU second)")
    for n in PLAYER_COUNTS:
        r, cpu = serial(n, ["default"] * n, games(2000), 2)
        print(f"  {n} players  {len(r.games) / cpu:>7.1f} games/s  {r.turns_played / cpu:>8,.0f} player-turns/s")


def scaling() -> None:
    load = os.getloadavg()[0]
    print(f"\nscaling, 4 players, default bots, wall clock ({os.cpu_count()} cores, load average {load:.1f} before)")
    base = None
    for workers in (1, 2):
        r = run(4, ["default"] * 4, games(20000), 3, workers=workers, batch_size=500)
        speed = r.games_per_second
        base = base or speed
        print(f"  {workers} worker(s)  {speed:>7.1f} games/s  speed-up {speed / base:.2f}x")


def strength() -> None:
    print("\nwin rates with 95% Wilson intervals")
    for n_players, bots, n_games in (
        (2, ["default", "random"], games(2000)),
        (4, ["default", "greedy", "cautious", "random"], games(2000)),
        (4, ["default", "greedy", "default", "greedy"], games(2000)),
        (4, ["default", "cautious", "default", "cautious"], games(2000)),
    ):
        r = run(n_players, bots, n_games, 4, workers=os.cpu_count() or 1)
        print(f"  {','.join(bots)}: {n_games} games, {int(r.games['capped'].sum())} capped")
        for row in r.win_rates("bot").itertuples():
            print(
                f"    {row.bot:<9} {row.win_rate:6.1%}  [{row.ci_low:6.1%}, {row.ci_high:6.1%}]  {row.wins}/{row.games} seat-games"
            )


def _in_tree(tree: Path, code: str) -> str:
    """The last line ``code`` prints, run by a Python of its own in ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True, check=True)
    return out.stdout.splitlines()[-1]


def _speed(tree: Path, n_games: int, seed: int) -> float:
    return float(_in_tree(tree, _MEASURE.format(games=n_games, seed=seed)))


def _hashes(tree: Path) -> list[dict]:
    return json.loads(_in_tree(tree, _HASH.format(runs=HASHED)))


def _sha(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def same_games(baseline: Path) -> None:
    """Whether both trees play :data:`HASHED`'s runs alike: a hash of each run's tables, and of them all."""
    try:
        ours, theirs = _hashes(ROOT), _hashes(baseline)
    except subprocess.CalledProcessError as exc:  # a revision without a bot of HASHED, or without the tables
        print(
            f"\nno hashes of the seeded runs: a tree could not play them ({(exc.stderr.strip().splitlines() or ['no message'])[-1]})"
        )
        return
    print("\nseeded runs, sha256 of their tables (games, seats, eliminations, trades, starts, turns) and player-turns")
    for (n, bots, n_games, seed), a, b in zip(HASHED, ours, theirs):
        who = bots if isinstance(bots, str) else ",".join(bots)
        verdict = "equal" if a == b else "DIFFER"
        print(
            f"  {n} players, {who}, {n_games} games, seed {seed}: this tree {_sha(a)[:16]}  baseline {_sha(b)[:16]}  {verdict}"
        )
        if a == b:
            continue
        if a["turns_played"] != b["turns_played"]:
            print(f"    player-turns played: this tree {a['turns_played']}, baseline {b['turns_played']}")
        for name in a["tables"]:
            mine, base = a["tables"][name], b["tables"].get(name, {})
            changed = sorted(c for c in mine if c in base and mine[c] != base[c])
            added, gone = sorted(set(mine) - set(base)), sorted(set(base) - set(mine))
            for what, columns in (
                ("values differ", changed),
                ("only in this tree", added),
                ("only in the baseline", gone),
            ):
                if columns:
                    print(f"    {name}: {what}: {', '.join(columns)}")
    print(f"  all runs: this tree {_sha(ours)}")
    print(f"            baseline  {_sha(theirs)}")
    print(f"  {'the same games' if ours == theirs else 'NOT the same games'}")


def _exported(revision: str) -> Path:
    """The tree of ``revision`` (``git archive``), in a folder of the temporary directory kept between runs."""
    sha = subprocess.run(
        ["git", "rev-parse", "--short=12", revision], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    tree = Path(tempfile.gettempdir()) / f"risk-analyzer-{sha}"
    if not (tree / "analyzer").is_dir():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", sha], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def against_baseline(baseline: Path, label: str, rounds: int = 3) -> None:
    """This tree's speed and the baseline's, alternately (so both meet the same load), ``rounds`` times each."""
    print(f"\nsimulator speed against {label}: compiled, 4 players, default bots, player-turns per CPU second,")
    print(
        f"each tree in its own process, alternately, {rounds} runs each "
        f"(the baseline's first run compiles its kernels if they are not cached)"
    )
    _speed(baseline, 10, 0)
    _speed(ROOT, 10, 0)
    load = os.getloadavg()
    n_games = games(2000)
    ours: list[float] = []
    theirs: list[float] = []
    for k in range(rounds):
        theirs.append(_speed(baseline, n_games, 10 + k))
        ours.append(_speed(ROOT, n_games, 10 + k))
    after = os.getloadavg()
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"  this tree  {a:>9,.0f} player-turns/s (median; runs {', '.join(f'{x:,.0f}' for x in ours)})")
    print(f"  baseline   {b:>9,.0f} player-turns/s (median; runs {', '.join(f'{x:,.0f}' for x in theirs)})")
    print(f"  ratio {a / b:.3f}  ({n_games} games a run; load average {load[0]:.1f} before, {after[0]:.1f} after)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--baseline", default=BASELINE, help="a git revision to compare with ('' for none)")
    parser.add_argument("--baseline-tree", type=Path, help="a checkout to compare with, instead of --baseline")
    parser.add_argument("--only-baseline", action="store_true")
    args = parser.parse_args()
    if not args.only_baseline:
        run(4, ["default"] * 4, 5, 0)  # warm the solver's caches and compiled kernels
        turns_per_second()
        games_per_second()
        scaling()
        strength()
    if args.baseline_tree is not None:
        same_games(args.baseline_tree.resolve())
        against_baseline(args.baseline_tree.resolve(), str(args.baseline_tree))
    elif args.baseline:
        try:
            tree = _exported(args.baseline)
        except (OSError, subprocess.CalledProcessError) as exc:
            print(f"\nno baseline: revision {args.baseline!r} could not be exported ({exc})")
            return
        same_games(tree)
        against_baseline(tree, f"revision {args.baseline}")


if __name__ == "__main__":
    main()
