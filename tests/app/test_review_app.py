"""The app's Review view and the win-chance strip, headless (through ``streamlit.testing``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest
from support.live_script import captured_then_ended

from analyzer.analysis import evaluator
from analyzer.analysis.review import player_turns, replay_turn
from analyzer.game.board import classic_board
from analyzer.game.state import GameState
from analyzer.limits import MAX_JSON_BYTES
from analyzer.live import LiveGame
from analyzer.store import DB_ENV, GameStore
from analyzer.text import plain

#: The classic map, whose territories the tests name.
BOARD_OF_TESTS = classic_board()
APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 120


def recorded_game(turns: int = 3, seed: int = 6) -> GameState:
    rng = np.random.default_rng(seed)
    game = GameState.random_start(3, rng)
    for _ in range(turns):
        replay_turn(game, (), rng)
    return game


def reviewed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, game: GameState) -> tuple[AppTest, pd.DataFrame]:
    """The app on ``game`` (stored, its players named Ann, Bo and Cy) reviewed on its Review tab at 50
    rollouts, with the Players table."""
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv(DB_ENV, str(db))
    game.labels["names"] = ["Ann", "Bo", "Cy"]
    stored = GameStore(db).create(game, "Friday game")
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
    return at, summary


def test_the_review_view_reviews_a_stored_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    game = recorded_game(turns=5)
    at, summary = reviewed(monkeypatch, tmp_path, game)
    assert summary["Player"].tolist() == ["Ann", "Bo", "Cy"]
    # The chart of the chances, in per cent as the page's other figures, names each line by its player.
    (chart,) = [c for c in at.get("vega_lite_chart") if "win chance %" in c.proto.spec]
    assert json.loads(chart.proto.spec)["layer"][1]["encoding"]["color"]["scale"]["domain"] == ["Ann", "Bo", "Cy"]
    # The table's turn numbers, as the log and the status give them: every player's n-th turn is turn n.
    names = ["Ann", "Bo", "Cy"]
    played = [(t.round, names[t.player]) for t in player_turns(game)]
    assert sorted({turn for turn, _ in played}) == [1, 2]
    assert all(text.endswith(("(turn 1)", "(turn 2)")) for text in summary["Largest mistake"])
    points = [m.value for m in at.markdown if re.match(r"Turn \d+, \*\*", m.value)]
    assert points
    for text in points:
        turn, name = re.match(r"Turn (\d+), \*\*(\w+)\*\*: ", text).groups()  # type: ignore[union-attr]
        assert (int(turn), name) in played
    assert not any("round" in m.value for m in at.markdown)
    # Dice and decisions do not add up to a turn's change, and the view says why beside them.
    assert any(c.value.startswith("A turn's change holds more than its dice and its decisions") for c in at.caption)
    (turns,) = [df.value for df in at.dataframe if "Against" in df.value.columns]
    assert list(zip(turns["Turn"], turns["Player"])) == played
    # In the units of the tab's other figures: chances in per cent, the parts in points with their intervals.
    assert all(re.fullmatch(r"\d+%", x) for x in [*turns["Before"], *turns["After"]])
    assert all(re.fullmatch(r"[+-]\d+\.\d \[[+-]\d+\.\d, [+-]\d+\.\d\]", x) for x in turns["Decisions"])


def test_a_player_with_no_turn_reviewed_yet_shows_no_figures(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # One player-turn recorded: the other two players have none to sum, average or pick a mistake from.
    game = recorded_game(turns=1)
    _, summary = reviewed(monkeypatch, tmp_path, game)
    (turn,) = player_turns(game)
    assert summary["Turns"].tolist() == [int(p == turn.player) for p in range(3)]
    figures = ["Lost to decisions / turn", "Largest mistake", "Dice", "Dice share"]
    others = summary.drop(index=turn.player)
    assert len(others) == 2 and others[figures].eq("–").all().all()
    assert re.fullmatch(r"[+-]\d+\.\d \(turn 1\)", summary.loc[turn.player, "Largest mistake"])
    assert not summary.astype(str).apply(lambda column: column.str.contains("nan|NA", case=False)).any().any()


def test_a_review_made_on_one_phone_is_shown_on_another_at_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A review is kept in the game store: another session (another phone, a reload, a restarted server) opening
    the game's Review tab at the same budget is shown the same review with no button to press; another budget, or
    the game one entry on, is reviewed afresh."""
    game = recorded_game(turns=4)
    first, summary = reviewed(monkeypatch, tmp_path, game)
    (stored,) = GameStore(tmp_path / "games.sqlite3").list()

    def review_tab() -> AppTest:
        at = AppTest.from_file(APP, default_timeout=TIMEOUT)
        at.query_params["game"] = stored.id
        at.run()
        at.session_state["tab"] = "Review"
        at.run()
        at.select_slider(key="review_rollouts").set_value(50).run()
        assert not at.exception and not at.error, ([e.value for e in at.exception], [e.value for e in at.error])
        return at

    other = review_tab()
    assert not [b for b in other.button if b.key == "review_run"]
    (shown,) = [df.value for df in other.dataframe if "Dice share" in df.value.columns]
    pd.testing.assert_frame_equal(shown, summary)
    shown_turns = [df.value for df in other.dataframe if "Decisions" in df.value.columns]
    first_turns = [df.value for df in first.dataframe if "Decisions" in df.value.columns]
    assert len(shown_turns) == len(first_turns) > 0
    for a, b in zip(shown_turns, first_turns):
        pd.testing.assert_frame_equal(a, b)
    # Its caption says it was made earlier; the phone that made it says nothing of the kind.
    said = "made earlier, kept in the game store"
    assert any(said in c.value for c in other.caption) and not any(said in c.value for c in first.caption)
    other.select_slider(key="review_rollouts").set_value(100).run()
    assert [b for b in other.button if b.key == "review_run"]


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
    cut = evaluator.chances(live.state, "truncated", seed=0)
    shown = [m for m in at.metric if m.label in ("Player 1", "Player 2", "Player 3")]
    assert [m.value for m in shown] == [f"{100 * p:.0f}%" for p in cut.p]
    captions = " ".join(re.sub(r"\\(.)", r"\1", c.value) for c in at.caption)  # as read: the app escapes Markdown
    said = f"{evaluator.CUT_ROLLOUTS} rollouts of the strategist (the default bot) in every seat, each cut {evaluator.CUT_ROUNDS} rounds on"
    assert said in captions
    # The chart of the turns so far names its method and bot too: the strip's, whatever the strip shows later.
    assert (
        f"Each player's chance at the start of each turn, by {said} and valued there by the learned model." in captions
    )
    # A tap counts rollouts of the position now, and the strip shows them instead.
    at.button(key="strip_count").click().run(timeout=600)
    assert not at.exception, [e.value for e in at.exception]
    counted = evaluator.chances(live.state, "rollouts", rollouts=evaluator.ROLLOUTS)
    shown = [m for m in at.metric if m.label in ("Player 1", "Player 2", "Player 3")]
    assert [m.value for m in shown] == [f"{100 * p:.0f}%" for p in counted.p]
    captions = " ".join(re.sub(r"\\(.)", r"\1", c.value) for c in at.caption)
    assert f"{evaluator.ROLLOUTS} rollouts of the strategist (the default bot)" in captions
    assert f"Each player's chance at the start of each turn, by {said}" in captions


def test_the_strip_calls_players_by_name_and_turns_as_the_table_does(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Ann's turn 1 took Kamchatka and left her card face down; Bo's turn 1 placed and passed: Cy's turn 1 is next.
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv(DB_ENV, str(db))
    live = LiveGame(captured_then_ended(me=None))
    live.place({live.state.territories_of(1)[0]: live.state.pending})
    live.end_turn()
    stored = GameStore(db).create(live.state, "Named")
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["game"] = stored.id
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (said,) = [c.value for c in at.caption if c.value.startswith("Now")]
    assert said.startswith(
        plain(f"Now, Cy's turn 1. Win chances by {evaluator.CUT_ROLLOUTS} rollouts of the strategist (the default bot)")
    )
    assert plain("Face-down cards (Ann 1)") in said
    assert [m.label for m in at.metric] == ["Ann", "Bo", "Cy"]


def test_a_game_file_reviewed_in_the_view_keeps_its_players_names(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv(DB_ENV, str(db))
    stored = GameStore(db).create(recorded_game(), "Open game")
    other = recorded_game(turns=2, seed=4)
    other.labels["names"] = ["Di", "Ed", "Flo"]
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["game"] = stored.id
    at.run()
    at.session_state["tab"] = "Review"
    at.run()
    # The uploader says the saved games' own size limit, as the start page's does, not Streamlit's 200 MB.
    assert at.file_uploader(key="review_upload").proto.max_upload_size_mb << 20 == MAX_JSON_BYTES
    at.file_uploader(key="review_upload").set_value(("other.json", other.to_json().encode(), "application/json")).run()
    at.select_slider(key="review_rollouts").set_value(50).run()
    at.button(key="review_run").click().run()
    assert not at.exception and not at.error, ([e.value for e in at.exception], [e.value for e in at.error])
    (summary,) = [df.value for df in at.dataframe if "Dice share" in df.value.columns]
    assert summary["Player"].tolist() == ["Di", "Ed", "Flo"]


def test_the_strip_says_who_is_out_rather_than_a_chance_of_zero(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Cy's last territory, Kamchatka, falls to Ann's Alaska: the strip shows Cy out, and who took Cy out.
    board = BOARD_OF_TESTS
    owner, armies = [0] * 42, [3] * 42
    for t in range(21, 41):
        owner[t] = 1
    kamchatka, alaska = board.index("Kamchatka"), board.index("Alaska")
    owner[kamchatka], armies[kamchatka], armies[alaska] = 2, 1, 12
    position = GameState.from_position(owner, armies, n_players=3, player=0)
    position.labels["names"] = ["Ann", "Bo", "Cy"]
    live = LiveGame(position, seed=2)
    live.place({alaska: live.state.pending})
    live.battle(alaska, kamchatka, live.state.armies[alaska], 0)
    assert not live.state.alive[2] and live.state.winner is None
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv(DB_ENV, str(db))
    stored = GameStore(db).create(live.state, "One out")
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["game"] = stored.id
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    shown = {m.label: m.value for m in at.metric}
    assert shown["Cy"] == "out" and "taken out by Ann" in [c.value for c in at.caption]
    # The two players left share the chances, as the evaluator gives them.
    cut = evaluator.chances(live.state, "truncated", seed=0)
    assert [shown["Ann"], shown["Bo"]] == [f"{100 * p:.0f}%" for p in cut.p[:2]] and cut.p[2] == 0
