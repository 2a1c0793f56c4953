"""The names the table uses for the game's players and cards, kept in one place.

A front end keeps the players' names and colours in :attr:`GameState.labels`
(:func:`with_player_labels`); every sentence the package writes about a game
(a refused entry, a log line, the games list) names a player with
:func:`player_name` and a card with :func:`card_label`.

>>> from analyzer.game.state import GameState
>>> state = GameState.from_position([0] * 21 + [1] * 21, [3] * 42, n_players=2)
>>> player_names(state), player_names(state, neutral=False)
(['Player 1', 'Player 2', 'Neutral'], ['Player 1', 'Player 2'])
>>> card_label(state.board, 0), card_label(state.board, 43)
('Alaska (infantry)', 'wild')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, TypeVar

from analyzer.errors import PositionError, StateFormatError
from analyzer.game.board import SYMBOLS, Board
from analyzer.game.core import StateCore
from analyzer.limits import MAX_NAME_LENGTH, quote

#: Keys of :attr:`GameState.labels` under which :func:`with_player_labels` keeps the players' names and colours.
NAMES_LABEL = "names"
COLORS_LABEL = "colors"
#: The neutral force's name at every table (a 2-player game's third pile).
NEUTRAL_NAME = "Neutral"
#: The one colour format every front end here reads (a colour picker's and matplotlib's alike).
#: Colours of players 0..5, in the spirit of the box's armies: a seat's colour where the game keeps none.
PLAYER_COLORS: tuple[str, ...] = ("#d62728", "#1f5fbf", "#2ca02c", "#e6b400", "#8e44ad", "#303030")
#: The neutral force of a two-player game.
NEUTRAL_COLOR = "#9e9e9e"
_HEX_COLOR = re.compile(r"#[0-9a-fA-F]{6}")


def seat_name(pid: int, neutral: int | None = None) -> str:
    """Default display name of player ``pid`` ("Player 1" for id 0); ``neutral`` is the neutral force's id."""
    return NEUTRAL_NAME if pid == neutral else f"Player {pid + 1}"


_S = TypeVar("_S", bound=StateCore)


def with_player_labels(state: _S, names: Sequence[str], colors: Sequence[str]) -> _S:
    """A copy of ``state`` that keeps the players' ``names`` and ``colors`` in its labels, to be saved with it.

    One name and one ``#rrggbb`` colour per seat (the neutral force has
    neither); other labels are kept. :func:`player_labels` reads them back.

    >>> from analyzer.game.state import GameState
    >>> state = GameState.from_position([0] * 41 + [1], [3] * 42, n_players=3)
    >>> saved = GameState.from_json(with_player_labels(state, ["Ann", "Bo", "Cy"], ["#d62728"] * 3).to_json())
    >>> player_labels(saved)[0]
    ['Ann', 'Bo', 'Cy']
    """
    labelled = state.copy()
    labelled.labels[NAMES_LABEL] = _checked_labels(NAMES_LABEL, list(names), state.n_players, PositionError)
    labelled.labels[COLORS_LABEL] = _checked_labels(COLORS_LABEL, list(colors), state.n_players, PositionError)
    return labelled


def player_labels(state: StateCore) -> tuple[list[str] | None, list[str] | None]:
    """The players' names and colours kept in ``state``'s labels, a seat at a time; None for either one not kept.

    The labels come from a file that may have been edited by hand, so they are
    checked: a :class:`~analyzer.errors.StateFormatError` says which is malformed.
    """

    def kept(key: str) -> list[str] | None:
        if key not in state.labels:
            return None
        return _checked_labels(key, state.labels[key], state.n_players, StateFormatError)

    return kept(NAMES_LABEL), kept(COLORS_LABEL)


def player_colors(state: StateCore, *, neutral: bool = False) -> list[str]:
    """Each seat's colour: the game's own (:func:`player_labels`), else :data:`PLAYER_COLORS`; with ``neutral``,
    the neutral force's :data:`NEUTRAL_COLOR` after them in a game that has one."""
    colors = player_labels(state)[1] or list(PLAYER_COLORS[: state.n_players])
    return colors + ([NEUTRAL_COLOR] if neutral and state.neutral is not None else [])


def player_names(state: StateCore, *, neutral: bool = True) -> list[str]:
    """Each force's display name: the names kept in the labels, else "Player 1", ... and "Neutral"
    (the seats' alone, without the neutral force, when ``neutral`` is False)."""
    names, _ = player_labels(state)
    forces = len(state.pool) if neutral else state.n_players
    return [names[p] if names is not None and p < len(names) else seat_name(p, state.neutral) for p in range(forces)]


def player_name(state: StateCore, player: int) -> str:
    """The display name of one force of ``state`` (see :func:`player_names`)."""
    names = player_names(state)
    return names[player] if 0 <= player < len(names) else f"player {player}"


def card_label(board: Board, card: int) -> str:
    """A card as the table reads it: "Alaska (infantry)", or "wild"."""
    t = int(board.card_territory[card])
    symbol = SYMBOLS[int(board.card_symbols[card])]
    return f"{board.territories[t]} ({symbol})" if t >= 0 else symbol


def _checked_labels(key: str, values: Any, n_players: int, error: type[ValueError]) -> list[str]:
    what = "player names" if key == NAMES_LABEL else "player colours"
    if not isinstance(values, list) or len(values) != n_players:
        raise error(f"the {what} must be a list of {n_players}, one per seat, got {quote(values)}")
    for seat, value in enumerate(values, start=1):
        if not isinstance(value, str):
            raise error(f"the {what} must be text; seat {seat} has {quote(value)}")
        if key == COLORS_LABEL and not _HEX_COLOR.fullmatch(value):
            raise error(f"seat {seat}'s colour {quote(value)} is not a colour like #1f5fbf")
        if key == NAMES_LABEL and not 1 <= len(value.strip()) <= MAX_NAME_LENGTH:
            raise error(
                f"seat {seat}'s name must be 1 to {MAX_NAME_LENGTH} characters (analyzer.limits.MAX_NAME_LENGTH), "
                f"got {len(value.strip()):,}: {quote(value)}"
            )
    return list(values)
