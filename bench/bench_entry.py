"""Time from an entry on the Record view to the game saved, and to the view showing it, in real Chromium at 390 px.

A recorded 3-player game (dealt at random, then 12 player-turns of "place
every army, end the turn" recorded through :class:`analyzer.live.LiveGame`) is
stored, and its page opened on a phone-sized window. Then, ``ROUNDS`` times,
four entries a turn is made of: "Place" (every army due, the form's
default), "End turn", and the undo of each. For each entry two times are
taken from the tap: until the store holds a new version (the server's work),
and until the view shows the entry (the page's answer, the figure the issue's
300 ms target is about). The medians, quartiles and maxima are printed.

``--root DIR`` serves the ``app.py`` of another checkout, with that checkout's
package; ``--baseline DIR`` measures another checkout first, in the same run
(the figures before a change), and prints the ratio of the medians. The load
average (the machine is shared) is printed with each. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from appserver import CHROMIUM, phone_page, served

ROUNDS = 8
TURNS = 12


def recorded_game(root: Path, db: Path) -> str:
    """Store the benchmark's game with ``root``'s own package (its store format) and return its id."""
    script = f"""
import numpy as np
from analyzer.live import LiveGame
from analyzer.store import GameStore
live = LiveGame.random(["Ann", "Bo", "Cy"], np.random.default_rng(5))
for _ in range({TURNS}):
    s = live.state
    live.place({{s.territories_of(s.player)[0]: s.pending}})
    live.end_turn()
print(GameStore({str(db)!r}).create(live.state, "bench").id)
"""
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip().splitlines()[-1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def stored_version(db: Path, game_id: str) -> int:
    with sqlite3.connect(db) as connection:
        rows = connection.execute("select version from games where id = ?", (game_id,)).fetchall()
    return int(rows[0][0]) if rows else -1


def measure(root: Path, rounds: int) -> tuple[list[float], list[float]]:
    """Serve ``root``'s app on a fresh store and time ``rounds`` rounds of four entries: (to saved, to shown)."""
    from playwright.sync_api import sync_playwright

    db = Path(tempfile.mkdtemp()) / "games.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(root), "RISK_ANALYZER_DB": str(db)}
    game_id = recorded_game(root, db)
    port = free_port()
    saved: list[float] = []
    shown: list[float] = []
    with served("app.py", port, env, cwd=root), sync_playwright() as p:
        browser, page = phone_page(p)
        page.goto(f"http://127.0.0.1:{port}/?game={game_id}")
        place = page.get_by_role("button", name="Place", exact=True)
        record_tab = page.get_by_role("tab", name="Record")
        # Before the Record view opened by itself, it was a tab to tap first.
        place.or_(record_tab).first.wait_for()
        if not place.is_visible():
            record_tab.click()
        place.wait_for()
        time.sleep(2.0)

        def entry(button: str, then: str) -> None:
            version = stored_version(db, game_id)
            started = time.perf_counter()
            page.get_by_role("button", name=button, exact=True).click()
            deadline = started + 120
            while stored_version(db, game_id) == version:
                if time.perf_counter() > deadline:
                    raise RuntimeError(f"{button!r} was tapped but nothing was saved within 120 s")
                time.sleep(0.005)
            saved.append(time.perf_counter() - started)
            page.get_by_role("button", name=then, exact=True).wait_for()
            shown.append(time.perf_counter() - started)

        for _ in range(rounds):
            entry("Place", "Undo (place)")
            entry("End turn", "Undo (end)")
            entry("Undo (end)", "Undo (place)")
            entry("Undo (place)", "Undo (end)")
        browser.close()
    return saved, shown


def figures(times: list[float]) -> str:
    q = statistics.quantiles(times, n=4)
    return (f"median {statistics.median(times) * 1000:6.0f} ms, quartiles {q[0] * 1000:.0f}-{q[2] * 1000:.0f} ms, "
            f"max {max(times) * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="the checkout whose app.py is served (default: this one)")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another checkout measured first, in the same run, for a before/after ratio")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()
    if not CHROMIUM.exists():
        print("no /usr/bin/chromium: nothing measured (`make browser`)")
        return
    roots = ([args.baseline.resolve()] if args.baseline else []) + [args.root.resolve()]
    medians = []
    for root in roots:
        load = os.getloadavg()[0]
        saved, shown = measure(root, args.rounds)
        print(f"app of {root}, {len(shown)} entries (place, end turn, two undos) at 390 px in headless Chromium, "
              f"load average {load:.1f} before and {os.getloadavg()[0]:.1f} after:")
        print(f"  tap to saved: {figures(saved)}")
        print(f"  tap to shown: {figures(shown)}")
        medians.append(statistics.median(shown))
    if len(medians) == 2:
        print(f"tap to shown, median: {medians[1] / medians[0]:.2f} x the baseline's")


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
