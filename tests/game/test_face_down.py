"""Face-down cards in the game layer (analyzer/game/face_down.py): the JSON form, the 44 cards, trades, rollouts."""

from __future__ import annotations

import json

import numpy as np
import pytest

from analyzer.errors import IllegalActionError, PositionError
from analyzer.game import face_down
from analyzer.game.actions import Trade
from analyzer.game.board import SYMBOLS, classic_board
from analyzer.game.cards import is_valid_set
from analyzer.game.state import GameState
from analyzer.game.vocabulary import DECK, DISCARD

BOARD = classic_board()
SYMBOL = BOARD.card_symbols
#: Player 0 holds North America's neighbours' middle block, so no card 0-13 shows a territory of theirs.
OWNER = [1] * 14 + [0] * 14 + [2] * 14


def position(hands: dict[int, list[int | str]]) -> GameState:
    return GameState.from_position(OWNER, [3] * 42, player=0, hands=hands)


def test_unknown_cards_take_the_lowest_free_ids_and_every_card_stays_accounted_for() -> None:
    s = position({0: [3, 4, "?"], 1: ["?", "?"]})
    # The placeholders are 0, 1, 2: the lowest cards no hand names, seat 0's first.
    assert s.hand(0) == [0, 3, 4] and s.hand(1) == [1, 2] and s.face_down == [0, 1, 2]
    assert face_down.counts(s) == [1, 2, 0]
    known = sum(len(s.hand(p)) for p in range(3)) - len(s.face_down)
    deck, discard = int((s.card_loc == DECK).sum()), int((s.card_loc == DISCARD).sum())
    assert (known, len(s.face_down), deck, discard) == (2, 3, 39, 0)
    assert face_down.unseen(s) == [c for c in range(44) if c not in (3, 4)]


def test_json_round_trip_keeps_the_face_down_cards_and_replays() -> None:
    s = position({0: [3, 4, "?"], 1: ["?", "?"]})
    data = json.loads(s.to_json())
    assert data["face_down"] == [0, 1, 2] and data["initial"]["position"]["face_down"] == [0, 1, 2]
    loaded = GameState.from_json(s.to_json())  # checked: its history replays from the typed start
    assert loaded == s and loaded.face_down == [0, 1, 2]
    # A save from before face-down cards has no such field: nothing is face down.
    plain = position({0: [3, 4]})
    assert "face_down" not in json.loads(plain.to_json())
    assert GameState.from_json(plain.to_json()).face_down == []


def test_more_cards_than_the_deck_holds_are_refused() -> None:
    with pytest.raises(PositionError, match="the hands name 40 cards and hold 5 face down; there are only 44 cards"):
        position({0: list(range(40)), 1: ["?"] * 5})


@pytest.mark.parametrize(
    ("face_down_field", "message"),
    [
        ([5], "face_down names card 5, which is in the deck"),
        ([1, 1], "face_down must list distinct card ids in order"),
        ([44], "face_down"),
        ("0", "face_down"),
    ],
)
def test_a_save_whose_face_down_list_is_impossible_is_refused(face_down_field: object, message: str) -> None:
    data = json.loads(position({1: ["?", "?"]}).to_json(history=False))
    data["face_down"] = face_down_field
    with pytest.raises(PositionError, match=message):
        GameState.from_dict(data, trusted=True)


def test_trade_of_a_face_down_card_takes_the_first_identity_that_makes_a_set() -> None:
    s = position({0: [3, 4, "?"], 1: ["?", "?"]})
    assert [SYMBOLS[SYMBOL[c]] for c in (3, 4, 0)] == ["cavalry", "cavalry", "infantry"]  # the placeholder's: no set
    before = s.pending
    s.apply(Trade((3, 4, 0)))
    # The face-down card becomes card 2 (cavalry), the lowest unseen card that makes a set; 0 takes 2's place.
    assert s.history == [Trade((3, 4, 2), None, 1)] and s.trades[0].value == 4 and s.pending == before + 4
    assert s.card_loc[[2, 3, 4]].tolist() == [DISCARD] * 3 and s.hand(1) == [0, 1] and s.face_down == [0, 1]
    assert s.initial["position"]["hands"] == {"0": [3, 4, 2], "1": [1, 0]}
    assert GameState.from_json(s.to_json()) == s  # still a real game that replays


def test_trade_of_face_down_cards_needs_enough_cards_and_a_possible_set() -> None:
    s = position({0: ["?", "?"]})
    with pytest.raises(IllegalActionError, match=r"Greenland \(cavalry\) is not in Player 1's hand"):
        s.apply(Trade((0, 1, 2)))
    # Two known infantry and one face-down card (placeholder 1, an artillery), when every other infantry and
    # wild card has been seen: only an infantry or a wild would make a set.
    s = position({0: [0, 9, "?"]})
    assert s.face_down == [1]
    for c in range(44):
        if SYMBOLS[SYMBOL[c]] in ("infantry", "wild") and c not in (0, 9):
            s.card_loc[c] = DISCARD
    with pytest.raises(IllegalActionError, match="no unseen card has the symbol needed"):
        face_down.set_identities(s, 0, [0, 9, 1])
    s.card_loc[43] = DECK  # one wild unseen again: it is the face-down card's only identity
    assert face_down.set_identities(s, 0, [0, 9, 1]) == [[1, 43]]


def test_swap_refuses_a_card_that_has_been_seen() -> None:
    s = position({0: [3, 4, "?"]})
    with pytest.raises(IllegalActionError, match="card 3 has been seen"):
        face_down.swap(s, 3, 10)


def test_determinize_draws_hidden_cards_afresh_and_leaves_known_ones() -> None:
    s = position({0: [3, 4], 1: ["?", "?", "?"], 2: ["?"]})
    down = s.face_down
    draws = [face_down.determinize(s, np.random.default_rng(i)) for i in range(30)]
    for d in draws:
        assert d.hand(0) == [3, 4] and d.face_down == [] and d.history == []
        assert [len(d.hand(p)) for p in range(3)] == [2, 3, 1] and int((d.card_loc == DECK).sum()) == 38
        assert not {3, 4} & (set(d.hand(1)) | set(d.hand(2)))
    assert len({tuple(d.hand(1) + d.hand(2)) for d in draws}) > 20  # 40 * 39 * 38 * 37 / 6 ways: rarely the same twice
    again = face_down.determinize(s, np.random.default_rng(3))
    assert again == draws[3] and s.face_down == down
    # Across many draws every unseen card turns up in a hand, in proportion: 4 of the 42 each time.
    many = [face_down.determinize(s, np.random.default_rng(i)) for i in range(2000)]
    seen = np.bincount([c for d in many for c in d.hand(1) + d.hand(2)], minlength=44)
    assert seen[3] == seen[4] == 0
    expected = 2000 * 4 / 42
    assert all(abs(seen[c] - expected) < 5 * np.sqrt(expected) for c in range(44) if c not in (3, 4))


def test_determinized_rows_are_determinizes_guesses_from_the_same_draws() -> None:
    """The rows a truncated rollout starts from are the states determinize gives, one call after another on
    the same generator, down to the last value: the same guesses, drawn alike."""
    s = position({0: [3, 4], 1: ["?", "?", "?"], 2: ["?"]})
    before = s.S.copy()
    rows = face_down.determinized_rows(s, np.random.default_rng(8), 40)
    one_by_one = np.random.default_rng(8)
    assert np.array_equal(rows, np.stack([face_down.determinize(s, one_by_one).S for _ in range(40)]))
    assert len({row.tobytes() for row in rows}) > 30 and np.array_equal(s.S, before)


def test_a_traded_set_is_always_a_valid_set() -> None:
    rng = np.random.default_rng(5)
    for _ in range(50):
        known = sorted(int(c) for c in rng.choice(44, size=int(rng.integers(0, 3)), replace=False))
        s = position({0: [*known, *["?"] * (3 - len(known))]})
        cards = tuple(s.hand(0))
        # A known card showing a territory of the player's takes the bonus, as the table would say.
        bonus = next(
            (
                int(BOARD.card_territory[c])
                for c in known
                if BOARD.card_territory[c] >= 0 and s.owner[BOARD.card_territory[c]] == 0
            ),
            None,
        )
        s.apply(Trade((cards[0], cards[1], cards[2]), bonus))  # with a card face down, some unseen card completes a set
        assert is_valid_set([int(SYMBOL[c]) for c in s.history[-1].cards])  # type: ignore[attr-defined]
        assert set(known) <= set(s.history[-1].cards)  # type: ignore[attr-defined]


def test_win_chances_start_each_rollout_from_a_fresh_draw_of_the_face_down_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from analyzer.analysis.position import win_chances

    starts: list[GameState] = []
    real = face_down.Dealer.game

    def spy(dealer: face_down.Dealer[GameState], rng: np.random.Generator) -> GameState:
        drawn = real(dealer, rng)
        starts.append(drawn.copy())
        return drawn

    # Each rollout draws the face-down cards afresh (the evaluator deals them with a face_down.Dealer).
    monkeypatch.setattr(face_down.Dealer, "game", spy)
    s = position_state = position({0: [3, 4], 1: ["?", "?", "?"], 2: ["?"]})
    chances = win_chances(s, "rollouts", rollouts=12, seed=7)
    assert chances.rollouts == 12 and len(starts) == 12
    for start in starts:
        assert start.hand(0) == [3, 4] and start.face_down == []
        assert [len(start.hand(p)) for p in range(3)] == [2, 3, 1]
        assert np.array_equal(start.owner, s.owner) and np.array_equal(start.armies, s.armies)
    hidden = [tuple(start.hand(1) + start.hand(2)) for start in starts]
    assert (
        len(set(hidden)) == 12
    )  # a fresh draw each time (42C3 x 39 draws: a repeat among 12 has odds of about 1 in 7,000)
    # Whole rollouts read no model: their caption says only what they do ("the model reads..." was said too).
    assert chances.assumed == (
        "Face-down cards (Player 2 3, Player 3 1): rollouts draw them at random from the 42 cards not yet seen, "
        "afresh in each rollout."
    )
    assert win_chances(s, "model").assumed == (
        "Face-down cards (Player 2 3, Player 3 1): the model reads how many each player holds."
    )
    # The same seed gives the same draws and the same estimate; another seed other draws.
    first = list(starts)
    starts.clear()
    again = win_chances(position_state, "rollouts", rollouts=12, seed=7)
    assert [a.to_dict() for a in starts] == [b.to_dict() for b in first]
    assert again.wins.tolist() == chances.wins.tolist()
    starts.clear()
    win_chances(position_state, "rollouts", rollouts=12, seed=8)
    assert [tuple(a.hand(1) + a.hand(2)) for a in starts] != hidden
    # With every card known, the rollouts play from the position itself and assume nothing.
    starts.clear()
    known = position({0: [3, 4], 1: [5, 6, 7]})
    plain = win_chances(known, "rollouts", rollouts=12, seed=7)
    assert len(starts) == 12 and plain.rollouts == 12 and plain.assumed == ""
    assert all(np.array_equal(a.card_loc, known.card_loc) for a in starts)


def test_simulated_games_from_a_position_never_play_the_placeholders() -> None:
    """Every game of a simulation from a position with face-down cards draws them anew: the games differ
    from those that take the placeholder ids for the cards, and the run is the same whatever the workers."""
    from analyzer.sim.simulate import simulate

    s = position({0: [3, 4], 1: ["?", "?", "?", "?"], 2: ["?", "?"]})
    known = position({0: [3, 4], 1: [0, 1, 2, 5], 2: [6, 7]})  # the placeholders' ids, as known cards
    assert s.face_down == [0, 1, 2, 5, 6, 7]
    kw = dict(n_games=40, seed=3, progress=False, max_rounds=30)
    drawn = simulate(3, "default", start=s, **kw)
    fixed = simulate(3, "default", start=known, **kw)
    assert not drawn.trades.equals(fixed.trades)
    assert drawn.games.equals(simulate(3, "default", start=s, workers=2, batch_size=10, **kw).games)


def test_the_chance_of_a_set_in_a_hand_with_face_down_cards() -> None:
    from fractions import Fraction

    from analyzer.analysis.position import reinforcement_forecast

    # Two known infantry (cards 0 and 9) and one face-down card: 12 infantry and 2 wilds among the 42 unseen.
    s = position({0: [0, 9, "?"]})
    assert face_down.set_chance(s, 0) == Fraction(14, 42)
    # Three face-down cards from all 44 (14 of each symbol, 2 wilds): no set only with two of one symbol and one
    # of another, no wild: 3 * 2 * C(14, 2) * 14 = 7644 of the C(44, 3) = 13244 hands.
    three = position({0: ["?", "?", "?"]})
    assert face_down.set_chance(three, 0) == 1 - Fraction(7644, 13244)
    # Five cards always hold a set.
    five = position({0: ["?"] * 5})
    assert face_down.set_chance(five, 0) == 1
    rows = {
        name: reinforcement_forecast(x).set_index("player").loc[0]
        for name, x in (("one", s), ("three", three), ("five", five))
    }
    # A set is possible, not certain: what it would bring is said beside its chance (it read 0, "With a set" the
    # reinforcements without one).
    assert rows["one"][["face_down", "has_set", "set_value"]].tolist() == [1, False, 4]
    assert rows["one"]["with_set"] == rows["one"]["base"] + 4
    assert rows["one"]["p_set"] == pytest.approx(1 / 3)
    assert rows["three"]["p_set"] == pytest.approx(5600 / 13244)
    assert rows["five"][["face_down", "p_set", "has_set", "set_value"]].tolist() == [5, 1.0, True, 4]
    # Known cards alone: a set or not, for sure.
    known = reinforcement_forecast(position({0: [0, 9, 10]})).set_index("player").loc[0]
    assert known[["face_down", "p_set", "has_set", "set_value"]].tolist() == [0, 1.0, True, 4]


def test_an_edited_position_keeps_its_face_down_cards() -> None:
    from analyzer.analysis.position import new_game_from_position

    s = position({0: [3, 4, "?"], 1: ["?", "?"]})
    # An edit that leaves the hands alone keeps each placeholder where it was.
    moved = new_game_from_position(s, armies={"Alaska": 9})
    assert (moved.hand(0), moved.hand(1), moved.face_down) == (s.hand(0), s.hand(1), s.face_down)
    # A hand given anew says what it holds face down with "?"; the hands not given keep theirs.
    edited = new_game_from_position(s, hands={1: [20, "?", "?", "?"]})
    assert edited.hand(0) == [0, 3, 4] and 20 in edited.hand(1)
    assert face_down.counts(edited) == [1, 3, 0]
    assert 20 not in edited.face_down and 0 in edited.face_down
