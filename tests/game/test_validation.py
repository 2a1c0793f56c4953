"""One validation of a state (analyzer.game.validation): malformed states and inputs, each a clean rejection
naming the field, never a crash in compiled code."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from analyzer import limits
from analyzer.bots import RandomBot
from analyzer.errors import BoardError, PositionError, RiskAnalyzerError, RulesError, StateFormatError
from analyzer.game.board import classic_board
from analyzer.game.engine import steps as engine_steps
from analyzer.game.reader import check_action, json_depth, loads, quote
from analyzer.game.rules import Rules
from analyzer.game.state import GameState, load_state, validate
from analyzer.game.vocabulary import Phase


def start4() -> dict[str, Any]:
    return GameState.random_start(4, np.random.default_rng(1)).to_dict()


def edited(edit: Callable[[dict[str, Any]], None], base: dict[str, Any] | None = None) -> str:
    data = start4() if base is None else base
    edit(data)
    return json.dumps(data)


def rejected(text: str, match: str, error: type[RiskAnalyzerError] = PositionError, **kw: Any) -> str:
    with pytest.raises(error, match=match) as info:
        GameState.from_json(text, **kw)
    message = str(info.value)
    assert len(message) < 4 * limits.MAX_MESSAGE, message
    return message


def test_a_saved_game_loads_back_equal_and_the_random_start_validates() -> None:
    state = GameState.random_start(4, np.random.default_rng(1))
    validate(state)
    assert GameState.from_json(state.to_json()) == state
    assert load_state(state.to_dict()) == state


def _set(**fields: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d.update(fields)


# ------------------------------------------------------------------ interpreter crashes
def test_an_attack_out_of_the_board_is_refused_before_the_engine_sees_it() -> None:
    rejected(edited(_set(phase="ROLL", attack=[100000000000, 1, 3, 2])), r"attack: territories 100000000000 and 1")
    rejected(edited(_set(attack=[0, 1, 9, 9])), r"attack is \(0, 1, 9, 9\) in phase REINFORCE")
    # Even trusted (no replay), the structure is checked.
    state = GameState.random_start(4, np.random.default_rng(1))
    s = next(int(t) for t in state.attack_sources())
    t = next(v for v in state.board.neighbors[s] if state.owner[v] != state.player)
    rejected(edited(_set(phase="ROLL", pending=0, attack=[s, t, 9, 9])), r"attack: 9 attack dice", trusted=True)


def test_two_player_save_with_a_robbed_but_alive_seat() -> None:
    state = GameState.random_start(2, np.random.default_rng(3))
    data = state.to_dict()
    data["owner"] = [0 if o == 1 else o for o in data["owner"]]
    rejected(json.dumps(data), "seat 1 is alive but owns no territory", trusted=True)


# ------------------------------------------------------------------ non-ValueErrors
def test_move_in_to_a_territory_past_the_board() -> None:
    rejected(edited(_set(phase="MOVE_IN", move=[0, 42, 1, 3])), r"move: territories 0 and 42 must be ids from 0 to 41")


def test_deep_labels_and_a_huge_embedded_map() -> None:
    text = edited(lambda d: None)
    deep = text[:-1] + ',"labels":{"x":' + "[" * 100_000 + "]" * 100_000 + "}}"
    data = json.loads(text)
    del data["labels"]
    deep = json.dumps(data)[:-1] + ',"labels":{"x":' + "[" * 100_000 + "]" * 100_000 + "}}"
    rejected(deep, "nests 100002 levels deep; the limit is 32", StateFormatError)
    board = classic_board().to_dict()
    board["wild_cards"] = 10**9
    rejected(edited(_set(map=board)), r"map: saved game map: 1000000000 wild cards is too many; the limit is 100")


def test_json_limits_come_before_parsing() -> None:
    assert json_depth('[{"a": "[[[["}]') == 2
    with pytest.raises(StateFormatError, match="MAX_JSON_BYTES"):
        loads(" " * (limits.MAX_JSON_BYTES + 1))
    with pytest.raises(StateFormatError, match="not UTF-8"):
        loads(b"\xff\xfe")
    with pytest.raises(StateFormatError, match="not valid JSON"):
        loads("[NaN]")
    with pytest.raises(StateFormatError, match="not valid JSON"):
        loads("[" + "9" * 5000 + "]")
    # A file cut short: json's words and the place, said once.
    with pytest.raises(StateFormatError, match=r"not valid JSON: Unterminated string starting at line 1 column 7$"):
        loads('{"a": "xx')


# ------------------------------------------------------------------ impossible states
@pytest.mark.parametrize(
    ("edit", "match"),
    [
        (_set(pending=-5), r"pending\b.*-5"),
        (_set(winner=99), r"winner must be a whole number from 0 to 3, got 99"),
        (_set(turn=-1), r"turn\b.*-1"),
        (_set(round=-1), r"round\b.*-1"),
        (_set(phase="GAME_OVER"), "GAME_OVER with no winner"),
        (_set(phase="SETUP_CLAIM"), "SETUP_CLAIM|the setup has none"),
        (_set(phase="DEFEND", attack=None), r"attack is None in phase DEFEND"),
        (_set(missions=[0, 1, 2, 3]), "missions .* are set but the missions rule is off"),
        (_set(capitals=[0, 1, 2, 3]), "capitals .* are set but the capitals rule is off"),
        (_set(card_loc=[0] * 44), r"card_loc: seat 0 holds 44 cards"),
    ],
)
def test_impossible_fields_are_named(edit: Callable[[dict[str, Any]], None], match: str) -> None:
    rejected(edited(edit), match, trusted=True)
    rejected(edited(edit), match)


def test_players_and_their_territories_and_cards_agree() -> None:
    seat = (start4()["player"] + 1) % 4

    def dead_owner(d: dict[str, Any]) -> None:
        d["alive"][seat] = False
        d["eliminated_by"][seat] = d["player"]

    rejected(edited(dead_owner), rf"seat {seat} is eliminated but owns 1\d territories", trusted=True)

    def dead_cards(d: dict[str, Any]) -> None:
        d["owner"] = [d["player"] if o == seat else o for o in d["owner"]]
        dead_owner(d)
        d["card_loc"][5] = seat

    rejected(edited(dead_cards), rf"card_loc: eliminated seat {seat} holds 1 cards", trusted=True)

    def alive_without_land(d: dict[str, Any]) -> None:
        d["owner"] = [d["player"] if o == seat else o for o in d["owner"]]

    rejected(edited(alive_without_land), rf"seat {seat} is alive but owns no territory", trusted=True)


def test_setup_claim_with_every_territory_claimed() -> None:
    state = GameState.new(4, np.random.default_rng(0))
    for _t in range(42):
        state.apply(state.legal_actions()[0])
        if state.phase != Phase.SETUP_CLAIM:
            break
    data = state.to_dict()
    data["phase"] = "SETUP_CLAIM"
    rejected(json.dumps(data), "phase is SETUP_CLAIM but every territory is claimed", trusted=True)


def test_armies_past_the_limit() -> None:
    def huge(d: dict[str, Any]) -> None:
        d["armies"][3] = 2_147_483_647

    name = classic_board().territories[3]
    rejected(edited(huge), rf"armies\[3\] \({name}\) is 2147483647; expected 0 to 1000000")
    with pytest.raises(PositionError, match="MAX_ARMIES"):
        GameState.from_position([0] * 21 + [1] * 21, [3_000_000_000] + [1] * 41)


def test_huge_user_text_is_quoted_short() -> None:
    message = rejected(edited(lambda d: d["rules"].update(setup="x" * 5_000_000)), r"rules: .*setup")
    assert len(message) < 2 * limits.MAX_MESSAGE
    assert len(quote("y" * 10**6)) <= limits.MAX_MESSAGE


@pytest.mark.parametrize(
    ("rules", "error"),
    [
        ({"territory_bonus": 10**20}, "MAX_BONUS"),
        ({"dice": {"foo": 1}}, "unknown dice option"),
        ({"missions": "no"}, "missions must be true or false"),
        ({"dice": {"sides": 100}}, "MAX_ROLL_PAIRS"),
        ({"turn_limit": 10**20}, "MAX_ROUNDS"),
        ({"setup": ["claim"]}, "setup="),
    ],
)
def test_rule_options_are_typed_and_bounded(rules: dict[str, Any], error: str) -> None:
    with pytest.raises(RulesError, match=error):
        Rules.from_dict(rules)


# ------------------------------------------------------------------ the history
def test_history_must_replay_to_the_stored_state() -> None:
    good = start4()
    rejected(edited(_set(history=[]), dict(good)), r"is .*, but the history replays to")
    rejected(
        edited(lambda d: d.update(history=d["history"][::-1]), dict(good)), r"the history's entry 1 does not replay"
    )
    rejected(
        edited(lambda d: d["initial"].update(first_player=(d["initial"]["first_player"] + 1) % 4), start4()),
        r"does not replay|replays to",
    )
    without = json.dumps({k: v for k, v in good.items() if k != "history"})
    rejected(without, "history is missing")
    assert GameState.from_json(without, trusted=True).to_dict(history=False) == {
        k: v for k, v in good.items() if k != "history"
    }


def test_a_played_game_replays_and_an_edited_one_does_not() -> None:
    rng = np.random.default_rng(5)
    state = GameState.random_start(3, rng, Rules(turn_limit=6))
    bot = RandomBot()
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance(rng)
        else:
            state.apply_unchecked(bot.choose(state, rng))
    validate(state)
    data = state.to_dict()
    data["armies"][int(np.argmax(state.armies))] += 1
    rejected(json.dumps(data), r"armies is .*, but the history replays to")


def test_actions_with_numbers_past_int32_are_refused() -> None:
    from analyzer.game.actions import Place, Roll

    with pytest.raises(PositionError, match="action.armies"):
        check_action(Place(0, 2**40))
    with pytest.raises(PositionError, match="action.attacker_losses"):
        check_action(Roll(1.5, 0))  # type: ignore[arg-type]
    check_action(Place("Alaska", 3))


def test_a_map_too_small_or_too_large_for_the_players_is_refused_at_setup() -> None:
    from analyzer.game.board import Board

    tiny = Board.from_dict(
        {
            "name": "tiny",
            "format": "risk-analyzer/map",
            "version": 1,
            "continents": [{"name": "C", "bonus": 1}],
            "territories": [{"name": n, "continent": "C", "x": 0, "y": 0, "card": "infantry"} for n in "AB"],
            "borders": [["A", "B", "land"]],
        }
    )
    with pytest.raises(BoardError, match="2 territories; a 2-player game needs from 3"):
        GameState.new(2, np.random.default_rng(0), board=tiny)
    with pytest.raises(BoardError, match="a 4-player game needs from 4"):
        GameState.new(4, np.random.default_rng(0), board=tiny)


def test_rollouts_and_evaluate_prove_a_hand_edited_position_first() -> None:
    from analyzer.sim.evaluate import evaluate

    state = GameState.random_start(3, np.random.default_rng(4))
    # Unchecked, the compiled code would read this attack's dice out of bounds.
    state.S[engine_steps.ATTACK_S : engine_steps.ATTACK_S + 4] = (0, 1, 9, 9)
    with pytest.raises(PositionError, match=r"attack is \(0, 1, 9, 9\) in phase REINFORCE"):
        evaluate(state, "default", rollouts=2, progress=False)


def test_apply_refuses_numbers_past_int32_naming_the_action() -> None:
    from analyzer.errors import IllegalActionError
    from analyzer.game.actions import Place, Roll

    state = GameState.random_start(3, np.random.default_rng(0))
    with pytest.raises(
        IllegalActionError,
        match="Player 3 cannot place 1099511627776 armies on Alaska now: armies must be a whole number of at most 9 digits",
    ):
        state.apply(Place(0, 2**40))
    with pytest.raises(IllegalActionError, match="attacker_losses must be a whole number, got 1.5"):
        state.apply(Roll(1.5, 0))  # type: ignore[arg-type]
