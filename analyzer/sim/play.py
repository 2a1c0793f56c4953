"""One game played in Python, with any bots: the loop every other way of playing is checked against.

:func:`play_game` asks each seat's bot for its decisions and applies them through the engine; the
compiled playout (:mod:`analyzer.sim.playout`) plays the same games, drawing the same random
numbers in the same order, for the bots it compiles. A bot's
:class:`~analyzer.bots.BattleOrder` is resolved in one draw (:func:`analyzer.sim.battles.resolve_order`)
or, with ``sample_battles=False``, rolled die by die (:func:`roll_battle`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

import numpy as np

from analyzer.bots.base import BattleOrder, Bot
from analyzer.errors import BotError, IllegalActionError, PositionError
from analyzer.game.actions import Action, Attack, Defend
from analyzer.game.reader import check_action
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.limits import quote
from analyzer.sim import playout
from analyzer.sim.battles import resolve_order
from analyzer.solver.battle import BattleOptions

_SETUP_PHASES = (Phase.SETUP_CLAIM, Phase.SETUP_PLACE, Phase.CHOOSE_CAPITAL)


def roll_battle(
    state: GameState, order: BattleOrder, bots: Sequence[Bot], rng: np.random.Generator, check: bool = False
) -> None:
    """Fight ``order`` die by die: the solver's stop rule, and the defender's bot choosing its dice."""
    s, t, stop_at = order.source, order.target, order.stop_at
    options = BattleOptions(dice=state.rules.dice)
    p = state.player
    apply = state.apply if check else state.apply_unchecked
    while state.owner[t] != p and state.armies[s] > stop_at:
        apply(Attack(s, t, options.attacker_rolls(int(state.armies[s]), stop_at)))
        if state.phase == Phase.DEFEND:
            defence = bots[state.current_player].choose(state, rng)
            if not isinstance(defence, Defend):
                raise BotError(f"bot of seat {state.current_player} answered a defence with {defence!r}")
            apply(defence)
        state.apply_chance(rng)


def _check_order(state: GameState, order: BattleOrder) -> None:
    s, t = order.source, order.target
    n = state.board.n_territories
    if not (0 <= s < n and 0 <= t < n):
        raise BotError(f"battle order {order} names a territory outside 0..{n - 1}")
    if state.owner[s] != state.player or state.owner[t] == state.player or not state.board.adjacency[s, t]:
        raise BotError(
            f"illegal battle order {order} for player {state.player}: attack a bordering enemy from your own territory"
        )
    if not 1 <= order.stop_at < state.armies[s]:
        raise BotError(
            f"battle order {order}: stop_at must be from 1 to {int(state.armies[s]) - 1} (the armies on the source less one)"
        )


def play_game(
    state: GameState,
    bots: Sequence[Bot],
    rng: np.random.Generator,
    *,
    sample_battles: bool = True,
    check: bool = False,
    on_turn: Callable[[GameState, int], None] | None = None,
    on_setup_done: Callable[[GameState], None] | None = None,
) -> GameState:
    """Play ``state`` to its end with ``bots[seat]`` deciding for each seat; returns ``state``.

    ``check`` applies every action through the engine's legality check (for
    untrusted bots and tests). ``on_setup_done`` is called once when the first
    turn begins (at once if ``state`` is past its setup); ``on_turn(state,
    turn)`` after every player-turn, with the number of the turn that ended.
    """
    playout.check_battle_mode(state.rules, sample_battles)
    apply = state.apply if check else state.apply_unchecked
    if on_setup_done is not None and state.phase not in _SETUP_PHASES:
        on_setup_done(state)
        on_setup_done = None
    turn = state.turn
    while state.phase != Phase.GAME_OVER:
        if state.phase == Phase.ROLL or state.phase == Phase.DRAW:
            state.apply_chance(rng)
        else:
            seat = state.current_player
            decision = bots[seat].choose(state, rng)
            try:
                if type(decision) is BattleOrder:
                    _check_order(state, decision)
                    if sample_battles:
                        apply(resolve_order(state, decision, rng))
                    else:
                        roll_battle(state, decision, bots, rng, check)
                else:
                    # Anything but a BattleOrder is meant as an Action; the engine rejects what is not one.
                    if check:
                        check_action(decision, "the action")
                    apply(cast(Action, decision))
            except (IllegalActionError, PositionError, BotError) as exc:
                raise BotError(
                    f"bot {quote(_bot_name(bots[seat]))} of seat {seat} chose {quote(decision)}: {exc}"
                ) from None
        if state.turn != turn:
            if on_setup_done is not None:
                on_setup_done(state)
                on_setup_done = None
            elif on_turn is not None:
                on_turn(state, turn)
            turn = state.turn
    if on_turn is not None:
        on_turn(state, state.turn)
    return state


def _bot_name(bot: Bot) -> str:
    return f"{type(bot).__module__}.{type(bot).__qualname__}"
