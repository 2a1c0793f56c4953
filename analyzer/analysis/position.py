"""What a position is worth to each player: continents, reinforcements and attacks.

Everything here reads a :class:`~analyzer.game.state.GameState` and returns plain
values (frozen dataclasses, pandas DataFrames, the solver's results), so the
app and the notebooks share one implementation. Odds come from the exact
solver (:mod:`analyzer.solver.battle`, :mod:`analyzer.solver.chains`); nothing is sampled.

Territories are given by name (any case) or id wherever a function takes one.

>>> from analyzer.game.state import GameState
>>> owner = [0] * 38 + [1] * 4          # player 1 holds Australia, the last four territories
>>> armies = [3] * 38 + [2, 1, 1, 1]
>>> state = GameState.from_position(owner, armies, n_players=3)
>>> status = {c.continent: c for c in continent_status(state, 0)}["Australia"]
>>> status.holder, status.borders, status.missing
(1, ('Indonesia',), ('Indonesia', 'New Guinea', 'Western Australia', 'Eastern Australia'))
>>> round(attack_odds(state, "Siam", "Indonesia").p_win, 4)   # 3 armies (2 rolling) against 2
0.3627
"""

from __future__ import annotations

import copy
import math
import numbers
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd


from analyzer.solver.battle import BattleResult, battle
from analyzer.game.board import Board, NameOrId, classic_board
from analyzer.bots.base import Bot
from analyzer.game.cards import find_sets
from analyzer.solver.chains import ChainResult, chain, conquest
from analyzer.errors import IllegalActionError, PositionError, SimulationError, StateFormatError
from analyzer.sim.evaluate import evaluate
from analyzer.sim.intervals import wilson_interval
from analyzer.game.rules import FORCED_TRADE_HAND, Rules, reinforcement_from_territories
from analyzer.game import face_down
from analyzer.game.state import GameState
from analyzer.game.vocabulary import forces

#: Keys of :attr:`GameState.labels` under which :func:`with_player_labels` keeps the players' names and colours.
NAMES_LABEL = "names"
COLORS_LABEL = "colors"
#: The one colour format every front end here reads (a colour picker's and matplotlib's alike).
_HEX_COLOR = re.compile(r"#[0-9a-fA-F]{6}")

#: What holding one more territory is worth, in armies, in :func:`attack_suggestions`'s expected gain:
#: the army left on it, its share of the territories // 3 reinforcement, and the card a first conquest earns.
TERRITORY_VALUE = 1.0


# ---------------------------------------------------------------------------------- entering a position
def edit_position(
    state: GameState,
    *,
    owner: Mapping[str, Any] | Mapping[int, Any] | None = None,
    armies: Mapping[str, Any] | Mapping[int, Any] | None = None,
    player: int | None = None,
    hands: Mapping[int, Sequence[int]] | None = None,
    sets_traded: int | None = None,
) -> GameState:
    """A new game: ``state`` with the given changes, at the start of ``player``'s turn.

    ``owner`` and ``armies`` map territories (name or id) to a new owner id or
    army count; ``hands`` replaces the hands of the players it names, a card
    held face down written ``"?"``; anything not given is kept (face-down
    cards stay face down), and so are ``state``'s labels. The result is built by
    :meth:`GameState.from_position`, so every value is checked there, and an
    error (a :class:`ValueError`) names the territory and the value; ``state``
    itself is never changed. The new game starts at the beginning of
    ``player``'s turn (the player to move in ``state`` by default) with no
    history: it is a position entered mid-game.

    >>> import numpy as np
    >>> state = GameState.random_start(3, np.random.default_rng(1))
    >>> edited = edit_position(state, armies={"Alaska": 9})
    >>> int(edited.armies[0]), int(state.armies[0]) != 9
    (9, True)
    >>> edit_position(state, armies={"Alaska": -2})
    Traceback (most recent call last):
    ...
    analyzer.errors.PositionError: Alaska has -2 armies; every territory holds 1 to 1000000 (analyzer.limits.MAX_ARMIES)
    """
    board = state.board
    new_owner = state.owner.astype(np.int64)
    new_armies = state.armies.astype(np.int64)
    for changes, target, what in ((owner, new_owner, "owner"), (armies, new_armies, "armies")):
        for key, value in (changes or {}).items():
            t = board.index(key)
            target[t] = _whole(value, f"{what} of {board.territories[t]}")
    new_hands: dict[int, list[Any]] = {p: state.hand(p) for p in range(state.n_players)}
    given = {int(p) for p in hands or {}}
    for p, cards in (hands or {}).items():
        new_hands[int(p)] = [c if c == face_down.UNKNOWN else int(c) for c in cards]
    # A hand given says what is face down in it ("?"); the others keep their placeholders.
    kept = {c for p, cards in new_hands.items() if p not in given for c in cards}
    edited = GameState.from_position(
        new_owner,
        new_armies,
        n_players=state.n_players,
        player=state.player if player is None else player,
        hands=new_hands,
        sets_traded=state.sets_traded if sets_traded is None else sets_traded,
        rules=state.rules,
        board=board,
        face_down=[c for c in state.face_down if c in kept],
    )
    # from_position builds a game from scratch; the names and colours still belong to the same table.
    edited.labels = copy.deepcopy(state.labels)
    return edited


def blank_position(n_players: int, *, rules: Rules | None = None, board: Board | None = None) -> GameState:
    """A board to type a real game over: territories dealt round the table by id, one army each.

    In a two-player game every third territory goes to the neutral force.

    >>> state = blank_position(4)
    >>> state.owner[:6].tolist(), int(state.armies.sum())
    ([0, 1, 2, 3, 0, 1], 42)
    """
    board = classic_board() if board is None else board
    n = board.n_territories
    return GameState.from_position([t % forces(n_players) for t in range(n)], [1] * n, n_players=n_players, rules=rules, board=board)


def with_player_labels(state: GameState, names: Sequence[str], colors: Sequence[str]) -> GameState:
    """A copy of ``state`` that keeps the players' ``names`` and ``colors`` in its labels, to be saved with it.

    One name and one ``#rrggbb`` colour per seat (the neutral force has
    neither); other labels are kept. :func:`player_labels` reads them back.

    >>> state = GameState.from_position([0] * 41 + [1], [3] * 42, n_players=3)
    >>> saved = GameState.from_json(with_player_labels(state, ["Ann", "Bo", "Cy"], ["#d62728"] * 3).to_json())
    >>> player_labels(saved)[0]
    ['Ann', 'Bo', 'Cy']
    """
    labelled = state.copy()
    labelled.labels[NAMES_LABEL] = _checked_labels(NAMES_LABEL, list(names), state.n_players, PositionError)
    labelled.labels[COLORS_LABEL] = _checked_labels(COLORS_LABEL, list(colors), state.n_players, PositionError)
    return labelled


def player_labels(state: GameState) -> tuple[list[str] | None, list[str] | None]:
    """The players' names and colours kept in ``state``'s labels, a seat at a time; None for either one not kept.

    The labels come from a file that may have been edited by hand, so they are
    checked: a :class:`~analyzer.errors.StateFormatError` says which is malformed.
    """
    def kept(key: str) -> list[str] | None:
        if key not in state.labels:
            return None
        return _checked_labels(key, state.labels[key], state.n_players, StateFormatError)

    return kept(NAMES_LABEL), kept(COLORS_LABEL)


def _checked_labels(key: str, values: Any, n_players: int, error: type[ValueError]) -> list[str]:
    what = "player names" if key == NAMES_LABEL else "player colours"
    if not isinstance(values, list) or len(values) != n_players:
        raise error(f"the {what} must be a list of {n_players}, one per seat, got {values!r}")
    for seat, value in enumerate(values, start=1):
        if not isinstance(value, str):
            raise error(f"the {what} must be text; seat {seat} has {value!r}")
        if key == COLORS_LABEL and not _HEX_COLOR.fullmatch(value):
            raise error(f"seat {seat}'s colour {value!r} is not a colour like #1f5fbf")
    return list(values)


def _whole(value: Any, what: str) -> int:
    """``value`` as an int if it is a whole number (a data editor hands back floats, or NaN for a cleared cell)."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        raise PositionError(f"{what} is empty; enter a whole number")
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise PositionError(f"{what} must be a whole number, got {value!r}")
    if isinstance(value, numbers.Integral):
        return int(value)
    if not float(value).is_integer():
        raise PositionError(f"{what} must be a whole number, got {value!r}")
    return int(float(value))


# ---------------------------------------------------------------------------------- attacks
def attack_targets(state: GameState, source: NameOrId) -> list[int]:
    """Ids of the territories that ``source``'s owner could attack from it: its neighbours held by someone else."""
    s = state.board.index(source)
    return [t for t in state.board.neighbors[s] if state.owner[t] != state.owner[s]]


def attack_sources(state: GameState, player: int | None = None, *, stop_at: int = 1) -> list[int]:
    """Ids of the territories with more than ``stop_at`` armies and an enemy neighbour.

    Of ``player``'s territories, or of every player's but the neutral force's
    (which never attacks) when ``player`` is None.
    """
    ids = range(state.board.n_territories) if player is None else state.territories_of(player)
    return [
        t for t in ids
        if state.armies[t] > stop_at and state.owner[t] != state.neutral and attack_targets(state, t)
    ]


def _check_border(state: GameState, source: int, target: int) -> None:
    if not state.board.adjacency[source, target]:
        names = state.board.territories
        raise IllegalActionError(f"{names[source]} does not border {names[target]}: attacks go to a neighbouring territory")


def _check_enemy(state: GameState, source: int, target: int) -> None:
    if state.owner[source] == state.owner[target]:
        names = state.board.territories
        raise IllegalActionError(f"{names[source]} and {names[target]} have the same owner: "
                                 "attack a territory held by someone else")


def attack_odds(state: GameState, source: NameOrId, target: NameOrId, *, stop_at: int = 1) -> BattleResult:
    """The exact battle of every army on ``source`` against every army on ``target``.

    Raises :class:`IllegalActionError` if they do not border or have the same
    owner, and :class:`~analyzer.errors.BattleInputError` if ``source`` has too
    few armies for ``stop_at``.
    """
    s, t = state.board.index(source), state.board.index(target)
    _check_border(state, s, t)
    _check_enemy(state, s, t)
    return battle(int(state.armies[s]), int(state.armies[t]), stop_at=stop_at)


def chain_odds(state: GameState, path: Sequence[NameOrId], *, stop_at: int = 1, garrison: int = 1) -> ChainResult:
    """Exact odds of the stack on ``path[0]`` conquering ``path[1:]`` one after another.

    Each territory of the path must border the one before it and be held by
    someone other than the attacker; ``garrison`` is left in each conquered
    territory the stack moves on from (see :mod:`analyzer.solver.chains`).
    """
    board = state.board
    ids = [board.index(t) for t in path]
    if len(ids) < 2:
        raise IllegalActionError(f"a chain needs the attacking territory and at least one target, got {len(ids)} territories")
    seen = set()
    for prev, t in zip(ids, ids[1:]):
        if t in seen or t == ids[0]:
            raise IllegalActionError(f"{board.territories[t]} appears twice in the chain")
        seen.add(t)
        _check_border(state, prev, t)
        _check_enemy(state, ids[0], t)
    return chain(int(state.armies[ids[0]]), [int(state.armies[t]) for t in ids[1:]], garrison=garrison, stop_at=stop_at)


# ---------------------------------------------------------------------------------- continents
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
            for t in members if names[t] in borders
        }
        missing_ids = [t for t in members if not mine[t]]
        value = continent.bonus + reinforcement_from_territories(n_owned + len(missing_ids)) - reinforcement_from_territories(n_owned)
        base = dict(
            continent=continent.name, bonus=continent.bonus, player=player, holder=holder,
            owned=len(members) - len(missing_ids), size=len(members), borders=borders, border_threat=threat,
            missing=tuple(names[t] for t in missing_ids),
            missing_defenders=int(state.armies[missing_ids].sum()),
            value_per_turn=value,
        )
        out.append(_completion(state, player, missing_ids, stop_at, base))
    return out


def _completion(state: GameState, player: int, missing: list[int], stop_at: int, base: dict[str, Any]) -> ContinentStatus:
    board = state.board
    names = board.territories
    if not missing:
        return ContinentStatus(**base, staging={}, p_complete=1.0, expected_cost=0.0, cost_exact=True, plan=(),
                               method="held", notes="held in full")
    staging = {
        names[s]: int(state.armies[s])
        for s in sorted({u for t in missing for u in board.neighbors[t]})
        if state.owner[s] == player and state.armies[s] > stop_at
    }
    reached = _reachable(board, staging, missing)
    if len(reached) < len(missing):
        cut_off = [names[t] for t in missing if t not in reached]
        return ContinentStatus(**base, staging=staging, p_complete=0.0, expected_cost=math.nan, cost_exact=True,
                               plan=(), method="unreachable",
                               notes=f"no stack of more than {stop_at} armies can reach {', '.join(cut_off)} this turn")
    targets = {names[t]: int(state.armies[t]) for t in missing}
    pairs = [(names[b.a], names[b.b]) for b in board.borders]
    result = conquest(staging, targets, pairs, stop_at=stop_at)
    cost, exact = _plan_cost(result.plan, staging, targets, stop_at)
    return ContinentStatus(**base, staging={s: a for s, a in staging.items() if s in result.p_by_staging},
                           p_complete=result.p_all, expected_cost=cost, cost_exact=exact, plan=result.plan,
                           method=result.method)


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


def _plan_cost(plan: Sequence[tuple[str, str]], staging: Mapping[str, int], targets: Mapping[str, int],
               stop_at: int) -> tuple[float, bool]:
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
        rows.append({
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
        })
    frame = pd.DataFrame(rows)
    frame["holder"] = frame["holder"].astype("Int64")
    return frame


# ---------------------------------------------------------------------------------- reinforcements
def reinforcement_forecast(state: GameState) -> pd.DataFrame:
    """What each player still in the game gets at the start of their next turn, one row per player.

    Columns: ``player`` (id), ``territories``, ``from_territories``
    (``max(3, territories // 3)``), ``continents`` (names held in full),
    ``from_continents`` (their bonuses), ``base`` (the sum: no cards),
    ``cards`` (in hand), ``has_set``, ``must_trade`` (holds 5 or more),
    ``set_value`` (what a set traded now is worth: under progressive values the
    next value of the shared counter, which grows with every trade made before
    this player's turn; under fixed values the best set in the hand; 0 without
    a set) and ``with_set`` (``base + set_value``). ``face_down`` counts the
    cards held face down and ``p_set`` is the exact chance that the hand holds
    a set (:func:`analyzer.game.face_down.set_chance`: 1 or 0 when every card
    is known). With face-down cards ``has_set`` means a set is certain (five
    cards always hold one), and under fixed values a set of unknown cards is
    counted at the least a set is worth.

    >>> state = GameState.from_position([0] * 41 + [1], [3] * 42, n_players=3)
    >>> reinforcement_forecast(state)[["player", "from_territories", "from_continents", "base"]].values.tolist()
    [[0, 13, 22, 35], [1, 3, 0, 3]]
    """
    board = state.board
    rows = []
    for p in range(state.n_players):
        owned = int(np.count_nonzero(state.owner == p))
        if owned == 0:
            continue
        held = state.continents_held(p)
        hand = state.hand(p)
        symbols = [int(x) for x in board.card_symbols]
        hidden = [c for c in hand if c in set(state.face_down)]
        sets = find_sets([c for c in hand if c not in hidden], symbols)
        p_set = float(face_down.set_chance(state, p)) if hidden else float(bool(sets))
        if p_set < 1:
            value = 0
        elif state.rules.card_values == "progressive":
            value = state.next_set_value()
        elif sets:
            value = max(state.rules.set_value(state.sets_traded, (symbols[a], symbols[b], symbols[c])) for a, b, c in sets)
        else:
            value = min(state.rules.set_value(state.sets_traded, three) for three in ((0, 0, 0), (1, 1, 1), (2, 2, 2), (0, 1, 2)))
        from_territories = reinforcement_from_territories(owned)
        from_continents = sum(board.continents[c].bonus for c in held)
        rows.append({
            "player": p,
            "territories": owned,
            "from_territories": from_territories,
            "continents": ", ".join(board.continents[c].name for c in held),
            "from_continents": from_continents,
            "base": from_territories + from_continents,
            "cards": len(hand),
            "face_down": len(hidden),
            "p_set": p_set,
            "has_set": p_set == 1,
            "must_trade": len(hand) >= FORCED_TRADE_HAND,
            "set_value": value,
            "with_set": from_territories + from_continents + value,
        })
    columns = ["player", "territories", "from_territories", "continents", "from_continents", "base", "cards",
               "face_down", "p_set", "has_set", "must_trade", "set_value", "with_set"]
    return pd.DataFrame(rows, columns=columns)


# ---------------------------------------------------------------------------------- suggestions
def attack_suggestions(
    state: GameState,
    player: int | None = None,
    *,
    stop_at: int = 1,
    territory_value: float = TERRITORY_VALUE,
) -> pd.DataFrame:
    """Every attack ``player`` (the player to move by default) can make now, best first.

    One row per (source, target) with the source's whole stack attacking until
    it conquers or holds ``stop_at`` armies. The expected gain, in armies, is::

        expected_gain = p_win * (territory_value + completes_bonus + breaks_bonus) - attacker_losses

    where ``p_win`` and ``attacker_losses`` (expected armies the attacker loses,
    won or lost) are the solver's exact values, ``territory_value`` is what one
    more territory is worth (:data:`TERRITORY_VALUE`), ``completes_bonus`` is
    the bonus of the target's continent if the target is the last territory of
    it that ``player`` lacks, and ``breaks_bonus`` is that bonus if the
    target's owner holds the whole continent (taking it cuts their
    reinforcements). A continent bonus is counted for one turn. The defender's
    losses are listed but not counted as gain: in a game of more than two
    players, weakening one opponent helps the others too.

    Rows are sorted by expected gain, then by P(win). Columns: ``source``,
    ``target``, ``defender`` (owner id), ``attackers``, ``defenders``,
    ``p_win``, ``attacker_losses``, ``attacker_losses_std``,
    ``defender_losses``, ``completes`` and ``breaks`` (continent names or
    ""), ``expected_gain``.
    """
    board = state.board
    p = state.player if player is None else player
    mine = state.owner == p
    rows = []
    for s in attack_sources(state, p, stop_at=stop_at):
        for t in attack_targets(state, s):
            r = battle(int(state.armies[s]), int(state.armies[t]), stop_at=stop_at)
            c = int(board.continent_of[t])
            continent = board.continents[c]
            others = [u for u in continent.territories if u != t]
            completes = continent.name if all(mine[u] for u in others) else ""
            breaks = continent.name if all(state.owner[u] == state.owner[t] for u in others) else ""
            bonus = continent.bonus * (bool(completes) + bool(breaks))
            rows.append({
                "source": board.territories[s],
                "target": board.territories[t],
                "defender": int(state.owner[t]),
                "attackers": int(state.armies[s]),
                "defenders": int(state.armies[t]),
                "p_win": r.p_win,
                "attacker_losses": r.expected_attacker_losses,
                "attacker_losses_std": r.std_attacker_losses,
                "defender_losses": r.expected_defender_losses,
                "completes": completes,
                "breaks": breaks,
                "expected_gain": r.p_win * (territory_value + bonus) - r.expected_attacker_losses,
            })
    columns = ["source", "target", "defender", "attackers", "defenders", "p_win", "attacker_losses",
               "attacker_losses_std", "defender_losses", "completes", "breaks", "expected_gain"]
    frame = pd.DataFrame(rows, columns=columns)
    return frame.sort_values(["expected_gain", "p_win"], ascending=False, ignore_index=True)


# ---------------------------------------------------------------------------------- chances to win
@dataclass(frozen=True)
class WinChances:
    """Each player's chance to win from a position, estimated by rollouts within a time budget.

    ``table`` has one row per player: ``player``, ``wins``, ``p_win`` and the
    Wilson interval ``ci_low``, ``ci_high`` at ``confidence``. ``capped``
    rollouts hit the round cap with no winner and count as a loss for all.
    ``seconds`` is the time the rollouts took. ``assumed`` says what the
    rollouts assumed of cards nobody has seen ("" when every card is known).
    """

    table: pd.DataFrame
    rollouts: int
    capped: int
    confidence: float
    seconds: float
    assumed: str = ""


def face_down_assumption(state: GameState) -> str:
    """What an analysis that draws the face-down cards assumes of them, in words ("" if none is face down).

    >>> owner = [0] * 14 + [1] * 14 + [2] * 14
    >>> state = GameState.from_position(owner, [3] * 42, hands={1: ["?", "?"], 2: ["?"]})
    >>> face_down_assumption(state)
    'Face-down cards (Player 2 2, Player 3 1) drawn at random from the 44 cards not yet seen, afresh in each rollout.'
    """
    counts = face_down.counts(state)
    if not any(counts):
        return ""
    names = player_labels(state)[0] or [f"Player {p + 1}" for p in range(state.n_players)]  # only seats hold cards
    held = ", ".join(f"{names[p]} {k}" for p, k in enumerate(counts) if k)
    return (f"Face-down cards ({held}) drawn at random from the {len(face_down.unseen(state))} cards not yet seen, "
            "afresh in each rollout.")


def win_chances(
    state: GameState,
    bots: Sequence[Bot | str] | str = "default",
    *,
    budget: float = 10.0,
    batch: int = 20,
    max_rollouts: int = 2000,
    seed: int = 0,
    confidence: float = 0.95,
    on_progress: Callable[[int, float], None] | None = None,
) -> WinChances:
    """:func:`analyzer.sim.evaluate.evaluate` in batches of ``batch`` rollouts until ``budget`` seconds are spent.

    A new batch starts only while time is left (the first always runs), and
    never past ``max_rollouts``. Batch ``k`` is ``evaluate(..., seed=s_k)`` with
    ``s_k`` drawn from ``SeedSequence(seed, spawn_key=(k,))``, so the same
    ``seed`` and number of batches give the same estimate.
    ``on_progress(rollouts_done, fraction_of_budget_used)`` is called after
    each batch, for a progress bar.

    With face-down cards (:attr:`GameState.face_down`) each rollout draws
    them afresh from its own generator (the simulator's ``start``), so the
    placeholders' identities never decide a rollout.

    >>> import numpy as np
    >>> state = GameState.random_start(3, np.random.default_rng(2))
    >>> chances = win_chances(state, budget=0, batch=4, seed=1)    # no time: one batch
    >>> chances.rollouts, int(chances.table["wins"].sum()) + chances.capped
    (4, 4)
    """
    if batch < 1 or max_rollouts < 1:
        raise SimulationError(f"batch and max_rollouts must be at least 1, got {batch} and {max_rollouts}")
    if not 0 < confidence < 1:
        raise SimulationError(f"confidence must be between 0 and 1, got {confidence!r}")
    started = time.perf_counter()
    wins = np.zeros(state.n_players, dtype=np.int64)
    done = capped = k = 0
    while done == 0 or (time.perf_counter() - started < budget and done < max_rollouts):
        n = min(batch, max_rollouts - done)
        batch_seed = int(np.random.SeedSequence(seed, spawn_key=(k,)).generate_state(1)[0])
        result = evaluate(state, bots, rollouts=n, seed=batch_seed, progress=False)
        wins += result.table["wins"].to_numpy()
        capped += result.capped
        done += n
        k += 1
        if on_progress is not None:
            on_progress(done, min(1.0, (time.perf_counter() - started) / budget) if budget > 0 else 1.0)
    rows = []
    for p in range(state.n_players):
        low, high = wilson_interval(int(wins[p]), done, confidence)
        rows.append({"player": p, "wins": int(wins[p]), "p_win": wins[p] / done, "ci_low": low, "ci_high": high})
    return WinChances(pd.DataFrame(rows), done, capped, confidence, time.perf_counter() - started,
                      face_down_assumption(state))
