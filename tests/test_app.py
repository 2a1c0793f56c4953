"""The Streamlit app driven headless through ``streamlit.testing``: setup, save/load and reruns."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from analyzer.plot import player_name
from analyzer.state import GameState

APP = str(Path(__file__).resolve().parent.parent / "app.py")
#: The first run imports matplotlib and draws a map; the default 3 s is tight on a busy machine.
TIMEOUT = 60


def start() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert not at.exception
    return at


def new_setup(at: AppTest, n_players: int, seed: int) -> AppTest:
    at.slider(key="n_players").set_value(n_players)
    at.number_input(key="seed").set_value(seed)
    at.button(key="new_random").click().run()
    assert not at.exception
    return at


def territory_table(at: AppTest) -> pd.DataFrame:
    (table,) = [df.value for df in at.dataframe if "Territory" in df.value.columns]
    return table


def owners_of(state: GameState) -> list[str]:
    return [player_name(int(p), state.n_players) for p in state.owner]


def test_first_view_is_the_bare_map_and_its_continents() -> None:
    at = start()
    assert "game" not in at.session_state
    assert len(at.info) == 1
    (continents,) = [df.value for df in at.dataframe]
    assert list(continents["Continent"]) == [
        "North America", "South America", "Europe", "Africa", "Asia", "Australia",
    ]
    assert list(continents["Bonus"]) == [5, 2, 5, 3, 7, 2]
    assert continents["Territories"].sum() == 42


def test_new_random_setup_shows_all_42_territories() -> None:
    at = new_setup(start(), n_players=4, seed=5)
    table = territory_table(at)
    assert len(table) == 42
    expected = GameState.random_start(4, np.random.default_rng(5))
    assert list(table["Owner"]) == owners_of(expected)
    assert list(table["Armies"]) == expected.armies.tolist()
    assert len(at.info) == 0


def test_the_game_survives_reruns() -> None:
    at = new_setup(start(), n_players=3, seed=11)
    game = at.session_state["game"]
    before = territory_table(at)
    at.run()
    at.slider(key="n_players").set_value(6).run()
    assert at.session_state["game"] is game
    pd.testing.assert_frame_equal(territory_table(at), before)


def test_a_saved_game_loads_back() -> None:
    saved = GameState.random_start(2, np.random.default_rng(99))
    at = new_setup(start(), n_players=5, seed=1)
    at.file_uploader(key="upload").set_value(("saved.json", saved.to_json().encode(), "application/json")).run()
    assert not at.error
    table = territory_table(at)
    assert list(table["Owner"]) == owners_of(saved)
    assert "Neutral" in set(table["Owner"])



def test_a_file_left_in_the_uploader_does_not_undo_a_later_setup() -> None:
    saved = GameState.random_start(2, np.random.default_rng(99))
    at = start()
    at.file_uploader(key="upload").set_value(("saved.json", saved.to_json().encode(), "application/json")).run()
    new_setup(at, n_players=4, seed=5)
    at.run()
    assert list(territory_table(at)["Owner"]) == owners_of(GameState.random_start(4, np.random.default_rng(5)))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "saved game is not valid JSON"),
        (b'{"format": "something else"}', "not a saved game"),
        (b"\xff\xfe\x00garbage", "Could not load bad.json"),
    ],
)
def test_a_malformed_file_shows_an_error_and_keeps_the_game(content: bytes, message: str) -> None:
    at = new_setup(start(), n_players=3, seed=2)
    game = at.session_state["game"]
    before = territory_table(at)
    at.file_uploader(key="upload").set_value(("bad.json", content, "application/json")).run()
    assert not at.exception
    assert len(at.error) == 1
    assert message in at.error[0].value
    assert "bad.json" in at.error[0].value
    assert at.session_state["game"] is game
    pd.testing.assert_frame_equal(territory_table(at), before)


def test_the_error_goes_once_a_new_game_is_set_up() -> None:
    at = new_setup(start(), n_players=3, seed=2)
    at.file_uploader(key="upload").set_value(("bad.json", b"[]", "application/json")).run()
    assert len(at.error) == 1
    new_setup(at, n_players=4, seed=3)
    assert not at.error
    assert len(territory_table(at)) == 42
