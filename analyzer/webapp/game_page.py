"""The open game's page: the header, the players, the best attacks, then one tab per view."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st

from analyzer.analysis.position import reinforcement_forecast
from analyzer.game.state import GameState, turn_number
from analyzer.text import plain
from analyzer.webapp.board import board_view
from analyzer.webapp.cached import cached_suggestions, position_json
from analyzer.webapp.continents import continents_view
from analyzer.webapp.players import players_view
from analyzer.webapp.record import is_live, record_view, render
from analyzer.webapp.reinforcements import reinforcements_view
from analyzer.webapp.review_view import review_view
from analyzer.webapp.session import (
    GAME,
    GAME_NAME,
    RECORD_ERROR,
    STORE_ERROR,
    STORED_ID,
    TAB,
    VERSION,
    close_game,
    commit,
    shown_errors,
    store_message,
    watch_store,
)
from analyzer.webapp.start_page import upload_game
from analyzer.webapp.strip import win_strip
from analyzer.webapp.suggestions import suggestions_view
from analyzer.webapp.tables import tables_view

#: Session key: the view each game (by its stored id) opened on.
OPENING_VIEW = "opening_view"

#: Attacks shown on the game's front page; the Suggestions tab has them all.
TOP_ATTACKS = 5


def game_page(game: GameState, names: list[str]) -> None:
    """The open game: its title, then one tab per view, the open one kept in the URL (``?tab=``) across a reload.

    A game followed live opens on the Record view and keeps its header and
    tables on the Board view: at the table the next entry is what is wanted
    first, and on a phone everything above it is a screen to scroll past.
    """
    store_message()
    title_col, close_col = st.columns([4, 1])
    title_col.subheader(plain(st.session_state.get(GAME_NAME) or "Game"))
    close_col.button("All games", on_click=close_game, key="close_game")
    live = is_live(game)
    if not live:
        game_header(game, names)
    with st.expander("Share, save or open another game"):
        if st.session_state.get(STORED_ID) is not None:
            st.caption("This page's address opens this game on any device; every change is saved as it is made.")
        st.download_button("Save game", data=saved_game(game), file_name="risk-game.json", mime="application/json",
                           key="save_game")
        upload_game()
    labels = [label for label, _ in VIEWS]
    # The view a game opens on is chosen once per game: a random setup becomes live with its first entry
    # (an Apply on the Board view), and a changed default would start the tabs afresh on Record.
    opening: dict[object, str] = st.session_state.setdefault(OPENING_VIEW, {})
    default = opening.setdefault(st.session_state.get(STORED_ID), "Record" if live else labels[0])
    tabs = st.tabs(labels, key=TAB, on_change="rerun", bind="query-params", default=default)
    in_setup = bool(np.any(game.owner < 0))
    for tab, (_, view) in zip(tabs, VIEWS):
        # Tabs track their state, so `open` is False for every tab but the one in view.
        if not tab.open:
            continue
        with tab, shown_errors():
            if view is record_view:
                win_strip(names)
                record_fragment()
                continue
            if live and view is board_view:
                game_header(game, names)
            if in_setup and view not in (board_view, players_view, tables_view):
                st.info("This game is still in its setup: this tab needs an owner for every territory. "
                        "Enter them on the Board tab, or start a new game.")
                continue
            changed = view(game, names)
            if changed is not None:
                commit(changed)
                st.rerun()  # the new game, or the fresh one with the refusal, drawn from the top
    watch_store()


def game_header(game: GameState, names: list[str]) -> None:
    """Whose turn it is, each player's standing and the best attacks."""
    if st.session_state.get(STORED_ID) is not None:
        st.caption(f"Saved: version {st.session_state[VERSION]}")
    st.markdown(f"Turn **{turn_number(game)}** · {game.phase.name.replace('_', ' ').lower()} · "
                f"**{plain(names[game.player])}** to play")
    st.dataframe(players_summary(game, names), hide_index=True, key="players_summary")
    if not np.any(game.owner < 0):
        top_attacks(game, names)


@st.fragment
def record_fragment() -> None:
    """The Record view, rerun on its own: an entry redraws the panel, not the page around it.

    The game is read from the session at each run, so the panel always shows
    the game as stored now. A refused save (the game changed elsewhere) shows
    its message here, at the entry, and leaves the entry in the panel's widgets.
    """
    game: GameState = st.session_state[GAME]
    refused = st.session_state.pop(RECORD_ERROR, None)
    new = render(game, "live", message=refused)
    if new is None:
        return
    if not commit(new):
        st.session_state[RECORD_ERROR] = st.session_state.pop(STORE_ERROR, None)
    st.rerun(scope="fragment")


def saved_game(game: GameState) -> str:
    """The file "Save game" offers: the game, its players' names and colours included."""
    return game.to_json()


def players_summary(game: GameState, names: list[str]) -> pd.DataFrame:
    """Each player's territories, armies, cards and the reinforcements due at the start of their next turn."""
    forecast = reinforcement_forecast(game).set_index("player")
    seats = range(game.n_players)
    due = [int(forecast.loc[p, "base"]) if p in forecast.index else 0 for p in seats]
    if game.phase.name == "REINFORCE":
        due[game.player] = int(game.pending)  # what is still to place this turn
    return pd.DataFrame({
        "Player": [("▶ " if p == game.player else "") + names[p] for p in seats],
        "Territories": [int(np.count_nonzero(game.owner == p)) for p in seats],
        "Armies": [int(game.armies[game.owner == p].sum()) for p in seats],
        "Cards": [len(game.hand(p)) for p in seats],
        "Set?": [bool(forecast.loc[p, "has_set"]) if p in forecast.index else False for p in seats],
        "Due": due,
    })


def top_attacks(game: GameState, names: list[str]) -> None:
    table = cached_suggestions(position_json(game), int(game.player), 1).head(TOP_ATTACKS)
    st.caption(f"Best attacks for {plain(names[game.player])} (expected gain in armies; all on the Suggestions tab)")
    if table.empty:
        st.caption("No attack possible.")
        return
    shown = table[["source", "target", "attackers", "defenders", "p_win", "expected_gain"]].set_axis(
        ["From", "To", "A", "D", "P(win)", "Gain"], axis=1)
    st.dataframe(shown, hide_index=True, key="top_attacks", column_config={
        "P(win)": st.column_config.NumberColumn(format="percent"),
        "Gain": st.column_config.NumberColumn(format="%.2f"),
    })


#: The tabs of an open game, in order: (label, view). A view returning a game has it stored.
VIEWS: tuple[tuple[str, Callable[[GameState, list[str]], GameState | None]], ...] = (
    ("Board", board_view),
    ("Record", record_view),
    ("Players & cards", players_view),
    ("Continents", continents_view),
    ("Reinforcements", reinforcements_view),
    ("Suggestions", suggestions_view),
    ("Review", review_view),
    ("Tables", tables_view),
)
