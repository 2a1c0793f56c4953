"""The game store on a real PostgreSQL server (a throwaway cluster): the behaviours of the SQLite store,
a schema shared by many servers, and a server that goes away mid-game and comes back."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from sqlalchemy import create_engine
from support.claims import claimed_by_one
from support.postgres import postgres_server, postgres_url  # noqa: F401 - fixtures
from support.scratch_postgres import PASSWORD, ScratchServer

from analyzer.analysis.position import new_game_from_position, with_player_labels
from analyzer.errors import StoreConflictError, StoreError
from analyzer.game.state import GameState
from analyzer.store import SCHEMA_VERSION, GameStore

pytestmark = pytest.mark.xdist_group("postgres")


def game(seed: int = 1, n_players: int = 3) -> GameState:
    return GameState.random_start(n_players, np.random.default_rng(seed))


def execute(url: str, *statements: str) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            for statement in statements:
                connection.exec_driver_sql(statement)
    finally:
        engine.dispose()


def test_a_game_comes_back_with_its_versions_and_a_stale_change_is_refused(postgres_url: str) -> None:
    store = GameStore(postgres_url)
    state = with_player_labels(game(), ["Ann", "Bo", "Cy"], ["#d62728", "#1f5fbf", "#2ca02c"])
    state.apply(state.legal_actions()[0])
    stored = store.create(state, "Friday night")
    back = GameStore(postgres_url).load(stored.id)
    assert back.state.to_json() == state.to_json() and (back.name, back.version) == ("Friday night", 1)
    theirs = new_game_from_position(state, armies={"Peru": 9})
    assert store.save(stored.id, theirs, expected_version=1).version == 2
    with pytest.raises(StoreConflictError, match="changed elsewhere") as refused:
        store.save(stored.id, new_game_from_position(state, armies={"Peru": 4}), expected_version=1)
    assert refused.value.current.state.to_json() == theirs.to_json()
    assert [v for v, _ in store.history(stored.id)] == [1, 2]
    assert store.load(stored.id, version=1).state.to_json() == state.to_json()
    (summary,) = store.list()
    assert (summary.name, summary.players, summary.version) == ("Friday night", ("Ann", "Bo", "Cy"), 2)


def test_eight_servers_racing_on_one_version_one_wins(postgres_url: str) -> None:
    state = game()
    stored = GameStore(postgres_url).create(state, "g")
    outcomes: list[str] = []
    start = threading.Barrier(8)

    def write(armies: int) -> None:
        store = GameStore(postgres_url)  # a pool of its own, as another app server would have
        store.version(stored.id)  # connected before the race
        start.wait()
        try:
            store.save(stored.id, new_game_from_position(state, armies={"Peru": armies}), expected_version=1)
            outcomes.append("saved")
        except StoreConflictError:
            outcomes.append("refused")
        store.close()

    threads = [threading.Thread(target=write, args=(a,)) for a in range(5, 13)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["refused"] * 7 + ["saved"]
    assert [v for v, _ in GameStore(postgres_url).history(stored.id)] == [1, 2]


def test_servers_starting_together_on_a_new_database_build_it_once(postgres_url: str) -> None:
    failures: list[BaseException] = []
    start = threading.Barrier(6)

    def first_use() -> None:
        start.wait()
        try:
            GameStore(postgres_url).list()
        except BaseException as exc:  # noqa: BLE001 - every failure is reported below
            failures.append(exc)

    threads = [threading.Thread(target=first_use) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_list_rename_delete_and_the_cache(postgres_url: str) -> None:
    store = GameStore(postgres_url)
    a = store.create(game(1), "first")
    b = store.create(game(2, 4), "second")
    assert [g.name for g in store.list()] == ["second", "first"]
    store.rename(a.id, "renamed")
    assert store.version(a.id) == 1
    store.delete(b.id)
    assert [(g.id, g.name) for g in store.list()] == [(a.id, "renamed")]
    with pytest.raises(StoreError, match="the game 'second' was deleted: restore it"):
        store.history(b.id)
    assert [g.id for g in store.deleted_games()] == [b.id]
    store.restore(b.id)
    assert store.load(b.id).state.to_json() == game(2, 4).to_json()
    store.delete(b.id)
    store.purge(b.id)
    with pytest.raises(StoreError, match="no game"):
        store.history(b.id)
    store.put_cached("win-chances", "p", "1")
    store.put_cached("win-chances", "p", "2")
    assert GameStore(postgres_url).get_cached("win-chances", "p") == "2"
    assert store.get_cached("win-chances", "q") is None
    assert store.claim_cached("review-progress", "r", "a", older_than=60)
    assert not GameStore(postgres_url).claim_cached("review-progress", "r", "b", older_than=60)
    store.drop_cached("review-progress", "r")
    assert store.claim_cached("review-progress", "r", "c", older_than=60)


def test_claims_at_once_on_a_server_go_to_one(postgres_url: str) -> None:
    claimed_by_one(lambda: GameStore(postgres_url))


def test_a_database_of_schema_2_is_migrated_and_its_games_can_be_deleted_and_restored(postgres_url: str) -> None:
    kept = GameStore(postgres_url).create(game(1), "kept")
    # The database as schema 2 left it: no column for deleted games.
    execute(postgres_url, "ALTER TABLE games DROP COLUMN deleted")
    execute(postgres_url, "UPDATE store_schema SET version = 2")
    store = GameStore(postgres_url)
    assert [g.id for g in store.list()] == [kept.id] and store.load(kept.id).version == 1
    engine = create_engine(postgres_url)
    with engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT version FROM store_schema").scalar_one() == SCHEMA_VERSION == 3
    engine.dispose()
    store.delete(kept.id)
    assert store.list() == [] and [g.id for g in store.deleted_games()] == [kept.id]
    store.restore(kept.id)
    assert [g.id for g in store.list()] == [kept.id]


def test_a_database_of_a_newer_schema_is_refused(postgres_url: str) -> None:
    GameStore(postgres_url).list()
    execute(postgres_url, f"UPDATE store_schema SET version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match=f"newer Risk Analyzer \\(schema {SCHEMA_VERSION + 1}\\)"):
        GameStore(postgres_url).list()


def test_another_programs_tables_are_refused_and_unrelated_ones_left_alone(
    postgres_url: str, postgres_server: ScratchServer
) -> None:
    execute(postgres_url, "CREATE TABLE games (id TEXT)")
    with pytest.raises(StoreError, match="another program"):
        GameStore(postgres_url).list()
    shared = postgres_server.create_database("shared_with_others")
    execute(shared, "CREATE TABLE invoices (id INTEGER)")
    store = GameStore(shared)
    store.create(game(), "g")
    assert [g.name for g in store.list()] == ["g"]


def test_a_server_that_goes_away_mid_game_keeps_the_game_and_takes_the_next_entry(
    postgres_server: ScratchServer, postgres_url: str
) -> None:
    store = GameStore(postgres_url, timeout=2)
    state = game()
    stored = store.create(state, "g")
    entry = new_game_from_position(state, armies={"Peru": 9})
    postgres_server.stop()
    try:
        for attempt in (
            lambda: store.save(stored.id, entry, expected_version=1),
            lambda: store.load(stored.id),
            lambda: GameStore(postgres_url).list(),
        ):
            with pytest.raises(StoreError) as failed:
                attempt()
            message = str(failed.value)
            assert "refused the connection" in message
            assert f"risk:***@127.0.0.1:{postgres_server.port}/" in message and PASSWORD not in message
    finally:
        postgres_server.start()
    # The same store object (its pool held connections to the stopped server) saves the entry kept.
    assert store.save(stored.id, entry, expected_version=1).version == 2
    assert store.load(stored.id).state.to_json() == entry.to_json()


def test_a_wrong_password_or_database_is_named_without_the_password(postgres_server: ScratchServer) -> None:
    with pytest.raises(StoreError, match="refused the login") as failed:
        GameStore(postgres_server.url("postgres", password="not-the-password")).list()
    assert "not-the-password" not in str(failed.value) and "risk:***@" in str(failed.value)
    with pytest.raises(StoreError, match="no such database"):
        GameStore(postgres_server.url("no_such_database")).list()
