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
>>> from analyzer.game.state import GameState
>>> rng = np.random.default_rng(3)
>>> state = GameState.random_start(4, rng)
>>> bot = HeuristicBot()
>>> type(bot.choose(state, rng)).__name__ in ("Place", "Trade")
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Literal

import numpy as np

from analyzer.bots.base import BattleOrder, Decision
from analyzer.errors import BotError, IllegalActionError
from analyzer.game.actions import Trade
from analyzer.game.board import Board
from analyzer.game.codec import decode as state_decode
from analyzer.game.dice import DiceRules
from analyzer.game.engine import legality
from analyzer.game.engine import steps as engine
from analyzer.game.state import GameState
from analyzer.game.vocabulary import (
    ATTACK,
    CAPITAL,
    CHOOSE_CAPITAL,
    CLAIM,
    DEFEND,
    DEFEND_ACTION,
    END_ATTACK,
    END_TURN,
    FORTIFY,
    FORTIFY_ACTION,
    MOVE_IN,
    MOVE_IN_ACTION,
    PLACE,
    REINFORCE,
    SETUP_CLAIM,
    TRADE,
    Phase,
)
from analyzer.integers import whole_number
from analyzer.kernels import kernel
from analyzer.slots import slots
from analyzer.solver.battle import BattleOptions, win_grid

#: Armies up to which :func:`win_table` holds exact win probabilities; bigger battles are scaled down to it.
WIN_TABLE_ARMIES = 256


def check_knobs(bot: object, *, probabilities: tuple[str, ...] = (), non_negative: tuple[str, ...] = ()) -> None:
    """Refuse, naming it, a knob of ``bot`` among ``probabilities`` that is not a number from 0 to 1,
    or among ``non_negative`` that is not a number >= 0."""
    for names, fits, expected in (
        (probabilities, lambda v: 0.0 <= v <= 1.0, "a probability from 0 to 1"),
        (non_negative, lambda v: v >= 0, "a number >= 0"),
    ):
        for name in names:
            value = getattr(bot, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not fits(value):
                raise BotError(f"{name} must be {expected}, got {value!r}")


def check_decision_phase(bot: object, phase: Phase) -> Phase:
    """``phase``, if a bot has a decision to make in it (not while dice or a card are drawn, nor at the end)."""
    if phase in (Phase.ROLL, Phase.DRAW, Phase.GAME_OVER):
        raise BotError(f"{type(bot).__name__} was asked to move in phase {phase.name}, which has no decision")
    return phase


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

    >>> from analyzer.solver.battle import battle
    >>> round(float(win_table(1, DiceRules())[10, 5]), 4) == round(battle(10, 5).p_win, 4)
    True
    """
    value, _, _ = win_grid(WIN_TABLE_ARMIES, stop_at, BattleOptions(dice=dice))
    value.setflags(write=False)
    return value


def win_probability(attackers: np.ndarray, defenders: np.ndarray, stop_at: int, dice: DiceRules) -> np.ndarray:
    """P(win) for arrays of battles; battles beyond the table are scaled down to it, keeping their ratio.

    >>> from analyzer.solver.battle import battle
    >>> p = win_probability(np.array([10, 400]), np.array([5, 200]), 1, DiceRules())
    >>> bool(abs(p[0] - battle(10, 5).p_win) < 1e-12), bool(p[1] > 0.99)
    (True, True)
    """
    a = np.asarray(attackers, dtype=np.int64)
    d = np.asarray(defenders, dtype=np.int64)
    return _p_win_many(win_table(stop_at, dice), a, d)


@kernel(inline=True)
def _p_win(table: np.ndarray, a: int, d: int) -> float:  # pragma: no cover - compiled
    top = table.shape[0] - 1
    m = max(a, d)
    if m > top:
        # Odds depend mostly on the ratio; a decision does not need the exact tail.
        scale = top / m
        a = max(int(a * scale), min(a, 2))
        d = max(int(d * scale), 1)
    return table[a, d]


@kernel
def _p_win_many(table: np.ndarray, a: np.ndarray, d: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    out = np.empty(a.shape[0])
    for i in range(a.shape[0]):
        out[i] = _p_win(table, a[i], d[i])
    return out


_FORCES = 8  # room for up to 7 forces (6 players, or 2 and the neutral)


@kernel
def work_size(n_territories, n_continents):  # pragma: no cover - compiled
    """Length of the scratch vector the compiled decisions use (so that a decision allocates nothing)."""
    return 4 * n_territories + 3 * n_continents + 2 * _FORCES


@kernel(inline=True)
def _target_values(
    owner, card_loc, player, neutral, n_forces, cont_of, size, bonus, weights, focus, eliminate, work, C, every=True
):  # pragma: no cover - compiled
    """See :meth:`HeuristicBot.target_values`; ``neutral`` is -1 without a neutral force.

    The values are written to ``work[:n]``; the rest of ``work`` (:func:`work_size`) holds the
    statistics they come from, which is all that is computed without ``every``
    (:func:`_value_at` then gives a territory's value on demand).
    """
    n = owner.shape[0]
    n_cont = size.shape[0]
    # Offsets in work: held, holder (-2: no territory seen yet, -1: more than one owner), per, counts, cards.
    HE = 2 * n
    HO = HE + n_cont
    PE = HO + n_cont
    CO = PE + n_cont
    CA = CO + _FORCES
    for f in range(n_forces):
        work[CO + f] = 0.0
        work[CA + f] = 0.0
    # Continent by continent (C lists the territories in that order), so that the counts stay in registers.
    byc, starts = C[engine.O_BY_CONTINENT], C[engine.O_CONTINENT_START]
    for c in range(n_cont):
        held = 0
        holder = -2
        for i in range(C[starts + c], C[starts + c + 1]):
            o = owner[C[byc + i]]
            if o == player:
                held += 1
            if holder == -2:
                holder = o
            elif holder != o:
                holder = -1
            work[CO + o] += 1
        work[HE + c] = held
        work[HO + c] = holder
    # Cards matter only for players about to be eliminated (see _value_at): count them only then.
    weak = False
    for f in range(n_forces):
        weak = weak or (0 < work[CO + f] <= 2 and f != neutral)
    if weak:
        for i in range(card_loc.shape[0]):
            if card_loc[i] >= 0:
                work[CA + card_loc[i]] += 1
    for c in range(n_cont):
        held = work[HE + c]
        work[PE + c] = focus * weights[c] * (0.5 + held / size[c]) * bonus[c]
        if size[c] - held == 1:
            # Taking the last missing territory completes the continent: its bonus every turn from now on.
            work[PE + c] += focus * bonus[c]
    if every:
        for t in range(n):
            c = cont_of[t]
            o = owner[t]
            work[t] = _value_at(
                work[PE + c], work[HO + c], work[CO + o], work[CA + o], bonus[c], o, player, neutral, focus, eliminate
            )
    return work


@kernel(inline=True)
def _value_at(per, holder, count, cards, bonus, o, player, neutral, focus, eliminate):  # pragma: no cover - compiled
    """The value of a territory held by ``o``, from its continent's ``per`` (see
    :func:`_target_values`), ``holder`` and ``bonus``, and ``o``'s territory and card counts (``count``).
    Scalars only: an inlined call with an array argument costs a reference count pair."""
    v = 1.0 + per
    if holder >= 0 and holder != player:
        v += focus * bonus
    if eliminate > 0 and o != neutral and count <= 2:
        v += eliminate * (1.0 + cards / 3.0)
    if o == neutral:
        # Neutral armies never attack back; the opponent is who must be beaten.
        v *= 0.7
    return v


@kernel(inline=True)
def _best_edge(owner, armies, player, C, work, table, stop_at, threshold, extra, neutral, bp):  # pragma: no cover
    """The border (source, target) with the best value x P(win), the source holding ``extra`` more
    armies, among those with P(win) >= ``threshold``; (-1, -1) if none. Ties go to the first in
    (source, target) order. Values come from the statistics :func:`_target_values` left in ``work``,
    for the candidates only."""
    n = owner.shape[0]
    nc = C[engine.R_CONTINENTS]
    co = C[engine.O_CONTINENT_OF]
    bonus = bp[P_WEIGHTS + 2 * nc : P_WEIGHTS + 3 * nc]
    focus = bp[P_FOCUS]
    eliminate = bp[P_ELIMINATE]
    HO = 2 * n + nc
    PE = HO + nc
    CO = PE + nc
    CA = CO + _FORCES
    top = table.shape[0] - 1
    width = C[engine.R_WIDTH]
    nb = C[engine.O_NEIGHBORS]
    best = -1.0
    bs = -1
    bt = -1
    for s in range(owner.shape[0]):
        if owner[s] != player:
            continue
        a0 = armies[s] + extra
        if a0 <= stop_at or a0 < 2:
            continue
        for j in range(width):
            t = C[nb + s * width + j]
            if t < 0:
                break
            if owner[t] == player:
                continue
            # _p_win written out: a call here would take a reference to the table on every border.
            a = a0
            d = armies[t]
            m = max(a, d)
            if m > top:
                a = max(int(a * (top / m)), min(a, 2))
                d = max(int(d * (top / m)), 1)
            p = table[a, d]
            if p < threshold:
                continue
            c = C[co + t]
            o = owner[t]
            value = _value_at(
                work[PE + c], work[HO + c], work[CO + o], work[CA + o], bonus[c], o, player, neutral, focus, eliminate
            )
            score = value * p
            if score > best:
                best = score
                bs = s
                bt = t
    return bs, bt


@kernel(inline=True)
def _threat(owner, armies, player, C, work, mine_only=True):  # pragma: no cover - compiled
    """``work[n + t]``: enemy armies next to each territory ``t`` (only ``player``'s own, the others
    left at 0, with ``mine_only``: all the bots' decisions need)."""
    n = owner.shape[0]
    width = C[engine.R_WIDTH]
    nb = C[engine.O_NEIGHBORS]
    for s in range(n):
        total = 0.0
        if mine_only and owner[s] != player:
            work[n + s] = total
            continue
        for j in range(width):
            t = C[nb + s * width + j]
            if t < 0:
                break
            if owner[t] != player:
                total += armies[t]
        work[n + s] = total
    return work


Reinforce = Literal["attack", "ratio"]
FortifyPolicy = Literal["border", "none"]
CardPolicy = Literal["first", "forced", "value"]


@dataclass(frozen=True)
class HeuristicBot:
    """A rule-of-thumb player; see the module docstring for what each knob does.

    The defaults are the classic bot (:data:`CLASSIC_BOT`, ``make_bot("classic")``), a baseline of the
    studies; ``make_bot("default")`` is the strategist (:mod:`analyzer.bots.strategist`).
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
        check_knobs(
            self,
            probabilities=("attack_threshold", "card_threshold"),
            non_negative=("continent_focus", "eliminate", "keep_ratio"),
        )
        whole_number(self.stop_at, "stop_at", 1, BotError)
        for name, allowed in (
            ("reinforce", ("attack", "ratio")),
            ("fortify", ("border", "none")),
            ("cards", ("first", "forced", "value")),
        ):
            if getattr(self, name) not in allowed:
                raise BotError(f"{name}={getattr(self, name)!r} is not one of {', '.join(allowed)}")
        whole_number(self.card_value, "card_value", 0, BotError)

    # ------------------------------------------------------------------ dispatch
    def choose(self, state: GameState, rng: np.random.Generator) -> Decision:
        """The bot's decision, made by :func:`decide`: the same compiled code the compiled playout runs."""
        phase = check_decision_phase(self, state.phase)
        bp, table = compiled_args(self, state.board, state.rules.dice)
        work = np.empty(work_size(state.board.n_territories, len(state.board.continents)))
        if phase in (Phase.SETUP_CLAIM, Phase.SETUP_PLACE):
            code = decide_setup(state.S, state.C, bp, table, rng, work, np.full(state.board.n_territories, -1.0))
        else:
            code = decide(state.S, state.C, bp, table, work)
        return decode(code)

    # ------------------------------------------------------------------ evaluation
    def weights(self, data: BoardData) -> np.ndarray:
        """Each continent's weight in the bot's priorities (``continent_weights``, or the board's own)."""
        if self.continent_weights is None:
            return data.auto_weights
        if len(self.continent_weights) != len(data.continent_size):
            raise BotError(
                f"continent_weights has {len(self.continent_weights)} entries; the board has "
                f"{len(data.continent_size)} continents"
            )
        return np.asarray(self.continent_weights, dtype=float)

    def params(self, data: BoardData) -> np.ndarray:
        """The knobs as the float vector :func:`decide` reads (indices ``P_*``), then the continents'
        weights, sizes and bonuses."""
        head = [read(self) for _, read in PARAMS]
        return np.concatenate(
            [np.asarray(head, dtype=float), self.weights(data), data.continent_size, data.continent_bonus]
        )

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
            self.weights(data),
            float(self.continent_focus),
            float(self.eliminate),
            np.empty(work_size(state.board.n_territories, len(data.continent_size))),
            state.C,
        )[: state.board.n_territories].copy()

    @staticmethod
    def threat(state: GameState, player: int) -> np.ndarray:
        """``[t]``: enemy armies next to each territory."""
        n = state.board.n_territories
        work = np.empty(work_size(n, len(state.board.continents)))
        return _threat(state.owner, state.armies, player, state.C, work, False)[n : 2 * n].copy()

    def _trade(self, state: GameState) -> Trade | None:
        """The set the bot would trade now under its card policy, or None."""
        bp, _ = compiled_args(self, state.board, state.rules.dice)
        c0, c1, c2, bonus = _choose_trade(state.S, state.C, bp)
        if c0 < 0:
            return None
        return Trade((int(c0), int(c1), int(c2)), None if bonus < 0 else int(bonus))


#: The knobs at the head of :meth:`HeuristicBot.params`, in order: each as the name of its ``P_*``
#: index and how its value is read from the bot. The continents' weights, sizes and bonuses follow.
PARAMS: tuple[tuple[str, Callable[[HeuristicBot], float]], ...] = (
    ("attack", lambda bot: bot.attack_threshold),
    ("card", lambda bot: bot.card_threshold),
    ("stop", lambda bot: bot.stop_at),
    ("focus", lambda bot: bot.continent_focus),
    ("ratio", lambda bot: bot.reinforce == "ratio"),
    ("no_fortify", lambda bot: bot.fortify == "none"),
    ("cards", lambda bot: ("first", "forced", "value").index(bot.cards)),
    ("card_value", lambda bot: bot.card_value),
    ("eliminate", lambda bot: bot.eliminate),
    ("keep", lambda bot: bot.keep_ratio),
)
#: Indices of :meth:`HeuristicBot.params`, from :data:`PARAMS`.
P = slots(name for name, _ in PARAMS)
P_ATTACK, P_CARD, P_STOP, P_FOCUS, P_RATIO = P["attack"], P["card"], P["stop"], P["focus"], P["ratio"]
P_NO_FORTIFY, P_CARDS, P_CARD_VALUE, P_ELIMINATE, P_KEEP = (
    P["no_fortify"],
    P["cards"],
    P["card_value"],
    P["eliminate"],
    P["keep"],
)
#: Where the continents' weights start (then their sizes, then their bonuses, each one per continent).
P_WEIGHTS = len(PARAMS)
#: :func:`decide`'s code for a :class:`BattleOrder` (source, target, stop_at); other codes are
#: :func:`analyzer.game.engine.steps.step`'s.
ORDER = 100


def compiled_args(bot: HeuristicBot, board: Board, dice: DiceRules) -> tuple[np.ndarray, np.ndarray]:
    """What :func:`decide` needs besides the state: the bot's knobs and its win table.

    Cached by the knobs alone, so that subclasses with fields of their own share the entry.
    """
    return _compiled_args(tuple(getattr(bot, name) for name in _KNOBS), board, dice)


@lru_cache(maxsize=256)
def _compiled_args(knobs: tuple[object, ...], board: Board, dice: DiceRules) -> tuple[np.ndarray, np.ndarray]:
    bot = HeuristicBot(*knobs)  # type: ignore[arg-type]  # the knobs of a HeuristicBot, in field order
    return bot.params(board_data(board)), win_table(bot.stop_at, dice)


_KNOBS = tuple(f.name for f in fields(HeuristicBot))


def decode(code: tuple[int, int, int, int, int]) -> Decision:
    """The action (or battle order) of a decision code."""
    kind, a, b, c, _ = (int(x) for x in code)
    if kind == ORDER:
        return BattleOrder(a, b, c)
    try:
        return state_decode(code)
    except IllegalActionError:
        raise BotError(f"unknown decision code {code}") from None


# ---------------------------------------------------------------------------------- compiled decisions
@kernel
def _choose_trade(S, C, bp):  # pragma: no cover - compiled
    """The set to trade under the card policy as (card, card, card, bonus or -1); card -1 for none.

    Among the legal trades (sets in card order, each with every bonus territory) the best is the
    most armies, then one with a bonus, then the fewest wilds; the first of equals.
    """
    p = S[engine.PLAYER]
    if not legality.may_trade(S):
        return -1, -1, -1, -1
    held = engine.hand_size(S, p)
    # Filled by hand: a comparison and np.flatnonzero would allocate twice, at every reinforcement.
    hand = np.empty(held, dtype=np.int64)
    cards = engine.card_view(S)
    k = 0
    for c in range(cards.shape[0]):
        if cards[c] == p:
            hand[k] = c
            k += 1
    sym = C[engine.O_SYMBOLS]
    terr = C[engine.O_CARD_TERRITORY]
    best = (-1, -1, -1, -1)
    best_key = (-1, -1, -1)
    for i in range(held):
        for j in range(i + 1, held):
            for k in range(j + 1, held):
                c0, c1, c2 = hand[i], hand[j], hand[k]
                if not engine.is_set(C, c0, c1, c2):
                    continue
                value = engine.set_value(S, C, c0, c1, c2)
                wilds = int(C[sym + c0] == 3) + int(C[sym + c1] == 3) + int(C[sym + c2] == 3)
                # The first of the bonus choices (the owned territories shown on the cards).
                bits = legality.bonus_choices(S, C, c0, c1, c2)
                bonus = -1
                bit = 0
                for c in (c0, c1, c2):
                    t = C[terr + c]
                    if (bits >> bit) & 1 and (bonus < 0 or t < bonus):
                        bonus = t
                    bit += 1
                key = (value, 1 if bonus >= 0 else 0, -wilds)
                if key > best_key:
                    best_key = key
                    best = (c0, c1, c2, bonus)
    if best[0] < 0:
        return best
    policy = bp[P_CARDS]
    if legality.must_trade(S) or policy == 0 or (policy == 2 and best_key[0] >= bp[P_CARD_VALUE]):
        return best
    return -1, -1, -1, -1


@kernel(inline=True)
def _values(S, C, bp, player, work, every=True):  # pragma: no cover - compiled
    nc = C[engine.R_CONTINENTS]
    n = S[engine.N_TERRITORIES]
    return _target_values(
        engine.owner_view(S),
        engine.card_view(S),
        player,
        S[engine.NEUTRAL],
        S[engine.N_FORCES],
        C[C[engine.O_CONTINENT_OF] : C[engine.O_CONTINENT_OF] + n],
        bp[P_WEIGHTS + nc : P_WEIGHTS + 2 * nc],
        bp[P_WEIGHTS + 2 * nc : P_WEIGHTS + 3 * nc],
        bp[P_WEIGHTS : P_WEIGHTS + nc],
        bp[P_FOCUS],
        bp[P_ELIMINATE],
        work,
        C,
        every,
    )


@kernel(inline=True)
def _edge(S, C, bp, table, threshold, extra, work):  # pragma: no cover - compiled
    _values(S, C, bp, S[engine.PLAYER], work, False)
    return _best_edge(
        engine.owner_view(S),
        engine.armies_view(S),
        S[engine.PLAYER],
        C,
        work,
        table,
        int(bp[P_STOP]),
        threshold,
        extra,
        S[engine.NEUTRAL],
        bp,
    )


@kernel
def decide(S, C, bp, table, work):  # pragma: no cover - compiled
    """The bot's decision in a phase of play, as (code, a, b, c, d): see :func:`decode`.

    ``work`` is scratch of :func:`work_size`. One small function per phase: the compiled playout
    calls them directly, and a small function costs less to enter and leave.
    """
    phase = S[engine.PHASE]
    if phase == ATTACK:
        return decide_attack(S, C, bp, table, work)
    if phase == MOVE_IN:
        return decide_move_in(S, C, bp, work)
    if phase == REINFORCE:
        return _decide_reinforce(S, C, bp, table, work)
    if phase == FORTIFY:
        return _fortify(S, C, bp, work)
    if phase == DEFEND:
        return DEFEND_ACTION, engine.defender_dice(C, S[S[engine.AT_ARMIES] + S[engine.ATTACK_T]]), 0, 0, 0
    if phase == CHOOSE_CAPITAL:
        return _decide_capital(S, C, work)
    return -1, 0, 0, 0, 0


@kernel
def decide_attack(S, C, bp, table, work):  # pragma: no cover - compiled
    """The best battle worth fighting (a lower bar until the turn's first capture earns a card), or stop."""
    return decide_attack_at(S, C, bp, table, bp[P_ATTACK], work)


@kernel(inline=True)
def decide_attack_at(S, C, bp, table, attack, work):  # pragma: no cover - compiled
    """:func:`decide_attack` with the win probability ``attack`` in place of the bot's attack threshold."""
    threshold = attack if S[engine.CAPTURED] else min(attack, bp[P_CARD])
    s, t = _edge(S, C, bp, table, threshold, 0, work)
    if s < 0:
        return END_ATTACK, 0, 0, 0, 0
    return ORDER, s, t, int(bp[P_STOP]), 0


@kernel
def decide_move_in(S, C, bp, work):  # pragma: no cover - compiled
    """Everything moves in, or with ``keep_ratio`` a share of the threat to the source stays."""
    lo, hi = S[engine.MOVE_LO], S[engine.MOVE_HI]
    if bp[P_KEEP] == 0:
        return MOVE_IN_ACTION, hi, 0, 0, 0
    owner = engine.owner_view(S)
    n = owner.shape[0]
    threat = _threat(owner, engine.armies_view(S), S[engine.PLAYER], C, work)[n : 2 * n]
    keep = min(hi - lo, int(threat[S[engine.MOVE_S]] * bp[P_KEEP]))
    return MOVE_IN_ACTION, hi - keep, 0, 0, 0


@kernel
def _decide_reinforce(S, C, bp, table, work):  # pragma: no cover - compiled
    """Trade under the card policy; then all the armies on the source of the best attack, or on the
    borders by their threat ratio."""
    c0, c1, c2, bonus = _choose_trade(S, C, bp)
    if c0 >= 0:
        return TRADE, c0, c1, c2, bonus
    return place_reinforcements(S, C, bp, table, work)


@kernel
def place_reinforcements(S, C, bp, table, work):  # pragma: no cover - compiled
    """The placement once no set is to be traded (see :func:`_decide_reinforce`)."""
    pending = S[engine.PENDING]
    if bp[P_RATIO] == 0:
        s, t = _edge(S, C, bp, table, -1.0, pending, work)
        if s >= 0:
            return PLACE, s, pending, 0, 0
    p = S[engine.PLAYER]
    owner = engine.owner_view(S)
    armies = engine.armies_view(S)
    n = owner.shape[0]
    threat = _threat(owner, armies, p, C, work)[n : 2 * n]
    ratios = work[2 * n : 3 * n]
    best, best_ratio = -1, -1.0
    biggest = -1
    for u in range(n):
        ratios[u] = 0.0
        if owner[u] != p:
            continue
        if biggest < 0 or armies[u] > armies[biggest]:
            biggest = u
        ratios[u] = threat[u] / max(armies[u], 1) if threat[u] > 0 else 0.0
        if ratios[u] > best_ratio:
            best, best_ratio = u, ratios[u]
    total = 0.0
    for u in range(n):
        total += ratios[u]
    if total == 0 or bp[P_RATIO] == 0:
        return PLACE, biggest, pending, 0, 0
    k = max(1, min(pending, int(math.ceil(pending * best_ratio / total))))
    return PLACE, best, k, 0, 0


@kernel
def _decide_capital(S, C, work):  # pragma: no cover - compiled
    """The territory whose armies most outnumber the enemies next to it."""
    p = S[engine.PLAYER]
    owner = engine.owner_view(S)
    armies = engine.armies_view(S)
    n = owner.shape[0]
    threat = _threat(owner, armies, p, C, work)[n : 2 * n]
    best, score = -1, 0.0
    for u in range(n):
        if owner[u] == p and (best < 0 or armies[u] - threat[u] > score):
            best, score = u, armies[u] - threat[u]
    return CAPITAL, best, 0, 0, 0


@kernel
def _fortify(S, C, bp, work):  # pragma: no cover - compiled
    """Move the biggest interior stack toward the front: along the shortest path through one's own
    territories (adjacent fortify), or onto the most threatened reachable front territory (connected)."""
    if bp[P_NO_FORTIFY]:
        return END_TURN, 0, 0, 0, 0
    p = S[engine.PLAYER]
    owner = engine.owner_view(S)
    armies = engine.armies_view(S)
    n = owner.shape[0]
    _threat(owner, armies, p, C, work)  # work[n + t]; a front territory is one of mine with a threat
    source = -1
    fronts = 0
    for u in range(n):
        if owner[u] != p:
            continue
        if work[n + u] > 0:
            fronts += 1
        elif armies[u] >= 2 and (source < 0 or armies[u] > armies[source]):
            source = u
    if source < 0 or fronts == 0:
        return END_TURN, 0, 0, 0, 0
    target = -1
    if C[engine.R_CONNECTED]:
        reach = engine.fortify_reach(S, C, source)
        best = -1.0
        for u in range(n):
            if reach[u] and work[n + u] > 0 and work[n + u] / armies[u] > best:
                target, best = u, work[n + u] / armies[u]
        if target < 0:
            return END_TURN, 0, 0, 0, 0
    else:
        _distance_to_front(owner, p, C, work, source)  # work[2n + t]
        width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
        for j in range(width):
            v = C[nb + source * width + j]
            if v < 0:
                break
            if owner[v] == p and (target < 0 or work[2 * n + v] < work[2 * n + target]):
                target = v
        if work[2 * n + target] >= work[2 * n + source]:
            return END_TURN, 0, 0, 0, 0
    return FORTIFY_ACTION, source, target, armies[source] - 1, 0


@kernel
def decide_setup(S, C, bp, table, rng, work, values):  # pragma: no cover - compiled
    """The bot's claim or setup placement (a little randomness breaks ties between equal openings).

    ``values``: the player's target values if already known (nothing is captured or traded while
    the setup armies go down, so they hold for the whole placement); ``values[0] < 0`` if not, and
    then they are computed into it.
    """
    p = S[engine.PLAYER]
    owner = engine.owner_view(S)
    armies = engine.armies_view(S)
    n = owner.shape[0]
    n_cont = C[engine.R_CONTINENTS]
    cont_of = C[C[engine.O_CONTINENT_OF] : C[engine.O_CONTINENT_OF] + n]
    size = bp[P_WEIGHTS + n_cont : P_WEIGHTS + 2 * n_cont]
    if S[engine.PHASE] == SETUP_CLAIM:
        # Per continent: its weight, plus the share already mine, less half the share others hold.
        for c in range(2 * n_cont):
            work[c] = 0.0
        for t in range(n):
            if owner[t] == p:
                work[cont_of[t]] += 1
            if owner[t] >= 0:
                work[n_cont + cont_of[t]] += 1
        for c in range(n_cont):
            mine = work[c] / size[c]
            theirs = work[n_cont + c] / size[c] - mine
            work[c] = bp[P_WEIGHTS + c] + mine - 0.5 * theirs
        best, score = -1, -np.inf
        for t in range(n):
            v = work[cont_of[t]] + 0.01 * rng.random()
            if owner[t] == -1 and v > score:
                best, score = t, v
        return CLAIM, best, 0, 0, 0
    neutral = S[engine.NEUTRAL]
    if neutral >= 0 and engine.setup_force(S) == neutral:
        # The neutral's army in a 2-player setup: where it borders the opponent most.
        best, best_near, best_r = -1, -1, -1.0
        width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
        for t in range(n):
            if owner[t] != neutral:
                continue
            near = 0
            for j in range(width):
                v = C[nb + t * width + j]
                if v < 0:
                    break
                if owner[v] == 1 - p:
                    near += 1
            r = rng.random()
            if near > best_near or (near == best_near and r > best_r):
                best, best_near, best_r = t, near, r
        return PLACE, best, 1, 0, 0
    threat = _threat(owner, armies, p, C, work)[n : 2 * n]
    if values[0] < 0:
        values[:] = _values(S, C, bp, p, work)[:n]
    width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
    best, score = -1, -np.inf
    for s in range(n):  # the borders in (source, target) order
        if owner[s] != p:
            continue
        for j in range(width):
            t = C[nb + s * width + j]
            if t < 0:
                break
            if owner[t] != p:
                v = values[t] + 0.1 * threat[s] / armies[s]
                if v > score:
                    best, score = s, v
    if best < 0:
        mine = np.flatnonzero(owner == p)
        best = mine[rng.integers(0, mine.shape[0])]
    return PLACE, best, 1, 0, 0


@kernel
def _distance_to_front(owner, p, C, work, source):  # pragma: no cover - compiled
    """``work[2n + t]``: steps through ``p``'s territories from each to the nearest front-line one
    (one of ``p``'s with a threat in ``work[n + t]``); ``work[3n:4n]`` is the search queue.

    The breadth-first search stops once every own neighbour of ``source`` has its distance (the
    first distance a search assigns is final): those are the only ones fortifying compares."""
    n = owner.shape[0]
    width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
    D, Q = 2 * n, 3 * n
    tail = 0
    for t in range(n):
        if owner[t] == p and work[n + t] > 0:
            work[D + t] = 0.0
            work[Q + tail] = t
            tail += 1
        else:
            work[D + t] = float(1 << 20)
    waiting = 0
    for j in range(width):
        v = C[nb + source * width + j]
        if v < 0:
            break
        if owner[v] == p and work[D + v] > 0:
            waiting += 1
    head = 0
    while head < tail and waiting > 0:
        u = int(work[Q + head])
        head += 1
        for j in range(width):
            v = C[nb + u * width + j]
            if v < 0:
                break
            if owner[v] == p and work[D + v] > work[D + u] + 1:
                work[D + v] = work[D + u] + 1
                work[Q + tail] = v
                tail += 1
                for k in range(width):
                    w = C[nb + source * width + k]
                    if w < 0:
                        break
                    if w == v:
                        waiting -= 1


#: The classic bot: the heuristic bot with its default knobs (``make_bot("classic")``), the studies' baseline.
CLASSIC_BOT = HeuristicBot()
