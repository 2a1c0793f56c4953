"""The Reinforcements tab: what each player gets next turn."""

from __future__ import annotations

import streamlit as st

from analyzer.analysis.position import reinforcement_forecast
from analyzer.game.state import GameState

def reinforcements_view(game: GameState, names: list[str]) -> None:
    forecast = reinforcement_forecast(game)
    forecast.insert(0, "name", [names[p] for p in forecast["player"]])
    st.caption(f"At the start of each player's next turn. The next set traded is worth {game.next_set_value()} "
               "armies; every trade before a player's turn raises it.")
    st.dataframe(forecast.drop(columns="player"), hide_index=True)
    st.bar_chart(forecast.set_index("name")[["from_territories", "from_continents", "set_value"]], stack=True)
