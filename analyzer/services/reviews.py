"""A game's review kept in the game store: made once, shown at once to every phone of the game, after a reload and
after the server restarts.

A review of 100 player-turns plays its rollouts for most of a minute on two cores. It is kept under a key made of
the game as reviewed (its whole record, its players' names included), the rollouts and the seed, this version of
the package and the shipped model: the same review asked for again is the same figures, read in milliseconds, and
a game changed by one entry, another budget or another model is reviewed afresh.

A review asked for is made in this process, apart from the page that asked (:func:`review_in_background`): a
reload, a phone that locks its screen or a page closed mid-review leaves it going, and every page that asks for the
same review meanwhile (another phone of the game, the same phone reloaded) waits for that one, not a second. Each
review uses every core the server gives it, so the process makes one at a time and the others wait their turn.

>>> import numpy as np
>>> from analyzer.game.state import GameState
>>> game = GameState.random_start(3, np.random.default_rng(1))
>>> review_key(game, 900) == review_key(game.copy(), 900), review_key(game, 900) == review_key(game, 600)
(True, False)
"""

from __future__ import annotations

import hashlib
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from functools import lru_cache, partial

from analyzer import __version__
from analyzer.analysis.review import REVIEW_FORMAT, GameReview, review_game
from analyzer.errors import ReviewError, StoreError
from analyzer.game.state import GameState
from analyzer.store import GameStore
from analyzer.value.model import SHIPPED

#: The kind of the store's cached results that reviews are kept as.
KIND = "review"
#: Reviews kept, the last made: a review of 100 player-turns is about 115 kB of text (1.1 kB a turn), so a store
#: keeps up to about 60 MB of them, the reviews of the games a club has played lately.
KEPT = 500


@lru_cache(maxsize=1)
def _model_stamp() -> str:
    """The shipped model file's hash ("none" without one): a review's figures rest on it."""
    try:
        return hashlib.sha256(SHIPPED.read_bytes()).hexdigest()
    except OSError:
        return "none"


def review_key(game: GameState, rollouts: int, seed: int = 0) -> str:
    """The key a review of ``game`` at ``rollouts`` per estimate on ``seed`` is kept under."""
    digest = hashlib.sha256()
    for part in (REVIEW_FORMAT, __version__, _model_stamp(), str(int(rollouts)), str(int(seed)), game.to_json()):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()


def kept_review(store: GameStore, game: GameState, rollouts: int, seed: int = 0) -> GameReview | None:
    """The review of ``game`` kept in ``store`` at that budget and seed, or None (none kept, or one the store holds
    damaged, which is then made afresh). A store that fails raises its :class:`~analyzer.errors.StoreError`."""
    text = store.get_cached(KIND, review_key(game, rollouts, seed))
    if text is None:
        return None
    try:
        return GameReview.from_text(text)
    except ReviewError:
        return None


def keep_review(store: GameStore, game: GameState, review: GameReview) -> None:
    """Keep ``review``, made of ``game``, in ``store``, for :func:`kept_review`."""
    store.put_cached(KIND, review_key(game, review.rollouts, review.seed), review.to_text(), newest=KEPT)


class Reviewing:
    """A review being made by :func:`review_in_background`, for every page that asks for it: ``future`` holds the
    review (or what stopped it), ``done`` and ``total`` count its rollout tasks, ``read_back`` says it was found
    kept (by another app process) rather than made, and ``not_kept`` is the store's error if the review made could
    not be kept (it is shown all the same)."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.future: Future[GameReview] = Future()
        self.done = 0
        self.total = 0
        self.read_back = False
        self.not_kept: StoreError | None = None

    def progressed(self, done: int, total: int) -> None:
        self.done, self.total = done, total

    @property
    def waiting(self) -> bool:
        """Whether the review waits for another one to end before it starts."""
        return not (self.future.running() or self.future.done())


_making: dict[str, Reviewing] = {}
_lock = threading.Lock()
_asked: queue.SimpleQueue[tuple[Reviewing, Callable[[], GameStore], GameState, int, int]] = queue.SimpleQueue()
_maker: list[threading.Thread] = []


def being_made(game: GameState, rollouts: int) -> Reviewing | None:
    """The review of ``game`` at ``rollouts`` that this process is making or has lined up, if any."""
    with _lock:
        return _making.get(review_key(game, rollouts))


def review_in_background(
    store: Callable[[], GameStore], game: GameState, rollouts: int, *, workers: int = 1
) -> Reviewing:
    """The review of ``game`` at ``rollouts`` (seed 0), made on ``workers`` processes by this process's review
    thread after the reviews asked for before it, and kept in ``store()``; the one already being made if it was
    asked for before. A review kept meanwhile (by another app process) is read, not made again."""
    key = review_key(game, rollouts)
    with _lock:
        job = _making.get(key)
        if job is None:
            job = _making[key] = Reviewing(key)
            _asked.put((job, store, game.copy(), int(rollouts), int(workers)))
            if not (_maker and _maker[0].is_alive()):
                _maker[:] = [threading.Thread(target=_make_reviews, name="reviews", daemon=True)]
                _maker[0].start()
    return job


def _make_reviews() -> None:
    while True:
        job, store, game, rollouts, workers = _asked.get()
        job.future.set_running_or_notify_cancel()
        finish: Callable[[], None]
        try:
            review = _kept_or_none(store, game, rollouts)
            job.read_back = review is not None
            if review is None:
                review = review_game(game, rollouts=rollouts, workers=workers, on_progress=job.progressed)
                try:
                    keep_review(store(), game, review)
                except StoreError as exc:
                    job.not_kept = exc
            finish = partial(job.future.set_result, review)
        except BaseException as exc:  # whatever stopped it reaches the pages waiting for it, never lost here
            finish = partial(job.future.set_exception, exc)
        # Off the list before the pages waiting hear: one that asks again then finds it kept, or makes it afresh.
        with _lock:
            _making.pop(job.key, None)
        finish()


def _kept_or_none(store: Callable[[], GameStore], game: GameState, rollouts: int) -> GameReview | None:
    try:
        return kept_review(store(), game, rollouts)
    except StoreError:
        return None  # not kept, as far as can be known: made afresh
