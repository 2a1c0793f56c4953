"""Where a run's batches are played: in this process, in local processes, or on Dask.

Each backend yields ``(batch, tables)`` as batches finish, in any order; every batch is
:func:`analyzer.sim.records.run_batch`, so the tables are the same whichever backend plays them.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import types
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed

import pandas as pd

from analyzer.extras import require
from analyzer.sim.checkpoints import die_with_parent
from analyzer.sim.records import run_batch
from analyzer.sim.runs import RunSpec


def serial(spec: RunSpec, batches: list[int]) -> Iterator[tuple[int, dict[str, pd.DataFrame]]]:
    for b in batches:
        yield b, run_batch(spec, b)


def processes(spec: RunSpec, batches: list[int], workers: int) -> Iterator[tuple[int, dict[str, pd.DataFrame]]]:
    # fork: a spawned child would re-run `python -m analyzer`'s main module; fall back where there is no fork.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context(method),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    ) as pool:
        futures = {pool.submit(run_batch, spec, b): b for b in batches}
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
    each child. The workers need nothing from it (:func:`run_batch` is imported by its module), and the
    callers' mains cannot be re-run: a Streamlit script would run the whole app in each worker, and
    a test runner's or notebook's main fails on its own, killing the worker as it starts.
    """
    main = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = main


def on_dask(
    spec: RunSpec, batches: list[int], workers: int, scheduler: str | None
) -> Iterator[tuple[int, dict[str, pd.DataFrame]]]:
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
        spec_future = client.scatter(spec, broadcast=True)
        futures = {client.submit(run_batch, spec_future, b, pure=False): b for b in batches}
        for future in dask_completed(list(futures)):
            yield futures[future], future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
