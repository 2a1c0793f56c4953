"""Matplotlib figures of the studies' tables (win rates with interval whiskers, and heatmaps), and
tables of rates with their intervals for reading.

>>> import pandas as pd
>>> table = pd.DataFrame({"order": [1, 2], "win_rate": [0.3, 0.2], "ci_low": [0.25, 0.15],
...                       "ci_high": [0.35, 0.25], "fair_share": [0.25, 0.25]})
>>> ax = win_rate_plot(table, "order")
>>> [t.get_text() for t in ax.get_xticklabels()]
['1', '2']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from analyzer.errors import StudyError

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def _axes(ax: Axes | None, size: tuple[float, float]) -> Axes:
    if ax is not None:
        return ax
    from matplotlib.figure import Figure

    return Figure(figsize=size, layout="constrained").add_subplot()


def win_rate_plot(
    table: pd.DataFrame,
    x: str,
    *,
    hue: str | None = None,
    rate: str = "win_rate",
    low: str = "ci_low",
    high: str = "ci_high",
    ax: Axes | None = None,
    horizontal: bool = False,
    title: str | None = None,
) -> Axes:
    """Each row's ``rate`` as a point with whiskers from ``low`` to ``high``, one category per value
    of ``x`` (one series per value of ``hue``), and the ``fair_share`` as a dashed line if the table
    has one column of that name with a single value per series."""
    needed = [c for c in (x, rate, low, high, hue) if c is not None and c not in table.columns]
    if needed:
        raise StudyError(f"the table has no column(s) {', '.join(needed)}")
    ax = _axes(ax, (8, 4.5) if not horizontal else (7, max(3.0, 0.28 * len(table))))
    # Categories keep the table's row order; numbers are sorted, as a series may miss some of them.
    values_x = table[x]
    ordered = sorted(values_x.unique()) if pd.api.types.is_numeric_dtype(values_x) else values_x.unique()
    categories = [str(v) for v in ordered]
    groups = list(table.groupby(hue, sort=False)) if hue is not None else [(None, table)]
    width = 0.7 / max(1, len(groups))
    for i, (key, part) in enumerate(groups):
        where = np.array([categories.index(v) for v in part[x].astype(str)]) + (i - (len(groups) - 1) / 2) * width
        rates = part[rate].to_numpy(dtype=float)
        error = np.vstack([rates - part[low].to_numpy(dtype=float), part[high].to_numpy(dtype=float) - rates])
        label = None if key is None else f"{hue} {key}" if not isinstance(key, str) else key
        if horizontal:
            line = ax.errorbar(rates, where, xerr=error, fmt="o", capsize=3, label=label)
        else:
            line = ax.errorbar(where, rates, yerr=error, fmt="o", capsize=3, label=label)
        if "fair_share" in part.columns and part["fair_share"].nunique() == 1:
            share = float(part["fair_share"].iloc[0])
            (ax.axvline if horizontal else ax.axhline)(share, color=line[0].get_color(), linestyle="--", linewidth=0.8)
    ticks = np.arange(len(categories))
    if horizontal:
        ax.set_yticks(ticks, categories)
        ax.invert_yaxis()
        ax.set_xlabel(rate.replace("_", " "))
    else:
        ax.set_xticks(
            ticks,
            categories,
            rotation=0 if max(map(len, categories), default=0) < 6 else 45,
            ha="center" if max(map(len, categories), default=0) < 6 else "right",
        )
        ax.set_xlabel(x.replace("_", " "))
        ax.set_ylabel(rate.replace("_", " "))
    if hue is not None:
        ax.legend(fontsize="small")
    if title:
        ax.set_title(title)
    ax.grid(alpha=0.3)
    return ax


def heatmap(
    grid: pd.DataFrame,
    *,
    ax: Axes | None = None,
    cmap: str = "viridis",
    center: float | None = None,
    fmt: str = "{:.2f}",
    label: str = "",
    title: str | None = None,
    spread: float | None = None,
) -> Axes:
    """A labelled heatmap of a pivoted table (rows down, columns across), each cell annotated with
    ``fmt``; with ``center``, a diverging scale symmetric about it, reaching ``spread`` either side (by default
    the grid's own largest distance from ``center``: give one ``spread`` to panels read side by side, so that a
    colour means the same in each)."""
    values = grid.to_numpy(dtype=float)
    ax = _axes(ax, (1.2 + 0.9 * grid.shape[1], 1.0 + 0.45 * grid.shape[0]))
    if not np.isfinite(values).any():
        # A small run can leave no cell with enough games: say so rather than fail.
        ax.text(0.5, 0.5, "no cell with enough games", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        if title:
            ax.set_title(title)
        return ax
    vmin, vmax = None, None
    if center is not None:
        spread = spread if spread is not None else float(np.nanmax(np.abs(values - center))) or 1.0
        vmin, vmax = center - spread, center + spread
    else:
        spread = 0.0
    image = ax.imshow(values, cmap=cmap, aspect="auto", interpolation="nearest", vmin=vmin, vmax=vmax)
    ax.figure.colorbar(image, ax=ax, label=label)
    ax.set_xticks(range(grid.shape[1]), [str(c) for c in grid.columns])
    ax.set_yticks(range(grid.shape[0]), [str(r) for r in grid.index])
    ax.set_xlabel(str(grid.columns.name or ""))
    ax.set_ylabel(str(grid.index.name or ""))
    middle = np.nanmean(values) if center is None else center
    for (r, c), v in np.ndenumerate(values):
        if np.isfinite(v):
            dark = (v < middle) if center is None else abs(v - center) > 0.6 * spread
            ax.text(c, r, fmt.format(v), ha="center", va="center", fontsize="small", color="white" if dark else "black")
    if title:
        ax.set_title(title)
    return ax


def interval_pivot(
    table: pd.DataFrame,
    index: str,
    columns: str,
    *,
    rate: str = "win_rate",
    low: str = "ci_low",
    high: str = "ci_high",
    signed: bool = False,
) -> pd.DataFrame:
    """``rate`` with its interval as text, in percent (points), pivoted to ``index`` by ``columns``.

    >>> table = pd.DataFrame({"order": [1, 2], "n": [3, 3], "win_rate": [0.384, 0.295],
    ...                       "ci_low": [0.363, 0.276], "ci_high": [0.405, 0.316]})
    >>> interval_pivot(table, "order", "n").loc[1, 3]
    '38.4 (36.3-40.5)'
    """
    needed = [c for c in (index, columns, rate, low, high) if c not in table.columns]
    if needed:
        raise StudyError(f"the table has no column(s) {', '.join(needed)}")
    number = "{:+.1f}" if signed else "{:.1f}"
    text = [
        f"{number.format(100 * r)} ({number.format(100 * lo)} to {number.format(100 * hi)})"
        if signed
        else f"{number.format(100 * r)} ({number.format(100 * lo)}-{number.format(100 * hi)})"
        for r, lo, hi in zip(table[rate], table[low], table[high])
    ]
    return table.assign(_text=text).pivot(index=index, columns=columns, values="_text").rename_axis(columns=columns)
