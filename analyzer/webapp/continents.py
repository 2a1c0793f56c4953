"""The Continents tab: each continent seen by one player."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from analyzer.analysis.standing import living_players
from analyzer.game.state import GameState
from analyzer.limits import MAX_ARMIES
from analyzer.webapp.cached import cached_continents, position_json
from analyzer.webapp.inputs import whole_number


def continents_view(game: GameState, names: list[str]) -> None:
    alive = living_players(game)
    player_col, stop_col = st.columns([3, 1])
    player = player_col.selectbox(
        "Seen by",
        alive,
        index=alive.index(game.player) if game.player in alive else 0,
        format_func=lambda p: names[p],
        key="continent_player",
    )
    with stop_col:
        stop_at = whole_number("Attacking stacks stop at", 1, MAX_ARMIES - 1, value=1, key="continent_stop")
    if stop_at is None:
        return
    table = cached_continents(position_json(game), player, stop_at).copy()
    table["holder"] = [names[int(h)] if not pd.isna(h) else "" for h in table["holder"]]
    st.caption(
        "Completing: every stack of the player's that borders a missing territory attacks this turn, before "
        "reinforcements (the conquest solver's plan). The cost is the expected armies lost, exact along "
        "single paths. Value per turn: the bonus plus the rise in territories ÷ 3. Borders list the "
        "largest enemy stack next to each."
    )
    st.dataframe(
        table,
        hide_index=True,
        # The figures that decide first, beside the continent's name, which stays in view: a phone shows three
        # columns before it scrolls sideways, and the lists of territories are the widest.
        column_order=[
            "continent",
            "p_complete",
            "expected_cost",
            "value_per_turn",
            "bonus",
            "holder",
            "owned",
            "size",
            "missing",
            "missing_defenders",
            "staging",
            "borders",
            "cost_exact",
            "notes",
        ],
        column_config={
            "continent": st.column_config.TextColumn("Continent", pinned=True),
            "bonus": "Bonus",
            "holder": "Held by",
            "owned": "Owned",
            "size": "Of",
            "borders": "Borders to defend (largest enemy stack)",
            "missing": "Missing",
            "missing_defenders": "Armies on them",
            "staging": "Attacking from",
            "p_complete": st.column_config.ProgressColumn(
                "P(complete)", format="percent", min_value=0.0, max_value=1.0
            ),
            "expected_cost": st.column_config.NumberColumn("Expected cost", format="%.2f"),
            "cost_exact": st.column_config.CheckboxColumn("Cost exact"),
            "value_per_turn": st.column_config.NumberColumn("Armies per turn"),
            "notes": "Notes",
        },
    )
