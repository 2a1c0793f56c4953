"""Corrections: what the table says the record got wrong, kept as an entry of the history.

A correction never drops what was recorded before it: the game's history
grows by one :class:`~analyzer.game.actions.Correct`, the stored state is the
replay of the stored log, undo takes the correction back, and the log tells
it in words. Values are checked against hand-made positions.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.analysis.log import log_lines
from analyzer.analysis.luck import battle_luck
from analyzer.errors import IllegalActionError, PositionError
from analyzer.game.actions import Correct, Trade, action_from_json, action_to_json
from analyzer.game.board import classic_board
from analyzer.game.state import GameState
from analyzer.game.vocabulary import DECK, Phase
from analyzer.live import LiveGame, corrected

BOARD = classic_board()
ALASKA, KAMCHATKA = BOARD.index("Alaska"), BOARD.index("Kamchatka")
OLD_SAVE = Path(__file__).resolve().parents[1] / "data" / "live_game_before_corrections.json"


def table() -> LiveGame:
    """Ann (seat 0) holds the Americas' 14 territories with 3 armies each, Bo the next 14, Cy the rest; Ann to move."""
    state = GameState.from_position([0] * 14 + [1] * 14 + [2] * 14, [3] * 42, n_players=3, hands={1: [20]})
    state.labels["names"] = ["Ann", "Bo", "Cy"]
    return LiveGame(state, me=0)


def replays(state: GameState) -> bool:
    """Whether ``state`` is what its initial position and history replay to (the face-down list aside)."""
    again = GameState.replay(state.initial, state.history, state.rules, state.board)
    mine, theirs = state.to_dict(history=False), again.to_dict(history=False)
    return all(mine[k] == theirs[k] for k in mine if k not in ("labels", "face_down"))


def test_a_correction_is_an_entry_the_log_tells_and_undo_takes_back() -> None:
    live = table()
    live.place({"Alaska": 5})  # Ann's 14 territories give 4, North America 5 and South America 2: 11
    before = live.state
    actions = live.correct(armies={"Alaska": 5, "Peru": 3}, owners={"Kamchatka": 0})
    after = live.state
    # Only the changed territories are in it; the history grows by that one action.
    assert actions == [Correct((ALASKA, KAMCHATKA), (0, 0), (5, 3))]
    assert after.history == before.history + actions
    assert (int(after.armies[ALASKA]), int(after.owner[KAMCHATKA]), int(after.armies[KAMCHATKA])) == (5, 0, 3)
    assert after.phase == Phase.REINFORCE and after.pending == 6 and after.player == 0
    assert replays(after)
    texts = [line.text for line in log_lines(after)]
    assert texts[-1] == "Turn 1: correction: Alaska 5 armies (was 8); Kamchatka Ann's with 3 armies (was Cy's with 3)"
    assert texts[-2] == "Turn 1, Ann: places 5 on Alaska"
    live.undo()
    assert live.state.to_dict(history=True)["history"] == before.to_dict()["history"]
    assert int(live.state.armies[ALASKA]) == 8 and int(live.state.owner[KAMCHATKA]) == 2
    live.redo()
    assert live.state.history == after.history and int(live.state.armies[ALASKA]) == 5


def test_a_hand_is_corrected_with_its_face_down_cards() -> None:
    live = table()
    live.correct(hands={1: [20, "?"], 2: ["?", "?"]})
    s = live.state
    assert [len(s.hand(p)) for p in range(3)] == [0, 2, 2]
    assert 20 in s.hand(1) and set(live.hidden) == (set(s.hand(1)) - {20}) | set(s.hand(2))
    assert (
        "Turn 1: correction: Bo's hand is 2 cards, 1 face down (North Africa (cavalry) shown); "
        "Cy's hand is 2 cards, 2 face down" == log_lines(s)[-1].text
    )
    # Naming one of Cy's face-down cards: it is that card, still one of two, the other still face down.
    hidden_cy = sorted(set(s.hand(2)) & set(live.hidden))
    live.correct(hands={2: [7, "?"]})
    s = live.state
    assert 7 in s.hand(2) and len(s.hand(2)) == 2 and len(set(s.hand(2)) & set(live.hidden)) == 1
    assert len(live.hidden) == 2  # Bo's and one of Cy's
    assert replays(s)
    live.undo()
    assert sorted(set(live.state.hand(2))) == hidden_cy


def test_nothing_changed_records_nothing() -> None:
    live = table()
    live.place({"Alaska": 11})
    history = live.state.history
    assert live.correct(armies={"Alaska": 14}, hands={1: [20], 0: []}) == []
    assert live.state.history == history and len(live.entries) == 1
    # The package's one path for an app's Apply: same game back, nothing recorded.
    assert corrected(live.state, armies={"Alaska": 14}) == live.state


def test_a_corrected_game_saves_loads_and_replays() -> None:
    live = table()
    live.correct(armies={"Brazil": 7}, hands={2: ["?", 3]})
    text = live.state.to_json()
    loaded = GameState.from_json(text)  # replays the whole history, the correction with it
    assert loaded == live.state
    again = LiveGame(loaded)
    assert again.hidden == live.hidden and [e.kind for e in again.entries] == ["correction"]
    correction = loaded.history[-1]
    assert action_from_json(action_to_json(correction)) == correction
    assert action_to_json(correction)[0] == "Correct"


def test_the_luck_meter_leaves_corrections_out() -> None:
    live = table()
    live.place({"Alaska": 11})
    live.battle("Alaska", "Kamchatka", 12, 0)
    live.move_in(3)
    scored = battle_luck(live.state)
    live.correct(armies={"Kamchatka": 9})  # 9 armies appear: no battle's outcome
    assert (
        [(b.attacker_lost, b.defender_lost) for b in battle_luck(live.state)]
        == [(b.attacker_lost, b.defender_lost) for b in scored]
        == [(2, 3)]
    )


def test_an_old_save_loads_and_takes_corrections() -> None:
    state = GameState.from_json(OLD_SAVE.read_text())  # written by the recorder before corrections existed
    live = LiveGame(state)
    entries = len(live.entries)
    owned = state.territories_of(state.player)[0]
    live.correct(armies={owned: int(state.armies[owned]) + 1})
    assert len(live.entries) == entries + 1 and live.state.history[:-1] == state.history
    assert GameState.from_json(live.state.to_json()) == live.state


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"owners": {t: 0 for t in range(14, 28)}}, "Bo would hold no territory; a player is knocked out by a battle"),
        ({"armies": {"Alaska": 0}}, "Alaska cannot hold 0 armies; a territory holds 1 to 1000000"),
        ({"owners": {"Alaska": 5}}, "Alaska cannot go to player 5; the players are Ann, Bo, Cy"),
        ({"armies": {"Alaska": "many"}}, "the armies of Alaska must be a whole number, got 'many'"),
        ({"hands": {0: [20]}}, r"North Africa \(cavalry\) is in Bo's hand; correct Bo's hand too"),
        ({"hands": {0: [5], 2: [5]}}, r"Quebec \(cavalry\) is named in more than one hand"),
        ({"hands": {3: []}}, "there is no seat 3; the seats are 0 to 2"),
        ({"hands": {0: ["?"] * 44}}, "Ann cannot hold 44 face-down cards: only 43 cards are unseen"),
    ],
)
def test_impossible_corrections_are_refused_in_words(change: dict[str, object], message: str) -> None:
    live = table()
    before = live.state
    with pytest.raises(PositionError, match=message):
        live.correct(**change)  # type: ignore[arg-type]
    assert live.state == before


def test_a_correction_to_one_army_says_one_army() -> None:
    live = table()
    live.correct(armies={"Peru": 1}, owners={"Egypt": 0})
    assert log_lines(live.state)[-1].text == (
        "Turn 1: correction: Peru 1 army (was 3); Egypt Ann's with 3 armies (was Bo's with 3)"
    )


def test_a_correction_waits_for_the_move_in() -> None:
    live = table()
    live.place({"Alaska": 11})
    live.battle("Alaska", "Kamchatka", 12, 0)
    assert live.state.phase == Phase.MOVE_IN
    with pytest.raises(PositionError, match="finish the entry in progress first"):
        live.correct(armies={"Peru": 5})


def test_the_engine_applies_a_correction_and_never_lists_one() -> None:
    state = table().state
    state.apply(Correct(("Peru",), (0,), (6,), (20,), (DECK,), (1,), ()))
    assert int(state.armies[BOARD.index("Peru")]) == 6 and state.hand(1) == []
    assert state.history[-1] == Correct((BOARD.index("Peru"),), (0,), (6,), (20,), (DECK,), (1,), ())
    assert not any(isinstance(a, Correct) for a in state.legal_actions())


# ---------------------------------------------------------------------------------- a truthful log
def test_a_trade_of_face_down_cards_is_logged_without_inventing_them() -> None:
    live = table()
    live.correct(hands={0: ["?", "?", "?"]})
    live.trade()  # "a set": the table saw three cards go in, not which
    trade = live.state.history[-1]
    assert trade.face_down == 3
    assert log_lines(live.state)[-1].text == "Turn 1, Ann: trades a set of 3 face-down cards (+4)"
    # Saved and loaded, the log still knows the cards were face down.
    assert log_lines(GameState.from_json(live.state.to_json()))[-1].text.endswith("a set of 3 face-down cards (+4)")


def test_a_trade_of_one_card_shown_names_only_that_card() -> None:
    live = table()
    live.correct(hands={0: [21, "?", "?"]})  # Egypt, a territory of Bo's: no bonus to choose
    live.trade([21])
    assert log_lines(live.state)[-1].text == "Turn 1, Ann: trades Egypt (infantry) and 2 face-down cards (+4)"


def test_a_card_shown_of_the_traders_own_territory_takes_the_extra_armies_unasked() -> None:
    # The rules put the 2 extra armies on the territory a traded card shows; the table named none, and the trade
    # was refused in words naming a card it never entered (the one filled in for a face-down card).
    live = table()
    live.correct(hands={0: [0, "?", "?"]})  # Alaska, Ann's own, and two face down
    live.trade([0])
    trade = live.state.history[-1]
    assert trade.bonus == BOARD.index("Alaska") and int(live.state.armies[BOARD.index("Alaska")]) == 5
    assert BOARD.index("Alaska") in trade.cards
    # Two of Ann's territories shown: which takes them is Ann's choice, and the entry asks for it.
    live = table()
    live.correct(hands={0: [0, 9, "?"]})  # Alaska and Venezuela, both Ann's
    before = live.state
    with pytest.raises(
        IllegalActionError,
        match=r"Alaska \(infantry\) and Venezuela \(infantry\) show territories of Ann's: say which one takes",
    ):
        live.trade([0, 9])
    assert live.state == before
    live.trade([0, 9], "Venezuela")
    assert int(live.state.armies[BOARD.index("Venezuela")]) == 5


def test_a_trade_of_known_cards_names_them_and_old_saves_read_the_same() -> None:
    assert action_from_json(["Trade", [0, 1, 2], None]) == Trade((0, 1, 2))
    assert action_to_json(Trade((0, 1, 2))) == ["Trade", [0, 1, 2], None]
    assert action_from_json(action_to_json(Trade((0, 1, 2), None, 2))) == Trade((0, 1, 2), None, 2)


def test_a_capture_whose_move_in_is_pending_is_not_logged_as_moved() -> None:
    live = table()
    live.place({"Alaska": 11})
    live.battle("Alaska", "Kamchatka", 12, 0)  # 3 dice won the last roll: 3 to 11 may move in
    assert log_lines(live.state)[-1].text == (
        "Turn 1, Ann: Alaska (14) attacks Kamchatka (3): Kamchatka taken, Ann 12 left, move-in to come"
    )
    live.move_in(5)
    assert log_lines(live.state)[-1].text.endswith("Kamchatka taken, Ann 12 left, moved in 5")
