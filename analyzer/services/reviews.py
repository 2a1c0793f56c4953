"""A game's review kept in the game store: made once, shown at once to every phone of the game, after a reload and
after the server restarts.

A review of 100 player-turns plays its rollouts for most of a minute on two cores. It is kept under a key made of
the game as reviewed (its whole record, its players' names included), the rollouts and the seed, this version of
the package and the shipped model: the same review asked for again is the same figures, read in milliseconds, and
a game changed by one entry, another budget or another model is reviewed afresh.

>>> import numpy as np
>>> from analyzer.game.state import GameState
>>> game = GameState.random_start(3, np.random.default_rng(1))
>>> review_key(game, 900) == review_key(game.copy(), 900), review_key(game, 900) == review_key(game, 600)
(True, False)
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from analyzer import __version__
from analyzer.analysis.review import REVIEW_FORMAT, GameReview
from analyzer.errors import ReviewError
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
