"""The Tables tab: odds tables and their heatmaps."""

from __future__ import annotations

import streamlit as st

from analyzer.game.state import GameState
from analyzer.solver.tables import TABLES
from analyzer.webapp.cached import cached_heatmap, cached_tables
from analyzer.webapp.inputs import whole_number


def tables_view(game: GameState, names: list[str]) -> None:
    size_col, stop_col, which_col = st.columns(3)
    max_armies = size_col.slider("Up to armies", 5, 60, 20, key="table_max")
    with stop_col:
        stop_at = whole_number("Stop at", 1, max_armies - 1, value=1, key="table_stop")
    if stop_at is None:
        return
    which = which_col.selectbox("Table", TABLES, key="table_which", format_func=lambda t: t.replace("_", " "))
    tables, csv = cached_tables(max_armies, stop_at)
    st.vega_lite_chart(cached_heatmap(max_armies, stop_at, which), width="stretch")
    st.caption("A row for each count of armies on the attacking territory, a column for each count of defenders.")
    # P(win) as the calculator gives it (41.67%), the losses in armies.
    st.dataframe(tables[which].style.format("{:.2%}" if which == "p_win" else "{:.2f}"))
    st.download_button(
        "Download all three tables (CSV)",
        data=csv,
        file_name=f"risk-odds-{max_armies}.csv",
        mime="text/csv",
        key="download_tables",
    )
