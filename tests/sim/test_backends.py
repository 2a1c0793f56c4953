"""Local worker processes: they stop playing a run's tasks once its reader stops reading, and hold none of the
sockets of the process that forked them."""

from __future__ import annotations

import contextlib
import os
import socket
import time
from pathlib import Path

from analyzer.sim.backends import local_pool, run_tasks

#: How long each task after the first takes: long enough that no second task finishes before the reader stops.
SLOW = 3.0


def _note(folder: Path, item: int) -> int:
    if item:
        time.sleep(SLOW)
    (folder / f"{item}.done").touch()
    return item


def test_tasks_not_started_are_dropped_when_the_reader_stops(tmp_path: Path) -> None:
    items = list(range(40))
    with contextlib.closing(run_tasks(_note, tmp_path, items, workers=2)) as results:
        first, _ = next(results)
    # Only the tasks already handed to a worker or its queue when the reading stopped were played (the first, at
    # most two running and three queued), not the 40 of a run played for no one. How many of them the pool had
    # handed out by then depends on its own thread's timing: on a loaded machine, none but the first.
    played = sorted(int(p.stem) for p in tmp_path.glob("*.done"))
    assert first == 0
    assert played[0] == 0 and len(played) <= 6, played


def test_a_connection_the_parent_closes_is_closed_for_its_client_while_workers_live() -> None:
    # A server forks workers while a client's connection is open, then closes it: the client must see it closed
    # (else a browser sends its next request on it, and waits for the workers to end before trying another).
    with socket.create_server(("127.0.0.1", 0)) as server:
        client = socket.create_connection(server.getsockname())
        accepted, _ = server.accept()
        with client, local_pool(1) as pool:
            pool.submit(os.getpid).result()  # the worker is forked now, with the connection open
            accepted.close()
            client.settimeout(30)  # what the client would wait for, were the worker holding the connection
            assert client.recv(1) == b""
