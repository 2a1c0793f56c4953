"""The state vector's layout, declared once: a header of scalars, then the arrays of :data:`ARRAYS`.

A game's state is one ``int64`` vector ``S``. Its header holds the scalars at
the indices named below and, at the ``AT_*`` slots, where each array starts; the
arrays follow in the order of :data:`ARRAYS`, each as long as the header scalar
its declaration names. Everything else is derived from these two declarations:
:func:`layout` (the Python side's views, and so
:class:`analyzer.game.state.GameState`'s array fields), the starts that
:func:`new_state` writes into the header, and the compiled accessors below,
which read a start from the header (one load, as cheap as a constant offset).

>>> S = new_state(42, 44, 4)
>>> layout(42, 44, 4)["armies"], int(S[AT_ARMIES]), int(S[N_TERRITORIES])
((77, 42), 77, 42)
>>> view(S, "owner")[:3], armies_view(S).shape
(array([-1, -1, -1]), (42,))
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from analyzer.game.vocabulary import DECK, forces, neutral
from analyzer.kernels import kernel

# ---------------------------------------------------------------------------------- header scalars
# ATTACK_*: the pending attack (ATTACK_S < 0: none); MOVE_*: the pending capture's move-in
# (MOVE_S < 0: none), fewest and most armies; WINNER and TURN_LIMIT: -1 for none.
PHASE, PLAYER, TURN, ROUND, PENDING, CAPTURED, BONUS_USED, SETS_TRADED = range(8)
RESUME_ATTACK, ELIMINATION_TRADE, SETUP_STEP, WINNER = range(8, 12)
ATTACK_S, ATTACK_T, ATTACK_DICE, DEFENCE_DICE, MOVE_S, MOVE_T, MOVE_LO, MOVE_HI = range(12, 20)
FIRST_PLAYER, N_PLAYERS, NEUTRAL, N_FORCES, TURN_LIMIT, N_TERRITORIES, N_CARDS = range(20, 27)

# ---------------------------------------------------------------------------------- the arrays
#: The arrays after the header, in order: name, the header scalar that holds its length, and its
#: value in a game before any setup.
ARRAYS: tuple[tuple[str, int, int], ...] = (
    ("owner", N_TERRITORIES, -1),
    ("armies", N_TERRITORIES, 0),
    ("card_loc", N_CARDS, DECK),
    ("pool", N_FORCES, 0),
    ("alive", N_PLAYERS, 1),  # 0/1
    ("eliminated_by", N_PLAYERS, -1),
    ("capitals", N_PLAYERS, -1),
    ("missions", N_PLAYERS, -1),
)
FIELDS = tuple(name for name, _, _ in ARRAYS)
#: The header slot that holds where each array starts, after the scalars.
AT = {name: N_CARDS + 1 + i for i, name in enumerate(FIELDS)}
AT_OWNER, AT_ARMIES, AT_CARD_LOC, AT_POOL = AT["owner"], AT["armies"], AT["card_loc"], AT["pool"]
AT_ALIVE, AT_ELIMINATED_BY, AT_CAPITALS, AT_MISSIONS = AT["alive"], AT["eliminated_by"], AT["capitals"], AT["missions"]
HEADER = max(AT.values()) + 1


@lru_cache(maxsize=64)
def layout(n_territories: int, n_cards: int, n_players: int) -> dict[str, tuple[int, int]]:
    """``{array name: (start, length)}`` of the arrays in a state vector (shared: do not modify)."""
    lengths = {N_TERRITORIES: n_territories, N_CARDS: n_cards, N_FORCES: forces(n_players), N_PLAYERS: n_players}
    out: dict[str, tuple[int, int]] = {}
    start = HEADER
    for name, length, _ in ARRAYS:
        out[name] = (start, lengths[length])
        start += lengths[length]
    return out


def new_state(n_territories: int, n_cards: int, n_players: int) -> np.ndarray:
    """A state vector before any setup: no owners, cards in the deck, no winner."""
    return _blank_state(n_territories, n_cards, n_players).copy()


@lru_cache(maxsize=64)
def _blank_state(n_territories: int, n_cards: int, n_players: int) -> np.ndarray:
    spans = layout(n_territories, n_cards, n_players)
    S = np.zeros(sum(spans[FIELDS[-1]]), dtype=np.int64)
    S[N_PLAYERS] = n_players
    S[NEUTRAL] = neutral(n_players)
    S[N_FORCES] = forces(n_players)
    S[N_TERRITORIES] = n_territories
    S[N_CARDS] = n_cards
    S[[WINNER, TURN_LIMIT, ATTACK_S, MOVE_S]] = -1
    for name, _, blank in ARRAYS:
        start, length = spans[name]
        S[AT[name]] = start
        S[start : start + length] = blank
    return S


def view(S: np.ndarray, name: str) -> np.ndarray:
    """The array ``name`` of state vector ``S``, as a view that writes through."""
    start, length = layout(int(S[N_TERRITORIES]), int(S[N_CARDS]), int(S[N_PLAYERS]))[name]
    return S[start : start + length]


# ---------------------------------------------------------------------------------- compiled access
# In compiled code an array view costs an atomic reference-count pair, more than the small rule
# steps themselves: they index ``S`` at ``S[AT_*] + i`` instead, and these views serve longer loops.
@kernel(inline=True)
def owner_view(S):  # pragma: no cover - compiled
    """``S``'s owners, shape ``(territories,)``: a player, the neutral force, or -1 (unclaimed)."""
    return S[S[AT_OWNER] : S[AT_OWNER] + S[N_TERRITORIES]]


@kernel(inline=True)
def armies_view(S):  # pragma: no cover - compiled
    """``S``'s armies per territory, shape ``(territories,)``."""
    return S[S[AT_ARMIES] : S[AT_ARMIES] + S[N_TERRITORIES]]


@kernel(inline=True)
def card_view(S):  # pragma: no cover - compiled
    """Where each card is, shape ``(cards,)``: a player's hand, :data:`DECK` or :data:`DISCARD`."""
    return S[S[AT_CARD_LOC] : S[AT_CARD_LOC] + S[N_CARDS]]


@kernel
def any_at(S, at, length, x):  # pragma: no cover - compiled
    """Whether an entry of the array starting at header slot ``S[at]``, of length ``S[length]``, equals
    ``x``: :func:`count_at` stopping at the first (a capture asks it of the victim's territories)."""
    start = S[at]
    for i in range(start, start + S[length]):
        if S[i] == x:
            return True
    return False


@kernel
def count_at(S, at, length, x):  # pragma: no cover - compiled
    """How many entries of the array starting at header slot ``S[at]``, of length ``S[length]``, equal ``x``."""
    k = 0
    start = S[at]
    for i in range(start, start + S[length]):
        if S[i] == x:
            k += 1
    return k
