"""Invariants over thousands of seeded random games for every player count."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.bots import RandomBot
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.game.vocabulary import DECK, DISCARD, Phase

BOT = RandomBot()
PLAYER_COUNTS = [2, 3, 4, 5, 6]
#: Capped games per player count: short games, to cover thousands of starts and early fights (4,000 in
#: all; test_playout checks 2,000 more, compiled, to the end).
CAPPED_GAMES = 800
CAP_TURNS = 40
#: Games played to the end. Random bots take 1,000+ turns to finish a 4-6 player game.
FULL_GAMES = {2: 80, 3: 16, 4: 4, 5: 3, 6: 3}


def play(
    n_players: int,
    seed: int,
    rules: Rules | None = None,
    on_step: Callable[[GameState], None] | None = None,
    on_turn: Callable[[GameState], None] | None = None,
) -> GameState:
    rng = np.random.default_rng(seed)
    state = GameState.random_start(n_players, rng, rules)
    turn = state.turn
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance(rng)
        else:
            state.apply_unchecked(BOT.choose(state, rng))
        if on_step is not None:
            on_step(state)
        if on_turn is not None and state.turn != turn:
            turn = state.turn
            on_turn(state)
    return state


def check_invariants(state: GameState) -> None:
    owner, armies = state.owner, state.armies
    assert owner.min() >= 0, "every territory has an owner once play starts"
    if state.phase != Phase.MOVE_IN:  # mid-capture the captured territory waits for its armies
        assert armies.min() >= 1, f"a territory holds {armies.min()} armies on turn {state.turn}"
    loc = state.card_loc
    hands = [int(np.count_nonzero(loc == p)) for p in range(state.n_players)]
    assert int(np.count_nonzero(loc == DECK)) + int(np.count_nonzero(loc == DISCARD)) + sum(hands) == 44
    for p in range(state.n_players):
        if not state.alive[p]:
            assert not np.any(owner == p), f"eliminated player {p} holds a territory"
            assert hands[p] == 0, f"eliminated player {p} holds cards"
        else:
            assert np.any(owner == p), f"player {p} holds nothing but is alive"
    if state.phase == Phase.REINFORCE and not state.resume_attack:
        # At most 5 after an elimination that needs no trade-down, plus the card drawn.
        assert hands[state.player] <= 6
    assert state.pending >= 0


@pytest.mark.parametrize("n_players", PLAYER_COUNTS)
def test_every_full_game_ends_with_a_single_winner(n_players: int) -> None:
    winners = []
    for seed in range(FULL_GAMES[n_players]):
        state = play(n_players, seed, on_turn=check_invariants)
        check_invariants(state)
        assert state.winner is not None
        assert state.alive.sum() == 1 and state.alive[state.winner]
        if n_players > 2:
            assert np.all(state.owner == state.winner), "world domination: every territory"
        else:
            assert not np.any(state.owner == 1 - state.winner)
        assert sorted(e.player for e in state.eliminations) == [p for p in range(n_players) if p != state.winner]
        winners.append(state.winner)
    assert len(winners) == FULL_GAMES[n_players]


@pytest.mark.parametrize("n_players", PLAYER_COUNTS)
def test_invariants_over_thousands_of_capped_games(n_players: int) -> None:
    rules = Rules(turn_limit=max(2, CAP_TURNS // n_players))
    ended = 0
    for seed in range(CAPPED_GAMES):
        state = play(n_players, 10_000 + seed, rules, on_turn=check_invariants)
        check_invariants(state)
        assert state.is_terminal()
        if state.winner is None:
            assert state.round == rules.turn_limit
        else:
            ended += 1
        ranking = state.ranking()
        assert sorted(ranking) == list(range(n_players))
        territories = [int(np.count_nonzero(state.owner == p)) for p in ranking]
        if state.winner is None:
            assert territories == sorted(territories, reverse=True)
    assert ended < CAPPED_GAMES


@pytest.mark.parametrize("n_players", PLAYER_COUNTS)
def test_same_seed_same_game_and_history_replays(n_players: int) -> None:
    rules = Rules(turn_limit=60 // n_players)
    for seed in range(3):
        first = play(n_players, seed, rules)
        second = play(n_players, seed, rules)
        assert first.to_json() == second.to_json()
        # The checked replay also proves every bot action was legal.
        replayed = GameState.replay(first.initial, first.history, rules)
        assert replayed == first
    assert play(n_players, 0, rules).to_json() != play(n_players, 1, rules).to_json()


@pytest.mark.parametrize("n_players", PLAYER_COUNTS)
def test_json_round_trip_at_every_step(n_players: int) -> None:
    steps = [0]

    def round_trip(state: GameState) -> None:
        text = state.to_json()
        # The full check replays the whole history: every 97th step, the others trusted.
        steps[0] += 1
        again = GameState.from_json(text, trusted=steps[0] % 97 != 0)
        assert again == state
        assert again.legal_actions() == state.legal_actions()
        assert again.current_player == state.current_player

    rules = Rules(turn_limit=30 // n_players + 1)
    for seed in range(2):
        play(n_players, seed, rules, on_step=round_trip)


@settings(max_examples=40, deadline=None)
@given(
    n_players=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
    explore=st.floats(0.0, 1.0),
    variant=st.sampled_from(
        [
            Rules(),
            Rules(fortify="connected"),
            Rules(card_values="fixed"),
            Rules(setup="deal"),
            Rules(missions=True),
            Rules(capitals=True),
        ]
    ),
)
def test_any_legal_action_keeps_the_invariants(n_players: int, seed: int, explore: float, variant: Rules) -> None:
    """Mix the bot with uniform picks from the full legal-action list, all through the checked path."""
    rules = Rules.from_dict({**variant.to_dict(), "turn_limit": 4})
    rng = np.random.default_rng(seed)
    state = GameState.random_start(n_players, rng, rules)
    while not state.is_terminal():
        if state.is_chance():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            state.apply_chance(rng)
            continue
        legal = state.legal_actions()
        if rng.random() < explore:
            action = legal[int(rng.integers(len(legal)))]
        else:
            action = BOT.choose(state, rng)
            assert action in legal and state.is_legal(action)
        state.apply(action)
        if state.phase not in (Phase.MOVE_IN, Phase.GAME_OVER):
            check_invariants(state)
