"""The app under the load of a club: 10 headless browser sessions on 5 games, served by 2 Streamlit processes on
one PostgreSQL database (a throwaway cluster), each session entering at a table's pace (a few seconds apart).

An entry is what a player does on the Board tab: pick a territory, type its armies, press Apply. The figure is the
server's time per entry: from the click on Apply to the commit of the version holding it, read from the time the
store wrote on that version (so it includes the websocket, the page's run and the save, and any refusal and the
second click it needs, but neither the browser's drawing nor the think time). Sessions on one game edit different
territories; a refused entry ("changed elsewhere") is applied again, as the page invites, and an entry whose
widgets were started afresh by another device's change (the page's polling) is picked and typed again. Nothing is
asserted; ``make bench`` prints the figures and how many entries no version holds. Needs Debian's chromium
(``make browser``).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import tests_support  # noqa: F401 - puts tests/ on the path
from playwright.async_api import Page, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeout
from support.ports import free_port
from support.scratch_postgres import ScratchServer

from analyzer.game.board import classic_board
from analyzer.game.state import GameState
from analyzer.store import DB_ENV, GameStore

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
SESSIONS, GAMES, SERVERS = 10, 5, 2
ENTRIES = 5
#: Seconds a player takes between two entries.
THINK = (2.0, 5.0)
PICKER = "Pick territories (type to search, or click them on the map): ringed on the map, edited here"
TIMEOUT_MS = 300_000
#: True once the page has no run under way (Streamlit shows its status widget while the script runs).
NOT_RUNNING = "() => document.querySelector('[data-testid=stStatusWidget]') === null"
BOARD = classic_board()


def position(rng: np.random.Generator) -> GameState:
    owner = rng.permutation(np.arange(42) % 4)
    return GameState.from_position(owner, rng.integers(1, 6, size=42), n_players=4)


def start_server(url: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.headless",
            "true",
            "--server.port",
            str(port),
        ],
        cwd=ROOT,
        env={**os.environ, DB_ENV: url},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return process, f"http://127.0.0.1:{port}"


def wait_healthy(address: str) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{address}/_stcore/health", timeout=2) as response:
                if response.read().decode().strip() == "ok":
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"the app at {address} did not start")


async def session(
    page: Page,
    address: str,
    store: GameStore,
    game_id: str,
    territory: str,
    seed: int,
    clicks: list[tuple[str, str, int, float]],
    refusals: list[int],
) -> None:
    """Make :data:`ENTRIES` entries on ``territory`` of ``game_id``; each entry's first click goes in ``clicks``."""
    pace = random.Random(seed)
    page.set_default_timeout(TIMEOUT_MS)
    await page.goto(f"{address}/?game={game_id}")
    await page.get_by_text("Saved: version ").wait_for()
    apply = page.get_by_role("button", name="Apply to the picked territories")
    for entry in range(ENTRIES):
        await asyncio.sleep(pace.uniform(*THINK))
        armies = 100 + 10 * seed + entry  # never seen before on this territory: the entry is found by it
        clicked = False
        for _ in range(20):
            # Another device's change, brought in by the page's polling, starts the widgets afresh: the
            # player picks again, as here, whenever Apply is not (or no longer) enabled.
            picker = page.get_by_label(PICKER)
            await picker.click()
            await picker.fill(territory)
            await picker.press("Enter")
            await page.keyboard.press("Escape")
            field = page.get_by_label("Armies on each", exact=True)
            await field.fill(str(armies))
            await field.press("Enter")
            await page.wait_for_function(NOT_RUNNING)
            if not await apply.is_enabled():
                continue
            if not clicked:
                clicks.append((game_id, territory, armies, time.time()))
                clicked = True
            try:
                await apply.click(timeout=10_000)
            except PlaywrightTimeout:
                continue
            # Done when the game as stored holds the entry; the page's refusal asks for another click.
            if await stored_or_refused(page, store, game_id, territory, armies):
                break
            refusals.append(1)
        else:
            raise RuntimeError(f"session {seed} could not enter {armies} armies on {territory}")


async def stored_or_refused(page: Page, store: GameStore, game_id: str, territory: str, armies: int) -> bool:
    """Wait until the entry is stored (True) or the page shows a refusal (False); at most a minute."""
    refusal = page.get_by_test_id("stAlertContentError").filter(has_text="changed elsewhere")
    t = BOARD.index(territory)
    for _ in range(120):
        if await asyncio.to_thread(lambda: int(store.load(game_id).state.armies[t])) == armies:
            return True
        if await refusal.count() > 0:
            return False
        await asyncio.sleep(0.5)
    return False


def landed(where: str, clicks: list[tuple[str, str, int, float]]) -> list[float]:
    """The time from each entry's click to the commit of the first version that holds it (seconds); NaN for an
    entry no version holds (a click the page did not take)."""
    records = {r.id: r for r in GameStore(where).export_games()}
    times = []
    for game_id, territory, armies, clicked in clicks:
        t = BOARD.index(territory)
        found = next(
            (
                v.saved
                for v in records[game_id].versions
                if json.loads(v.state)["armies"][t] == armies and v.saved >= clicked
            ),
            None,
        )
        times.append(float("nan") if found is None else found - clicked)
    return times


async def drive(
    addresses: list[str], store: GameStore, ids: list[str]
) -> tuple[list[tuple[str, str, int, float]], int, float]:
    clicks: list[tuple[str, str, int, float]] = []
    refusals: list[int] = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        pages = [
            await (await browser.new_context(viewport={"width": 1400, "height": 1000})).new_page()
            for _ in range(SESSIONS)
        ]
        started = time.time()
        # Sessions s and s + GAMES play one game, on different territories, through different servers.
        await asyncio.gather(
            *(
                session(
                    pages[s], addresses[s % SERVERS], store, ids[s % GAMES], BOARD.territories[s], s, clicks, refusals
                )
                for s in range(SESSIONS)
            )
        )
        elapsed = time.time() - started
        await browser.close()
    return clicks, len(refusals), elapsed


def main() -> None:
    if not CHROMIUM.exists():
        print("no /usr/bin/chromium: `make browser` first")
        return
    print(
        f"{SESSIONS} browser sessions on {GAMES} games through {SERVERS} app servers, {ENTRIES} entries each, "
        f"{THINK[0]:g}-{THINK[1]:g} s apart; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
    )
    with ScratchServer() as database:
        url = database.create_database("club")
        store = GameStore(url)
        ids = [store.create(position(np.random.default_rng(g)), f"table {g}").id for g in range(GAMES)]
        store.close()
        servers = [start_server(url) for _ in range(SERVERS)]
        try:
            for _, address in servers:
                wait_healthy(address)
            clicks, refused, elapsed = asyncio.run(drive([a for _, a in servers], GameStore(url), ids))
        finally:
            for process, _ in servers:
                process.terminate()
                process.wait()
        times = np.array(landed(url, clicks)) * 1000
    missing = int(np.isnan(times).sum())
    times = times[~np.isnan(times)]
    print(
        f"{len(clicks)} entries in {elapsed:.0f} s: {len(times)} stored, {missing} not found in any version; "
        f"{refused} refused saves applied again"
    )
    print(
        f"server time per entry (click on Apply to commit): p50 {np.percentile(times, 50):.0f} ms, "
        f"p99 {np.percentile(times, 99):.0f} ms, max {times.max():.0f} ms"
    )
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
