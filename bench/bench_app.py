"""Re-render time of the app's interactions for a typical mid-game state, through streamlit.testing's AppTest,
and the time from a changed input of the battle calculator to its rendered answer, up to 1000 v 1000, both through
AppTest (the server's share) and in a real headless Chromium (all of it: browser, websocket, server, drawing).

A "typical mid-game state": a 4-player random setup played on by the default
bot for 40 player-turns (about 10 rounds). Each figure is the time of one
script run (what the server does between a click and the new page), the
median of ``REPEATS`` runs, first for the first view of each tab (solver and
drawing caches cold) and then for the interactions. Nothing is asserted:
``make bench`` prints the figures.
"""

from __future__ import annotations

import logging
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from appserver import CHROMIUM, phone_page, served
from streamlit.testing.v1 import AppTest

from analyzer.bots.registry import make_bot
from analyzer.game.state import GameState
from analyzer.sim.play import play_game
from analyzer.solver.battle import battle
from analyzer.store import DB_ENV

# AppTest runs the script outside a server, and Streamlit warns about that on every run
# (a filter, because Streamlit resets its loggers' levels whenever it reads its config).
logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").addFilter(
    lambda record: "missing ScriptRunContext" not in record.getMessage()
)

APP = str(Path(__file__).resolve().parent.parent / "app.py")
REPEATS = 5
TURNS = 40
TABS = ("Board", "Players & cards", "Continents", "Reinforcements", "Suggestions", "Tables")
#: Battles typed into the calculator: (attackers, defenders).
BATTLES = ((10, 10), (100, 100), (1000, 1000))


class _Enough(Exception):
    """Stops :func:`~analyzer.sim.play.play_game` once the game is far enough in."""


def mid_game(seed: int = 3) -> GameState:
    state = GameState.random_start(4, np.random.default_rng(seed))

    def stop(_: GameState, turn: int) -> None:
        if turn >= TURNS:
            raise _Enough

    try:
        play_game(state, [make_bot("default")] * 4, np.random.default_rng(seed), on_turn=stop)
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

    gen = at.session_state["generation"]
    at.selectbox(key=f"attack_from-{gen}").select_index(0).run()
    n_targets = len(at.selectbox(key=f"attack_to-{gen}").options)
    print(
        f"  {'calculator: another target picked':42s} "
        f"{median_of(lambda i: at.selectbox(key=f'attack_to-{gen}').select_index(i % n_targets).run):7.3f} s"
    )
    print(
        f"  {'switch tab: Board <-> Suggestions':42s} "
        f"{median_of(lambda i: show(('Board', 'Suggestions')[i % 2])):7.3f} s"
    )

    print("edits (each makes a new position, so the map and the open tab are computed afresh):")
    show("Board")()
    territory = state.board.territories[int(np.flatnonzero(state.armies > 1)[0])]

    def quick_edit(i: int) -> Callable[[], object]:
        at.multiselect(key="pick").set_value([territory]).run()
        at.number_input(key="edit_armies").set_value(20 + i)
        return at.button(key="apply_quick_edit").click().run

    print(f"  {'Board: quick edit of one territory':42s} {median_of(quick_edit):7.3f} s")

    def cell_edit(i: int) -> Callable[[], object]:
        key = f"editor-{at.session_state['generation']}"
        at.session_state[key] = {"edited_rows": {0: {"Armies": 30 + i}}, "added_rows": [], "deleted_rows": []}
        return at.run

    print(f"  {'Board: one cell of the territory table':42s} {median_of(cell_edit):7.3f} s")
    for tab in ("Continents", "Suggestions"):

        def edit_then(i: int, tab: str = tab) -> Callable[[], object]:
            show("Board")()
            quick_edit(100 + i)()
            return show(tab)

        print(f"  {'open ' + tab + ' on a new position':42s} {median_of(edit_then):7.3f} s")


def calculator_in_apptest() -> None:
    """One script run after a changed input of the calculator (no game open), cold (never asked) and warm."""
    print("battle calculator, changed input to answer, through AppTest (the server's share):")
    at = AppTest.from_file(APP, default_timeout=120).run()
    for attackers, defenders in BATTLES:
        at.number_input(key="attackers").set_value(attackers)
        at.number_input(key="defenders").set_value(defenders)
        cold = timed(at.run)
        assert at.metric[0].value == f"{battle(attackers, defenders).p_win:.2%}"

        def again(i: int, a: int = attackers, d: int = defenders) -> Callable[[], object]:
            at.number_input(key="attackers").set_value(a + 1 + i % 2)  # cached after the first two
            return at.run

        print(f"  {attackers:5d} v {defenders:<5d} first time {cold:7.3f} s, asked before {median_of(again):7.3f} s")


def calculator_in_chromium() -> None:
    """Typed attackers + Enter until the P(win) shown is the solver's, in headless Chromium at phone width."""
    if not CHROMIUM.exists():
        print("no /usr/bin/chromium: the browser figures are left out (`make browser`)")
        return
    from playwright.sync_api import sync_playwright

    port = 8765
    env = {**os.environ, DB_ENV: str(Path(tempfile.mkdtemp()) / "games.sqlite3")}
    with served(APP, port, env), sync_playwright() as p:
        browser, page = phone_page(p)
        page.goto(f"http://127.0.0.1:{port}")
        value = page.get_by_test_id("stMetric").filter(has_text="P(win)").get_by_test_id("stMetricValue")
        value.wait_for()
        print("battle calculator, changed input to rendered answer, in headless Chromium at 390 px:")
        for attackers, defenders in BATTLES:
            page.get_by_label("Defenders", exact=True).fill(str(defenders))
            page.get_by_label("Defenders", exact=True).press("Enter")
            times = []
            for i in range(REPEATS):
                a = attackers + i
                field = page.get_by_label("Attacking armies", exact=True)
                field.fill(str(a))
                started = time.perf_counter()
                field.press("Enter")
                page.wait_for_function(
                    "([el, text]) => el.innerText === text",
                    arg=[value.element_handle(), f"{battle(a, defenders).p_win:.2%}"],
                )
                times.append(time.perf_counter() - started)
            print(
                f"  {attackers:5d} v {defenders:<5d} first {times[0]:7.3f} s, median of {REPEATS} "
                f"{statistics.median(times):7.3f} s"
            )
        browser.close()


if __name__ == "__main__":
    # The app keeps its games in a store: a throwaway one, not the user's.
    os.environ[DB_ENV] = str(Path(tempfile.mkdtemp()) / "games.sqlite3")
    calculator_in_apptest()
    calculator_in_chromium()
    main()
