"""The live-game panel (analyzer/webapp/record.py), driven through its own widgets with Streamlit's AppTest.

The scripted game of ``tests/live/test_live.py`` is recorded entry by entry by
setting the panel's widgets and pressing its buttons, as a user would; the
game the panel hands back must be the game the same entries make through the
package, and the same engine actions applied by :meth:`GameState.apply`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest
from support.live_script import captured_then_ended, play_script, same_game, script_start

from analyzer.analysis.luck import luck_series
from analyzer.game.actions import Place
from analyzer.game.board import classic_board
from analyzer.game.state import GameState
from analyzer.live import LiveGame
from analyzer.plot import PICK_SELECTION
from analyzer.text import plain
from analyzer.webapp.record import ENTER_BY_PLAYER, RANDOM_DEAL

BOARD = classic_board()
KEY = "live"
#: A run redraws the panel, the log and the luck meter; the default 3 s is tight on a busy machine.
TIMEOUT = 60


def host() -> None:
    import streamlit as st

    from analyzer.services.saving import Saved
    from analyzer.webapp.record import render

    def save(new: object, version: int | None) -> Saved:
        st.session_state["game"] = new
        return Saved(None)

    render(st.session_state.get("game"), "live", save)


def _app(game: GameState | None) -> AppTest:
    at = AppTest.from_function(host, default_timeout=TIMEOUT)
    if game is not None:
        at.session_state["game"] = game
    at.run()
    assert not at.exception, at.exception
    return at


def k(name: str) -> str:
    return f"{KEY}:{name}"


def game_of(at: AppTest) -> GameState:
    game = at.session_state["game"]
    assert isinstance(game, GameState)
    return game


def form(at: AppTest) -> int:
    """The panel's form generation, part of the keys of its counts (a new form starts from the game's counts)."""
    return int(at.session_state[k("form")]) if k("form") in at.session_state else 0


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def press(at: AppTest, button: str) -> None:
    at.button(key=k(button)).click().run()
    assert not at.exception, at.exception


def record(at: AppTest, step: tuple[str, dict[str, Any]]) -> None:
    """Make one entry of the script through the panel's widgets."""
    name, kw = step
    game = game_of(at)
    if name == "place":
        counts = kw["armies"]
        if len(counts) == 1:
            ((t, n),) = counts.items()
            at.selectbox(key=k("place_t")).set_value(BOARD.index(t))
            at.number_input(key=k(f"place_k{form(at)}")).set_value(n)
            at.text_input(key=k(f"place_many{form(at)}")).set_value("")
        else:
            at.text_input(key=k(f"place_many{form(at)}")).set_value(", ".join(f"{t} {n}" for t, n in counts.items()))
        press(at, "place_go")
    elif name == "trade":
        at.multiselect(key=k("trade_cards")).set_value(kw.get("cards", []))
        at.selectbox(key=k("trade_bonus")).set_value(kw.get("bonus"))
        press(at, "trade_go")
    elif name == "battle":
        src = BOARD.index(kw["source"])
        at.selectbox(key=k("from")).set_value(src).run()
        tgt = BOARD.index(kw["target"])
        at.selectbox(key=k("to")).set_value(tgt).run()
        pair = f"{form(at)}_{src}_{tgt}"
        at.number_input(key=k(f"attackers_left{pair}")).set_value(kw["attacker_left"])
        at.number_input(key=k(f"defenders_left{pair}")).set_value(kw["defender_left"])
        press(at, "battle_go")
    elif name == "move_in":
        at.number_input(key=k(f"move_k{form(at)}")).set_value(kw["armies"])
        press(at, "move_go")
    elif name in ("fortify", "end_turn"):
        if game.captured:
            at.selectbox(key=k("card")).set_value(-1 if kw["card"] is None else kw["card"])
        if name == "fortify":
            at.selectbox(key=k("f_from")).set_value(BOARD.index(kw["source"])).run()
            src, tgt = BOARD.index(kw["source"]), BOARD.index(kw["target"])
            at.selectbox(key=k("f_to")).set_value(tgt).run()
            at.number_input(key=k(f"f_k{form(at)}_{src}_{tgt}")).set_value(kw["armies"])
            press(at, "f_go")
        else:
            press(at, "end_go")
    elif name == "name_cards":
        at.multiselect(key=k("name_cards")).set_value(kw["cards"])
        press(at, "name_go")
    elif name in ("undo", "redo"):
        for _ in range(kw.get("n", 1)):
            press(at, name)
    else:  # pragma: no cover - the script makes no other entry
        raise AssertionError(step)
    assert not errors(at), (step, errors(at))


@pytest.fixture(scope="module")
def recorded() -> tuple[AppTest, LiveGame, list[tuple[str, dict[str, Any]]]]:
    live, steps = play_script()
    at = _app(LiveGame(script_start(), me=0, seed=11).state)
    for step in steps:
        before = len(game_of(at).history)
        record(at, step)
        assert len(game_of(at).history) != before or step[0] in ("undo", "redo", "name_cards"), step
    return at, live, steps


def test_scripted_game_through_the_widgets_is_the_engines_game(recorded: Any) -> None:
    at, live, steps = recorded
    final = game_of(at)
    assert len(steps) >= 60 and [e.player for e in final.eliminations] == [2]
    assert final.trades and any(name == "fortify" for name, _ in steps)
    # The same entries through the package give the same game ...
    assert final == live.state
    # ... and so do its engine actions applied one by one by GameState.apply.
    replayed = script_start()
    for action in final.history:
        replayed.apply(action)
    assert same_game(replayed, final)


def test_log_and_luck_are_shown(recorded: Any) -> None:
    at, _, _ = recorded
    # Drawn only while open: each costs more than an entry.
    assert not any(str(c.value).startswith("Luckiest battle") for c in at.caption)
    charts_before = len(at.get("vega_lite_chart"))
    at.session_state[k("log_open")] = True
    at.session_state[k("luck_open")] = True
    at.run()
    texts = [str(c.value) for c in at.caption]
    assert any(t.startswith("Luckiest battle for Ann") for t in texts)
    # The chart of each player's luck percentile after each turn: a line and points a player, called by name.
    (chart,) = at.get("vega_lite_chart")[charts_before:]
    (drawn,) = [convert_arrow_bytes_to_pandas_df(dataset.data.data) for dataset in chart.proto.datasets]
    series = luck_series(game_of(at))
    assert sorted(set(drawn["name"])) == ["Ann", "Bo", "Cy"] and len(drawn) == len(series)
    assert np.allclose(drawn.sort_values(["turn", "player"])["percentile"], series["percentile"])
    assert any("Cy is out" in m.value.replace("\\", "") for m in at.markdown)
    assert at.get("download_button")


def test_refused_entries_show_the_engines_message_and_keep_the_game() -> None:
    owner = [0] * 14 + [1] * 14 + [2] * 14
    start = LiveGame(GameState.from_position(owner, [3] * 42, n_players=3, player=0), me=0).state
    at = _app(start)
    at.selectbox(key=k("place_t")).set_value(BOARD.index("Alaska"))
    at.number_input(key=k("place_k0")).set_value(12)
    press(at, "place_go")
    (message,) = errors(at)  # under the field: a count out of its range never reaches the game
    assert "Armies: enter a whole number from 1 to 11, not 12" in message.replace("\\", "")
    assert game_of(at) == start
    assert at.number_input(key=k("place_k0")).value == 12  # the entry stays to be fixed
    at.text_input(key=k("place_many0")).set_value("Alaska 10, Atlantis 1")
    press(at, "place_go")
    assert any("Atlantis" in e for e in errors(at)) and game_of(at) == start
    at.text_input(key=k("place_many0")).set_value("Alaska 11")
    press(at, "place_go")
    after_place = game_of(at)
    assert after_place.armies[0] == 14 and not errors(at)
    # 14 territories each (4 armies): Player 1 holds both Americas (+5 +2), Player 2 Africa (+3), Player 3 Australia (+2).
    assert plain("Next reinforcements: Player 1 11, Player 2 7, Player 3 6") in [c.value for c in at.caption]
    # A result impossible from the armies before it.
    at.selectbox(key=k("from")).set_value(0).run()
    at.selectbox(key=k("to")).set_value(BOARD.index("Kamchatka")).run()
    pair = f"1_0_{BOARD.index('Kamchatka')}"
    assert at.number_input(key=k(f"defenders_left{pair}")).value == 3  # the form starts from the stacks as they are
    at.number_input(key=k(f"attackers_left{pair}")).set_value(15)
    at.number_input(key=k(f"defenders_left{pair}")).set_value(0)
    press(at, "battle_go")
    (message,) = errors(at)
    assert "enter a whole number from 1 to 14, not 15" in message.replace("\\", "") and game_of(at) == after_place
    assert at.number_input(key=k(f"attackers_left{pair}")).value == 15
    at.number_input(key=k(f"attackers_left{pair}")).set_value(14)
    # Roll by roll: more losses than the classic dice compare (two) are refused at the field; an outcome those
    # dice cannot give (two attackers lost to one defending die) by the rules; a possible one is recorded.
    at.number_input(key=k(f"attacker_lost{pair}")).set_value(3)
    press(at, "roll_go")
    (message,) = errors(at)
    assert "Attacker lost: enter a whole number from 0 to 2, not 3" in message.replace("\\", "")
    assert game_of(at) == after_place
    at.number_input(key=k(f"attacker_lost{pair}")).set_value(2)
    at.number_input(key=k(f"defender_dice{pair}")).set_value(1)
    press(at, "roll_go")
    (message,) = errors(at)
    assert "not a possible outcome of 3 dice against 1" in message.replace("\\", "") and game_of(at) == after_place
    at.number_input(key=k(f"defender_dice{pair}")).set_value(2)
    at.number_input(key=k(f"attacker_lost{pair}")).set_value(1)
    at.number_input(key=k(f"defender_lost{pair}")).set_value(1)
    press(at, "roll_go")
    rolled = game_of(at)
    assert not errors(at) and rolled.armies[0] == 13 and rolled.armies[BOARD.index("Kamchatka")] == 2
    press(at, "undo")
    assert same_game(game_of(at), after_place)
    # Undo takes the placement back.
    press(at, "undo")
    assert same_game(game_of(at), start)
    press(at, "redo")
    assert same_game(game_of(at), after_place)


def test_a_roll_on_a_lone_defender_starts_from_its_one_die() -> None:
    # The roll's fields started at the rules' most dice whatever the stacks: a roll on one army recorded with the
    # fields as they came was refused, "the defender holds one army and rolls 1 die, got 2".
    owner = [0] * 14 + [1] * 14 + [2] * 14
    armies = [3] * 42
    kamchatka = BOARD.index("Kamchatka")
    armies[kamchatka] = 1
    at = _app(LiveGame(GameState.from_position(owner, armies, n_players=3, player=0), me=0).state)
    at.text_input(key=k("place_many0")).set_value("Alaska 11")
    press(at, "place_go")
    at.selectbox(key=k("from")).set_value(0).run()
    at.selectbox(key=k("to")).set_value(kamchatka).run()
    pair = f"1_0_{kamchatka}"
    assert [at.number_input(key=k(f"{name}{pair}")).value for name in ("attacker_dice", "defender_dice")] == [3, 1]
    at.number_input(key=k(f"defender_lost{pair}")).set_value(1)
    press(at, "roll_go")
    taken = game_of(at)
    assert not errors(at) and taken.owner[kamchatka] == 0 and taken.move is not None


def test_the_start_form_refuses_a_name_twice_and_offers_two_players_no_claiming() -> None:
    at = _app(None)
    at.text_input(key=k("names")).set_value("Ann, Bo, ann").run()
    assert errors(at) == [plain("Ann is named twice: give each player a name of their own")]
    assert all(b.key != k("start") for b in at.button) and "game" not in at.session_state
    # Two players: the territories are dealt in three piles (the neutral's too), never claimed one at a time;
    # the form offered claiming, and its Start answered "a 2-player game with setup='claim' needs a deal".
    at.text_input(key=k("names")).set_value("Ann, Bo").run()
    assert not errors(at) and at.radio(key=k("how")).options == [ENTER_BY_PLAYER, RANDOM_DEAL]
    at.radio(key=k("how")).set_value(RANDOM_DEAL)
    press(at, "start")
    game = game_of(at)
    assert not errors(at) and game.n_players == 2 and game.labels["names"] == ["Ann", "Bo"]
    assert [int((game.owner == f).sum()) for f in range(3)] == [14, 14, 14]  # the neutral's pile too


def test_start_form_claims_and_random_deal() -> None:
    at = _app(None)
    at.text_input(key=k("names")).set_value("Ann, Bo, Cy").run()
    at.selectbox(key=k("first")).set_value(1)
    press(at, "start")
    game = game_of(at)
    assert game.phase.name == "SETUP_CLAIM" and game.player == 1 and game.labels["names"] == ["Ann", "Bo", "Cy"]
    at.selectbox(key=k("claim")).set_value(BOARD.index("Peru"))
    press(at, "claim_go")
    assert game_of(at).owner[BOARD.index("Peru")] == 1
    at = _app(None)
    at.radio(key=k("how")).set_value(RANDOM_DEAL)
    press(at, "start")
    assert game_of(at).phase.name == "REINFORCE" and int(game_of(at).armies.sum()) == 105
    # Dealt at random, the game still starts with the player the table says goes first: the starting roll was
    # drawn at random too, and the choice ignored.
    for first in range(3):
        at = _app(None)
        at.text_input(key=k("names")).set_value("Ann, Bo, Cy").run()
        at.selectbox(key=k("first")).set_value(first)
        at.radio(key=k("how")).set_value(RANDOM_DEAL)
        press(at, "start")
        game = game_of(at)
        assert (game.first_player, game.player, game.phase.name) == (first, first, "REINFORCE")


def test_a_game_changed_outside_the_recorder_is_followed_afresh() -> None:
    owner = [0] * 14 + [1] * 14 + [2] * 14
    game = LiveGame(GameState.from_position(owner, [3] * 42, n_players=3, player=0)).state
    game.apply(Place("Alaska", 11))  # not through the recorder: its record no longer covers the history
    at = _app(game)
    (message,) = errors(at)
    assert "entries cover 0 actions but the history has 1" in message.replace("\\", "")
    press(at, "adopt")
    followed = game_of(at)
    assert followed.armies[0] == 14 and LiveGame(followed).entries == []


def test_start_by_entering_each_players_territories_then_their_armies() -> None:
    at = _app(None)
    at.text_input(key=k("names")).set_value("Ann, Bo, Cy").run()
    at.radio(key=k("how")).set_value(ENTER_BY_PLAYER).run()
    at.multiselect(key=k("deal_0")).set_value(list(range(0, 14)))
    at.multiselect(key=k("deal_1")).set_value(list(range(14, 28)))
    at.multiselect(key=k("deal_2")).set_value(list(range(28, 41)))
    press(at, "start")
    assert errors(at) == [plain("1 territories have no owner yet: Eastern Australia")]
    at.multiselect(key=k("deal_2")).set_value(list(range(27, 42)))
    press(at, "start")
    assert errors(at) == ["Siberia is picked for two players"]
    at.multiselect(key=k("deal_2")).set_value(list(range(28, 42)))
    press(at, "start")
    game = game_of(at)
    assert game.phase.name == "SETUP_PLACE" and game.owner.tolist() == [0] * 14 + [1] * 14 + [2] * 14
    # Starting armies: 35 each, one already on each of the 14 territories.
    at.text_input(key=k("start_0")).set_value("Alaska 10, Peru 11")
    at.text_input(key=k("start_1")).set_value("Ural 21")
    at.text_input(key=k("start_2")).set_value("Japan 20")
    press(at, "start_go")
    assert "Cy has 21 starting armies to place, got 20" in errors(at)[0] and game_of(at) == game
    at.text_input(key=k("start_2")).set_value("Japan 20, Siam 1")
    press(at, "start_go")
    game = game_of(at)
    assert game.phase.name == "REINFORCE" and game.armies[BOARD.index("Japan")] == 21 and int(game.armies.sum()) == 105


def shown(box: Any, sent: str) -> str:
    """The label a browser shows in a selectbox: the one the app sends with the box, else the one it last sent itself."""
    return box.proto.raw_value if box.proto.set_value else sent


def test_after_a_battle_the_boxes_show_the_armies_left() -> None:
    owner = [0] * 14 + [1] * 14 + [2] * 14
    start = LiveGame(GameState.from_position(owner, [3] * 42, n_players=3, player=0), me=0).state
    at = _app(start)
    at.text_input(key=k("place_many0")).set_value("Alaska 11")
    press(at, "place_go")
    at.selectbox(key=k("from")).set_value(0).run()
    at.selectbox(key=k("to")).set_value(BOARD.index("Kamchatka")).run()
    sent = {"from": at.selectbox(key=k("from")), "to": at.selectbox(key=k("to"))}
    labels = {name: box.options[box.index] for name, box in sent.items()}
    assert labels == {"from": "Alaska (14, Player 1)", "to": "Kamchatka (3, Player 3)"}
    # Alaska's 14 against Kamchatka's 3, stopped at 10 and 1: the browser sent the labels above with the press.
    pair = f"1_0_{BOARD.index('Kamchatka')}"
    at.number_input(key=k(f"attackers_left{pair}")).set_value(10)
    at.number_input(key=k(f"defenders_left{pair}")).set_value(1)
    press(at, "battle_go")
    assert game_of(at).armies[[0, BOARD.index("Kamchatka")]].tolist() == [10, 1]
    after = {name: at.selectbox(key=k(name)) for name in sent}
    assert after["from"].options[0] == "Alaska (10, Player 1)"
    assert {name: shown(after[name], labels[name]) for name in sent} == {
        "from": "Alaska (10, Player 1)",
        "to": "Kamchatka (1, Player 3)",
    }
    assert (after["from"].value, after["to"].value) == (0, BOARD.index("Kamchatka"))  # the same choice, relabelled


def test_a_press_that_sends_the_label_it_had_before_an_entry_places_on_the_territory_shown() -> None:
    # Player 1 holds the first 14 territories, 3 armies each, and has 11 to place: 2 on Alberta, then the rest
    # there too, pressed before the browser had Alberta's new label, so it sends "Alberta (3, Player 1)" again.
    owner = [0] * 14 + [1] * 14 + [2] * 14
    at = _app(LiveGame(GameState.from_position(owner, [3] * 42, n_players=3, player=0), me=0).state)
    alberta = BOARD.index("Alberta")
    assert at.selectbox(key=k("place_t")).options[0] == "Alaska (3, Player 1)"  # not the first option
    at.selectbox(key=k("place_t")).set_value(alberta).run()
    at.number_input(key=k("place_k0")).set_value(2)
    press(at, "place_go")
    box = at.selectbox(key=k("place_t"))
    assert shown(box, "Alberta (3, Player 1)") == "Alberta (5, Player 1)"  # relabelled, sent with the box
    stale = "Alberta (3, Player 1)"
    box.options.append(stale)  # the browser's list still holds the old label, and sends it with the press
    box.set_value(stale)
    at.number_input(key=k("place_k1")).set_value(9)
    press(at, "place_go")
    game = game_of(at)
    assert not errors(at) and game.pending == 0
    assert game.armies[alberta] == 3 + 2 + 9 and game.armies[BOARD.index("Alaska")] == 3


def test_after_a_move_in_the_next_battle_starts_from_the_armies_left() -> None:
    owner = [0] * 14 + [1] * 14 + [2] * 14
    armies = [3] * 42
    iceland, scandinavia = BOARD.index("Iceland"), BOARD.index("Scandinavia")
    armies[iceland] = 10  # Iceland borders Scandinavia and Great Britain, both Player 2's
    at = _app(LiveGame(GameState.from_position(owner, armies, n_players=3, player=0), me=0).state)
    at.text_input(key=k("place_many0")).set_value("Alaska 11")
    press(at, "place_go")
    at.selectbox(key=k("from")).set_value(iceland).run()
    at.selectbox(key=k("to")).set_value(scandinavia).run()
    # Scandinavia taken with 9 of Iceland's 10 left, then 3 moved in (3 to 8 allowed): Iceland keeps 6.
    at.number_input(key=k(f"attackers_left1_{iceland}_{scandinavia}")).set_value(9)
    at.number_input(key=k(f"defenders_left1_{iceland}_{scandinavia}")).set_value(0)
    press(at, "battle_go")
    at.number_input(key=k("move_k2")).set_value(3)
    press(at, "move_go")
    assert game_of(at).armies[iceland] == 6
    # The next battle from Iceland starts from its 6 armies, not the 9 typed for the last one.
    assert at.selectbox(key=k("from")).value == iceland
    target = at.selectbox(key=k("to")).value
    assert at.number_input(key=k(f"attackers_left3_{iceland}_{target}")).value == 6
    assert at.selectbox(key=k("from")).proto.raw_value == "Iceland (6, Player 1)"


def tap(at: AppTest, territory: str) -> None:
    """Tap ``territory`` on the setup map: the chart's selection event, as Streamlit hands it to the script."""
    game = game_of(at)
    at.session_state[k(f"claim_map{len(game.history)}")] = {"selection": {PICK_SELECTION: [{"territory": territory}]}}
    at.run()
    assert not at.exception, at.exception


def test_tapping_the_map_claims_territories_and_the_list_still_does() -> None:
    at = _app(None)
    at.text_input(key=k("names")).set_value("Ann, Bo, Cy").run()
    at.selectbox(key=k("first")).set_value(1)
    press(at, "start")
    assert plain("Tap a free territory on the map to claim it for Bo.") in [c.value for c in at.caption]
    tap(at, "Peru")
    assert game_of(at).owner[BOARD.index("Peru")] == 1 and len(game_of(at).history) == 1
    # A tap on a territory already held changes nothing and says why.
    before = game_of(at)
    tap(at, "Peru")
    assert game_of(at) == before and [i.value for i in at.info] == [plain("Peru is already Bo's: tap a free territory")]
    tap(at, "Alaska")
    assert game_of(at).owner[BOARD.index("Alaska")] == 2  # Cy's turn to claim
    at.selectbox(key=k("claim")).set_value(BOARD.index("Brazil"))
    press(at, "claim_go")
    game = game_of(at)
    assert game.owner[BOARD.index("Brazil")] == 0 and len(game.history) == 3
    # The map shown is the one for the next claim: nothing selected yet, so a run reads no tap.
    at.run()
    assert game_of(at) == game


def test_the_setup_map_of_one_continent_draws_only_its_territories_and_borders() -> None:
    from analyzer.errors import BoardError
    from analyzer.plot import board_chart

    game = GameState.from_position([0] * 41 + [1], [1] * 42, n_players=3)
    europe = next(i for i, c in enumerate(BOARD.continents) if c.name == "Europe")
    spec = board_chart(game, continent=europe, width=360).to_dict()
    rows = [row for data in spec["datasets"].values() for row in data]
    territories = [r["territory"] for r in rows if "territory" in r]
    assert territories == [BOARD.territories[t] for t in BOARD.continents[europe].territories]
    assert len(territories) == 7
    # Only Europe's own 12 borders, counted on the board: Iceland to Great Britain and Scandinavia; Great Britain
    # to Scandinavia, Northern and Western Europe; Scandinavia to Northern Europe and Ukraine; Northern Europe to
    # Western and Southern Europe and Ukraine; Southern Europe to Western Europe and Ukraine.
    assert sum(1 for r in rows if "x2" in r) == 12
    with pytest.raises(BoardError, match="continent 6 does not exist"):
        board_chart(game, continent=6)


def test_the_panel_counts_each_players_face_down_cards() -> None:
    owner = [0] * 14 + [1] * 14 + [2] * 14
    typed = GameState.from_position(owner, [3] * 42, player=0, hands={0: [20], 1: ["?", "?", "?"], 2: [5, "?"]})
    at = _app(LiveGame(typed, me=0).state)
    assert plain("Cards: Player 1 1, Player 2 3 (3 face down), Player 3 2 (1 face down)") in [
        c.value for c in at.caption
    ]


def test_a_face_down_card_left_unknown_does_not_hold_up_the_next_entry() -> None:
    game = captured_then_ended(me=0)
    assert len(game.hand(0)) == 1 and game.player == 1
    at = _app(game)
    assert not errors(at)
    # Bo's turn: his armies are placed as usual, Ann's card still face down.
    assert any("Bo to play" in m.value and "armies to place" in m.value for m in at.markdown)
    pending = game.pending
    at.number_input(key=k(f"place_k{form(at)}")).set_value(pending - 1)
    press(at, "place_go")
    after = game_of(at)
    assert after.pending == 1 and len(after.history) == len(game.history) + 1
    assert any("1 army to place" in m.value for m in at.markdown)
    press(at, "place_go")
    assert game_of(at).pending == 0 and len(game_of(at).hand(0)) == 1
    assert game_of(at).phase.name == "ATTACK"
    # Naming it is still there, folded and optional.
    # Ann's hand, called by her name: every phone of the game shows it.
    assert plain("Name Ann's face-down cards (1 to name, optional)") in [e.label for e in at.expander]
    assert any(c.value.startswith(plain("Ann's cards: none known; 1 to name")) for c in at.caption)


def test_deal_the_rest_is_one_entry_and_one_undo() -> None:
    at = _app(None)
    at.text_input(key=k("names")).set_value("Ann, Bo, Cy").run()
    # Nobody is the user unless chosen: the box says so, rather than asking to choose.
    assert at.selectbox(key=k("me")).index == 0
    assert at.selectbox(key=k("me")).format_func(at.selectbox(key=k("me")).value) == "nobody (every card face down)"
    press(at, "start")
    assert LiveGame(game_of(at)).me is None
    at.selectbox(key=k("claim")).set_value(BOARD.index("Peru"))
    press(at, "claim_go")
    claimed = game_of(at)
    press(at, "deal_rest")
    dealt = game_of(at)
    assert (dealt.owner >= 0).all() and dealt.phase.name == "SETUP_PLACE"
    assert len(dealt.history) == len(claimed.history) + 41
    assert len(LiveGame(dealt).entries) == len(LiveGame(claimed).entries) + 1
    assert at.button(key=k("undo")).label == "Undo (deal)"
    press(at, "undo")
    assert same_game(game_of(at), claimed)


def test_after_the_setup_the_record_view_has_a_map_of_the_board() -> None:
    live = LiveGame.random(["Ann", "Bo", "Cy"], np.random.default_rng(3))
    at = _app(live.state)
    assert "Map" in [e.label for e in at.expander]
    charts_before = len(at.get("vega_lite_chart"))
    at.session_state[k("board_open")] = True
    at.run()
    assert not at.exception
    (chart,) = at.get("vega_lite_chart")[charts_before:]
    frames = [convert_arrow_bytes_to_pandas_df(dataset.data.data) for dataset in chart.proto.datasets]
    (drawn,) = [frame for frame in frames if "territory" in frame.columns]
    # The continent where the player to move holds the most territories, every one of its territories drawn.
    s = live.state
    held = [sum(int(s.owner[t]) == s.player for t in c.territories) for c in BOARD.continents]
    continent = BOARD.continents[held.index(max(held))]
    assert at.segmented_control(key=k("board_map_of")).value == held.index(max(held))
    assert set(drawn["territory"]) == {BOARD.territories[t] for t in continent.territories}
