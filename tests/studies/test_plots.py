"""The studies' plots: a heatmap's diverging scale, alone or shared between panels read side by side."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd

from analyzer.studies.plots import heatmap


def _limits(grid: pd.DataFrame, **kw: object) -> tuple[float, float]:
    fig, ax = plt.subplots()
    heatmap(grid, ax=ax, cmap="RdBu", center=0.0, **kw)
    limits = ax.images[0].get_clim()
    plt.close(fig)
    return limits


def test_a_heatmap_centred_on_0_reaches_its_largest_value_or_the_spread_given() -> None:
    small = pd.DataFrame([[1.0, -2.0], [0.5, 0.0]])
    large = pd.DataFrame([[8.0, -1.0], [0.0, 3.0]])
    # Alone, each panel's colours reach its own largest distance from 0: -2 and +8 look alike.
    assert _limits(small) == (-2.0, 2.0) and _limits(large) == (-8.0, 8.0)
    # Side by side, one spread: a colour means the same number in both.
    assert _limits(small, spread=8.0) == _limits(large, spread=8.0) == (-8.0, 8.0)
