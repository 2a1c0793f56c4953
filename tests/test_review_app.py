"""The app's Review view and the win-chance strip, headless (through ``streamlit.testing``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from analyzer.analysis import evaluator
from analyzer.analysis.review import replay_turn
from analyzer.game.state import GameState
from analyzer.live import LiveGame
from analyzer.store import DB_ENV, GameStore

APP = str(Path(__file__).resolve().parent.parent / "app.py")
TIMEOUT = 120


def recorded_game(turns: int = 3, seed: int = 6) -> GameState:
    rng = np.random.default_rng(seed)
    game = GameState.random_start(3, rng)
    for _ in range(turns):
        replay_turn(game, (), rng)
    return game


def test_the_review_view_reviews_a_stored_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv(DB_ENV, str(db))
    stored = GameStore(db).create(recorded_game(), "Friday game")
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["game"] = stored.id
    at.run()
    at.session_state["tab"] = "Review"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    at.select_slider(key="review_rollouts").set_value(50).run()
    at.button(key="review_run").click().run()
    assert not at.exception and not at.error, ([e.value for e in at.exception], [e.value for e in at.error])
    (summary,) = [df.value for df in at.dataframe if "Dice share" in df.value.columns]
    assert summary["Player"].tolist() == ["Player 1", "Player 2", "Player 3"]
    assert any("Turning points" in m.value for m in at.markdown)
    (turns,) = [df.value for df in at.dataframe if "best_plan" in df.value.columns]
    assert len(turns) == 3


def test_the_record_tab_of_a_live_game_shows_the_strip(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv(DB_ENV, str(db))
    live = LiveGame(recorded_game(2, seed=9))
    stored = GameStore(db).create(live.state, "At the table")
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["game"] = stored.id
    at.run()
    at.session_state["tab"] = "Record"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    model = evaluator.chances(live.state)
    shown = [m for m in at.metric if m.label in ("Player 1", "Player 2", "Player 3")]
    assert [m.value for m in shown] == [f"{100 * p:.0f}%" for p in model.p]
    captions = " ".join(c.value for c in at.caption)
    assert "learned model of the default bot" in captions
    # A tap counts rollouts of the position now, and the strip shows them instead.
    at.button(key="strip_count").click().run(timeout=600)
    assert not at.exception, [e.value for e in at.exception]
    counted = evaluator.chances(live.state, "rollouts", rollouts=evaluator.ROLLOUTS)
    shown = [m for m in at.metric if m.label in ("Player 1", "Player 2", "Player 3")]
    assert [m.value for m in shown] == [f"{100 * p:.0f}%" for p in counted.p]
    assert f"{evaluator.ROLLOUTS} rollouts of the default bot" in " ".join(c.value for c in at.caption)
