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
through the same rule steps and bot decisions as the Python loop
:func:`~analyzer.sim.play.play_game`,
drawing the same random numbers in the same order: the tables are identical
either way (``check=True`` forces the Python loop, which checks every action).
A bot that changes only the claiming draft (the studies' random openings) names
the bot it plays as afterwards in an ``after_draft`` attribute
(:func:`~analyzer.sim.runs.after_draft`): its claims are made in Python and the game goes on compiled.

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

The tables are described in :mod:`analyzer.sim.records`; the run's other parts live beside this
module: :mod:`~analyzer.sim.runs` (what a run is and each game's generator),
:mod:`~analyzer.sim.play` (a game in Python), :mod:`~analyzer.sim.battles` (a battle in one draw),
:mod:`~analyzer.sim.backends` (where batches are played) and :mod:`~analyzer.sim.result`.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd
from tqdm.auto import tqdm

from analyzer import limits
from analyzer.bots.base import Bot
from analyzer.errors import SimulationError
from analyzer.game.board import Board
from analyzer.game.rules import Rules
from analyzer.game.state import GameState, validate
from analyzer.game.vocabulary import player_count
from analyzer.integers import whole_number
from analyzer.limits import check_limit
from analyzer.sim import backends, playout
from analyzer.sim.checkpoints import TABLES, Checkpoint
from analyzer.sim.interrupts import between_batches
from analyzer.sim.records import run_batch
from analyzer.sim.result import SimulationResult, concat_tables
from analyzer.sim.runs import (
    BATCH_SIZE,
    COMPILED_BATCH_SIZE,
    DEFAULT_MAX_ROUNDS,
    RunSpec,
    plays_compiled,
    resolve_bots,
    trusted_bot,
)


def _check_count(value: object, name: str, minimum: int) -> int:
    return whole_number(value, name, minimum, SimulationError)


def simulate(
    n_players: int,
    bots: Sequence[Bot | str] | str,
    n_games: int,
    seed: int = 0,
    *,
    rules: Rules | None = None,
    board: Board | None = None,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
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
    """Play ``n_games`` games and return their tables (see :mod:`analyzer.sim.records`).

    ``bots`` gives each seat's bot, as objects or names (``"random"``,
    ``"default"``, ... or ``module:Class``), or one name for every seat. ``workers`` local processes play
    batches of ``batch_size`` games (by default 1000 when every game runs compiled, else 100;
    with ``workers=1`` in this process); ``dask`` starts a
    Dask LocalCluster of that many workers instead, and ``scheduler`` uses an
    existing Dask scheduler at that address. With ``checkpoint`` (a
    directory), finished batches are written there as they finish and a rerun
    resumes (see :class:`~analyzer.sim.checkpoints.Checkpoint`). ``start`` plays every game on from a
    copy of that position instead of from a new game; cards it holds face
    down (:attr:`~analyzer.game.state.GameState.face_down`) are drawn afresh in each game, from that
    game's generator, among the cards not yet seen
    (:func:`analyzer.game.face_down.determinize`). ``compiled=False`` plays
    every game through the Python loop :func:`~analyzer.sim.play.play_game` even where the compiled
    playout could (the same games, more slowly: the baseline of ``make bench``).
    """
    n_players = player_count(n_players, "n_players", SimulationError)
    if start is not None:
        if not isinstance(start, GameState):
            raise SimulationError(f"start must be a GameState, got {type(start).__name__}")
        # The compiled playout trusts the position: prove it first (it may have been edited by hand).
        validate(start, replay=False)
        if start.is_terminal():
            raise SimulationError("the start position is already over: there is nothing to play")
        n_players = start.n_players
    n_games = check_limit(_check_count(n_games, "games", 1), limits.MAX_GAMES, "games", SimulationError)
    seed = _check_count(seed, "seed", 0)
    if isinstance(rules, Mapping):
        rules = Rules.from_dict(dict(rules))  # the options by name, as the command line's --rules takes them
    elif rules is not None and not isinstance(rules, Rules):
        raise SimulationError(f"rules must be a Rules or a dict of its options by name, got {type(rules).__name__}")
    workers = check_limit(
        _check_count(workers, "workers", 1),
        limits.max_workers(),
        "workers (four per CPU; analyzer.limits.max_workers())",
        SimulationError,
    )
    bot_objects, names = resolve_bots(bots, n_players)
    if not all(trusted_bot(b) for b in bot_objects):
        check = True
    if batch_size is None:
        batch_size = COMPILED_BATCH_SIZE if plays_compiled(bot_objects, compiled, check) else BATCH_SIZE
    batch_size = check_limit(
        _check_count(batch_size, "batch size", 1), limits.MAX_BATCH_SIZE, "batch size", SimulationError
    )
    max_rounds = check_limit(
        _check_count(max_rounds, "max rounds", 1), limits.MAX_ROUNDS, "max rounds", SimulationError, "MAX_ROUNDS"
    )
    playout.check_battle_mode(
        start.rules if start is not None else rules if rules is not None else Rules(), sample_battles
    )
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

    turns_played = 0
    started = time.perf_counter()
    with (
        between_batches() as stop_if_interrupted,
        tqdm(total=n_games, initial=resumed, unit="game", disable=not progress, smoothing=0.1) as bar,
    ):
        # Played here, the bar moves game by game; from other processes, as their batches come back.
        here = backends.plays_here(todo, workers=workers, dask=dask, scheduler=scheduler)
        task = functools.partial(run_batch, on_game=lambda: bar.update(1)) if here else run_batch
        results = backends.run_tasks(task, spec, todo, workers=workers, dask=dask, scheduler=scheduler)
        for b, frames in results:
            if store is not None:
                store.save(b, frames)
            parts[b] = frames
            turns_played += int(frames["games"]["turns"].sum())
            if not here:
                bar.update(len(spec.batch_games(b)))
            stop_if_interrupted()
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
        **{name: concat_tables(ordered, name) for name in TABLES},
        params=spec.params(),
        seconds=seconds,
        games_played=n_games - resumed,
        turns_played=turns_played,
    )
