"""Claims on the game store's cache made at once, as several servers make them."""

from __future__ import annotations

import threading
from collections.abc import Callable

from analyzer.store import GameStore


def claimed_by_one(store_of: Callable[[], GameStore], claimers: int = 8) -> None:
    """``claimers`` threads, each with its own store (as servers are), claim one key at once: exactly one gets it."""
    start = threading.Barrier(claimers)
    got: list[bool] = []

    def claim(k: int) -> None:
        store = store_of()
        start.wait()
        got.append(store.claim_cached("review-progress", "race", f"claimer {k}", older_than=60))

    threads = [threading.Thread(target=claim, args=(k,)) for k in range(claimers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got) == [False] * (claimers - 1) + [True]
