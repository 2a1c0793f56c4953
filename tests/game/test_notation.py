"""The text notation (:mod:`analyzer.game.notation`): every action of played games and of a recorded game
with corrections reads back as itself, positions round-trip, and bad text is refused in words."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from analyzer.bots.registry import make_bot
from analyzer.errors import BoardError, StateFormatError
from analyzer.game.actions import Correct, Fortify, Place, Trade
from analyzer.game.board import classic_board
from analyzer.game.notation import (
    action_from_text,
    action_text,
    entry_from_text,
    position_from_text,
    position_text,
)
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.game.timeline import timeline
from analyzer.live import LiveGame
from analyzer.sim.play import play_game

BOARD = classic_board()
DATA = Path(__file__).resolve().parents[1] / "data"


def _played(seed: int) -> GameState:
    n = 2 + seed % 5
    rng = np.random.default_rng(seed)
    names = (["random", "planner", "classic", "hunter", "default"] * 2)[seed % 5 : seed % 5 + n]
    return play_game(
        GameState.new(n, rng, Rules(turn_limit=30)), [make_bot(b) for b in names], rng, sample_battles=bool(seed % 2)
    )


@pytest.mark.parametrize("seed", range(6))
def test_every_action_and_entry_of_a_played_game_reads_back_as_itself(seed: int) -> None:
    game = _played(seed)
    for a in game.history:
        assert action_from_text(action_text(a)) == a
    for e in timeline(game).entries:
        assert entry_from_text(e.text) == list(e.actions)


def test_the_corrections_of_a_recorded_game_read_back() -> None:
    game = GameState.from_json((DATA / "live_game_before_corrections.json").read_text())
    live = LiveGame(game)
    live.correct(armies={"Alaska": 9}, owners={"Peru": (int(game.owner[BOARD.index("Peru")]) + 1) % game.n_players})
    corrections = [a for a in live.state.history if isinstance(a, Correct)]
    assert corrections
    for a in corrections:
        assert action_from_text(action_text(a)) == a


@pytest.mark.parametrize("seed", range(6))
def test_positions_at_each_turn_start_round_trip(seed: int) -> None:
    game = _played(seed)
    for turn in timeline(game).turns[:40]:
        s = turn.before
        text = position_text(s)
        back = position_from_text(text)
        assert position_text(back) == text
        assert back.owner.tolist() == s.owner.tolist() and back.armies.tolist() == s.armies.tolist()
        assert (back.player, back.sets_traded, back.n_players) == (s.player, s.sets_traded, s.n_players)
        assert all(sorted(back.hand(p)) == sorted(s.hand(p)) for p in range(s.n_players))


def test_words_name_territories_and_numbers() -> None:
    assert action_text(Place(BOARD.index("North Africa"), 4)) == "place 4 on North Africa"
    assert action_from_text("  fortify 5 from  Alberta > Alaska ") == Fortify(
        BOARD.index("Alberta"), BOARD.index("Alaska"), 5
    )
    trade = Trade((1, 2, 3), BOARD.index("Peru"), 1)
    assert action_text(trade) == "trade 1 2 3 bonus Peru face down 1"
    assert action_from_text("trade 1 2 3 bonus Peru face down 1") == trade


def test_face_down_cards_show_as_question_marks_after_the_known_ones() -> None:
    state = GameState.from_position([0] * 21 + [1] * 21, [2] * 42, n_players=2, hands={1: ["?", 7]})
    assert position_text(state).endswith("| players 2 | move 0 | sets 0 | 1=7,?")
    back = position_from_text(position_text(state))
    assert len(back.face_down) == 1 and 7 in back.hand(1)


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("place three on Alaska", StateFormatError, "not an action: 'place three on Alaska'"),
        ("place 3 on Atlantis", BoardError, "Atlantis"),
        ("correct [1, 2", StateFormatError, "not an action"),
        ("0:3 0:3 | players 2", StateFormatError, "2 parts"),
        ("0:3 0:x | players 2 | move 0 | sets 0", StateFormatError, "not a position"),
    ],
)
def test_bad_text_is_refused_in_words(text: str, error: type, words: str) -> None:
    with pytest.raises(error, match=words.replace("[", r"\[")):
        if " | " in text or text.startswith("0:"):
            position_from_text(text)
        else:
            action_from_text(text)
