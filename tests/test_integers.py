"""One policy for whole numbers at every layer (analyzer.integers): Python and numpy integers are taken,
truth values, floats (even whole ones) and text are refused, the message naming the value and what was
expected. Each way in is tried with the same values, so a layer with rules of its own shows up here."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from analyzer.analysis.editing import new_game_from_position
from analyzer.analysis.review import review_game
from analyzer.errors import (
    IllegalActionError,
    PositionError,
    ReviewError,
    RiskAnalyzerError,
    RulesError,
    SimulationError,
    StoreError,
)
from analyzer.game.board import classic_board
from analyzer.game.state import GameState
from analyzer.game.vocabulary import PLAYER_COUNTS, has_neutral, neutral, player_count
from analyzer.integers import expected, is_whole, whole_number
from analyzer.live import LiveGame, corrected
from analyzer.sim.simulate import simulate
from analyzer.store import GameStore

ALASKA = classic_board().index("Alaska")
#: Values no way in takes as a count, and how a message quotes each.
REFUSED = [
    (3.0, "3.0"),
    (True, "True"),
    ("3", "'3'"),
    (np.float64(3.0), "np.float64(3.0)"),
    (np.bool_(True), "np.True_"),
]


def position() -> GameState:
    """Seat 0 holds the Americas' 14 territories with 3 armies each, seat 1 the next 14, seat 2 the rest."""
    return GameState.from_position([0] * 14 + [1] * 14 + [2] * 14, [3] * 42, n_players=3)


def recorded() -> LiveGame:
    """The position with a history: one correction recorded, so edits go to the recorder."""
    live = LiveGame(position())
    live.correct(armies={"Alaska": 4})
    return live


def test_the_policy_itself() -> None:
    assert [is_whole(v) for v in (0, -3, 10**30, np.int8(3), np.uint64(3))] == [True] * 5
    assert [is_whole(v) for v, _ in REFUSED] == [False] * len(REFUSED)
    assert whole_number(np.int64(5), "armies", 1) == 5 and type(whole_number(np.int64(5), "armies", 1)) is int
    assert expected(2, 6) == "a whole number from 2 to 6"
    with pytest.raises(ValueError, match=r"^armies must be a whole number from 1 to 3, got 4$"):
        whole_number(np.int64(4), "armies", 1, maximum=3)
    with pytest.raises(ValueError, match=r"^armies is empty; expected a whole number >= 1$"):
        whole_number(None, "armies", 1)
    # A value too long for a message is cut (analyzer.limits.MAX_MESSAGE).
    with pytest.raises(ValueError) as caught:
        whole_number("9" * 10_000, "armies")
    assert len(str(caught.value)) < 200


# Each way in: a call taking ``value`` where a count belongs, the error class of its layer, and the name it says.
WAYS_IN: dict[str, tuple[Callable[[object], object], type[RiskAnalyzerError], str]] = {
    "position typed in": (
        lambda v: new_game_from_position(position(), armies={"Alaska": v}),
        PositionError,
        "armies of Alaska",
    ),
    "correction recorded": (
        lambda v: recorded().correct(armies={"Alaska": v}),
        PositionError,
        "the armies of Alaska",
    ),
    "edit of a recorded game": (
        lambda v: corrected(recorded().state, owners={"Alaska": v}),
        PositionError,
        "the owner of Alaska",
    ),
    "review": (lambda v: review_game(position(), rollouts=v), ReviewError, "rollouts"),
    "simulation": (lambda v: simulate(v, "random", n_games=1, progress=False), SimulationError, "n_players"),
    "new game": (lambda v: GameState.new(v, np.random.default_rng(0)), RulesError, "n_players"),
}


@pytest.mark.parametrize("way", WAYS_IN)
@pytest.mark.parametrize(("value", "shown"), REFUSED)
def test_every_way_in_refuses_the_same_values_alike(way: str, value: object, shown: str) -> None:
    call, error, name = WAYS_IN[way]
    bounds = r"( >= \d+| from \d+ to \d+)?"
    with pytest.raises(error, match=rf"^{name} must be a whole number{bounds}, got {re.escape(shown)}$"):
        call(value)


def test_a_numpy_integer_is_taken_at_the_review_and_the_recorder_alike() -> None:
    # The review checks its counts first: with them taken, what stops it is the game (no turn played yet).
    with pytest.raises(ReviewError, match="no complete player-turn"):
        review_game(position(), rollouts=np.int64(4), workers=np.int32(1))
    live = recorded()
    live.correct(armies={"Alaska": np.int64(7)}, owners={"Alaska": np.int16(1)})
    assert (int(live.state.armies[ALASKA]), int(live.state.owner[ALASKA])) == (7, 1)
    live.undo(np.int64(1))
    assert int(live.state.armies[ALASKA]) == 4
    typed = new_game_from_position(position(), armies={"Alaska": np.uint8(9)}, player=np.int64(1))
    assert (int(typed.armies[ALASKA]), typed.player) == (9, 1)


def test_the_recorder_refuses_a_float_where_it_took_one() -> None:
    live = recorded()
    for bad in (1.0, True):
        with pytest.raises(IllegalActionError, match=rf"cannot undo {bad!r} entries; 1 entry can be undone"):
            live.undo(bad)
    with pytest.raises(IllegalActionError, match=r"cannot undo 2 entries; 1 entry can be undone"):
        live.undo(2)
    with pytest.raises(IllegalActionError, match=r"me must be a seat from 0 to 2 or None, got True"):
        LiveGame(position(), me=True)
    assert LiveGame(position(), me=np.int64(2)).me == 2


def test_a_stored_game_version_follows_the_policy(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    stored = store.create(position(), "table")
    assert store.save(stored.id, position(), expected_version=np.int64(1)).version == 2
    for bad, shown in ((2.0, "2.0"), (True, "True")):
        with pytest.raises(StoreError, match=rf"a game's version must be a whole number >= 1, got {shown}"):
            store.save(stored.id, position(), expected_version=bad)


def test_player_counts_come_from_the_vocabulary() -> None:
    assert list(PLAYER_COUNTS) == [2, 3, 4, 5, 6]
    assert player_count(np.int64(6)) == 6
    for bad in (1, 7, 3.0, True):
        with pytest.raises(ValueError, match=rf"^players must be a whole number from 2 to 6, got {bad!r}$"):
            player_count(bad, "players")
    # The neutral force: in a 2-player game only, after the seats.
    assert [has_neutral(n) for n in PLAYER_COUNTS] == [True, False, False, False, False]
    assert [neutral(n) for n in PLAYER_COUNTS] == [2, -1, -1, -1, -1]
    with pytest.raises(PositionError, match="n_players must be a whole number from 2 to 6, got 7"):
        GameState.from_position([0] * 42, [1] * 42, n_players=7)
