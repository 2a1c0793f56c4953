"""The start page: the stored games, a new game, a saved file to open."""

from __future__ import annotations

from functools import partial

import numpy as np
import streamlit as st

from analyzer.analysis.continents import continents_overview
from analyzer.analysis.position import blank_position
from analyzer.errors import RiskAnalyzerError, StoreError
from analyzer.game.board import classic_board
from analyzer.game.state import GameState
from analyzer.limits import MAX_NAME_LENGTH
from analyzer.live import LiveGame
from analyzer.services.entries import bounds_problem
from analyzer.services.game_list import PAGE, listing
from analyzer.services.saving import file_text, opened, stored_already
from analyzer.store import GameSummary
from analyzer.text import ago, file_name, plain
from analyzer.webapp.cached import bare_map_png
from analyzer.webapp.inputs import whole_number
from analyzer.webapp.record import render
from analyzer.webapp.session import (
    FIND_GAME,
    GAME_NAME,
    GAMES_SHOWN,
    LOAD_ERROR,
    N_PLAYERS,
    NEW_NAME,
    SEED,
    STORE_ERROR,
    STORED_ID,
    UPLOAD,
    close_game,
    default_name,
    new_game,
    show_stored,
    store,
    store_message,
)
from analyzer.webapp.uploads import game_uploader

#: The largest seed a new random setup takes.
MAX_SEED = 2**32 - 1


def start_page() -> None:
    """The stored games, to open, rename, delete or download; a new game; a saved file to upload."""
    store_message()
    st.subheader("Games")
    unreadable = False
    try:
        games, deleted = store().list(), store().deleted_games()
    except StoreError as exc:
        st.error(plain(f"{exc}. New games are kept in this page only."))
        games, deleted, unreadable = [], [], True
    if not games and deleted:
        st.caption("No game listed: start one below, or restore one of the deleted games.")
    elif not games and not unreadable and not st.session_state.get(STORE_ERROR):
        st.caption(
            "No stored game yet: start one below. Each game is saved as it changes, and its page address "
            "opens it again, here or on another device."
        )
    search = ""
    if len(games) > PAGE:
        search = st.text_input(
            "Find a game", key=FIND_GAME, placeholder="Part of its name or of a player's", on_change=first_page
        )
    found = listing(games, search, st.session_state.get(GAMES_SHOWN, PAGE))
    if found.search and not found.found:
        st.caption(plain(f"No game's name or players' names hold '{found.search}'."))
    for summary in found.shown:
        with st.container(border=True, key=f"stored-{summary.id}"):
            st.markdown(
                f"**{plain(summary.name)}**  \n{plain(', '.join(summary.players))} · turn {summary.turn} · "
                f"changed {ago(summary.updated)}"
            )
            # One row that wraps, not columns: on a phone columns stack, four rows of buttons to every game.
            row = st.container(horizontal=True)
            row.button("Open", key=f"open-{summary.id}", on_click=open_game, args=(summary.id,), type="primary")
            with row.popover("Rename"):
                st.text_input(
                    "New name",
                    value=summary.name,
                    key=f"rename-{summary.id}",
                    max_chars=MAX_NAME_LENGTH,
                    on_change=rename_game,
                    args=(summary.id,),
                )
            row.download_button(
                "JSON",
                data=partial(stored_json, summary.id),
                key=f"download-{summary.id}",
                file_name=file_name(summary.name, ".json"),
                mime="application/json",
                on_click="ignore",
            )
            with row.popover("Delete"):
                st.button(
                    "Delete this game", key=f"delete-{summary.id}", on_click=in_store, args=("delete", summary.id)
                )
                st.caption("It can be restored from Deleted games, below the list.")
    if found.found > len(found.shown):
        st.caption(
            f"{len(found.shown)} of the {found.found} games found, the last changed first."
            if found.search
            else f"{len(found.shown)} of {found.stored} games, the last changed first."
        )
        st.button(f"Show {min(PAGE, found.found - len(found.shown))} more", key="more_games", on_click=more_games)
    if deleted:
        deleted_games(deleted)
    st.subheader("New game")
    st.text_input("Name", key=NEW_NAME, max_chars=MAX_NAME_LENGTH, placeholder=default_name())
    players_col, seed_col = st.columns(2)
    players_col.slider("Players", min_value=2, max_value=6, value=3, key=N_PLAYERS)
    with seed_col:
        seed_ok = whole_number("Seed", 0, MAX_SEED, value=1, key=SEED) is not None
    random_col, blank_col = st.columns(2)
    random_col.button(
        "New random setup", on_click=new_random_setup, type="primary", key="new_random", disabled=not seed_ok
    )
    blank_col.button(
        "New blank game",
        on_click=new_blank_game,
        key="new_blank",
        help="Territories dealt round the table with one army each, to type a real game over.",
    )
    with st.expander("Follow a game at the table, move by move"):
        render(None, "live-start", lambda game, _version: new_game(game, chosen_name()))
    upload_game()
    st.subheader("Classic map")
    st.image(bare_map_png())
    st.dataframe(continents_overview(classic_board()), hide_index=True)


def first_page() -> None:
    st.session_state[GAMES_SHOWN] = PAGE


def more_games() -> None:
    st.session_state[GAMES_SHOWN] = st.session_state.get(GAMES_SHOWN, PAGE) + PAGE


def upload_game() -> None:
    game_uploader("Open a saved game (JSON)", UPLOAD, on_change=load_upload)
    if st.session_state.get(LOAD_ERROR):
        st.error(plain(st.session_state[LOAD_ERROR]))


def stored_json(game_id: str) -> str:
    try:
        stored = store().load(game_id)
        return file_text(stored.state, stored.name)
    except StoreError as exc:
        return str(exc)


def open_game(game_id: str) -> None:
    try:
        show_stored(store().load(game_id))
        st.session_state[STORE_ERROR] = None
    except StoreError as exc:
        st.session_state[STORE_ERROR] = str(exc)


def rename_game(game_id: str) -> None:
    try:
        store().rename(game_id, st.session_state[f"rename-{game_id}"])
        st.session_state[STORE_ERROR] = None
        if st.session_state.get(STORED_ID) == game_id:
            st.session_state[GAME_NAME] = st.session_state[f"rename-{game_id}"].strip()
    except StoreError as exc:
        st.session_state[STORE_ERROR] = str(exc)


def deleted_games(deleted: list[GameSummary]) -> None:
    """The games deleted, to restore or delete for good: on a club's server any phone can delete any table's game."""
    with st.expander(f"Deleted games ({len(deleted)})"):
        for summary in deleted:
            when = ago(summary.deleted) if summary.deleted is not None else ""
            st.markdown(f"**{plain(summary.name)}**  \n{plain(', '.join(summary.players))} · deleted {when}")
            row = st.container(horizontal=True)
            row.button("Restore", key=f"restore-{summary.id}", on_click=in_store, args=("restore", summary.id))
            with row.popover("Delete for good"):
                st.button(
                    "Delete this game and its history for good",
                    key=f"purge-{summary.id}",
                    on_click=in_store,
                    args=("purge", summary.id),
                )


def in_store(change: str, game_id: str) -> None:
    """Make the store's ``change`` (``delete``, ``restore`` or ``purge``) to game ``game_id``; a refusal is said at
    the top of the start page."""
    try:
        getattr(store(), change)(game_id)
        st.session_state[STORE_ERROR] = None
    except StoreError as exc:
        st.session_state[STORE_ERROR] = str(exc)


def chosen_name() -> str:
    return str(st.session_state.get(NEW_NAME) or "").strip() or default_name()


def new_random_setup() -> None:
    seed = st.session_state[SEED]
    if bounds_problem(seed, 0, MAX_SEED):
        return  # the field says why; a seed the user did not type is never used
    rng = np.random.default_rng(int(seed))
    new_game(GameState.random_start(int(st.session_state[N_PLAYERS]), rng), chosen_name())


def new_blank_game() -> None:
    new_game(blank_position(int(st.session_state[N_PLAYERS])), chosen_name())


def load_upload() -> None:
    # A callback, not a check in the script body: the uploader keeps its file across reruns, and
    # reloading it on each one would undo every later "New random setup".
    upload = st.session_state[UPLOAD]
    st.session_state[LOAD_ERROR] = None
    if upload is None:
        return
    try:
        game = GameState.from_json(upload.getvalue())
        LiveGame.check(game)
    except RiskAnalyzerError as exc:
        # Bad JSON, bad UTF-8, a malformed state or labels are all the package's errors; the current game is kept.
        st.session_state[LOAD_ERROR] = f"Could not load {upload.name}: {exc}"
        return
    game, name = opened(game, upload.name)
    name = name or default_name()
    try:
        same = stored_already(store(), game, name)
    except StoreError:
        same = None  # storing it says what the store did
    if same is None:
        new_game(game, name)
        return
    close_game()
    show_stored(same)
    st.toast(plain(f"{name} is stored already as it is in {upload.name}: opened it, with no copy stored beside it."))
