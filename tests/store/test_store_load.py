"""The store under load: 20 writer processes on 5 games, 50 entries each, on PostgreSQL and on SQLite.

Each writer plays its game forward (a random bot's move, or the dice) and saves it against the version it
played on; when refused (another writer saved first) it takes the fresh game and plays again, as a phone
at the table would. Afterwards every accepted entry must be in its game's versions, the versions must be
1, 2, 3... with nothing missing or extra, each version must be the one before it plus exactly one entry, and
the stored game must equal the replay of its log by the engine.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import numpy as np
import pytest
from support.postgres import postgres_server, postgres_url  # noqa: F401 - fixtures

from analyzer.bots.random_bot import RandomBot
from analyzer.errors import StoreConflictError
from analyzer.game.state import GameState
from analyzer.store import GameStore

pytestmark = pytest.mark.xdist_group("postgres")

WRITERS, GAMES, ENTRIES = 20, 5, 50
#: Generous: under this load on two cores a writer may queue for SQLite's lock for seconds.
TIMEOUT = 120.0


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def writer(where: str, game_id: str, seed: int, start_at: float) -> tuple[list[tuple[int, str]], int]:
    """Make :data:`ENTRIES` entries on ``game_id``: the versions accepted (with a digest of what was saved)
    and how many saves were refused."""
    store = GameStore(where, timeout=TIMEOUT)
    rng = np.random.default_rng(seed)
    bot = RandomBot()
    current = store.load(game_id)
    time.sleep(max(0.0, start_at - time.time()))  # every writer starts at once
    accepted: list[tuple[int, str]] = []
    refused = 0
    while len(accepted) < ENTRIES:
        state = current.state.copy()
        assert not state.is_terminal(), "a game ended: the load test needs longer games"
        if state.is_chance():
            state.apply_chance(rng)
        else:
            state.apply(bot.choose(state, rng))
        try:
            current = store.save(game_id, state, expected_version=current.version)
        except StoreConflictError as exc:
            current = exc.current  # type: ignore[assignment]
            refused += 1
            continue
        accepted.append((current.version, digest(state.to_json())))
    store.close()
    return accepted, refused


def position(rng: np.random.Generator) -> GameState:
    """A 4-player position as entered at a table mid-game (so every game's log is its entries only)."""
    owner = rng.permutation(np.arange(42) % 4)
    return GameState.from_position(owner, rng.integers(1, 6, size=42), n_players=4)


def run_writers(where: str) -> None:
    store = GameStore(where, timeout=TIMEOUT)
    seeds = np.random.SeedSequence(2026).spawn(GAMES + WRITERS)
    ids = [store.create(position(np.random.default_rng(s)), f"table {i}").id for i, s in enumerate(seeds[:GAMES])]
    store.close()  # the writers are forked: none may share this process's connections
    start_at = time.time() + 2.0
    with ProcessPoolExecutor(WRITERS, mp_context=get_context("fork")) as pool:
        futures = [
            pool.submit(writer, where, ids[w % GAMES], int(seeds[GAMES + w].generate_state(1)[0]), start_at)
            for w in range(WRITERS)
        ]
        results = [f.result(timeout=600) for f in futures]

    accepted: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for w, (entries, _) in enumerate(results):
        accepted[ids[w % GAMES]] += entries
    refused = sum(r for _, r in results)
    print(f"{WRITERS * ENTRIES} entries accepted, {refused} refused")
    assert refused > 0, "no save was ever refused: the writers did not race"

    records = {record.id: record for record in GameStore(where).export_games()}
    assert sorted(records) == sorted(ids)
    for game_id in ids:
        kept = records[game_id].versions
        # Nothing lost, nothing extra: version 1 (created) and one version per accepted entry, numbered 1, 2, 3...
        assert [v.version for v in kept] == list(range(1, 1 + len(kept)))
        assert len(kept) == 1 + (WRITERS // GAMES) * ENTRIES == 1 + len(accepted[game_id])
        stored = {v.version: digest(v.state) for v in kept}
        assert sorted(accepted[game_id]) == sorted((v, d) for v, d in stored.items() if v > 1)
        # Each version is the one before it plus exactly one entry: no save was made on a stale game.
        histories = [json.loads(v.state)["history"] for v in kept]
        for before, after in zip(histories, histories[1:]):
            assert after[:-1] == before
        final = GameStore(where).load(game_id).state
        replayed = GameState.replay(final.initial, final.history, final.rules, final.board)
        assert replayed == final
        assert len(final.history) == (WRITERS // GAMES) * ENTRIES


def test_twenty_writers_on_postgresql_lose_nothing(postgres_url: str) -> None:
    run_writers(postgres_url)


def test_twenty_writers_on_sqlite_lose_nothing(tmp_path: Path) -> None:
    run_writers(str(tmp_path / "games.sqlite3"))
