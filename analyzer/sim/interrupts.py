"""Ctrl-C during a long run, taken between its batches.

Python raises :class:`KeyboardInterrupt` where the main thread happens to be when SIGINT arrives. Inside a
compiled game loop that is a callback of the kernel, whose dispatcher then fails with a ``SystemError``
("returned a result with an exception set") instead of stopping cleanly; inside a finaliser the exception is
printed and dropped, and the run goes on to its end as if never interrupted. A run notes the signal instead,
and raises :class:`KeyboardInterrupt` itself where its loop stands between two batches: every batch
finished is checkpointed, none is half-written, and Ctrl-C is never lost.

>>> import os, signal
>>> with between_batches() as check:
...     os.kill(os.getpid(), signal.SIGINT)  # noted, not raised here
...     try:
...         check()
...     except KeyboardInterrupt:
...         print("stopped between batches")
stopped between batches
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def between_batches() -> Iterator[Callable[[], None]]:
    """While the block runs, SIGINT is noted, not raised; the block's ``check()`` raises
    :class:`KeyboardInterrupt` once one was noted. Off the main thread (a server's script thread), where no
    handler may be set and none is called, ``check()`` does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield lambda: None
        return
    noted: list[int] = []

    def note(signum: int, frame: object) -> None:
        noted.append(signum)

    def check() -> None:
        if noted:
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, note)
    try:
        yield check
    finally:
        signal.signal(signal.SIGINT, previous)
