"""What the win-chance model reads of a position: one row of numbers per seat still in the game.

A row describes the position from one seat's side: the game as a whole (:data:`GAME`), where the seat
sits from the player to move (:data:`FROM_MOVER`, one column per place), the seat itself
(:data:`SEAT`, and its share of each continent against the largest share of anyone else in it), then
the other seats in the order they move after it (:data:`OTHER` for each of :data:`OTHERS` places,
zeros where the game has fewer players). The model scores each row; the scores of one position are
made into chances that add up to 1 (:mod:`analyzer.value.model`).

The columns are declared once, here, as names; :func:`columns` derives every offset from them, and
the compiled :func:`position_rows` writes them in that order.

>>> import numpy as np
>>> from analyzer.game.state import GameState
>>> state = GameState.random_start(3, np.random.default_rng(1))
>>> rows, seats = rows_of(state)
>>> rows.shape == (3, len(columns(state.board))), seats.tolist()
(True, [0, 1, 2])
>>> names = columns(state.board)
>>> float(rows[:, names.index("seat.army_share")].sum() + rows[0, names.index("game.neutral_share")])
1.0
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from analyzer.game.board import Board
from analyzer.game.engine import steps as engine
from analyzer.game.engine.layout import N_PLAYERS
from analyzer.game.state import GameState
from analyzer.game.vocabulary import MAX_PLAYERS, REINFORCE
from analyzer.kernels import kernel

#: The game as a whole: players at the start, players left, the next set's value, the round, the neutral
#: army's share of all armies (2 players), whether the mover has captured this turn (a card is due), and
#: whether the turn is at its start (its reinforcements still to place).
GAME = ("players", "alive", "next_set", "round", "neutral_share", "captured", "at_start")
#: A seat's own figures: still in the game; territories (share of the map); armies (share of all armies,
#: and the log of the count); income next turn (armies, and share of all seats' income); the continent
#: bonuses it holds; cards in hand and whether they hold a set; the share of its territories on a border
#: and of its armies on them; its largest stack (share of its armies); the enemy armies next to its
#: borders against its own; armies it has still to place this turn.
SEAT = (
    "alive",
    "territories",
    "army_share",
    "log_armies",
    "income",
    "income_share",
    "bonus_held",
    "cards",
    "has_set",
    "border_share",
    "border_armies",
    "max_stack",
    "threat",
    "pending",
)
#: The figures kept of each other seat (a subset of :data:`SEAT`).
OTHER = ("alive", "territories", "army_share", "income_share", "bonus_held", "cards", "has_set")
#: Other seats described in a row: every other seat of the largest game.
OTHERS = MAX_PLAYERS - 1
_OTHER_AT = np.array([SEAT.index(name) for name in OTHER], dtype=np.int64)


@lru_cache(maxsize=8)
def columns(board: Board) -> list[str]:
    """The names of a row's columns on ``board``, in order (shared: do not modify)."""
    names = [f"game.{g}" for g in GAME]
    names += [f"from_mover.{k}" for k in range(MAX_PLAYERS)]
    names += [f"seat.{s}" for s in SEAT]
    names += [f"seat.holds.{c.name}" for c in board.continents]
    names += [f"others.hold.{c.name}" for c in board.continents]
    names += [f"next{k}.{s}" for k in range(1, OTHERS + 1) for s in OTHER]
    return names


@kernel
def _seat_figures(S, C, out, continents, scratch):  # pragma: no cover - compiled
    """Each force's :data:`SEAT` figures into ``out`` (forces x figures), and its share of each
    continent's territories into ``continents`` (forces x continents). ``scratch`` (4 x at least the
    forces, the continents and the cards) is working space, passed in so that a batch allocates it once."""
    n = S[engine.N_PLAYERS]
    owner = engine.owner_view(S)
    armies = engine.armies_view(S)
    cards = engine.card_view(S)
    T = owner.shape[0]
    width = C[engine.R_WIDTH]
    nb = C[engine.O_NEIGHBORS]
    cont_of = C[engine.O_CONTINENT_OF]
    n_cont = C[engine.R_CONTINENTS]
    out[:] = 0.0
    continents[:] = 0.0
    scratch[:] = 0.0
    size, own_armies, border_armies, threat = scratch[0], scratch[1], scratch[2], scratch[3]
    total = 0.0
    for t in range(T):
        o = owner[t]
        c = C[cont_of + t]
        size[c] += 1.0
        total += armies[t]
        if o < 0:
            continue
        continents[o, c] += 1.0
        own_armies[o] += armies[t]
        out[o, 1] += 1.0
        out[o, 11] = max(out[o, 11], armies[t])
        enemy = 0
        for k in range(width):
            u = C[nb + t * width + k]
            if u < 0:
                break
            if owner[u] != o and armies[u] > enemy:
                enemy = armies[u]
        if enemy > 0:
            out[o, 9] += 1.0
            border_armies[o] += armies[t]
            threat[o] += enemy
    income_total = 0.0
    hand = np.empty(cards.shape[0], dtype=np.int64)
    for p in range(n):
        if S[S[engine.AT_ALIVE] + p] == 0:
            continue
        out[p, 0] = 1.0
        out[p, 4] = engine.reinforcements(S, C, p)
        income_total += out[p, 4]
        held = engine.held_continents(S, C, p)
        for c in range(n_cont):
            if (held >> c) & 1:
                out[p, 6] += C[C[engine.O_CONTINENT_BONUS] + c]
        held_cards = 0
        for c in range(cards.shape[0]):
            if cards[c] == p:
                hand[held_cards] = c
                held_cards += 1
        out[p, 7] = held_cards
        for i in range(held_cards):
            for j in range(i + 1, held_cards):
                for k in range(j + 1, held_cards):
                    if out[p, 8] == 0.0 and engine.is_set(C, hand[i], hand[j], hand[k]):
                        out[p, 8] = 1.0
    for p in range(out.shape[0]):
        if out[p, 1] > 0:
            out[p, 9] /= out[p, 1]
        if own_armies[p] > 0:
            out[p, 10] = border_armies[p] / own_armies[p]
            out[p, 11] /= own_armies[p]
            out[p, 12] = threat[p] / own_armies[p]
        out[p, 1] /= T
        if total > 0:
            out[p, 2] = own_armies[p] / total
        out[p, 3] = np.log1p(own_armies[p])
        if income_total > 0 and p < n:
            out[p, 5] = out[p, 4] / income_total
        for c in range(n_cont):
            if size[c] > 0:
                continents[p, c] /= size[c]
    if S[engine.PHASE] >= REINFORCE:
        out[S[engine.PLAYER], 13] = S[engine.PENDING]


@kernel
def _work(S, C):  # pragma: no cover - compiled
    """The working arrays of :func:`_rows_at` for positions of ``S``'s size."""
    forces = S[engine.N_FORCES]
    n_cont = C[engine.R_CONTINENTS]
    width = max(forces, n_cont, S[engine.N_CARDS])
    return np.empty((forces, 14)), np.empty((forces, n_cont)), np.empty((4, width))


@kernel
def position_rows(S, C, rows, seats, at):  # pragma: no cover - compiled
    """Write the rows of position ``S`` (one per seat still in the game, in seat order) into ``rows``
    from row ``at``, each row's seat into ``seats``; returns the row after the last written."""
    figures, continents, scratch = _work(S, C)
    return _rows_at(S, C, rows, seats, at, figures, continents, scratch)


@kernel
def _rows_at(S, C, rows, seats, at, figures, continents, scratch):  # pragma: no cover - compiled
    n = S[engine.N_PLAYERS]
    n_cont = C[engine.R_CONTINENTS]
    forces = S[engine.N_FORCES]
    _seat_figures(S, C, figures, continents, scratch)
    mover = S[engine.PLAYER]
    alive = 0
    for p in range(n):
        alive += S[S[engine.AT_ALIVE] + p]
    neutral_share = figures[forces - 1, 2] if forces > n else 0.0
    next_set = C[C[engine.O_SET_VALUES] + min(S[engine.SETS_TRADED], engine.SET_VALUE_TABLE - 1)]
    r = at
    for p in range(n):
        if S[S[engine.AT_ALIVE] + p] == 0:
            continue
        row = rows[r]
        row[:] = 0.0
        row[0] = n
        row[1] = alive
        row[2] = next_set
        row[3] = S[engine.ROUND]
        row[4] = neutral_share
        row[5] = S[engine.CAPTURED] if p == mover else 0
        row[6] = 1.0 if S[engine.PHASE] == REINFORCE else 0.0
        base = 7
        row[base + (p - mover) % n] = 1.0
        base += 6
        for s in range(14):
            row[base + s] = figures[p, s]
        base += 14
        for c in range(n_cont):
            row[base + c] = continents[p, c]
            most = 0.0
            for q in range(forces):
                if q != p and continents[q, c] > most:
                    most = continents[q, c]
            row[base + n_cont + c] = most
        base += 2 * n_cont
        for k in range(1, n):
            q = (p + k) % n
            for s in range(_OTHER_AT.shape[0]):
                row[base + (k - 1) * _OTHER_AT.shape[0] + s] = figures[q, _OTHER_AT[s]]
        seats[r] = p
        r += 1
    return r


def rows_of(state: GameState) -> tuple[np.ndarray, np.ndarray]:
    """The rows of ``state`` (one per seat still in the game) and their seats."""
    rows = np.empty((state.n_players, len(columns(state.board))))
    seats = np.empty(state.n_players, dtype=np.int64)
    end = position_rows(state.S, state.C, rows, seats, 0)
    return rows[:end], seats[:end]


@kernel
def _batch_rows(states, C, rows, seats, position):  # pragma: no cover - compiled
    r = 0
    if states.shape[0] == 0:
        return r
    figures, continents, scratch = _work(states[0], C)
    for i in range(states.shape[0]):
        end = _rows_at(states[i], C, rows, seats, r, figures, continents, scratch)
        position[r:end] = i
        r = end
    return r


def batch_rows(states: np.ndarray, C: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows of many positions of one game size (one state vector per row of ``states``): the rows,
    their seats and the position (row of ``states``) of each."""
    n = int(states[0, N_PLAYERS]) if len(states) else 0
    rows = np.empty((states.shape[0] * n, width))
    seats = np.empty(states.shape[0] * n, dtype=np.int64)
    position = np.empty(states.shape[0] * n, dtype=np.int64)
    end = _batch_rows(states, C, rows, seats, position)
    return rows[:end], seats[:end], position[:end]
