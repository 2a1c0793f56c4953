"""Where a run's batches are played: in this process, in local processes, or on Dask.

:func:`run_tasks` yields ``(item, task(shared, item))`` as items finish, in any order: a run's batches
(:func:`analyzer.sim.records.run_batch`, so the tables are the same whichever backend plays them) or a
study's own. What a task returns depends on its item alone, never on where or in which order it ran.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import stat
import sys
import types
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

from analyzer.extras import require
from analyzer.sim.checkpoints import die_with_parent

Item = TypeVar("Item")
Out = TypeVar("Out")


def plays_here(items: Sequence[object], *, workers: int = 1, dask: bool = False, scheduler: str | None = None) -> bool:
    """Whether :func:`run_tasks` plays ``items`` in this process, one after another (so that a task may report
    as it goes: a closure need not be sent to a worker)."""
    return not (dask or scheduler is not None) and not (workers > 1 and len(items) > 1)


def run_tasks(
    task: Callable[[Any, Item], Out],
    shared: Any,
    items: Sequence[Item],
    *,
    workers: int = 1,
    dask: bool = False,
    scheduler: str | None = None,
) -> Generator[tuple[Item, Out]]:
    """``(item, task(shared, item))`` for each item, as they finish: in this process (``workers`` 1),
    in ``workers`` local processes, on a Dask LocalCluster of that many workers (``dask``) or on the
    Dask scheduler at ``scheduler``. ``task`` must be importable by its module (a worker unpickles it),
    unless :func:`plays_here`. Closed before its end, it drops the tasks of local processes not yet started."""
    if plays_here(items, workers=workers, dask=dask, scheduler=scheduler):
        return ((item, task(shared, item)) for item in items)
    if dask or scheduler is not None:
        return _on_dask(task, shared, items, workers, scheduler)
    return _processes(task, shared, items, workers)


def local_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` local processes, each ended when this one dies (:func:`die_with_parent`) and holding
    none of its sockets: every local pool of the package (a run's batches, a study's tasks, a review's rollouts) is
    made here."""
    # fork: a spawned child would re-run `python -m analyzer`'s main module; fall back where there is no fork.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context(method),
        initializer=_start_worker,
        initargs=(os.getpid(),),
    )


def _start_worker(parent: int) -> None:
    die_with_parent(parent)
    _drop_sockets()


def _drop_sockets() -> None:
    """Point every socket this process inherited at /dev/null (a forked worker's: the pool talks over pipes).

    A server's connections would otherwise stay open in the worker after the server closed them: a browser whose idle
    connection the app's server closed during a review (played on such workers) is not told, sends its next request
    on it (a reload, a second tab), and waits for the review to end before it tries another."""
    if not os.path.isdir("/dev/fd"):
        return
    null = os.open(os.devnull, os.O_RDWR)
    try:
        for name in os.listdir("/dev/fd"):
            fd = int(name)
            try:
                if fd != null and stat.S_ISSOCK(os.fstat(fd).st_mode):
                    # Not closed: a socket object of the parent's still names the number, and its close must not
                    # reach a file opened later under it.
                    os.dup2(null, fd)
            except OSError:
                continue  # the listing's own descriptor, closed since
    finally:
        os.close(null)


def _processes(
    task: Callable[[Any, Item], Out], shared: Any, items: Sequence[Item], workers: int
) -> Generator[tuple[Item, Out]]:
    with local_pool(workers) as pool:
        futures = {pool.submit(task, shared, item): item for item in items}
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            for future in futures:
                future.cancel()


@contextlib.contextmanager
def _blank_main() -> Iterator[None]:
    """A blank ``__main__`` while worker processes start.

    Dask's nanny starts its workers by "spawn", which re-runs the file of the caller's ``__main__`` in
    each child. The workers need nothing from it (:func:`~analyzer.sim.records.run_batch` is imported by its module), and the
    callers' mains cannot be re-run: a Streamlit script would run the whole app in each worker, and
    a test runner's or notebook's main fails on its own, killing the worker as it starts.
    """
    main = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = main


def _on_dask(
    task: Callable[[Any, Item], Out], shared: Any, items: Sequence[Item], workers: int, scheduler: str | None
) -> Generator[tuple[Item, Out]]:
    distributed = require("distributed")
    Client, LocalCluster, dask_completed = distributed.Client, distributed.LocalCluster, distributed.as_completed
    cluster = None
    if scheduler is None:
        with _blank_main():
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(scheduler)
    try:
        shared_future = client.scatter(shared, broadcast=True)
        futures = {client.submit(task, shared_future, item, pure=False): item for item in items}
        for future in dask_completed(list(futures)):
            yield futures[future], future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
