"""Whole games in compiled code: the simulator's fast path.

:func:`play` runs a game to its end with a :class:`~analyzer.bots.HeuristicBot`
in every seat, entirely in numba-compiled code: the rule steps are
:mod:`analyzer.engine`'s (the same functions :class:`~analyzer.state.GameState`
applies), the bots' decisions are :func:`analyzer.bots.heuristic._decide`
(the same function :meth:`HeuristicBot.choose` calls), battles are drawn
from the exact solver's outcome distributions (or rolled die by die), and
every random number comes from the game's generator in the same order as in
:func:`analyzer.simulate.play`. So a game played here and the same game
played action by action through ``GameState`` end in the same state: the
compiled path changes the speed, not the games.

>>> import numpy as np
>>> from analyzer.bots import DEFAULT_BOT
>>> from analyzer.state import GameState
>>> rng = np.random.default_rng(1)
>>> state = GameState.new(4, rng)
>>> record = play(state, [DEFAULT_BOT] * 4, rng)
>>> state.is_terminal(), state.winner is not None, len(record.trades) == len(state.trades)
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numba import njit, types
from numba.typed import Dict

from analyzer import engine
from analyzer.battle import BattleOptions, kernel_args, outcome_cdf
from analyzer.board import Board
from analyzer.bots.heuristic import ORDER, HeuristicBot, _decide, _decide_setup, compiled_args
from analyzer.dice import DiceRules
from analyzer.state import Elimination, GameState, SetTraded, _roll_cdf

# Event rows: kind and up to five values.
EV_TRADE = 0  # player, turn, value
EV_ELIMINATION = 1  # player, by, turn
EV_TURN = 2  # turn, seat, territories, armies, continents held



def compiled(bots: Sequence[object]) -> bool:
    """Whether :func:`play` can run these bots: plain :class:`HeuristicBot` seats (subclasses may change
    any decision in Python, so they play through :func:`analyzer.simulate.play`)."""
    return all(type(b) is HeuristicBot for b in bots)


# ---------------------------------------------------------------------------------- battle outcomes
#: Battles whose outcome distributions a process keeps (beyond it they are recomputed each time).
CACHE_BATTLES = 200_000
_OUTCOMES = types.Tuple((types.int64[::1], types.int64[::1], types.float64[::1]))


@lru_cache(maxsize=8)
def battle_cache(dice: DiceRules) -> Dict:
    """The process's outcome distributions by battle for ``dice``, kept across games and batches."""
    return Dict.empty(key_type=types.int64, value_type=_OUTCOMES)


@njit(cache=True)
def _battle_outcomes(cache, attackers, defenders, stop_at, kernel):  # pragma: no cover - compiled
    """The battle's (attacker left, defender left, cumulative probability) arrays, from the cache or
    the solver's sweep (:func:`analyzer.battle.outcome_cdf`)."""
    key = (attackers << 32) | (defenders << 10) | stop_at
    if key in cache:
        return cache[key]
    table, am, dm, cap = kernel
    out = outcome_cdf(attackers, defenders, table, am, dm, stop_at, cap)
    if len(cache) < CACHE_BATTLES and defenders < (1 << 22) and stop_at < (1 << 10):
        cache[key] = out
    return out


@lru_cache(maxsize=8)
def _kernel(dice: DiceRules) -> tuple[np.ndarray, int, int, bool]:
    """The solver's sweep arguments for the simulator's battles: the rules' dice, fought to the stop."""
    table, am, dm, _, cap = kernel_args(BattleOptions(dice=dice), 1)
    return table, am, dm, cap


@lru_cache(maxsize=8)
def roll_tables(dice: DiceRules) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``[attack dice, defence dice, k]``: the cumulative probabilities, attacker and defender losses of
    one roll's outcomes (as :meth:`GameState.apply_chance` samples them), and their count."""
    a_max, d_max = dice.attacker_max, dice.defender_max
    width = max(len(_roll_cdf(a, d, dice)[1]) for a in range(1, a_max + 1) for d in range(1, d_max + 1))
    cdf = np.ones((a_max + 1, d_max + 1, width))
    a_loss = np.zeros((a_max + 1, d_max + 1, width), dtype=np.int64)
    d_loss = np.zeros((a_max + 1, d_max + 1, width), dtype=np.int64)
    count = np.zeros((a_max + 1, d_max + 1), dtype=np.int64)
    for a in range(1, a_max + 1):
        for d in range(1, d_max + 1):
            outcomes, c = _roll_cdf(a, d, dice)
            count[a, d] = len(c)
            cdf[a, d, : len(c)] = c
            a_loss[a, d, : len(c)] = [r.attacker_losses for r in outcomes]
            d_loss[a, d, : len(c)] = [r.defender_losses for r in outcomes]
    return cdf, a_loss, d_loss, count


# ---------------------------------------------------------------------------------- the loop
@njit(cache=True)
def _push(events, n, kind, a, b, c, d, e):  # pragma: no cover - compiled
    if n == events.shape[0]:
        bigger = np.empty((2 * n, 6), dtype=np.int64)
        bigger[:n] = events[:n]
        events = bigger
    events[n, 0] = kind
    events[n, 1] = a
    events[n, 2] = b
    events[n, 3] = c
    events[n, 4] = d
    events[n, 5] = e
    return events, n + 1


@njit(cache=True)
def _snapshot(S, C, events, n, turn):  # pragma: no cover - compiled
    """One EV_TURN row per seat: territories, armies and continents held after ``turn``."""
    owner = engine._owner(S)
    armies = engine._armies(S)
    for p in range(S[engine.N_PLAYERS]):
        k = 0
        total = 0
        for t in range(owner.shape[0]):
            if owner[t] == p:
                k += 1
                total += armies[t]
        held = np.sum(engine.held_continents(S, C, p))
        events, n = _push(events, n, EV_TURN, turn, p, k, total, held)
    return events, n


@njit(cache=True)
def _roll(S, C, rolls, rng):  # pragma: no cover - compiled
    cdf, a_loss, d_loss, count = rolls
    a, d = S[engine.ATTACK_DICE], S[engine.DEFENCE_DICE]
    k = np.searchsorted(cdf[a, d, : count[a, d]], rng.random(), side="right")
    return engine.roll(S, C, a_loss[a, d, k], d_loss[a, d, k])


@njit(cache=True)
def _run(S, C, params, tables, rng, sample, index, kernel, rolls, events, n, track, record_turns, start):  # pragma: no cover - compiled
    """Play on until the game ends; returns the event rows and their count.

    ``track`` holds the turn in progress and whether the start position is still to be recorded.
    """
    owner = engine._owner(S)
    armies = engine._armies(S)
    while S[engine.PHASE] != engine.GAME_OVER:
        phase = S[engine.PHASE]
        p = S[engine.PLAYER]
        if phase == engine.DRAW:
            pile = engine.draw_pile(S)
            engine.draw(S, C, pile[rng.integers(0, pile.shape[0])])
        elif phase == engine.ROLL:
            victim = _roll(S, C, rolls, rng)
            if victim >= 0:
                events, n = _push(events, n, EV_ELIMINATION, victim, p, S[engine.TURN], 0, 0)
        else:
            seat = p
            if phase == engine.DEFEND:
                seat = owner[S[engine.ATTACK_T]]
                if seat == S[engine.NEUTRAL]:
                    seat = 1 - p
            bp = params[seat]
            table = tables[seat]
            if phase == engine.SETUP_CLAIM or phase == engine.SETUP_PLACE:
                kind, a, b, c, d = _decide_setup(S, C, bp, table, rng)
            else:
                kind, a, b, c, d = _decide(S, C, bp, table)
            turn = S[engine.TURN]
            if kind == ORDER:
                s, t, stop = a, b, c
                if sample:
                    a_left, d_left, cdf = _battle_outcomes(index, armies[s], armies[t], stop, kernel)
                    k = np.searchsorted(cdf, rng.random(), side="right")
                    victim = engine.battle(S, C, s, t, a_left[k], d_left[k])
                    if victim >= 0:
                        events, n = _push(events, n, EV_ELIMINATION, victim, p, turn, 0, 0)
                else:
                    # Die by die with the solver's stop rule; every bot defends with all the dice it may.
                    while owner[t] != p and armies[s] > stop:
                        engine.attack(S, C, s, t, engine.attacker_dice(C, armies[s]))
                        if S[engine.PHASE] == engine.DEFEND:
                            engine.step(S, C, engine.DEFEND_ACTION, engine.defender_dice(C, armies[t]), 0, 0, 0)
                        victim = _roll(S, C, rolls, rng)
                        if victim >= 0:
                            events, n = _push(events, n, EV_ELIMINATION, victim, p, turn, 0, 0)
            else:
                result = engine.step(S, C, kind, a, b, c, d)
                if kind == engine.TRADE:
                    events, n = _push(events, n, EV_TRADE, p, turn, result, 0, 0)
        if S[engine.TURN] != track[0]:
            if track[1]:
                start[0] = owner
                start[1] = armies
                track[1] = 0
            elif record_turns:
                events, n = _snapshot(S, C, events, n, track[0])
            track[0] = S[engine.TURN]
    if record_turns:
        events, n = _snapshot(S, C, events, n, S[engine.TURN])
    return events, n


# ---------------------------------------------------------------------------------- from Python
@dataclass(frozen=True)
class Record:
    """What a compiled game leaves besides its final state.

    ``start``: each territory's owner and armies when the first turn began
    (shape ``(2, territories)``); ``trades`` and ``eliminations`` in the
    order they happened; ``turns`` (with ``record_turns``): rows of turn,
    seat, territories, armies and continents held after each player-turn and
    once more at the end.
    """

    start: np.ndarray
    trades: list[SetTraded]
    eliminations: list[Elimination]
    turns: np.ndarray


def play(
    state: GameState,
    bots: Sequence[HeuristicBot],
    rng: np.random.Generator,
    *,
    sample_battles: bool = True,
    record_turns: bool = False,
) -> Record:
    """Play ``state`` to its end in compiled code, ``bots[seat]`` deciding for each seat.

    The state's trades and eliminations lists are filled in as the Python
    path would; its action history is not kept (a compiled game makes no
    action objects).
    """
    if not compiled(bots):
        raise TypeError("the compiled playout runs HeuristicBot seats only")
    board, dice = state.board, state.rules.dice
    params, tables = _seat_arrays(tuple(bots), board, dice)
    events = np.empty((256, 6), dtype=np.int64)
    in_setup = state.phase.value < engine.REINFORCE
    start = np.empty((2, board.n_territories), dtype=np.int64)
    if not in_setup:
        start[0], start[1] = state.owner, state.armies
    track = np.array([state.turn, in_setup], dtype=np.int64)
    events, n = _run(
        state.S, state._C, params, tables, rng, sample_battles, battle_cache(dice), _kernel(dice),
        roll_tables(dice), events, 0, track, record_turns, start,
    )
    rows = events[:n]
    trades = [SetTraded(int(r[1]), int(r[2]), int(r[3])) for r in rows[rows[:, 0] == EV_TRADE]]
    eliminations = [Elimination(int(r[1]), int(r[2]), int(r[3])) for r in rows[rows[:, 0] == EV_ELIMINATION]]
    state.trades.extend(trades)
    state.eliminations.extend(eliminations)
    return Record(start, trades, eliminations, rows[rows[:, 0] == EV_TURN][:, 1:])



@lru_cache(maxsize=32)
def _seat_arrays(bots: tuple[HeuristicBot, ...], board: Board, dice: DiceRules) -> tuple[np.ndarray, np.ndarray]:
    """Each seat's knobs and win table, stacked by seat."""
    per_seat = [compiled_args(bot, board, dice) for bot in bots]
    return np.stack([a[0] for a in per_seat]), np.stack([a[1] for a in per_seat])
