"""The open game's page: the header, the players, the best attacks, then one tab per view."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from analyzer.analysis.position import reinforcement_forecast
from analyzer.game.state import GameState, turn_number
from analyzer.services.saving import Saved, file_text
from analyzer.text import file_name, plain
from analyzer.webapp.board import board_view
from analyzer.webapp.cached import cached_suggestions, position_json
from analyzer.webapp.continents import continents_view
from analyzer.webapp.players import players_view
from analyzer.webapp.record import is_live, render
from analyzer.webapp.reinforcements import reinforcements_view
from analyzer.webapp.review_view import review_view
from analyzer.webapp.session import (
    GAME,
    GAME_NAME,
    STORE_ERROR,
    STORED_ID,
    TAB,
    TAB_PARAM,
    VERSION,
    close_game,
    commit,
    shown_errors,
    store_message,
    watch_store,
)
from analyzer.webapp.start_page import upload_game
from analyzer.webapp.strip import strip_figures, win_chart
from analyzer.webapp.suggestions import suggestions_view
from analyzer.webapp.tables import tables_view

#: Session key: the view each game (by its stored id) opened on in this session.
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
    title = st.session_state.get(GAME_NAME) or "Game"
    title_col.subheader(plain(title))
    close_col.button("All games", on_click=close_game, key="close_game")
    live = is_live(game)
    if not live:
        game_header(game, names)
    with st.expander("Share, save or open another game"):
        if st.session_state.get(STORED_ID) is not None:
            st.caption("This page's address opens this game on any device; every change is saved as it is made.")
        st.download_button(
            "Save game",
            data=saved_game_now(title),
            file_name=file_name(title, ".json"),
            mime="application/json",
            key="save_game",
            on_click="ignore",  # nothing on the page changes: a rerun would only race the download
        )
        upload_game()
    labels = [label for label, _ in VIEWS]
    # The open view is in the URL (``?tab=``) at every run, the default one too, so a reload opens it again:
    # a random setup that became live with an Apply on the Board view reloads on Board, not on Record.
    opening: dict[object, str] = st.session_state.setdefault(OPENING_VIEW, {})
    game_id = st.session_state.get(STORED_ID)
    # Also when the tabs were last drawn before the start page (Streamlit forgets a widget not drawn in a run):
    # "All games", then "Open", opens the game on the view it opens on, not on the first tab.
    if game_id not in opening or st.session_state.get(TAB) not in labels:
        wanted = st.query_params.get(TAB_PARAM)
        opening[game_id] = wanted if wanted in labels else ("Record" if live else labels[0])
        st.session_state[TAB] = opening[game_id]
    tabs = st.tabs(labels, key=TAB, on_change="rerun")
    st.query_params[TAB_PARAM] = st.session_state[TAB]
    in_setup = bool(np.any(game.owner < 0))
    polled = False  # whether the open view polls the store itself (the Record view's strip does)
    for tab, (_, view) in zip(tabs, VIEWS):
        # Tabs track their state, so `open` is False for every tab but the one in view.
        if not tab.open:
            continue
        with tab, shown_errors():
            if live and view is board_view:
                game_header(game, names)
            if in_setup and view not in (board_view, record_view, players_view, tables_view):
                st.info(
                    "This game is still in its setup: this tab needs an owner for every territory. "
                    "Enter them on the Board tab, or start a new game."
                )
                continue
            polled = view is record_view
            changed = view(game, names)
            if changed is not None:
                commit(changed)
                st.rerun()  # the new game, or the fresh one with the refusal, drawn from the top
    if not polled:
        watch_store()


def game_header(game: GameState, names: list[str]) -> None:
    """Whose turn it is, each player's standing and the best attacks."""
    if st.session_state.get(STORED_ID) is not None:
        st.caption(f"Saved: version {st.session_state[VERSION]}")
    st.markdown(
        f"Turn **{turn_number(game)}** · {game.phase.name.replace('_', ' ').lower()} · "
        f"**{plain(names[game.player])}** to play"
    )
    st.dataframe(players_summary(game, names), hide_index=True, key="players_summary")
    if not np.any(game.owner < 0):
        top_attacks(game, names)


def record_view(game: GameState, names: list[str]) -> None:
    """The Record tab: the live-game panel and the win-chance strip's figures, rerun together by an entry, then
    the chart of the turns, rerun on its own.

    The strip comes after the panel: above it, it moved the entry buttons down under a tap already on its way
    (in a browser test, about one run in six, the tap landed beside "Place").
    """
    record_fragment(names)
    win_chart(names)


@st.fragment
def record_fragment(names: list[str]) -> None:
    """The Record view, rerun on its own: an entry redraws the panel, not the page around it.

    The game is read from the session at each run, so the panel always shows
    the game as stored now. An entry is saved against the version the panel
    showed when it was made: a refusal (the game changed elsewhere) shows its
    message at the entry, and leaves the entry in the panel's widgets.
    """
    render(st.session_state[GAME], "live", save_entry, version=st.session_state.get(VERSION))
    strip_figures(st.session_state[GAME], names)


def save_entry(game: GameState, version: int | None) -> Saved:
    """Store ``game``, an entry made on ``version`` of the open game. A refusal's message is shown at the entry,
    not at the top of the page."""
    saved = commit(game, expected_version=version)
    if saved.refused:
        st.session_state.pop(STORE_ERROR, None)
    return saved


def saved_game_now(name: str) -> Callable[[], str]:
    """The file "Save game" offers (:func:`~analyzer.services.saving.file_text`, the game's ``name`` kept in it),
    made when the button is pressed: the game the page holds then.

    The button is drawn by the page's run, and the Record view's entries rerun only their own fragment: a file
    made at the page's run would miss every entry made since. The press is served on another thread, where
    ``st.session_state`` is not this session's, so the session's own state is read.
    """
    ctx = get_script_run_ctx()
    if ctx is None:  # the page run without a server (AppTest): no entry can come between the run and the press
        game = st.session_state[GAME]
        return lambda: file_text(game, name)
    state = ctx.session_state
    return lambda: file_text(state[GAME], name)


def players_summary(game: GameState, names: list[str]) -> pd.DataFrame:
    """Each player's territories, armies, cards and the reinforcements due at the start of their next turn."""
    forecast = reinforcement_forecast(game).set_index("player")
    seats = range(game.n_players)
    due = [int(forecast.loc[p, "base"]) if p in forecast.index else 0 for p in seats]
    if game.phase.name == "REINFORCE":
        due[game.player] = int(game.pending)  # what is still to place this turn
    return pd.DataFrame(
        {
            "Player": [("▶ " if p == game.player else "") + names[p] for p in seats],
            "Territories": [int(np.count_nonzero(game.owner == p)) for p in seats],
            "Armies": [int(game.armies[game.owner == p].sum()) for p in seats],
            "Cards": [len(game.hand(p)) for p in seats],
            "Set?": [bool(forecast.loc[p, "has_set"]) if p in forecast.index else False for p in seats],
            "Due": due,
        }
    )


def top_attacks(game: GameState, names: list[str]) -> None:
    table = cached_suggestions(position_json(game), int(game.player), 1).head(TOP_ATTACKS)
    # Ranked first is not the same as worth making: said when even the first loses armies on average.
    losing = "; none gains armies on average" if len(table) and table["expected_gain"].max() <= 0 else ""
    st.caption(
        f"Best attacks for {plain(names[game.player])} (expected gain in armies; all on the Suggestions tab){losing}"
    )
    if table.empty:
        st.caption("No attack possible.")
        return
    shown = table[["source", "target", "attackers", "defenders", "p_win", "expected_gain"]].set_axis(
        ["From", "To", "A", "D", "P(win)", "Gain"], axis=1
    )
    # Widths that fit a 390 px phone's 358 px, where the columns' own widths cut off the gain, the column ranked by.
    st.dataframe(
        shown,
        hide_index=True,
        key="top_attacks",
        column_config={
            "From": st.column_config.TextColumn(width=92),
            "To": st.column_config.TextColumn(width=92),
            "A": st.column_config.NumberColumn(width=36),
            "D": st.column_config.NumberColumn(width=36),
            "P(win)": st.column_config.NumberColumn(format="percent", width=62),
            "Gain": st.column_config.NumberColumn(format="%.2f", width=40),
        },
    )


#: The tabs of an open game, in order: (label, view). A view returning a game has it stored.
VIEWS: tuple[tuple[str, Callable[[GameState, list[str]], GameState | None]], ...] = (  # Record saves its own entries
    ("Board", board_view),
    ("Record", record_view),
    ("Players & cards", players_view),
    ("Continents", continents_view),
    ("Reinforcements", reinforcements_view),
    ("Suggestions", suggestions_view),
    ("Review", review_view),
    ("Tables", tables_view),
)
