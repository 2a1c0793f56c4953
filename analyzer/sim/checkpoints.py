"""Checkpoints of a simulation run, and the worker processes' tie to their parent.

A checkpoint is a directory: ``run.json`` (the run's parameters) and, per
finished batch, ``batch-NNNNNN.TABLE.parquet`` files made visible by a
``batch-NNNNNN.done`` marker. Every file is written whole (write, fsync,
rename, fsync of the directory), so a crash leaves either the old file or the
new one. A file that is damaged anyway (a disk fault, a copy cut short) is
named in a :class:`CheckpointWarning`, set aside as ``NAME.damaged`` and its
games are played again; it never stops the rerun.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import warnings
from pathlib import Path
from typing import Any

import pandas as pd

from analyzer.errors import SimulationError
from analyzer.extras import require
from analyzer.limits import quote

#: The tables a batch writes, in order.
TABLES = ("games", "seats", "eliminations", "trades", "starts", "turns")


class CheckpointWarning(UserWarning):
    """A checkpoint file was damaged: it was set aside and its games are played again."""


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a crash leaves the old file or the new one, never a part."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    # The rename is durable only once the directory entry is on disk too.
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def set_aside(path: Path, reason: str) -> Path:
    """Rename a damaged ``path`` to ``path.damaged`` (or ``.damaged-2``, ...) and warn, naming both."""
    target = path.with_name(path.name + ".damaged")
    k = 1
    while target.exists():
        k += 1
        target = path.with_name(f"{path.name}.damaged-{k}")
    os.replace(path, target)
    warnings.warn(
        f"checkpoint file {path} is damaged ({reason}); set aside as {target.name}, its games are played again",
        CheckpointWarning,
        stacklevel=3,
    )
    return target


class Checkpoint:
    """A directory of finished batches (see the module docstring).

    A rerun with the same parameters finds the finished batches by their
    markers alone and plays only the others; it reads their tables when it
    needs them (:meth:`load`), after the new games. A rerun with different
    parameters is refused (:class:`SimulationError`) rather than mixing two
    runs' games.
    """

    def __init__(self, directory: str | Path, params: dict[str, Any]) -> None:
        require("pyarrow")  # the batches are Parquet files: say so before the run starts
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        meta = self.dir / "run.json"
        recorded = self._recorded(meta)
        if recorded is None:
            atomic_write(meta, json.dumps(params, indent=1).encode())
        elif recorded != params:
            changed = sorted(k for k in params.keys() | recorded.keys() if params.get(k) != recorded.get(k))
            raise SimulationError(
                f"checkpoint {self.dir} belongs to a run with different {', '.join(changed)}; "
                "rerun with the same options to resume, or delete it (or choose another --out) to start afresh"
            )

    def _recorded(self, meta: Path) -> dict[str, Any] | None:
        """The recorded parameters, or None for a new checkpoint; a damaged run.json voids its batches."""
        if not meta.exists():
            return None
        try:
            recorded = json.loads(meta.read_bytes())
            if not isinstance(recorded, dict):
                raise ValueError("not a JSON object")
            return recorded
        except (ValueError, UnicodeDecodeError) as exc:
            set_aside(meta, quote(str(exc)))
            # Without the parameters nothing says whose games the batches hold.
            for marker in self.dir.glob("batch-*.done"):
                set_aside(marker, "its run.json was damaged")
            return None

    def _path(self, batch: int, suffix: str) -> Path:
        return self.dir / f"batch-{batch:06d}.{suffix}"

    def finished(self) -> set[int]:
        """The batches whose marker is written (their tables are not read here)."""
        out = set()
        for p in self.dir.glob("batch-*.done"):
            try:
                out.add(int(p.name.split(".")[0].split("-")[1]))
            except (IndexError, ValueError):
                continue  # not one of ours
        return out

    def save(self, batch: int, frames: dict[str, pd.DataFrame]) -> None:
        for name, frame in frames.items():
            path = self._path(batch, f"{name}.parquet")
            tmp = path.with_name(path.name + ".tmp")
            frame.to_parquet(tmp, index=False)
            with open(tmp, "rb+") as f:
                os.fsync(f.fileno())
            os.replace(tmp, path)
        _fsync_dir(self.dir)
        atomic_write(self._path(batch, "done"), b"")

    def load(self, batch: int) -> dict[str, pd.DataFrame] | None:
        """A finished batch's tables, or None (after setting its files aside) if any is damaged."""
        require("pyarrow")  # before a missing reader could make sound batches look damaged
        frames = {}
        for name in TABLES:
            path = self._path(batch, f"{name}.parquet")
            try:
                frames[name] = pd.read_parquet(path)
            except Exception as exc:  # pyarrow raises its own ArrowInvalid, OSError, ... for a cut file
                for p in [*(self._path(batch, f"{t}.parquet") for t in TABLES), self._path(batch, "done")]:
                    if p.exists():
                        set_aside(
                            p, f"{type(exc).__name__}: {quote(str(exc))}" if p == path else f"{path.name} is damaged"
                        )
                return None
        return frames

    def remove(self) -> None:
        for p in self.dir.iterdir():
            p.unlink()
        self.dir.rmdir()


# ---------------------------------------------------------------------------------- workers
_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Worker initializer: end this process when ``parent`` dies, even by SIGKILL (Linux's PR_SET_PDEATHSIG).

    Elsewhere the pool's own shutdown is all there is.
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)
