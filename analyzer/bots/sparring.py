"""Two sparring bots in the styles of weaker public Risk agents, the prey that card hunters grow on.

Written by us from a description of how those agents play, not from their source. Both are
:class:`~analyzer.bots.planner.PlannerBot` subclasses for their parameter layout and their Python entry
only: none of the planner's plans is played. Each decision is computed afresh from the position (bots
keep no memory), and cards are traded at the first chance.

:class:`ClusterBot` (``"cluster"``):

* **claims** in a continent no one has a territory in, the one whose size is nearest ``medium``
  (6: Africa on the classic map, then Europe); with none left, the continent where it holds the
  largest share less the others'; inside it, a territory next to its own where there is one;
* **grows from its biggest connected cluster** (the most territories, then the most armies): every
  army goes to that cluster's border territory with the fewest armies, a share of them at a time, so
  the border fills evenly; it attacks from the cluster's border at any fight it wins with probability
  ``reckless`` (0.35) or more, best odds first, and after a capture moves everything in unless the
  source still faces another enemy (then half);
* **attacks everywhere** at those odds, from any territory, once it holds more armies than every
  other force (``outnumber`` x the strongest other);
* **fortifies** its biggest stack that faces no enemy toward the cluster's border.

:class:`PixieBot` (``"pixie"``):

* **claims** in the continent with the fewest border territories that still has an unowned one
  (Australia, then South America on the classic map), next to its own where it can;
* **picks its continents** at each decision: those it holds, and, easiest first, those where its
  armies in the continent plus a turn's income (territories / 3, at least 3) cover the enemy armies
  in it, while the income covers the sum of what they lack; with none, the one nearest to covered;
* **reinforces** where the most armies are missing: a border territory of a continent it holds
  below ``border_force`` (20), or the biggest stack attacking into a chosen continent short of what
  it must beat;
* **attacks** inside its chosen continents wherever its attacking armies outnumber the defender;
  then, without a capture yet this turn, the best fight anywhere at odds of ``card_odds`` (0.5) or
  more, for the card; everywhere it outnumbers once it holds more armies than ``ahead`` x all the
  others together;
* **fortifies** its biggest stack that faces no enemy toward the borders of the continents it holds
  that face an enemy (toward any front when it holds none).

Every decision is compiled and shared by ``choose`` and the compiled playout.

>>> import numpy as np
>>> from analyzer.game.state import GameState
>>> rng = np.random.default_rng(3)
>>> state = GameState.new(4, rng)
>>> type(ClusterBot().choose(state, rng)).__name__, type(PixieBot().choose(state, rng)).__name__
('Claim', 'Claim')
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.bots import kills
from analyzer.bots.base import Decision
from analyzer.bots.heuristic import (
    ORDER,
    P_STOP,
    P_WEIGHTS,
    BoardData,
    CardPolicy,
    _choose_trade,
    _distance_to_front,
    _threat,
    decide_setup,
)
from analyzer.bots.heuristic import decide as heuristic_decide
from analyzer.bots.planner import PlannerBot, _odds, knobs_at
from analyzer.errors import BotError
from analyzer.game.engine import steps as engine
from analyzer.game.engine.layout import armies_view, owner_view
from analyzer.game.state import GameState
from analyzer.game.vocabulary import (
    ATTACK,
    CLAIM,
    END_ATTACK,
    END_TURN,
    FORTIFY,
    FORTIFY_ACTION,
    MOVE_IN,
    MOVE_IN_ACTION,
    PLACE,
    REINFORCE,
    SETUP_CLAIM,
    SETUP_PLACE,
    TRADE,
)
from analyzer.kernels import kernel

#: The cluster bot's knobs after the planner's parameters, in order.
CLUSTER_KNOBS = ("medium", "reckless", "outnumber")
C_MEDIUM, C_RECKLESS, C_OUTNUMBER = range(len(CLUSTER_KNOBS))
#: The pixie's knobs after the planner's parameters, in order; each continent's count of border
#: territories follows them.
PIXIE_KNOBS = ("border_force", "card_odds", "ahead")
X_BORDER_FORCE, X_CARD_ODDS, X_AHEAD = range(len(PIXIE_KNOBS))
X_BORDERS = len(PIXIE_KNOBS)


def _check(bot: PlannerBot, knobs: tuple[str, ...], probabilities: tuple[str, ...]) -> None:
    if bot.draft != "ease":
        raise BotError(f"{type(bot).__name__} has its own claim rule; draft must stay 'ease', got {bot.draft!r}")
    for name in knobs:
        value = getattr(bot, name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise BotError(f"{name} must be a number >= 0, got {value!r}")
        if name in probabilities and value > 1:
            raise BotError(f"{name} must be a probability from 0 to 1, got {value!r}")


@dataclass(frozen=True)
class ClusterBot(PlannerBot):
    """The cluster sparring bot (see the module docstring)."""

    cards: CardPolicy = "first"
    medium: float = 6.0
    reckless: float = 0.35
    outnumber: float = 1.0

    def __post_init__(self) -> None:
        super().__post_init__()
        _check(self, CLUSTER_KNOBS, ("reckless",))

    def choose(self, state: GameState, rng: np.random.Generator) -> Decision:
        """The bot's decision, made by :func:`decide_cluster`: the code the compiled playout runs."""
        return kills.choose(self, decide_cluster, state, rng)

    def params(self, data: BoardData) -> np.ndarray:
        """The planner's parameters, then the knobs of :data:`CLUSTER_KNOBS`."""
        knobs = np.array([getattr(self, name) for name in CLUSTER_KNOBS], dtype=float)
        return np.concatenate([super().params(data), knobs])


@dataclass(frozen=True)
class PixieBot(PlannerBot):
    """The pixie sparring bot (see the module docstring)."""

    cards: CardPolicy = "first"
    border_force: float = 20.0
    card_odds: float = 0.5
    ahead: float = 1.0

    def __post_init__(self) -> None:
        super().__post_init__()
        _check(self, PIXIE_KNOBS, ("card_odds",))

    def choose(self, state: GameState, rng: np.random.Generator) -> Decision:
        """The bot's decision, made by :func:`decide_pixie`: the code the compiled playout runs."""
        return kills.choose(self, decide_pixie, state, rng)

    def params(self, data: BoardData) -> np.ndarray:
        """The planner's parameters, the knobs of :data:`PIXIE_KNOBS`, then each continent's count of
        border territories (those with a neighbour outside it)."""
        knobs = np.array([getattr(self, name) for name in PIXIE_KNOBS], dtype=float)
        return np.concatenate([super().params(data), knobs, border_counts(data)])


def border_counts(data: BoardData) -> np.ndarray:
    """Each continent's border territories: those with a neighbour in another continent.

    >>> from analyzer.bots.heuristic import board_data
    >>> from analyzer.game.board import classic_board
    >>> border_counts(board_data(classic_board())).astype(int).tolist()
    [3, 2, 4, 3, 5, 1]
    """
    outside = data.continent_of[data.src] != data.continent_of[data.dst]
    borders = data.continent_of[np.unique(data.src[outside])]
    return np.bincount(borders, minlength=len(data.continent_size)).astype(float)


# ---------------------------------------------------------------------------------- shared kernels
@kernel
def _faces_enemy(S, C, u):  # pragma: no cover - compiled
    """Whether territory ``u`` has a neighbour of another owner."""
    owner = owner_view(S)
    width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
    for j in range(width):
        v = C[nb + u * width + j]
        if v < 0:
            break
        if owner[v] != owner[u]:
            return True
    return False


@kernel
def _move_in(S, C):  # pragma: no cover - compiled
    """Everything moves in, or half when the source still faces another enemy (it stays on a border)."""
    lo, hi = S[engine.MOVE_LO], S[engine.MOVE_HI]
    if _faces_enemy(S, C, S[engine.MOVE_S]):
        return MOVE_IN_ACTION, max(lo, min(hi, (hi + 1) // 2)), 0, 0, 0
    return MOVE_IN_ACTION, hi, 0, 0, 0


@kernel
def _fortify_to(S, C, work):  # pragma: no cover - compiled
    """The biggest stack facing no enemy moves toward the front marked in ``work[:n]`` (1 for a front
    territory): one step along the shortest path through the player's territories (adjacent fortify),
    or onto the reachable front territory with the fewest armies (connected)."""
    p = S[engine.PLAYER]
    owner = owner_view(S)
    armies = armies_view(S)
    n = owner.shape[0]
    source = -1
    fronts = 0
    for u in range(n):
        if owner[u] != p:
            continue
        if work[u] > 0:
            fronts += 1
        if armies[u] >= 2 and not _faces_enemy(S, C, u) and (source < 0 or armies[u] > armies[source]):
            source = u
    if source < 0 or fronts == 0:
        return END_TURN, 0, 0, 0, 0
    if C[engine.R_CONNECTED]:
        reach = engine.fortify_reach(S, C, source)
        target = -1
        for u in range(n):
            if reach[u] and u != source and work[u] > 0 and (target < 0 or armies[u] < armies[target]):
                target = u
        if target < 0:
            return END_TURN, 0, 0, 0, 0
        return FORTIFY_ACTION, source, target, armies[source] - 1, 0
    # _distance_to_front reads the front as work[n + t] > 0.
    for u in range(n):
        work[n + u] = work[u]
    _distance_to_front(owner, p, C, work, source)
    width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
    target = -1
    for j in range(width):
        v = C[nb + source * width + j]
        if v < 0:
            break
        if owner[v] == p and (target < 0 or work[2 * n + v] < work[2 * n + target]):
            target = v
    if target < 0 or work[2 * n + target] >= work[2 * n + source]:
        return END_TURN, 0, 0, 0, 0
    return FORTIFY_ACTION, source, target, armies[source] - 1, 0


@kernel
def _best_fight(S, C, table, threshold, stop, everywhere, work):  # pragma: no cover - compiled
    """(source, target): the fight of best odds at ``threshold`` or more, fought down to ``stop``
    armies, from a territory marked in ``work[:n]`` (from any of the player's with ``everywhere``);
    (-1, -1) if none."""
    p = S[engine.PLAYER]
    owner = owner_view(S)
    armies = armies_view(S)
    n = owner.shape[0]
    width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
    best, bs, bt = -1.0, -1, -1
    for s in range(n):
        if owner[s] != p or armies[s] < 2 or armies[s] <= stop or not (everywhere or work[s] > 0):
            continue
        for j in range(width):
            t = C[nb + s * width + j]
            if t < 0:
                break
            if owner[t] == p:
                continue
            odds = _odds(table, armies[s], armies[t])
            if odds >= threshold and odds > best:
                best, bs, bt = odds, s, t
    return bs, bt


@kernel
def _strongest_other(S, C, work):  # pragma: no cover - compiled
    """(the most armies of another force, all the others' armies together), after ``kills.tally``."""
    p = S[engine.PLAYER]
    A = kills.region(S[engine.N_TERRITORIES], C[engine.R_CONTINENTS], kills.R_ARMIES)
    top, total = 0.0, 0.0
    for f in range(S[engine.N_FORCES]):
        if f != p:
            top = max(top, work[A + f])
            total += work[A + f]
    return work[A + p], top, total


# ---------------------------------------------------------------------------------- the cluster bot
@kernel
def _cluster(S, C, work):  # pragma: no cover - compiled
    """Marks the player's biggest connected cluster in ``work[:n]`` (1, the rest 0; most territories,
    then most armies, then the first found) and returns its count of border territories (facing an
    enemy). ``work[n:2n]`` holds each territory's component, ``work[2n:3n]`` the queue."""
    p = S[engine.PLAYER]
    owner = owner_view(S)
    armies = armies_view(S)
    n = owner.shape[0]
    width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
    L, Q = n, 2 * n
    for u in range(n):
        work[L + u] = -1.0
    best, best_size, best_armies = -1, 0, 0
    label = 0
    for root in range(n):
        if owner[root] != p or work[L + root] >= 0:
            continue
        work[L + root] = label
        work[Q] = root
        head, tail = 0, 1
        size, total = 0, 0
        while head < tail:
            u = int(work[Q + head])
            head += 1
            size += 1
            total += armies[u]
            for j in range(width):
                v = C[nb + u * width + j]
                if v < 0:
                    break
                if owner[v] == p and work[L + v] < 0:
                    work[L + v] = label
                    work[Q + tail] = v
                    tail += 1
        if size > best_size or (size == best_size and total > best_armies):
            best, best_size, best_armies = label, size, total
        label += 1
    borders = 0
    for u in range(n):
        work[u] = 1.0 if owner[u] == p and work[L + u] == best else 0.0
        if work[u] > 0 and _faces_enemy(S, C, u):
            borders += 1
    return borders


@kernel
def _cluster_place(S, C, amount, work):  # pragma: no cover - compiled
    """(territory, armies): the cluster's border territory with the fewest armies, and a share of
    ``amount`` spread over the border; the biggest cluster territory if none faces an enemy."""
    p = S[engine.PLAYER]
    owner = owner_view(S)
    armies = armies_view(S)
    n = owner.shape[0]
    borders = _cluster(S, C, work)
    weakest, top = -1, -1
    for u in range(n):
        if work[u] == 0:
            continue
        if top < 0 or armies[u] > armies[top]:
            top = u
        if _faces_enemy(S, C, u) and (weakest < 0 or armies[u] < armies[weakest]):
            weakest = u
    if weakest < 0:
        if top < 0:
            # No territory (cannot happen while the player is in the game); any of the player's.
            for u in range(n):
                if owner[u] == p:
                    top = u
        return top, amount
    return weakest, max(1, amount // max(borders, 1))


@kernel
def _cluster_claim(S, C, bp, rng, work):  # pragma: no cover - compiled
    """A territory of the fully unowned continent of size nearest ``medium``; with none, of the
    continent where the player's share less the others' is largest; next to its own if it can."""
    p = S[engine.PLAYER]
    owner = owner_view(S)
    n = owner.shape[0]
    nc = C[engine.R_CONTINENTS]
    co = C[engine.O_CONTINENT_OF]
    medium = bp[knobs_at(C) + C_MEDIUM]
    MINE, TAKEN = 0, nc
    for c in range(2 * nc):
        work[c] = 0.0
    for t in range(n):
        if owner[t] == p:
            work[MINE + C[co + t]] += 1
        if owner[t] >= 0:
            work[TAKEN + C[co + t]] += 1
    best, score = -1, -np.inf
    for t in range(n):
        if owner[t] != -1:
            continue
        c = C[co + t]
        size = bp[P_WEIGHTS + nc + c]
        if work[TAKEN + c] == 0:
            value = 100.0 - abs(size - medium)
        else:
            value = (2 * work[MINE + c] - work[TAKEN + c]) / size
        value += 0.5 * _next_to_own(S, C, t) + 0.01 * rng.random()
        if value > score:
            best, score = t, value
    return CLAIM, best, 0, 0, 0


@kernel
def _next_to_own(S, C, t):  # pragma: no cover - compiled
    """1.0 if territory ``t`` borders one of the player's, else 0.0."""
    p = S[engine.PLAYER]
    owner = owner_view(S)
    width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
    for j in range(width):
        v = C[nb + t * width + j]
        if v < 0:
            break
        if owner[v] == p:
            return 1.0
    return 0.0


@kernel
def _cluster_attack(S, C, bp, table, work):  # pragma: no cover - compiled
    """The best fight at ``reckless`` odds from the cluster's border, or from anywhere once it
    outnumbers every other force; else stop."""
    kills.tally(S, C, work)
    mine, top, _ = _strongest_other(S, C, work)
    everywhere = mine > bp[knobs_at(C) + C_OUTNUMBER] * top
    _cluster(S, C, work)
    s, t = _best_fight(S, C, table, bp[knobs_at(C) + C_RECKLESS], int(bp[P_STOP]), everywhere, work)
    if s < 0:
        return END_ATTACK, 0, 0, 0, 0
    return ORDER, s, t, int(bp[P_STOP]), 0


@kernel
def decide_cluster(S, C, bp, table, rng, work, setup_values):  # pragma: no cover - compiled
    """The cluster bot's decision as (code, a, b, c, d) (see :func:`analyzer.bots.heuristic.decode`)
    in any phase with a decision; ``work`` of :func:`analyzer.bots.kills.scratch_size`."""
    phase = S[engine.PHASE]
    if phase == SETUP_CLAIM:
        return _cluster_claim(S, C, bp, rng, work)
    if phase == SETUP_PLACE:
        if S[engine.NEUTRAL] >= 0 and engine.setup_force(S) == S[engine.NEUTRAL]:
            return decide_setup(S, C, bp, table, rng, work, setup_values)
        t, _ = _cluster_place(S, C, 1, work)
        return PLACE, t, 1, 0, 0
    if phase == REINFORCE:
        c0, c1, c2, bonus = _choose_trade(S, C, bp)
        if c0 >= 0:
            return TRADE, c0, c1, c2, bonus
        t, k = _cluster_place(S, C, S[engine.PENDING], work)
        return PLACE, t, k, 0, 0
    if phase == ATTACK:
        return _cluster_attack(S, C, bp, table, work)
    if phase == MOVE_IN:
        return _move_in(S, C)
    if phase == FORTIFY:
        _cluster(S, C, work)
        for u in range(S[engine.N_TERRITORIES]):
            if work[u] > 0 and not _faces_enemy(S, C, u):
                work[u] = 0.0
        return _fortify_to(S, C, work)
    return heuristic_decide(S, C, bp, table, work)


# ---------------------------------------------------------------------------------- the pixie
@kernel
def _pixie_continents(S, C, bp, work):  # pragma: no cover - compiled
    """Marks the chosen continents in ``work[CH + c]`` (1 chosen, 0 not), with the player's armies
    and the enemy armies in each at ``work[MI + c]`` and ``work[TH + c]``; returns (CH, MI, TH).
    ``work[:n]`` is left alone."""
    p = S[engine.PLAYER]
    owner = owner_view(S)
    armies = armies_view(S)
    n = owner.shape[0]
    nc = C[engine.R_CONTINENTS]
    co = C[engine.O_CONTINENT_OF]
    CH, MI, TH = 4 * n, 4 * n + nc, 4 * n + 2 * nc
    territories = 0
    for c in range(nc):
        work[CH + c] = 0.0
        work[MI + c] = 0.0
        work[TH + c] = 0.0
    for t in range(n):
        c = C[co + t]
        if owner[t] == p:
            work[MI + c] += armies[t]
            territories += 1
        else:
            work[TH + c] += armies[t]
    income = max(3.0, territories // 3)
    # Easiest first: the smallest shortfall of its armies in the continent against the enemy's there.
    budget = income
    nearest, nearest_gap = -1, np.inf
    while True:
        pick, gap = -1, np.inf
        for c in range(nc):
            if work[CH + c] > 0 or work[MI + c] == 0:
                continue
            short = work[TH + c] - work[MI + c]
            if short < gap:
                pick, gap = c, short
        if pick < 0:
            break
        if gap < nearest_gap:
            nearest, nearest_gap = pick, gap
        if max(gap, 0.0) > budget:
            break
        work[CH + pick] = 1.0
        budget -= max(gap, 0.0)
    chosen = 0
    for c in range(nc):
        chosen += int(work[CH + c])
    if chosen == 0 and nearest >= 0:
        work[CH + nearest] = 1.0
    return CH, MI, TH


@kernel
def _pixie_place(S, C, bp, amount, work):  # pragma: no cover - compiled
    """(territory, armies): where the most armies are missing, a border territory of a continent the
    player holds below ``border_force`` or the biggest stack attacking into a chosen continent short
    of what it must beat, up to ``amount``; with nothing missing, all on the biggest such stack, else
    on the most threatened territory."""
    p = S[engine.PLAYER]
    owner = owner_view(S)
    armies = armies_view(S)
    n = owner.shape[0]
    co = C[engine.O_CONTINENT_OF]
    width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
    CH, MI, TH = _pixie_continents(S, C, bp, work)
    force = bp[knobs_at(C) + X_BORDER_FORCE]
    best, need = -1, 0.0
    stack = -1
    for u in range(n):
        if owner[u] != p:
            continue
        c = C[co + u]
        facing = False
        for j in range(width):
            v = C[nb + u * width + j]
            if v < 0:
                break
            if owner[v] == p:
                continue
            facing = True
            cv = C[co + v]
            if work[CH + cv] > 0:
                # An attack into a chosen continent: what it must beat there.
                short = work[TH + cv] + 1.0 - armies[u]
                if stack < 0 or armies[u] > armies[stack]:
                    stack = u
                if short > need:
                    best, need = u, short
        if facing and work[CH + c] > 0 and work[TH + c] == 0 and force - armies[u] > need:
            best, need = u, force - armies[u]
    if best >= 0:
        return best, int(max(1.0, min(amount, need)))
    if stack >= 0:
        return stack, amount
    _threat(owner, armies, p, C, work)
    top = -1
    for u in range(n):
        if owner[u] == p and (top < 0 or work[n + u] / armies[u] > work[n + top] / armies[top]):
            top = u
    return top, amount


@kernel
def _pixie_claim(S, C, bp, rng, work):  # pragma: no cover - compiled
    """A territory of the continent with the fewest border territories that has an unowned one (of
    equals, the one where the player holds most), next to its own if it can."""
    owner = owner_view(S)
    n = owner.shape[0]
    nc = C[engine.R_CONTINENTS]
    co = C[engine.O_CONTINENT_OF]
    borders = knobs_at(C) + X_BORDERS
    p = S[engine.PLAYER]
    for c in range(nc):
        work[c] = 0.0
    for t in range(n):
        if owner[t] == p:
            work[C[co + t]] += 1
    best, score = -1, -np.inf
    for t in range(n):
        if owner[t] != -1:
            continue
        c = C[co + t]
        value = -100.0 * bp[borders + c] + work[c] + 0.5 * _next_to_own(S, C, t) + 0.01 * rng.random()
        if value > score:
            best, score = t, value
    return CLAIM, best, 0, 0, 0


@kernel
def _pixie_attack(S, C, bp, table, work):  # pragma: no cover - compiled
    """Far ahead, wherever it outnumbers; else into its chosen continents wherever it outnumbers the
    defender; else, with no capture yet this turn, the best fight at ``card_odds``; else stop."""
    p = S[engine.PLAYER]
    owner = owner_view(S)
    armies = armies_view(S)
    n = owner.shape[0]
    co = C[engine.O_CONTINENT_OF]
    width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
    k = knobs_at(C)
    kills.tally(S, C, work)
    mine, _, others = _strongest_other(S, C, work)
    everywhere = mine > bp[k + X_AHEAD] * others
    CH, _, _ = _pixie_continents(S, C, bp, work)
    best, bs, bt = 0.0, -1, -1
    for s in range(n):
        if owner[s] != p or armies[s] < 3 or armies[s] <= bp[P_STOP]:
            continue
        for j in range(width):
            t = C[nb + s * width + j]
            if t < 0:
                break
            if owner[t] == p or not (everywhere or work[CH + C[co + t]] > 0):
                continue
            # The attacking armies (all but the one that stays) outnumber the defender.
            ratio = (armies[s] - 1) / armies[t]
            if ratio > 1.0 and ratio > best:
                best, bs, bt = ratio, s, t
    if bs >= 0:
        return ORDER, bs, bt, int(bp[P_STOP]), 0
    if not S[engine.CAPTURED]:
        s, t = _best_fight(S, C, table, bp[k + X_CARD_ODDS], int(bp[P_STOP]), True, work)
        if s >= 0:
            return ORDER, s, t, int(bp[P_STOP]), 0
    return END_ATTACK, 0, 0, 0, 0


@kernel
def _pixie_fronts(S, C, work):  # pragma: no cover - compiled
    """Marks in ``work[:n]`` the player's territories that face an enemy inside a continent it holds
    whole; with none, every one that faces an enemy."""
    p = S[engine.PLAYER]
    owner = owner_view(S)
    n = owner.shape[0]
    nc = C[engine.R_CONTINENTS]
    co = C[engine.O_CONTINENT_OF]
    HELD = 4 * n
    for c in range(nc):
        work[HELD + c] = 1.0
    for u in range(n):
        if owner[u] != p:
            work[HELD + C[co + u]] = 0.0
    fronts = 0
    for u in range(n):
        work[u] = 1.0 if owner[u] == p and work[HELD + C[co + u]] > 0 and _faces_enemy(S, C, u) else 0.0
        fronts += int(work[u])
    if fronts == 0:
        for u in range(n):
            work[u] = 1.0 if owner[u] == p and _faces_enemy(S, C, u) else 0.0


@kernel
def decide_pixie(S, C, bp, table, rng, work, setup_values):  # pragma: no cover - compiled
    """The pixie's decision as (code, a, b, c, d) (see :func:`analyzer.bots.heuristic.decode`) in any
    phase with a decision; ``work`` of :func:`analyzer.bots.kills.scratch_size`."""
    phase = S[engine.PHASE]
    if phase == SETUP_CLAIM:
        return _pixie_claim(S, C, bp, rng, work)
    if phase == SETUP_PLACE:
        if S[engine.NEUTRAL] >= 0 and engine.setup_force(S) == S[engine.NEUTRAL]:
            return decide_setup(S, C, bp, table, rng, work, setup_values)
        t, _ = _pixie_place(S, C, bp, 1, work)
        return PLACE, t, 1, 0, 0
    if phase == REINFORCE:
        c0, c1, c2, bonus = _choose_trade(S, C, bp)
        if c0 >= 0:
            return TRADE, c0, c1, c2, bonus
        t, k = _pixie_place(S, C, bp, S[engine.PENDING], work)
        return PLACE, t, k, 0, 0
    if phase == ATTACK:
        return _pixie_attack(S, C, bp, table, work)
    if phase == MOVE_IN:
        return _move_in(S, C)
    if phase == FORTIFY:
        _pixie_fronts(S, C, work)
        return _fortify_to(S, C, work)
    return heuristic_decide(S, C, bp, table, work)


#: The sparring bots with their default knobs.
CLUSTER_BOT = ClusterBot()
PIXIE_BOT = PixieBot()
