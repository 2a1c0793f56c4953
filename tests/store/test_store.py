"""The game store: round trips, versions and conflicts, schemas, and every way its file can fail."""

from __future__ import annotations

import sqlite3
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import event
from support.claims import claimed_by_one

from analyzer.analysis.log import log_lines
from analyzer.analysis.position import new_game_from_position, with_player_labels
from analyzer.bots.random_bot import RandomBot
from analyzer.errors import StoreConflictError, StoreError
from analyzer.game.state import GameState, turn_number
from analyzer.live import LiveGame
from analyzer.store import APPLICATION_ID, DB_ENV, SCHEMA_VERSION, GameStore, database_url, default_path


def game(seed: int = 1, n_players: int = 3) -> GameState:
    return GameState.random_start(n_players, np.random.default_rng(seed))


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    return GameStore(tmp_path / "games.sqlite3")


def test_a_game_comes_back_as_it_was_stored_history_and_labels_included(store: GameStore) -> None:
    state = with_player_labels(game(), ["Ann", "Bo", "Cy"], ["#d62728", "#1f5fbf", "#2ca02c"])
    state.apply(state.legal_actions()[0])  # a move in the history, which must replay on loading
    stored = store.create(state, "Friday night")
    back = GameStore(store.path).load(stored.id)  # another store object: nothing kept in memory
    assert back.state.to_json() == state.to_json()
    assert back.name == "Friday night" and back.version == 1
    (summary,) = store.list()
    assert (summary.id, summary.name, summary.players, summary.turn) == (
        stored.id,
        "Friday night",
        ("Ann", "Bo", "Cy"),
        turn_number(state),
    )


def test_each_save_is_a_new_version_and_every_version_is_kept(store: GameStore) -> None:
    first = game()
    stored = store.create(first, "g")
    second = new_game_from_position(first, armies={"Peru": 9})
    assert store.save(stored.id, second, expected_version=1).version == 2
    assert store.version(stored.id) == 2
    assert [v for v, _ in store.history(stored.id)] == [1, 2]
    assert int(store.load(stored.id).state.armies[first.board.index("Peru")]) == 9
    assert store.load(stored.id, version=1).state.to_json() == first.to_json()


def test_a_change_made_on_an_old_version_is_refused_with_the_fresh_game(store: GameStore) -> None:
    state = game()
    stored = store.create(state, "g")
    theirs = new_game_from_position(state, armies={"Peru": 9})
    store.save(stored.id, theirs, expected_version=1)
    mine = new_game_from_position(state, armies={"Peru": 4})
    with pytest.raises(StoreConflictError, match="changed elsewhere") as refused:
        store.save(stored.id, mine, expected_version=1)
    assert refused.value.current.version == 2
    assert refused.value.current.state.to_json() == theirs.to_json()
    assert store.load(stored.id).state.to_json() == theirs.to_json()  # nothing overwritten
    assert store.version(stored.id) == 2


def test_two_writers_racing_on_one_version_one_wins(store: GameStore) -> None:
    state = game()
    stored = store.create(state, "g")
    outcomes: list[str] = []

    def write(armies: int) -> None:
        try:
            GameStore(store.path).save(
                stored.id, new_game_from_position(state, armies={"Peru": armies}), expected_version=1
            )
            outcomes.append("saved")
        except StoreConflictError:
            outcomes.append("refused")

    threads = [threading.Thread(target=write, args=(a,)) for a in (5, 6, 7, 8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["refused"] * 3 + ["saved"]
    assert store.version(stored.id) == 2


def test_list_rename_and_delete(store: GameStore) -> None:
    a = store.create(game(1), "first")
    b = store.create(game(2, 4), "second")
    assert [g.name for g in store.list()] == ["second", "first"]  # the last changed first
    store.rename(a.id, "  renamed  ")
    assert {g.id: g.name for g in store.list()} == {a.id: "renamed", b.id: "second"}
    assert store.version(a.id) == 1  # a name is not part of the game
    store.delete(b.id)
    assert [g.id for g in store.list()] == [a.id]
    # A deleted game is neither read nor changed, and says so.
    for call in (
        lambda: store.load(b.id),
        lambda: store.head(b.id),
        lambda: store.history(b.id),
        lambda: store.save(b.id, game(), expected_version=1),
        lambda: store.rename(b.id, "again"),
        lambda: store.delete(b.id),
    ):
        with pytest.raises(StoreError, match="the game 'second' was deleted: restore it"):
            call()
    with pytest.raises(StoreError, match="no deleted game"):
        store.purge(a.id)  # a listed game is deleted first: no single call removes one
    (deleted,) = store.deleted_games()
    assert (deleted.id, deleted.name, deleted.version) == (b.id, "second", 1) and deleted.deleted is not None
    assert all(g.deleted is None for g in store.list())
    # Restored, it is listed again as it was, its versions kept.
    store.save(a.id, game(3), expected_version=1)
    store.restore(b.id)
    assert [g.id for g in store.list()] == [a.id, b.id] and store.deleted_games() == []
    assert store.load(b.id).state.to_json() == game(2, 4).to_json() and [v for v, _ in store.history(b.id)] == [1]
    with pytest.raises(StoreError, match="no deleted game"):
        store.restore(b.id)
    # Deleted for good: gone, its versions with it.
    store.delete(b.id)
    store.purge(b.id)
    assert store.deleted_games() == [] and [g.id for g in store.list()] == [a.id]
    with pytest.raises(StoreError, match="no game .* deleted for good"):
        store.load(b.id)
    with pytest.raises(StoreError, match="no game"):
        store.delete(b.id)


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, 7])
def test_a_bad_name_is_refused(store: GameStore, name: object) -> None:
    with pytest.raises(StoreError, match="1 to 40 characters"):
        store.create(game(), name)  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", ["", "a/b", "x" * 65, "'; DROP TABLE games; --"])
def test_a_malformed_id_is_refused(store: GameStore, game_id: str) -> None:
    with pytest.raises(StoreError, match="game id"):
        store.load(game_id)


def test_a_file_of_a_newer_schema_is_refused_not_misread(store: GameStore) -> None:
    store.create(game(), "g")
    with sqlite3.connect(store.path) as connection:
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match=f"newer Risk Analyzer \\(schema {SCHEMA_VERSION + 1}\\)"):
        GameStore(store.path).list()


def test_a_file_of_an_older_schema_is_refused_not_misread(store: GameStore) -> None:
    with sqlite3.connect(store.path) as connection:
        connection.execute("CREATE TABLE games (id TEXT, json TEXT)")
        connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        connection.execute("PRAGMA user_version = 0")
    with pytest.raises(StoreError, match="older Risk Analyzer \\(schema 0\\)"):
        store.list()


def test_another_programs_database_is_refused(store: GameStore) -> None:
    with sqlite3.connect(store.path) as connection:
        connection.execute("CREATE TABLE games (id TEXT)")
    with pytest.raises(StoreError, match="another program"):
        store.list()


def test_a_damaged_file_gives_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="damaged or is not a database"):
        GameStore(path).list()


def test_a_damaged_game_row_is_named(store: GameStore) -> None:
    stored = store.create(game(), "broken")
    with sqlite3.connect(store.path) as connection:
        connection.execute("UPDATE games SET state = '{\"format\": 99}'")
    with pytest.raises(StoreError, match="'broken' .* does not load"):
        store.load(stored.id)


def test_an_unwritable_path_gives_a_clear_message(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="cannot be created"):
        GameStore(blocker / "games.sqlite3").list()


def test_a_locked_file_gives_a_clear_message(store: GameStore) -> None:
    stored = store.create(game(), "g")
    holder = sqlite3.connect(store.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match="locked"):
            GameStore(store.path, timeout=0.1).save(stored.id, game(), expected_version=1)
    finally:
        holder.close()
    assert store.version(stored.id) == 1


def test_the_file_is_chosen_by_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(DB_ENV, str(tmp_path / "club.sqlite3"))
    assert default_path() == tmp_path / "club.sqlite3"
    monkeypatch.delenv(DB_ENV)
    assert default_path().name == "games.sqlite3" and "risk-analyzer" in str(default_path())


def test_a_game_that_would_not_load_back_is_not_saved(store: GameStore) -> None:
    stored = store.create(game(), "g")
    broken = game()
    broken.labels["names"] = ["only one name"]  # three seats: player_labels refuses it on loading
    with pytest.raises(StoreError):
        store.save(stored.id, broken, expected_version=1)
    assert store.version(stored.id) == 1


def test_a_game_moved_on_by_the_engine_is_stored_and_replayed(store: GameStore) -> None:
    state = game(3, 2)
    rng = np.random.default_rng(5)
    stored = store.create(state, "g")
    version = stored.version
    for _ in range(30):
        if state.is_chance():
            state.apply_chance(rng)
        else:
            actions = state.legal_actions()
            state.apply(actions[int(rng.integers(len(actions)))])
        version = store.save(stored.id, state, expected_version=version).version
    assert store.load(stored.id).state.to_json() == state.to_json()
    assert len(store.history(stored.id)) == 31


# ---------------------------------------------------------------------------------- cached analyses
def test_a_cached_result_comes_back_by_kind_and_key_and_is_replaced(store: GameStore) -> None:
    assert store.get_cached("win-chances", "p1") is None
    store.put_cached("win-chances", "p1", "[0.5, 0.5]")
    store.put_cached("other", "p1", "x")
    assert GameStore(store.path).get_cached("win-chances", "p1") == "[0.5, 0.5]"  # kept in the file
    store.put_cached("win-chances", "p1", "[0.6, 0.4]")
    assert store.get_cached("win-chances", "p1") == "[0.6, 0.4]"
    assert store.get_cached("other", "p1") == "x"
    assert store.get_cached("win-chances", "p2") is None


def test_a_cache_of_the_newest_keeps_that_many_of_its_kind_the_last_saved(store: GameStore) -> None:
    store.put_cached("other", "o", "x")
    for k in range(5):
        store.put_cached("review", f"r{k}", f"review {k}", newest=3)
    assert [store.get_cached("review", f"r{k}") for k in range(5)] == [None, None, "review 2", "review 3", "review 4"]
    # Saved again, a result is the newest: the oldest of the others goes.
    store.put_cached("review", "r2", "review 2 again", newest=3)
    store.put_cached("review", "r5", "review 5", newest=3)
    assert [store.get_cached("review", f"r{k}") for k in (2, 3, 4, 5)] == [
        "review 2 again",
        None,
        "review 4",
        "review 5",
    ]
    assert store.get_cached("other", "o") == "x"  # another kind is not counted
    with pytest.raises(StoreError, match="newest must be a whole number >= 1, got 0"):
        store.put_cached("review", "r6", "review 6", newest=0)


def test_a_claimed_entry_is_taken_by_one_until_it_is_old_or_dropped(store: GameStore) -> None:
    claimed = store.claim_cached("review-progress", "r", "first", older_than=60)
    assert claimed and not store.claim_cached("review-progress", "r", "second", older_than=60)
    assert GameStore(store.path).get_cached("review-progress", "r") == "first"
    assert store.claim_cached("review-progress", "other", "third", older_than=60)  # another key is free
    time.sleep(0.05)
    assert store.claim_cached("review-progress", "r", "fourth", older_than=0.01)  # held too long ago: taken
    store.drop_cached("review-progress", "r")
    assert store.get_cached("review-progress", "r") is None
    assert store.claim_cached("review-progress", "r", "fifth", older_than=60)


def test_claims_at_once_on_a_file_go_to_one(store: GameStore) -> None:
    # Eight stores open the new file at once, as servers started together do: each works, and the file is left
    # in WAL mode (setting it failed with the driver's "database is locked" while another store had the file open).
    claimed_by_one(lambda: GameStore(store.path))
    with sqlite3.connect(store.path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize(
    "kind, key, value",
    [("", "k", "v"), ("k" * 65, "k", "v"), ("w", "", "v"), ("w", "k" * 4097, "v"), ("w", "k", 3), (None, "k", "v")],
)
def test_a_bad_cache_entry_is_refused(store: GameStore, kind: object, key: object, value: object) -> None:
    with pytest.raises(StoreError, match="cached result's"):
        store.put_cached(kind, key, value)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------- files of the sqlite3 store
# What the store wrote before it moved to SQLAlchemy (schema 1), statement for statement.
SCHEMA_1 = """
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    players TEXT NOT NULL,          -- the players' names, one a line: the start page's summary
    turn INTEGER NOT NULL,
    version INTEGER NOT NULL,
    state TEXT NOT NULL,            -- GameState.to_json(), history included
    created REAL NOT NULL,          -- Unix time
    updated REAL NOT NULL
);
CREATE TABLE versions (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    state TEXT NOT NULL,
    saved REAL NOT NULL,
    PRIMARY KEY (game_id, version)
);
"""


def schema_1_file(path: Path, first: GameState, second: GameState) -> None:
    """A file as the sqlite3 store left it: one game 'Old game' saved twice (versions 1 and 2)."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("BEGIN IMMEDIATE")
    for statement in SCHEMA_1.split(";"):
        if statement.strip():
            connection.execute(statement)
    connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    connection.execute("PRAGMA user_version = 1")
    connection.execute("COMMIT")
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("BEGIN IMMEDIATE")
    connection.execute(
        "INSERT INTO games VALUES (?, ?, ?, ?, 1, ?, ?, ?)",
        ("old-id", "Old game", "Red\nBlue\nGreen", int(first.turn), first.to_json(), 1000.0, 1000.0),
    )
    connection.execute("INSERT INTO versions VALUES (?, 1, ?, ?)", ("old-id", first.to_json(), 1000.0))
    connection.execute(
        "UPDATE games SET state = ?, version = 2, updated = ? WHERE id = ?", (second.to_json(), 2000.0, "old-id")
    )
    connection.execute("INSERT INTO versions VALUES (?, 2, ?, ?)", ("old-id", second.to_json(), 2000.0))
    connection.execute("COMMIT")
    connection.close()


def test_a_file_of_the_sqlite3_store_opens_with_its_games_and_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    first = game()
    second = new_game_from_position(first, armies={"Peru": 9})
    schema_1_file(path, first, second)
    store = GameStore(path)
    (summary,) = store.list()
    assert (summary.id, summary.name, summary.version, summary.updated.timestamp()) == ("old-id", "Old game", 2, 2000.0)
    assert store.load("old-id").state.to_json() == second.to_json()
    assert store.load("old-id", version=1).state.to_json() == first.to_json()
    assert [v for v, _ in store.history("old-id")] == [1, 2]
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
        assert connection.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # The migrated file takes new versions and cached results like a new one.
    assert store.save("old-id", new_game_from_position(second, armies={"Peru": 3}), expected_version=2).version == 3
    store.put_cached("win-chances", "k", "v")
    assert GameStore(path).get_cached("win-chances", "k") == "v"
    store.delete("old-id")
    assert store.list() == [] and [g.id for g in store.deleted_games()] == ["old-id"]
    store.purge("old-id")  # the foreign key still removes the versions with the game
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT count(*) FROM versions").fetchone()[0] == 0


# ---------------------------------------------------------------------------------- the database by path or URL
def test_the_database_may_be_a_url(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(DB_ENV, "postgresql://club:secret@db.example/risk")
    assert default_path() == "postgresql://club:secret@db.example/risk"
    server = database_url(default_path())
    assert (server.drivername, server.host, server.database) == ("postgresql+psycopg", "db.example", "risk")
    assert GameStore().where == "postgresql+psycopg://club:***@db.example/risk"
    monkeypatch.setenv(DB_ENV, f"sqlite:///{tmp_path}/club.sqlite3")
    store = GameStore()
    assert store.path == tmp_path / "club.sqlite3"
    store.create(game(), "g")
    assert [g.name for g in GameStore(tmp_path / "club.sqlite3").list()] == ["g"]  # the same file by its path


@pytest.mark.parametrize(
    "url, message",
    [
        ("mysql://u@h/db", "must be a file path, sqlite:///FILE or postgresql"),
        ("sqlite://", "must name a file"),
        ("sqlite:///:memory:", "must name a file"),
        ("postgresql://u@h:notaport/db", "malformed URL"),
    ],
)
def test_a_database_url_of_another_kind_is_refused(url: str, message: str) -> None:
    with pytest.raises(StoreError, match=message):
        GameStore(url)


def test_a_postgresql_url_without_the_driver_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as in a default install, without the postgres extra
    with pytest.raises(
        StoreError, match=r"PostgreSQL driver, which is not installed: pip install 'risk-analyzer\[postgres\]'"
    ):
        GameStore("postgresql+psycopg://club:secret@127.0.0.1:1/risk").list()


def test_a_full_disk_gives_a_clear_message_and_the_next_save_works_once_there_is_room(store: GameStore) -> None:
    stored = store.create(game(), "g")
    with sqlite3.connect(store.path) as connection:
        pages = connection.execute("PRAGMA page_count").fetchone()[0]

    def no_room(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        # The file may not grow: SQLite reports SQLITE_FULL, as on a full disk.
        dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

    engine = store._ready()
    event.listen(engine, "connect", no_room)
    entry, rng = game(), np.random.default_rng(3)
    for _ in range(300):  # a long history: the new version needs pages the file may not add
        entry.apply_chance(rng) if entry.is_chance() else entry.apply(RandomBot().choose(entry, rng))
    with pytest.raises(StoreError, match="the disk is full"):
        store.save(stored.id, entry, expected_version=1)
    event.remove(engine, "connect", no_room)
    assert store.version(stored.id) == 1
    assert store.save(stored.id, entry, expected_version=1).version == 2


def test_the_games_list_shows_the_tables_turn_number(store: GameStore) -> None:
    # Four player-turns at a 3-player table: everyone has had a first turn and Ann a second, so turn 2.
    live = LiveGame.random(["Ann", "Bo", "Cy"], np.random.default_rng(4))
    for _ in range(4):
        s = live.state
        live.place({s.territories_of(s.player)[0]: s.pending})
        live.end_turn()
    state = live.state
    assert (turn_number(state), live.turn, state.turn) == (2, 2, 5)
    stored = store.create(state, "Four turns in")
    assert [g.turn for g in store.list() if g.id == stored.id] == [2]
    assert log_lines(state)[-1].text.startswith("Turn 2, ")
