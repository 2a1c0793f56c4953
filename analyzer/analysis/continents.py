"""Continents from a player's side: who holds each, what is missing, and the odds of completing it."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from analyzer.analysis.standing import continent_holders
from analyzer.game.board import Board
from analyzer.game.rules import reinforcement_from_territories
from analyzer.game.state import GameState
from analyzer.solver.chains import chain, conquest


@dataclass(frozen=True)
class ContinentStatus:
    """One continent seen by one player (``player``).

    ``borders`` are the continent's territories that border another continent:
    the ones its holder must defend. ``border_threat`` gives, for each, the
    largest stack of any other player (or the neutral force) next to it.
    ``missing`` are the territories ``player`` still lacks, with
    ``missing_defenders`` armies on them in all.

    Completing it is judged for this turn, before reinforcements: every stack of
    ``player``'s with more than ``stop_at`` armies that borders a missing
    territory (``staging``) attacks, in the plan of
    :func:`analyzer.solver.chains.conquest`. ``p_complete`` is the exact probability of
    taking every missing territory with that plan (1 if none is missing, 0 if
    no stack can reach one). ``expected_cost`` is the expected number of
    ``player``'s armies killed in those battles, won or lost: exact when each
    staging stack's share of the plan is a single path (``cost_exact``),
    otherwise the cost of fighting that share as one chain in the plan's order
    (branches split a stack, which changes the odds little but is not modelled).

    ``value_per_turn`` is what completing it adds to ``player``'s reinforcements
    each turn: the bonus, plus the rise in ``territories // 3`` from the
    territories taken.
    """

    continent: str
    bonus: int
    player: int
    holder: int | None
    owned: int
    size: int
    borders: tuple[str, ...]
    border_threat: dict[str, int]
    missing: tuple[str, ...]
    missing_defenders: int
    staging: dict[str, int]
    p_complete: float
    expected_cost: float
    cost_exact: bool
    plan: tuple[tuple[str, str], ...]
    method: str
    value_per_turn: int
    notes: str = field(default="")


def continent_status(state: GameState, player: int, *, stop_at: int = 1) -> list[ContinentStatus]:
    """A :class:`ContinentStatus` for each continent, seen by ``player``."""
    board = state.board
    names = board.territories
    mine = state.owner == player
    n_owned = int(mine.sum())
    out = []
    holders = state.continent_holders()
    for c, continent in enumerate(board.continents):
        members = continent.territories
        member_set = set(members)
        holder = holders[c]
        borders = tuple(names[t] for t in members if any(u not in member_set for u in board.neighbors[t]))
        threat = {
            names[t]: max((int(state.armies[u]) for u in board.neighbors[t] if state.owner[u] != player), default=0)
            for t in members
            if names[t] in borders
        }
        missing_ids = [t for t in members if not mine[t]]
        value = (
            continent.bonus
            + reinforcement_from_territories(n_owned + len(missing_ids))
            - reinforcement_from_territories(n_owned)
        )
        base = dict(
            continent=continent.name,
            bonus=continent.bonus,
            player=player,
            holder=holder,
            owned=len(members) - len(missing_ids),
            size=len(members),
            borders=borders,
            border_threat=threat,
            missing=tuple(names[t] for t in missing_ids),
            missing_defenders=int(state.armies[missing_ids].sum()),
            value_per_turn=value,
        )
        out.append(_completion(state, player, missing_ids, stop_at, base))
    return out


def _completion(
    state: GameState, player: int, missing: list[int], stop_at: int, base: dict[str, Any]
) -> ContinentStatus:
    board = state.board
    names = board.territories
    if not missing:
        return ContinentStatus(
            **base,
            staging={},
            p_complete=1.0,
            expected_cost=0.0,
            cost_exact=True,
            plan=(),
            method="held",
            notes="held in full",
        )
    staging = {
        names[s]: int(state.armies[s])
        for s in sorted({u for t in missing for u in board.neighbors[t]})
        if state.owner[s] == player and state.armies[s] > stop_at
    }
    reached = _reachable(board, staging, missing)
    if len(reached) < len(missing):
        cut_off = [names[t] for t in missing if t not in reached]
        return ContinentStatus(
            **base,
            staging=staging,
            p_complete=0.0,
            expected_cost=math.nan,
            cost_exact=True,
            plan=(),
            method="unreachable",
            notes=f"no stack of more than {stop_at} armies can reach {', '.join(cut_off)} this turn",
        )
    targets = {names[t]: int(state.armies[t]) for t in missing}
    pairs = [(names[b.a], names[b.b]) for b in board.borders]
    result = conquest(staging, targets, pairs, stop_at=stop_at)
    cost, exact = _plan_cost(result.plan, staging, targets, stop_at)
    return ContinentStatus(
        **base,
        staging={s: a for s, a in staging.items() if s in result.p_by_staging},
        p_complete=result.p_all,
        expected_cost=cost,
        cost_exact=exact,
        plan=result.plan,
        method=result.method,
    )


def _reachable(board: Board, staging: Mapping[str, int], missing: list[int]) -> set[int]:
    """The missing territories a staging stack can reach through missing territories."""
    todo = set(missing)
    frontier = [t for t in missing if any(board.territories[u] in staging for u in board.neighbors[t])]
    reached = set(frontier)
    while frontier:
        t = frontier.pop()
        for u in board.neighbors[t]:
            if u in todo and u not in reached:
                reached.add(u)
                frontier.append(u)
    return reached


def _plan_cost(
    plan: Sequence[tuple[str, str]], staging: Mapping[str, int], targets: Mapping[str, int], stop_at: int
) -> tuple[float, bool]:
    """Expected armies lost fighting ``plan``: one chain per staging stack, exact when its share is a path."""
    root_of: dict[str, str] = {s: s for s in staging}
    order: dict[str, list[str]] = {s: [] for s in staging}
    fan_out: dict[str, int] = {}
    for source, target in plan:
        root_of[target] = root_of[source]
        order[root_of[source]].append(target)
        fan_out[source] = fan_out.get(source, 0) + 1
    cost = 0.0
    for root, share in order.items():
        if share:
            cost += chain(staging[root], [targets[t] for t in share], stop_at=stop_at).expected_attacker_losses
    return cost, all(k == 1 for k in fan_out.values())


def continent_table(state: GameState, player: int, *, stop_at: int = 1) -> pd.DataFrame:
    """:func:`continent_status` as a table, one row per continent (names joined by commas).

    Columns: ``continent``, ``bonus``, ``holder`` (player id, <NA> if shared),
    ``owned`` (by ``player``), ``size``, ``borders``, ``missing``,
    ``missing_defenders``, ``staging``, ``p_complete``, ``expected_cost``,
    ``cost_exact``, ``value_per_turn``, ``notes``.
    """
    rows = []
    for s in continent_status(state, player, stop_at=stop_at):
        rows.append(
            {
                "continent": s.continent,
                "bonus": s.bonus,
                "holder": s.holder,
                "owned": s.owned,
                "size": s.size,
                "borders": ", ".join(f"{b} ({s.border_threat[b]})" for b in s.borders),
                "missing": ", ".join(s.missing),
                "missing_defenders": s.missing_defenders,
                "staging": ", ".join(f"{n} ({a})" for n, a in s.staging.items()),
                "p_complete": s.p_complete,
                "expected_cost": s.expected_cost,
                "cost_exact": s.cost_exact,
                "value_per_turn": s.value_per_turn,
                "notes": s.notes,
            }
        )
    frame = pd.DataFrame(rows)
    frame["holder"] = frame["holder"].astype("Int64")
    return frame


def continents_overview(board: Board, game: GameState | None = None, names: Sequence[str] = ()) -> pd.DataFrame:
    """Each continent of ``board``: its bonus and size, and (given ``game``) who of ``names`` holds it whole.

    >>> from analyzer.game.board import classic_board
    >>> asia = continents_overview(classic_board()).iloc[4]
    >>> asia["Continent"], int(asia["Bonus"]), int(asia["Territories"])
    ('Asia', 7, 12)
    """
    frame = pd.DataFrame(
        {
            "Continent": [c.name for c in board.continents],
            "Bonus": [c.bonus for c in board.continents],
            "Territories": [len(c.territories) for c in board.continents],
        }
    )
    if game is not None:
        frame["Held by"] = ["" if h is None else names[h] for h in continent_holders(game)]
    return frame
