"""Monte Carlo full games between bots: reproducible, parallel, checkpointed.

:func:`simulate` plays ``n_games`` games with one bot per seat and returns a
:class:`SimulationResult`: plain pandas DataFrames, one row per game, seat,
elimination, trade, starting territory and (optionally) player-turn.

Game ``i`` draws every random number (setup, dice, cards, bots' choices)
from ``np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(i,)))``,
the ``i``-th child of ``SeedSequence(seed).spawn(n_games)``, so the results
are the same whatever the number of workers or the backend, and rows are
ordered by game.

Games whose seats are all plain :class:`~analyzer.bots.HeuristicBot` seats (the
default bot and its family) run whole in compiled code (:mod:`analyzer.sim.playout`),
through the same rule steps and bot decisions as the Python loop :func:`play`,
drawing the same random numbers in the same order: the tables are identical
either way (``check=True`` forces the Python loop, which checks every action).
A bot that changes only the claiming draft (the studies' random openings) names
the bot it plays as afterwards in an ``after_draft`` attribute
(:func:`after_draft`): its claims are made in Python and the game goes on compiled.

Battles: a bot's :class:`~analyzer.bots.BattleOrder` is by default resolved in
one draw from the exact solver's outcome distribution (cached per battle);
``sample_battles=False`` rolls it die by die instead (asking the defender's bot
for its dice), with the same stop rule. Under ``Rules(balanced_blitz=True)``
every battle is drawn from Balanced Blitz's distribution
(:mod:`analyzer.solver.blitz`), which no die-by-die rolling produces, so that
combination is refused.

A game that reaches ``max_rounds`` rounds (or the rules' own ``turn_limit``,
if lower) ends with no winner: ``winner`` is <NA> and ``capped`` is True.
The engine's ``turn_limit`` rule does the ending, so the final ranking is
still by territories, then armies.

>>> result = simulate(2, ["default", "random"], n_games=4, seed=1, progress=False)
>>> result.games.columns.tolist()
['game', 'winner', 'capped', 'turns', 'rounds', 'first_player']
>>> len(result.games), len(result.seats)
(4, 8)

Tables
------
``games``
    ``game``, ``winner`` (seat, <NA> if capped), ``capped``, ``turns``
    (player-turns played), ``rounds``, ``first_player``.
``seats``
    one row per game and seat: ``game``, ``seat``, ``bot``, ``rank`` (1 is
    the winner, then by territories, armies, later elimination),
    ``start_territories``, ``start_armies`` (when the first turn begins),
    ``final_territories``, ``final_armies``, ``eliminated_turn`` and
    ``eliminated_by`` (<NA> if not eliminated).
``eliminations``
    ``game``, ``player``, ``by``, ``turn``.
``trades``
    ``game``, ``player``, ``turn``, ``value`` (armies).
``starts``
    each territory's ``owner`` and ``armies`` when the first turn begins
    (owner 2 is the neutral force in 2-player games).
``turns`` (with ``record_turns``)
    after each player-turn ``turn`` (and once more at the end of the game),
    each ``seat``'s ``territories``, ``armies`` and ``continents`` held.
"""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
import gc
import math
import multiprocessing
import os
import sys
import time
import types
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from analyzer.game.actions import Action, Attack, Battle, Defend
from analyzer.solver.battle import BattleOptions, kernel_args, outcome_cdf
from analyzer.game.board import Board
from analyzer.bots.base import BattleOrder, Bot
from analyzer.game.engine import steps as engine
from analyzer.sim import playout
from analyzer.sim.intervals import wilson_interval
from analyzer.sim.checkpoints import TABLES, Checkpoint, die_with_parent
from analyzer.bots.heuristic import HeuristicBot
from analyzer.bots.registry import make_bot
from analyzer.game import face_down
from analyzer.game.dice import DiceRules
from analyzer import limits
from analyzer.errors import BotError, IllegalActionError, PositionError, SimulationError
from analyzer.game.reader import check_action
from analyzer.limits import check_limit, quote
from analyzer.game.rules import Rules
from analyzer.game.ranking import ranks
from analyzer.game.state import GameState, validate
from analyzer.game.vocabulary import Phase, MAX_PLAYERS, PLAYER_COUNT_TEXT
from analyzer.extras import require

#: Default round cap: far beyond any game between the built-in bots, so only a stalemate reaches it.
MAX_ROUNDS = 1000
#: Games per task and checkpoint file.
BATCH_SIZE = 100
#: Games per batch when every seat runs compiled: a batch then takes about as long as 100 Python games
#: take a tenth of, and the tables are built once per batch.
COMPILED_BATCH_SIZE = 1000
_SETUP_PHASES = (Phase.SETUP_CLAIM, Phase.SETUP_PLACE, Phase.CHOOSE_CAPITAL)


# ---------------------------------------------------------------------------------- battles
@lru_cache(maxsize=1 << 16)
def battle_sampler(
    attackers: int, defenders: int, stop_at: int, dice: DiceRules, balanced_blitz: bool = False
) -> tuple[list[float], list[tuple[int, int]]]:
    """Cumulative probabilities and ``(attacker_left, defender_left)`` outcomes of one battle, for
    sampling by inverse CDF: the solver's sweep (:func:`analyzer.solver.battle.outcome_cdf`), the same
    numbers the compiled playout draws from; with ``balanced_blitz``, Balanced Blitz's distribution.

    >>> cdf, outcomes = battle_sampler(2, 1, 1, DiceRules())
    >>> outcomes, [round(c, 4) for c in cdf]
    ([(2, 0), (1, 1)], [0.4167, 1.0])
    >>> [round(c, 4) for c in battle_sampler(2, 1, 1, DiceRules(), balanced_blitz=True)[0]]
    [0.3654, 1.0]
    """
    table, am, dm, _, cap = kernel_args(BattleOptions(dice=dice), stop_at)
    a_left, d_left, cdf = outcome_cdf(attackers, defenders, table, am, dm, stop_at, cap, balanced_blitz)
    return cdf.tolist(), list(zip(a_left.tolist(), d_left.tolist()))


def sample_battle(
    attackers: int, defenders: int, stop_at: int, dice: DiceRules, rng: np.random.Generator, balanced_blitz: bool = False
) -> tuple[int, int]:
    """One draw of ``(attacker_left, defender_left)`` from the solver's exact (or Balanced Blitz's) distribution."""
    cdf, outcomes = battle_sampler(attackers, defenders, stop_at, dice, balanced_blitz)
    return outcomes[bisect.bisect_right(cdf, rng.random())]


def roll_battle(state: GameState, order: BattleOrder, bots: Sequence[Bot], rng: np.random.Generator, check: bool = False) -> None:
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
        raise BotError(f"illegal battle order {order} for player {state.player}: attack a bordering enemy from your own territory")
    if not 1 <= order.stop_at < state.armies[s]:
        raise BotError(f"battle order {order}: stop_at must be from 1 to {int(state.armies[s]) - 1} (the armies on the source less one)")


# ---------------------------------------------------------------------------------- one game
def play(
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
    dice, balanced = state.rules.dice, state.rules.balanced_blitz
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
                        s, t = decision.source, decision.target
                        a_left, d_left = sample_battle(int(state.armies[s]), int(state.armies[t]), decision.stop_at, dice, rng, balanced)
                        apply(Battle(s, t, a_left, d_left))
                    else:
                        roll_battle(state, decision, bots, rng, check)
                else:
                    # Anything but a BattleOrder is meant as an Action; the engine rejects what is not one.
                    if check:
                        check_action(decision, "the action")
                    apply(cast(Action, decision))
            except (IllegalActionError, PositionError, BotError) as exc:
                raise BotError(f"bot {quote(_bot_name(bots[seat]))} of seat {seat} chose {quote(decision)}: {exc}") from None
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


# ---------------------------------------------------------------------------------- a run
@dataclass(frozen=True)
class RunSpec:
    """Everything that determines a run's results (and nothing that does not, like the workers)."""

    n_players: int
    bots: tuple[Bot, ...]
    bot_names: tuple[str, ...]
    n_games: int
    seed: int
    rules: Rules = field(default_factory=Rules)
    board: Board | None = None
    max_rounds: int = MAX_ROUNDS
    sample_battles: bool = True
    record_turns: bool = False
    check: bool = False
    compiled: bool = True  # not in params(): the games are the same either way
    batch_size: int = BATCH_SIZE
    start: str | None = None  # a saved mid-game state (JSON) every game starts from, for position evaluation

    @property
    def playing_bots(self) -> tuple[Bot, ...]:
        """The bots that play each seat once the claiming draft is over."""
        return tuple(after_draft(b) for b in self.bots)

    @property
    def runs_compiled(self) -> bool:
        """Whether the games run in the compiled playout (see :func:`_runs_compiled`)."""
        return _runs_compiled(self.bots, self.compiled, self.check)

    @property
    def n_batches(self) -> int:
        return math.ceil(self.n_games / self.batch_size)

    def batch_games(self, batch: int) -> range:
        return range(batch * self.batch_size, min(self.n_games, (batch + 1) * self.batch_size))

    def params(self) -> dict[str, Any]:
        """Plain-JSON form, recorded in a checkpoint so that a rerun can tell whether it is the same run."""
        return {
            "n_players": self.n_players,
            "bots": [_bot_id(b) for b in self.bots],
            "bot_names": list(self.bot_names),
            "n_games": self.n_games,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "board": None if self.board is None else self.board.to_dict(),
            "max_rounds": self.max_rounds,
            "sample_battles": self.sample_battles,
            "record_turns": self.record_turns,
            "check": self.check,
            "batch_size": self.batch_size,
            "start": self.start,
        }


def _bot_name(bot: Bot) -> str:
    return f"{type(bot).__module__}.{type(bot).__qualname__}"


def trusted_bot(bot: Bot) -> bool:
    """Whether ``bot`` is one of the package's own bots (``analyzer.bots``, and the studies' in
    ``analyzer.studies``), whose actions may skip the engine's checks.

    Any other bot (``module:Class`` from the command line, an object passed in) plays through the
    checked path, so that an illegal action is an error naming it rather than a corrupt game.
    """
    return type(bot).__module__.startswith(("analyzer.bots.", "analyzer.studies."))


def after_draft(bot: Bot) -> Bot:
    """The bot ``bot`` plays as once a claiming draft is over: the bot its ``after_draft`` attribute
    names, if it has one, else itself.

    >>> from analyzer.studies.policies import OpeningBot
    >>> after_draft(OpeningBot()) == make_bot("classic"), after_draft(make_bot("random")) == make_bot("random")
    (True, True)
    """
    later = getattr(bot, "after_draft", None)
    return later if isinstance(later, Bot) else bot


def _runs_compiled(bots: Sequence[Bot], compiled: bool, check: bool) -> bool:
    """Whether games of ``bots`` run in the compiled playout: asked for, unchecked, and every seat, once
    any claiming draft is over, a bot the playout compiles."""
    return compiled and not check and playout.compiled([after_draft(b) for b in bots])


def _bot_id(bot: Bot) -> str:
    """A dataclass bot's repr names its parameters; other objects' reprs hold a memory address."""
    if dataclasses.is_dataclass(bot):
        return repr(bot)
    return f"{type(bot).__module__}.{type(bot).__qualname__}"


def game_rng(seed: int, game: int) -> np.random.Generator:
    """The generator of game ``game``: child ``game`` of ``SeedSequence(seed)``.

    >>> a = game_rng(5, 3).random()
    >>> b = np.random.default_rng(np.random.SeedSequence(5).spawn(4)[3]).random()
    >>> a == b
    True
    """
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(game,)))


class _Recorder:
    """Collects one batch's rows as plain column lists (cheaper than a DataFrame per game)."""

    def __init__(self, spec: RunSpec) -> None:
        self.spec = spec
        self.start: GameState | None = None  # spec.start parsed once per batch
        # Finished games, tabulated together in frames(): (game, final state vector, start position,
        # event rows as playout.play_events gives them, without a start position's earlier records).
        self.finished: list[tuple[int, np.ndarray, np.ndarray, np.ndarray]] = []
        self.prepared: playout.Prepared | None = None
        self.rules = dataclasses.replace(spec.rules, turn_limit=_cap(spec.rules.turn_limit, spec.max_rounds))
        # Decided once per batch: the bots' protocol checks cost more than a compiled turn.
        self.later = spec.playing_bots
        self.compiled = spec.runs_compiled
        self.drafting = any(a is not b for a, b in zip(self.later, spec.bots))

    def game(self, game: int, rng: np.random.Generator) -> None:
        spec = self.spec
        if spec.start is None:
            state = GameState.new(spec.n_players, rng, self.rules, spec.board)
        else:
            if self.start is None:
                # simulate() validated the position before writing it: trusted, and saved without history.
                self.start = GameState.from_json(spec.start, spec.board, trusted=True)
            # Cards held face down are drawn afresh for each game, from its own generator, so that
            # no game takes the placeholders' ids for the cards.
            state = face_down.determinize(self.start, rng) if self.start.face_down else self.start.copy()
            state.rules = dataclasses.replace(
                state.rules, turn_limit=_cap(state.rules.turn_limit, min(state.round + spec.max_rounds, limits.MAX_ROUNDS))
            )
        if self.compiled:
            if self.drafting:
                # Seats that change only the draft claim here; every later decision is the compiled bot's.
                while state.phase == Phase.SETUP_CLAIM:
                    state.apply_unchecked(cast(Action, spec.bots[state.current_player].choose(state, rng)))
            if self.prepared is None:
                self.prepared = playout.Prepared(
                    cast("Sequence[HeuristicBot]", self.later), state.board, state.rules.dice, state.rules.balanced_blitz
                )
            start_pos, events = playout.play_events(
                state, self.prepared, rng, sample_battles=spec.sample_battles, record_turns=spec.record_turns
            )
            self.finished.append((game, state.S, start_pos, events))
            return
        n = spec.n_players
        start = np.empty((2, state.board.n_territories), dtype=np.int64)
        rows: list[list[int]] = []

        def setup_done(s: GameState) -> None:
            start[0], start[1] = s.owner, s.armies

        def turn_done(s: GameState, turn: int) -> None:
            owner = s.owner.astype(np.int64)
            forces = len(s.pool)
            held = [len(s.continents_held(p)) for p in range(n)]
            territories = np.bincount(owner, minlength=forces)[:n]
            armies = np.bincount(owner, weights=s.armies, minlength=forces)[:n].astype(np.int64)
            rows.extend([playout.EV_TURN, turn, p, territories[p], armies[p], held[p]] for p in range(n))

        play(
            state,
            spec.bots,
            rng,
            sample_battles=spec.sample_battles,
            check=spec.check,
            on_turn=turn_done if spec.record_turns else None,
            on_setup_done=setup_done,
        )
        earlier = self.start if spec.start is not None else None
        new_elims = state.eliminations[len(earlier.eliminations) :] if earlier is not None else state.eliminations
        new_trades = state.trades[len(earlier.trades) :] if earlier is not None else state.trades
        rows.extend([playout.EV_ELIMINATION, e.player, e.by, e.turn, 0, 0] for e in new_elims)
        rows.extend([playout.EV_TRADE, t.player, t.turn, t.value, 0, 0] for t in new_trades)
        self.finished.append((game, state.S, start, np.array(rows, dtype=np.int64).reshape(-1, 6)))

    def frames(self) -> dict[str, pd.DataFrame]:
        """The batch's tables, computed for all its games at once (ranks in :meth:`GameState.ranking`'s
        order)."""
        if not self.finished:
            return {name: _frame(name, {}) for name in TABLES}
        spec = self.spec
        n = spec.n_players
        done = self.finished
        G = len(done)
        game = np.array([d[0] for d in done], dtype=np.int64)
        Sx = np.stack([d[1] for d in done])
        spans = engine.layout(int(Sx[0, engine.N_TERRITORIES]), int(Sx[0, engine.N_CARDS]), n)
        (o, T), (a, _) = spans["owner"], spans["armies"]
        owner, armies = Sx[:, o : o + T], Sx[:, a : a + T]
        start = np.stack([d[2] for d in done])
        winner = Sx[:, engine.WINNER]
        # Events of every game with the game's index in front; a start position's earlier records first.
        prior: list[np.ndarray] = []
        if self.start is not None:
            prior = [np.array([playout.EV_ELIMINATION, e.player, e.by, e.turn, 0, 0]) for e in self.start.eliminations]
            prior += [np.array([playout.EV_TRADE, t.player, t.turn, t.value, 0, 0]) for t in self.start.trades]
        parts = []
        for i, (_, _, _, events) in enumerate(done):
            rows = np.concatenate([np.array(prior, dtype=np.int64).reshape(-1, 6), events]) if prior else events
            parts.append(np.column_stack([np.full(len(rows), i, dtype=np.int64), rows]))
        ev = np.concatenate(parts) if parts else np.zeros((0, 7), dtype=np.int64)
        kind = ev[:, 1]
        elim = ev[kind == playout.EV_ELIMINATION]
        trades = ev[kind == playout.EV_TRADE]
        elim_turn = np.full((G, n), -1, dtype=np.int64)
        elim_by = np.full((G, n), -1, dtype=np.int64)
        elim_turn[elim[:, 0], elim[:, 2]] = elim[:, 4]
        elim_by[elim[:, 0], elim[:, 2]] = elim[:, 3]
        seats = np.arange(n)
        mine = owner[:, None, :] == seats[None, :, None]
        mine0 = start[:, 0][:, None, :] == seats[None, :, None]
        final_t = mine.sum(axis=2)
        final_a = (mine * armies[:, None, :]).sum(axis=2)
        rank = ranks(winner, final_t, final_a, elim_turn).ravel()
        turns = ev[kind == playout.EV_TURN]
        columns: dict[str, dict[str, Any]] = {
            "games": {
                "game": game, "winner": _nullable(winner), "capped": winner < 0, "turns": Sx[:, engine.TURN],
                "rounds": Sx[:, engine.ROUND], "first_player": Sx[:, engine.FIRST_PLAYER],
            },
            "seats": {
                "game": np.repeat(game, n), "seat": np.tile(seats, G), "bot": list(spec.bot_names) * G, "rank": rank,
                "start_territories": mine0.sum(axis=2).ravel(),
                "start_armies": (mine0 * start[:, 1][:, None, :]).sum(axis=2).ravel(),
                "final_territories": final_t.ravel(), "final_armies": final_a.ravel(),
                "eliminated_turn": _nullable(elim_turn.ravel()), "eliminated_by": _nullable(elim_by.ravel()),
            },
            "eliminations": {"game": game[elim[:, 0]], "player": elim[:, 2], "by": elim[:, 3], "turn": elim[:, 4]},
            "trades": {"game": game[trades[:, 0]], "player": trades[:, 2], "turn": trades[:, 3], "value": trades[:, 4]},
            "starts": {
                "game": np.repeat(game, T), "territory": np.tile(np.arange(T), G),
                "owner": start[:, 0].ravel(), "armies": start[:, 1].ravel(),
            },
            "turns": {
                "game": game[turns[:, 0]], "turn": turns[:, 2], "seat": turns[:, 3],
                "territories": turns[:, 4], "armies": turns[:, 5], "continents": turns[:, 6],
            },
        }
        self.finished = []
        return {name: pd.DataFrame({c: pd.array(columns[name][c], dtype=t) for c, t in SCHEMA[name].items()}) for name in TABLES}


def _nullable(values: np.ndarray) -> np.ndarray:
    """Whole numbers with -1 for missing, as a float array with NaN (pandas' nullable types read it)."""
    return np.where(values < 0, np.nan, values)


def _cap(limit: int | None, cap: int) -> int:
    return cap if limit is None else min(limit, cap)


#: Column types of each table, so that empty tables and every batch agree.
SCHEMA: dict[str, dict[str, str]] = {
    "games": {"game": "int64", "winner": "Int8", "capped": "bool", "turns": "int32", "rounds": "int32", "first_player": "int8"},
    "seats": {
        "game": "int64", "seat": "int8", "bot": "string", "rank": "int8",
        "start_territories": "int16", "start_armies": "int32", "final_territories": "int16", "final_armies": "int32",
        "eliminated_turn": "Int32", "eliminated_by": "Int8",
    },
    "eliminations": {"game": "int64", "player": "int8", "by": "int8", "turn": "int32"},
    "trades": {"game": "int64", "player": "int8", "turn": "int32", "value": "int32"},
    "starts": {"game": "int64", "territory": "int16", "owner": "int8", "armies": "int32"},
    "turns": {"game": "int64", "turn": "int32", "seat": "int8", "territories": "int16", "armies": "int32", "continents": "int8"},
}


def _frame(name: str, cols: dict[str, list[Any]]) -> pd.DataFrame:
    schema = SCHEMA[name]
    return pd.DataFrame({c: pd.array(cols.get(c, []), dtype=t) for c, t in schema.items()})


def run_batch(spec: RunSpec, batch: int) -> dict[str, pd.DataFrame]:
    """Play the games of one batch; the unit of work of every backend and of the checkpoint."""
    recorder = _Recorder(spec)
    # A game allocates an action object per move and makes no reference cycles; the cyclic
    # collector's passes over the growing histories cost about a tenth of the run.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for game in spec.batch_games(batch):
            recorder.game(game, game_rng(spec.seed, game))
    finally:
        if was_enabled:
            gc.enable()
    return recorder.frames()


# ---------------------------------------------------------------------------------- backends
def _serial(spec: RunSpec, batches: list[int]) -> Iterator[tuple[int, dict[str, pd.DataFrame]]]:
    for b in batches:
        yield b, run_batch(spec, b)


def _processes(spec: RunSpec, batches: list[int], workers: int) -> Iterator[tuple[int, dict[str, pd.DataFrame]]]:
    # fork: a spawned child would re-run `python -m analyzer`'s main module; fall back where there is no fork.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=multiprocessing.get_context(method), initializer=die_with_parent,
        initargs=(os.getpid(),),
    ) as pool:
        futures = {pool.submit(run_batch, spec, b): b for b in batches}
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            for future in futures:
                future.cancel()


@contextlib.contextmanager
def _blank_main() -> Iterator[None]:
    """A blank ``__main__`` while worker processes start.

    Dask's nanny starts its workers by "spawn", which re-runs the file of the caller's ``__main__`` in
    each child. The workers need nothing from it (:func:`run_batch` is imported from here), and the
    callers' mains cannot be re-run: a Streamlit script would run the whole app in each worker, and
    a test runner's or notebook's main fails on its own, killing the worker as it starts.
    """
    main = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = main


def _dask(spec: RunSpec, batches: list[int], workers: int, scheduler: str | None) -> Iterator[tuple[int, dict[str, pd.DataFrame]]]:
    distributed = require("distributed")
    Client, LocalCluster, dask_completed = distributed.Client, distributed.LocalCluster, distributed.as_completed
    cluster = None
    if scheduler is None:
        with _blank_main():
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(scheduler)
    try:
        spec_future = client.scatter(spec, broadcast=True)
        futures = {client.submit(run_batch, spec_future, b, pure=False): b for b in batches}
        for future in dask_completed(list(futures)):
            yield futures[future], future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# ---------------------------------------------------------------------------------- results
@dataclass
class SimulationResult:
    """The tables of a run (see the module docstring), its parameters and how long it took."""

    games: pd.DataFrame
    seats: pd.DataFrame
    eliminations: pd.DataFrame
    trades: pd.DataFrame
    starts: pd.DataFrame
    turns: pd.DataFrame
    params: dict[str, Any] = field(default_factory=dict)
    seconds: float = float("nan")
    games_played: int = 0  # games played by this call, excluding those resumed from a checkpoint
    turns_played: int = 0  # their player-turns

    def tables(self) -> dict[str, pd.DataFrame]:
        return {name: getattr(self, name) for name in TABLES}

    @property
    def games_per_second(self) -> float:
        return self.games_played / self.seconds if self.seconds > 0 else float("nan")

    def win_rates(self, by: str = "seat", confidence: float = 0.95) -> pd.DataFrame:
        """Win rate per ``"seat"`` or per ``"bot"`` with Wilson intervals.

        Per bot, each seat it plays in each game is one trial; its seats in one
        game cannot both win, so the interval is if anything a little wide.
        """
        if by not in ("seat", "bot"):
            raise SimulationError(f"win rates are by 'seat' or 'bot', got {by!r}")
        seats = self.seats.assign(won=self.seats["rank"].eq(1) & self.seats["game"].map(~self.games.set_index("game")["capped"]))
        grouped = seats.groupby(by, sort=True).agg(wins=("won", "sum"), games=("won", "count"), bot=("bot", "first"))
        rows = []
        for key, row in grouped.iterrows():
            wins, n = int(row["wins"]), int(row["games"])
            low, high = wilson_interval(wins, n, confidence)
            rows.append({by: key, "games": n, "wins": wins, "win_rate": wins / n, "ci_low": low, "ci_high": high})
            if by == "seat":
                rows[-1]["bot"] = row["bot"]
        return pd.DataFrame(rows)

    def summary(self) -> dict[str, Any]:
        """Plain-JSON summary: win rates per seat and per bot, capped games, turns and speed."""
        turns = self.games["turns"]
        return {
            "games": len(self.games),
            "capped": int(self.games["capped"].sum()),
            "by_seat": self.win_rates("seat").to_dict("records"),
            "by_bot": self.win_rates("bot").to_dict("records"),
            "mean_turns": float(turns.mean()) if len(turns) else float("nan"),
            "median_turns": float(turns.median()) if len(turns) else float("nan"),
            "seconds": self.seconds,
            "games_played": self.games_played,
            "games_per_second": self.games_per_second,
            "player_turns_per_second": self.turns_played / self.seconds if self.seconds > 0 else float("nan"),
        }

    def save(self, path: str | Path, fmt: str = "parquet") -> list[Path]:
        """Write the tables: ``games`` to ``path``, the others beside it as ``STEM.TABLE.EXT``.

        ``fmt`` is ``"parquet"`` (the default) or ``"csv"``. Returns the paths written.
        """
        if fmt not in ("parquet", "csv"):
            raise SimulationError(f"output format must be parquet or csv, got {fmt!r}")
        if fmt == "parquet":
            require("pyarrow")
        path = Path(path)
        written = []
        for name, frame in self.tables().items():
            target = path if name == "games" else table_path(path, name)
            tmp = target.with_name(target.name + ".tmp")
            if fmt == "parquet":
                frame.to_parquet(tmp, index=False)
            else:
                frame.to_csv(tmp, index=False)
            os.replace(tmp, target)
            written.append(target)
        return written

    @classmethod
    def load(cls, path: str | Path) -> SimulationResult:
        """Read back what :meth:`save` wrote in Parquet."""
        require("pyarrow")
        path = Path(path)
        frames = {name: pd.read_parquet(path if name == "games" else table_path(path, name)) for name in TABLES}
        return cls(**frames)


def table_path(path: Path, table: str) -> Path:
    """Where :meth:`SimulationResult.save` puts ``table`` next to ``path``: ``results.parquet`` →
    ``results.seats.parquet``."""
    return path.with_name(f"{path.stem}.{table}{path.suffix}")


def _concat(parts: list[dict[str, pd.DataFrame]], name: str) -> pd.DataFrame:
    frames = [p[name] for p in parts if len(p[name])]
    if not frames:
        return _frame(name, {})
    return pd.concat(frames, ignore_index=True)


def resolve_bots(bots: Sequence[Bot | str], n_players: int) -> tuple[tuple[Bot, ...], tuple[str, ...]]:
    """Bot objects and names for each seat, from names (see :func:`analyzer.bots.make_bot`) or objects.

    A string is a comma-separated list, or one name for every seat.
    """
    if isinstance(bots, str):
        bots = bots.split(",") if "," in bots else [bots] * n_players
    if len(bots) != n_players:
        raise SimulationError(f"{n_players} players need {n_players} bots, one per seat; got {len(bots)}: {list(bots)!r}")
    objects, names = [], []
    for b in bots:
        if isinstance(b, str):
            objects.append(make_bot(b))
            names.append(b.strip())
        else:
            if not isinstance(b, Bot):
                raise BotError(f"{b!r} is not a bot: it has no choose(state, rng) method")
            objects.append(b)
            names.append(type(b).__name__)
    return tuple(objects), tuple(names)


def _check_count(value: object, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise SimulationError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    return int(value)


def simulate(
    n_players: int,
    bots: Sequence[Bot | str] | str,
    n_games: int,
    seed: int = 0,
    *,
    rules: Rules | None = None,
    board: Board | None = None,
    max_rounds: int = MAX_ROUNDS,
    sample_battles: bool = True,
    record_turns: bool = False,
    check: bool = False,
    compiled: bool = True,
    workers: int = 1,
    dask: bool = False,
    scheduler: str | None = None,
    checkpoint: str | Path | None = None,
    batch_size: int | None = None,
    progress: bool = True,
    start: GameState | None = None,
) -> SimulationResult:
    """Play ``n_games`` games and return their tables (see the module docstring).

    ``bots`` gives each seat's bot, as objects or names (``"random"``,
    ``"default"``, ... or ``module:Class``), or one name for every seat. ``workers`` local processes play
    batches of ``batch_size`` games (by default 1000 when every game runs compiled, else 100;
    with ``workers=1`` in this process); ``dask`` starts a
    Dask LocalCluster of that many workers instead, and ``scheduler`` uses an
    existing Dask scheduler at that address. With ``checkpoint`` (a
    directory), finished batches are written there as they finish and a rerun
    resumes (see :class:`Checkpoint`). ``start`` plays every game on from a
    copy of that position instead of from a new game; cards it holds face
    down (:attr:`GameState.face_down`) are drawn afresh in each game, from that
    game's generator, among the cards not yet seen
    (:func:`analyzer.game.face_down.determinize`). ``compiled=False`` plays
    every game through the Python loop :func:`play` even where the compiled
    playout could (the same games, more slowly: the baseline of ``make bench``).
    """
    n_players = _check_count(n_players, "players", 2)
    if start is not None:
        if not isinstance(start, GameState):
            raise SimulationError(f"start must be a GameState, got {type(start).__name__}")
        # The compiled playout trusts the position: prove it first (it may have been edited by hand).
        validate(start, replay=False)
        if start.is_terminal():
            raise SimulationError("the start position is already over: there is nothing to play")
        n_players = start.n_players
    elif n_players > MAX_PLAYERS:
        raise SimulationError(f"the game is for {PLAYER_COUNT_TEXT} players, got {n_players}")
    n_games = check_limit(_check_count(n_games, "games", 1), limits.MAX_GAMES, "games", SimulationError)
    seed = _check_count(seed, "seed", 0)
    workers = check_limit(_check_count(workers, "workers", 1), limits.max_workers(),
                          "workers (four per CPU; analyzer.limits.max_workers())", SimulationError)
    bot_objects, names = resolve_bots(bots, n_players)
    if not all(trusted_bot(b) for b in bot_objects):
        check = True
    if batch_size is None:
        batch_size = COMPILED_BATCH_SIZE if _runs_compiled(bot_objects, compiled, check) else BATCH_SIZE
    batch_size = check_limit(_check_count(batch_size, "batch size", 1), limits.MAX_BATCH_SIZE, "batch size", SimulationError)
    max_rounds = check_limit(_check_count(max_rounds, "max rounds", 1), limits.MAX_ROUNDS, "max rounds", SimulationError, "MAX_ROUNDS")
    playout.check_battle_mode(start.rules if start is not None else rules if rules is not None else Rules(), sample_battles)
    spec = RunSpec(
        n_players=n_players,
        bots=bot_objects,
        bot_names=names,
        n_games=n_games,
        seed=seed,
        rules=rules if rules is not None else Rules(),
        board=board,
        max_rounds=max_rounds,
        sample_battles=sample_battles,
        record_turns=record_turns,
        check=check,
        compiled=compiled,
        batch_size=batch_size,
        start=None if start is None else start.to_json(history=False),
    )
    store = Checkpoint(checkpoint, spec.params()) if checkpoint is not None else None
    parts: dict[int, dict[str, pd.DataFrame]] = {}
    # Finished batches are known by their markers; their tables are read after the new games.
    finished = sorted(b for b in store.finished() if b < spec.n_batches) if store is not None else []
    todo = [b for b in range(spec.n_batches) if b not in set(finished)]
    resumed = sum(len(spec.batch_games(b)) for b in finished)

    if dask or scheduler is not None:
        results = _dask(spec, todo, workers, scheduler)
    elif workers > 1 and len(todo) > 1:
        results = _processes(spec, todo, workers)
    else:
        results = _serial(spec, todo)

    turns_played = 0
    started = time.perf_counter()
    with tqdm(total=n_games, initial=resumed, unit="game", disable=not progress, smoothing=0.1) as bar:
        for b, frames in results:
            if store is not None:
                store.save(b, frames)
            parts[b] = frames
            turns_played += int(frames["games"]["turns"].sum())
            bar.update(len(spec.batch_games(b)))
        for b in finished:
            assert store is not None
            loaded = store.load(b)
            if loaded is None:  # damaged: set aside by load(); play its games again
                loaded = run_batch(spec, b)
                store.save(b, loaded)
                resumed -= len(spec.batch_games(b))
                turns_played += int(loaded["games"]["turns"].sum())
            parts[b] = loaded
    seconds = time.perf_counter() - started
    ordered = [parts[b] for b in range(spec.n_batches)]
    return SimulationResult(
        **{name: _concat(ordered, name) for name in TABLES},
        params=spec.params(),
        seconds=seconds,
        games_played=n_games - resumed,
        turns_played=turns_played,
    )
