"""Face-down cards: cards in players' hands whose identity nobody at the table has seen.

At a real table you see your own cards but only how many each opponent holds.
The engine needs an id for every card, so a face-down card is held under a
*placeholder* id, and :attr:`GameState.face_down <analyzer.game.state.GameState.face_down>`
lists which held cards are placeholders. Every card stays accounted for: each
of the 44 is in exactly one place (a hand, known or face down, the deck or the
discard pile), as ``card_loc`` says.

The *unseen* cards are the face-down ones and those in the deck, less any card
a trade has shown (a trade in the history names it). Their identities are
interchangeable: exchanging two unseen cards' ids throughout the game
(:func:`swapped`) gives a game the same in everything the table saw. That is
how a named card takes a placeholder's place, how a trade of face-down cards
is given identities that make a set (:func:`set_identities`), and how a
rollout draws the face-down cards afresh (:func:`determinize`).

In a saved game (``GameState.to_dict``) the face-down cards are the optional
``"face_down"`` list of card ids. A typed position may give a hand's unknown
cards as ``"?"``; they become placeholders, the lowest-numbered cards that no
hand names, so loading the same position always gives the same game:

>>> from analyzer.game.state import GameState
>>> owner = [0] * 14 + [1] * 14 + [2] * 14
>>> s = GameState.from_position(owner, [3] * 42, player=0, hands={0: [5], 1: ["?", "?", "?"]})
>>> s.hand(1), s.face_down, [len(s.hand(p)) for p in range(3)]
([0, 1, 2], [0, 1, 2], [1, 3, 0])
>>> GameState.from_json(s.to_json()).face_down
[0, 1, 2]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from functools import cached_property
from typing import Any, Generic, TypeVar

import numpy as np

from analyzer.errors import IllegalActionError, PositionError
from analyzer.game.actions import Action, Correct, Draw, Trade
from analyzer.game.cards import is_valid_set
from analyzer.game.core import StateCore
from analyzer.game.engine.layout import AT_CARD_LOC
from analyzer.game.labels import card_label, player_name
from analyzer.game.vocabulary import DECK
from analyzer.integers import is_whole

_State = TypeVar("_State", bound=StateCore)

#: How a typed position writes a card it holds face down.
UNKNOWN = "?"


def fill_unknown(hands: Mapping[int, Sequence[Any]], n_cards: int) -> tuple[dict[int, list[int]], list[int]]:
    """Hands with each ``"?"`` replaced by a placeholder, and the placeholders, sorted.

    Placeholders are the lowest-numbered cards no hand names, given out seat
    by seat in order, so the same hands always give the same ids.

    >>> fill_unknown({1: ["?", 0], 0: [3, "?"]}, 44)
    ({1: [2, 0], 0: [3, 1]}, [1, 2])
    """
    named = {c for cards in hands.values() for c in cards if c != UNKNOWN}
    wanted = sum(1 for cards in hands.values() for c in cards if c == UNKNOWN)
    free = iter([c for c in range(n_cards) if c not in named])
    if wanted > n_cards - len(named):
        raise PositionError(
            f"the hands name {len(named)} cards and hold {wanted} face down; there are only {n_cards} cards"
        )
    out: dict[int, list[int]] = {}
    placeholders = []
    for seat in sorted(hands):
        out[seat] = []
        for c in hands[seat]:
            if c == UNKNOWN:
                c = next(free)
                placeholders.append(c)
            out[seat].append(c)
    return {seat: out[seat] for seat in hands}, sorted(placeholders)


def counts(state: StateCore) -> list[int]:
    """How many cards each seat holds face down."""
    held = state.card_loc[state.face_down]
    return np.bincount(held, minlength=state.n_players).tolist() if len(held) else [0] * state.n_players


def _traded(state: StateCore) -> set[int]:
    return {int(c) for a in state.history or () if isinstance(a, Trade) for c in a.cards}


def unseen(state: StateCore) -> list[int]:
    """The cards whose identity nobody has seen: face down or in the deck, and shown by no trade."""
    shown = _traded(state)
    pool = set(state.face_down) | {int(c) for c in np.flatnonzero(state.card_loc == DECK)}
    return sorted(pool - shown)


def swapped(
    initial: dict[str, Any], history: Sequence[Action], swaps: Sequence[Sequence[int]]
) -> tuple[dict[str, Any], list[Action]]:
    """``initial`` and ``history`` with the ids of each pair of cards exchanged, in order.

    Only a typed position's hands, the draws and the corrections name a card
    that has not been shown, so those are all that change (each swap is its own inverse).
    """
    out = list(history)
    initial = dict(initial)
    for x, y in swaps:

        def other(c: int) -> int:
            return y if c == x else x if c == y else c

        for i, a in enumerate(out):
            if isinstance(a, Draw) and a.card in (x, y):
                out[i] = Draw(other(int(a.card)))
            elif isinstance(a, Correct) and {x, y} & {*a.moved, *a.hidden}:
                out[i] = replace(
                    a,
                    moved=tuple(other(int(c)) for c in a.moved),
                    hidden=tuple(sorted(other(int(c)) for c in a.hidden)),
                )
        if "position" in initial:
            pos = dict(initial["position"])
            pos["hands"] = {p: [other(int(c)) for c in cards] for p, cards in pos["hands"].items()}
            if "face_down" in pos:
                pos["face_down"] = sorted(other(int(c)) for c in pos["face_down"])
            initial["position"] = pos
    return initial, out


def swap(state: StateCore, x: int, y: int) -> None:
    """Exchange the identities of the unseen cards ``x`` and ``y`` throughout ``state`` (in place).

    The result is the game as if the table had drawn ``y`` where it drew
    ``x`` and the other way round: their places, whether each is face down,
    and every record of them in the history and the typed start.
    """
    free = set(unseen(state))
    for c in (x, y):
        if c not in free:
            raise IllegalActionError(
                f"card {c} has been seen (it is known, in the discard pile or was traded); "
                "only face-down and deck cards can change identity"
            )
    loc = state.card_loc
    loc[x], loc[y] = int(loc[y]), int(loc[x])
    down = set(state.face_down)
    state.face_down = sorted({y if c == x else x if c == y else c for c in down})
    initial, history = swapped(state.initial, state.history or [], [[x, y]])
    state.initial = initial
    if state.history is not None:
        state.history = history


def set_identities(state: StateCore, player: int, cards: Sequence[int], bonus: int | None = None) -> list[list[int]]:
    """The swaps that give ``player``'s face-down ``cards`` identities making a set with the rest.

    ``cards`` are three cards of ``player``'s hand; those face down may be any
    unseen card. With ``bonus`` a traded card must show that territory;
    without, no face-down card may show a territory of ``player``'s while the
    turn's territory bonus is still to be had.
    Returns ``[]`` when the cards already make such a set, else the fewest
    swaps, the first in card-id order; raises :class:`IllegalActionError`
    when no identities can (too few cards held, or no unseen card has the
    symbol needed).
    """
    board = state.board
    down = [c for c in cards if c in set(state.face_down)]
    known = [c for c in cards if c not in down]
    symbols, terr = board.card_symbols, board.card_territory

    bonus_open = not state.bonus_used and state.rules.territory_bonus != 0

    def fits(three: Sequence[int]) -> bool:
        if not is_valid_set([int(symbols[c]) for c in three]):
            return False
        if bonus is not None:
            return any(int(terr[c]) == bonus for c in three)
        # No bonus named: no face-down card may turn out to show a territory of the player's (the table would say).
        return not bonus_open or all(terr[c] < 0 or state.owner[terr[c]] != player for c in three if c not in known)

    if fits(list(cards)):
        return []
    others = [c for c in unseen(state) if c not in cards]
    for k in range(1, len(down) + 1):
        for moved in itertools.combinations(down, k):
            kept = [c for c in down if c not in moved]
            for new in itertools.combinations(others, k):
                if fits(known + kept + list(new)):
                    return [[a, b] for a, b in zip(moved, new)]
    raise IllegalActionError(
        f"{player_name(state, player)}'s {len(down)} face-down card(s) cannot make a set with "
        f"{', '.join(card_label(board, c) for c in known) or 'no card shown'}"
        + (f" showing {board.territories[bonus]}" if bonus is not None else "")
        + ": no unseen card has the symbol needed"
    )


def set_chance(state: StateCore, player: int) -> Fraction:
    """The chance that ``player``'s hand holds a set, its face-down cards being any of the unseen cards.

    Exact: the face-down cards' symbols follow the multivariate hypergeometric
    law of drawing them from the unseen cards (1 or 0 when every card of the
    hand is known). Two known infantry and one face-down card, from the 42
    unseen cards (12 infantry and 2 wilds among them), make a set 14 times
    in 42:

    >>> from analyzer.game.state import GameState
    >>> s = GameState.from_position([0] * 14 + [1] * 28, [3] * 42, hands={0: [0, 9, "?"]})
    >>> set_chance(s, 0)
    Fraction(1, 3)
    """
    hand = state.hand(player)
    down = set(state.face_down)
    symbols = state.board.card_symbols
    known = [int(symbols[c]) for c in hand if c not in down]
    k = len(hand) - len(known)
    pool = np.bincount([int(symbols[c]) for c in unseen(state)], minlength=4)
    total = math.comb(int(pool.sum()), k)
    chance = Fraction(0)
    for drawn in itertools.product(range(k + 1), repeat=4):
        if sum(drawn) != k:
            continue
        ways = math.prod(math.comb(int(n), x) for n, x in zip(pool, drawn))
        if ways and any(
            is_valid_set(three)
            for three in itertools.combinations(known + [s for s, x in enumerate(drawn) for _ in range(x)], 3)
        ):
            chance += Fraction(ways, total)
    return chance


def determinize(state: _State, rng: np.random.Generator) -> _State:
    """A copy of ``state`` with every face-down card drawn afresh from the unseen cards, for one rollout.

    Each hand keeps its size and its known cards; the deck keeps its size.
    The copy is one concrete guess, so it has no face-down cards, and no
    history (its cards no longer match the draws). A position dealt again and again is dealt by one
    :class:`Dealer`.
    """
    return Dealer(state).dealt(rng)


class Dealer(Generic[_State]):
    """The face-down cards of ``state`` drawn afresh again and again, as :func:`determinize` draws them, for the
    rollouts of one position: the unseen cards are listed once, not at every deal (a copy dealt in 9 microseconds
    rather than 17; a plain copy takes 5).

    >>> from analyzer.game.state import GameState
    >>> owner = [0] * 14 + [1] * 14 + [2] * 14
    >>> s = GameState.from_position(owner, [3] * 42, player=0, hands={0: [5], 1: ["?", "?"]})
    >>> a = Dealer(s).game(np.random.default_rng(1))
    >>> b = determinize(s, np.random.default_rng(1))
    >>> bool((a.S == b.S).all()), a.face_down, len(a.hand(1)), a.hand(0)
    (True, [], 2, [5])
    """

    def __init__(self, state: _State) -> None:
        self._state = state
        self._start = int(state.S[AT_CARD_LOC])  # where card_loc begins, as the header says (card_view's offset)
        self._down = np.array(state.face_down, dtype=np.int64)
        self._owners = state.card_loc[self._down]

    @cached_property
    def _pool(self) -> np.ndarray:
        # Listed at the first deal: a position with every card known, copied as it is by game(), never needs it.
        return np.array(unseen(self._state), dtype=np.int64)

    def deal(self, row: np.ndarray, rng: np.random.Generator) -> None:
        """Draw the face-down cards afresh in ``row``, a state vector of the position, in place."""
        row[self._start + self._down] = DECK
        row[self._start + rng.permutation(self._pool)[: len(self._down)]] = self._owners

    def dealt(self, rng: np.random.Generator) -> _State:
        """:func:`determinize`'s copy: the face-down cards drawn afresh, none left face down, and no history."""
        s = self._state.copy()
        self.deal(s.S, rng)
        s.face_down = []
        s.history = []
        return s

    def game(self, rng: np.random.Generator) -> _State:
        """A copy of the position for one rollout: :meth:`dealt` if it holds face-down cards, else the position as
        it is (its history kept, and nothing drawn)."""
        return self.dealt(rng) if len(self._down) else self._state.copy()


def determinized_rows(state: StateCore, rng: np.random.Generator, n: int) -> np.ndarray:
    """The state vectors (one a row) of ``n`` calls of :func:`determinize` on ``rng`` in turn, without a copy of
    the game for each (a copy costs more than a short rollout's play): each row's face-down cards drawn afresh
    from the unseen cards, the known ones left where they are."""
    dealer = Dealer(state)
    rows = np.tile(state.S, (n, 1))
    for row in rows:
        dealer.deal(row, rng)
    return rows


def check(state: StateCore) -> None:
    """Refuse a ``face_down`` list that is not a set of cards held in hands (called by validation)."""
    down = state.face_down
    M = state.board.n_cards
    if not isinstance(down, list) or not all(is_whole(c) for c in down):
        raise PositionError(f"face_down must be a list of card ids, got {down!r}")
    if down != sorted(set(int(c) for c in down)):
        raise PositionError(f"face_down must list distinct card ids in order, got {down!r}")
    for c in down:
        if not 0 <= c < M:
            raise PositionError(f"face_down names card {c}; cards are numbered 0 to {M - 1}")
        if state.card_loc[c] < 0:
            where = "the deck" if state.card_loc[c] == DECK else "the discard pile"
            raise PositionError(
                f"face_down names card {c}, which is in {where}; only a card in a hand can be face down"
            )
