"""Continent value: what holding a continent is worth, what it costs to defend, and to take.

* :func:`continent_facts`: each continent's bonus per territory and per border
  territory (a territory with a neighbour outside, which the holder must
  defend), straight from the board.
* :func:`conquest_costs`: the exact expected cost of taking each continent
  from uniform defending stacks, and the armies that take it with a given
  probability, from the battle solver.
* :func:`holding_value`: the change in win probability that goes with holding
  each continent at the end of round t, from simulated games
  (:func:`play_continents` or :func:`continent_holdings`).

>>> facts = continent_facts().set_index("continent")
>>> facts.loc["Australia", "bonus_per_border"], facts.loc["South America", "bonus_per_border"]
(np.float64(2.0), np.float64(1.0))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.bots.base import Bot
from analyzer.errors import StudyError
from analyzer.game.board import Board, classic_board
from analyzer.sim.intervals import win_rate
from analyzer.sim.result import SimulationResult
from analyzer.sim.runs import BATCH_SIZE
from analyzer.sim.simulate import simulate
from analyzer.solver.battle import CLASSIC, BattleOptions, battle
from analyzer.solver.chains import conquest
from analyzer.studies.openings import slug
from analyzer.studies.policies import population_bot
from analyzer.studies.replay import Replay
from analyzer.studies.stats import BOOTSTRAP_RESAMPLES, check_confidence, check_count, rate_difference

#: Rounds after which :func:`play_continents` reads who holds what.
ROUNDS = 5
#: Width, in territories, of the bands within which :func:`holding_value` compares holders with the rest.
TERRITORY_BAND = 3


# ---------------------------------------------------------------------------------- the board
def continent_facts(board: Board | None = None) -> pd.DataFrame:
    """One row per continent: ``continent``, ``bonus``, ``territories``, ``border_territories`` (with
    a neighbour outside the continent), ``entry_points`` (territories outside that border it),
    ``bonus_per_territory`` and ``bonus_per_border``."""
    board = board if board is not None else classic_board()
    rows = []
    for continent in board.continents:
        members = set(continent.territories)
        borders = [t for t in members if any(n not in members for n in board.neighbors[t])]
        entries = {n for t in members for n in board.neighbors[t] if n not in members}
        rows.append(
            {
                "continent": continent.name,
                "bonus": continent.bonus,
                "territories": len(members),
                "border_territories": len(borders),
                "entry_points": len(entries),
                "bonus_per_territory": continent.bonus / len(members),
                "bonus_per_border": continent.bonus / len(borders) if borders else float("inf"),
            }
        )
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------- the solver
def conquest_costs(
    defenders: Sequence[int] = (1, 2, 3, 5),
    probabilities: Sequence[float] = (0.5, 0.8, 0.95),
    *,
    board: Board | None = None,
    options: BattleOptions = CLASSIC,
) -> pd.DataFrame:
    """What it takes to conquer each continent when every territory in it holds ``d`` armies.

    One row per continent, ``d`` in ``defenders`` and target probability
    ``p`` in ``probabilities``:

    * ``expected_losses``: the exact expected armies lost in taking every
      territory with a stack big enough always to roll three dice (the
      solver's expectation for each battle, summed);
    * ``expected_cost``: those losses plus the army left in each conquered
      territory;
    * ``rounds_to_repay``: ``expected_cost`` over the continent's bonus;
    * ``armies_needed``: the fewest armies on one territory outside the
      continent (``entry``, the best one) that take all of it with probability
      at least ``target_p``, attacking by the plan of
      :func:`analyzer.solver.chains.conquest` and leaving one army behind in each
      territory it moves on from.

    >>> costs = conquest_costs([2], [0.5])
    >>> row = costs.set_index("continent").loc["Australia"]
    >>> row["entry"], int(row["armies_needed"]), round(float(row["expected_losses"]), 3)
    ('Siam', 14, 6.186)
    """
    board = board if board is not None else classic_board()
    stacks = [check_count(d, "defenders per territory", 1) for d in defenders]
    targets_p = [float(p) for p in probabilities]
    if not stacks or not targets_p or any(not 0 < p < 1 for p in targets_p):
        raise StudyError(
            f"need at least one defender count and probabilities strictly between 0 and 1, got {list(defenders)!r} and {list(probabilities)!r}"
        )
    names = board.territories
    borders = [(names[b.a], names[b.b]) for b in board.borders]
    rows = []
    for continent in board.continents:
        members = set(continent.territories)
        entries = sorted({n for t in members for n in board.neighbors[t] if n not in members})
        for d in stacks:
            losses = len(members) * _overwhelming_losses(d, options)
            targets = {names[t]: d for t in members}
            for p in targets_p:
                best = min(
                    ((_armies_needed(names[e], targets, borders, p, options), names[e]) for e in entries),
                    key=lambda found: found[0],
                )
                rows.append(
                    {
                        "continent": continent.name,
                        "bonus": continent.bonus,
                        "territories": len(members),
                        "defenders": d,
                        "expected_losses": losses,
                        "expected_cost": losses + len(members),
                        "rounds_to_repay": (losses + len(members)) / continent.bonus
                        if continent.bonus
                        else float("inf"),
                        "target_p": p,
                        "armies_needed": best[0],
                        "entry": best[1],
                    }
                )
    return pd.DataFrame(rows)


def _overwhelming_losses(defenders: int, options: BattleOptions) -> float:
    # With ten armies per defender and fifty more, the stack never gets low enough to roll fewer than
    # three dice except with a probability far below the float's resolution.
    result = battle(10 * defenders + 50, defenders, options=options)
    if result.p_win < 1 - 1e-9:
        raise StudyError(f"internal: a stack of {result.attackers} is not overwhelming against {defenders}")
    return result.expected_attacker_losses


def _armies_needed(
    entry: str, targets: dict[str, int], borders: list[tuple[str, str]], p: float, options: BattleOptions
) -> int:
    """Fewest armies on ``entry`` taking every target with probability >= ``p`` (more armies never hurt)."""

    def chance(armies: int) -> float:
        return conquest({entry: armies}, targets, borders, options=options).p_all

    low, high = 1, 2
    while chance(high) < p:
        low, high = high, 2 * high
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if chance(middle) >= p else (middle, high)
    return high


# ---------------------------------------------------------------------------------- simulated games
def continent_holdings(result: SimulationResult, bots: Sequence[Bot | str] | str, rounds: int = ROUNDS) -> pd.DataFrame:
    """Who holds which continent at the end of each of the first ``rounds`` rounds of every game.

    One row per game, round and seat still in the game then, for games not
    yet won: ``game``, ``n_players``, ``round``, ``seat``, ``territories``,
    ``armies``, ``won`` (the seat went on to win the game) and one
    ``holds_<continent>`` column per continent. The run must have been
    simulated with ``record_turns=True`` and ``bots``: the rounds are replayed
    (:class:`~analyzer.studies.replay.Replay`) and checked, turn by turn,
    against the territories, armies and continent counts the simulator recorded.
    """
    rounds = check_count(rounds, "rounds", 1)
    if not result.params.get("record_turns"):
        raise StudyError("continent holdings need a run simulated with record_turns=True, to check the replay against")
    replay = Replay.of(result, bots)
    board = replay.board
    n = replay.n_players
    masks = np.asarray(board.continent_masks)
    winners = result.games.set_index("game")["winner"]
    recorded = result.turns.set_index(["game", "turn", "seat"])[["territories", "armies", "continents"]]
    columns: dict[str, list] = {k: [] for k in ("game", "round", "turn", "seat", "territories", "armies", "won")}
    held_rows = []
    for game in result.games["game"].to_numpy():
        winner = winners.loc[game]
        for snap in replay.rounds(int(game), rounds):
            for seat in range(n):
                mine = snap.owner == seat
                if not mine.any():
                    continue
                columns["game"].append(int(game))
                columns["round"].append(snap.round)
                columns["turn"].append(snap.turn)
                columns["seat"].append(seat)
                columns["territories"].append(int(mine.sum()))
                columns["armies"].append(int(snap.armies[mine].sum()))
                columns["won"].append(bool(winner == seat) if not pd.isna(winner) else False)
                held_rows.append(np.all(mine | ~masks, axis=1))
    frame = pd.DataFrame(columns)
    held = np.array(held_rows, dtype=bool).reshape(len(frame), len(masks))
    key = pd.MultiIndex.from_frame(frame[["game", "turn", "seat"]])
    check = recorded.reindex(key)
    if (
        check["territories"].isna().any()
        or not np.array_equal(check["territories"].to_numpy(dtype=np.int64), frame["territories"].to_numpy())
        or not np.array_equal(check["armies"].to_numpy(dtype=np.int64), frame["armies"].to_numpy())
        or not np.array_equal(check["continents"].to_numpy(dtype=np.int64), held.sum(axis=1))
    ):
        raise StudyError(
            "the replayed rounds do not match the turns the simulator recorded: were these the run's bots?"
        )
    frame.insert(1, "n_players", n)
    for c, continent in enumerate(board.continents):
        frame[f"holds_{slug(continent.name)}"] = held[:, c]
    return frame.drop(columns="turn")


@dataclass(frozen=True)
class ContinentRun:
    """A run of :func:`play_continents`: the simulator's tables and :func:`continent_holdings`."""

    result: SimulationResult
    holdings: pd.DataFrame


def play_continents(
    n_players: int,
    n_games: int,
    seed: int = 0,
    *,
    population: str = "classic",
    bots: Sequence[Bot | str] | str | None = None,
    rounds: int = ROUNDS,
    workers: int = 1,
    dask: bool = False,
    scheduler: str | None = None,
    batch_size: int = BATCH_SIZE,
    progress: bool = False,
) -> ContinentRun:
    """Simulate ``n_games`` games between the ``population``'s bots (a name of
    :data:`~analyzer.studies.policies.POPULATIONS` or ``"default"``; ``bots`` replaces them: one name for every seat, or one bot per
    seat) and read who held which continent after each of the first ``rounds`` rounds. The other
    options are :func:`~analyzer.sim.simulate.simulate`'s."""
    if bots is None:
        bots = [population_bot(population)] * n_players
    result = simulate(
        n_players,
        bots,
        n_games,
        seed,
        record_turns=True,
        workers=workers,
        dask=dask,
        scheduler=scheduler,
        batch_size=batch_size,
        progress=progress,
    )
    return ContinentRun(result, continent_holdings(result, bots, rounds))


def holding_value(
    holdings: pd.DataFrame,
    *,
    confidence: float = 0.95,
    n_resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
) -> pd.DataFrame:
    """The win rate of seats holding each continent at the end of each round against the others'.

    Among the seats still in games not yet won at the end of round ``round``,
    one row per player count, round and continent: the holders' win rate
    (``holder_games`` seats, ``holder_wins``, ``holder_win_rate``, Wilson's ``holder_ci_low`` ..
    ``holder_ci_high``), the others' (the same columns, ``other_*``),
    ``difference`` (holders' rate minus the others') and ``adjusted``: the
    same difference within bands of :data:`TERRITORY_BAND` territories,
    averaged over the holders' bands, so that it compares holders with seats
    of the same size. Both differences carry bootstrap intervals over games
    (``difference_low`` .. ``difference_high``, ``adjusted_low`` ..
    ``adjusted_high``), drawn from ``seed``; NaN where no seat held the
    continent.
    """
    confidence = check_confidence(confidence)
    n_resamples = check_count(n_resamples, "n_resamples", 2)
    seed = check_count(seed, "seed", 0)
    continents = [c for c in holdings.columns if c.startswith("holds_")]
    needed = ["game", "n_players", "round", "territories", "won"]
    missing = [c for c in needed if c not in holdings.columns]
    if missing or not continents:
        raise StudyError(
            f"the holdings table lacks {', '.join(missing) or 'holds_<continent> columns'}: build it with continent_holdings()"
        )
    groups = list(holdings.groupby(["n_players", "round"], sort=True))
    streams = iter(np.random.SeedSequence(seed).spawn(len(groups) * len(continents)))
    rows = []
    for (n, r), part in groups:
        game = part["game"].to_numpy()
        won = part["won"].to_numpy(dtype=bool)
        band = part["territories"].to_numpy() // TERRITORY_BAND
        for column in continents:
            held = part[column].to_numpy(dtype=bool)
            rng = np.random.default_rng(next(streams))
            row = {"n_players": int(n), "round": int(r), "continent": column[6:].replace("_", " ").title()}
            for prefix, mask in (("holder", held), ("other", ~held)):
                row |= win_rate(int(won[mask].sum()), int(mask.sum()), confidence, prefix=f"{prefix}_")
            for name, strata in (("difference", None), ("adjusted", band)):
                if held.any() and (~held).any():
                    d = rate_difference(
                        game, won, held, strata=strata, confidence=confidence, n_resamples=n_resamples, rng=rng
                    )
                    row[name], row[f"{name}_low"], row[f"{name}_high"] = d.estimate, d.ci_low, d.ci_high
                else:
                    row[name] = row[f"{name}_low"] = row[f"{name}_high"] = float("nan")
            rows.append(row)
    return pd.DataFrame(rows)
