"""Whole games in compiled code: the simulator's fast path.

:func:`play_compiled` runs a game to its end with a :class:`~analyzer.bots.HeuristicBot`
in every seat, entirely in numba-compiled code: the rule steps are
:mod:`analyzer.game.engine.steps`'s (the same functions :class:`~analyzer.game.state.GameState`
applies), the bots' decisions are :func:`analyzer.bots.heuristic.decide`
(the same function :meth:`HeuristicBot.choose` calls), battles are drawn
from the exact solver's outcome distributions (or rolled die by die), and
every random number comes from the game's generator in the same order as in
:func:`analyzer.sim.play.play_game`. So a game played here and the same game
played action by action through ``GameState`` end in the same state: the
compiled path changes the speed, not the games.

>>> import numpy as np
>>> from analyzer.bots import CLASSIC_BOT
>>> from analyzer.game.state import GameState
>>> rng = np.random.default_rng(1)
>>> state = GameState.new(4, rng)
>>> record = play_compiled(state, [CLASSIC_BOT] * 4, rng)
>>> state.is_terminal(), state.winner is not None, len(record.trades) == len(state.trades)
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from analyzer.bots import hunter, kills, planner, sparring, strategist
from analyzer.bots.heuristic import (
    ORDER,
    HeuristicBot,
    compiled_args,
    decide,
    decide_attack,
    decide_move_in,
    decide_setup,
)
from analyzer.bots.hunter import HunterBot
from analyzer.bots.planner import PlannerBot
from analyzer.bots.sparring import ClusterBot, PixieBot
from analyzer.bots.strategist import StrategistBot
from analyzer.errors import IllegalActionError, SimulationError
from analyzer.game.board import Board
from analyzer.game.chance import roll_cdf
from analyzer.game.codec import decode
from analyzer.game.dice import DiceRules
from analyzer.game.engine import legality
from analyzer.game.engine import steps as engine
from analyzer.game.records import Elimination, SetTraded
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.game.vocabulary import (
    ATTACK,
    ATTACK_ACTION,
    BATTLE,
    DEFEND,
    DEFEND_ACTION,
    DRAW,
    DRAW_ACTION,
    GAME_OVER,
    MOVE_IN,
    REINFORCE,
    ROLL,
    ROLL_ACTION,
    SETUP_CLAIM,
    SETUP_PLACE,
    TRADE,
)
from analyzer.kernels import kernel
from analyzer.solver.battle import BattleOptions, kernel_args, outcome_cdf

# Event rows: kind and up to five values.
EV_TRADE = 0  # player, turn, value
EV_ELIMINATION = 1  # player, by, turn
EV_TURN = 2  # turn, seat, territories, armies, continents held


#: The bot classes the compiled playout runs, by the code of their decisions in ``_run``.
KINDS: tuple[type, ...] = (HeuristicBot, PlannerBot, HunterBot, StrategistBot, ClusterBot, PixieBot)


def compiled(bots: Sequence[object]) -> bool:
    """Whether :func:`play_compiled` can run these bots: plain :data:`KINDS` seats (other subclasses may change
    any decision in Python, so they play through :func:`analyzer.sim.play.play_game`)."""
    return all(type(b) in KINDS for b in bots)


# ---------------------------------------------------------------------------------- battle outcomes
class BattleCache:
    """The solver's outcome distributions of the battles played so far in this process, in flat
    arrays the compiled loop reads and fills: an open-addressing table from a battle's key to its
    place in ``pool``, where each outcome is three numbers (attacker left, defender left,
    cumulative probability) and the battle two more (each side's average armies left). The pool
    doubles between games once it is three quarters full, up to :attr:`MAX_POOL`; once the table is
    70% full or the pool cannot take a battle, further battles are computed each time instead.

    The pool has to grow: a battle's distribution holds a hundred or more outcomes, so a long run of
    four-player games between default bots fills any fixed first pool, after which every new battle
    would be solved again each time it was fought.
    """

    SLOTS = 1 << 17
    POOL = 1 << 22  # 32 MB of float64 to start with, reserved lazily by the operating system
    MAX_POOL = 1 << 26  # 512 MB

    def __init__(self) -> None:
        self.keys = np.full(self.SLOTS, -1, dtype=np.int64)
        self.where = np.zeros(self.SLOTS, dtype=np.int64)
        self.pool = np.empty(self.POOL)
        self.used = np.zeros(3, dtype=np.int64)  # pool entries, table slots, battles solved for want of room

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self.keys, self.where, self.pool, self.used

    def make_room(self) -> None:
        """Double the pool if it is three quarters full (and may grow): the entries keep their places."""
        size = self.pool.shape[0]
        if 4 * self.used[0] >= 3 * size and 2 * size <= self.MAX_POOL:
            bigger = np.empty(2 * size)
            bigger[: self.used[0]] = self.pool[: self.used[0]]
            self.pool = bigger

    def __len__(self) -> int:
        return int(self.used[1])


@lru_cache(maxsize=8)
def battle_cache(dice: DiceRules, balanced_blitz: bool = False) -> BattleCache:
    """The process's cache for ``dice`` (and Balanced Blitz or not), kept across games and batches."""
    return BattleCache()


def check_battle_mode(rules: Rules, sample_battles: bool) -> None:
    """Refuse Balanced Blitz with battles rolled die by die: it reshapes a whole battle's outcome,
    which no sequence of fair rolls produces."""
    if rules.balanced_blitz and not sample_battles:
        raise SimulationError(
            "Balanced Blitz reshapes whole battles, so they cannot be rolled die by die: draw them whole "
            "(sample_battles=True, the default; no --roll-dice) or turn balanced_blitz off"
        )


@kernel
def _draw_battle(keys, where, pool, used, attackers, defenders, stop_at, kernel, u):  # pragma: no cover - compiled
    """The outcome (attacker left, defender left) of a battle at cumulative probability ``u``: the
    first outcome whose cumulative probability exceeds it, as ``np.searchsorted(cdf, u, "right")``;
    then the armies each side keeps on average, the baseline of the battle's luck.
    The cache's arrays come one by one: unpacking a tuple of arrays costs a reference count each.
    An entry holds each outcome's armies left and cumulative probability, then the two averages."""
    mask = keys.shape[0] - 1
    key = (attackers << 32) | (defenders << 10) | stop_at
    h = ((key * -7046029254386353131) >> 40) & mask  # Fibonacci hashing
    while keys[h] != -1 and keys[h] != key:
        h = (h + 1) & mask
    if keys[h] == key:
        at = where[h]
        start, count = at >> 20, at & ((1 << 20) - 1)
    else:
        table, am, dm, cap, balanced = kernel
        a_left, d_left, cdf = outcome_cdf(attackers, defenders, table, am, dm, stop_at, cap, balanced)
        count = cdf.shape[0]
        kept_a, kept_d, below = 0.0, 0.0, 0.0
        for i in range(count):
            kept_a += (cdf[i] - below) * a_left[i]
            kept_d += (cdf[i] - below) * d_left[i]
            below = cdf[i]
        start = used[0]
        if (
            used[1] * 10 >= keys.shape[0] * 7
            or start + 3 * count + 2 > pool.shape[0]
            or count >= (1 << 20)
            or stop_at >= (1 << 10)
        ):
            used[2] += 1
            k = np.searchsorted(cdf, u, side="right")
            return a_left[k], d_left[k], kept_a, kept_d
        for i in range(count):
            pool[start + 3 * i] = a_left[i]
            pool[start + 3 * i + 1] = d_left[i]
            pool[start + 3 * i + 2] = cdf[i]
        pool[start + 3 * count] = kept_a
        pool[start + 3 * count + 1] = kept_d
        keys[h] = key
        where[h] = (start << 20) | count
        used[0] += 3 * count + 2
        used[1] += 1
    lo, hi = 0, count
    while lo < hi:
        mid = (lo + hi) >> 1
        if pool[start + 3 * mid + 2] <= u:
            lo = mid + 1
        else:
            hi = mid
    return (
        int(pool[start + 3 * lo]),
        int(pool[start + 3 * lo + 1]),
        pool[start + 3 * count],
        pool[start + 3 * count + 1],
    )


@lru_cache(maxsize=8)
def _kernel(dice: DiceRules, balanced_blitz: bool) -> tuple[np.ndarray, int, int, bool, bool]:
    """The solver's sweep arguments for the simulator's battles: the rules' dice, fought to the stop,
    and whether Balanced Blitz reshapes them."""
    table, am, dm, _, cap = kernel_args(BattleOptions(dice=dice), 1)
    return table, am, dm, cap, balanced_blitz


@lru_cache(maxsize=8)
def roll_tables(dice: DiceRules) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``[attack dice, defence dice, k]``: the cumulative probabilities, attacker and defender losses of
    one roll's outcomes (as :meth:`GameState.apply_chance` samples them), and their count."""
    a_max, d_max = dice.attacker_max, dice.defender_max
    width = max(len(roll_cdf(a, d, dice)[1]) for a in range(1, a_max + 1) for d in range(1, d_max + 1))
    cdf = np.ones((a_max + 1, d_max + 1, width))
    a_loss = np.zeros((a_max + 1, d_max + 1, width), dtype=np.int64)
    d_loss = np.zeros((a_max + 1, d_max + 1, width), dtype=np.int64)
    count = np.zeros((a_max + 1, d_max + 1), dtype=np.int64)
    for a in range(1, a_max + 1):
        for d in range(1, d_max + 1):
            outcomes, c = roll_cdf(a, d, dice)
            count[a, d] = len(c)
            cdf[a, d, : len(c)] = c
            a_loss[a, d, : len(c)] = [r.attacker_losses for r in outcomes]
            d_loss[a, d, : len(c)] = [r.defender_losses for r in outcomes]
    return cdf, a_loss, d_loss, count


# ---------------------------------------------------------------------------------- the loop
@kernel
def _snapshot(S, C, events, n, turn):  # pragma: no cover - compiled
    """One EV_TURN row per seat: territories, armies and continents held after ``turn``."""
    owner = engine.owner_view(S)
    armies = engine.armies_view(S)
    for p in range(S[engine.N_PLAYERS]):
        k = 0
        total = 0
        for t in range(owner.shape[0]):
            if owner[t] == p:
                k += 1
                total += armies[t]
        held = 0
        mask = engine.held_continents(S, C, p)
        while mask:
            held += mask & 1
            mask >>= 1
        events, n = legality.push_row(events, n, EV_TURN, turn, p, k, total, held)
    return events, n


@kernel
def _roll(S, C, rolls, rng, check, bad):  # pragma: no cover - compiled
    """Roll the pending attack's dice; the player eliminated, -1, or -2 if ``check`` found it illegal."""
    cdf, a_loss, d_loss, count = rolls
    a, d = S[engine.ATTACK_DICE], S[engine.DEFENCE_DICE]
    k = np.searchsorted(cdf[a, d, : count[a, d]], rng.random(), side="right")
    if check and _illegal(S, C, bad, ROLL_ACTION, a_loss[a, d, k], d_loss[a, d, k], 0, 0):
        return -2
    return engine.roll(S, C, a_loss[a, d, k], d_loss[a, d, k])


@kernel
def _illegal(S, C, bad, kind, a, b, c, d):  # pragma: no cover - compiled
    """Whether the action is illegal now; if so ``bad`` records the reason code and the action."""
    why = legality.reason(S, C, kind, a, b, c, d)
    if why == legality.LEGAL:
        return False
    bad[0], bad[1], bad[2], bad[3], bad[4], bad[5] = why, kind, a, b, c, d
    return True


@kernel
def _run(
    S,
    C,
    params,
    kinds,
    tables,
    table_of,
    rng,
    sample,
    keys,
    where,
    pool,
    used,
    kernel,
    rolls,
    events,
    n,
    track,
    record_turns,
    start,
    check,
    bad,
    luck,
):  # pragma: no cover - compiled
    """Play on until the game ends; returns the event rows and their count.

    ``track`` holds the turn in progress, whether the start position is still to be recorded, and the
    turn at whose start to stop (-1: play to the end).
    With ``check`` every action goes through the legality check first; the first illegal one stops
    the game, with its reason and the action in ``bad``. A ``luck`` of one value per force (empty: none kept)
    gains, at each battle, the armies each side kept beyond the battle's expectation: a sum whose mean is 0
    whoever decided what, which the evaluator uses as a control variate.
    """
    owner = engine.owner_view(S)
    armies = engine.armies_view(S)
    work = np.empty(kills.scratch_size(owner.shape[0], C[engine.R_CONTINENTS]))
    # Each seat's target values during the setup placement, when they cannot change (see decide_setup).
    setup_values = np.full((params.shape[0], owner.shape[0]), -1.0)
    # The deciding seat's rows, taken again only when the seat changes: a row is a view, and each
    # view taken costs an atomic reference-count pair, at every decision.
    last = 0
    bp, table, values = params[0], tables[table_of[0]], setup_values[0]
    while S[engine.PHASE] != GAME_OVER:
        phase = S[engine.PHASE]
        p = S[engine.PLAYER]
        if phase == DRAW:
            card = engine.pile_card(S, rng.integers(0, engine.pile_size(S)))
            if check and _illegal(S, C, bad, DRAW_ACTION, card, 0, 0, 0):
                return events, n
            engine.draw(S, C, card)
        elif phase == ROLL:
            victim = _roll(S, C, rolls, rng, check, bad)
            if victim == -2:
                return events, n
            if victim >= 0:
                events, n = legality.push_row(events, n, EV_ELIMINATION, victim, p, S[engine.TURN], 0, 0)
        else:
            seat = legality.deciding_seat(S)
            if seat != last:
                bp, table, values = params[seat], tables[table_of[seat]], setup_values[seat]
                last = seat
            if kinds[seat] == 1:
                kind, a, b, c, d = planner.decide(S, C, bp, table, rng, work, values)
            elif kinds[seat] == 2:
                kind, a, b, c, d = hunter.decide(S, C, bp, table, rng, work, values)
            elif kinds[seat] == 3:
                kind, a, b, c, d = strategist.decide(S, C, bp, table, rng, work, values)
            elif kinds[seat] == 4:
                kind, a, b, c, d = sparring.decide_cluster(S, C, bp, table, rng, work, values)
            elif kinds[seat] == 5:
                kind, a, b, c, d = sparring.decide_pixie(S, C, bp, table, rng, work, values)
            elif phase == SETUP_CLAIM or phase == SETUP_PLACE:
                kind, a, b, c, d = decide_setup(S, C, bp, table, rng, work, values)
            elif phase == ATTACK:
                kind, a, b, c, d = decide_attack(S, C, bp, table, work)
            elif phase == MOVE_IN:
                kind, a, b, c, d = decide_move_in(S, C, bp, work)
            else:
                kind, a, b, c, d = decide(S, C, bp, table, work)
            turn = S[engine.TURN]
            if kind == ORDER:
                s, t, stop = a, b, c
                if sample:
                    a_left, d_left, kept_a, kept_d = _draw_battle(
                        keys, where, pool, used, armies[s], armies[t], stop, kernel, rng.random()
                    )
                    if check and _illegal(S, C, bad, BATTLE, s, t, a_left, d_left):
                        return events, n
                    if luck.shape[0]:
                        luck[p] += a_left - kept_a
                        luck[owner[t]] += d_left - kept_d
                    victim = engine.battle(S, C, s, t, a_left, d_left)
                    if victim >= 0:
                        events, n = legality.push_row(events, n, EV_ELIMINATION, victim, p, turn, 0, 0)
                else:
                    # Die by die with the solver's stop rule; every bot defends with all the dice it may.
                    while owner[t] != p and armies[s] > stop:
                        dice = engine.attacker_dice(C, armies[s])
                        if check and _illegal(S, C, bad, ATTACK_ACTION, s, t, dice, 0):
                            return events, n
                        engine.attack(S, C, s, t, dice)
                        if S[engine.PHASE] == DEFEND:
                            defence = engine.defender_dice(C, armies[t])
                            if check and _illegal(S, C, bad, DEFEND_ACTION, defence, 0, 0, 0):
                                return events, n
                            engine.step(S, C, DEFEND_ACTION, defence, 0, 0, 0)
                        victim = _roll(S, C, rolls, rng, check, bad)
                        if victim == -2:
                            return events, n
                        if victim >= 0:
                            events, n = legality.push_row(events, n, EV_ELIMINATION, victim, p, turn, 0, 0)
            else:
                if check and _illegal(S, C, bad, kind, a, b, c, d):
                    return events, n
                result = engine.step(S, C, kind, a, b, c, d)
                if kind == TRADE:
                    events, n = legality.push_row(events, n, EV_TRADE, p, turn, result, 0, 0)
        if S[engine.TURN] != track[0]:
            if track[1]:
                start[0] = owner
                start[1] = armies
                track[1] = 0
            elif record_turns:
                events, n = _snapshot(S, C, events, n, track[0])
            track[0] = S[engine.TURN]
            if track[2] >= 0 and track[0] >= track[2]:
                return events, n
    if record_turns:
        events, n = _snapshot(S, C, events, n, S[engine.TURN])
    return events, n


@kernel
def _run_each(
    starts, C, params, kinds, tables, table_of, rng, sample, keys, where, pool, used, kernel, rolls, until_turn, luck
):  # pragma: no cover - compiled
    """Play each row of ``starts`` (a state vector each) on in place, as ``_run`` does with no records, to the
    start of player-turn ``until_turn`` (-1: to the end), one row after another on the one ``rng``, each
    row's battles' luck kept in the same row of ``luck`` (of no columns: none kept)."""
    events = np.empty((256, 6), dtype=np.int64)
    start = np.empty((2, engine.owner_view(starts[0]).shape[0]), dtype=np.int64)
    track = np.empty(3, dtype=np.int64)
    bad = np.zeros(6, dtype=np.int64)
    for i in range(starts.shape[0]):
        S = starts[i]
        track[0], track[1], track[2] = S[engine.TURN], 0, until_turn
        if S[engine.PHASE] != GAME_OVER:
            events, n = _run(
                S, C, params, kinds, tables, table_of, rng, sample, keys, where, pool, used, kernel, rolls,
                events, 0, track, False, start, False, bad, luck[i],
            )  # fmt: skip
    return starts


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


class Prepared:
    """Everything the compiled loop needs besides a game's state, for ``bots`` on ``board`` under
    ``dice`` (battles reshaped by Balanced Blitz if ``balanced_blitz``): made once for many games."""

    def __init__(
        self, bots: Sequence[HeuristicBot], board: Board, dice: DiceRules, balanced_blitz: bool = False
    ) -> None:
        if not compiled(bots):
            raise SimulationError(
                f"the compiled playout runs {', '.join(k.__name__ for k in KINDS)} seats only, got {[type(b).__name__ for b in bots]}"
            )
        self.params, self.kinds, self.tables, self.table_of = _seat_arrays(tuple(bots), board, dice)
        self.cache = battle_cache(dice, balanced_blitz)
        self.kernel = _kernel(dice, balanced_blitz)
        self.rolls = roll_tables(dice)

    def arguments(self, rng: np.random.Generator, sample_battles: bool) -> tuple[Any, ...]:
        """The compiled loop's arguments from its seats' to its dice tables, in its order."""
        return (
            self.params,
            self.kinds,
            self.tables,
            self.table_of,
            rng,
            sample_battles,
            *self.cache.arrays(),
            self.kernel,
            self.rolls,
        )


def play_compiled(
    state: GameState,
    bots: Sequence[HeuristicBot] | Prepared,
    rng: np.random.Generator,
    *,
    sample_battles: bool = True,
    record_turns: bool = False,
    check: bool = False,
    until_turn: int | None = None,
) -> Record:
    """Play ``state`` to its end in compiled code, ``bots[seat]`` deciding for each seat (or to the start of
    player-turn ``until_turn``, see :func:`play_events`).

    The state's trades and eliminations lists are filled in as the Python
    path would; its action history is not kept (a compiled game makes no
    action objects).
    """
    start, rows = play_events(
        state, bots, rng, sample_battles=sample_battles, record_turns=record_turns, check=check, until_turn=until_turn
    )
    trades = [SetTraded(int(r[1]), int(r[2]), int(r[3])) for r in rows[rows[:, 0] == EV_TRADE]]
    eliminations = [Elimination(int(r[1]), int(r[2]), int(r[3])) for r in rows[rows[:, 0] == EV_ELIMINATION]]
    state.trades.extend(trades)
    state.eliminations.extend(eliminations)
    return Record(start, trades, eliminations, rows[rows[:, 0] == EV_TURN][:, 1:])


def _luck_array(luck: np.ndarray | None, shape: tuple[int, ...], layout: str) -> np.ndarray:
    """The array a playout adds its battles' luck to: ``luck``, checked to be C-ordered floats of ``shape``
    (``layout`` says it in the error), or with none an array of no last axis, which keeps nothing."""
    if luck is None:
        return np.zeros((*shape[:-1], 0))
    if luck.shape != shape or luck.dtype != np.float64 or not luck.flags.c_contiguous:
        raise SimulationError(f"luck must be a float array of {layout}, got shape {luck.shape}")
    return luck


def play_events(
    state: GameState,
    bots: Sequence[HeuristicBot] | Prepared,
    rng: np.random.Generator,
    *,
    sample_battles: bool = True,
    record_turns: bool = False,
    check: bool = False,
    until_turn: int | None = None,
    luck: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`play_compiled` without the Python records: returns the start position (owner and armies rows)
    and the event rows (``EV_*`` kind, then its values), for callers that tabulate many games at once.
    The state's trades and eliminations lists are left as they were. ``bots`` may be
    :class:`Prepared` once for many games (the state's board and dice must be the ones it was made for).
    With ``until_turn`` the game stops at the start of that player-turn (its reinforcements to place),
    if it lasts that long, for a caller that looks at the positions along the way. A ``luck`` array (float, one
    value per force) gains the armies each force kept beyond its battles' expectations, as :func:`play_each`'s."""
    check_battle_mode(state.rules, sample_battles)
    luck = _luck_array(luck, (int(state.S[engine.N_FORCES]),), "one value per force")
    prepared = (
        bots
        if isinstance(bots, Prepared)
        else Prepared(bots, state.board, state.rules.dice, state.rules.balanced_blitz)
    )
    events = np.empty((256, 6), dtype=np.int64)
    in_setup = state.S[engine.PHASE] < REINFORCE
    start = np.empty((2, state.board.n_territories), dtype=np.int64)
    if not in_setup:
        start[0], start[1] = state.owner, state.armies
    track = np.array([state.turn, in_setup, -1 if until_turn is None else until_turn], dtype=np.int64)
    p = prepared
    bad = np.zeros(6, dtype=np.int64)
    events, n = _run(
        state.S,
        state.C,
        *p.arguments(rng, sample_battles),
        events,
        0,
        track,
        record_turns,
        start,
        check,
        bad,
        luck,
    )
    p.cache.make_room()
    if bad[0] != legality.LEGAL:
        action = decode(bad[1:].tolist())
        raise IllegalActionError(
            f"the compiled playout chose illegal action {action!r} in phase {state.phase.name} "
            f"(player {state.player}): {state.illegal_reason(action)}"
        )
    return start, events[:n]


def play_each(
    state: GameState,
    starts: np.ndarray,
    bots: Prepared,
    rng: np.random.Generator,
    *,
    until_turn: int | None = None,
    luck: np.ndarray | None = None,
) -> np.ndarray:
    """Play each row of ``starts`` (state vectors of games like ``state``: its board, rules and size, past the
    setup) on in place, one after another on ``rng`` in one compiled call, to the start of player-turn
    ``until_turn`` or the game's end; returns ``starts``. For many short play-ons of one position, whose
    one-by-one calls from Python would cost more than the play. The rows' records are not kept. A ``luck`` array
    (rows x forces, float) gains each row's armies kept beyond its battles' expectations, by force."""
    check_battle_mode(state.rules, True)
    if (
        starts.ndim != 2
        or starts.shape[1] != state.S.shape[0]
        or starts.dtype != state.S.dtype
        or not starts.flags.c_contiguous
    ):
        raise SimulationError(
            f"starts must be a C-ordered array of rows of {state.S.shape[0]} state values, got shape {starts.shape}"
        )
    if len(starts) and np.any(starts[:, engine.PHASE] < REINFORCE):
        raise SimulationError("play_each plays positions past the setup only")
    if not len(starts):
        return starts
    luck = _luck_array(luck, (len(starts), int(state.S[engine.N_FORCES])), "one row per start and one value per force")
    _run_each(starts, state.C, *bots.arguments(rng, True), -1 if until_turn is None else until_turn, luck)
    bots.cache.make_room()
    return starts


def _seat_args(bot: HeuristicBot, board: Board, dice: DiceRules) -> tuple[np.ndarray, np.ndarray]:
    """A seat's parameter vector and win table, as its class lays them out (the hunter and the
    strategist are planners whose ``params`` add their knobs)."""
    if isinstance(bot, PlannerBot):
        return planner.planner_args(bot, board, dice)
    return compiled_args(bot, board, dice)


@lru_cache(maxsize=32)
def _seat_arrays(
    bots: tuple[HeuristicBot, ...], board: Board, dice: DiceRules
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each seat's knobs (padded to one length), which decisions it runs (its class's place in
    :data:`KINDS`), the distinct win tables, and each seat's table (seats with the same stop rule share
    one, which keeps the lookups in cache)."""
    kinds = np.array([KINDS.index(type(bot)) for bot in bots], dtype=np.int64)
    per_seat = [_seat_args(bot, board, dice) for bot in bots]
    width = max(len(a[0]) for a in per_seat)
    distinct: dict[int, int] = {}
    tables: list[np.ndarray] = []
    for _, table in per_seat:
        if id(table) not in distinct:
            distinct[id(table)] = len(tables)
            tables.append(table)
    table_of = np.array([distinct[id(t)] for _, t in per_seat], dtype=np.int64)
    params = np.stack([np.pad(a[0], (0, width - len(a[0]))) for a in per_seat])
    return params, kinds, np.stack(tables), table_of
