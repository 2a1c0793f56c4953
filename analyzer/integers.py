"""What counts as a whole number in what a user hands in, decided once.

A whole number is any integral number (a Python ``int``, a numpy integer) but a
truth value: ``True`` is an ``int`` to Python, never an army count to a player.
Every input check of the package asks :func:`is_whole`, or :func:`whole_number`
with the error class of its own layer.

>>> import numpy as np
>>> is_whole(3), is_whole(np.int16(3)), is_whole(True), is_whole(3.0), is_whole("3")
(True, True, False, False, False)
>>> whole_number(np.int64(4), "attackers", 2)
4
>>> whole_number(2.5, "attackers", 2)
Traceback (most recent call last):
...
ValueError: attackers must be a whole number >= 2, got 2.5
"""

from __future__ import annotations

import numbers
from typing import TypeGuard

import numpy as np


def is_whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number: integral, and not a truth value (to a type checker, an
    ``int``: a numpy integer compares, indexes and converts as one)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def whole_number(value: object, name: str, minimum: int, error: type[ValueError] = ValueError) -> int:
    """``value`` as an ``int`` if it is a whole number >= ``minimum``, else ``error`` naming ``name``."""
    if not is_whole(value) or value < minimum:
        raise error(f"{name} must be a whole number >= {minimum}, got {value!r}")
    return int(value)
