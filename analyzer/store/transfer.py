"""Games moved between stores (an SQLite file, a PostgreSQL database) as a file of JSON lines.

The first line names the format; then each game is a line with its id, name, creation time and number of
versions (and, for a game deleted but not for good, when it was deleted), followed by one line per version (its
number, when it was saved, and the game's JSON then, kept as the exact text the store held, so nothing of a
game's history is rewritten on the way). One line per version keeps every line within the size of one saved game.

The file is untrusted when read: every line is parsed within the limits of
:mod:`analyzer.limits` and checked for its fields, and the store checks every
version (its history replayed) before it imports anything.

>>> import io
>>> from analyzer.store.games import GameRecord, SavedVersion
>>> out = io.StringIO()
>>> write_games([GameRecord("abc", "Friday", 1.5, (SavedVersion(1, '{"x":1}', 2.5),))], out)
1
>>> print(out.getvalue(), end="")
{"format":"risk-analyzer/games","version":1}
{"game":"abc","name":"Friday","created":1.5,"versions":1}
{"version":1,"saved":2.5,"state":"{\\"x\\":1}"}
>>> [r.name for r in read_games(io.StringIO(out.getvalue()), "games.jsonl")]
['Friday']
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from analyzer.errors import StoreError
from analyzer.game.reader import loads
from analyzer.limits import quote
from analyzer.store.games import GameRecord, SavedVersion

FORMAT = "risk-analyzer/games"
FORMAT_VERSION = 1
_HEADER = {"format": FORMAT, "version": FORMAT_VERSION}


def _line(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":")) + "\n"


def write_games(records: Iterable[GameRecord], out: TextIO) -> int:
    """Write ``records`` to ``out``; how many games were written."""
    out.write(_line(_HEADER))
    count = 0
    for record in records:
        game = {"game": record.id, "name": record.name, "created": record.created, "versions": len(record.versions)}
        if record.deleted is not None:
            game["deleted"] = record.deleted
        out.write(_line(game))
        for kept in record.versions:
            out.write(_line({"version": kept.version, "saved": kept.saved, "state": kept.state}))
        count += 1
    return count


#: The longest first line :func:`is_games_export` needs to read: the header is far shorter.
HEADER_LIMIT = 256


def is_games_export(first_line: str) -> bool:
    """Whether ``first_line`` (at most :data:`HEADER_LIMIT` characters of it) opens a file of :func:`write_games`.

    >>> is_games_export('{"format":"risk-analyzer/games","version":1}\\n'), is_games_export('{"format":"risk-')
    (True, False)
    """
    try:
        return bool(json.loads(first_line) == _HEADER)
    except ValueError:
        return False


def read_games(lines: Iterable[str], where: str) -> Iterator[GameRecord]:
    """The games of a file written by :func:`write_games` (``where`` names it in messages), one at a time."""
    reader = _Lines(lines, where)
    if reader.next() is None or reader.parse() != _HEADER:
        raise StoreError(
            f"{where} is not a file of games exported by risk-analyzer (its first line should be "
            f"{_line(_HEADER).strip()})"
        )
    moment = (int, float)
    while reader.next() is not None:
        game = reader.fields({"game": str, "name": str, "created": moment, "versions": int}, {"deleted": moment})
        if game["versions"] < 1:
            raise StoreError(f"{reader.at}: a game has at least one version, got {game['versions']}")
        kept = []
        for _ in range(game["versions"]):
            if reader.next() is None:
                raise StoreError(f"{where} ends in the middle of game {quote(game['name'])}: the file is cut short")
            kept.append(reader.fields({"version": int, "saved": moment, "state": str}))
        yield GameRecord(
            game["game"],
            game["name"],
            float(game["created"]),
            tuple(SavedVersion(v["version"], v["state"], float(v["saved"])) for v in kept),
            None if "deleted" not in game else float(game["deleted"]),
        )


class _Lines:
    """The non-blank lines of a file, each parsed within the limits and named by its number in messages."""

    def __init__(self, lines: Iterable[str], where: str) -> None:
        self._lines = iter(lines)
        self.where = where
        self.number = 0
        self.text = ""

    @property
    def at(self) -> str:
        return f"{self.where}, line {self.number}"

    def next(self) -> str | None:
        for self.text in self._lines:  # noqa: B020 - the line read is kept for the error's place
            self.number += 1
            if self.text.strip():
                return self.text
        return None

    def parse(self) -> Any:
        return loads(self.text, f"{self.at},", StoreError)

    def fields(
        self, expected: dict[str, type | tuple[type, ...]], optional: dict[str, type | tuple[type, ...]] | None = None
    ) -> dict[str, Any]:
        """The line's fields: each of ``expected``, any of ``optional``, no other, each of its type."""
        data = self.parse()
        allowed = {**expected, **(optional or {})}
        if not isinstance(data, dict) or not set(expected) <= set(data) <= set(allowed):
            raise StoreError(
                f"{self.at}: expected the fields {', '.join(expected)}"
                + (f" (and maybe {', '.join(optional)})" if optional else "")
                + f", got {quote(sorted(data) if isinstance(data, dict) else data)}"
            )
        for name, kind in allowed.items():
            if name not in data:
                continue
            value = data[name]
            if (
                not isinstance(value, kind)
                or isinstance(value, bool)
                or (isinstance(value, float) and not math.isfinite(value))
            ):
                raise StoreError(f"{self.at}: {name} has the wrong type ({quote(value)})")
        return data
