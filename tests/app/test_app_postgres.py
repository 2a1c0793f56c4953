"""The app on PostgreSQL, chosen by one environment variable; a server that goes away mid-game keeps the game
in the page with a message, and once the server is back the next entry saves both."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest
from support.postgres import postgres_server, postgres_url  # noqa: F401 - fixtures
from support.scratch_postgres import PASSWORD, ScratchServer

from analyzer.game.board import classic_board
from analyzer.store import DB_ENV, GameStore

pytestmark = pytest.mark.xdist_group("postgres")

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 60
PERU, ALASKA = classic_board().index("Peru"), classic_board().index("Alaska")


def errors(at: AppTest) -> list[str]:
    return [re.sub(r"\\(.)", r"\1", e.value) for e in at.error]  # the app escapes Markdown in messages


def edit(at: AppTest, territory: str, armies: int) -> None:
    at.session_state["tab"] = "Board"  # the quick edit is the Board view's
    at.run()
    at.multiselect(key="pick").set_value([territory]).run()
    at.number_input(key="edit_armies").set_value(armies)
    at.button(key="apply_quick_edit").click().run()
    assert not at.exception, [e.value for e in at.exception]


def test_the_app_keeps_the_game_while_the_server_is_away_and_saves_once_it_is_back(
    monkeypatch: pytest.MonkeyPatch, postgres_server: ScratchServer, postgres_url: str
) -> None:
    monkeypatch.setenv(DB_ENV, postgres_url)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.slider(key="n_players").set_value(3)
    at.number_input(key="seed").set_value(4)
    at.button(key="new_random").click().run()
    game_id = at.query_params["game"]
    store = GameStore(postgres_url)
    assert store.version(game_id) == 1  # the new game is on the server
    postgres_server.stop()
    try:
        edit(at, "Peru", 17)
        (message,) = [e for e in errors(at) if "refused the connection" in e]
        assert "kept in this page" in message and "***" in message and PASSWORD not in message
        assert int(at.session_state["game"].armies[PERU]) == 17  # the entry stays on the page
    finally:
        postgres_server.start()
    edit(at, "Alaska", 23)
    assert not [e for e in errors(at) if "game store" in e]
    stored = store.load(game_id)
    assert stored.version == 2 and (int(stored.state.armies[PERU]), int(stored.state.armies[ALASKA])) == (17, 23)
    assert stored.state.to_json() == at.session_state["game"].to_json()
    assert np.array_equal(store.load(game_id, version=1).state.owner, stored.state.owner)
