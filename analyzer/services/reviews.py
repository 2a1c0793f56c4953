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

A review is claimed in the store before it is made (one statement: of two app processes asking at once, one makes
it), and says its progress there every few seconds (:data:`PROGRESS_KIND`): a page served by another app process
behind the same address (a club's server) follows that review (:func:`being_made_anywhere`) rather than make it
again, and makes it only if the store hears no more of it for :data:`FRESH_SECONDS` (the process making it
stopped).

>>> import numpy as np
>>> from analyzer.game.state import GameState
>>> game = GameState.random_start(3, np.random.default_rng(1))
>>> review_key(game, 900) == review_key(game.copy(), 900), review_key(game, 900) == review_key(game, 600)
(True, False)
"""

from __future__ import annotations

import hashlib
import json
import queue
import threading
import time
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
#: The kind of the store's cached results that say how far a review being made is, by the review's key.
PROGRESS_KIND = "review-progress"
#: How often a review being made says how far it is in the store, in seconds.
PROGRESS_SECONDS = 2.0
#: A review whose progress the store has not heard of for this long is no longer being made (its process stopped):
#: a page that asks for it makes it. Several times :data:`PROGRESS_SECONDS`, for a store slow to answer.
FRESH_SECONDS = 15.0
#: How often a review made by another process is looked for in the store while it is being made, in seconds.
FOLLOW_SECONDS = 1.0


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
    kept (by another app process) rather than made here, ``elsewhere`` that another app process is making it, and
    ``not_kept`` is the store's error if the review made could not be kept (it is shown all the same)."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.future: Future[GameReview] = Future()
        self.done = 0
        self.total = 0
        self.read_back = False
        self.not_kept: StoreError | None = None
        #: Whether another app process is making the review, which this one follows.
        self.elsewhere = False

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


def being_made_anywhere(
    store: Callable[[], GameStore], game: GameState, rollouts: int, *, workers: int = 1
) -> Reviewing | None:
    """:func:`being_made`, or, if another app process is making that review (the store heard of it within
    :data:`FRESH_SECONDS`), this process's job that follows it, which makes it on ``workers`` processes only if
    that process stops."""
    job = being_made(game, rollouts)
    if job is None and _progress_elsewhere(store, review_key(game, rollouts)) is not None:
        job = review_in_background(store, game, rollouts, workers=workers)
    return job


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
            while review is None and not _claimed(store, job):
                review = _followed(store, game, rollouts, job)  # None: that process stopped; claimed again
            job.read_back = review is not None
            if review is None:
                told = _Told(store, job)
                try:
                    review = review_game(game, rollouts=rollouts, workers=workers, on_progress=told)
                    try:
                        keep_review(store(), game, review)
                    except StoreError as exc:
                        job.not_kept = exc
                finally:
                    told.ended()  # after the review is kept: a page following it then finds it
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


def _progress_text(done: int, total: int) -> str:
    return json.dumps({"done": done, "total": total, "at": time.time()})


def _claimed(store: Callable[[], GameStore], job: Reviewing) -> bool:
    """Whether this process may make the review of ``job``: it said so in the store first (no other process has
    said it is making it within :data:`FRESH_SECONDS`), or the store cannot say (then it is made here all the same)."""
    try:
        return store().claim_cached(PROGRESS_KIND, job.key, _progress_text(0, 0), older_than=FRESH_SECONDS)
    except StoreError:
        return True


class _Told:
    """The progress of a review made here (after :func:`_claimed`): the job's count as its tasks end, and the store's
    every :data:`PROGRESS_SECONDS` from a thread of its own, however long a task takes (the first ones wait for the
    compiled code, built afresh on a new install), for the pages of other app processes (:func:`being_made_anywhere`).
    """

    def __init__(self, store: Callable[[], GameStore], job: Reviewing) -> None:
        self.store, self.job = store, job
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._say, name="review-progress", daemon=True)
        self._thread.start()

    def __call__(self, done: int, total: int) -> None:
        self.job.progressed(done, total)

    def _say(self) -> None:
        while not self._stop.wait(PROGRESS_SECONDS):
            try:
                self.store().put_cached(PROGRESS_KIND, self.job.key, _progress_text(self.job.done, self.job.total))
            except StoreError:
                pass  # the review goes on; another process's page may make it too

    def ended(self) -> None:
        self._stop.set()
        self._thread.join()
        try:
            self.store().drop_cached(PROGRESS_KIND, self.job.key)
        except StoreError:
            pass  # heard of no more, it is taken as stopped after FRESH_SECONDS


def _progress_elsewhere(store: Callable[[], GameStore], key: str) -> tuple[int, int] | None:
    """(done, total) of the review ``key`` being made by another app process, as the store last heard; None if none
    is (never heard of, ended, or not heard of for :data:`FRESH_SECONDS`)."""
    try:
        text = store().get_cached(PROGRESS_KIND, key)
        said = json.loads(text) if text is not None else None
        if not isinstance(said, dict) or time.time() - float(said["at"]) > FRESH_SECONDS:
            return None
        return int(said["done"]), int(said["total"])
    except (StoreError, ValueError, TypeError, KeyError):
        return None  # nothing to follow, as far as can be known: made here


def _followed(store: Callable[[], GameStore], game: GameState, rollouts: int, job: Reviewing) -> GameReview | None:
    """The review another app process has claimed, once it keeps it; None if that process stopped without keeping
    it."""
    while (progress := _progress_elsewhere(store, job.key)) is not None:
        job.elsewhere = True
        job.progressed(*progress)
        time.sleep(FOLLOW_SECONDS)
        if (review := _kept_or_none(store, game, rollouts)) is not None:
            return review
    job.elsewhere = False
    return _kept_or_none(store, game, rollouts)  # kept as it ended
