"""Eliminations for cards, compiled: who is weakest counting their cards, the cheapest route from a
stack through all of a player's territories, its odds, and what the cards taken are worth.

A player knocked out hands its cards to whoever took its last territory. Under progressive set values
(4, 6, 8, 10, 12, 15, then +5) three to five cards traded at once are worth more than a continent by
mid-game, so both the sparring :mod:`~analyzer.bots.hunter` and the
:mod:`~analyzer.bots.strategist` plan such kills, with the kernels here.

The route is scored as the planner scores a whole region (:mod:`analyzer.bots.planner`): one battle
from the stack against every army on the way plus the army left behind in each territory the stack
moves on from, read from the exact solver's win table (``tests/bots/test_hunter.py`` checks it against
:func:`analyzer.solver.chains.chain` on hand-built routes).

The kernels keep their figures in a scratch vector past the heuristic family's own
(:func:`scratch_size`), at the offsets :func:`regions` derives from :data:`REGIONS`; :func:`choose`
is both bots' Python entry to their compiled decisions.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from analyzer.bots.base import Decision
from analyzer.bots.heuristic import _FORCES, check_decision_phase, decode, work_size
from analyzer.bots.planner import PlannerBot, planner_args
from analyzer.game.engine import steps as engine
from analyzer.game.engine.layout import AT_ALIVE, armies_view, card_view, owner_view
from analyzer.game.state import GameState
from analyzer.kernels import kernel

#: The scratch regions past :func:`analyzer.bots.heuristic.work_size`, in order: name, and its length
#: in territories (``n``) and forces (the heuristic's room for up to 8 forces).
REGIONS: tuple[tuple[str, int, int], ...] = (
    ("cost", 1, 0),  # armies to beat from each territory into the victim's (see route_costs)
    ("done", 1, 0),  # Dijkstra's settled flags, then the breadth-first queue of components
    ("queue", 1, 0),
    ("armies", 0, 1),  # each force's armies, territories and cards (see tally)
    ("territories", 0, 1),
    ("cards", 0, 1),
    ("top", 0, 1),  # each force's biggest stack
)
R_COST, R_DONE, R_QUEUE, R_ARMIES, R_TERRITORIES, R_CARDS, R_TOP = range(len(REGIONS))
N_REGIONS = len(REGIONS)
#: A cost no route reaches.
FAR = 1e9


def choose(
    bot: PlannerBot, decide: Callable[..., tuple[int, int, int, int, int]], state: GameState, rng: np.random.Generator
) -> Decision:
    """``bot``'s decision made by its compiled ``decide`` (the code the compiled playout runs), with a
    fresh scratch vector of :func:`scratch_size`."""
    check_decision_phase(bot, state.phase)
    bp, table = planner_args(bot, state.board, state.rules.dice)
    n = state.board.n_territories
    work = np.empty(scratch_size(n, len(state.board.continents)))
    return decode(decide(state.S, state.C, bp, table, rng, work, np.full(n, -1.0)))


#: Where each region starts past the heuristic's scratch: territories and forces before it.
_BEFORE_T = tuple(sum(r[1] for r in REGIONS[:i]) for i in range(len(REGIONS) + 1))
_BEFORE_F = tuple(sum(r[2] for r in REGIONS[:i]) for i in range(len(REGIONS) + 1))


@kernel(inline=True)
def region(n, nc, r):  # pragma: no cover - compiled
    """Where region ``r`` (an ``R_*`` index of :data:`REGIONS`) starts in the scratch vector."""
    return work_size(n, nc) + _BEFORE_T[r] * n + _BEFORE_F[r] * _FORCES


@kernel
def scratch_size(n, nc):  # pragma: no cover - compiled
    """Length of the scratch vector the hunting bots use: the heuristic's, then :data:`REGIONS`."""
    return region(n, nc, N_REGIONS)


@kernel(inline=True)
def regions(n, nc):  # pragma: no cover - compiled
    """The starts of the regions, in the order of :data:`REGIONS`."""
    return (
        region(n, nc, R_COST),
        region(n, nc, R_DONE),
        region(n, nc, R_QUEUE),
        region(n, nc, R_ARMIES),
        region(n, nc, R_TERRITORIES),
        region(n, nc, R_CARDS),
    )


@kernel(inline=True)
def tally(S, C, work):  # pragma: no cover - compiled
    """Each force's armies, territories and biggest stack, into their regions of ``work`` (the cards
    are :func:`tally_cards`'s: most decisions rule every kill out before they need them)."""
    owner = owner_view(S)
    armies = armies_view(S)
    n = owner.shape[0]
    nc = C[engine.R_CONTINENTS]
    A, T, TOP = region(n, nc, R_ARMIES), region(n, nc, R_TERRITORIES), region(n, nc, R_TOP)
    for f in range(_FORCES):
        work[A + f] = 0.0
        work[T + f] = 0.0
        work[TOP + f] = 0.0
    for u in range(n):
        o = owner[u]
        if o >= 0:
            work[A + o] += armies[u]
            work[T + o] += 1.0
            if armies[u] > work[TOP + o]:
                work[TOP + o] = armies[u]


@kernel(inline=True)
def tally_cards(S, C, work):  # pragma: no cover - compiled
    """Each force's cards in hand, into the cards region of ``work``."""
    K = region(S[engine.N_TERRITORIES], C[engine.R_CONTINENTS], R_CARDS)
    for f in range(_FORCES):
        work[K + f] = 0.0
    cards = card_view(S)
    for c in range(cards.shape[0]):
        if cards[c] >= 0:
            work[K + cards[c]] += 1.0


@kernel
def set_value_at(S, C, k):  # pragma: no cover - compiled
    """What the ``k``-th set from now is worth (``k = 0``: the next); under fixed values their mean, 7."""
    if C[engine.R_FIXED_VALUES]:
        return 7.0
    return float(C[C[engine.O_SET_VALUES] + min(S[engine.SETS_TRADED] + k, engine.SET_VALUE_TABLE - 1)])


@kernel
def weakest(S, C, player, ratio, work):  # pragma: no cover - compiled
    """The opponent with the fewest armies net of their cards (armies - next set value x cards / 3),
    among those ``player`` outnumbers more than ``ratio`` times; -1 if none. Needs :func:`tally`
    (and counts the cards if any opponent is outnumbered so)."""
    n = S[engine.N_TERRITORIES]
    _, _, _, A, T, K = regions(n, C[engine.R_CONTINENTS])
    mine = work[A + player]
    outnumbered = False
    for o in range(S[engine.N_PLAYERS]):
        outnumbered = outnumbered or (o != player and work[T + o] > 0 and mine > ratio * work[A + o])
    if not outnumbered:
        return -1
    tally_cards(S, C, work)
    value = set_value_at(S, C, 0)
    best, best_net = -1, 0.0
    for o in range(S[engine.N_PLAYERS]):
        if o == player or work[T + o] == 0 or not S[S[AT_ALIVE] + o]:
            continue
        if mine <= ratio * work[A + o]:
            continue
        net = work[A + o] - value * work[K + o] / 3.0
        if best < 0 or net < best_net:
            best, best_net = o, net
    return best


@kernel
def route_costs(S, C, victim, player, budget, extra, work):  # pragma: no cover - compiled
    """For every territory not ``player``'s, in the cost region: the armies to beat on the cheapest way
    from it into ``victim``'s territories, each territory on the way counted with the army the stack
    leaves there (0 on the victim's own; :data:`FAR` where ``player``'s own territories cut it off, or
    where the way costs more than ``budget``: no stack could afford it, and the search stops there).

    Dijkstra's search over the board from the victim's territories (n is small: a linear scan for the
    next territory beats a heap). It also stops once no stack of ``player`` (with ``extra`` more armies)
    could be left with as much after its cost as the best stack reached so far: the costs past that
    are left above their true value, which changes neither :func:`best_stack` nor :func:`next_battle`
    (every territory as cheap as the chosen stack's way on is settled). Returns how many connected groups
    the victim's territories form: the costs are left unset unless it is one."""
    owner = owner_view(S)
    armies = armies_view(S)
    n = owner.shape[0]
    D, DONE, Q, _, _, _ = regions(n, C[engine.R_CONTINENTS])
    width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
    # The victim's connected groups, breadth first: a route through all of them needs one.
    groups = 0
    for u in range(n):
        work[DONE + u] = 0.0
    for u in range(n):
        if owner[u] != victim or work[DONE + u] != 0.0:
            continue
        groups += 1
        work[DONE + u] = 1.0
        work[Q] = u
        head, tail = 0, 1
        while head < tail:
            x = int(work[Q + head])
            head += 1
            for j in range(width):
                w = C[nb + x * width + j]
                if w < 0:
                    break
                if owner[w] == victim and work[DONE + w] == 0.0:
                    work[DONE + w] = 1.0
                    work[Q + tail] = w
                    tail += 1
    if groups != 1:
        return groups
    # DONE: 0 unseen, 1 open (listed in Q[:m]), 2 settled. Only the open territories are scanned for
    # the next one: the budget keeps that list short.
    m = 0
    reach = 0.0  # the biggest stack, with extra
    for u in range(n):
        if owner[u] == victim:
            work[D + u] = 0.0
            work[DONE + u] = 1.0
            work[Q + m] = u
            m += 1
        else:
            work[D + u] = FAR
            work[DONE + u] = 0.0
            if owner[u] == player and armies[u] + extra > reach:
                reach = armies[u] + extra
    # The most a stack next to a settled territory keeps after its cost: best_stack's pick, so far.
    best_left = -FAR
    while m > 0:
        i = 0
        for k in range(1, m):
            if work[D + int(work[Q + k])] < work[D + int(work[Q + i])]:
                i = k
        u = int(work[Q + i])
        cost = work[D + u]
        if cost > reach - best_left:
            break
        m -= 1
        work[Q + i] = work[Q + m]
        work[DONE + u] = 2.0
        for j in range(width):
            w = C[nb + u * width + j]
            if w < 0:
                break
            if owner[w] == player:
                # Territories settle cheapest first: the first settled next to a stack is its cost.
                if armies[w] + extra >= 2 and armies[w] + extra - cost > best_left:
                    best_left = armies[w] + extra - cost
                continue
            if work[DONE + w] == 2.0:
                continue
            c = work[D + u] + armies[w] + 1.0
            if c < work[D + w] and c <= budget:
                work[D + w] = c
                if work[DONE + w] == 0.0:
                    work[DONE + w] = 1.0
                    work[Q + m] = w
                    m += 1
    return groups


@kernel(inline=True)
def best_stack(S, C, player, extra, work):  # pragma: no cover - compiled
    """``(stack, cost)``: ``player``'s territory with the most armies (plus ``extra``) left over after
    the cost of reaching the victim from it (the cheapest next territory's cost, after
    :func:`route_costs`); stack -1 if none can attack or reach it."""
    owner = owner_view(S)
    armies = armies_view(S)
    n = owner.shape[0]
    D = regions(n, C[engine.R_CONTINENTS])[0]
    width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
    best, best_cost, best_left = -1, FAR, -FAR
    for s in range(n):
        if owner[s] != player or armies[s] + extra < 2:
            continue
        cost = FAR
        for j in range(width):
            w = C[nb + s * width + j]
            if w < 0:
                break
            if owner[w] != player and work[D + w] < cost:
                cost = work[D + w]
        if cost >= FAR:
            continue
        left = armies[s] + extra - cost
        if left > best_left:
            best, best_cost, best_left = s, cost, left
    return best, best_cost


@kernel(inline=True)
def next_battle(S, C, stack, victim, work):  # pragma: no cover - compiled
    """The next territory the route from ``stack`` attacks: a victim's territory next to it (of those,
    the one with the fewest of the victim's other territories next to it, so that the route starts at
    an end of the victim's group rather than cutting it in two; then the fewest armies), else the
    neighbour with the cheapest way on; -1 if none (after :func:`route_costs`)."""
    owner = owner_view(S)
    armies = armies_view(S)
    n = owner.shape[0]
    D = regions(n, C[engine.R_CONTINENTS])[0]
    width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
    p = owner[stack]
    best, best_key, best_armies = -1, FAR, 0
    for j in range(width):
        w = C[nb + stack * width + j]
        if w < 0:
            break
        if owner[w] == p or work[D + w] >= FAR:
            continue
        if owner[w] == victim:
            links = 0
            for k in range(width):
                x = C[nb + w * width + k]
                if x < 0:
                    break
                if owner[x] == victim:
                    links += 1
            key = -1000.0 + links
        else:
            key = work[D + w]
        if best < 0 or key < best_key or (key == best_key and armies[w] < best_armies):
            best, best_key, best_armies = w, key, armies[w]
    return best


@kernel
def defenders_to_beat(C, victim_armies, victim_territories, cost):  # pragma: no cover - compiled
    """The route as one battle: the victim's armies and the armies on the way, plus the army left in
    each territory the stack moves on from (the last one it takes keeps the rest)."""
    return int(victim_armies + victim_territories - 1 + cost)


@kernel
def cards_worth(S, C, mine, taken, later):  # pragma: no cover - compiled
    """Armies that ``taken`` cards are worth to a player holding ``mine``: with 6 or more in hand after
    the kill, the sets traded at once down to 4 (each at the set value its turn in the count gives),
    and ``later`` x a third of the next set value for every card kept."""
    hand = mine + taken
    worth = 0.0
    k = 0
    if hand >= 6:
        while hand >= 5:
            worth += set_value_at(S, C, k)
            hand -= 3
            k += 1
        kept = float(hand - mine) if hand > mine else 0.0
    else:
        kept = float(taken)
    return worth + later * kept * set_value_at(S, C, k) / 3.0


@kernel
def keep_behind(S, C, victim, work):  # pragma: no cover - compiled
    """Armies to keep on the source of a capture on a route: enough to take the victim's territories
    next to the source that the captured territory does not touch (they would be cut off from the
    stack), twice their armies and one; never more than the move-in range allows."""
    owner = owner_view(S)
    armies = armies_view(S)
    s, t = S[engine.MOVE_S], S[engine.MOVE_T]
    width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
    keep = 0
    for j in range(width):
        w = C[nb + s * width + j]
        if w < 0:
            break
        if owner[w] != victim or victim < 0:
            continue
        touches = False
        for k in range(width):
            x = C[nb + t * width + k]
            if x < 0:
                break
            if x == w:
                touches = True
        if not touches:
            keep += 2 * armies[w] + 1
    return min(keep, S[engine.MOVE_HI] - S[engine.MOVE_LO])


@kernel(inline=True)
def biggest(S, C, player, work):  # pragma: no cover - compiled
    """The most armies on one of ``player``'s territories (after :func:`tally`)."""
    return work[region(S[engine.N_TERRITORIES], C[engine.R_CONTINENTS], R_TOP) + player]


@kernel(inline=True)
def cut_off_owners(S, C):  # pragma: no cover - compiled
    """The owners (a bit each) of the enemy territories next to the source of the pending move-in that
    the captured one does not touch: 0 if none, and then :func:`keep_behind` keeps nothing back."""
    owner = owner_view(S)
    s, t = S[engine.MOVE_S], S[engine.MOVE_T]
    p = owner[s]
    width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
    owners = 0
    for j in range(width):
        w = C[nb + s * width + j]
        if w < 0:
            break
        if owner[w] == p or w == t:
            continue
        touches = False
        for k in range(width):
            x = C[nb + t * width + k]
            if x < 0:
                break
            if x == w:
                touches = True
        if not touches:
            owners |= 1 << owner[w]
    return owners


@kernel(inline=True)
def within_reach(S, C, player, owners, share):  # pragma: no cover - compiled
    """Whether ``player``'s biggest stack holds at least ``share`` x what a kill of one of ``owners``
    (a bit each, players only) has to beat at the least (:func:`defenders_to_beat` at no cost): one
    pass over the board for those owners only, where :func:`tally` counts every force."""
    owner = owner_view(S)
    armies = armies_view(S)
    top = 0
    for u in range(owner.shape[0]):
        if owner[u] == player and armies[u] > top:
            top = armies[u]
    for o in range(S[engine.N_PLAYERS]):
        if not (owners >> o) & 1:
            continue
        count, total = 0, 0
        for u in range(owner.shape[0]):
            if owner[u] == o:
                count += 1
                total += armies[u]
        if count > 0 and top >= share * defenders_to_beat(C, total, count, 0.0):
            return True
    return False
