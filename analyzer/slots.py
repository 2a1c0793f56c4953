"""Named slots of the flat vectors that compiled code reads, derived from one declaration each.

Compiled code takes its constants and a bot's knobs as flat ``int64`` or ``float`` vectors and
reads them at fixed indices. Each such vector declares its named entries once, in order, and
:func:`slots` derives every index from that declaration; the module constants the kernels read
(``P_ATTACK``, ``R_WIDTH``, ...) are looked up in its answer by name, so that an entry added,
removed or moved in the declaration moves every index with it, and a misspelt name fails at import.
The vector's builder walks the same declaration, so it cannot write an entry where the kernels do
not read it (see :data:`analyzer.game.engine.layout.ARRAYS` for the state vector's own).

>>> knobs = slots(["threshold", "bonus_turns", "kill"])
>>> knobs
{'threshold': 0, 'bonus_turns': 1, 'kill': 2}
>>> slots(["a", "b"], start=10)["b"]
11
>>> slots(["a", "a"])
Traceback (most recent call last):
...
ValueError: slot 'a' is declared twice
"""

from __future__ import annotations

from collections.abc import Iterable


def slots(names: Iterable[str], start: int = 0) -> dict[str, int]:
    """``{name: index}`` of a vector whose entries from ``start`` on are ``names``, in order; whatever
    follows them (a variable-length part) starts at ``start + len(names)``."""
    out: dict[str, int] = {}
    for name in names:
        if name in out:
            raise ValueError(f"slot {name!r} is declared twice")
        out[name] = start + len(out)
    return out
