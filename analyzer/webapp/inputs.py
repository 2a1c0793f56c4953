"""Number fields that never hand the app a value the user did not enter.

``st.number_input`` with bounds keeps its last good value when a number outside
them is typed (the field only turns red), and the app would go on with that
old value; a field of whole numbers turns 3.7 into 3 and 1e3 into 1 in the
browser, and keeps its last good value for a number past 2**53. These fields
(:func:`number_box`) take any number, with no bounds, so the value typed
reaches the app, which checks it here: a value that is not a whole number
within its range shows its message under the field and the caller gets None,
to apply nothing.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from analyzer.services.entries import Count, bounds_problem
from analyzer.text import plain


def number_box(box: Any, label: str, *, value: int | None, key: str, **kw: Any) -> float | None:
    """``box.number_input`` holding any number typed, as typed: the number the browser sends, for the app to check.

    A field of floats, shown without decimals when it holds a whole number: the browser's field of whole numbers
    rounds what it is given before the app sees it.
    """
    start = None if value is None else float(value)
    return box.number_input(label, value=start, step=1.0, format="%.10g", key=key, **kw)


def count_field(count: Count, key: str, *, where: Any = None, help: str | None = None) -> int | None:
    """Draw ``count`` (a form's field, :class:`~analyzer.services.entries.Count`) as a :func:`whole_number`: its
    label, bounds and starting value are the form's own, and the form reads it back through the same ``count``."""
    return whole_number(count.label, count.lo, count.hi, value=count.start, key=key, where=where, help=help)


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
    raw = number_box(box, label, value=value, key=key, help=help, placeholder=placeholder, on_change=on_change)
    problem = bounds_problem(raw, lo, hi, allow_empty=allow_empty)
    if problem:
        box.error(plain(f"{label}: {problem}"))
        return None
    return None if raw is None else int(raw)
