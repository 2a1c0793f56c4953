"""A parameterised family of heuristic bots, and the strong default one.

Every decision is a few numpy operations on the state's arrays plus data
computed once per board (:func:`board_data`) and once per battle stop rule
(:func:`win_table`), so a bot's move costs microseconds, not a search.

The knobs (all fields of :class:`HeuristicBot`):

* continent priorities: ``continent_focus`` scales how much a target's
  continent matters, by ``continent_weights`` (default: bonus per territory
  to hold and border to defend) and by how much of it the bot already holds;
  completing a continent, breaking an enemy's and eliminating a weak player
  (whose cards it takes) add to a target's value;
* attacks only above a win probability taken from the exact battle solver
  (``attack_threshold``; ``card_threshold`` for the turn's first capture,
  which earns a card), fought on until the target falls or the source holds
  ``stop_at`` armies;
* reinforcement: ``"attack"`` stacks the source of the best attack, ``"ratio"``
  stacks the borders by their ratio of enemy armies to own;
* fortifying: ``"border"`` moves the biggest interior stack toward the front;
* cards: ``"first"`` trades at the first chance, ``"forced"`` holds until
  forced at 5 cards, ``"value"`` holds until a set is worth ``card_value``.

>>> import numpy as np
>>> from analyzer.state import GameState
>>> rng = np.random.default_rng(3)
>>> state = GameState.random_start(4, rng)
>>> bot = HeuristicBot()
>>> type(bot.choose(state, rng)).__name__ in ("Place", "Trade")
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, cast

import numpy as np
from numba import njit

from analyzer.actions import (
    Action,
    ChooseCapital,
    Claim,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    MoveIn,
    Place,
    Trade,
    as_id,
)
from analyzer.battle import BattleOptions, win_grid
from analyzer.board import Board
from analyzer.bots.base import BattleOrder, Decision
from analyzer.cards import set_symbols
from analyzer.dice import DiceRules
from analyzer.errors import BotError
from analyzer.rules import FORCED_TRADE_HAND
from analyzer.state import GameState, Phase

#: Armies up to which :func:`win_table` holds exact win probabilities; bigger battles are scaled down to it.
WIN_TABLE_ARMIES = 256


@dataclass(frozen=True)
class BoardData:
    """Per-board arrays the bots index in their hot loops."""

    src: np.ndarray  # directed borders: every (source, target) pair both ways
    dst: np.ndarray
    continent_of: np.ndarray
    continent_size: np.ndarray
    continent_bonus: np.ndarray
    auto_weights: np.ndarray
    by_continent: np.ndarray  # territory ids sorted by continent, for reduceat
    continent_starts: np.ndarray
    adjacency: np.ndarray  # float, so that a matrix product sums neighbours


@lru_cache(maxsize=8)
def board_data(board: Board) -> BoardData:
    """The arrays of :class:`BoardData` for ``board`` (computed once per board)."""
    adjacency = np.asarray(board.adjacency)
    src, dst = np.nonzero(adjacency)
    continent_of = np.asarray(board.continent_of, dtype=np.int64)
    n_cont = len(board.continents)
    size = np.bincount(continent_of, minlength=n_cont).astype(float)
    bonus = np.asarray(board.continent_bonus, dtype=float)
    # A border territory of a continent is one with a neighbour outside it: what its holder must defend.
    outside = continent_of[src] != continent_of[dst]
    borders = np.bincount(continent_of[np.unique(src[outside])], minlength=n_cont).astype(float)
    auto = bonus / (size + borders)
    order = np.argsort(continent_of, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(continent_of[order]) != 0])
    return BoardData(
        src=src.astype(np.int64),
        dst=dst.astype(np.int64),
        continent_of=continent_of,
        continent_size=size,
        continent_bonus=bonus,
        auto_weights=auto / auto.max(),
        by_continent=order,
        continent_starts=starts,
        adjacency=adjacency.astype(float),
    )


@lru_cache(maxsize=16)
def win_table(stop_at: int, dice: DiceRules) -> np.ndarray:
    """``[a, d]``: P(the attacker conquers) with ``a`` armies on its territory against ``d``, up to
    :data:`WIN_TABLE_ARMIES`, from the exact solver.

    >>> from analyzer.battle import battle
    >>> round(float(win_table(1, DiceRules())[10, 5]), 4) == round(battle(10, 5).p_win, 4)
    True
    """
    value, _, _ = win_grid(WIN_TABLE_ARMIES, stop_at, BattleOptions(dice=dice))
    value.setflags(write=False)
    return value


def win_probability(attackers: np.ndarray, defenders: np.ndarray, stop_at: int, dice: DiceRules) -> np.ndarray:
    """P(win) for arrays of battles; battles beyond the table are scaled down to it, keeping their ratio.

    >>> from analyzer.battle import battle
    >>> p = win_probability(np.array([10, 400]), np.array([5, 200]), 1, DiceRules())
    >>> bool(abs(p[0] - battle(10, 5).p_win) < 1e-12), bool(p[1] > 0.99)
    (True, True)
    """
    a = np.asarray(attackers, dtype=np.int64)
    d = np.asarray(defenders, dtype=np.int64)
    return _p_win_many(win_table(stop_at, dice), a, d)


@njit(cache=True)
def _p_win(table: np.ndarray, a: int, d: int) -> float:  # pragma: no cover - compiled
    top = table.shape[0] - 1
    m = max(a, d)
    if m > top:
        # Odds depend mostly on the ratio; a decision does not need the exact tail.
        scale = top / m
        a = max(int(a * scale), min(a, 2))
        d = max(int(d * scale), 1)
    return table[a, d]


@njit(cache=True)
def _p_win_many(table: np.ndarray, a: np.ndarray, d: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    out = np.empty(a.shape[0])
    for i in range(a.shape[0]):
        out[i] = _p_win(table, a[i], d[i])
    return out


@njit(cache=True)
def _target_values(
    owner, card_loc, player, neutral, n_forces, cont_of, size, bonus, weights, focus, eliminate
):  # pragma: no cover - compiled
    """See :meth:`HeuristicBot.target_values`; ``neutral`` is -1 without a neutral force."""
    n = owner.shape[0]
    n_cont = size.shape[0]
    held = np.zeros(n_cont)
    holder = np.full(n_cont, -2)  # -2: no territory seen yet, -1: more than one owner
    counts = np.zeros(n_forces)
    for t in range(n):
        o = owner[t]
        c = cont_of[t]
        if o == player:
            held[c] += 1
        if holder[c] == -2:
            holder[c] = o
        elif holder[c] != o:
            holder[c] = -1
        counts[o] += 1
    cards = np.zeros(n_forces)
    for i in range(card_loc.shape[0]):
        if card_loc[i] >= 0:
            cards[card_loc[i]] += 1
    per = np.empty(n_cont)
    for c in range(n_cont):
        per[c] = focus * weights[c] * (0.5 + held[c] / size[c]) * bonus[c]
        if size[c] - held[c] == 1:
            # Taking the last missing territory completes the continent: its bonus every turn from now on.
            per[c] += focus * bonus[c]
    values = np.empty(n)
    for t in range(n):
        c = cont_of[t]
        o = owner[t]
        v = 1.0 + per[c]
        if holder[c] >= 0 and holder[c] != player:
            v += focus * bonus[c]
        if eliminate > 0 and o != neutral and counts[o] <= 2:
            v += eliminate * (1.0 + cards[o] / 3.0)
        if o == neutral:
            # Neutral armies never attack back; the opponent is who must be beaten.
            v *= 0.7
        values[t] = v
    return values


@njit(cache=True)
def _best_edge(owner, armies, player, src, dst, values, table, stop_at, threshold, extra):  # pragma: no cover
    """The border (source, target) with the best value x P(win), the source holding ``extra`` more
    armies, among those with P(win) >= ``threshold``; (-1, -1) if none."""
    best = -1.0
    bs = -1
    bt = -1
    for e in range(src.shape[0]):
        s = src[e]
        t = dst[e]
        if owner[s] != player or owner[t] == player:
            continue
        a = armies[s] + extra
        if a <= stop_at or a < 2:
            continue
        p = _p_win(table, a, armies[t])
        if p < threshold:
            continue
        score = values[t] * p
        if score > best:
            best = score
            bs = s
            bt = t
    return bs, bt


@njit(cache=True)
def _best_target_edge(
    owner, armies, card_loc, player, neutral, n_forces, cont_of, size, bonus, weights, focus, eliminate,
    src, dst, table, stop_at, threshold, extra,
):  # pragma: no cover - compiled
    """:func:`_best_edge` by :func:`_target_values`, in one call from Python."""
    values = _target_values(owner, card_loc, player, neutral, n_forces, cont_of, size, bonus, weights, focus, eliminate)
    return _best_edge(owner, armies, player, src, dst, values, table, stop_at, threshold, extra)


@njit(cache=True)
def _threat(owner, armies, player, src, dst):  # pragma: no cover - compiled
    out = np.zeros(owner.shape[0])
    for e in range(src.shape[0]):
        if owner[dst[e]] != player:
            out[src[e]] += armies[dst[e]]
    return out


Reinforce = Literal["attack", "ratio"]
FortifyPolicy = Literal["border", "none"]
CardPolicy = Literal["first", "forced", "value"]


@dataclass(frozen=True)
class HeuristicBot:
    """A rule-of-thumb player; see the module docstring for what each knob does.

    The defaults are the strong default bot (:data:`DEFAULT_BOT`).
    """

    attack_threshold: float = 0.6
    card_threshold: float = 0.45
    stop_at: int = 1
    continent_focus: float = 1.0
    continent_weights: tuple[float, ...] | None = None
    reinforce: Reinforce = "attack"
    fortify: FortifyPolicy = "border"
    cards: CardPolicy = "value"
    card_value: int = 10
    eliminate: float = 3.0
    keep_ratio: float = 0.0

    def __post_init__(self) -> None:
        for name in ("attack_threshold", "card_threshold"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
                raise BotError(f"{name} must be a probability from 0 to 1, got {value!r}")
        if not isinstance(self.stop_at, int) or self.stop_at < 1:
            raise BotError(f"stop_at must be a whole number >= 1, got {self.stop_at!r}")
        for name, allowed in (
            ("reinforce", ("attack", "ratio")),
            ("fortify", ("border", "none")),
            ("cards", ("first", "forced", "value")),
        ):
            if getattr(self, name) not in allowed:
                raise BotError(f"{name}={getattr(self, name)!r} is not one of {', '.join(allowed)}")
        for name in ("continent_focus", "eliminate", "keep_ratio"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or value < 0:
                raise BotError(f"{name} must be a number >= 0, got {value!r}")
        if not isinstance(self.card_value, int) or self.card_value < 0:
            raise BotError(f"card_value must be a whole number >= 0, got {self.card_value!r}")

    # ------------------------------------------------------------------ dispatch
    def choose(self, state: GameState, rng: np.random.Generator) -> Decision:
        phase = state.phase
        if phase == Phase.ATTACK:
            return self._attack(state)
        if phase == Phase.REINFORCE:
            return self._reinforce(state)
        if phase == Phase.MOVE_IN:
            return self._move_in(state)
        if phase == Phase.FORTIFY:
            return self._fortify(state)
        if phase == Phase.DEFEND:
            return Defend(state.max_defence_dice())
        if phase == Phase.SETUP_CLAIM:
            return self._claim(state, rng)
        if phase == Phase.SETUP_PLACE:
            return self._setup_place(state, rng)
        if phase == Phase.CHOOSE_CAPITAL:
            return self._capital(state)
        raise BotError(f"{type(self).__name__} was asked to move in phase {phase.name}, which has no decision")

    # ------------------------------------------------------------------ evaluation
    def _weights(self, data: BoardData) -> np.ndarray:
        if self.continent_weights is None:
            return data.auto_weights
        if len(self.continent_weights) != len(data.continent_size):
            raise BotError(
                f"continent_weights has {len(self.continent_weights)} entries; the board has "
                f"{len(data.continent_size)} continents"
            )
        return np.asarray(self.continent_weights, dtype=float)

    def target_values(self, state: GameState, player: int) -> np.ndarray:
        """``[t]``: how much taking territory ``t`` is worth to ``player`` (1 for a plain territory)."""
        data = board_data(state.board)
        return _target_values(
            state.owner,
            state.card_loc,
            player,
            -1 if state.neutral is None else state.neutral,
            len(state.pool),
            data.continent_of,
            data.continent_size,
            data.continent_bonus,
            self._weights(data),
            float(self.continent_focus),
            float(self.eliminate),
        )

    @staticmethod
    def threat(state: GameState, player: int) -> np.ndarray:
        """``[t]``: enemy armies next to each territory."""
        data = board_data(state.board)
        return _threat(state.owner, state.armies, player, data.src, data.dst)

    # ------------------------------------------------------------------ attack
    def _best_edge(self, state: GameState, threshold: float, extra: int) -> tuple[int, int]:
        """The (source, target) of the best attack with P(win) >= ``threshold`` if the source had ``extra``
        more armies, scored by target value x P(win); (-1, -1) if there is none."""
        data = board_data(state.board)
        s, t = _best_target_edge(
            state.owner, state.armies, state.card_loc, state.player,
            -1 if state.neutral is None else state.neutral, len(state.pool),
            data.continent_of, data.continent_size, data.continent_bonus, self._weights(data),
            float(self.continent_focus), float(self.eliminate),
            data.src, data.dst, win_table(self.stop_at, state.rules.dice), self.stop_at, threshold, extra,
        )
        return int(s), int(t)

    def _attack(self, state: GameState) -> Decision:
        threshold = self.attack_threshold if state.captured else min(self.attack_threshold, self.card_threshold)
        s, t = self._best_edge(state, threshold, 0)
        return EndAttack() if s < 0 else BattleOrder(s, t, self.stop_at)

    # ------------------------------------------------------------------ reinforce
    def _reinforce(self, state: GameState) -> Action:
        p = state.player
        trade = self._trade(state)
        if trade is not None:
            return trade
        pending = int(state.pending)
        if self.reinforce == "attack":
            return Place(self._best_edge(state, -1.0, pending)[0], pending)
        owner, armies = state.owner, state.armies
        own = owner == p
        threat = self.threat(state, p)
        ratio = np.where(own & (threat > 0), threat / np.maximum(armies, 1), 0.0)
        total = ratio.sum()
        if total == 0:
            return Place(int(np.flatnonzero(own)[np.argmax(armies[own])]), pending)
        best = int(np.argmax(ratio))
        return Place(best, max(1, min(pending, math.ceil(pending * ratio[best] / total))))

    def _trade(self, state: GameState) -> Trade | None:
        p = state.player
        held = int(np.count_nonzero(state.card_loc == p))
        if held < 3:  # no set possible; skips listing the trades on most turns
            return None
        trades = state.legal_trades()
        if not trades:
            return None
        forced = held >= FORCED_TRADE_HAND
        symbols = state.board.card_symbols

        def value(trade: Trade) -> int:
            return state.rules.set_value(state.sets_traded, set_symbols(trade.cards, symbols))

        best = max(trades, key=lambda tr: (value(tr), tr.bonus is not None, -sum(symbols[c] == 3 for c in tr.cards)))
        if forced or self.cards == "first":
            return best
        if self.cards == "value" and value(best) >= self.card_value:
            return best
        return None

    # ------------------------------------------------------------------ after a capture
    def _move_in(self, state: GameState) -> Action:
        lo, hi = state.move_range()
        if self.keep_ratio == 0:
            return MoveIn(hi)
        assert state.move is not None
        threat = self.threat(state, state.player)
        keep = min(hi - lo, int(threat[state.move[0]] * self.keep_ratio))
        return MoveIn(hi - keep)

    # ------------------------------------------------------------------ fortify
    def _fortify(self, state: GameState) -> Action:
        if self.fortify == "none":
            return EndTurn()
        p = state.player
        owner, armies = state.owner, state.armies
        own = owner == p
        threat = self.threat(state, p)
        front = own & (threat > 0)
        interior = np.flatnonzero(own & ~front & (armies >= 2))
        if interior.size == 0 or not front.any():
            return EndTurn()
        source = int(interior[np.argmax(armies[interior])])
        if state.rules.fortify == "connected":
            targets = [t for t in state.fortify_targets(source) if front[t]]
            if not targets:
                return EndTurn()
            target = max(targets, key=lambda t: threat[t] / armies[t])
        else:
            distance = _distance_to_front(state.board.neighbor_table, own, front)
            steps = [t for t in state.board.neighbors[source] if own[t]]
            target = min(steps, key=lambda t: distance[t])
            if distance[target] >= distance[source]:
                return EndTurn()
        return Fortify(source, int(target), int(armies[source]) - 1)

    # ------------------------------------------------------------------ setup
    def _claim(self, state: GameState, rng: np.random.Generator) -> Action:
        data = board_data(state.board)
        owner, p = state.owner, state.player
        cont = data.continent_of
        mine = np.bincount(cont[owner == p], minlength=len(data.continent_size)) / data.continent_size
        theirs = np.bincount(cont[owner >= 0], minlength=len(data.continent_size)) / data.continent_size - mine
        score = self._weights(data) + mine - 0.5 * theirs
        # A little noise so that equal openings are not always resolved the same way.
        score = score[cont] + 0.01 * rng.random(len(owner))
        return Claim(int(np.argmax(np.where(owner == -1, score, -np.inf))))

    def _setup_place(self, state: GameState, rng: np.random.Generator) -> Action:
        p = state.player
        owner = state.owner
        if state.neutral is not None:
            # Every legal action of the setup's placing phase is a Place of one army, on an id.
            options = cast("list[Place]", state.legal_actions())
            if owner[as_id(options[0].territory)] != p:
                # The neutral's army in a 2-player setup: where it blocks the opponent most.
                opp_near = board_data(state.board).adjacency @ (owner == 1 - p).astype(float)
                return Place(max((int(a.territory) for a in options), key=lambda t: (opp_near[t], rng.random())))
        threat = self.threat(state, p)
        values = self.target_values(state, p)
        data = board_data(state.board)
        src, dst = data.src, data.dst
        edge = (owner[src] == p) & (owner[dst] != p)
        if not edge.any():
            mine = np.flatnonzero(owner == p)
            return Place(int(mine[int(rng.integers(len(mine)))]))
        s = src[edge]
        score = values[dst[edge]] + 0.1 * threat[s] / state.armies[s]
        return Place(int(s[int(np.argmax(score))]))

    def _capital(self, state: GameState) -> Action:
        p = state.player
        own = state.owner == p
        threat = self.threat(state, p)
        score = np.where(own, state.armies - threat, -np.inf)
        return ChooseCapital(int(np.argmax(score)))


@njit(cache=True)
def _distance_to_front(neighbor_table, own, front):  # pragma: no cover - compiled
    """Steps through one's own territories from each to the nearest front-line one."""
    n = own.shape[0]
    distance = np.full(n, 1 << 20, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    tail = 0
    for t in range(n):
        if front[t]:
            distance[t] = 0
            queue[tail] = t
            tail += 1
    head = 0
    while head < tail:
        u = queue[head]
        head += 1
        for v in neighbor_table[u]:
            if v < 0:
                break
            if own[v] and distance[v] > distance[u] + 1:
                distance[v] = distance[u] + 1
                queue[tail] = v
                tail += 1
    return distance


#: The strong default bot.
DEFAULT_BOT = HeuristicBot()
