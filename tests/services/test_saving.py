"""Saving a game against the version it was made on: kept as the next version, refused when another device saved
first (with the game as stored then), or kept in the page when the store cannot take it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from analyzer.errors import RiskAnalyzerError
from analyzer.game.state import GameState
from analyzer.services.saving import KEPT_IN_PAGE, POLL_ENV, poll_seconds, save
from analyzer.store import GameStore


def test_entries_made_on_one_version_are_kept_once(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    dealt = GameState.random_start(3, np.random.default_rng(4))
    game = GameState.from_position(dealt.owner, dealt.armies, n_players=3)
    created = save(store, game, game_id=None, version=None, name="Friday")
    assert created.kept and created.stored is not None and created.stored.version == 1
    game_id = created.stored.id

    # Two phones show version 1; the first entry saved is kept as version 2 ...
    mine = GameState.from_position(game.owner, game.armies + np.eye(42, dtype=int)[0], n_players=3)
    theirs = GameState.from_position(game.owner, game.armies + np.eye(42, dtype=int)[1], n_players=3)
    first = save(store, mine, game_id=game_id, version=1, name="Friday")
    assert first.kept and first.stored is not None and first.stored.version == 2
    # ... and the second is refused, with the game as the first one left it, to show instead.
    second = save(store, theirs, game_id=game_id, version=1, name="Friday")
    assert not second.kept and second.refused and second.problem is None
    assert second.stored is not None and second.stored.version == 2
    assert second.stored.state.armies[0] == game.armies[0] + 1 and second.stored.state.armies[1] == game.armies[1]
    assert store.load(game_id).version == 2

    # Made again on version 2, it is kept.
    assert save(store, theirs, game_id=game_id, version=2, name="Friday").stored.version == 3  # type: ignore[union-attr]


def test_a_store_that_cannot_take_the_game_leaves_it_in_the_page(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    game = GameState.random_start(2, np.random.default_rng(5))
    saved = save(store, game, game_id="0" * 32, version=1, name="Friday")
    assert saved.kept and saved.stored is None and saved.refused is None
    assert saved.problem is not None and saved.problem.endswith(KEPT_IN_PAGE)
    assert store.list() == []


def test_the_seconds_between_looks_at_the_store_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(POLL_ENV, raising=False)
    assert poll_seconds() == 2.0
    monkeypatch.setenv(POLL_ENV, " 0.5 ")
    assert poll_seconds() == 0.5
    for bad in ("0", "-1", "nan", "inf", "soon"):
        monkeypatch.setenv(POLL_ENV, bad)
        with pytest.raises(RiskAnalyzerError, match=POLL_ENV):
            poll_seconds()
