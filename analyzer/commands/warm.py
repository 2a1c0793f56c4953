"""``risk-analyzer warm``: compile the kernels the app's views run, once for an install, before the first page.

numba compiles a kernel where it is first used and keeps it on disk (:mod:`analyzer.kernels`). On a fresh install
the app's first game page waited 35 s for its board, and its first win chances two minutes more, with only
Streamlit's running sign to say anything was happening. ``make run`` runs this command first: it says what it is
doing while it compiles, and once an install has the kernels it only says so (a mark in the kernels' cache folder,
which an edit of their sources replaces with a new, empty one).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from analyzer import kernels

#: The file in the kernels' cache folder that says every kernel the views run is in it.
MARK = "warm"


def register(subparsers: Any) -> None:
    """Add the ``warm`` subcommand to the CLI's subparsers."""
    parser = subparsers.add_parser(
        "warm",
        help="compile the app's kernels once for this install (make run does it first)",
        description="Compile every kernel the app's views run into numba's on-disk cache, so that the app's "
        "first page answers at once: two to four minutes on two cores, once for an install (and after an edit of "
        "the kernels' sources).",
    )
    parser.set_defaults(func=run)


def warm_kernels() -> None:
    """Run every kernel the app's views run, through the functions the views call: a short game recorded entry
    by entry (places, a battle and its move-in, ends of turns), the calculator, the best attacks, the odds
    tables, the win-chance strip and its rollouts, and the review."""
    # Imported here, not with the module: the command line lists its commands without loading numba.
    import numpy as np

    from analyzer.analysis.evaluator import chances
    from analyzer.analysis.quick_odds import quick_odds
    from analyzer.analysis.review import review_game
    from analyzer.analysis.suggestions import attack_suggestions
    from analyzer.live import LiveGame
    from analyzer.solver.tables import odds_tables

    live = LiveGame.random(["Ann", "Bo", "Cy"], np.random.default_rng(0))
    for _ in range(3):
        state = live.state
        live.place({state.territories_of(state.player)[0]: state.pending})
        state = live.state
        for source in state.attack_sources():
            target = next(int(t) for t in state.board.neighbors[source] if state.owner[t] != state.player)
            live.battle(int(source), target, int(state.armies[source]), 0)
            if live.state.move is not None:
                live.move_in(live.state.move_range()[1])
            break
        live.end_turn()
    state = live.state
    quick_odds(12, [7])
    attack_suggestions(state, int(state.player), stop_at=1)
    odds_tables(20, stop_at=1)
    chances(state)
    chances(state, "rollouts", rollouts=2)
    review_game(state, rollouts=2, workers=1)


def mark_file() -> Path:
    """The mark of the kernels as their sources stand now."""
    return kernels.cache_dir() / MARK


def run(args: argparse.Namespace) -> int:
    if kernels.plain():
        print(f"kernels run as plain Python ({kernels.MODE_VARIABLE}=python): nothing to compile")
        return 0
    mark = mark_file()
    if mark.exists():
        print(f"the app's kernels are compiled, in {mark.parent}")
        return 0
    print("compiling the app's kernels, once for this install: two to four minutes on two cores ...", flush=True)
    start = time.perf_counter()
    warm_kernels()
    try:
        mark.touch()
    except OSError:
        pass  # an unwritable cache: the kernels are compiled again at each start, as they would be anyway
    print(f"compiled in {time.perf_counter() - start:.0f} s, in {mark.parent}")
    return 0
