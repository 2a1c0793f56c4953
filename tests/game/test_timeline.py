"""The game record (:mod:`analyzer.game.timeline`): entries that partition the history and replay from
their position before to their position after, turns that chain, and the entries a hand-played turn makes."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.analysis.log import log_lines
from analyzer.bots.registry import make_bot
from analyzer.game.actions import Attack, Defend, Draw, EndAttack, EndTurn, Fortify, MoveIn, Place, Roll
from analyzer.game.board import classic_board
from analyzer.game.rules import Rules
from analyzer.game.state import GameState, turn_number
from analyzer.game.timeline import KINDS, timeline
from analyzer.sim.play import play_game

BOARD = classic_board()


def _played(seed: int) -> GameState:
    n = 2 + seed % 5
    rng = np.random.default_rng(seed)
    state = GameState.new(n, rng, Rules(turn_limit=30))
    names = (["random", "planner", "classic", "hunter", "default"] * 2)[seed % 5 : seed % 5 + n]
    # Half the games roll their battles die by die, the other half resolve each battle whole.
    return play_game(state, [make_bot(b) for b in names], rng, sample_battles=bool(seed % 2))


@pytest.mark.parametrize("seed", range(8))
def test_entries_partition_the_history_and_replay_from_before_to_after(seed: int) -> None:
    game = _played(seed)
    record = timeline(game)
    assert [e.first for e in record.entries] == [0] + [e.last + 1 for e in record.entries[:-1]]
    assert record.entries[-1].last == len(game.history) - 1
    for e in record.entries:
        assert e.kind in KINDS
        assert e.actions == tuple(game.history[e.first : e.last + 1])
        assert (e.player, e.turn, e.round) == (e.before.player, e.before.turn, turn_number(e.before))
        s = e.before.copy()
        for a in e.actions:
            s.apply(a)  # every entry replays through the engine's legality check
        assert s == e.after
    assert record.entries[-1].after == game


@pytest.mark.parametrize("seed", range(8))
def test_turns_chain_from_one_player_to_the_next(seed: int) -> None:
    game = _played(seed)
    turns = timeline(game).turns
    assert turns, "a played game has turns"
    for t, u in zip(turns, turns[1:]):
        assert t.complete and t.after == u.before and u.turn == t.turn + 1
        assert u.player == u.before.player and {e.player for e in t.entries} <= {t.player}
        assert all(e.turn == t.turn for e in t.entries)
    assert turns[-1].after == game and turns[-1].complete == game.is_terminal()


def test_a_hand_played_turn_makes_the_entries_a_table_would_enter() -> None:
    owner = [0] * 14 + [1] * 14 + [2] * 14
    state = GameState.from_position(owner, [3] * 42, n_players=3, player=0)
    alaska, kamchatka, alberta = (BOARD.index(t) for t in ("Alaska", "Kamchatka", "Alberta"))
    state.apply(Place("Alaska", 5))
    state.apply(Place("Alberta", 6))
    # Two rolls of one battle die by die, the second taking Kamchatka, then its move-in.
    state.apply(Attack(alaska, kamchatka, 3))
    state.apply(Defend(2))
    state.apply(Roll(0, 2))
    state.apply(Attack(alaska, kamchatka, 3))  # one army left: it defends with one die, asked of no one
    state.apply(Roll(0, 1))
    state.apply(MoveIn(4))
    state.apply(EndAttack())
    state.apply(Fortify("Alberta", "Alaska", 5))
    state.apply_chance(np.random.default_rng(0))  # the card drawn for the capture
    record = timeline(state)
    assert [(e.kind, e.first, e.last) for e in record.entries] == [
        ("place", 0, 1),
        ("roll", 2, 4),
        ("roll", 5, 7),
        ("fortify", 8, 10),
    ]
    first, second = record.entries[1:3]
    assert (first.source, first.target, first.captured) == (alaska, kamchatka, False)
    assert second.captured and int(second.after.armies[kamchatka]) == 4 and int(second.after.armies[alaska]) == 4
    assert isinstance(record.entries[-1].actions[-1], Draw)
    turn = record.turns[0]
    assert turn.complete and turn.after.player == 1 and turn.first == 0 and turn.last == 10
    # The log tells the record entry by entry.
    texts = [line.text for line in log_lines(state)]
    assert texts == [
        "Turn 1, Player 1: places 5 on Alaska, 6 on Alberta",
        "Turn 1, Player 1: Alaska (8) rolls 3 against Kamchatka (3) defending with 2: loses 0, destroys 2",
        "Turn 1, Player 1: Alaska (8) rolls 3 against Kamchatka (1): loses 0, destroys 1; Kamchatka taken, moved in 4",
        "Turn 1, Player 1: fortifies 5 from Alberta to Alaska, draws a card",
    ]
    assert len(texts) == len(record.entries)


def test_an_attack_ended_alone_and_a_turn_ended_are_entries_of_their_own() -> None:
    owner = [0] * 14 + [1] * 14 + [2] * 14
    state = GameState.from_position(owner, [3] * 42, n_players=3, player=0)
    state.apply(Place("Alaska", 11))
    state.apply(EndAttack())
    assert [e.kind for e in timeline(state).entries] == ["place", "end-attack"]
    state.apply(EndTurn())
    kinds = [(e.kind, e.first, e.last) for e in timeline(state).entries]
    # The end of the attack is told with the end of the turn that follows it: one entry.
    assert kinds == [("place", 0, 0), ("end", 1, 2)]
    assert timeline(state).turns[0].complete and timeline(state).turns[0].after.player == 1
