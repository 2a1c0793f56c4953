"""The win-chance model: a small network over :mod:`analyzer.value.features`, read with numpy alone.

The network scores each seat's row with the chance that this seat wins (a multi-layer perceptron:
standardised inputs, rectified hidden layers, a logistic output); a position's chances are the
seats' scores divided by their sum, so they add up to 1 and a seat out of the game has none. It
estimates the chance of each seat to win when the default bot plays every seat from the position on,
the same thing the rollouts count.

The file is a numpy ``.npz`` archive of plain arrays (read with ``allow_pickle=False``: nothing in it
is ever run) and a JSON text: its format, the map it was made for, its columns and its training card.

>>> import numpy as np
>>> from analyzer.game.state import GameState
>>> model = shipped()
>>> state = GameState.random_start(4, np.random.default_rng(3))
>>> p = model.chances(state)
>>> p.shape, round(float(p.sum()), 6)
((4,), 1.0)
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController

from analyzer.errors import ModelError
from analyzer.game.board import Board
from analyzer.game.engine.layout import N_PLAYERS
from analyzer.game.state import GameState
from analyzer.value.features import batch_rows, columns, rows_of


@lru_cache(maxsize=1)
def _threadpools() -> ThreadpoolController:
    """The process's BLAS libraries, looked up once (a few milliseconds)."""
    return ThreadpoolController()


#: The model files this code reads (written by :meth:`ValueModel.save`).
MODEL_FORMAT = "risk-analyzer win-chance model 1"
#: The model shipped in the package.
SHIPPED = Path(__file__).with_name("win_model.npz")


@dataclass(frozen=True)
class ValueModel:
    """A trained network: the map it reads, its columns, the inputs' standardisation, the layers'
    weights and biases, and its training card (what it was trained on and how well it did)."""

    board: str
    columns: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]
    card: dict[str, Any] = field(default_factory=dict)

    def with_card(self, card: dict[str, Any]) -> ValueModel:
        return replace(self, card=card)

    # ------------------------------------------------------------------ scoring
    def seat_scores(self, rows: np.ndarray) -> np.ndarray:
        """Each row's own score: the network's chance that its seat wins, before the position's sum."""
        x = (np.asarray(rows, dtype=np.float32) - self.mean) / self.scale
        # On one BLAS thread: the evaluator's products (a few hundred rows) gain little from a second, whose
        # spinning after each product took a whole core (a 6-player position's truncated rollouts: 17 ms of
        # CPU over 8.4 of wall clock; on one thread 8.3 over 8.3; 384 rows alone, 115 µs against 96 of wall
        # clock and 190 of CPU), the one the review's other worker or another table's game needs.
        with _threadpools().limit(limits=1, user_api="blas"):
            for w, b in zip(self.weights[:-1], self.biases[:-1]):
                x = np.maximum(x @ w + b, 0.0)
            z = (x @ self.weights[-1] + self.biases[-1])[:, 0]
        return 1.0 / (1.0 + np.exp(-z))

    def predict_rows(self, rows: np.ndarray, position: np.ndarray) -> np.ndarray:
        """Each row's chance, its score over the sum of its position's scores (``position`` numbers the
        rows' positions; a position's rows are consecutive)."""
        scores = self.seat_scores(rows).astype(np.float64)
        starts = np.flatnonzero(np.r_[True, position[1:] != position[:-1]])
        sums = np.add.reduceat(scores, starts)
        counts = np.diff(np.r_[starts, len(position)])
        return scores / np.repeat(sums, counts)

    def check(self, board: Board) -> None:
        """Raise :class:`ModelError` unless the model reads positions on ``board``."""
        if board.name != self.board:
            raise ModelError(f"the win-chance model was made for the {self.board!r} map, not {board.name!r}")
        if tuple(columns(board)) != self.columns:
            raise ModelError("the win-chance model reads other columns than this version computes")

    def chances(self, state: GameState) -> np.ndarray:
        """Each seat's chance to win ``state`` (0 for a seat out of the game; they add up to 1). A game won
        is 1 for its winner: a fact, not an estimate."""
        self.check(state.board)
        out = np.zeros(state.n_players)
        if state.winner is not None:
            out[int(state.winner)] = 1.0
            return out
        rows, seats = rows_of(state)
        if len(seats):
            out[seats] = self.predict_rows(rows, np.zeros(len(seats), dtype=np.int64))
        return out

    def batch(self, states: np.ndarray, C: np.ndarray, board: Board) -> np.ndarray:
        """The chances of many positions at once: ``states`` is one state vector per row (one game
        size), ``C`` the board's and rules' constants; returns positions x seats."""
        self.check(board)
        rows, seats, position = batch_rows(states, C, len(self.columns))
        p = self.predict_rows(rows, position)
        out = np.zeros((states.shape[0], int(states[0, N_PLAYERS]) if len(states) else 0))
        out[position, seats] = p
        return out

    # ------------------------------------------------------------------ the file
    def save(self, path: str | Path) -> None:
        meta = {
            "format": MODEL_FORMAT,
            "board": self.board,
            "columns": list(self.columns),
            "card": self.card,
            "layers": len(self.weights),
        }
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta)), "mean": self.mean, "scale": self.scale}
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            arrays[f"w{i}"] = w
            arrays[f"b{i}"] = b
        with open(path, "wb") as fh:
            np.savez_compressed(fh, **arrays)

    @classmethod
    def load(cls, path: str | Path) -> ValueModel:
        """Read a model file; :class:`ModelError` in one line if it is missing, damaged or of another format."""
        path = Path(path)
        if not path.is_file():
            raise ModelError(f"no win-chance model at {path}")
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                if meta.get("format") != MODEL_FORMAT:
                    raise ModelError(f"{path.name} is not a {MODEL_FORMAT!r} file (format {meta.get('format')!r})")
                n = int(meta["layers"])
                weights = tuple(data[f"w{i}"].astype(np.float32) for i in range(n))
                biases = tuple(data[f"b{i}"].astype(np.float32) for i in range(n))
                model = cls(
                    str(meta["board"]),
                    tuple(meta["columns"]),
                    data["mean"].astype(np.float32),
                    data["scale"].astype(np.float32),
                    weights,
                    biases,
                    dict(meta.get("card", {})),
                )
        except ModelError:
            raise
        except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile, json.JSONDecodeError) as exc:
            raise ModelError(f"the win-chance model {path.name} is damaged ({type(exc).__name__}: {exc})") from None
        width = len(model.columns)
        shapes_ok = (
            model.mean.shape == (width,)
            and model.scale.shape == (width,)
            and bool(np.all(model.scale > 0))
            and model.weights[0].shape[0] == width
            and model.weights[-1].shape[1] == 1
            and all(w.shape[1] == b.shape[0] for w, b in zip(model.weights, model.biases))
            and all(a.shape[1] == b.shape[0] for a, b in zip(model.weights[:-1], model.weights[1:]))
            and all(np.isfinite(w).all() for w in model.weights)
        )
        if not shapes_ok:
            raise ModelError(f"the win-chance model {path.name} is damaged (its layers do not fit together)")
        return model


@lru_cache(maxsize=4)
def _load(path: str, stamp: float) -> ValueModel:
    return ValueModel.load(path)


def shipped(path: str | Path | None = None) -> ValueModel:
    """The model in ``path`` (default: the one shipped in the package), read once per file version."""
    p = Path(path) if path is not None else SHIPPED
    try:
        stamp = p.stat().st_mtime
    except OSError:
        raise ModelError(f"no win-chance model at {p}") from None
    return _load(str(p), stamp)
