"""A review kept in the game store comes back as it was made, under the game, budget and seed it was made for only;
a kept text the store holds damaged is made afresh, never shown half read. A review asked for is made once, apart
from the pages that asked, one at a time, and kept."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from support.postgres import postgres_server, postgres_url  # noqa: F401 - fixtures

from analyzer.analysis.review import GameReview, replay_turn, review_game
from analyzer.errors import ReviewError, StoreError
from analyzer.game.state import GameState
from analyzer.services import reviews
from analyzer.services.reviews import (
    KIND,
    being_made,
    being_made_anywhere,
    keep_review,
    kept_review,
    review_in_background,
    review_key,
)
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


# ---------------------------------------------------------------------------------- made in the background
#: Long enough for a review of three player-turns at 20 rollouts on a busy machine: a failure, not a wait.
WAIT = 120


class HeldReviews:
    """``review_game`` for the background reviews: returns ``review`` once let go, noting the games it was asked for."""

    def __init__(self, review: GameReview) -> None:
        self.review = review
        self.asked: list[str] = []
        self.go = threading.Event()

    def __call__(self, game: GameState, **_: object) -> GameReview:
        self.asked.append(game.to_json())
        assert self.go.wait(WAIT)
        return self.review


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch, made: tuple[GameState, GameReview]) -> Iterator[HeldReviews]:
    held = HeldReviews(made[1])
    monkeypatch.setattr(reviews, "review_game", held)
    try:
        yield held
    finally:
        held.go.set()  # a test that failed leaves no review waiting for ever


def test_a_review_asked_for_by_two_pages_is_made_once_and_kept(
    tmp_path: Path, made: tuple[GameState, GameReview], held: HeldReviews
) -> None:
    game, review = made
    store = GameStore(tmp_path / "games.sqlite3")
    first = review_in_background(lambda: store, game, 20)
    second = review_in_background(lambda: store, game.copy(), 20)  # another phone: the same game, read afresh
    assert second is first and being_made(game, 20) is first
    held.go.set()
    assert first.future.result(WAIT) is review
    assert held.asked == [game.to_json()]
    assert being_made(game, 20) is None and not first.read_back
    assert kept_review(store, game, 20) is not None  # for the pages that ask later, and after a restart


def test_the_server_makes_one_review_at_a_time(
    tmp_path: Path, made: tuple[GameState, GameReview], held: HeldReviews
) -> None:
    game, _ = made
    later = game.copy()
    replay_turn(later, (), np.random.default_rng(1))
    store = GameStore(tmp_path / "games.sqlite3")
    first = review_in_background(lambda: store, game, 20)
    second = review_in_background(lambda: store, later, 20)
    assert second is not first
    while not held.asked:  # the first is being made
        time.sleep(0.01)
    assert not first.waiting and second.waiting
    held.go.set()
    second.future.result(WAIT)
    assert held.asked == [game.to_json(), later.to_json()]


def test_a_review_kept_meanwhile_is_read_not_made(
    tmp_path: Path, made: tuple[GameState, GameReview], held: HeldReviews
) -> None:
    game, review = made
    store = GameStore(tmp_path / "games.sqlite3")
    keep_review(store, game, review)  # by another app process, after this one's page looked
    job = review_in_background(lambda: store, game, 20)
    pd.testing.assert_frame_equal(job.future.result(WAIT).turns, review.turns, check_exact=False, rtol=1e-13)
    assert job.read_back
    assert held.asked == []


def test_a_review_the_store_cannot_keep_is_shown_all_the_same(
    made: tuple[GameState, GameReview], held: HeldReviews
) -> None:
    game, review = made

    def gone() -> GameStore:
        raise StoreError("the database is not there")

    held.go.set()
    job = review_in_background(gone, game, 20)
    assert job.future.result(WAIT) is review
    assert str(job.not_kept) == "the database is not there"


def test_a_review_that_cannot_be_made_says_why_and_can_be_asked_again(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    game = recorded(0)  # no complete player-turn
    job = review_in_background(lambda: store, game, 20)
    with pytest.raises(ReviewError, match="no complete player-turn"):
        job.future.result(WAIT)
    assert being_made(game, 20) is None
    again = review_in_background(lambda: store, game, 20)
    assert again is not job
    with pytest.raises(ReviewError):
        again.future.result(WAIT)


# ---------------------------------------------------------------------------------- made by another app process
def told_elsewhere(store: GameStore, game: GameState, rollouts: int) -> reviews._Told:
    """What another app process making the review of ``game`` says of it in ``store`` (not in this process's list):
    it claims the review, then says its progress."""
    job = reviews.Reviewing(review_key(game, rollouts))
    assert reviews._claimed(lambda: store, job)
    return reviews._Told(lambda: store, job)


def stopped(told: reviews._Told) -> None:
    """The process saying ``told`` stops at once: nothing more said, nothing dropped."""
    told._stop.set()
    told._thread.join()


@pytest.fixture
def quick_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GameStore:
    """A store, with the review service's timings cut from seconds to tens of milliseconds: progress said every
    0.05 s, taken as stopped after 0.5 s, followed every 0.05 s."""
    monkeypatch.setattr(reviews, "PROGRESS_SECONDS", 0.05)
    monkeypatch.setattr(reviews, "FRESH_SECONDS", 0.5)
    monkeypatch.setattr(reviews, "FOLLOW_SECONDS", 0.05)
    return GameStore(tmp_path / "games.sqlite3")


def test_a_review_another_process_makes_is_followed_not_made_again(
    quick_store: GameStore, made: tuple[GameState, GameReview], held: HeldReviews
) -> None:
    game, review = made
    store = quick_store
    other = told_elsewhere(store, game, 20)
    other(5, 10)
    job = being_made_anywhere(lambda: store, game, 20)  # a page of this process opened meanwhile
    assert job is not None and being_made(game, 20) is job
    deadline = time.monotonic() + WAIT
    while not (job.elsewhere and (job.done, job.total) == (5, 10)) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert job.elsewhere and (job.done, job.total) == (5, 10) and not job.future.done()
    keep_review(store, game, review)  # the other process kept it
    other.ended()
    pd.testing.assert_frame_equal(job.future.result(WAIT).turns, review.turns, check_exact=False, rtol=1e-13)
    assert held.asked == []  # never made here


def test_a_review_whose_process_stopped_is_made_here(
    quick_store: GameStore, made: tuple[GameState, GameReview], held: HeldReviews
) -> None:
    game, review = made
    store = quick_store
    stopped(told_elsewhere(store, game, 20))  # heard of once: that process stopped
    job = being_made_anywhere(lambda: store, game, 20)
    assert job is not None
    while not held.asked:
        time.sleep(0.01)
    held.go.set()
    assert job.future.result(WAIT) is review and not job.elsewhere and not job.read_back
    assert held.asked == [game.to_json()]
    # Heard of too long ago: a page opened now offers to make it.
    later = game.copy()
    replay_turn(later, (), np.random.default_rng(1))
    stopped(told_elsewhere(store, later, 20))
    time.sleep(0.6)
    assert being_made_anywhere(lambda: store, later, 20) is None


def test_a_review_made_here_says_how_far_it_is_in_the_store(
    quick_store: GameStore, made: tuple[GameState, GameReview], held: HeldReviews
) -> None:
    game, review = made
    store = quick_store
    job = review_in_background(lambda: store, game, 20)
    while not held.asked:
        time.sleep(0.01)
    # Its first task takes long (held here), as when the compiled code is built afresh: still said to be made.
    time.sleep(1.0)
    assert reviews._progress_elsewhere(lambda: store, job.key) == (0, 0)
    # Claimed: another process asking now follows this one.
    assert not store.claim_cached(reviews.PROGRESS_KIND, job.key, "x", older_than=reviews.FRESH_SECONDS)
    held.go.set()
    assert job.future.result(WAIT) is review
    assert store.get_cached(reviews.PROGRESS_KIND, job.key) is None  # ended
    assert being_made_anywhere(lambda: store, game.copy(), 20) is None  # kept: nothing being made


OTHER_PROCESS = """
import pathlib, sys, time
from analyzer.analysis.review import review_game
from analyzer.game.state import GameState
from analyzer.services import reviews
from analyzer.store import GameStore

db, game_file, flag = sys.argv[1:4]
game = GameState.from_json(pathlib.Path(game_file).read_text())

def held(game, on_progress, **kw):
    on_progress(1, 10)
    while not pathlib.Path(flag).exists():  # until the test has seen the other process follow this one
        time.sleep(0.05)
    return review_game(game, turning_points=1, **kw)

reviews.review_game = held
reviews.PROGRESS_SECONDS = 0.05  # said in the store at once
review = reviews.review_in_background(lambda: GameStore(db), game, 20).future.result(300)
print(len(review.turns))
"""


def test_a_review_made_by_another_app_process_is_followed_there(
    tmp_path: Path, made: tuple[GameState, GameReview], held: HeldReviews
) -> None:
    # Two app processes on one store: the second's page follows the review the first makes, and makes none.
    game, _ = made
    db, game_file, flag = tmp_path / "games.sqlite3", tmp_path / "game.json", tmp_path / "go"
    game_file.write_text(game.to_json())
    store = GameStore(db)
    other = subprocess.Popen(
        [sys.executable, "-c", OTHER_PROCESS, str(db), str(game_file), str(flag)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + WAIT
        while store.get_cached(reviews.PROGRESS_KIND, review_key(game, 20)) is None and time.monotonic() < deadline:
            time.sleep(0.05)
        job = being_made_anywhere(lambda: store, game, 20)
        assert job is not None
        while not (job.elsewhere and job.total) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert job.elsewhere and (job.done, job.total) == (1, 10)
        flag.touch()
        review = job.future.result(WAIT)
        out, _ = other.communicate(timeout=WAIT)
    finally:
        other.kill()
    assert other.returncode == 0 and int(out) == len(review.turns) == 3
    assert job.read_back and held.asked == []
