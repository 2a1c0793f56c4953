"""Reference counts a benchmark keeps in a file between runs, so a run plays only what the file lacks."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def kept(path: Path | None) -> dict[str, np.ndarray]:
    """The arrays of the ``.npz`` at ``path`` by name: none when there is no path or no file. Read without pickles:
    the file holds plain arrays only."""
    return dict(np.load(path, allow_pickle=False)) if path is not None and path.exists() else {}


def keep(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write ``arrays`` to the ``.npz`` at ``path``, compressed."""
    np.savez_compressed(path, **arrays)
