"""The app's cached work: solver tables, suggestions, maps, keyed by the position (never its history)."""

from __future__ import annotations

import io
from typing import Any

import pandas as pd
import streamlit as st
from matplotlib.figure import Figure

from analyzer.analysis.position import attack_suggestions, continent_table
from analyzer.game.state import GameState
from analyzer.plot import board_spec, draw_board
from analyzer.solver.tables import TABLES, heatmap_chart, odds_tables
from analyzer.webapp.maps import map_width

#: Resolution of the bare map's picture at the app's width.
MAP_DPI = 110


def position_json(game: GameState) -> str:
    """The cache key of a position: the game without its history (which the analysis never reads)."""
    return game.to_json(history=False)


@st.cache_data(max_entries=1, show_spinner=False)
def bare_map_png() -> bytes:
    return figure_png(draw_board(title="Classic map"))


@st.cache_data(max_entries=64, show_spinner=False)
def map_spec(
    game_json: str,
    names: tuple[str, ...],
    colors: tuple[str, ...],
    picked: tuple[str, ...] = (),
    continent: int | None = None,
) -> dict[str, Any]:
    # The Vega-Lite spec is cached rather than the Altair chart: st.altair_chart would convert the chart
    # again on every rerun, which costs more than all the rest of the Board tab.
    return board_spec(
        GameState.from_json(game_json, trusted=True),
        names,
        colors,
        picked,
        width=map_width(continent),
        continent=continent,
    )


def figure_png(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=MAP_DPI)
    return buffer.getvalue()


@st.cache_data(max_entries=256, show_spinner=False)
def cached_continents(game_json: str, player: int, stop_at: int) -> pd.DataFrame:
    return continent_table(GameState.from_json(game_json, trusted=True), player, stop_at=stop_at)


@st.cache_data(max_entries=256, show_spinner=False)
def cached_suggestions(game_json: str, player: int, stop_at: int) -> pd.DataFrame:
    return attack_suggestions(GameState.from_json(game_json, trusted=True), player, stop_at=stop_at)


@st.cache_data(max_entries=16, show_spinner=False)
def cached_tables(max_armies: int, stop_at: int) -> tuple[dict[str, pd.DataFrame], str]:
    tables = odds_tables(max_armies, stop_at=stop_at)
    return {name: tables.table(name) for name in TABLES}, tables.long().to_csv(index=False, float_format="%.10g")


@st.cache_data(max_entries=16, show_spinner=False)
def cached_heatmap(max_armies: int, stop_at: int, which: str) -> dict[str, Any]:
    tables, _ = cached_tables(max_armies, stop_at)  # the tables the tab shows, not solved a second time
    return heatmap_chart(tables[which], which).to_dict()
