"""The app's Review view (headless, through ``streamlit.testing``) and the win-chance strip's background valuation."""

from __future__ import annotations

import multiprocessing
import re
import sys
import time
import types
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest
from test_app_live import captured_then_ended

from analyzer.analysis.review import player_turns, position_chances, replay_turn, turn_positions
from analyzer.game.state import GameState, turn_number
from analyzer.live import LiveGame
from analyzer.store import DB_ENV, GameStore
from analyzer.text import plain
from analyzer.webapp import strip

APP = str(Path(__file__).resolve().parent.parent / "app.py")
TIMEOUT = 120


def recorded_game(turns: int = 3, seed: int = 6) -> GameState:
    rng = np.random.default_rng(seed)
    game = GameState.random_start(3, rng)
    for _ in range(turns):
        replay_turn(game, (), rng)
    return game


def test_the_review_view_reviews_a_stored_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv(DB_ENV, str(db))
    game = recorded_game(turns=5)
    game.labels["names"] = ["Ann", "Bo", "Cy"]
    stored = GameStore(db).create(game, "Friday game")
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["game"] = stored.id
    at.run()
    at.session_state["tab"] = "Review"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    at.select_slider(key="review_rollouts").set_value(50).run()
    at.button(key="review_run").click().run()
    assert not at.exception and not at.error, ([e.value for e in at.exception], [e.value for e in at.error])
    (summary,) = [df.value for df in at.dataframe if "Dice share" in df.value.columns]
    assert summary["Player"].tolist() == ["Ann", "Bo", "Cy"]
    # The table's turn numbers, as the log and the status give them: every player's n-th turn is turn n.
    names = ["Ann", "Bo", "Cy"]
    played = [(t.round, names[t.player]) for t in player_turns(game)]
    assert sorted({turn for turn, _ in played}) == [1, 2]
    assert all(text.endswith(("(turn 1)", "(turn 2)")) for text in summary["Largest mistake"])
    points = [m.value for m in at.markdown if re.match(r"Turn \d+, \*\*", m.value)]
    assert points
    for text in points:
        turn, name = re.match(r"Turn (\d+), \*\*(\w+)\*\*: ", text).groups()  # type: ignore[union-attr]
        assert (int(turn), name) in played
    assert not any("round" in m.value for m in at.markdown)
    (turns,) = [df.value for df in at.dataframe if "best_plan" in df.value.columns]
    assert list(zip(turns["turn"], turns["name"])) == played


@pytest.fixture
def fresh_worker(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The strip's worker process, new for the test: no valuation left running by an earlier test is waited for.

    It is spawned at the strip's first submit, from a bare ``__main__`` (``strip._bare_main``): AppTest, like a
    page's run, leaves its script as ``sys.modules["__main__"]``.
    """
    worker = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    monkeypatch.setattr(strip, "_WORKER", worker)
    yield
    worker.shutdown(cancel_futures=True)


def test_the_strip_values_positions_in_the_background_and_keeps_them_in_the_store(
    tmp_path: Path, fresh_worker: None
) -> None:
    games = GameStore(tmp_path / "games.sqlite3")
    game = recorded_game(2, seed=8)
    position = turn_positions(game)[-1]
    assert strip.chances(position, games) is None  # queued, not computed while the page waits
    for _ in range(1500):
        table = strip.chances(position, games)
        if table is not None:
            break
        time.sleep(0.2)
    assert table is not None
    expected = position_chances(position, rollouts=strip.ROLLOUTS)
    assert table.equals(expected)
    # Another server (nothing in memory) finds them in the store.
    strip._DONE.clear()
    again = strip.chances(position, games)
    assert again is not None
    assert np.allclose(again[["p_win", "ci_low", "ci_high"]], expected[["p_win", "ci_low", "ci_high"]])


def test_the_strip_worker_starts_without_running_the_app_script(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fresh_worker: None
) -> None:
    # While a page runs, Streamlit installs the app's script as __main__; a process spawned then would run the
    # whole app first (in the server, the worker ran app.py and drew the start page, with no page to draw on).
    ran = tmp_path / "the app script ran"
    script = tmp_path / "app.py"
    script.write_text(f"from pathlib import Path\nPath({str(ran)!r}).touch()\n", encoding="utf-8")
    app_main = types.ModuleType("__main__")
    app_main.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", app_main)
    for name in ("_DONE", "_RUNNING", "_WANTED"):
        monkeypatch.setattr(strip, name, {})
    monkeypatch.setattr(strip, "ROLLOUTS", 4)  # the worker's start is the point, not the figures
    games = GameStore(tmp_path / "games.sqlite3")
    position = turn_positions(recorded_game(1, seed=8))[-1]
    deadline = time.monotonic() + TIMEOUT
    while strip.chances(position, games) is None:
        assert time.monotonic() < deadline, "the worker never valued the position"
        time.sleep(0.1)
    assert not ran.exists()
    assert sys.modules["__main__"] is app_main  # the page's own __main__ is back


def test_a_turn_just_recorded_is_valued_next_not_behind_the_earlier_turns(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fresh_worker: None
) -> None:
    # A fresh server's memory, and few rollouts: the order of the valuations is the point, not their figures.
    for name in ("_DONE", "_RUNNING", "_WANTED"):
        monkeypatch.setattr(strip, name, {})
    monkeypatch.setattr(strip, "ROLLOUTS", 20)
    games = GameStore(tmp_path / "games.sqlite3")
    positions = [(strip.position_key(p), p.to_json(history=False)) for p in turn_positions(recorded_game(4, seed=3))]
    keys = [key for key, _ in positions]
    assert len(set(keys)) == len(keys) == 5
    # A page shows the game after three turns: the newest of its four positions is valued first.
    assert strip._queue(positions[:4], games) == [None] * 4
    assert list(strip._RUNNING) == [keys[3]]
    # A turn is recorded while that one is being valued: it goes next, before the three earlier turns.
    strip._queue(positions, games)
    for _ in range(1500):
        if len(strip._DONE) == 5:
            break
        time.sleep(0.2)
    assert list(strip._DONE) == [keys[3], keys[4], keys[2], keys[1], keys[0]]
    assert not strip._WANTED and not strip._RUNNING


def test_a_poll_asks_the_store_once_for_a_position_it_does_not_have(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Nothing is valued here (no worker is started): only the looks in the store are counted.
    for name in ("_DONE", "_RUNNING", "_WANTED", "_MISSED"):
        monkeypatch.setattr(strip, name, {})
    monkeypatch.setattr(strip, "_next", lambda: None)
    games = GameStore(tmp_path / "games.sqlite3")
    looks: list[str] = []
    real = games.get_cached

    def counted(kind: str, key: str) -> str | None:
        looks.append(key)
        return real(kind, key)

    monkeypatch.setattr(games, "get_cached", counted)
    positions = [(strip.position_key(p), p.to_json(history=False)) for p in turn_positions(recorded_game(6, seed=3))]
    assert strip._queue(positions, games) == [None] * 7
    assert len(looks) == 7
    # The page's next polls: the positions still wait, and the store is not asked again.
    for _ in range(3):
        assert strip._queue(positions, games) == [None] * 7
    assert len(looks) == 7
    # Another server values one of them: once RECHECK_SECONDS have passed, the store is asked again, and has it.
    table = position_chances(GameState.from_json(positions[2][1], trusted=True), rollouts=20)
    games.put_cached(strip.CACHE_KIND, positions[2][0], table.to_json(orient="split"))
    monkeypatch.setattr(strip, "RECHECK_SECONDS", 0.0)
    known = strip._queue(positions, games)
    assert len(looks) == 14
    assert [k is not None for k in known] == [False, False, True, False, False, False, False]
    assert np.allclose(known[2][["p_win", "ci_low", "ci_high"]], table[["p_win", "ci_low", "ci_high"]])


def test_the_record_tab_of_a_live_game_shows_the_strip(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv(DB_ENV, str(db))
    live = LiveGame(recorded_game(2, seed=9))
    stored = GameStore(db).create(live.state, "At the table")
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["game"] = stored.id
    at.run()
    at.session_state["tab"] = "Record"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    captions = " ".join(c.value for c in at.caption)
    assert ("Win chances" in captions and "planner bot" in captions) or "being computed" in captions


def test_the_strip_calls_players_by_name_and_turns_as_the_table_does(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Ann's turn 1 took Kamchatka and left her card face down; Bo's turn 1 placed and passed. The chances of the
    # first two positions are in the store, the third's are still to come (no worker is started).
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv(DB_ENV, str(db))
    for name in ("_DONE", "_RUNNING", "_WANTED", "_MISSED"):
        monkeypatch.setattr(strip, name, {})
    monkeypatch.setattr(strip, "_next", lambda: None)
    live = LiveGame(captured_then_ended(me=None))
    live.place({live.state.territories_of(1)[0]: live.state.pending})
    live.end_turn()
    games = GameStore(db)
    positions = turn_positions(live.state)
    assert [(p.player, turn_number(p)) for p in positions] == [(0, 1), (1, 1), (2, 1)]
    for position in positions[:2]:
        table = position_chances(position, rollouts=4)
        games.put_cached(strip.CACHE_KIND, strip.position_key(position), table.to_json(orient="split"))
    stored = games.create(live.state, "Named")
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["game"] = stored.id
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (said,) = [c.value for c in at.caption if c.value.startswith("Win chances")]
    assert said.startswith(plain("Win chances at the start of Bo's turn 1; Cy's turn 1 is being valued,"))
    assert plain("Face-down cards (Ann 1)") in said
    assert [m.label for m in at.metric] == ["Ann", "Bo", "Cy"]


def test_a_game_file_reviewed_in_the_view_keeps_its_players_names(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv(DB_ENV, str(db))
    stored = GameStore(db).create(recorded_game(), "Open game")
    other = recorded_game(turns=2, seed=4)
    other.labels["names"] = ["Di", "Ed", "Flo"]
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["game"] = stored.id
    at.run()
    at.session_state["tab"] = "Review"
    at.run()
    at.file_uploader(key="review_upload").set_value(("other.json", other.to_json().encode(), "application/json")).run()
    at.select_slider(key="review_rollouts").set_value(50).run()
    at.button(key="review_run").click().run()
    assert not at.exception and not at.error, ([e.value for e in at.exception], [e.value for e in at.error])
    (summary,) = [df.value for df in at.dataframe if "Dice share" in df.value.columns]
    assert summary["Player"].tolist() == ["Di", "Ed", "Flo"]
