"""Refusals in words: every message the engine gives for an action it refuses names players,
territories and cards as the table does, and never shows a Python repr, a phase constant or an id."""

from __future__ import annotations

import re

import numpy as np
import pytest

from analyzer.errors import IllegalActionError
from analyzer.game.actions import (
    Action,
    Attack,
    Battle,
    Claim,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    MoveIn,
    Place,
    Trade,
)
from analyzer.game.labels import player_names
from analyzer.game.state import GameState

#: What a message must not hold: a dataclass repr, a phase constant, a field name, a list of ids.
_PROGRAMMER = re.compile(
    r"\w+\(\w+=|\b(?:SETUP_CLAIM|SETUP_PLACE|REINFORCE|ATTACK|DEFEND|ROLL|MOVE_IN|FORTIFY|DRAW|"
    r"GAME_OVER)\b|territory=|\[\d|\(player \d\)|illegal action"
)


def candidates(state: GameState, rng: np.random.Generator) -> list[Action]:
    n = state.board.n_territories
    t = lambda: int(rng.integers(n))  # noqa: E731
    k = lambda: int(rng.integers(0, 12))  # noqa: E731
    return [
        Place(t(), k()),
        Claim(t()),
        Attack(t(), t(), int(rng.integers(0, 5))),
        Battle(t(), t(), k(), k()),
        Fortify(t(), t(), k()),
        MoveIn(k()),
        Defend(int(rng.integers(0, 4))),
        EndTurn(),
        EndAttack(),
        Trade(tuple(int(c) for c in rng.choice(44, 3, replace=False))),
    ]  # type: ignore[arg-type]


def test_no_refusal_shows_a_repr_a_phase_constant_or_an_id() -> None:
    rng = np.random.default_rng(20)
    seen: set[str] = set()
    refused = 0
    for game in range(3):
        state = GameState.new(3 + game, rng)
        state.labels["names"] = [f"Seat{p}name" for p in range(state.n_players)]
        for _ in range(150):
            if state.is_terminal():
                break
            for action in candidates(state, rng):
                before = state.to_json()
                try:
                    state.copy().apply(action)
                except IllegalActionError as exc:
                    message = str(exc)
                    refused += 1
                    assert not _PROGRAMMER.search(message), message
                    assert message.startswith(f"{player_names(state)[state.player]} cannot "), message
                    seen.add(message.split(" now: ")[1].split(":")[0].split(" ")[0])
                assert state.to_json() == before
            if state.is_chance():
                state.apply_chance(rng)
            else:
                legal = state.legal_actions()
                state.apply(legal[int(rng.integers(len(legal)))])
    assert refused > 1000 and len(seen) > 8  # many different reasons met, not one repeated


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (
            Place("Alaska", 5),
            "Ann cannot place 5 armies on Alaska now: armies must be from 1 to the 3 left to place, got 5",
        ),
        (Place("Kamchatka", 1), "Ann cannot place 1 army on Kamchatka now: Kamchatka is not Ann's (it is Bo's)"),
        (EndTurn(), "Ann cannot end the turn now: Ann is reinforcing: place the 3 armies left, or trade a set"),
        (
            Place("Alaska", 1234567890123),
            "Ann cannot place 1234567890123 armies on Alaska now: armies must be a whole "
            "number of at most 9 digits, got 1234567890123",
        ),
        (Place("Alsaka", 1), "Ann cannot place 1 army on Alsaka now: unknown territory 'Alsaka'"),
    ],
)
def test_refusals_say_who_what_and_what_to_do(action: Action, message: str) -> None:
    # Ann holds Alaska, Northwest Territory and Greenland, Bo the rest: Ann gets the least, 3 armies.
    owner = [1] * 42
    owner[0:3] = [0, 0, 0]
    state = GameState.from_position(owner, [2] * 42, n_players=2)
    state.labels["names"] = ["Ann", "Bo"]
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert str(info.value).startswith(message)
