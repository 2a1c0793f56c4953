"""A run's results: its tables (see :mod:`analyzer.sim.records`), win rates, summary, and files."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from analyzer.errors import SimulationError
from analyzer.extras import require
from analyzer.sim.checkpoints import TABLES
from analyzer.sim.intervals import rate_table
from analyzer.sim.records import empty_table


@dataclass
class SimulationResult:
    """The tables of a run (see :mod:`analyzer.sim.records`), its parameters and how long it took."""

    games: pd.DataFrame
    seats: pd.DataFrame
    eliminations: pd.DataFrame
    trades: pd.DataFrame
    starts: pd.DataFrame
    turns: pd.DataFrame
    params: dict[str, Any] = field(default_factory=dict)
    seconds: float = float("nan")
    games_played: int = 0  # games played by this call, excluding those resumed from a checkpoint
    turns_played: int = 0  # their player-turns

    def tables(self) -> dict[str, pd.DataFrame]:
        return {name: getattr(self, name) for name in TABLES}

    @property
    def games_per_second(self) -> float:
        return self.games_played / self.seconds if self.seconds > 0 else float("nan")

    def win_rates(self, by: str = "seat", confidence: float = 0.95, *, ranked: bool = False) -> pd.DataFrame:
        """Win rate per ``"seat"`` or per ``"bot"`` with Wilson intervals.

        Per bot, each seat it plays in each game is one trial; its seats in one
        game cannot both win, so the interval is if anything a little wide. A game
        capped at its round limit has no winner; with ``ranked`` it counts for the
        seat it ranks first (by territories, then armies), as a table playing to a
        round limit scores it.
        """
        if by not in ("seat", "bot"):
            raise SimulationError(f"win rates are by 'seat' or 'bot', got {by!r}")
        first = self.seats["rank"].eq(1)
        seats = self.seats.assign(
            won=first if ranked else first & self.seats["game"].map(~self.games.set_index("game")["capped"])
        )
        table = rate_table(seats, by, confidence=confidence)
        if by == "seat":
            table["bot"] = table["seat"].map(seats.groupby("seat")["bot"].first())
        return table

    def summary(self) -> dict[str, Any]:
        """Plain-JSON summary: win rates per seat and per bot (and, with capped games, first places per bot),
        capped games, turns and speed."""
        turns = self.games["turns"]
        capped = int(self.games["capped"].sum())
        return {
            "games": len(self.games),
            "capped": capped,
            "by_seat": self.win_rates("seat").to_dict("records"),
            "by_bot": self.win_rates("bot").to_dict("records"),
            # With games capped, who was first when they stopped: the result of a table that plays to a round limit.
            "first_by_bot": self.win_rates("bot", ranked=True).to_dict("records") if capped else [],
            "mean_turns": float(turns.mean()) if len(turns) else float("nan"),
            "median_turns": float(turns.median()) if len(turns) else float("nan"),
            "seconds": self.seconds,
            "games_played": self.games_played,
            "games_per_second": self.games_per_second,
            "player_turns_per_second": self.turns_played / self.seconds if self.seconds > 0 else float("nan"),
        }

    def save(self, path: str | Path, fmt: str = "parquet") -> list[Path]:
        """Write the tables: ``games`` to ``path``, the others beside it as ``STEM.TABLE.EXT``.

        ``fmt`` is ``"parquet"`` (the default) or ``"csv"``. Returns the paths written.
        """
        if fmt not in ("parquet", "csv"):
            raise SimulationError(f"output format must be parquet or csv, got {fmt!r}")
        if fmt == "parquet":
            require("pyarrow")
        path = Path(path)
        written = []
        for name, frame in self.tables().items():
            target = path if name == "games" else table_path(path, name)
            tmp = target.with_name(target.name + ".tmp")
            if fmt == "parquet":
                frame.to_parquet(tmp, index=False)
            else:
                frame.to_csv(tmp, index=False)
            os.replace(tmp, target)
            written.append(target)
        return written

    @classmethod
    def load(cls, path: str | Path) -> SimulationResult:
        """Read back what :meth:`save` wrote in Parquet."""
        require("pyarrow")
        path = Path(path)
        frames = {name: pd.read_parquet(path if name == "games" else table_path(path, name)) for name in TABLES}
        return cls(**frames)


def table_path(path: Path, table: str) -> Path:
    """Where :meth:`SimulationResult.save` puts ``table`` next to ``path``: ``results.parquet`` →
    ``results.seats.parquet``."""
    return path.with_name(f"{path.stem}.{table}{path.suffix}")


def concat_tables(parts: list[dict[str, pd.DataFrame]], name: str) -> pd.DataFrame:
    frames = [p[name] for p in parts if len(p[name])]
    if not frames:
        return empty_table(name)
    return pd.concat(frames, ignore_index=True)
