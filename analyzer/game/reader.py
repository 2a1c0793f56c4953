"""Reading untrusted input: JSON text, nested data, whole numbers and the fields of actions.

The leaf of every way in (saved games, map files, ``--rules`` text, positions
typed in): it knows nothing of boards or states, so the modules that build
them can use it. A fault raises a :class:`~analyzer.errors.RiskAnalyzerError`
subclass naming the field and what was expected, quoting the bad value in at
most :data:`analyzer.limits.MAX_MESSAGE` characters.
"""

from __future__ import annotations

import json
import re
from dataclasses import fields, is_dataclass
from typing import Any

import numpy as np

from analyzer import limits
from analyzer.errors import PositionError, RiskAnalyzerError, StateFormatError
from analyzer.game.vocabulary import TERRITORY_FIELDS
from analyzer.integers import is_whole, whole_number
from analyzer.limits import quote

__all__ = [
    "json_depth",
    "loads",
    "check_depth",
    "fail",
    "read_int",
    "read_bool",
    "read_ints",
    "read_rows",
    "check_action",
    "quote",
]

# ---------------------------------------------------------------------------------- JSON
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)


def json_depth(text: str) -> int:
    """How deep ``text``'s arrays and objects nest, counted without parsing it (brackets in strings aside).

    >>> json_depth('{"a": [1, [2, "]]]"]]}')
    3
    """
    bare = _STRING.sub("", text).encode("utf-8", "replace")
    b = np.frombuffer(bare, dtype=np.uint8)
    opens = (b == ord("[")) | (b == ord("{"))
    at = np.flatnonzero(opens | (b == ord("]")) | (b == ord("}")))
    if not len(at):
        return 0
    return int(np.cumsum(np.where(opens[at], 1, -1)).max())


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def loads(text: str | bytes, what: str = "saved game", error: type[RiskAnalyzerError] = StateFormatError) -> Any:
    """Parse JSON ``text`` within :data:`~analyzer.limits.MAX_JSON_BYTES` and :data:`~analyzer.limits.MAX_JSON_DEPTH`.

    The depth is counted before :func:`json.loads` recurses; NaN and Infinity are refused.
    Every fault raises ``error`` whose message starts with ``what``.

    >>> loads('[[[1]]]')
    [[[1]]]
    >>> loads('[' * 100_000)
    Traceback (most recent call last):
    ...
    analyzer.errors.StateFormatError: saved game nests 100000 levels deep; the limit is 32 (analyzer.limits.MAX_JSON_DEPTH)
    """
    if isinstance(text, (bytes, bytearray)):
        if len(text) > limits.MAX_JSON_BYTES:
            raise error(
                f"{what} has {len(text)} bytes; the limit is {limits.MAX_JSON_BYTES} (analyzer.limits.MAX_JSON_BYTES)"
            )
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise error(f"{what} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if not isinstance(text, str):
        raise error(f"{what} must be JSON text, got {type(text).__name__}")
    if len(text) > limits.MAX_JSON_BYTES:
        raise error(
            f"{what} has {len(text)} characters; the limit is {limits.MAX_JSON_BYTES} (analyzer.limits.MAX_JSON_BYTES)"
        )
    depth = json_depth(text)
    if depth > limits.MAX_JSON_DEPTH:
        raise error(
            f"{what} nests {depth} levels deep; the limit is {limits.MAX_JSON_DEPTH} (analyzer.limits.MAX_JSON_DEPTH)"
        )
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        # json's own words may end in "at" already ("Unterminated string starting at").
        words = exc.msg.removesuffix(" at")
        raise error(f"{what} is not valid JSON: {words} at line {exc.lineno} column {exc.colno}") from None
    except (ValueError, RecursionError) as exc:  # a number of more than 4300 digits, NaN
        raise error(f"{what} is not valid JSON: {quote(str(exc))}") from None


def check_depth(value: Any, what: str, error: type[RiskAnalyzerError] = PositionError) -> None:
    """Refuse Python data (dicts, lists) nested past :data:`~analyzer.limits.MAX_JSON_DEPTH`, without recursing."""
    stack = [(value, 1)]
    seen = 0
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth > limits.MAX_JSON_DEPTH:
            raise error(f"{what} nests deeper than {limits.MAX_JSON_DEPTH} levels (analyzer.limits.MAX_JSON_DEPTH)")
        seen += len(children)
        if seen > limits.MAX_JSON_BYTES:
            raise error(f"{what} holds more than {limits.MAX_JSON_BYTES} values (analyzer.limits.MAX_JSON_BYTES)")
        stack.extend((child, depth + 1) for child in children)


# ---------------------------------------------------------------------------------- field readers
def fail(field: str, expected: str, value: object) -> PositionError:
    return PositionError(f"{field} must be {expected}, got {quote(value)}")


def read_int(value: object, field: str, lo: int, hi: int) -> int:
    """``value`` as an int if it is a whole number from ``lo`` to ``hi``, else a :class:`PositionError` naming ``field``."""
    return whole_number(value, field, lo, PositionError, maximum=hi)


def read_bool(value: object, field: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise fail(field, "true or false", value)
    return bool(value)


def read_ints(value: object, field: str, length: int, lo: int, hi: int) -> list[int]:
    """A list of ``length`` whole numbers from ``lo`` to ``hi``."""
    if not isinstance(value, list) or len(value) != length:
        got = f"{len(value)} entries" if isinstance(value, list) else quote(value)
        raise PositionError(f"{field} must be a list of {length} whole numbers, got {got}")
    for i, v in enumerate(value):
        read_int(v, f"{field}[{i}]", lo, hi)
    return [int(v) for v in value]


def read_rows(value: object, field: str, most: int, width: int) -> list[list[int]]:
    """A list of at most ``most`` rows of ``width`` whole numbers (ranges are checked by :func:`analyzer.game.validation.check_invariants`)."""
    if not isinstance(value, list) or len(value) > most:
        raise fail(field, f"a list of at most {most} rows", value)
    return [read_ints(row, f"{field}[{i}]", width, -(2**62), 2**62) for i, row in enumerate(value)]


def check_action(action: object, field: str = "action", error: type[RiskAnalyzerError] = PositionError) -> None:
    """Refuse an action whose fields are not plain whole numbers within int32 (or territory names).

    Run before an action's numbers go near compiled code or numpy; its legality is the engine's.
    """
    try:
        _check_action(action, field)
    except PositionError as exc:
        raise (exc if error is PositionError else error(f"illegal action {quote(action)}: {exc}")) from None


def _check_action(action: object, field: str) -> None:
    if not is_dataclass(action) or isinstance(action, type):
        raise fail(field or "the entry", "an action of analyzer.game.actions, such as Place('Alaska', 3)", action)
    prefix = f"{field}." if field else ""
    for f in fields(action):
        value = getattr(action, f.name)
        values = value if isinstance(value, tuple) else (value,)
        if f.name == "cards" and len(values) > 3:
            raise fail(f"{prefix}cards", "three card ids", value)
        for v in values:
            if v is None and f.name == "bonus":
                continue
            if isinstance(v, str) and f.name in TERRITORY_FIELDS and len(v) <= limits.MAX_MESSAGE:
                continue
            if not is_whole(v) or not -(2**31) <= v < 2**31:
                expected = "a whole number" + (" of at most 9 digits" if is_whole(v) else "")
                if f.name in TERRITORY_FIELDS:
                    expected += " or a territory name"
                raise fail(f"{prefix}{f.name}", expected, v)
