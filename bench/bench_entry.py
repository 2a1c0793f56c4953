"""Time from an entry on the Record view to the game saved, and to the view showing it, in real Chromium at 390 px.

A recorded game of ``--players`` players (3 unless told; dealt at random, then 12 player-turns of "place
every army, end the turn" recorded through :class:`analyzer.live.LiveGame`) is
stored, and its page opened on a phone-sized window. Then, ``ROUNDS`` times,
four entries a turn is made of: "Place" (every army due, the form's
default), "End turn", and the undo of each. For each entry two times are
taken from the tap: until the store holds a new version (the server's work),
and until the view shows the entry (the page's answer, the figure the
300 ms target is about). Then, on a game in its claimed setup, ``CLAIMS``
taps on the setup map, each on a free territory of the continent the map
shows, each timed the same way (shown: the map asks for the next player's
claim, and its map has replaced the one tapped). The medians, quartiles and maxima are printed.

``--root DIR`` serves the ``app.py`` of another checkout, with that checkout's
package; ``--baseline DIR`` measures another checkout first, in the same run
(the figures before a change), and prints the ratio of the medians. The load
average (the machine is shared) is printed with each. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import tests_support  # noqa: F401 - puts tests/ on the path
from appserver import CHROMIUM, phone_page, served
from support.ports import free_port

from analyzer.game.labels import player_names
from analyzer.game.state import GameState
from analyzer.plot import UNOWNED_COLOR

#: True once the map shows ``territory`` claimed (its marker no longer in the unowned colour), or shows another
#: continent (the map follows the claims from continent to continent).
_CLAIM_DRAWN = """([territory, unowned]) => {
    const markers = Array.from(document.querySelectorAll("[data-testid=stVegaLiteChart] [aria-roledescription=circle]"))
        .filter(marker => marker.checkVisibility());
    const tapped = markers.filter(marker => marker.ariaLabel === territory);
    return markers.length > 0 && (tapped.length === 0 ? true : tapped.every(m => m.getAttribute("fill") !== unowned));
}"""
ROUNDS = 8
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
TURNS = 12
CLAIMS = 24


def recorded_game(root: Path, db: Path, players: int) -> str:
    """Store the benchmark's game of ``players`` players with ``root``'s own package (its store format) and return
    its id."""
    return stored_game(
        root,
        db,
        f"""
live = LiveGame.random({NAMES[:players]!r}, np.random.default_rng(5))
for _ in range({TURNS}):
    s = live.state
    live.place({{s.territories_of(s.player)[0]: s.pending}})
    live.end_turn()
""",
    )


def claimed_setup(root: Path, db: Path) -> str:
    """Store a 3-player game at the start of a claimed setup with ``root``'s package; return its id."""
    return stored_game(root, db, 'live = LiveGame.start(["Ann", "Bo", "Cy"], first=0, seed=4)')


def stored_game(root: Path, db: Path, make: str) -> str:
    """Run ``make`` (which sets ``live``) with ``root``'s package, store ``live``'s game in ``db``; its id."""
    script = f"""
import numpy as np
from analyzer.live import LiveGame
from analyzer.store import GameStore
{make}
print(GameStore({str(db)!r}).create(live.state, "bench").id)
"""
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip().splitlines()[-1]


def stored_game_json(db: Path, game_id: str) -> str:
    with sqlite3.connect(db) as connection:
        return str(connection.execute("select state from games where id = ?", (game_id,)).fetchone()[0])


def stored_version(db: Path, game_id: str) -> int:
    with sqlite3.connect(db) as connection:
        rows = connection.execute("select version from games where id = ?", (game_id,)).fetchall()
    return int(rows[0][0]) if rows else -1


def measure(root: Path, rounds: int, claims: int, players: int) -> dict[str, tuple[list[float], list[float]]]:
    """Serve ``root``'s app on a fresh store and time ``rounds`` rounds of four entries in a game of ``players``
    players, then ``claims`` claim taps: for each kind, (to saved, to shown)."""
    from playwright.sync_api import sync_playwright

    db = Path(tempfile.mkdtemp()) / "games.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(root), "RISK_ANALYZER_DB": str(db)}
    game_id = recorded_game(root, db, players)
    setup_id = claimed_setup(root, db)
    port = free_port()
    times: dict[str, tuple[list[float], list[float]]] = {"entries": ([], []), "claim taps": ([], [])}
    with served("app.py", port, env, cwd=root), sync_playwright() as p:
        browser, page = phone_page(p)

        def timed(kind: str, game: str, tap: Callable[[], None], answer: Callable[[], object]) -> None:
            """Time ``tap`` until the store holds a new version of ``game``, and until ``answer()`` returns (the page
            shows the entry)."""
            saved, shown = times[kind]
            version = stored_version(db, game)
            started = time.perf_counter()
            tap()
            deadline = started + 120
            while stored_version(db, game) == version:
                if time.perf_counter() > deadline:
                    shot = db.parent / "unsaved.png"
                    page.screenshot(path=str(shot))
                    raise RuntimeError(
                        f"a tap ({kind}) was made but nothing was saved within 120 s: the page is {shot}"
                    )
                time.sleep(0.005)
            saved.append(time.perf_counter() - started)
            answer()
            shown.append(time.perf_counter() - started)

        page.goto(f"http://127.0.0.1:{port}/?game={game_id}")
        place = page.get_by_role("button", name="Place", exact=True)
        record_tab = page.get_by_role("tab", name="Record")
        # Before the Record view opened by itself, it was a tab to tap first.
        place.or_(record_tab).first.wait_for()
        if not place.is_visible():
            record_tab.click()
        place.wait_for()
        time.sleep(2.0)
        for _ in range(rounds):
            for button, then in (
                ("Place", "Undo (place)"),
                ("End turn", "Undo (end)"),
                ("Undo (end)", "Undo (place)"),
                ("Undo (place)", "Undo (end)"),
            ):
                timed(
                    "entries",
                    game_id,
                    page.get_by_role("button", name=button, exact=True).click,
                    page.get_by_role("button", name=then, exact=True).wait_for,
                )

        page.goto(f"http://127.0.0.1:{port}/?game={setup_id}")
        page.get_by_role("button", name="Deal the rest at random").wait_for()
        time.sleep(2.0)
        for _ in range(claims):
            # As at the table, the next tap comes once the map is drawn for it: the page says whose claim is next
            # before the new map's markers are in place.
            time.sleep(0.5)
            state = GameState.from_json(stored_game_json(db, setup_id), trusted=True)
            shown_map = page.get_by_label("Map of", exact=True).input_value()
            continent = next(c for c in state.board.continents if c.name == shown_map)
            free = [t for t in continent.territories if state.owner[t] < 0]
            if not free:
                break
            claimer = player_names(state)[(state.player + 1) % state.n_players]
            territory = state.board.territories[free[0]]
            marker = (
                page.get_by_test_id("stVegaLiteChart")
                .locator(f'[aria-roledescription="circle"][aria-label="{territory}"]:visible')
                .first
            )
            marker.evaluate("element => element.scrollIntoView({block: 'center'})")
            box = marker.bounding_box()

            def tap() -> None:
                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

            def answered() -> None:
                # The view asks for the next claim, and the map shows the territory in its owner's colour (or has
                # moved on to the continent of the next claim).
                page.get_by_text(f"claim it for {claimer}.", exact=False).wait_for()
                page.wait_for_function(_CLAIM_DRAWN, arg=[territory, UNOWNED_COLOR])

            timed("claim taps", setup_id, tap, answered)
        browser.close()
    return times


def figures(times: list[float]) -> str:
    q = statistics.quantiles(times, n=4)
    return (
        f"median {statistics.median(times) * 1000:6.0f} ms, quartiles {q[0] * 1000:.0f}-{q[2] * 1000:.0f} ms, "
        f"max {max(times) * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--root",
        type=Path,
        default=Path(__file__).resolve().parent.parent,
        help="the checkout whose app.py is served (default: this one)",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        default=None,
        help="another checkout measured first, in the same run, for a before/after ratio",
    )
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--claims", type=int, default=CLAIMS)
    parser.add_argument(
        "--players", type=int, choices=range(2, 7), default=3, help="players of the recorded game (default 3)"
    )
    args = parser.parse_args()
    if not CHROMIUM.exists():
        print("no /usr/bin/chromium: nothing measured (`make browser`)")
        return
    roots = ([args.baseline.resolve()] if args.baseline else []) + [args.root.resolve()]
    medians: dict[str, list[float]] = {}
    for root in roots:
        load = os.getloadavg()[0]
        times = measure(root, args.rounds, args.claims, args.players)
        print(
            f"app of {root}, at 390 px in headless Chromium, "
            f"load average {load:.1f} before and {os.getloadavg()[0]:.1f} after:"
        )
        for kind, (saved, shown) in times.items():
            if len(shown) < 2:
                continue
            what = f"place, end turn, two undos, {args.players} players" if kind == "entries" else "on the setup map"
            print(f"  {len(shown)} {kind} ({what}):")
            print(f"    tap to saved: {figures(saved)}")
            print(f"    tap to shown: {figures(shown)}")
            medians.setdefault(kind, []).append(statistics.median(shown))
    for kind, pair in medians.items():
        if len(pair) == 2:
            print(f"{kind}, tap to shown, median: {pair[1] / pair[0]:.2f} x the baseline's")


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
