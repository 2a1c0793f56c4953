"""The Reinforcements tab: what each player gets next turn."""

from __future__ import annotations

import streamlit as st

from analyzer.analysis.position import reinforcement_forecast
from analyzer.game.state import GameState


def reinforcements_view(game: GameState, names: list[str]) -> None:
    forecast = reinforcement_forecast(game)
    forecast.insert(0, "name", [names[p] for p in forecast["player"]])
    st.caption(
        f"At the start of each player's next turn. The next set traded is worth {game.next_set_value()} "
        "armies; every trade before a player's turn raises it."
    )
    st.dataframe(
        forecast.drop(columns="player"),
        hide_index=True,
        # What each player gets first, beside the player's name, which stays in view: a phone shows three columns
        # before it scrolls sideways.
        column_order=[
            "name",
            "base",
            "with_set",
            "cards",
            "p_set",
            "set_value",
            "has_set",
            "must_trade",
            "face_down",
            "territories",
            "from_territories",
            "continents",
            "from_continents",
        ],
        column_config={
            "name": st.column_config.TextColumn("Player", pinned=True),
            "territories": "Territories",
            "from_territories": "From territories",
            "continents": "Continents held",
            "from_continents": "From continents",
            "base": "Without cards",
            "cards": "Cards",
            "face_down": "Face down",
            "p_set": st.column_config.NumberColumn("Chance of a set", format="percent"),
            "has_set": st.column_config.CheckboxColumn("Has a set"),
            "must_trade": st.column_config.CheckboxColumn("Must trade"),
            "set_value": "A set would bring",
            "with_set": "With a set traded",
        },
    )
    parts = forecast.set_index("name")[["from_territories", "from_continents", "set_value"]]
    parts["set_value"] = parts["set_value"].where(forecast.set_index("name")["has_set"], 0)  # a set held for sure
    parts.columns = ["From territories", "From continents", "From a set held"]
    st.bar_chart(parts, stack=True)
