"""The Streamlit app driven headless through ``streamlit.testing``: the calculator, the store, setup, edits, reruns."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest

from analyzer.analysis.evaluator import CUT_ROUNDS
from analyzer.analysis.position import attack_suggestions, new_game_from_position
from analyzer.errors import BoardError
from analyzer.game.actions import Attack, Place
from analyzer.game.board import classic_board
from analyzer.game.dice import DiceRules
from analyzer.game.state import GameState
from analyzer.limits import MAX_ARMIES, MAX_JSON_BYTES
from analyzer.live import LiveGame
from analyzer.plot import (
    HIGHLIGHT_COLOR,
    NEUTRAL_COLOR,
    PICK_SELECTION,
    PLAYER_COLORS,
    UNOWNED,
    UNOWNED_COLOR,
    board_chart,
    board_spec,
    chart_picks,
    player_name,
)
from analyzer.services.saving import CHANGED_WHILE_UNSAVED, KEPT_IN_PAGE, NAME_LABEL, file_text, opened
from analyzer.solver.battle import BattleOptions, armies_needed, battle
from analyzer.solver.chains import chain
from analyzer.solver.tables import odds_tables
from analyzer.store import DB_ENV, GameStore
from analyzer.text import percent, plain
from analyzer.webapp.calculator import DICE_SIDES
from analyzer.webapp.maps import CONTINENT_MAP_WIDTH, WORLD

BOARD = classic_board()
N = BOARD.n_territories
T = BOARD.index


def seen(element: Any) -> str:
    """An error as the reader sees it: the app escapes every message (:func:`analyzer.text.plain`), so the
    Markdown source carries a backslash before each special character, which the page does not show."""
    return re.sub(r"\\(.)", r"\1", element.value)


TABS = ["Board", "Record", "Players & cards", "Continents", "Reinforcements", "Suggestions", "Review", "Tables"]

APP = str(Path(__file__).resolve().parents[2] / "app.py")
#: The first run imports matplotlib and draws a map; the default 3 s is tight on a busy machine.
TIMEOUT = 60


@pytest.fixture(autouse=True)
def database(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Each test's own game store, so tests never see each other's games (nor the user's)."""
    path = tmp_path / "games.sqlite3"
    monkeypatch.setenv(DB_ENV, str(path))
    return path


def start(game_id: str | None = None) -> AppTest:
    """A new browser session; ``game_id`` in its URL."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if game_id is not None:
        at.query_params["game"] = game_id
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def new_setup(at: AppTest, n_players: int, seed: int) -> AppTest:
    if "game" in at.session_state:
        at.button(key="close_game").click().run()  # back to the start page, where new games are made
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


def test_first_view_is_the_calculator_then_the_start_page() -> None:
    at = start()
    assert "game" not in at.session_state
    assert metric(at, "P(win)") == percent(battle(12, 7).p_win)  # answered before anything is typed
    assert at.button(key="new_random").label == "New random setup"
    (continents,) = [df.value for df in at.dataframe]
    assert list(continents["Continent"]) == [
        "North America",
        "South America",
        "Europe",
        "Africa",
        "Asia",
        "Australia",
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
    at.number_input(key="attackers").set_value(30).run()
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
    assert message in seen(at.error[0])
    assert "bad.json" in seen(at.error[0])
    assert at.session_state["game"] is game
    pd.testing.assert_frame_equal(territory_table(at), before)


def test_a_file_past_the_apps_own_limits_is_refused_and_nothing_stored(database: Path) -> None:
    long_name = GameState.random_start(3, np.random.default_rng(2))
    long_name.labels["names"] = ["Ann", "B" * 5000, "Cy"]
    recorded = LiveGame.random(["Ann", "Bo", "Cy"], np.random.default_rng(3)).state
    recorded.labels["live"] = {"entries": "not a list"}
    for content, message in (
        (long_name.to_json(), "seat 2's name must be 1 to 40 characters (analyzer.limits.MAX_NAME_LENGTH), got 5,000"),
        (recorded.to_json(), "saved game's live-game record is malformed"),
    ):
        at = start()
        at.file_uploader(key="upload").set_value(("odd.json", content.encode(), "application/json")).run()
        assert not at.exception
        (said,) = [seen(e) for e in at.error]
        assert said.startswith("Could not load odd.json: ") and message in said
        assert "game" not in at.session_state and GameStore(database).list() == []


def test_the_best_attacks_fit_a_phones_width() -> None:
    # A 390 px phone leaves 358 px for a table; the gain, by which the attacks are ranked, was cut off at its edge.
    at = new_setup(start(), n_players=3, seed=2)
    (table,) = [df for df in at.dataframe if list(df.value.columns) == ["From", "To", "A", "D", "P(win)", "Gain"]]
    widths = [spec["width"] for name, spec in json.loads(table.proto.columns).items() if name != "_index"]
    assert len(widths) == 6 and sum(widths) <= 358


def test_the_uploader_says_the_saved_games_own_size_limit() -> None:
    # Streamlit's own limit is 200 MB; a file past 32 MiB is refused by the package, so the uploader says 32.
    (uploader,) = start().get("file_uploader")
    assert uploader.proto.max_upload_size_mb << 20 == MAX_JSON_BYTES


def test_the_error_goes_once_a_new_game_is_set_up() -> None:
    at = new_setup(start(), n_players=3, seed=2)
    at.file_uploader(key="upload").set_value(("bad.json", b"[]", "application/json")).run()
    assert len(at.error) == 1
    new_setup(at, n_players=4, seed=3)
    assert not at.error
    assert len(territory_table(at)) == 42


# ---------------------------------------------------------------------------------- helpers for a known position
def position(changes: dict[str, tuple[int, int]], *, n_players: int = 3, **kwargs: object) -> GameState:
    """Player 3 (id 2) holds everything with 1 army, except the territories in ``changes``: name -> (owner, armies)."""
    owner, armies = [2] * N, [1] * N
    for name, (o, a) in changes.items():
        owner[T(name)], armies[T(name)] = o, a
    return GameState.from_position(owner, armies, n_players=n_players, **kwargs)


#: Player 1 (id 0) to move: Australia but Eastern Australia, a 2-army stack in New Guinea, Alaska with 6.
#: What an Apply that changes nothing says under its button.
NOTHING_TO_APPLY = "Nothing to apply: the entries are what the game already holds, so nothing was saved."
KNOWN = position(
    {
        "Indonesia": (0, 1),
        "New Guinea": (0, 2),
        "Western Australia": (0, 1),
        "Eastern Australia": (1, 1),
        "Alaska": (0, 6),
        "Kamchatka": (1, 3),
        "Northwest Territory": (1, 2),
    }
)


def load(at: AppTest, state: GameState, name: str = "game.json") -> AppTest:
    at.file_uploader(key="upload").set_value((name, state.to_json().encode(), "application/json")).run()
    assert not at.exception and not at.error
    return at


def open_tab(at: AppTest, label: str) -> AppTest:
    at.session_state["tab"] = label
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def table_with(at: AppTest, column: str) -> pd.DataFrame:
    (table,) = [df.value for df in at.dataframe if column in df.value.columns]
    return table


def editor_key(at: AppTest) -> str:
    return f"editor-{at.session_state['generation']}"


# ---------------------------------------------------------------------------------- tabs
def test_a_game_has_the_companions_tabs() -> None:
    at = new_setup(start(), n_players=3, seed=4)
    assert [t.label for t in at.tabs] == TABS


def test_every_tab_renders_for_a_random_game() -> None:
    at = new_setup(start(), n_players=4, seed=6)
    for label in TABS:
        open_tab(at, label)
        assert not at.error, (label, [seen(e) for e in at.error])


def test_a_game_still_in_its_setup_shows_a_notice_not_a_traceback() -> None:
    at = load(start(), GameState.new(3, np.random.default_rng(1)))
    for label in TABS:
        open_tab(at, label)
        assert not at.error
    assert "still in its setup" in open_tab(at, "Suggestions").info[0].value


# ---------------------------------------------------------------------------------- entering the game
def test_quick_edit_sets_owner_and_armies_of_the_picked_territories() -> None:
    at = load(start(), KNOWN)
    at.multiselect(key="pick").set_value(["Alaska", "Peru"]).run()
    at.selectbox(key="edit_owner").set_value("Player 2")
    at.number_input(key="edit_armies").set_value(9)
    at.button(key="apply_quick_edit").click().run()
    assert not at.error
    game = at.session_state["game"]
    assert [int(game.owner[T(t)]) for t in ("Alaska", "Peru")] == [1, 1]
    assert [int(game.armies[T(t)]) for t in ("Alaska", "Peru")] == [9, 9]
    table = territory_table(at).set_index("Territory")
    assert table.loc["Alaska", "Owner"] == "Player 2" and table.loc["Peru", "Armies"] == 9


def test_an_unknown_territory_is_named_and_the_game_kept() -> None:
    at = load(start(), KNOWN)
    game = at.session_state["game"]
    at.multiselect(key="pick").set_value(["Alaskaa"]).run()
    at.number_input(key="edit_armies").set_value(4)
    at.button(key="apply_quick_edit").click().run()
    assert not at.exception
    (error,) = at.error
    assert "unknown territory 'Alaskaa'" in seen(error) and "did you mean 'Alaska'" in seen(error)
    assert at.session_state["game"] is game
    # What the user typed stays, to be corrected.
    assert at.multiselect(key="pick").value == ["Alaskaa"]
    assert at.number_input(key="edit_armies").value == 4


def test_negative_armies_are_refused_and_the_entry_kept() -> None:
    at = load(start(), KNOWN)
    game = at.session_state["game"]
    at.multiselect(key="pick").set_value(["Peru"]).run()
    at.number_input(key="edit_armies").set_value(-3)
    at.button(key="apply_quick_edit").click().run()
    (error,) = at.error
    assert seen(error) == "Peru has -3 armies; every territory holds 1 to 1000000 (analyzer.limits.MAX_ARMIES)"
    assert at.session_state["game"] is game
    assert at.number_input(key="edit_armies").value == -3
    # Correcting the value applies it, and the message goes.
    at.number_input(key="edit_armies").set_value(3)
    at.button(key="apply_quick_edit").click().run()
    assert not at.error
    assert int(at.session_state["game"].armies[T("Peru")]) == 3


# ---------------------------------------------------------------------------------- the map
# The chart builder lives in analyzer/plot.py; it is tested here, with the app that shows it.
def layer_rows(spec: dict[str, Any], layer: dict[str, Any]) -> pd.DataFrame:
    return pd.DataFrame(spec["datasets"][layer["data"]["name"]])


def layers_of(spec: dict[str, Any], mark: str) -> list[dict[str, Any]]:
    return [layer for layer in spec["layer"] if layer["mark"]["type"] == mark]


def test_the_map_chart_has_a_clickable_point_per_territory() -> None:
    names, colors = ["Ann", "Bo", "Cy"], ["#111111", "#222222", "#333333"]
    spec = board_chart(KNOWN, names, colors, ["Peru", "alaska"]).to_dict()
    # The continents' halos, then the territories, both circles.
    halos, markers = layers_of(spec, "circle")
    territories = layer_rows(spec, markers)
    assert len(territories) == 42
    assert territories["territory"].tolist() == list(BOARD.territories)
    assert territories[["x", "y"]].to_numpy().tolist() == BOARD.coords.tolist()
    assert territories["armies"].tolist() == KNOWN.armies.tolist()
    assert territories["owner"].tolist() == [names[int(p)] for p in KNOWN.owner]
    assert territories.loc[territories["picked"], "territory"].tolist() == ["Alaska", "Peru"]

    encoding = markers["encoding"]
    assert (encoding["x"]["field"], encoding["y"]["field"]) == ("x", "y")
    assert encoding["color"]["field"] == "owner"
    assert encoding["color"]["scale"] == {"domain": names, "range": colors}
    assert encoding["description"]["field"] == "territory"
    assert halos["encoding"]["color"]["field"] == "continent"
    (param,) = spec["params"]
    assert param["name"] == PICK_SELECTION
    assert param["select"] == {"type": "point", "fields": ["territory"], "on": "click"}

    (ring,) = layers_of(spec, "point")
    assert ring["mark"]["color"] == HIGHLIGHT_COLOR and ring["transform"] == [{"filter": "datum.picked"}]
    army_text, *name_texts = layers_of(spec, "text")
    assert army_text["encoding"]["text"]["field"] == "armies"
    assert {layer["encoding"]["text"]["field"] for layer in name_texts} == {"label"}
    # Names go below their marker, or above it (one layer per number of lines) when a marker sits just below.
    assert [layer["transform"] for layer in name_texts] == [
        [{"filter": "!datum.above"}],
        [{"filter": "datum.above && datum.lines == 1"}],
        [{"filter": "datum.above && datum.lines == 2"}],
    ]


def test_the_map_draws_land_borders_solid_and_sea_routes_dashed() -> None:
    spec = board_chart(KNOWN).to_dict()
    land, sea = layers_of(spec, "rule")
    assert land["transform"] == [{"filter": "!datum.sea"}] and "strokeDash" not in land["mark"]
    assert sea["transform"] == [{"filter": "datum.sea"}] and sea["mark"]["strokeDash"] == [5, 4]
    routes = layer_rows(spec, land)
    assert (~routes["sea"]).sum() == sum(not b.sea for b in BOARD.borders)
    # Alaska-Kamchatka goes round the back of the globe: two stubs off the map's edges, as on the drawn map.
    assert routes["sea"].sum() == sum(b.sea for b in BOARD.borders) + 1
    alaska = routes[(routes["x"] == BOARD.coords[T("Alaska"), 0]) & (routes["y"] == BOARD.coords[T("Alaska"), 1])]
    assert (alaska["x2"] < 0).any()


def test_the_map_of_a_two_player_game_and_of_a_setup() -> None:
    two = GameState.random_start(2, np.random.default_rng(5))
    markers = layers_of(board_chart(two).to_dict(), "circle")[1]
    assert markers["encoding"]["color"]["scale"] == {
        "domain": ["Player 1", "Player 2", "Neutral"],
        "range": [*PLAYER_COLORS[:2], NEUTRAL_COLOR],
    }
    setup = GameState.new(3, np.random.default_rng(1))
    spec = board_chart(setup).to_dict()
    markers = layers_of(spec, "circle")[1]
    assert set(layer_rows(spec, markers)["owner"]) == {UNOWNED}
    assert markers["encoding"]["color"]["scale"] == {"domain": [UNOWNED], "range": [UNOWNED_COLOR]}
    with pytest.raises(BoardError, match="the game has 3 forces but 2 names and 3 colours were given"):
        board_chart(GameState.random_start(2, np.random.default_rng(5)), ["Ann", "Bo"], ["#111111"] * 3)


def same_spec(spec: dict[str, Any]) -> str:
    """``spec`` as text with its data sets named by their place among them in order of content, and its views by
    place: Altair names a data set by a hash of its rows and a view by a counter of every chart built so far."""
    order = sorted(spec["datasets"], key=lambda name: json.dumps(spec["datasets"][name], sort_keys=True))
    renamed = {name: f"data-{i}" for i, name in enumerate(order)}
    text = json.dumps({**spec, "datasets": {renamed[n]: rows for n, rows in spec["datasets"].items()}}, sort_keys=True)
    for name, new in renamed.items():
        text = text.replace(f'"{name}"', f'"{new}"')
    return re.sub(r'"view_[0-9a-f]+_\d+"', '"view"', text)


def test_the_quick_map_spec_is_the_charts_own_for_random_positions() -> None:
    """board_spec keeps a layout and puts each position's rows in it: the spec must be the chart's own, for
    claimed setups (free territories, owners joining the legend), 2-player games, rings and continents."""
    rng = np.random.default_rng(11)
    for trial in range(80):  # each chart converted costs a sixth of a second
        n_players = int(rng.integers(2, 7))
        state = GameState.random_start(n_players, rng)
        if trial % 3 == 0:
            state.owner[rng.random(BOARD.n_territories) < rng.random()] = -1
        picked = [
            BOARD.territories[int(t)] for t in rng.choice(BOARD.n_territories, int(rng.integers(0, 4)), replace=False)
        ]
        continent = None if trial % 2 else int(rng.integers(0, len(BOARD.continents)))
        width = int(rng.choice([360, 760]))
        forces = n_players + (state.neutral is not None)
        names = None if trial % 5 else [f"P{i}" for i in range(forces)]
        colors = None if trial % 5 else [f"#{i:06x}" for i in range(forces)]
        chart = board_chart(state, names, colors, picked, width=width, continent=continent).to_dict()
        assert same_spec(board_spec(state, names, colors, picked, width=width, continent=continent)) == same_spec(chart)
    # A position's spec is a copy: drawing one (Streamlit may add to it) leaves the next one as it was.
    spec = board_spec(KNOWN)
    spec["datasets"].clear()
    assert same_spec(board_spec(KNOWN)) == same_spec(board_chart(KNOWN).to_dict())
    with pytest.raises(BoardError, match="unknown territory 'Atlantis' on map 'classic'"):
        board_spec(KNOWN, picked=["Atlantis"])


@pytest.mark.parametrize(
    ("selection", "territories"),
    [
        ({PICK_SELECTION: [{"territory": "Peru"}]}, ["Peru"]),
        ({PICK_SELECTION: [{"territory": "Peru"}, {"territory": "Alaska"}]}, ["Peru", "Alaska"]),
        # Nothing selected, as Streamlit reports it; a click on a border line; a name not on the board.
        ({PICK_SELECTION: {}}, []),
        ({PICK_SELECTION: [{"territory": None}]}, []),
        ({PICK_SELECTION: [{"territory": "Atlantis"}, "Peru"]}, []),
        ({"another_selection": [{"territory": "Peru"}]}, []),
    ],
)
def test_the_territories_clicked_on_the_map(selection: dict[str, Any], territories: list[str]) -> None:
    assert chart_picks(selection) == territories


def the_map(at: AppTest) -> Any:
    """The map: the one chart with a selection (the calculator's survivors' charts have none)."""
    (chart,) = [c for c in at.get("vega_lite_chart") if c.proto.selection_mode]
    return chart


def click_on_map(at: AppTest, *territories: str | None) -> AppTest:
    """Send the map's selection event the way the browser does after a click on ``territories``.

    AppTest has no chart element to click, so the event goes in as the browser sends it: a JSON
    string under the chart's widget id, next to the other widgets' states (through AppTest's own
    private run, which ``run()`` calls with those states).
    """
    chart = the_map(at)
    states = at._tree.get_widget_states()
    event = states.widgets.add()
    event.id = chart.proto.id
    event.string_value = json.dumps({"selection": {PICK_SELECTION: [{"territory": t} for t in territories]}})
    at._run(states)
    assert not at.exception, [e.value for e in at.exception]
    return at


def map_territories(at: AppTest) -> pd.DataFrame:
    """The territories as the app's map draws them."""
    frames = [convert_arrow_bytes_to_pandas_df(dataset.data.data) for dataset in the_map(at).proto.datasets]
    (territories,) = [frame for frame in frames if "territory" in frame.columns]
    return territories.set_index("territory")


def test_clicking_territories_on_the_map_picks_them_for_the_quick_edit() -> None:
    at = rename(load(start(), KNOWN), 0, "Alice")
    assert map_territories(at).loc["Alaska", "owner"] == "Alice"
    click_on_map(at, "Peru")
    assert at.multiselect(key="pick").value == ["Peru"]
    click_on_map(at, "Alaska")
    # A click on a border line selects no territory, and a territory already picked is not added twice.
    click_on_map(at, None)
    click_on_map(at, "Peru")
    assert at.multiselect(key="pick").value == ["Peru", "Alaska"]
    drawn = map_territories(at)
    assert drawn.index[drawn["picked"]].tolist() == ["Alaska", "Peru"]

    at.selectbox(key="edit_owner").set_value("Player 2")
    at.number_input(key="edit_armies").set_value(8)
    at.button(key="apply_quick_edit").click().run()
    assert not at.error
    game = at.session_state["game"]
    assert [(int(game.owner[T(t)]), int(game.armies[T(t)])) for t in ("Peru", "Alaska")] == [(1, 8), (1, 8)]
    assert map_territories(at).loc["Peru", ["owner", "armies"]].tolist() == ["Player 2", 8]


def test_the_board_tabs_map_of_one_continent_fits_a_phone_and_still_picks() -> None:
    at = load(start(), KNOWN)
    assert at.segmented_control(key="map_of").value == WORLD and len(map_territories(at)) == BOARD.n_territories
    south_america = next(i for i, c in enumerate(BOARD.continents) if c.name == "South America")
    at.segmented_control(key="map_of").set_value(south_america).run()
    assert not at.exception
    drawn = map_territories(at)
    assert sorted(drawn.index) == ["Argentina", "Brazil", "Peru", "Venezuela"]
    # 300 px wide: a 390 px phone leaves about 330 for the map, where the world's 760 px scroll sideways.
    assert json.loads(the_map(at).proto.spec)["width"] == CONTINENT_MAP_WIDTH < 330
    click_on_map(at, "Peru")
    assert at.multiselect(key="pick").value == ["Peru"]
    assert map_territories(at).loc["Peru", "picked"]


def test_a_click_on_the_map_keeps_a_misspelt_entry_for_correction() -> None:
    at = load(start(), KNOWN)
    at.multiselect(key="pick").set_value(["Alaskaa"]).run()
    click_on_map(at, "Peru")
    assert at.multiselect(key="pick").value == ["Alaskaa", "Peru"]


def test_the_territory_table_applies_a_cell_edit() -> None:
    at = load(start(), KNOWN)
    at.session_state[editor_key(at)] = {
        "edited_rows": {T("Peru"): {"Armies": 7, "Owner": "Player 1"}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception and not at.error
    game = at.session_state["game"]
    assert (int(game.owner[T("Peru")]), int(game.armies[T("Peru")])) == (0, 7)
    assert territory_table(at).set_index("Territory").loc["Peru", "Armies"] == 7


def test_a_bad_cell_in_the_territory_table_is_refused_and_left_in_place() -> None:
    at = load(start(), KNOWN)
    game = at.session_state["game"]
    key = editor_key(at)
    edits = {"edited_rows": {T("Peru"): {"Armies": -1}}, "added_rows": [], "deleted_rows": []}
    at.session_state[key] = edits
    at.run()
    assert not at.exception
    (error,) = at.error
    assert "Peru has -1 armies" in seen(error)
    assert at.session_state["game"] is game
    # The editor keeps the user's entry (same key, same edit state) until it is corrected.
    assert editor_key(at) == key
    assert at.session_state[key]["edited_rows"] == {T("Peru"): {"Armies": -1}}
    assert int(game.armies[T("Peru")]) == 1


def test_a_cleared_cell_is_named_empty_and_the_columns_floats_are_read_as_counts() -> None:
    # A cleared cell turns the editor's column to floats (Alaska's 5 arrives as 5.0): the app reads it as the
    # count 5, so the one refusal is Peru's, the cell left empty.
    at = load(start(), KNOWN)
    game = at.session_state["game"]
    edits = {
        "edited_rows": {T("Alaska"): {"Armies": 5}, T("Peru"): {"Armies": None}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.session_state[editor_key(at)] = edits
    at.run()
    assert not at.exception
    (error,) = at.error
    assert "armies of Peru is empty; expected a whole number" in seen(error)
    assert at.session_state["game"] is game


@pytest.fixture
def downloads(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """What the app's download buttons offer, by file name, as of the last run (a file made when its button is
    pressed is made when it is looked up here, as a press would).

    AppTest cannot click a download; the file's data goes to the media file manager, so it is read there.
    """
    offered = _Offered()
    add = MediaFileManager.add
    add_deferred = MediaFileManager.add_deferred

    def recording_add(
        self: MediaFileManager,
        path_or_data: bytes | str,
        mimetype: str,
        coordinates: str,
        file_name: str | None = None,
        is_for_static_download: bool = False,
    ) -> str:
        if file_name is not None:
            offered.deferred.pop(file_name, None)
            offered[file_name] = path_or_data.decode() if isinstance(path_or_data, bytes) else path_or_data
        return add(self, path_or_data, mimetype, coordinates, file_name, is_for_static_download)

    def recording_add_deferred(
        self: MediaFileManager,
        data_callable: Callable[[], bytes | str],
        mimetype: str | None,
        coordinates: str,
        file_name: str | None = None,
        *,
        element_id: str = "",
    ) -> str:
        if file_name is not None:
            offered.pop(file_name, None)
            offered.deferred[file_name] = data_callable
        return add_deferred(self, data_callable, mimetype, coordinates, file_name, element_id=element_id)

    monkeypatch.setattr(MediaFileManager, "add", recording_add)
    monkeypatch.setattr(MediaFileManager, "add_deferred", recording_add_deferred)
    return offered


class _Offered(dict[str, str]):
    """Files offered by name; one made at the press (a deferred download) is made when looked up."""

    def __init__(self) -> None:
        super().__init__()
        self.deferred: dict[str, Callable[[], bytes | str]] = {}

    def __missing__(self, name: str) -> str:
        data = self.deferred[name]()
        return data.decode() if isinstance(data, bytes) else data


def shown_labels(at: AppTest, seats: int) -> tuple[list[str | None], list[str]]:
    """The names and colours on the Players & cards tab (then back to the Board tab)."""
    open_tab(at, "Players & cards")
    gen = at.session_state["generation"]
    shown = (
        [at.text_input(key=f"name{p}-{gen}").value for p in range(seats)],
        [at.color_picker(key=f"color{p}-{gen}").value for p in range(seats)],
    )
    open_tab(at, "Board")
    return shown


def rename(at: AppTest, seat: int, name: str, color: str | None = None) -> AppTest:
    """Type a name (and a colour) for ``seat`` (from 0) on the Players & cards tab, then go back to the Board tab."""
    open_tab(at, "Players & cards")
    gen = at.session_state["generation"]
    at.text_input(key=f"name{seat}-{gen}").set_value(name)
    if color is not None:
        at.color_picker(key=f"color{seat}-{gen}").set_value(color)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return open_tab(at, "Board")


def test_names_and_colours_are_saved_and_loaded_back(downloads: dict[str, str]) -> None:
    at = load(start(), KNOWN)
    rename(at, 0, "Alice")
    rename(at, 1, "Player 2", "#00aa00")
    saved = downloads["game.json"]  # a game opened from game.json is called "game"
    assert GameState.from_json(saved).labels == {
        "names": ["Alice", "Player 2", "Player 3"],
        "colors": [PLAYER_COLORS[0], "#00aa00", PLAYER_COLORS[2]],
        NAME_LABEL: "game",
    }

    fresh = start()
    fresh.file_uploader(key="upload").set_value(("game.json", saved.encode(), "application/json")).run()
    assert not fresh.exception and not fresh.error
    assert shown_labels(fresh, 3) == (
        ["Alice", "Player 2", "Player 3"],
        [PLAYER_COLORS[0], "#00aa00", PLAYER_COLORS[2]],
    )
    table = territory_table(fresh).set_index("Territory")
    assert (table.loc["Alaska", "Owner"], table.loc["Kamchatka", "Owner"]) == ("Alice", "Player 2")


def test_a_loaded_game_brings_its_own_names_and_an_edit_keeps_them(downloads: dict[str, str]) -> None:
    five = GameState.random_start(5, np.random.default_rng(3))
    names = ["Ann", "Bo", "Cy", "Di", "Ed"]
    colors = ["#111111", "#222222", "#333333", "#444444", "#555555"]
    five.labels = {"names": names, "colors": colors}
    # Three seats were named before; the loaded game has five, all named.
    at = new_setup(start(), n_players=3, seed=1)
    rename(at, 0, "Zed")
    load(at, five)
    assert shown_labels(at, 5) == (names, colors)
    at.multiselect(key="pick").set_value(["Peru"]).run()
    at.number_input(key="edit_armies").set_value(7)
    at.button(key="apply_quick_edit").click().run()

    # The edit of this recorded game is a correction entry: the recorder's bookkeeping joins the labels.
    def kept(labels: dict[str, Any]) -> dict[str, Any]:
        return {k: labels[k] for k in ("names", "colors")}

    assert kept(at.session_state["game"].labels) == {"names": names, "colors": colors}
    assert kept(GameState.from_json(downloads["game.json"]).labels) == {"names": names, "colors": colors}
    # A game saved without names has the default ones.
    load(at, KNOWN)
    assert shown_labels(at, 3) == (["Player 1", "Player 2", "Player 3"], list(PLAYER_COLORS[:3]))


def test_a_file_with_a_bad_colour_is_refused_and_the_names_kept() -> None:
    bad = KNOWN.copy()
    bad.labels = {"names": ["Ann", "Bo", "Cy"], "colors": ["#111111", "blue", "#333333"]}
    at = new_setup(start(), n_players=3, seed=2)
    rename(at, 0, "Alice")
    game = at.session_state["game"]
    at.file_uploader(key="upload").set_value(("bad.json", bad.to_json().encode(), "application/json")).run()
    (error,) = at.error
    assert seen(error) == "Could not load bad.json: seat 2's colour 'blue' is not a colour like #1f5fbf"
    assert at.session_state["game"] is game
    assert shown_labels(at, 3)[0] == ["Alice", "Player 2", "Player 3"]


def test_player_names_reach_the_tables() -> None:
    at = rename(load(start(), KNOWN), 0, "Alice")
    table = territory_table(at).set_index("Territory")
    assert table.loc["Alaska", "Owner"] == "Alice"
    assert table.loc["Kamchatka", "Owner"] == "Player 2"


def test_cards_sets_traded_and_player_to_move() -> None:
    at = load(start(), KNOWN)
    open_tab(at, "Players & cards")
    gid = at.session_state["generation"]
    at.multiselect(key=f"hand0-{gid}").set_value([0, 1, 2])
    at.multiselect(key=f"hand1-{gid}").set_value([42])
    at.number_input(key=f"sets_traded-{gid}").set_value(4)
    at.selectbox(key=f"to_move-{gid}").set_value(1)
    at.button(key="apply_players").click().run()
    assert not at.error
    game = at.session_state["game"]
    assert (game.hand(0), game.hand(1), game.sets_traded, game.player) == ([0, 1, 2], [42], 4, 1)
    # The fifth set is worth 12 under the classic progressive values.
    assert game.next_set_value() == 12


def test_a_players_change_refused_as_changed_elsewhere_is_said_under_apply_once(database: Path) -> None:
    mine = load(start(), KNOWN)
    game_id = mine.session_state["stored_id"]
    open_tab(mine, "Players & cards")
    gid = mine.session_state["generation"]
    mine.multiselect(key=f"hand0-{gid}").set_value([0, 1, 2])
    theirs = start(game_id)
    theirs.multiselect(key="pick").set_value(["Peru"]).run()
    theirs.number_input(key="edit_armies").set_value(9)
    theirs.button(key="apply_quick_edit").click().run()
    mine.button(key="apply_players").click().run()
    # Under Apply (the view's own message), not at the top of the page as well.
    said = [seen(e) for e in mine.error if "changed elsewhere" in seen(e)]
    assert len(said) == 1 and "changed elsewhere" in mine.session_state["players_error"]
    assert not mine.session_state.get("store_error")
    assert GameStore(database).load(game_id).state.hand(0) == []
    # The entry is kept: applied again, on the fresh game, it goes in.
    mine.button(key="apply_players").click().run()
    assert GameStore(database).load(game_id).state.hand(0) == [0, 1, 2]


def test_cards_chosen_and_not_applied_outlive_another_devices_change(database: Path) -> None:
    mine = load(start(), KNOWN)
    game_id = mine.session_state["stored_id"]
    open_tab(mine, "Players & cards")
    gid = mine.session_state["generation"]
    mine.multiselect(key=f"hand0-{gid}").set_value([0, 1, 2])  # chosen, Apply not pressed yet
    theirs = start(game_id)
    theirs.multiselect(key="pick").set_value(["Peru"]).run()
    theirs.number_input(key="edit_armies").set_value(9)
    theirs.button(key="apply_quick_edit").click().run()
    mine.run()  # the poll brings the other device's change
    assert int(mine.session_state["game"].armies[T("Peru")]) == 9
    fresh = mine.session_state["generation"]
    assert fresh != gid and mine.multiselect(key=f"hand0-{fresh}").value == [0, 1, 2]
    assert any("not applied yet" in i.value for i in mine.info)
    # A field left alone starts from the new game, and Apply applies the kept choice on it.
    assert mine.multiselect(key=f"hand1-{fresh}").value == []
    mine.button(key="apply_players").click().run()
    stored = GameStore(database).load(game_id).state
    assert stored.hand(0) == [0, 1, 2] and int(stored.armies[T("Peru")]) == 9


def test_a_card_in_two_hands_is_refused() -> None:
    at = load(start(), KNOWN)
    game = at.session_state["game"]
    open_tab(at, "Players & cards")
    gid = at.session_state["generation"]
    at.multiselect(key=f"hand0-{gid}").set_value([5])
    at.multiselect(key=f"hand1-{gid}").set_value([5])
    at.button(key="apply_players").click().run()
    (error,) = at.error
    assert seen(error) == "card 5 is in more than one hand"
    assert at.session_state["game"] is game
    assert at.multiselect(key=f"hand1-{gid}").value == [5]


def test_face_down_cards_are_counted_not_named_and_an_edit_keeps_them() -> None:
    game = position({"Alaska": (0, 6), "Kamchatka": (1, 3)}, hands={0: [5], 1: ["?", "?"]})
    at = load(start(), game)
    open_tab(at, "Players & cards")
    gid = at.session_state["generation"]
    # Player 2's placeholders (cards 0 and 1) are not shown as cards anyone has seen.
    assert at.multiselect(key=f"hand0-{gid}").value == [5] and at.multiselect(key=f"hand1-{gid}").value == []
    assert [at.number_input(key=f"down{p}-{gid}").value for p in range(3)] == [0, 2, 0]
    at.number_input(key=f"down1-{gid}").set_value(3)
    at.multiselect(key=f"hand2-{gid}").set_value([7])
    at.button(key="apply_players").click().run()
    assert not at.error
    edited = at.session_state["game"]
    assert edited.hand(0) == [5] and edited.hand(2) == [7]
    assert len(edited.hand(1)) == 3 and set(edited.hand(1)) == set(edited.face_down)


def test_a_count_out_of_range_on_the_players_tab_is_refused_and_kept() -> None:
    at = load(start(), position({"Alaska": (0, 6), "Kamchatka": (1, 3)}, hands={0: [5], 1: ["?", "?"]}))
    game = at.session_state["game"]
    open_tab(at, "Players & cards")
    gid = at.session_state["generation"]
    # The classic deck has 44 cards (42 territories and 2 wilds): 45 face down cannot be.
    at.number_input(key=f"down1-{gid}").set_value(45)
    at.button(key="apply_players").click().run()
    assert any("Face down, Player 2: enter a whole number from 0 to 44, not 45" in seen(e) for e in at.error)
    assert any("nothing was applied" in seen(e) for e in at.error)
    assert at.session_state["game"] is game and at.number_input(key=f"down1-{gid}").value == 45
    at.number_input(key=f"down1-{gid}").set_value(2)
    at.number_input(key=f"sets_traded-{gid}").set_value(-1)
    at.button(key="apply_players").click().run()
    assert any("Sets traded so far: enter a whole number from 0 to 1,000, not -1" in seen(e) for e in at.error)
    assert at.session_state["game"] is game


def test_apply_on_a_recorded_game_keeps_its_history_and_records_a_correction() -> None:
    live = LiveGame.random(["Ann", "Bo", "Cy"], np.random.default_rng(3))
    for _ in range(2):
        s = live.state
        live.place({s.territories_of(s.player)[0]: s.pending})
        live.end_turn()
    recorded = live.state
    at = open_tab(load(start(), recorded), "Players & cards")
    # Apply with nothing changed: the game is as recorded, history and undo list alike.
    at.button(key="apply_players").click().run()
    assert not at.error and at.session_state["game"].history == recorded.history
    # Whose turn it is follows from the entries: no box to change it, but a way to start over.
    assert not [box for box in at.selectbox if str(box.key).startswith("to_move")]
    assert [box for box in at.selectbox if str(box.key).startswith("start_over_player")]
    # A change is one more entry (a correction); what was recorded before it is untouched.
    open_tab(at, "Board")
    at.multiselect(key="pick").set_value(["Peru"]).run()
    at.number_input(key="edit_armies").set_value(9)
    at.button(key="apply_quick_edit").click().run()
    corrected = at.session_state["game"]
    assert not at.error and corrected.armies[T("Peru")] == 9
    assert corrected.history[: len(recorded.history)] == recorded.history
    assert len(corrected.history) == len(recorded.history) + 1
    assert [e.kind for e in LiveGame(corrected).entries][:-1] == [e.kind for e in LiveGame(recorded).entries]
    # The territory table too.
    key = editor_key(at)
    at.session_state[key] = {"edited_rows": {T("Alaska"): {"Armies": 4}}, "added_rows": [], "deleted_rows": []}
    at.run()
    again = at.session_state["game"]
    assert again.armies[T("Alaska")] == 4 and again.history[: len(corrected.history)] == corrected.history


# ---------------------------------------------------------------------------------- attack odds
def metric(at: AppTest, label: str) -> str:
    (value,) = [m.value for m in at.metric if m.label == label]
    return value


def pick(at: AppTest, source: str, target: str, *path: str) -> AppTest:
    """Choose two territories of the open game (and a chain on from them) above the calculator."""
    gen = at.session_state["generation"]
    at.selectbox(key=f"attack_from-{gen}").set_value(T(source)).run()
    at.selectbox(key=f"attack_to-{gen}").set_value(T(target)).run()
    if path:
        at.multiselect(key=f"chain_path-{gen}").set_value([T(t) for t in path]).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def survivors_charts(at: AppTest) -> list[Any]:
    return [c for c in at.get("vega_lite_chart") if not c.proto.selection_mode]


def test_two_territories_picked_fill_the_calculator_with_the_solvers_odds() -> None:
    at = pick(load(start(), KNOWN), "New Guinea", "Eastern Australia")
    assert (at.number_input(key="attackers").value, at.number_input(key="defenders").value) == (2, 1)
    assert metric(at, "P(win)") == "41.67%"
    pick(at, "Alaska", "Kamchatka")
    r = battle(6, 3)
    assert metric(at, "P(win)") == percent(r.p_win)
    assert metric(at, "Attacker's losses") == f"{r.expected_attacker_losses:.2f}"
    assert metric(at, "Defender's losses") == f"{r.expected_defender_losses:.2f}"
    assert len(survivors_charts(at)) == 2
    assert any(c.value.startswith("Exact odds: every roll of the battle") for c in at.caption)  # names its method


def test_only_legal_pairs_are_offered() -> None:
    at = load(start(), KNOWN)
    gen = at.session_state["generation"]
    sources = set(at.selectbox(key=f"attack_from-{gen}").options)
    # Stacks of 2 or more with an enemy neighbour; the 1-army territories of every player cannot attack.
    assert {BOARD.territories[T(name)] for name in ("Alaska", "New Guinea", "Kamchatka", "Northwest Territory")} <= {
        s.split(" (")[0] for s in sources
    }
    assert not any(s.startswith(("Indonesia", "Peru")) for s in sources)
    at.selectbox(key=f"attack_from-{gen}").set_value(T("Alaska")).run()
    targets = {t.split(" (")[0] for t in at.selectbox(key=f"attack_to-{gen}").options}
    assert targets == {"Kamchatka", "Northwest Territory", "Alberta"}


def test_stop_at_armies_needed_and_a_chain_picked_on_the_map() -> None:
    at = pick(load(start(), KNOWN), "Alaska", "Kamchatka")
    at.number_input(key="stop_at").set_value(3).run()
    assert metric(at, "P(win)") == percent(battle(6, 3, stop_at=3).p_win)
    at.slider(key="target_p").set_value(0.9).run()
    assert metric(at, "Armies for P ≥ 90%") == str(armies_needed(3, 0.9, stop_at=3))
    at.number_input(key="stop_at").set_value(1).run()
    pick(at, "Alaska", "Kamchatka", "Yakutsk")
    assert not at.error
    assert at.text_input(key="chain").value == "1"
    steps = table_with(at, "P(taken, with all before it)")
    assert steps["Defenders"].tolist() == [3, 1]
    assert steps["P(taken, with all before it)"].tolist() == pytest.approx(chain(6, [3, 1]).p_conquer.tolist())
    assert metric(at, "P(whole chain)") == percent(chain(6, [3, 1]).p_win)


def test_a_chain_that_skips_a_border_shows_why() -> None:
    at = pick(load(start(), KNOWN), "Alaska", "Kamchatka", "Peru")
    (error,) = at.error
    assert "Kamchatka does not border Peru" in seen(error)
    assert at.session_state["game"].to_json() == KNOWN.to_json()


# ---------------------------------------------------------------------------------- the calculator on its own
def calculate(at: AppTest, attackers: int, defenders: int, **entries: Any) -> AppTest:
    at.number_input(key="attackers").set_value(attackers)
    at.number_input(key="defenders").set_value(defenders)
    for key, value in entries.items():
        widget = {"chain": at.text_input, "sides": at.selectbox}.get(key, at.number_input)
        if key in ("capital", "ties_to_attacker", "balanced_blitz", "cap"):
            widget = at.toggle
        widget(key=key).set_value(value)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_typed_battle_gets_the_solvers_odds_without_a_game() -> None:
    at = calculate(start(), 1000, 1000)
    r = battle(1000, 1000)
    assert metric(at, "P(win)") == percent(r.p_win)
    assert metric(at, "Armies for P ≥ 75%") == f"{armies_needed(1000, 0.75):,}"
    assert f"attacker ± {r.std_attacker_losses:.2f}, defender ± {r.std_defender_losses:.2f}" in at.caption[0].value
    assert not any(c.value.startswith("With ") for c in at.caption)  # the classic dice need no word
    # The survivors' chart: every outcome but the negligible tails, summing to (almost) one.
    survivors = convert_arrow_bytes_to_pandas_df(survivors_charts(at)[0].proto.data.data)
    assert survivors["probability"].sum() == pytest.approx(1, abs=1e-5)


def test_each_calculator_input_gives_the_browser_its_value_as_its_default() -> None:
    """A browser that holds no value for a widget (a tap rerunning the page before it took in the run before: the
    Review tab tapped while the page first loads) shows the widget's default and sends it back with the next tap.
    So each input's default is its value now, at first the calculator's own (12 against 7), never the widget's
    zero, which had turned the counts to 0 with an error under each."""
    at = start()
    assert at.number_input(key="attackers").proto.default == 12
    assert at.number_input(key="defenders").proto.default == 7
    assert at.number_input(key="stop_at").proto.default == 1
    assert list(at.slider(key="target_p").proto.default) == [0.75]
    at.number_input(key="attackers").set_value(30).run()
    at.number_input(key="garrison").set_value(3).run()
    at.slider(key="target_p").set_value(0.9).run()
    at.toggle(key="ties_to_attacker").set_value(True).run()
    at.selectbox(key="sides").set_value(8).run()
    at.text_input(key="chain").set_value("3 2").run()
    assert at.number_input(key="attackers").proto.default == 30
    assert at.number_input(key="garrison").proto.default == 3
    assert list(at.slider(key="target_p").proto.default) == [0.9]
    assert at.toggle(key="ties_to_attacker").proto.default is True
    assert at.selectbox(key="sides").proto.default == DICE_SIDES.index(8)
    assert at.text_input(key="chain").proto.default == "3 2"


@pytest.mark.parametrize(
    ("entries", "options", "said"),
    [
        ({"capital": True}, BattleOptions(dice=DiceRules(defender_max=3)), "3 defence dice (capital)"),
        ({"ties_to_attacker": True}, BattleOptions(dice=DiceRules(ties_to_attacker=True)), "ties to the attacker"),
        ({"sides": 8}, BattleOptions(dice=DiceRules(sides=8)), "8-sided dice"),
        ({"cap": True, "stop_at": 4}, BattleOptions(stop_mode="cap"), "stop at 4 armies left; never below stop at"),
        ({"balanced_blitz": True}, BattleOptions(balanced_blitz=True), "Balanced Blitz"),
    ],
)
def test_the_dice_variants_are_the_solvers(entries: dict[str, Any], options: BattleOptions, said: str) -> None:
    at = calculate(start(), 12, 7, **entries)
    stop_at = entries.get("stop_at", 1)
    assert metric(at, "P(win)") == percent(battle(12, 7, stop_at=stop_at, options=options).p_win)
    assert metric(at, "Armies for P ≥ 75%") == f"{armies_needed(7, 0.75, stop_at=stop_at, options=options):,}"
    # The settings are in a closed expander: the answer says what it assumes.
    assert f"With {said} (under" in " ".join(c.value for c in at.caption)


def test_a_typed_chain() -> None:
    at = calculate(start(), 10, 3, chain="2, 4", garrison=2)
    r = chain(10, [3, 2, 4], garrison=2)
    assert metric(at, "P(whole chain)") == percent(r.p_win)
    assert metric(at, "Attacker's losses") == f"{r.expected_attacker_losses:.2f}"


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ({"chain": "2 x"}, "each territory of the chain needs 1 to 1,000,000 defenders, got 'x'"),
        ({"chain": f"{MAX_ARMIES + 1}"}, "each territory of the chain needs 1 to 1,000,000 defenders"),
        ({"chain": "1 " * 45}, "a chain has at most 41 territories"),
        # In the field's own name, under it: the solver's "stop_at must be below..." showed under the dice settings.
        ({"stop_at": 12}, "Stop at (armies left): enter a number below the attacking armies (12), not 12"),
    ],
)
def test_a_bad_entry_in_the_calculator_is_named_and_kept(entries: dict[str, Any], message: str) -> None:
    at = calculate(start(), 12, 7, **entries)
    (error,) = at.error
    assert message in seen(error) and not at.metric
    key, value = next(iter(entries.items()))
    assert at.session_state[key] == value


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("attackers", MAX_ARMIES + 1, "Attacking armies: enter a whole number from 2 to 1,000,000, not 1,000,001"),
        ("attackers", 1, "Attacking armies: enter a whole number from 2 to 1,000,000, not 1"),
        ("attackers", 0, "Attacking armies: enter a whole number from 2 to 1,000,000, not 0"),
        ("defenders", 1_234_567_890, "Defenders: enter a whole number from 1 to 1,000,000, not 1,234,567,890"),
    ],
)
def test_a_count_out_of_range_shows_why_and_no_odds(key: str, value: int, message: str) -> None:
    at = start()
    assert metric(at, "P(win)") == percent(battle(12, 7).p_win)
    at.number_input(key=key).set_value(value).run()
    # The field keeps what was typed; no answer is shown for it, nor the last one for other counts.
    (error,) = at.error
    assert seen(error) == message and at.number_input(key=key).value == value
    assert not at.metric


# ---------------------------------------------------------------------------------- continents, reinforcements
def test_continents_tab_shows_completion_odds() -> None:
    at = open_tab(load(start(), KNOWN), "Continents")
    table = table_with(at, "p_complete").set_index("continent")
    assert list(table.index) == [c.name for c in BOARD.continents]
    assert table.loc["Australia", "missing"] == "Eastern Australia"
    # Only New Guinea's 2 armies can attack it: one die against one, 5/12.
    assert table.loc["Australia", "p_complete"] == pytest.approx(5 / 12)
    assert table.loc["Australia", "value_per_turn"] == 2
    assert table.loc["Australia", "borders"] == "Indonesia (1)"
    # The deciding figures beside the continent's name, which stays in view as a phone scrolls the rest sideways.
    shown = dataframe_proto(at, "p_complete")
    assert list(shown.column_order[:4]) == ["continent", "p_complete", "expected_cost", "value_per_turn"]
    assert json.loads(shown.columns)["continent"]["pinned"] is True


def test_reinforcements_match_the_engine() -> None:
    state = GameState.random_start(5, np.random.default_rng(12))
    at = open_tab(load(start(), state), "Reinforcements")
    table = table_with(at, "base")
    assert table["base"].tolist() == [state.reinforcements(p) for p in range(5)]
    assert table["name"].tolist() == [player_name(p) for p in range(5)]
    # What each gets, without and with a set, beside the player's name, which stays in view on a phone.
    shown = dataframe_proto(at, "base")
    assert list(shown.column_order[:3]) == ["name", "base", "with_set"]
    assert json.loads(shown.columns)["name"]["pinned"] is True


# ---------------------------------------------------------------------------------- suggestions and rollouts
def test_suggestions_rank_the_player_to_moves_attacks() -> None:
    at = open_tab(load(start(), KNOWN), "Suggestions")
    table = table_with(at, "expected_gain")
    expected = attack_suggestions(KNOWN)
    assert list(zip(table["source"], table["target"])) == list(zip(expected["source"], expected["target"]))
    assert (table.iloc[0]["target"], table.iloc[0]["completes"]) == ("Eastern Australia", "Australia")
    # The column the rows are ranked by comes right after the two territories, in view on a phone.
    assert list(dataframe_proto(at, "expected_gain").column_order[:3]) == ["source", "target", "expected_gain"]
    at.radio(key="suggest_rank").set_value("P(win)").run()
    ranked = table_with(at, "expected_gain")
    assert list(ranked["p_win"]) == sorted(ranked["p_win"], reverse=True)
    assert list(dataframe_proto(at, "expected_gain").column_order[:3]) == ["source", "target", "p_win"]


def dataframe_proto(at: AppTest, column: str) -> Any:
    """What the page sends the browser for the table with ``column``: its column order, and its columns' settings
    as JSON."""
    (table,) = [df for df in at.dataframe if column in df.value.columns]
    return table.proto


def test_the_chances_show_truncated_rollouts_at_once_and_whole_rollouts_on_the_button() -> None:
    # Player 1 holds 41 territories with 5 armies against a lone army: every rollout is theirs. Player 3 holds
    # nothing: out of the game, so not in the tables, and named as out under them.
    won = GameState.from_position([0] * 41 + [1], [5] * 41 + [1], n_players=3)
    at = open_tab(load(start(), won), "Suggestions")
    assert "chances" not in at.session_state
    (shown,) = [df.value for df in at.dataframe if "ci_low" in df.value.columns]
    # The lone army falls within the truncated rollouts' rounds in every one of them.
    assert shown["p_win"].tolist() == [100.0, 0.0] and shown["name"].tolist() == ["Player 1", "Player 2"]
    said = f"rollouts of the strategist (the default bot) in every seat, each cut {CUT_ROUNDS} rounds on"
    assert any(said in seen(c) and "Out of the game: Player 3." in seen(c) for c in at.caption)
    at.select_slider(key="rollout_count").set_value(100)
    # The default bot plays the rollouts: its compiled kernels may be loaded (or compiled) by this first run.
    at.button(key="rollout_run").click().run(timeout=600)
    assert not at.exception
    _, counted = at.session_state["chances"]
    assert counted.rollouts == 100 and counted.wins.tolist() == [100, 0, 0]
    tables = [df for df in at.dataframe if "ci_low" in df.value.columns]
    assert len(tables) == 2 and tables[1].value["p_win"].tolist() == [100.0, 0.0]
    assert any("100 rollouts of the strategist (the default bot) in every seat" in seen(c) for c in at.caption)
    # The chances and their intervals in whole per cent, as the strip shows them.
    for table in tables:
        columns = json.loads(table.proto.columns)
        assert [columns[c]["type_config"]["format"] for c in ("p_win", "ci_low", "ci_high")] == ["%.0f%%"] * 3
    # A rerun shows the same estimate without playing again.
    at.run()
    assert at.session_state["chances"][1] is counted
    assert not at.warning


def test_rollouts_for_an_earlier_position_are_flagged() -> None:
    won = GameState.from_position([0] * 41 + [1], [5] * 41 + [1], n_players=3)
    at = open_tab(load(start(), won), "Suggestions")
    at.select_slider(key="rollout_count").set_value(100)
    # The default bot plays the rollouts: its compiled kernels may be loaded (or compiled) by this first run.
    at.button(key="rollout_run").click().run(timeout=600)
    open_tab(at, "Board")
    at.multiselect(key="pick").set_value(["Peru"]).run()
    at.number_input(key="edit_armies").set_value(2)
    at.button(key="apply_quick_edit").click().run()
    open_tab(at, "Suggestions")
    assert "earlier position" in at.warning[0].value


def test_a_whole_turn_is_suggested_on_the_button_with_its_interval_and_plays_legally() -> None:
    game = GameState.random_start(4, np.random.default_rng(8))
    at = open_tab(load(start(), game), "Suggestions")
    assert "turn_tip" not in at.session_state
    at.slider(key="turn_budget").set_value(1)
    at.button(key="turn_run").click().run()
    assert not at.exception and not at.error, [seen(e) for e in at.error]
    computed_for, tip = at.session_state["turn_tip"]
    assert computed_for == game.to_json(history=False)
    # The gain against the default bot's own turn, with its interval, as shown.
    assert [m.value for m in at.metric if m.label == "Gain in win chance"] == [f"{tip.gain:+.1%}"]
    assert f"95% interval: **{tip.gain_low:+.1%} to {tip.gain_high:+.1%}**" in [m.value for m in at.markdown]
    assert tip.gain_low <= tip.gain <= tip.gain_high
    assert tip.gain == pytest.approx(tip.win_chance - tip.default_win_chance)
    # The plans' chances a round on are the search's, not the win chances every view shows: only gains are shown.
    (plans,) = [d.value for d in at.dataframe if "gain" in d.value.columns]
    assert list(plans.columns) == ["plan", "rollouts", "gain", "gain_low", "gain_high"]
    assert not any(f"{tip.win_chance:.0%}" in m.value for m in at.markdown)
    # One numbered step per decision of the turn, placements first.
    (steps,) = [seen(m).splitlines() for m in at.markdown if seen(m).startswith("1. ")]
    assert len(steps) == len(tip.actions) == len(tip.line) > 0
    assert [line.split(". ", 1)[0] for line in steps] == [str(k) for k in range(1, len(steps) + 1)]
    assert steps[0].startswith(("1. Place", "1. Trade"))
    # The suggested turn is the engine's: every action passes GameState.apply from the game shown, and the
    # turn ends (or the game does).
    replay, rng = game.copy(), np.random.default_rng(0)
    for decision, action in zip(tip.actions, tip.line):
        while replay.is_chance():
            replay.apply_chance(rng)
        if type(action).__name__ == "Battle":
            assert (decision.source, decision.target) == (action.source, action.target)
        replay.apply(action)
    while replay.is_chance():
        replay.apply_chance(rng)
    assert replay.turn == game.turn + 1 or replay.is_terminal()
    # A rerun shows the same turn without searching again.
    at.run()
    assert at.session_state["turn_tip"][1] is tip


def test_no_turn_is_suggested_while_a_battle_waits_for_the_defender() -> None:
    game = GameState.from_position([0] * 21 + [1] * 21, [5] * 42, n_players=2)
    game.apply(Place(0, int(game.pending)))
    source, target = next(
        (s, t) for s in range(N) for t in BOARD.neighbors[s] if game.owner[t] == 1 and game.owner[s] == 0
    )
    game.apply(Attack(source, target, 3))
    at = open_tab(load(start(), game), "Suggestions")
    assert any("finish the battle" in i.value for i in at.info)
    assert "turn_run" not in [b.key for b in at.button]


# ---------------------------------------------------------------------------------- tables
def test_tables_tab_shows_the_heatmap_and_the_table() -> None:
    at = new_setup(start(), n_players=3, seed=2)
    open_tab(at, "Tables")
    at.slider(key="table_max").set_value(8).run()
    table = at.dataframe[-1].value
    assert table.shape == (7, 8)
    assert table.loc[2, 1] == pytest.approx(5 / 12)
    assert table.loc[4, 3] == pytest.approx(0.470, abs=5e-4)  # 3 rolling against 3, Osborne's table
    # The heatmap, a chart fitted to the page's width (a picture's text shrank to a few pixels on a phone).
    (heatmap,) = [c for c in at.get("vega_lite_chart") if "P(attacker conquers)" in c.proto.spec]
    (cells,) = [convert_arrow_bytes_to_pandas_df(dataset.data.data) for dataset in heatmap.proto.datasets]
    cells = cells.set_index(["attackers", "defenders"])["value"]
    assert len(cells) == 7 * 8 and cells[2, 1] == pytest.approx(5 / 12) and cells[4, 3] == table.loc[4, 3]
    # Shown as the calculator shows P(win): the table's cells read 41.67%, not 0.4167.
    assert b"41.67%" in at.dataframe[-1].proto.arrow_data.styler.display_values
    at.selectbox(key="table_which").set_value("expected_attacker_losses").run()
    table = at.dataframe[-1].value
    pd.testing.assert_frame_equal(table, odds_tables(8).expected_attacker_losses, check_names=False, check_freq=False)


# ---------------------------------------------------------------------------------- the store: games never lost
def test_a_new_game_is_stored_and_its_id_is_in_the_url(database: Path) -> None:
    at = new_setup(start(), n_players=3, seed=4)
    game_id = at.query_params["game"]
    stored = GameStore(database).load(game_id)
    assert stored.state.to_json() == GameState.random_start(3, np.random.default_rng(4)).to_json()
    # Another session (a reload, another tab, another device, or the server restarted) opening the URL.
    again = start(game_id)
    assert again.session_state["game"].to_json() == stored.state.to_json()
    assert list(territory_table(again)["Owner"]) == list(territory_table(at)["Owner"])


def test_a_file_of_a_stored_game_opened_again_opens_that_game_with_no_copy(database: Path) -> None:
    games = GameStore(database)
    friday = games.create(GameState.random_start(3, np.random.default_rng(5)), "Friday")
    games.create(GameState.random_start(3, np.random.default_rng(6)), "Friday")  # another game of that name
    text = file_text(friday.state, "Friday").encode()
    at = start()
    at.file_uploader(key="upload").set_value(("friday.json", text, "application/json")).run()
    assert not at.exception and not at.error
    assert at.query_params["game"] == friday.id and len(games.list()) == 2
    assert [t.value for t in at.toast] == [
        plain("Friday is stored already as it is in friday.json: opened it, with no copy stored beside it.")
    ]
    # The same game one entry further on is another game's file: stored as a new game, the stored one untouched.
    on = friday.state.copy()
    on.apply(on.legal_actions()[0])
    at.file_uploader(key="upload").set_value(("friday.json", file_text(on, "Friday").encode(), "application/json"))
    at.run()
    assert not at.exception and not at.error
    assert at.query_params["game"] != friday.id and len(games.list()) == 3
    assert games.load(friday.id).version == friday.version


def test_every_change_is_committed_as_it_is_made(database: Path) -> None:
    at = load(start(), KNOWN)
    game_id = at.session_state["stored_id"]
    at.multiselect(key="pick").set_value(["Peru"]).run()
    at.number_input(key="edit_armies").set_value(7)
    at.button(key="apply_quick_edit").click().run()
    stored = GameStore(database).load(game_id)
    assert stored.version == 2 and int(stored.state.armies[T("Peru")]) == 7
    rename(at, 0, "Alice")
    assert GameStore(database).load(game_id).state.labels["names"][0] == "Alice"


def test_the_start_page_lists_opens_renames_and_deletes_games(database: Path) -> None:
    store = GameStore(database)
    first = store.create(KNOWN, "Friday")
    second = store.create(GameState.random_start(4, np.random.default_rng(2)), "Saturday")
    at = start()
    listed = [m.value for m in at.markdown if "turn" in m.value]
    assert len(listed) == 2 and "Saturday" in listed[0] and "Player 1, Player 2, Player 3, Player 4" in listed[0]
    at.text_input(key=f"rename-{first.id}").set_value("Friday night").run()
    assert {g.id: g.name for g in store.list()}[first.id] == "Friday night"
    at.button(key=f"delete-{second.id}").click().run()
    assert [g.id for g in store.list()] == [first.id]
    # Deleted, not lost: listed under Deleted games, to restore or delete for good.
    (deleted,) = [e for e in at.expander if e.label.startswith("Deleted games")]
    assert deleted.label == "Deleted games (1)" and any("Saturday" in m.value for m in deleted.markdown)
    at.button(key=f"restore-{second.id}").click().run()
    assert [g.id for g in store.list()] == [second.id, first.id] and store.deleted_games() == []
    assert not [e for e in at.expander if e.label.startswith("Deleted games")]
    at.button(key=f"delete-{second.id}").click().run()
    at.button(key=f"purge-{second.id}").click().run()
    assert store.deleted_games() == [] and [g.id for g in store.list()] == [first.id]
    at.button(key=f"open-{first.id}").click().run()
    assert at.query_params["game"] == first.id
    assert at.session_state["game"].to_json() == KNOWN.to_json()
    at.button(key="close_game").click().run()
    assert "game" not in at.query_params and "game" not in at.session_state


def test_a_clubs_many_games_are_listed_a_page_at_a_time_and_found_by_name_or_player(database: Path) -> None:
    store = GameStore(database)
    for i in range(23):
        state = GameState.random_start(3, np.random.default_rng(i))
        state.labels = {"names": ["Ann" if i % 3 == 0 else "Bo", "Cy", "Di"], "colors": list(PLAYER_COLORS[:3])}
        store.create(state, f"Table {i}")
    newest_first = [g.id for g in store.list()]  # all made within a second: the store's order, not the names'

    def listed(at: AppTest) -> list[str]:
        return [m.value for m in at.markdown if "· turn" in m.value]

    def stored_ids(at: AppTest) -> list[str]:
        return [b.key.removeprefix("open-") for b in at.button if b.key and b.key.startswith("open-")]

    at = start()
    assert stored_ids(at) == newest_first[:10] and len(listed(at)) == 10
    assert any(c.value == "10 of 23 games, the last changed first." for c in at.caption)
    at.button(key="more_games").click().run()
    assert stored_ids(at) == newest_first[:20]
    assert at.button(key="more_games").label == "Show 3 more"
    at.button(key="more_games").click().run()
    assert stored_ids(at) == newest_first and not [b for b in at.button if b.key == "more_games"]

    # A search starts again from its first page; it finds a player's name as well as a game's.
    at.text_input(key="find_game").set_value("ann").run()
    anns = [g.id for g in store.list() if "Ann" in g.players]
    assert len(anns) == 8 and stored_ids(at) == anns
    at.text_input(key="find_game").set_value("table 1").run()  # Table 1 and Table 10 to 19
    assert len(stored_ids(at)) == 10 and any("10 of the 11 games found" in c.value for c in at.caption)
    at.text_input(key="find_game").set_value("Eve").run()
    assert stored_ids(at) == [] and any("No game's name or players' names hold" in c.value for c in at.caption)
    # A game found is opened as any other.
    at.text_input(key="find_game").set_value("Table 7").run()
    (found,) = stored_ids(at)
    at.button(key=f"open-{found}").click().run()
    assert at.query_params["game"] == found and at.session_state["game_name"] == "Table 7"


def test_a_game_is_saved_under_its_own_name_and_opened_again_under_it(database: Path, downloads: _Offered) -> None:
    store = GameStore(database)
    stored = store.create(KNOWN, "Friday: Ann/Bo")
    at = start()

    def game_in(text: str) -> str:
        return opened(GameState.from_json(text), "")[0].to_json()

    # The characters file systems refuse become "-": the list's JSON and the game page's Save game agree.
    assert game_in(downloads["Friday- Ann-Bo.json"]) == KNOWN.to_json()
    downloads.clear()
    downloads.deferred.clear()
    at.button(key=f"open-{stored.id}").click().run()
    saved = downloads["Friday- Ann-Bo.json"]
    assert game_in(saved) == KNOWN.to_json()
    # The file keeps the game's own name, which its file name could not hold: opened, the game has it again.
    fresh = start()
    fresh.file_uploader(key="upload").set_value(("Friday- Ann-Bo.json", saved.encode(), "application/json")).run()
    assert not fresh.exception and not fresh.error
    assert fresh.session_state["game_name"] == "Friday: Ann/Bo"
    # The stored game itself, the file being that game as it stands: no copy is stored beside it.
    assert fresh.session_state["stored_id"] == stored.id and [g.name for g in store.list()] == ["Friday: Ann/Bo"]
    assert store.load(stored.id).state.to_json() == KNOWN.to_json()  # the name is not kept twice
    # A file with no name of its own (GameState.to_json, or an older save) takes the file's.
    fresh = start()
    fresh.file_uploader(key="upload").set_value(("Sunday.json", KNOWN.to_json().encode(), "application/json")).run()
    assert fresh.session_state["game_name"] == "Sunday"


def test_a_stored_game_changed_elsewhere_shows_up_on_the_next_run(database: Path) -> None:
    mine = load(start(), KNOWN)
    game_id = mine.session_state["stored_id"]
    theirs = start(game_id)
    theirs.multiselect(key="pick").set_value(["Peru"]).run()
    theirs.number_input(key="edit_armies").set_value(9)
    theirs.button(key="apply_quick_edit").click().run()
    # The polling fragment reruns the page when the version moved; AppTest has no timer, so rerun by hand.
    mine.run()
    assert int(mine.session_state["game"].armies[T("Peru")]) == 9
    assert territory_table(mine).set_index("Territory").loc["Peru", "Armies"] == 9


def test_a_game_renamed_on_another_device_is_shown_by_its_new_name(database: Path) -> None:
    mine = load(start(), KNOWN)
    game_id = mine.session_state["stored_id"]
    version = mine.session_state["version"]
    GameStore(database).rename(game_id, "Friday at Ann's")  # the start page of another phone
    mine.run()  # the poll
    assert mine.session_state["game_name"] == "Friday at Ann's" and mine.session_state["version"] == version


def test_a_conflicting_edit_is_refused_the_fresh_game_shown_and_the_entry_kept(database: Path) -> None:
    mine = load(start(), KNOWN)
    game_id = mine.session_state["stored_id"]
    mine.multiselect(key="pick").set_value(["Alaska"])
    mine.number_input(key="edit_armies").set_value(4).run()
    theirs = start(game_id)
    theirs.multiselect(key="pick").set_value(["Peru"]).run()
    theirs.number_input(key="edit_armies").set_value(9)
    theirs.button(key="apply_quick_edit").click().run()
    # Mine was drawn on version 1: its Apply is pressed before the polling has brought version 2.
    mine.button(key="apply_quick_edit").click().run()
    assert any("changed elsewhere" in seen(e) for e in mine.error)
    stored = GameStore(database).load(game_id)
    assert stored.version == 2 and int(stored.state.armies[T("Alaska")]) == 6  # not overwritten
    assert int(mine.session_state["game"].armies[T("Peru")]) == 9  # the fresh game is shown
    assert mine.multiselect(key="pick").value == ["Alaska"] and mine.number_input(key="edit_armies").value == 4
    # Applied again, on the fresh game, the entry goes in.
    mine.button(key="apply_quick_edit").click().run()
    stored = GameStore(database).load(game_id)
    assert stored.version == 3 and (int(stored.state.armies[T("Alaska")]), int(stored.state.armies[T("Peru")])) == (
        4,
        9,
    )


def test_a_conflicting_table_edit_is_not_applied_again_until_the_user_says_so(database: Path) -> None:
    mine = load(start(), KNOWN)
    game_id = mine.session_state["stored_id"]
    GameStore(database).save(game_id, new_game_from_position(KNOWN, armies={"Peru": 9}), expected_version=1)
    key = editor_key(mine)
    entries = {"edited_rows": {T("Alaska"): {"Armies": 4}}, "added_rows": [], "deleted_rows": []}
    mine.session_state[key] = entries
    mine.run()
    assert any("changed elsewhere" in seen(e) for e in mine.error)
    assert editor_key(mine) == key  # the table keeps its key, and so (in the browser) the user's entries
    # The browser sends the entries again with every rerun: they are held back, not saved behind the user's back.
    mine.session_state[key] = entries
    mine.run()
    assert GameStore(database).version(game_id) == 2
    assert any("were not applied" in w.value for w in mine.warning)
    mine.button(key="apply_table").click()
    mine.session_state[key] = entries
    mine.run()
    stored = GameStore(database).load(game_id)
    assert stored.version == 3 and (int(stored.state.armies[T("Alaska")]), int(stored.state.armies[T("Peru")])) == (
        4,
        9,
    )


def test_an_unwritable_store_gives_a_message_and_the_game_is_kept_in_the_page(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(DB_ENV, str(blocker / "games.sqlite3"))
    at = start()
    assert any("cannot be created" in seen(e) for e in at.error)
    # The games could not be read, so the page does not say there are none.
    assert not any("No stored game yet" in c.value for c in at.caption)
    at.button(key="new_random").click().run()
    assert not at.exception
    assert any("kept in this page only" in seen(e) for e in at.error)
    assert len(territory_table(at)) == 42
    at.multiselect(key="pick").set_value(["Peru"]).run()
    at.number_input(key="edit_armies").set_value(7)
    at.button(key="apply_quick_edit").click().run()
    assert not at.exception and int(at.session_state["game"].armies[T("Peru")]) == 7


def test_a_damaged_store_gives_a_message_not_a_traceback(database: Path) -> None:
    database.write_bytes(b"garbage" * 1000)
    at = start()
    assert any("damaged or is not a database" in seen(e) for e in at.error)
    at = start("abc")
    assert not at.exception and any("damaged" in seen(e) for e in at.error)


def test_an_unknown_game_in_the_url_gives_a_message() -> None:
    at = start("nosuchgame")
    assert any("no game 'nosuchgame'" in seen(e) for e in at.error)
    assert "game" not in at.session_state


# ---------------------------------------------------------------------------------- hostile text and sizes
def test_player_names_are_shown_as_plain_text_never_markdown() -> None:
    tracker = "![x](http://tracker.example/t.png)"
    labelled = KNOWN.copy()
    labelled.labels = {"names": [tracker, "<b>Bo</b>", "**Cy**"], "colors": list(PLAYER_COLORS[:3])}
    at = load(start(), labelled)
    shown = " ".join(m.value for m in at.markdown) + " ".join(c.value for c in at.caption)
    assert "tracker.example" in shown.replace("\\", "")  # the name is there, as text
    assert tracker not in shown and "<b>" not in shown and "**Cy**" not in shown
    assert plain_markdown_is_inert(shown)


def plain_markdown_is_inert(text: str) -> bool:
    """No image, link or HTML tag can be made of ``text``: every such mark is escaped."""
    import re

    return not re.search(r"(?<!\\)!(?<!\\)\[|(?<!\\)\]\(|(?<!\\)<[a-z]", text)


def test_armies_past_the_limit_are_refused_in_the_table() -> None:
    at = load(start(), KNOWN)
    game = at.session_state["game"]
    at.session_state[editor_key(at)] = {
        "edited_rows": {0: {"Armies": 3_000_000_000}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    (error,) = at.error
    assert "at most 1,000,000 armies" in seen(error)
    assert at.session_state["game"] is game


def test_apply_with_nothing_changed_says_so_and_saves_nothing(database: Path) -> None:
    at = load(start(), KNOWN)
    version = at.session_state["version"]
    open_tab(at, "Players & cards")
    at.button(key="apply_players").click().run()
    assert [i.value for i in at.info] == [NOTHING_TO_APPLY]
    assert at.session_state["version"] == version == GameStore(database).load(at.session_state["stored_id"]).version
    open_tab(at, "Board")
    assert not [i.value for i in at.info if i.value == NOTHING_TO_APPLY]  # said once
    alaska = int(at.session_state["game"].armies[T("Alaska")])
    at.multiselect(key="pick").set_value(["Alaska"]).run()
    at.selectbox(key="edit_owner").set_value("Player 1")
    at.number_input(key="edit_armies").set_value(alaska)
    at.button(key="apply_quick_edit").click().run()
    assert NOTHING_TO_APPLY in [i.value for i in at.info]
    assert at.session_state["version"] == version


def test_all_games_then_open_opens_a_live_game_on_the_record_view(database: Path) -> None:
    live = LiveGame.random(["Ann", "Bo", "Cy"], np.random.default_rng(3))
    game_id = GameStore(database).create(live.state, "At the table").id
    at = start(game_id)
    assert at.session_state["tab"] == "Record" and at.button(key="live:place_go")
    open_tab(at, "Board")
    open_tab(at, "Record")
    at.button(key="close_game").click().run()
    assert "game" not in at.session_state
    at.button(key=f"open-{game_id}").click().run()
    assert not at.exception
    assert at.session_state["tab"] == "Record" and at.query_params["tab"] == "Record"
    assert at.button(key="live:place_go").label == "Place"


def test_a_record_entry_the_store_cannot_take_is_said_under_it_and_kept_in_the_page(database: Path) -> None:
    live = LiveGame.random(["Ann", "Bo", "Cy"], np.random.default_rng(3))
    game_id = GameStore(database).create(live.state, "At the table").id
    at = start(game_id)
    GameStore(database).delete(game_id)  # another phone deletes the game this one records
    at.button(key="live:place_go").click().run()
    assert not at.exception
    # Said at the entry (the Record view reruns alone, and the top of the page is not drawn again).
    (said,) = [seen(e) for e in at.error if seen(e).startswith("Not saved:")]
    assert "the game 'At the table' was deleted: restore it" in said and said.endswith(KEPT_IN_PAGE)
    assert len(at.session_state["game"].history) == len(live.state.history) + 1  # the entry stands in the page


def test_entries_kept_in_the_page_are_not_overwritten_by_another_devices_game(
    monkeypatch: pytest.MonkeyPatch, database: Path, tmp_path: Path
) -> None:
    live = LiveGame.random(["Ann", "Bo", "Cy"], np.random.default_rng(3))
    game_id = GameStore(database).create(live.state, "At the table").id
    mine, theirs = start(game_id), start(game_id)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(DB_ENV, str(blocker / "games.sqlite3"))  # this phone's store cannot be reached
    mine.button(key="live:place_go").click().run()
    ours = len(mine.session_state["game"].history)
    assert ours == len(live.state.history) + 1 and any(seen(e).startswith("Not saved:") for e in mine.error)
    monkeypatch.setenv(DB_ENV, str(database))  # back; meanwhile the other phone records on the stored game
    theirs.button(key="live:place_go").click().run()
    assert GameStore(database).version(game_id) == 2
    # The poll sees the new version: the page keeps its own game, and says both games exist.
    mine.run()
    assert len(mine.session_state["game"].history) == ours
    assert any(seen(e) == CHANGED_WHILE_UNSAVED for e in mine.error)
    # A further entry (the turn ended) is not saved over the other phone's game, nor is this page's game dropped.
    mine.button(key="live:end_go").click().run()
    assert type(mine.session_state["game"].history[-1]).__name__ == "EndTurn"
    assert GameStore(database).version(game_id) == 2
    assert any(CHANGED_WHILE_UNSAVED in seen(e) for e in mine.error)


def test_the_best_attacks_say_when_none_gains_armies_on_average() -> None:
    # Player 1's one stack of 2 in Alaska, next to single armies, no continent whole to break (Siam is Player 2's):
    # each attack wins 41.67% and costs more armies than it takes on average (-0.17), the best of them a loss.
    at = load(start(), position({"Alaska": (0, 2), "Siam": (1, 1)}))
    (said,) = [c.value for c in at.caption if c.value.startswith("Best attacks for")]
    assert said.endswith("; none gains armies on average")
    best = table_with(at, "Gain")
    assert (best["Gain"] < 0).all() and len(best) == 3
    # With New Guinea's 2 next to Eastern Australia's 1, which completes Australia, the first gains.
    at = load(start(), KNOWN)
    (said,) = [c.value for c in at.caption if c.value.startswith("Best attacks for")]
    assert "none gains" not in said and table_with(at, "Gain")["Gain"].iloc[0] > 0
