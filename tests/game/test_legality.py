"""The one legality path: the compiled check, the listing built on it, and the playout's checked mode."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.bots import CLASSIC_BOT, RandomBot
from analyzer.errors import IllegalActionError
from analyzer.game.actions import Attack, EndTurn, Fortify, MoveIn, Place, Trade
from analyzer.game.cards import find_sets
from analyzer.game.engine import legality
from analyzer.game.rules import FORCED_TRADE_HAND, Rules
from analyzer.game.state import GameState
from analyzer.game.vocabulary import CHANCE, Phase
from analyzer.sim import playout


def expected_count(state: GameState) -> int | None:
    """The number of legal actions, counted by hand from the rules (None for phases not counted here)."""
    p, owner, armies, board = state.player, state.owner, state.armies, state.board
    mine = [t for t in range(board.n_territories) if owner[t] == p]
    if state.phase == Phase.SETUP_CLAIM:
        return int((owner == -1).sum())
    if state.phase == Phase.ATTACK:
        return 1 + sum(
            min(state.rules.dice.attacker_max, int(armies[s]) - 1)
            for s in mine
            if armies[s] >= 2
            for t in board.neighbors[s]
            if owner[t] != p
        )
    if state.phase == Phase.FORTIFY and state.rules.fortify == "adjacent":
        return 1 + sum(int(armies[s]) - 1 for s in mine if armies[s] >= 2 for t in board.neighbors[s] if owner[t] == p)
    if state.phase == Phase.MOVE_IN:
        lo, hi = state.move_range()
        return hi - lo + 1
    if state.phase == Phase.REINFORCE:
        hand = state.hand(p)
        trades = 0
        if not (state.resume_attack and len(hand) < FORCED_TRADE_HAND):
            for cards in find_sets(hand, board.card_symbols):
                shown = {int(board.card_territory[c]) for c in cards} - {-1}
                owned = [t for t in shown if owner[t] == p] if not state.bonus_used else []
                trades += max(1, len(owned))
        places = 0 if len(hand) >= FORCED_TRADE_HAND else len(mine) * state.pending
        return trades + places
    return None


@pytest.mark.parametrize("seed", range(6))
def test_the_listing_matches_a_count_from_the_rules(seed: int) -> None:
    rng = np.random.default_rng(seed)
    state = GameState.new(3 + seed % 3, rng, Rules(territory_bonus=2))
    bots = [RandomBot()] * state.n_players
    counted = 0
    while not state.is_terminal() and state.turn < 60:
        if state.current_player == CHANCE:
            state.apply_chance(rng)
            continue
        actions = state.legal_actions()
        want = expected_count(state)
        if want is not None:
            assert len(actions) == want, (state.phase, actions[:5])
            counted += 1
        for a in actions[:: max(1, len(actions) // 7)]:
            assert state.illegal_reason(a) is None, a
        state.apply(bots[state.current_player].choose(state, rng))
    assert counted > 50


def test_candidates_off_the_list_are_refused_with_a_reason() -> None:
    rng = np.random.default_rng(3)
    state = GameState.random_start(4, rng)
    listed = set(state.legal_actions())
    n = state.board.n_territories
    for t in range(n):
        for k in (1, state.pending, state.pending + 1):
            a = Place(t, k)
            assert (a in listed) == (state.illegal_reason(a) is None), a
    for cards in [(0, 1, 2), (3, 3, 4), (40, 41, 43)]:
        reason = state.illegal_reason(Trade(cards))
        assert reason is not None and ("not in Player 4's hand" in reason or "three different cards" in reason)
    # Out of phase: the reason says what the game waits for, and so what may be entered instead.
    for action in (EndTurn(), Attack(0, 1, 1), MoveIn(1), Fortify(0, 1, 1)):
        assert (
            state.illegal_reason(action)
            == f"Player 4 is reinforcing: place the {state.pending} armies left, or trade a set"
        )


def test_deciding_seat_is_the_state_s_current_player() -> None:
    rng = np.random.default_rng(11)
    state = GameState.new(2, rng)  # the neutral force defends for the attacker's opponent
    seen = set()
    while not state.is_terminal() and state.turn < 80:
        assert state.current_player == legality.deciding_seat(state.S)
        seen.add(state.phase)
        if state.is_chance():
            state.apply_chance(rng)
        else:
            state.apply(RandomBot().choose(state, rng))
    assert Phase.DEFEND in seen or Phase.ROLL in seen


@pytest.mark.parametrize("sample", [True, False])
def test_the_checked_playout_plays_the_same_games(sample: bool) -> None:
    for seed in range(3):
        plain, checked = GameState.new(4, np.random.default_rng(seed)), GameState.new(4, np.random.default_rng(seed))
        playout.play_compiled(plain, [CLASSIC_BOT] * 4, np.random.default_rng(seed + 10), sample_battles=sample)
        playout.play_compiled(
            checked, [CLASSIC_BOT] * 4, np.random.default_rng(seed + 10), sample_battles=sample, check=True
        )
        assert plain == checked


def test_the_checked_playout_stops_at_the_first_illegal_action() -> None:
    state = GameState.random_start(4, np.random.default_rng(4))
    p = state.player
    state.owner[state.owner == p] = (p + 1) % 4  # the player to move owns nothing: no placement is legal
    with pytest.raises(IllegalActionError, match=r"compiled playout chose illegal action Place\("):
        playout.play_compiled(state, [CLASSIC_BOT] * 4, np.random.default_rng(0), check=True)


def test_numbers_read_off_a_states_arrays_make_a_game_that_saves() -> None:
    # A notebook passes numpy's integers (state.armies[t], np.flatnonzero(...)): the history keeps plain ints, so the
    # game saves as JSON and reads back the same; before, to_json failed with "int64 is not JSON serializable".
    state = GameState.from_position([0] * 21 + [1] * 21, [3] * 42, n_players=2, player=0)
    source = int(np.flatnonzero(state.owner == 0)[0])
    target = next(t for t in state.board.neighbors[source] if state.owner[t] != 0)
    state.apply(Place(np.int64(source), np.int64(state.pending)))
    state.apply(Attack(np.int32(source), np.int64(target), np.int64(min(3, state.armies[source] - 1))))
    assert all(type(v) is int for a in state.history for v in vars(a).values())
    again = GameState.from_json(state.to_json())
    assert again.to_json() == state.to_json() and again.history == state.history
