"""The live-game recorder: entries checked by the engine, undo/redo, face-down cards.

The scripted game below is played by a simple table policy through the
recorder's entries only; every entry's effect on the board is checked against
arithmetic done here, and the final game against a replay of its history
through :meth:`GameState.apply`. ``tests/app/test_app_live.py`` records the same
script through the Streamlit panel's widgets.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from support.live_script import BOARD, NAMES, Step, play_script, same_game, script_start

from analyzer.errors import IllegalActionError, StateFormatError
from analyzer.game.actions import Battle, Draw, Trade
from analyzer.game.cards import is_valid_set
from analyzer.game.state import GameState
from analyzer.game.vocabulary import DISCARD, Phase
from analyzer.live import LIVE_LABEL, LiveGame


@pytest.fixture(scope="module")
def scripted() -> tuple[LiveGame, list[Step]]:
    return play_script()


def test_script_covers_the_issue(scripted: tuple[LiveGame, list[Step]]) -> None:
    live, steps = scripted
    kinds = [k for k, _ in steps]
    final = live.state
    assert len(steps) >= 60
    assert kinds.count("battle") >= 10 and "fortify" in kinds and "trade" in kinds
    assert "undo" in kinds and "redo" in kinds
    assert any(isinstance(a, Battle) and a.defender_left == 0 for a in final.history)
    assert [e.player for e in final.eliminations] == [2]
    # Cy's two cards from the typed position went to whoever knocked Cy out.
    assert final.card_loc[0] == final.eliminations[0].by or final.card_loc[0] == DISCARD
    assert final.trades
    # Bo traded "a set" face down: the recorder gave his hidden cards identities that make one.
    assert ("trade", {}) in steps and any(t.player == 1 for t in final.trades)
    assert any(e["swaps"] for e in final.labels[LIVE_LABEL]["entries"] if e["kind"] == "trade")


def test_final_state_is_the_history_applied_by_the_engine(scripted: tuple[LiveGame, list[Step]]) -> None:
    live, _ = scripted
    final = live.state
    replayed = script_start()
    for action in final.history:
        replayed.apply(action)
    replayed.labels = final.labels
    assert replayed == final


def test_undo_everything_and_redo_everything(scripted: tuple[LiveGame, list[Step]]) -> None:
    live, _ = scripted
    final = live.state
    copy = LiveGame(final)
    n = len(copy.entries)
    copy.undo(n)
    start = script_start()
    assert copy.state.to_dict(history=True)["owner"] == start.owner.tolist()
    assert copy.state.history == [] and not copy.can_undo
    copy.redo(n)
    assert copy.state == final


def test_board_at_an_earlier_entry(scripted: tuple[LiveGame, list[Step]]) -> None:
    live, _ = scripted
    entries = live.entries
    k = 20
    then = live.board_at(k)
    # The board then is the start plus the actions of the first k entries (identities of hidden cards aside).
    replayed = script_start()
    for e in entries[:k]:
        for a in e.actions:
            if not isinstance(a, Draw):
                replayed.apply(a)
            else:
                replayed.apply(then.history[len(replayed.history)])
    assert then.owner.tolist() == replayed.owner.tolist() and then.armies.tolist() == replayed.armies.tolist()
    with pytest.raises(IllegalActionError, match="entry 999 does not exist"):
        live.board_at(999)


def test_saved_and_reloaded_live_game_keeps_undo(scripted: tuple[LiveGame, list[Step]]) -> None:
    live, _ = scripted
    reloaded = LiveGame(GameState.from_json(live.state.to_json()))
    assert reloaded.state == live.state
    assert [e.kind for e in reloaded.entries] == [e.kind for e in live.entries]
    reloaded.undo()
    assert len(reloaded.entries) == len(live.entries) - 1


def test_a_save_from_before_face_down_cards_loads_with_its_hidden_cards() -> None:
    live, _ = play_script(40, seed=4)
    assert live.hidden and live.state.face_down == live.hidden
    data = json.loads(live.state.to_json())
    # Saves made before GameState.face_down kept the face-down cards only in the recorder's entries.
    del data["face_down"]
    del data["labels"][LIVE_LABEL]["face_down"]
    old = LiveGame(GameState.from_dict(data))
    assert old.hidden == live.hidden and old.state.face_down == live.hidden
    assert same_game(old.state, live.state)
    old.undo(3)
    live_copy = LiveGame(live.state)
    live_copy.undo(3)
    assert old.hidden == live_copy.hidden and same_game(old.state, live_copy.state)


def test_a_typed_position_with_unknown_cards_is_followed_and_its_cards_named() -> None:
    owner = [0] * 14 + [1] * 14 + [2] * 14
    typed = GameState.from_position(owner, [3] * 42, player=0, hands={0: ["?", "?"], 1: ["?", "?", "?"]})
    live = LiveGame(typed, me=0, seed=2)
    assert live.hidden == [0, 1, 2, 3, 4] and live.card_counts() == [2, 3, 0]
    # I read my two cards: Brazil and Venezuela (cards 11 and 9). They take the placeholders' places in the typed start.
    live.name_cards([11, 9])
    assert live.known_hand(0) == [9, 11] and live.hidden == [2, 3, 4]
    assert live.state.initial["position"]["hands"]["0"] == [11, 9]
    assert GameState.replay(live.state.initial, live.state.history).hand(0) == [9, 11]
    live.undo()
    assert live.hidden == [0, 1, 2, 3, 4] and live.state.initial["position"]["hands"]["0"] == [0, 1]


def test_hidden_cards_are_in_opponents_hands_and_trades_are_sets(scripted: tuple[LiveGame, list[Step]]) -> None:
    live, _ = scripted
    s = live.state
    for c in live.hidden:
        assert s.card_loc[c] >= 0
    # Ann (me) named every card she drew, so none of hers is hidden.
    assert not set(live.hidden) & set(s.hand(0))
    for a in s.history:
        if isinstance(a, Trade):
            assert is_valid_set([int(BOARD.card_symbols[c]) for c in a.cards])


def _turn_start(me: int | None = None) -> LiveGame:
    owner = [0] * 14 + [1] * 14 + [2] * 14
    return LiveGame(GameState.from_position(owner, [3] * 42, n_players=3, player=0), me=me, seed=5)


def _grab(live: LiveGame, card: int | None = None) -> None:
    """The player to move piles every army on its front stack and takes a neighbour without loss."""
    s = live.state
    p = s.player
    src = max(
        (t for t in s.territories_of(p) if any(s.owner[n] != p for n in BOARD.neighbors[t])),
        key=lambda t: int(s.armies[t]),
    )
    live.place({src: s.pending})
    target = next(int(n) for n in BOARD.neighbors[src] if live.state.owner[n] != p)
    live.battle(src, target, int(live.state.armies[src]), 0)
    if live.state.phase == Phase.MOVE_IN:
        live.move_in(live.state.move_range()[0])
    live.end_turn(card=card)


def _pass(live: LiveGame) -> None:
    live.place({live.state.territories_of(live.state.player)[0]: live.state.pending})
    live.end_turn()


def test_refused_entries_name_the_problem_and_change_nothing() -> None:
    live = _turn_start()
    before = live.state
    # Ann holds 14 territories (4 armies) and both Americas (5 + 2).
    assert before.pending == 11
    cases = [
        (lambda: live.place({"Alaska": 99}), "armies must be from 1 to the 11 left to place, got 99"),
        (
            lambda: live.place({"Kamchatka": 1}),
            "Player 1 cannot place 1 army on Kamchatka now: Kamchatka is not Player 1's \\(it is Player 3's\\)",
        ),
        (lambda: live.place({"Atlantis": 1}), "Atlantis"),
        (
            lambda: live.battle("Alaska", "Ural", 2, 0),
            "Player 1 is reinforcing: place the 11 armies left, or trade a set",
        ),
        (lambda: live.trade(), "holds 0 card"),
        (lambda: live.move_in(2), "Player 1 cannot move 2 armies in now: Player 1 is reinforcing"),
        (lambda: live.undo(), "there is no entry to undo: none has been made yet"),
    ]
    for call, message in cases:
        with pytest.raises(IllegalActionError, match=message):
            call()
        assert live.state == before
    # Many at once: a refused part refuses the whole entry.
    with pytest.raises(IllegalActionError, match="Kamchatka is not Player 1's"):
        live.place({"Alaska": 3, "Kamchatka": 1})
    assert live.state == before
    live.place({"Alaska": 10, "Greenland": 1})
    assert live.state.armies[0] == 13 and live.state.armies[2] == 4 and live.state.phase == Phase.ATTACK
    before = live.state
    for call, message in [
        (lambda: live.battle("Alaska", "Ural", 6, 0), "Alaska does not border Ural"),
        (lambda: live.battle("Alaska", "Kamchatka", 14, 0), "a battle of 13 against 3 cannot leave 14 and 0"),
        (lambda: live.battle("Alaska", "Kamchatka", 1, 0), "a capture leaves the attacker at least 2"),
        (
            lambda: live.battle("Alaska", "Kamchatka", 13, 3),
            "a battle removes at least one army: Alaska still has 13 "
            "and Kamchatka 3; enter the armies left after the dice",
        ),
        (
            lambda: live.battle("Alaska", "Alberta", 10, 1),
            "Alberta is Player 1's own; attack a territory of another player",
        ),
        (lambda: live.fortify("Alaska", "Kamchatka", 1), "both Alaska and Kamchatka must be Player 1's"),
        (lambda: live.fortify("Alaska", "Alberta", 13), "move from 1 to 12 armies"),
        (lambda: live.end_turn(card=3), "no card is drawn"),
        (lambda: live.redo(), "cannot redo 1 entries; 0 can be redone"),
    ]:
        with pytest.raises(IllegalActionError, match=message):
            call()
        assert live.state == before


def test_a_capture_draws_a_hidden_card_and_an_unknown_trade_makes_a_set() -> None:
    live = _turn_start(me=1)
    _grab(live)
    drawn = live.state.history[-1]
    assert isinstance(drawn, Draw) and live.hidden == [drawn.card] and live.card_counts() == [1, 0, 0]
    for _ in range(2):
        _pass(live)
        _pass(live)
        _grab(live)
    assert live.card_counts() == [3, 0, 0] and len(live.hidden) == 3
    _pass(live)
    _pass(live)
    before = live.state
    live.trade()
    traded = live.state.history[-1]
    assert isinstance(traded, Trade) and is_valid_set([int(BOARD.card_symbols[c]) for c in traded.cards])
    assert live.hidden == [] and live.card_counts() == [0, 0, 0]
    assert live.state.pending == before.pending + 4  # the first set is worth 4
    # The trade's cards are a real game's: replaying the rewritten history through the engine gives this game.
    replayed = GameState.replay(live.state.initial, live.state.history)
    replayed.labels = live.state.labels
    assert replayed == live.state
    # Undo takes back the trade and any identities it swapped: the game is as it was.
    live.undo()
    assert same_game(live.state, before)


def test_naming_cards_of_my_own() -> None:
    live = _turn_start(me=0)
    _grab(live, card=7)
    assert live.state.hand(0) == [7] and live.hidden == [] and live.known_hand(0) == [7]
    with pytest.raises(IllegalActionError, match="changes nothing"):
        live.name_cards([7])
    _pass(live)
    _pass(live)
    _grab(live)  # drawn face down: Ann did not say which card she drew
    (hidden,) = live.hidden
    assert live.state.hand(0) == sorted([7, hidden])
    name = 30 if hidden != 30 else 31
    live.name_cards([name])
    assert live.state.hand(0) == sorted([7, name]) and live.hidden == []
    with pytest.raises(
        IllegalActionError, match="is not in Player 1's hand, and Player 1 has no hidden card it could be"
    ):
        live.name_cards([32])
    live.undo()
    assert live.hidden == [hidden]


def test_setup_by_claims_and_starting_armies() -> None:
    live = LiveGame.start(NAMES, first=1, seed=2)
    order = []
    for t in range(42):
        order.append(live.state.player)
        live.claim(BOARD.territories[t])
    assert order[:4] == [1, 2, 0, 1]
    s = live.state
    assert s.phase == Phase.SETUP_PLACE and list(s.pool) == [21, 21, 21]
    with pytest.raises(IllegalActionError, match="Ann has 21 starting armies to place, got 20"):
        live.place_starting(
            {0: {s.territories_of(0)[0]: 20}, 1: {s.territories_of(1)[0]: 21}, 2: {s.territories_of(2)[0]: 21}}
        )
    live.place_starting({p: {s.territories_of(p)[0]: 11, s.territories_of(p)[1]: 10} for p in range(3)})
    s = live.state
    assert s.phase == Phase.REINFORCE and s.player == 1 and int(s.armies.sum()) == 105
    assert s.armies[s.territories_of(2)[0]] == 12
    live.undo()
    assert live.state.phase == Phase.SETUP_PLACE


def test_determinize_redraws_hidden_cards_from_the_unseen() -> None:
    live, _ = play_script(40, seed=4)
    s = live.state
    hidden = live.hidden
    assert hidden, "the script should leave opponents holding hidden cards"
    seen = set()
    for i in range(20):
        d = live.determinize(np.random.default_rng(i))
        assert [len(d.hand(p)) for p in range(3)] == [len(s.hand(p)) for p in range(3)]
        assert d.hand(0) == s.hand(0)  # mine are known
        assert np.array_equal(d.card_loc == DISCARD, s.card_loc == DISCARD)
        seen.add(tuple(d.card_loc.tolist()))
    assert len(seen) > 1


def test_bad_saved_bookkeeping_is_refused() -> None:
    live = _turn_start()
    state = live.state
    state.labels[LIVE_LABEL] = {"version": 1, "base": 0}
    with pytest.raises(StateFormatError, match="live-game record is malformed"):
        LiveGame(state)


def test_log_tells_every_action_once(scripted: tuple[LiveGame, list[Step]]) -> None:
    import io

    import pandas as pd

    from analyzer.analysis.log import log_csv, log_frame, log_lines

    live, _ = scripted
    s = live.state
    lines = log_lines(s)
    covered = [i for x in lines if x.kind != "victory" for i in range(x.first_action, x.last_action + 1)]
    assert covered == list(range(len(s.history)))
    battles = [x for x in lines if x.kind == "battle"]
    assert len(battles) == sum(isinstance(a, Battle) for a in s.history)
    out = [x.text for x in lines if "is out" in x.text]
    assert len(out) == 1 and "Cy is out" in out[0]
    frame = pd.read_csv(io.StringIO(log_csv(s)))
    assert list(frame["text"]) == [x.text for x in lines] and frame.equals(log_frame(s))


def test_log_of_a_roll_by_roll_attack() -> None:
    from analyzer.analysis.log import log_lines

    live = _turn_start()
    live.place({"Alaska": 11})
    live.roll("Alaska", "Kamchatka", 3, 2, 0, 2)
    live.roll("Alaska", "Kamchatka", 3, 1, 1, 0)
    live.roll("Alaska", "Kamchatka", 3, 1, 0, 1)
    assert live.state.owner[BOARD.index("Kamchatka")] == 0 and live.state.phase == Phase.MOVE_IN
    live.move_in(5)
    texts = [x.text for x in log_lines(live.state)]
    assert texts[1:] == [
        "Turn 1, Player 1: Alaska (14) rolls 3 against Kamchatka (3) defending with 2: loses 0, destroys 2",
        "Turn 1, Player 1: Alaska (14) rolls 3 against Kamchatka (1): loses 1, destroys 0",
        "Turn 1, Player 1: Alaska (13) rolls 3 against Kamchatka (1): loses 0, destroys 1; Kamchatka taken, moved in 5",
    ]
    live.undo(2)
    before = live.state
    with pytest.raises(IllegalActionError, match="the defender holds one army and rolls 1 die, got 2"):
        live.roll("Alaska", "Kamchatka", 3, 2, 0, 1)
    assert live.state == before
