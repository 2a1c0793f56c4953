"""A review kept in the game store comes back as it was made, under the game, budget and seed it was made for only;
a kept text the store holds damaged is made afresh, never shown half read."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from support.postgres import postgres_server, postgres_url  # noqa: F401 - fixtures

from analyzer.analysis.review import GameReview, replay_turn, review_game
from analyzer.errors import ReviewError
from analyzer.game.state import GameState
from analyzer.services.reviews import KIND, keep_review, kept_review, review_key
from analyzer.store import GameStore


def recorded(turns: int, seed: int = 6) -> GameState:
    rng = np.random.default_rng(seed)
    game = GameState.random_start(4, rng)
    for _ in range(turns):
        replay_turn(game, (), rng)
    return game


@pytest.fixture(scope="module")
def made() -> tuple[GameState, GameReview]:
    # Three player-turns of four players: the fourth seat has no turn, its summary's mistake and share missing.
    game = recorded(3)
    return game, review_game(game, rollouts=20, turning_points=1)


def test_a_kept_review_comes_back_as_it_was_made(tmp_path: Path, made: tuple[GameState, GameReview]) -> None:
    same_review_again(GameStore(tmp_path / "games.sqlite3"), GameStore(tmp_path / "games.sqlite3"), *made)


@pytest.mark.xdist_group("postgres")
def test_a_kept_review_comes_back_from_postgresql(postgres_url: str, made: tuple[GameState, GameReview]) -> None:
    same_review_again(GameStore(postgres_url), GameStore(postgres_url), *made)


def same_review_again(store: GameStore, other: GameStore, game: GameState, review: GameReview) -> None:
    """``review`` of ``game`` kept in ``store`` comes back from ``other`` (the same database, opened afresh)."""
    assert review.summary["mistake_turn"].isna().sum() == 1
    assert kept_review(store, game, 20) is None
    keep_review(store, game, review)
    again = kept_review(other, game, 20)
    assert again is not None
    for name in ("turns", "chances", "summary"):
        # Figures kept to 15 significant digits, the most JSON tables hold: the same to every digit shown.
        pd.testing.assert_frame_equal(getattr(again, name), getattr(review, name), check_exact=False, rtol=1e-13)
    assert (again.players, again.rollouts, again.seed, again.assumed, again.played) == (
        review.players,
        review.rollouts,
        review.seed,
        review.assumed,
        review.played,
    )


def test_a_review_is_kept_for_its_own_game_budget_and_seed_only(
    tmp_path: Path, made: tuple[GameState, GameReview]
) -> None:
    game, review = made
    store = GameStore(tmp_path / "games.sqlite3")
    keep_review(store, game, review)
    later = game.copy()
    replay_turn(later, (), np.random.default_rng(1))
    renamed = game.copy()
    renamed.labels["names"] = ["Ann", "Bo", "Cy", "Di"]
    assert kept_review(store, later, 20) is None
    assert kept_review(store, renamed, 20) is None  # the review names the players
    assert kept_review(store, game, 50) is None
    assert kept_review(store, game, 20, seed=1) is None
    assert kept_review(store, game, 20) is not None


@pytest.mark.parametrize("text", ['{"format": "risk-analyzer/review 1"}', "[1, 2", '{"format": "other"}'])
def test_a_damaged_kept_review_is_made_again(tmp_path: Path, made: tuple[GameState, GameReview], text: str) -> None:
    game, _ = made
    store = GameStore(tmp_path / "games.sqlite3")
    store.put_cached(KIND, review_key(game, 20), text)
    assert kept_review(store, game, 20) is None
    with pytest.raises(ReviewError, match="kept review"):
        GameReview.from_text(text)
