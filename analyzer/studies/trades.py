"""Trade now or hold? The value of trading a set this turn, from real positions, on common random numbers.

A controlled experiment on one decision at the table. Games are played by a population's bots
(:data:`~analyzer.studies.policies.POPULATIONS`) until, at the start of some player's turn, the
**mover** holds a set and is not forced to trade (3 or 4 cards). There the game branches in two:

* **trade**: the mover trades its best set (the most armies, :func:`~analyzer.studies.eliminations.best_trade`),
  then its bot plays the turn;
* **hold**: its bot plays the turn, but wherever it would trade a set without being forced it decides
  as if it held no cards (:func:`hold_turn`); a trade it is forced into (six cards after a kill) stands.

Each arm then plays on to the end with the population's bots, ``rollouts`` times; rollout ``r`` of both
arms draws from one generator seed (common random numbers), so the two arms differ by the trade
alone until their play diverges. The value of trading now is the mover's win rate after *trade*
minus after *hold*, paired by position. Positions are found one per game, in games whose first
:data:`~analyzer.studies.eliminations.SET_BANDS` band is drawn at random (so every set value is
sampled), each eligible turn taken with probability :data:`TAKE`, so that positions spread over the game.

Each position records what a player sees: the next set's value, the cards in hand, the players
left, the mover's share of the armies (its band relative to an even share, :func:`share_band`) and
whether an elimination that hands over cards is within reach this turn (the best set traded;
:func:`~analyzer.studies.eliminations.opportunity`).

The work is split by game: game ``g`` at ``n`` players draws every random number from
``SeedSequence(seed, spawn_key=(n, g, ...))``, so the table is the same whichever backend plays it
(:func:`analyzer.sim.backends.run_tasks`: this process, local workers or Dask).

>>> [share_band(s, 4) for s in (0.1, 0.25, 0.4)]
['behind', 'even', 'ahead']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.bots.base import BattleOrder, Bot
from analyzer.bots.heuristic import HeuristicBot
from analyzer.errors import StudyError
from analyzer.game.actions import Trade
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.game.vocabulary import DISCARD, Phase
from analyzer.sim.backends import run_tasks
from analyzer.sim.battles import resolve_order
from analyzer.sim.playout import Prepared, play_events
from analyzer.sim.runs import DEFAULT_MAX_ROUNDS
from analyzer.studies.cards import PLAYER_COUNTS
from analyzer.studies.eliminations import SET_BANDS, best_trade, opportunity, set_band
from analyzer.studies.policies import population_bot, population_name
from analyzer.studies.stats import MIN_POSITIONS, advice, check_confidence, check_count, paired_difference, verdicts

#: The chance that an eligible turn (past the game's drawn set band) is the one taken.
TAKE = 0.5
#: Games per task: a task's positions depend on its games alone.
CHUNK = 25
#: The mover's share of the armies times the players left: below the first figure it is ``behind``,
#: from it to the second ``even``, above ``ahead``.
SHARE_BANDS = (0.8, 1.25)
#: The columns of :func:`play_trade_choices`' table, before ``population``.
POSITION_COLUMNS = [
    "game",
    "n_players",
    "players_left",
    "round",
    "mover",
    "sets_traded",
    "set_band",
    "set_value",
    "cards",
    "army_share",
    "share_band",
    "kill_in_reach",
    "p_kill",
    "victim_cards",
    "bot_trades",
    "win_trade",
    "win_hold",
]
#: The factors :func:`trade_value` is read by, one at a time, in :func:`trade_factors`.
FACTORS = ("set_band", "cards", "players_left", "share_band", "kill_in_reach")


def share_band(share: float, players_left: int) -> str:
    """``behind``, ``even`` or ``ahead``: the mover's share of the armies against an even share
    (``1 / players_left``), cut at :data:`SHARE_BANDS`."""
    ratio = share * players_left
    return "behind" if ratio < SHARE_BANDS[0] else "even" if ratio <= SHARE_BANDS[1] else "ahead"


def eligible(state: GameState) -> bool:
    """At the start of a turn (reinforcement, nothing placed), the mover holds a set and is not forced to trade."""
    return (
        state.phase == Phase.REINFORCE
        and not state.resume_attack
        and not state.must_trade()
        and bool(state.legal_trades())
        and not any(t.player == state.player and t.turn == state.turn for t in state.trades)
    )


def _rng(seed: int, *key: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


def _step(state: GameState, decision: object, rng: np.random.Generator) -> None:
    state.apply(resolve_order(state, decision, rng) if isinstance(decision, BattleOrder) else decision)  # type: ignore[arg-type]


def find_trade_position(
    n_players: int, bot: Bot, rng: np.random.Generator, min_sets: int = 0, take: float = TAKE
) -> GameState | None:
    """Play a game with ``bot`` in every seat until an :func:`eligible` turn with at least ``min_sets``
    sets traded is taken (each with probability ``take``); that turn's start, or None if the game ended first."""
    state = GameState.new(n_players, rng, Rules(turn_limit=DEFAULT_MAX_ROUNDS))
    turn = -1
    while state.phase != Phase.GAME_OVER:
        if state.phase in (Phase.ROLL, Phase.DRAW):
            state.apply_chance(rng)
            continue
        if state.turn != turn and state.phase == Phase.REINFORCE:
            turn = state.turn
            if state.sets_traded >= min_sets and eligible(state) and rng.random() < take:
                return state
        decision = bot.choose(state, rng)
        state.apply_unchecked(resolve_order(state, decision, rng) if isinstance(decision, BattleOrder) else decision)
    return None


def _play_turn(state: GameState, bot: Bot, rng: np.random.Generator, hold: bool) -> None:
    """``bot`` plays the mover's turn until it passes or the game ends; with ``hold``, a trade it is
    not forced into is replaced by its decision with its hand hidden (the same position, no cards)."""
    turn = state.turn
    while state.turn == turn and state.phase != Phase.GAME_OVER:
        if state.phase in (Phase.ROLL, Phase.DRAW):
            state.apply_chance(rng)
            continue
        decision = bot.choose(state, rng)
        if hold and isinstance(decision, Trade) and not state.must_trade():
            blind = state.copy()
            blind.card_loc[blind.card_loc == state.player] = DISCARD
            decision = bot.choose(blind, rng)
        _step(state, decision, rng)


def trade_turn(state: GameState, bot: Bot, rng: np.random.Generator) -> Trade:
    """The *trade* arm's turn: the best set traded now, then ``bot``'s turn. Returns the trade."""
    trade = best_trade(state)
    if trade is None:
        raise StudyError("the mover holds no set to trade")
    state.apply(trade)
    _play_turn(state, bot, rng, hold=False)
    return trade


def hold_turn(state: GameState, bot: Bot, rng: np.random.Generator) -> None:
    """The *hold* arm's turn: ``bot``'s turn without a trade it is not forced into."""
    _play_turn(state, bot, rng, hold=True)


@dataclass(frozen=True)
class Task:
    """What every task of one run shares: the population's bot, the seed, the rollouts per position."""

    population: str
    seed: int
    rollouts: int


def position_row(state: GameState, bot: Bot) -> dict[str, object]:
    """What a player sees at a position: the columns of :data:`POSITION_COLUMNS` from ``players_left``
    to ``bot_trades`` (whether the bot itself trades now)."""
    p = state.player
    left = int(np.count_nonzero(state.alive))
    on_board = state.owner >= 0
    share = float(state.armies[state.owner == p].sum() / state.armies[on_board].sum())
    found = opportunity(state)
    victim_cards = len(state.hand(found.victim)) if found is not None else 0
    first = bot.choose(state.copy(), np.random.default_rng(0))
    return {
        "players_left": left,
        "round": int(state.round),
        "mover": p,
        "sets_traded": int(state.sets_traded),
        "set_band": set_band(int(state.sets_traded)),
        "set_value": state.next_set_value(),
        "cards": len(state.hand(p)),
        "army_share": share,
        "share_band": share_band(share, left),
        "kill_in_reach": found is not None and victim_cards > 0,
        "p_kill": found.p_kill if found is not None else 0.0,
        "victim_cards": victim_cards,
        "bot_trades": isinstance(first, Trade),
    }


def play_games(task: Task, games: tuple[int, int, int]) -> list[dict[str, object]]:
    """The positions of games ``start`` .. ``stop - 1`` at ``n`` players (``games`` is ``(n, start, stop)``),
    both arms played from each: one row each (:data:`POSITION_COLUMNS`)."""
    n, start, stop = games
    bot = population_bot(task.population)
    rows = []
    prepared: Prepared | None = None
    for game in range(start, stop):
        rng = _rng(task.seed, n, game)
        band = SET_BANDS[int(rng.integers(len(SET_BANDS)))]
        state = find_trade_position(n, bot, rng, band[0])
        if state is None:
            continue
        if prepared is None:
            prepared = Prepared([bot] * n, state.board, state.rules.dice, state.rules.balanced_blitz)
        row: dict[str, object] = {"game": game, "n_players": n, **position_row(state, bot)}
        won = {"trade": 0, "hold": 0}
        for r in range(task.rollouts):
            for arm in ("trade", "hold"):
                branch, arm_rng = state.copy(), _rng(task.seed, n, game, 1, r)
                (trade_turn if arm == "trade" else hold_turn)(branch, bot, arm_rng)
                if branch.phase != Phase.GAME_OVER:
                    play_events(branch, prepared, arm_rng)
                won[arm] += branch.winner == state.player
        rows.append(row | {"win_trade": won["trade"] / task.rollouts, "win_hold": won["hold"] / task.rollouts})
    return rows


def play_trade_choices(
    population: str,
    n_games: int,
    seed: int = 0,
    *,
    player_counts: Sequence[int] = PLAYER_COUNTS,
    rollouts: int = 8,
    workers: int = 1,
    dask: bool = False,
    scheduler: str | None = None,
    chunk: int = CHUNK,
    first_game: int = 0,
) -> pd.DataFrame:
    """Search ``n_games`` games per player count of the ``population``'s bots for a position (see the
    module) and play both arms from each, ``rollouts`` times; ``workers``, ``dask`` and ``scheduler``
    as in :func:`~analyzer.sim.simulate.simulate` (the same table whichever is used). The games are
    numbered from ``first_game``: a run of games 0 to 999 then one of 1,000 to 1,999 make, together,
    the table of one run of 2,000.

    One row per position found, ordered by player count and game: the columns of
    :data:`POSITION_COLUMNS` (``win_trade`` and ``win_hold``: the mover's share of the rollouts won in
    each arm) and ``population``.
    """
    bot = population_bot(population)
    if not isinstance(bot, HeuristicBot):
        raise StudyError(f"the study plays on compiled, with a HeuristicBot family bot; got {type(bot).__name__}")
    n_games = check_count(n_games, "n_games", 1)
    rollouts = check_count(rollouts, "rollouts", 1)
    chunk = check_count(chunk, "chunk", 1)
    counts = [check_count(n, "players", 3) for n in player_counts]
    task = Task(population_name(population), check_count(seed, "seed", 0), rollouts)
    first_game = check_count(first_game, "first_game", 0)
    end = first_game + n_games
    items = [(n, g, min(g + chunk, end)) for n in counts for g in range(first_game, end, chunk)]
    done = dict(run_tasks(play_games, task, items, workers=workers, dask=dask, scheduler=scheduler))
    rows = [row for item in items for row in done[item]]
    return pd.DataFrame(rows, columns=POSITION_COLUMNS).assign(population=task.population)


def _cell(part: pd.DataFrame, confidence: float) -> dict[str, object]:
    row: dict[str, object] = {
        "positions": len(part),
        "win_trade": float(part["win_trade"].mean()),
        "win_hold": float(part["win_hold"].mean()),
        "bot_trades": float(part["bot_trades"].mean()),
    }
    if len(part) >= MIN_POSITIONS:
        d = paired_difference(part["win_trade"].to_numpy(), part["win_hold"].to_numpy(), confidence)
        row |= {"vs_baseline": d.estimate, "vs_baseline_low": d.ci_low, "vs_baseline_high": d.ci_high}
    else:
        row |= {"vs_baseline": np.nan, "vs_baseline_low": np.nan, "vs_baseline_high": np.nan}
    return row


def _advise(table: pd.DataFrame) -> pd.DataFrame:
    low, high = table["vs_baseline_low"].to_numpy(), table["vs_baseline_high"].to_numpy()
    return table.assign(
        verdict=verdicts(low, high), advice=advice(table["vs_baseline"].to_numpy(), low, high, "trade now", "hold")
    )


def trade_value(
    positions: pd.DataFrame, by: Sequence[str] = ("cards", "set_band"), confidence: float = 0.95
) -> pd.DataFrame:
    """Trade now minus hold, paired by position, in each cell of ``by`` and over each key alone
    (the others ``"all"``) and over all positions.

    Columns: ``by``, ``positions``, ``win_trade``, ``win_hold``, ``bot_trades`` (share of the positions
    in which the bot itself traded), ``vs_baseline`` (trade minus hold) with its paired t interval
    ``vs_baseline_low`` .. ``vs_baseline_high`` (NaN in a cell of fewer than :data:`MIN_POSITIONS`), ``verdict`` (:func:`~analyzer.studies.stats.verdicts`:
    ``holds`` when the interval excludes 0, ``equivalent`` when it lies within a point of 0, else
    ``mixed``) and ``advice`` (``trade now``, ``hold``, ``either`` or ``undecided``).
    """
    confidence = check_confidence(confidence)
    keys = list(by)
    missing = [c for c in [*keys, "win_trade", "win_hold", "bot_trades"] if c not in positions.columns]
    if missing:
        raise StudyError(f"the positions lack the column(s) {', '.join(missing)}: build them with play_trade_choices()")
    frame = positions.astype({k: str for k in keys})
    rows = []
    for kept in [keys, *([[k] for k in keys] if len(keys) > 1 else []), []]:
        groups = frame.groupby(kept, sort=True) if kept else [((), frame)]
        for key, part in groups:
            values = dict(zip(kept, key if isinstance(key, tuple) else (key,)))
            rows.append({k: values.get(k, "all") for k in keys} | _cell(part, confidence))
    return _advise(pd.DataFrame(rows))


def trade_factors(positions: pd.DataFrame, factors: Sequence[str] = FACTORS, confidence: float = 0.95) -> pd.DataFrame:
    """:func:`trade_value` by each factor alone, stacked: ``factor``, ``level``, then its columns."""
    frames = []
    for factor in factors:
        table = trade_value(positions, (factor,), confidence)
        table = table[table[factor] != "all"]
        frames.append(table.rename(columns={factor: "level"}).assign(factor=factor))
    out = pd.concat(frames, ignore_index=True)
    return out[["factor", "level", *[c for c in out.columns if c not in ("factor", "level")]]]


__all__ = [
    "FACTORS",
    "MIN_POSITIONS",
    "POSITION_COLUMNS",
    "SHARE_BANDS",
    "TAKE",
    "Task",
    "eligible",
    "find_trade_position",
    "hold_turn",
    "play_games",
    "play_trade_choices",
    "position_row",
    "share_band",
    "trade_factors",
    "trade_turn",
    "trade_value",
]
