"""Number fields that never hand the app a value the user did not enter.

``st.number_input`` with bounds keeps its last good value when a number outside
them is typed (the field only turns red), and the app would go on with that
old value. These fields have no bounds in the browser, so the value typed
reaches the app, which checks it here: a value outside its range shows its
message under the field and the caller gets None, to apply nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from analyzer.text import plain


def whole_number(
    label: str,
    lo: int,
    hi: int | None,
    *,
    key: str,
    value: int | None = None,
    where: Any = None,
    help: str | None = None,
    placeholder: str | None = None,
    allow_empty: bool = False,
    on_change: Any = None,
) -> int | None:
    """A whole number from ``lo`` to ``hi`` (None: no upper bound) typed in a field; None if it is not one.

    An empty field is None without a message when ``allow_empty`` (a field meaning "keep").
    """
    box = st if where is None else where
    raw = box.number_input(label, value=value, step=1, key=key, help=help, placeholder=placeholder, on_change=on_change)
    problem = bounds_problem(raw, lo, hi, allow_empty=allow_empty)
    if problem:
        box.error(plain(f"{label}: {problem}"))
        return None
    return None if raw is None else int(raw)


def cell_number(value: Any) -> Any:
    """A table cell's number as the package takes it: a whole float as an ``int``, a cleared cell as None,
    anything else as it is (for the package to refuse, naming it).

    A data editor's number column turns to floats once a cell is cleared; the package takes no float
    as a count, so the app turns its own widgets' floats back here.

    >>> cell_number(np.float64(3.0)), cell_number(float("nan")), cell_number(2.5), cell_number(np.int64(4))
    (3, None, 2.5, np.int64(4))
    """
    if value is None or value is pd.NA or (isinstance(value, (float, np.floating)) and np.isnan(value)):
        return None
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return int(value)
    return value


def bounds_problem(raw: float | int | None, lo: int, hi: int | None, *, allow_empty: bool = False) -> str:
    """What is wrong with ``raw`` as a whole number from ``lo`` to ``hi``, in words ("" if nothing).

    >>> bounds_problem(1234567890, 1, 1_000_000)
    'enter a whole number from 1 to 1,000,000, not 1,234,567,890'
    >>> bounds_problem(2.5, 0, None), bounds_problem(None, 0, 3), bounds_problem(3, 0, 3)
    ('enter a whole number of at least 0, not 2.5', 'enter a whole number from 0 to 3', '')
    """
    wanted = f"a whole number from {lo:,} to {hi:,}" if hi is not None else f"a whole number of at least {lo:,}"
    if raw is None:
        return "" if allow_empty else f"enter {wanted}"
    shown = f"{int(raw):,}" if float(raw).is_integer() else f"{raw:,}"
    if not float(raw).is_integer() or raw < lo or (hi is not None and raw > hi):
        return f"enter {wanted}, not {shown}"
    return ""
