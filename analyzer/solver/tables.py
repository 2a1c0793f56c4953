"""P(win) and expected-loss tables for every battle up to a size, with CSV export and a heatmap.

Rows are the armies on the attacking territory (as on the board, from 2), and
columns the defenders (from 1). One backward pass over every state fills all
three tables at once.

>>> t = odds_tables(10)
>>> t.p_win.loc[10, 5].round(4), t.expected_attacker_losses.loc[10, 5].round(3)
(np.float64(0.8729), np.float64(3.927))
>>> t.p_win.shape
(9, 10)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from analyzer.errors import BattleInputError
from analyzer.limits import MAX_BLITZ_TABLE_ARMIES, MAX_TABLE_ARMIES, check_limit
from analyzer.solver.battle import (
    CLASSIC,
    BattleOptions,
    battle,
    check_options,
    whole_number,
    win_grid,
)
from analyzer.solver.blitz import balanced_win_probability

if TYPE_CHECKING:  # pandas and matplotlib load only when a table is built: `risk-analyzer odds` starts fast
    import pandas as pd
    from matplotlib.axes import Axes

TableName = Literal["p_win", "expected_attacker_losses", "expected_defender_losses"]
TABLES: tuple[TableName, ...] = ("p_win", "expected_attacker_losses", "expected_defender_losses")
_LABELS = {
    "p_win": "P(attacker conquers)",
    "expected_attacker_losses": "expected attacker losses",
    "expected_defender_losses": "expected defender losses",
}


def _table_name(which: object) -> str:
    """``which``, if it names one of :data:`TABLES`."""
    if which not in TABLES:
        raise BattleInputError(f"no table {which!r}; choose one of {', '.join(TABLES)}")
    return str(which)


@dataclass(frozen=True)
class OddsTables:
    """Three tables indexed by ``attackers`` (rows) and ``defenders`` (columns).

    Rows at or below ``stop_at`` are NaN: from there the attacker may not attack.
    """

    p_win: pd.DataFrame
    expected_attacker_losses: pd.DataFrame
    expected_defender_losses: pd.DataFrame
    stop_at: int
    options: BattleOptions

    def table(self, which: str) -> pd.DataFrame:
        """One of the tables by name: ``p_win``, ``expected_attacker_losses`` or ``expected_defender_losses``."""
        return getattr(self, _table_name(which))

    def long(self) -> pd.DataFrame:
        """All three tables in one long frame: one row per ``(attackers, defenders)``.

        >>> odds_tables(3).long().iloc[0].round(4).tolist()
        [2.0, 1.0, 0.4167, 0.5833, 0.4167]
        """
        stacked = {name: self.table(name).stack(future_stack=True) for name in TABLES}
        import pandas as pd

        return pd.DataFrame(stacked).reset_index()

    def to_csv(self, path: str | Path, which: str = "p_win") -> None:
        """Write one table as a grid (attackers down, defenders across), or ``which="all"`` in long form."""
        frame = self.long() if which == "all" else self.table(which)
        frame.to_csv(path, index=which != "all", float_format="%.10g")

    def heatmap(self, which: str = "p_win", ax: Axes | None = None) -> Axes:
        """Draw a table as a heatmap (with the 50% line for ``p_win``) on ``ax``, or on a new figure."""
        data = self.table(which)
        if ax is None:
            from matplotlib.figure import Figure

            ax = Figure(figsize=(7, 6), layout="constrained").add_subplot()
        rows, cols = data.index, data.columns
        extent = (cols[0] - 0.5, cols[-1] + 0.5, rows[0] - 0.5, rows[-1] + 0.5)
        is_p = which == "p_win"
        image = ax.imshow(
            data.to_numpy(dtype=float),
            origin="lower",
            aspect="auto",
            extent=extent,
            cmap="RdYlGn" if is_p else "viridis",
            vmin=0.0 if is_p else None,
            vmax=1.0 if is_p else None,
            interpolation="nearest",
        )
        ax.figure.colorbar(image, ax=ax, label=_LABELS[which])
        # Each cell is a whole number of armies: a tick between two (2.5 armies) names no battle.
        ax.locator_params(integer=True)
        if is_p and len(rows) > 1 and len(cols) > 1:
            ax.contour(cols, rows, data.to_numpy(dtype=float), levels=[0.5], colors="black", linewidths=0.8)
        ax.set_xlabel("defenders")
        ax.set_ylabel("attackers (armies on the territory)")
        ax.set_title(_LABELS[which])
        return ax


def heatmap_chart(data: pd.DataFrame, which: str = "p_win") -> Any:
    """:meth:`OddsTables.heatmap` of ``data``, the table ``which`` (``OddsTables.table(which)``), as an Altair chart
    that fits the width it is given (the app's: on a phone the figure's text shrank to a few pixels), a tooltip on
    each cell with its battle and figure; P(win) on a red to green scale whose middle, yellow, is 50%.

    >>> spec = heatmap_chart(odds_tables(3).p_win).to_dict()
    >>> spec["mark"]["type"], spec["encoding"]["color"]["scale"]["domainMid"]
    ('rect', 0.5)
    """
    import altair as alt

    which = _table_name(which)
    frame = data.stack(future_stack=True).rename("value").reset_index().dropna()
    frame.columns = ["attackers", "defenders", "value"]
    is_p = which == "p_win"
    scale = alt.Scale(scheme="redyellowgreen", domain=[0, 1], domainMid=0.5) if is_p else alt.Scale(scheme="viridis")
    label = _LABELS[which]
    return (
        # A fixed height, its cells shrinking to it: a row each of up to 59 attackers would run down the page.
        alt.Chart(frame, title=label, height=360)
        .mark_rect()
        .encode(
            x=alt.X("defenders:O", title="defenders", axis=alt.Axis(labelOverlap=True, labelAngle=0)),
            y=alt.Y(
                "attackers:O",
                title="attackers (armies on the territory)",
                sort="descending",
                axis=alt.Axis(labelOverlap=True),
            ),
            color=alt.Color("value:Q", title=None, scale=scale, legend=alt.Legend(format=".0%" if is_p else ".1f")),
            tooltip=[
                alt.Tooltip("attackers:O"),
                alt.Tooltip("defenders:O"),
                alt.Tooltip("value:Q", title=label, format=".2%" if is_p else ".2f"),
            ],
        )
    )


def odds_tables(max_armies: int, *, stop_at: int = 1, options: BattleOptions = CLASSIC) -> OddsTables:
    """Tables for every battle with up to ``max_armies`` attackers and defenders.

    Under Balanced Blitz the P(win) table still comes from one pass (the
    reshaped chance depends on the exact one only), but each expected loss
    needs its own reshaped battle, so those take much longer for large tables.
    """
    n = whole_number(max_armies, "max_armies", 2)
    s = whole_number(stop_at, "stop_at", 1)
    opts = check_options(options)
    # Balanced Blitz solves every cell's battle on its own.
    limit = MAX_BLITZ_TABLE_ARMIES if opts.balanced_blitz else MAX_TABLE_ARMIES
    check_limit(
        n,
        limit,
        "max_armies" + (" under Balanced Blitz" if opts.balanced_blitz else ""),
        BattleInputError,
        "MAX_BLITZ_TABLE_ARMIES" if opts.balanced_blitz else "MAX_TABLE_ARMIES",
    )
    true_random = BattleOptions(opts.dice, opts.attacker_dice, opts.defender_dice, opts.stop_mode)
    value, mean_a, mean_d = win_grid(n, s, true_random)
    a = np.arange(n + 1)[:, None]
    d = np.arange(n + 1)[None, :]
    p_win = value
    lost_a = a - mean_a
    lost_d = d - mean_d
    if opts.balanced_blitz:
        p_win = balanced_win_probability(value)
        for attackers in range(s + 1, n + 1):
            for defenders in range(1, n + 1):
                r = battle(attackers, defenders, stop_at=s, options=opts)
                lost_a[attackers, defenders] = r.expected_attacker_losses
                lost_d[attackers, defenders] = r.expected_defender_losses
    import pandas as pd

    rows = pd.Index(range(2, n + 1), name="attackers")
    cols = pd.Index(range(1, n + 1), name="defenders")

    def frame(grid: np.ndarray) -> pd.DataFrame:
        out = pd.DataFrame(grid[2:, 1:], index=rows, columns=cols)
        out.loc[out.index <= s] = np.nan
        return out

    return OddsTables(frame(p_win), frame(lost_a), frame(lost_d), s, opts)
