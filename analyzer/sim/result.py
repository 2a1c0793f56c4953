"""A run's results: its tables (see :mod:`analyzer.sim.records`), win rates, summary, and files."""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from analyzer.errors import SimulationError
from analyzer.extras import require
from analyzer.limits import quote
from analyzer.sim.checkpoints import TABLES
from analyzer.sim.intervals import check_confidence, rate_table
from analyzer.sim.records import SCHEMA, empty_table


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
        confidence = check_confidence(confidence, SimulationError)
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

    def save(self, path: str | Path, fmt: str | None = None) -> list[Path]:
        """Write the tables: ``games`` to ``path``, the others beside it as ``STEM.TABLE.EXT``, and the run's
        parameters and time as ``STEM.run.json``, which :meth:`load` reads back.

        The format is the one ``path`` ends in, ``.parquet`` or ``.csv`` (:func:`table_format`); ``fmt``, if
        given, must agree. Returns the paths written.
        """
        path = Path(path)
        fmt = table_format(path, fmt)
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
        run = run_path(path)
        tmp = run.with_name(run.name + ".tmp")
        tmp.write_text(
            json.dumps({"params": self.params, "seconds": None if math.isnan(self.seconds) else self.seconds})
        )
        os.replace(tmp, run)
        return [*written, run]

    @classmethod
    def load(cls, path: str | Path) -> SimulationResult:
        """Read back what :meth:`save` wrote, in the format ``path`` ends in: the tables with their column types,
        and the run's parameters and time where ``STEM.run.json`` is beside them."""
        path = Path(path)
        fmt = table_format(path)
        frames = {}
        for name in TABLES:
            source = path if name == "games" else table_path(path, name)
            if not source.is_file():
                raise SimulationError(f"{str(source)!r}: no such file; a saved run has its {name} table there")
            if fmt == "parquet":
                frames[name] = pd.read_parquet(source)
            else:
                types = SCHEMA[name]
                frame = pd.read_csv(source, dtype={c: t for c, t in types.items() if t != "bool"})
                frames[name] = (
                    frame.astype({c: t for c, t in types.items() if t == "bool"}) if len(frame) else empty_table(name)
                )
        run = run_path(path)
        kept = json.loads(run.read_text()) if run.is_file() else {}
        seconds = kept.get("seconds")
        return cls(**frames, params=kept.get("params", {}), seconds=float("nan") if seconds is None else seconds)


#: The endings of a file of tables, and their formats.
TABLE_FORMATS = {".csv": "csv", ".parquet": "parquet"}


def table_format(path: str | Path, fmt: str | None = None, what: str = "output file", asking: str | None = None) -> str:
    """The format of the tables ``path`` names, read from its ending; ``fmt``, if given, must agree (``asking``: the
    words of what asked for it, the command line's option). Parquet needs its library installed. The one check of a
    table file's name, the command line's (:func:`analyzer.commands.files.table_file`) and the library's.

    >>> table_format("runs.CSV"), table_format("runs.parquet", "parquet")
    ('csv', 'parquet')
    >>> table_format("runs.csv", "parquet")
    Traceback (most recent call last):
    ...
    analyzer.errors.SimulationError: output file 'runs.csv' ends in .csv, but the format asked for is parquet: give a file ending in .parquet
    >>> table_format("runs")
    Traceback (most recent call last):
    ...
    analyzer.errors.SimulationError: output file 'runs': give a file ending in .csv or .parquet
    """
    path = Path(path)
    found = TABLE_FORMATS.get(path.suffix.lower())
    if found is None:
        raise SimulationError(f"{what} {quote(str(path))}: give a file ending in .csv or .parquet")
    if fmt is not None and fmt != found:
        if fmt not in TABLE_FORMATS.values():
            raise SimulationError(f"output format must be parquet or csv, got {fmt!r}")
        raise SimulationError(
            f"{what} {quote(str(path))} ends in {path.suffix}, but {asking or f'the format asked for is {fmt}'}: "
            f"give a file ending in .{fmt}"
        )
    if found == "parquet":
        require("pyarrow")
    return found


def run_path(path: Path) -> Path:
    """Where :meth:`SimulationResult.save` keeps the run's parameters next to ``path``: ``results.run.json``."""
    return path.with_name(f"{path.stem}.run.json")


def table_path(path: Path, table: str) -> Path:
    """Where :meth:`SimulationResult.save` puts ``table`` next to ``path``: ``results.parquet`` →
    ``results.seats.parquet``."""
    return path.with_name(f"{path.stem}.{table}{path.suffix}")


def concat_tables(parts: list[dict[str, pd.DataFrame]], name: str) -> pd.DataFrame:
    frames = [p[name] for p in parts if len(p[name])]
    if not frames:
        return empty_table(name)
    return pd.concat(frames, ignore_index=True)
