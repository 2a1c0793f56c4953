"""Exact odds of several battles fought by one stack: a chain of territories, or a whole region.

Convention for moving in
------------------------
After each conquest the attacking stack moves into the conquered territory,
leaving a garrison behind: 1 army in the territory it started from (the
classic rule), and ``garrison`` armies (1 by default, settable per territory)
in each conquered territory it moves on from. The classic rule also asks the
attacker to move in at least as many armies as it rolled dice in the winning
roll; when a large garrison would break that rule, the stack moves the
minimum the rule demands and leaves the rest. (A winning roll never costs the
attacker an army, so the dice rolled are known from the armies left.)

>>> r = chain(10, [3, 2])
>>> [round(float(p), 4) for p in r.p_conquer]
[0.967, 0.8435]
>>> round(float(r.final_armies @ range(len(r.final_armies)) / r.p_win), 3)
5.085
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from analyzer.errors import BattleInputError
from analyzer.limits import MAX_CHAIN_LENGTH, check_limit, quote
from analyzer.solver.battle import (
    CLASSIC,
    Absorbed,
    BattleOptions,
    absorb,
    battle,
    check_armies,
    check_cells,
    check_options,
    check_probability,
    check_stop_at,
    first_reaching,
    start_values,
    whole_number,
)


def moved_in(won_with: np.ndarray, garrison: int, stop_at: int, options: BattleOptions) -> np.ndarray:
    """Armies moved into a conquered territory: all but ``garrison``, but never fewer than the dice rolled.

    A winning roll costs the attacker nothing (the defender rolls no more dice
    than it has armies, and lost them all), so the stack rolled from ``won_with``.

    >>> moved_in(np.array([2, 3, 4, 9]), 3, 1, BattleOptions()).tolist()
    [1, 2, 3, 6]
    """
    return np.maximum(won_with - garrison, options.attacker_rolls_array(won_with, stop_at))


def stage_forward(start: np.ndarray, defenders: int, stop_at: int, options: BattleOptions) -> Absorbed:
    """One battle of a chain from a distribution of starting armies; under Balanced Blitz, each start is its own battle."""
    if not options.balanced_blitz:
        return absorb(start, defenders, stop_at, options)
    won = np.zeros(len(start))
    stopped = np.zeros((stop_at + 1, defenders + 1))
    for a in np.flatnonzero(start):
        if a <= stop_at:
            stopped[a, defenders] += start[a]
            continue
        r = battle(int(a), defenders, stop_at=stop_at, options=options)
        is_won = r.defender_left == 0
        np.add.at(won, r.attacker_left[is_won], start[a] * r.probability[is_won])
        np.add.at(stopped, (r.attacker_left[~is_won], r.defender_left[~is_won]), start[a] * r.probability[~is_won])
    return Absorbed(won=won, stopped=stopped)


def _check_defenders(defenders: object) -> tuple[int, ...]:
    if isinstance(defenders, (str, bytes)) or not isinstance(defenders, Sequence) or not defenders:
        raise BattleInputError(f"defenders must be a non-empty sequence of whole numbers >= 1, got {quote(defenders)}")
    check_limit(len(defenders), MAX_CHAIN_LENGTH, "territories in the chain:", BattleInputError, "MAX_CHAIN_LENGTH")
    return tuple(check_armies(d, f"defenders[{i}]", 1) for i, d in enumerate(defenders))


def _check_garrisons(garrison: object, n: int) -> tuple[int, ...]:
    """Garrisons for the conquered territories the stack moves on from (all but the last)."""
    if isinstance(garrison, Sequence) and not isinstance(garrison, (str, bytes)):
        if len(garrison) != n - 1:
            raise BattleInputError(
                f"garrison needs one entry per territory the stack moves on from ({n - 1} for {n} "
                f"territories; the last keeps the whole stack), got {len(garrison)}"
            )
        return tuple(whole_number(g, f"garrison[{i}]", 1) for i, g in enumerate(garrison))
    return (whole_number(garrison, "garrison", 1),) * (n - 1)


@dataclass(frozen=True)
class ChainResult:
    """How an attack along a chain of territories can end.

    ``p_conquer[k - 1]`` is the probability of taking at least the first ``k``
    territories. The outcomes are parallel arrays: ``conquered`` territories
    taken, ``attacker_left`` armies on the territory the last battle was fought
    from (before any move in), and ``defender_left`` defenders left on the
    territory where the stack stopped (0 once all are taken).
    ``final_armies[m]`` is the probability of taking the whole chain with
    ``m`` armies moved into its last territory. Expected losses count armies
    killed in battle, not garrisons left behind.
    """

    attackers: int
    defenders: tuple[int, ...]
    garrisons: tuple[int, ...]
    stop_at: int
    options: BattleOptions
    p_conquer: np.ndarray
    conquered: np.ndarray
    attacker_left: np.ndarray
    defender_left: np.ndarray
    probability: np.ndarray
    final_armies: np.ndarray
    expected_attacker_losses: float
    expected_defender_losses: float

    @property
    def p_win(self) -> float:
        """Probability of taking every territory of the chain."""
        return float(self.p_conquer[-1])

    @property
    def expected_territories(self) -> float:
        """Expected number of territories taken."""
        return float(self.p_conquer.sum())

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON summary: the keys of ``risk-analyzer odds --chain --json``."""
        return {
            "attackers": self.attackers,
            "rolling": self.attackers - 1,
            "chain": list(self.defenders),
            "garrisons": list(self.garrisons),
            "stop_at": self.stop_at,
            "p_win": self.p_win,
            "p_conquer": [float(p) for p in self.p_conquer],
            "expected_attacker_losses": self.expected_attacker_losses,
            "expected_defender_losses": self.expected_defender_losses,
            "outcomes": [
                {"conquered": int(k), "attacker": int(a), "defender": int(d), "p": float(p)}
                for k, a, d, p in zip(self.conquered, self.attacker_left, self.defender_left, self.probability)
            ],
            "final_armies": [{"armies": int(m), "p": float(p)} for m, p in enumerate(self.final_armies) if p > 0],
        }


def chain(
    attackers: int,
    defenders: Sequence[int],
    *,
    garrison: int | Sequence[int] = 1,
    stop_at: int = 1,
    options: BattleOptions = CLASSIC,
) -> ChainResult:
    """Exact odds of attacking along ``defenders`` (one count per territory, in order) from ``attackers`` armies.

    ``garrison`` is left in each conquered territory the stack moves on from:
    one number for all, or one per territory but the last. Every battle
    follows ``stop_at`` and ``options``.

    >>> r = chain(6, [1, 1, 1])
    >>> [round(float(p), 4) for p in r.p_conquer], round(r.expected_territories, 4)
    ([0.9903, 0.9138, 0.6775], 2.5816)
    """
    a0 = check_armies(attackers, "attackers", 2)
    ds = _check_defenders(defenders)
    check_cells((a0 + 1) * (max(ds) + 1), f"{a0} attackers against {max(ds)}")
    gs = _check_garrisons(garrison, len(ds))
    s = check_stop_at(stop_at, a0)
    opts = check_options(options)

    start: np.ndarray = np.zeros(a0 + 1)
    start[a0] = 1.0
    p_conquer = np.zeros(len(ds))
    parts: list[tuple[np.ndarray, ...]] = []
    lost_a = lost_d = 0.0
    for i, d in enumerate(ds):
        ab = stage_forward(start, d, s, opts)
        armies = np.arange(len(start))
        stop_a, stop_d = np.nonzero(ab.stopped)
        stop_p = ab.stopped[stop_a, stop_d]
        parts.append((np.full(len(stop_p), i), stop_a, stop_d, stop_p))
        lost_a += float(start @ armies - ab.won @ armies - stop_p @ stop_a)
        lost_d += float(d * ab.won.sum() + stop_p @ (d - stop_d))
        p_conquer[i] = ab.won.sum()
        won_with = np.flatnonzero(ab.won)
        moved = moved_in(won_with, 1 if i == 0 else gs[i - 1], s, opts)
        start = np.bincount(moved, weights=ab.won[won_with], minlength=len(start))
    parts.append(
        (np.full(len(won_with), len(ds)), won_with[::-1], np.zeros(len(won_with), int), ab.won[won_with[::-1]])
    )
    # Best outcomes first: more territories, then more armies, then fewer defenders.
    conquered, attacker_left, defender_left, probability = (np.concatenate(x) for x in zip(*parts))
    order = np.lexsort((defender_left, -attacker_left, -conquered))
    return ChainResult(
        attackers=a0,
        defenders=ds,
        garrisons=gs,
        stop_at=s,
        options=opts,
        p_conquer=p_conquer,
        conquered=conquered[order].astype(np.int64),
        attacker_left=attacker_left[order].astype(np.int64),
        defender_left=defender_left[order].astype(np.int64),
        probability=probability[order],
        final_armies=start,
        expected_attacker_losses=lost_a,
        expected_defender_losses=lost_d,
    )


def _chain_values(
    a_max: int, defenders: tuple[int, ...], garrisons: tuple[int, ...], stop_at: int, options: BattleOptions
) -> np.ndarray:
    """``[a]``: P(taking the whole chain) from ``a`` armies, for every ``a <= a_max``, by one backward pass per battle."""
    armies = np.arange(a_max + 1)
    value = np.ones(a_max + 1)
    for i in range(len(defenders) - 1, -1, -1):
        value = start_values(a_max, defenders[i], value, stop_at, options)
        if i > 0:
            # What conquering territory i-1 with a' armies is worth: the stack moved on takes on territory i.
            worth = np.zeros(a_max + 1)
            can_win = armies > stop_at
            worth[can_win] = value[moved_in(armies[can_win], 1 if i == 1 else garrisons[i - 2], stop_at, options)]
            value = worth
    return value


def chain_armies_needed(
    defenders: Sequence[int],
    p: float,
    *,
    garrison: int | Sequence[int] = 1,
    stop_at: int = 1,
    options: BattleOptions = CLASSIC,
) -> int:
    """Fewest armies on the starting territory that take the whole chain with probability at least ``p``.

    >>> chain_armies_needed([3, 2], 0.75)
    9
    """
    ds = _check_defenders(defenders)
    gs = _check_garrisons(garrison, len(ds))
    target = check_probability(p)
    s = whole_number(stop_at, "stop_at", 1)
    opts = check_options(options)
    return first_reaching(lambda a_max: _chain_values(a_max, ds, gs, s, opts), target, max(2, s + 1))


# --- several targets that are not one path -------------------------------------------------------------


@dataclass(frozen=True)
class ConquestResult:
    """The odds of taking every target, and the attack plan they were computed for.

    ``plan`` lists the attacks ``(from, to)`` depth first, in an order they can
    be fought; ``p_by_staging`` gives each staging territory's chance of taking
    its share (they attack independently, so ``p_all`` is the product).
    ``method`` says how exact the figure is.
    """

    p_all: float
    p_by_staging: dict[str, float]
    plan: tuple[tuple[str, str], ...]
    method: str

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form."""
        return {
            "p_win": self.p_all,
            "p_by_staging": dict(self.p_by_staging),
            "plan": [list(step) for step in self.plan],
            "method": self.method,
        }


def conquest(
    staging: Mapping[str, int],
    targets: Mapping[str, int],
    borders: Iterable[tuple[str, str]],
    *,
    garrison: int | Mapping[str, int] = 1,
    stop_at: int = 1,
    options: BattleOptions = CLASSIC,
) -> ConquestResult:
    """Odds of taking every territory in ``targets`` (name to defenders) from ``staging`` (name to armies).

    For a continent, or every territory of one player. ``borders`` are pairs of
    adjacent names (pairs naming other territories are ignored). ``garrison``
    is what each territory keeps when the stack moves on from it (staging
    territories keep at least 1).

    The attack plan is a tree: each target is attacked once, from the territory
    that first reaches it in a breadth-first search from the staging
    territories (the strongest first). A stack reaching a territory with
    several targets beyond it attacks the one with the most defenders beyond it
    first; after each such conquest it splits its armies between that target
    and the rest in whichever way gives the best chance of taking everything,
    knowing the armies it has. Along a single path it moves on as
    :func:`chain` does. Given that plan the result is exact; ``method`` says
    whether the borders allowed any other plan.

    >>> borders = [("Siam", "Indonesia"), ("Indonesia", "New Guinea"), ("Indonesia", "Western Australia"),
    ...            ("New Guinea", "Eastern Australia"), ("Western Australia", "Eastern Australia"),
    ...            ("New Guinea", "Western Australia")]
    >>> r = conquest({"Siam": 12}, {"Indonesia": 2, "New Guinea": 1, "Western Australia": 1, "Eastern Australia": 2}, borders)
    >>> round(r.p_all, 4), r.plan[0]
    (0.679, ('Siam', 'Indonesia'))
    """
    stage_armies = {
        str(name): whole_number(a, f"armies of staging territory {name!r}", 1) for name, a in staging.items()
    }
    defenders = {str(name): whole_number(d, f"defenders of {name!r}", 1) for name, d in targets.items()}
    if not stage_armies or not defenders:
        raise BattleInputError("a conquest needs at least one staging territory and one target")
    both = sorted(set(stage_armies) & set(defenders))
    if both:
        raise BattleInputError(f"a territory cannot be both staging and a target: {', '.join(both)}")
    s = whole_number(stop_at, "stop_at", 1)
    opts = check_options(options)
    known = set(stage_armies) | set(defenders)
    if isinstance(garrison, Mapping):
        unknown = sorted(set(map(str, garrison)) - known)
        if unknown:
            raise BattleInputError(
                f"garrison names territories that are neither staging nor targets: {', '.join(unknown)}"
            )
        keep = {name: 1 for name in known} | {
            str(n): whole_number(g, f"garrison of {n!r}", 1) for n, g in garrison.items()
        }
    else:
        keep = dict.fromkeys(known, whole_number(garrison, "garrison", 1))

    neighbours: dict[str, list[str]] = {name: [] for name in known}
    for pair in borders:
        a, b = (str(x) for x in pair)
        if a in known and b in known and b not in neighbours[a]:
            neighbours[a].append(b)
            neighbours[b].append(a)

    # Breadth-first from every staging territory at once, strongest first.
    roots = sorted(stage_armies, key=lambda n: -stage_armies[n])
    parent: dict[str, str] = {}
    queue = deque(roots)
    while queue:
        u = queue.popleft()
        for v in neighbours[u]:
            if v in defenders and v not in parent:
                parent[v] = u
                queue.append(v)
    unreachable = [t for t in defenders if t not in parent]
    if unreachable:
        raise BattleInputError(f"no staging territory can reach: {', '.join(unreachable)}")

    children: dict[str, list[str]] = {name: [] for name in known}
    for t in defenders:
        children[parent[t]].append(t)

    def weight(v: str) -> int:
        return defenders.get(v, 0) + sum(weight(c) for c in children[v])

    for v in children:
        children[v].sort(key=lambda c: -weight(c))

    def subtree_values(v: str, a_max: int) -> np.ndarray:
        """``[a]``: P(taking every target beyond ``v``) with ``a`` armies on ``v``."""
        return kids_values(v, 0, a_max)

    def kids_values(v: str, j: int, a_max: int) -> np.ndarray:
        kids = children[v]
        if j == len(kids):
            return np.ones(a_max + 1)
        c = kids[j]
        beyond = subtree_values(c, a_max)
        armies = np.arange(a_max + 1)
        can_win = armies > s
        worth = np.zeros(a_max + 1)
        if j == len(kids) - 1:
            worth[can_win] = beyond[moved_in(armies[can_win], keep[v], s, opts)]
        else:
            rest = kids_values(v, j + 1, a_max)
            m = armies[None, :]
            allowed = (
                (m >= opts.attacker_rolls_array(armies, s)[:, None]) & (m <= armies[:, None] - 1) & can_win[:, None]
            )
            split = np.where(allowed, beyond[m] * rest[np.clip(armies[:, None] - m, 0, a_max)], 0.0)
            worth = split.max(axis=1)
        return start_values(a_max, defenders[c], worth, s, opts)

    p_by_staging = {}
    for root in roots:
        if children[root]:
            p_by_staging[root] = float(subtree_values(root, stage_armies[root])[stage_armies[root]])

    plan: list[tuple[str, str]] = []

    def walk(v: str) -> None:
        for c in children[v]:
            plan.append((v, c))
            walk(c)

    for root in roots:
        walk(root)

    # The plan was forced if the borders among these territories form that very tree.
    edges = {frozenset((u, v)) for u in known for v in neighbours[u] if u in defenders or v in defenders}
    only_way = len(edges) == len(defenders)
    method = (
        "exact: the borders leave one way to attack each target"
        if only_way
        else "exact for this plan, one of several the borders allow (breadth-first from the strongest staging "
        "territory, the heaviest branch first, armies split optimally at branch points)"
    )
    if opts.balanced_blitz:
        method += "; every battle reshaped by Balanced Blitz"
    return ConquestResult(float(np.prod(list(p_by_staging.values()))), p_by_staging, tuple(plan), method)
