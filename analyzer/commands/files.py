"""Files named on the command line, shared by the subcommands: file names, and the recorded game a command reads."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from analyzer.errors import RiskAnalyzerError, SimulationError
from analyzer.game.state import GameState
from analyzer.limits import quote
from analyzer.store.games import GameRecord
from analyzer.store.transfer import HEADER_LIMIT, is_games_export, read_games


def check_path(text: str, option: str, error: type[RiskAnalyzerError] = RiskAnalyzerError) -> Path:
    """A file name from the command line, if the file system and the messages can both spell it.

    >>> check_path("out.csv", "--out")
    PosixPath('out.csv')
    >>> check_path("\\udcff.csv", "--out")
    Traceback (most recent call last):
    ...
    analyzer.errors.RiskAnalyzerError: --out: the file name b'\\xff.csv' is not UTF-8
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise error(f"{option}: the file name {text.encode('utf-8', 'surrogateescape')!r} is not UTF-8") from None
    return Path(text)


def output_path(text: str, option: str, error: type[RiskAnalyzerError] = RiskAnalyzerError) -> Path:
    """A file a command will write, checked before the work that fills it: a name the file system and the
    messages can spell (:func:`check_path`), not a folder, in a folder that exists.

    >>> output_path("/no/such/folder/odds.csv", "--out")
    Traceback (most recent call last):
    ...
    analyzer.errors.RiskAnalyzerError: --out '/no/such/folder/odds.csv': directory /no/such/folder does not exist
    """
    out = check_path(text, option, error)
    if out.is_dir():
        raise error(f"{option} {quote(text)} is a directory: give a file name")
    if not out.parent.is_dir():
        raise error(f"{option} {quote(text)}: directory {out.parent} does not exist")
    return out


def table_file(
    text: str, option: str, error: type[RiskAnalyzerError] = RiskAnalyzerError, *, csv: bool = False
) -> tuple[Path, str]:
    """A file of tables named on the command line and its format, read from its ending (``--csv``, where a command
    has it, must agree), checked before the work that fills it: its folder there, Parquet's library installed.

    >>> table_file("runs.CSV", "--out")
    (PosixPath('runs.CSV'), 'csv')
    >>> table_file("runs.parquet", "--out", csv=True)
    Traceback (most recent call last):
    ...
    analyzer.errors.RiskAnalyzerError: --out 'runs.parquet' ends in .parquet, but --csv asks for CSV: give a file ending in .csv
    >>> table_file("runs", "--out")
    Traceback (most recent call last):
    ...
    analyzer.errors.RiskAnalyzerError: --out 'runs': give a file ending in .csv or .parquet
    """
    from analyzer.sim.result import table_format  # here: the odds command imports this module and not the simulator

    out = output_path(text, option, error)
    try:
        return out, table_format(out, "csv" if csv else None, option, "--csv asks for CSV")
    except SimulationError as exc:
        raise error(str(exc)) from None


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments that name a recorded game (:func:`read_game`): ``file``, ``--game`` and ``--version``."""
    parser.add_argument(
        "file",
        metavar="GAME",
        help="a saved game (the app's Save game, or GameState.to_json), or a file written by "
        "'risk-analyzer games export' (its game's latest version unless --game or --version says otherwise)",
    )
    parser.add_argument(
        "--game", dest="game_id", metavar="ID", help="the game to read from a games export that holds several"
    )
    parser.add_argument(
        "--version", type=int, metavar="N", help="the version to read from a games export (default: the latest)"
    )


def read_game(
    path: str,
    game_id: str | None = None,
    version: int | None = None,
    error: type[RiskAnalyzerError] = RiskAnalyzerError,
) -> GameState:
    """The recorded game in the file ``path``: a saved game, or one version of one game of a games export.

    A games export (:mod:`analyzer.store.transfer`) gives its one game, or the game ``game_id``, at its latest
    version or at ``version``; ``game_id`` and ``version`` name nothing in a saved game, and are refused with it.
    """
    source = check_path(path, "GAME", error)
    try:
        with source.open("rb") as stream:
            if not is_games_export(stream.readline(HEADER_LIMIT).decode("utf-8", errors="replace")):
                if game_id is not None or version is not None:
                    raise error(
                        f"{quote(path)} is a saved game, not a games export: --game and --version "
                        "pick a game and a version of an export ('risk-analyzer games export')"
                    )
                stream.seek(0)
                text = stream.read()
                try:
                    return GameState.from_json(text)
                except ValueError as exc:
                    raise error(f"{quote(path)} is not a recorded game: {exc}") from None
            stream.seek(0)
            lines = io.TextIOWrapper(stream, encoding="utf-8", errors="strict")
            return _exported(list(read_games(lines, path)), path, game_id, version, error)
    except OSError as exc:
        raise error(f"cannot read {quote(path)}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise error(f"{quote(path)} is not UTF-8 text (byte {exc.start}): not a games export") from None


def _exported(
    records: list[GameRecord], path: str, game_id: str | None, version: int | None, error: type[RiskAnalyzerError]
) -> GameState:
    """The game ``game_id`` (or the one game) of an export's ``records``, at ``version`` (or its latest)."""
    held = ", ".join(f"{r.id} ({quote(r.name)})" for r in records[:5]) + (", ..." if len(records) > 5 else "")
    if game_id is None:
        if len(records) != 1:
            raise error(
                f"{quote(path)} holds {len(records)} games: choose one with --game ID"
                + (f" ({held})" if records else "")
            )
        record = records[0]
    else:
        found = [r for r in records if r.id == game_id]
        if not found:
            raise error(f"{quote(path)} holds no game {quote(game_id)}; its games: {held or 'none'}")
        record = found[0]
    if version is None:
        kept = record.versions[-1]
    else:
        chosen = [v for v in record.versions if v.version == version]
        if not chosen:
            numbers = [v.version for v in record.versions]
            raise error(
                f"--version {version}: game {record.id} ({quote(record.name)}) has versions "
                f"{min(numbers)} to {max(numbers)}"
            )
        kept = chosen[0]
    try:
        return GameState.from_json(kept.state)
    except ValueError as exc:
        raise error(f"{quote(path)}, game {record.id} version {kept.version} is not a recorded game: {exc}") from None
