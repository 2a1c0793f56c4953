"""Entering a position at the table: a typed position edited, or a blank board to type one over.

Only :func:`new_game_from_position` starts a fresh game with no history, and says so in its name;
:func:`edit_position` refuses a game with a recorded history unless told to start over.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from analyzer.errors import PositionError
from analyzer.game import face_down
from analyzer.game.board import Board, classic_board
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.game.vocabulary import forces
from analyzer.integers import whole_number


def edit_position(
    state: GameState,
    *,
    owner: Mapping[str, Any] | Mapping[int, Any] | Mapping[int | str, Any] | None = None,
    armies: Mapping[str, Any] | Mapping[int, Any] | Mapping[int | str, Any] | None = None,
    player: int | None = None,
    hands: Mapping[int, Sequence[int | str]] | None = None,
    sets_traded: int | None = None,
    start_over: bool = False,
) -> GameState:
    """A position typed in, with the given changes: :func:`new_game_from_position` for a game with no history.

    A game with a recorded history is refused (a :class:`PositionError`):
    this would start a new game without it. Record the change as a
    correction instead (:meth:`analyzer.live.LiveGame.correct`), or say
    ``start_over=True`` to start a fresh game from the changed position.

    >>> import numpy as np
    >>> edit_position(GameState.random_start(3, np.random.default_rng(1)), armies={"Alaska": 9})
    Traceback (most recent call last):
    ...
    analyzer.errors.PositionError: this game has a recorded history of 105 actions, which a new position would drop; record the change as a correction, or start over from this position (start_over=True)
    """
    if state.history and not start_over:
        raise PositionError(
            f"this game has a recorded history of {len(state.history)} actions, which a new position would drop; "
            "record the change as a correction, or start over from this position (start_over=True)"
        )
    return new_game_from_position(
        state, owner=owner, armies=armies, player=player, hands=hands, sets_traded=sets_traded
    )


def new_game_from_position(
    state: GameState,
    *,
    owner: Mapping[str, Any] | Mapping[int, Any] | Mapping[int | str, Any] | None = None,
    armies: Mapping[str, Any] | Mapping[int, Any] | Mapping[int | str, Any] | None = None,
    player: int | None = None,
    hands: Mapping[int, Sequence[int | str]] | None = None,
    sets_traded: int | None = None,
) -> GameState:
    """A fresh game with no history: ``state``'s position with the given changes, at the start of ``player``'s turn.

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
    >>> edited = new_game_from_position(state, armies={"Alaska": 9})
    >>> int(edited.armies[0]), int(state.armies[0]) != 9, edited.history
    (9, True, [])
    >>> new_game_from_position(state, armies={"Alaska": -2})
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
            target[t] = whole_number(value, f"{what} of {board.territories[t]}", None, PositionError)
    new_hands: dict[int, list[Any]] = {p: state.hand(p) for p in range(state.n_players)}
    given: set[int] = set()
    for p, cards in (hands or {}).items():
        seat = whole_number(p, "a hand's seat", None, PositionError)
        given.add(seat)
        new_hands[seat] = [
            c if c == face_down.UNKNOWN else whole_number(c, f"a card of hand {seat}", None, PositionError)
            for c in cards
        ]
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
    return GameState.from_position(
        [t % forces(n_players) for t in range(n)], [1] * n, n_players=n_players, rules=rules, board=board
    )
