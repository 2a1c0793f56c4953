"""The game store under concurrent writers: entries per second and the p50/p99 time of a save, for 1, 5 and 20
writer processes on 5 games, on an SQLite file and on a PostgreSQL server (a throwaway cluster, fsync on).

Each writer plays its game forward one entry at a time (a random bot's move, or the dice) from a position
entered mid-game, and saves it against the version it played on; a refused save (another writer saved first)
takes the fresh game and plays again. A save's time is all of ``GameStore.save``: the check that the game loads
back (its history replayed) and the transaction; refused saves are timed too. Nothing is asserted:
``make bench`` prints the figures, and each one's ratio to 1 writer on SQLite measured in the same run.
"""

from __future__ import annotations

import os
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import numpy as np
import tests_support  # noqa: F401 - puts tests/ on the path
from support.scratch_postgres import ScratchServer

from analyzer.bots.random_bot import RandomBot
from analyzer.errors import StoreConflictError
from analyzer.game.state import GameState
from analyzer.store import GameStore

WRITERS = (1, 5, 20)
GAMES = 5
#: Entries each writer makes.
ENTRIES = 40
TIMEOUT = 120.0


def position(rng: np.random.Generator) -> GameState:
    owner = rng.permutation(np.arange(42) % 4)
    return GameState.from_position(owner, rng.integers(1, 6, size=42), n_players=4)


def writer(where: str, game_id: str, seed: int, start_at: float) -> tuple[list[float], int]:
    """The time of every save (seconds) and how many were refused."""
    store = GameStore(where, timeout=TIMEOUT)
    rng = np.random.default_rng(seed)
    bot = RandomBot()
    current = store.load(game_id)
    time.sleep(max(0.0, start_at - time.time()))
    times: list[float] = []
    refused = accepted = 0
    while accepted < ENTRIES:
        state = current.state.copy()
        state.apply_chance(rng) if state.is_chance() else state.apply(bot.choose(state, rng))
        started = time.perf_counter()
        try:
            current = store.save(game_id, state, expected_version=current.version)
            accepted += 1
        except StoreConflictError as exc:
            current = exc.current  # type: ignore[assignment]
            refused += 1
        times.append(time.perf_counter() - started)
    store.close()
    return times, refused


def run(where: str, writers: int) -> tuple[float, float, float, int, int]:
    """Entries per second, p50 and p99 save time (ms), entries and refusals of ``writers`` writers."""
    store = GameStore(where, timeout=TIMEOUT)
    seeds = np.random.SeedSequence(writers).spawn(GAMES + writers)
    ids = [store.create(position(np.random.default_rng(s)), f"table {i}").id for i, s in enumerate(seeds[:GAMES])]
    store.close()
    start_at = time.time() + 1.0
    with ProcessPoolExecutor(writers, mp_context=get_context("fork")) as pool:
        futures = [
            pool.submit(writer, where, ids[w % GAMES], int(seeds[GAMES + w].generate_state(1)[0]), start_at)
            for w in range(writers)
        ]
        results = [f.result() for f in futures]
        elapsed = time.time() - start_at
    times = np.concatenate([t for t, _ in results]) * 1000
    entries = writers * ENTRIES
    return (
        entries / elapsed,
        float(np.percentile(times, 50)),
        float(np.percentile(times, 99)),
        entries,
        sum(r for _, r in results),
    )


def main() -> None:
    print(
        f"{GAMES} games, {ENTRIES} entries per writer, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f} at the start"
    )
    figures: dict[tuple[str, int], tuple[float, float, float, int, int]] = {}
    with tempfile.TemporaryDirectory() as folder, ScratchServer() as server:
        for database in ("SQLite", "PostgreSQL"):
            for writers in WRITERS:
                where = (
                    str(Path(folder) / f"games-{writers}.sqlite3")
                    if database == "SQLite"
                    else server.create_database(f"bench_{writers}")
                )
                figures[database, writers] = run(where, writers)
    base = figures["SQLite", 1][0]
    print(
        f"{'database':11s} {'writers':>7s} {'entries/s':>10s} {'x SQLite-1':>10s} {'p50 ms':>8s} {'p99 ms':>8s} "
        f"{'entries':>8s} {'refused':>8s}"
    )
    for (database, writers), (rate, p50, p99, entries, refused) in figures.items():
        print(
            f"{database:11s} {writers:7d} {rate:10.1f} {rate / base:10.2f} {p50:8.1f} {p99:8.1f} {entries:8d} "
            f"{refused:8d}"
        )
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
