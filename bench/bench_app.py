"""Re-render time of the app's interactions for a typical mid-game state, through streamlit.testing's AppTest.

A "typical mid-game state": a 4-player random setup played on by the default
bot for 40 player-turns (about 10 rounds). Each figure is the time of one
script run (what the server does between a click and the new page), the
median of ``REPEATS`` runs, first for the first view of each tab (solver and
drawing caches cold) and then for the interactions. Nothing is asserted:
``make bench`` prints the figures.
"""

from __future__ import annotations

import logging
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from streamlit.testing.v1 import AppTest

from analyzer.bots.registry import make_bot
from analyzer.sim.simulate import play
from analyzer.game.state import GameState

# AppTest runs the script outside a server, and Streamlit warns about that on every run
# (a filter, because Streamlit resets its loggers' levels whenever it reads its config).
logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").addFilter(
    lambda record: "missing ScriptRunContext" not in record.getMessage()
)

APP = str(Path(__file__).resolve().parent.parent / "app.py")
REPEATS = 5
TURNS = 40
TABS = ("Board", "Players & cards", "Attack odds", "Continents", "Reinforcements", "Suggestions", "Tables")


class _Enough(Exception):
    """Stops :func:`play` once the game is far enough in."""


def mid_game(seed: int = 3) -> GameState:
    state = GameState.random_start(4, np.random.default_rng(seed))

    def stop(_: GameState, turn: int) -> None:
        if turn >= TURNS:
            raise _Enough

    try:
        play(state, [make_bot("default")] * 4, np.random.default_rng(seed), on_turn=stop)
    except _Enough:
        pass
    return state


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def median_of(setup: Callable[[int], Callable[[], object]]) -> float:
    """Median time of ``setup(i)()``; ``setup`` prepares repeat ``i`` (untimed) and returns the timed step."""
    return statistics.median(timed(setup(i)) for i in range(REPEATS))


def main() -> None:
    state = mid_game()
    owned = np.bincount(state.owner, minlength=4).tolist()
    print(f"mid-game state: turn {state.turn}, territories per player {owned}, {int(state.armies.sum())} armies")
    at = AppTest.from_file(APP, default_timeout=120)
    print(f"{'first run (imports, empty page)':44s} {timed(at.run):7.3f} s")
    at.file_uploader(key="upload").set_value(("mid.json", state.to_json().encode(), "application/json"))
    print(f"{'load the game (map drawn)':44s} {timed(at.run):7.3f} s")

    def show(tab: str) -> Callable[[], object]:
        at.session_state["tab"] = tab
        return at.run

    for tab in TABS:
        print(f"{'open ' + tab + ' (cold)':44s} {timed(show(tab)):7.3f} s")
    print("medians of", REPEATS, "runs once the caches are warm:")
    for tab in TABS:
        show(tab)()
        print(f"  {'rerun ' + tab:42s} {median_of(lambda i: at.run):7.3f} s")

    show("Attack odds")()
    n_targets = len(at.selectbox(key="attack_to").options)
    print(f"  {'attack odds: another target':42s} "
          f"{median_of(lambda i: at.selectbox(key='attack_to').select_index(i % n_targets).run):7.3f} s")
    print(f"  {'switch tab: Board <-> Attack odds':42s} "
          f"{median_of(lambda i: show(('Board', 'Attack odds')[i % 2])):7.3f} s")

    print("edits (each makes a new position, so the map and the open tab are computed afresh):")
    show("Board")()
    territory = state.board.territories[int(np.flatnonzero(state.armies > 1)[0])]

    def quick_edit(i: int) -> Callable[[], object]:
        at.multiselect(key="pick").set_value([territory]).run()
        at.number_input(key="edit_armies").set_value(20 + i)
        return at.button(key="apply_quick_edit").click().run

    print(f"  {'Board: quick edit of one territory':42s} {median_of(quick_edit):7.3f} s")

    def cell_edit(i: int) -> Callable[[], object]:
        key = f"editor-{at.session_state['game_id']}"
        at.session_state[key] = {"edited_rows": {0: {"Armies": 30 + i}}, "added_rows": [], "deleted_rows": []}
        return at.run

    print(f"  {'Board: one cell of the territory table':42s} {median_of(cell_edit):7.3f} s")
    for tab in ("Continents", "Suggestions"):
        def edit_then(i: int, tab: str = tab) -> Callable[[], object]:
            show("Board")()
            quick_edit(100 + i)()
            return show(tab)
        print(f"  {'open ' + tab + ' on a new position':42s} {median_of(edit_then):7.3f} s")


if __name__ == "__main__":
    main()
