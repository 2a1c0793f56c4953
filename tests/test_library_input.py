"""What a notebook user is told when a library call gets the wrong kind of value: one error in their words, naming
the value and what was expected, raised before any game is played, never an AttributeError from deep inside."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.errors import IllegalActionError, PositionError, RulesError, SimulationError, StudyError
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.sim.evaluate import evaluate
from analyzer.sim.simulate import simulate
from analyzer.studies.cards import card_timing
from analyzer.studies.openings import play_openings

STATE = GameState.random_start(3, np.random.default_rng(1))


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: GameState.random_start(4, 1),
            PositionError,
            r"rng must be a numpy.random.Generator, such as "
            r"numpy.random.default_rng\(1\), got 1",
        ),
        (
            lambda: GameState.new(4, None),
            PositionError,
            r"rng must be a numpy.random.Generator, such as "
            r"numpy.random.default_rng\(seed\), got None",
        ),
        (
            lambda: simulate(2, "default", 2, rules={"fortify": "teleport"}, progress=False),
            RulesError,
            r"rules option fortify='teleport' is not one of adjacent, connected",
        ),
        (
            lambda: simulate(2, "default", 2, rules=3, progress=False),
            SimulationError,
            r"rules must be a Rules or a dict of its options by name, got int",
        ),
        (
            lambda: simulate(2, None, 2, progress=False),
            SimulationError,
            r"bots must be names \('default,classic,random', or one for every seat\) or one bot per seat, got NoneType",
        ),
        (
            lambda: evaluate("game.json", "default"),
            SimulationError,
            r"state must be a GameState \(GameState.from_json\(text\) reads a saved game\), got str",
        ),
        (
            lambda: evaluate(STATE, "default", rollouts=0),
            SimulationError,
            r"rollouts must be a whole number >= 1, got 0",
        ),
        (
            lambda: card_timing(4, ["first"], 2, 1),
            StudyError,
            r"player_counts must be a list of player counts, such as \[3, 4\], got 4",
        ),
        (
            lambda: play_openings(4, 2, 1, rules=Rules(setup="deal")),
            StudyError,
            r"a 4-player game under setup='deal' deals its territories: keep setup='claim'",
        ),
        (
            lambda: STATE.copy().apply("place"),
            IllegalActionError,
            r"Player 2 cannot make that entry now: the entry must be an action of analyzer.game.actions, such as "
            r"Place\('Alaska', 3\), got 'place'",
        ),
    ],
    ids=[
        "seed-for-rng",
        "none-for-rng",
        "bad-rules-option",
        "rules-int",
        "no-bots",
        "file-name-for-state",
        "no-rollouts",
        "one-player-count",
        "dealt-openings",
        "text-for-action",
    ],
)
def test_a_wrong_value_is_named_in_words(call, error, message) -> None:
    with pytest.raises(error, match=message):
        call()


def test_rules_by_name_play_as_the_rules_object() -> None:
    # The command line's --rules takes the options by name; the library takes the same dict.
    by_name = simulate(3, "default", 4, seed=2, rules={"fortify": "connected"}, progress=False)
    by_object = simulate(3, "default", 4, seed=2, rules=Rules(fortify="connected"), progress=False)
    assert by_name.params == by_object.params
    assert by_name.games.equals(by_object.games)


def test_win_rates_take_a_confidence_level_not_a_percent() -> None:
    result = simulate(2, "default", 2, seed=1, progress=False)
    with pytest.raises(
        SimulationError, match=r"confidence must be a number between 0 and 1 \(exclusive: 0.95 for 95%\), got 95"
    ):
        result.win_rates("bot", confidence=95)
