"""Session-state keys, the game store and the open game: what every view of the app shares."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

import streamlit as st

from analyzer.errors import RiskAnalyzerError, StoreError
from analyzer.game.state import GameState
from analyzer.services.saving import CHANGED_WHILE_UNSAVED, Saved, poll_seconds, save
from analyzer.store import GameStore, StoredGame, default_path
from analyzer.text import plain

#: Session-state keys.
GAME = "game"
STORED_ID = "stored_id"
VERSION = "version"
GAME_NAME = "game_name"
GENERATION = "generation"
STORE_ERROR = "store_error"
#: Whether the page holds entries the store never got (it could not be written): the game is the page's own.
PAGE_ONLY = "page_only"
#: The fields of the open game's forms applied by a button, by name, with the value each was drawn with (:func:`edit_key`).
EDITS = "edits"
#: Set when another device's change redrew the page and fields changed but not applied were carried over to it.
CARRIED = "carried"
LOAD_ERROR = "load_error"
EDIT_ERROR = "edit_error"
PLAYERS_ERROR = "players_error"
REFUSED_TABLE = "refused_table"
CHAIN_ERROR = "chain_error"
UPLOAD = "upload"
N_PLAYERS = "n_players"
SEED = "seed"
NEW_NAME = "new_name"
#: The start page's search of the stored games, and how many of those it finds it shows.
FIND_GAME = "find_game"
GAMES_SHOWN = "games_shown"
TAB = "tab"
PICK = "pick"
MAP = "map"
MAP_OF = "map_of"
EDIT_OWNER = "edit_owner"
EDIT_ARMIES = "edit_armies"
CHANCES = "chances"
TURN_TIP = "turn_tip"
#: The Apply button (by its key) whose last press changed nothing, to say so under it once.
UNCHANGED = "unchanged"
#: The URL parameters that carry the open game's id and its open view.
GAME_PARAM = "game"
TAB_PARAM = "tab"


POLL_SECONDS = poll_seconds()


@contextmanager
def shown_errors() -> Iterator[None]:
    """Show a user-caused error (one of the package's own, :mod:`analyzer.errors`) instead of the traceback; the game is untouched."""
    try:
        yield
    except RiskAnalyzerError as exc:
        st.error(plain(str(exc)))


@st.cache_resource(show_spinner=False)
def _store(path: str) -> GameStore:
    return GameStore(path)


def store() -> GameStore:
    """The game store of this server: the file ``$RISK_ANALYZER_DB`` names, or the default one."""
    return _store(str(default_path()))


def show_stored(stored: StoredGame, *, keep_entries: bool = False) -> None:
    """Show ``stored``; its id goes in the URL.

    Unless ``keep_entries``, the widgets of the game start again from its
    values (their keys change); with it (a refused change), every widget keeps
    what the user entered.
    """
    st.session_state[GAME] = stored.state
    st.session_state[PAGE_ONLY] = False
    st.session_state[STORED_ID] = stored.id
    st.session_state[VERSION] = stored.version
    st.session_state[GAME_NAME] = stored.name
    st.query_params[GAME_PARAM] = stored.id
    if not keep_entries:
        fresh_widgets()


def fresh_widgets() -> None:
    st.session_state[GENERATION] = st.session_state.get(GENERATION, 0) + 1
    for key in (LOAD_ERROR, EDIT_ERROR, PLAYERS_ERROR, REFUSED_TABLE):
        st.session_state[key] = None


def follow_url() -> None:
    """Open the game the URL names, when it is not the one shown.

    Runs first, before any widget is drawn. A newer version of the game shown is
    brought in by :func:`watch_store`, after the page has handled the user's
    entries: an entry made on the version shown is then saved against it, or
    refused and kept, never dropped by a game changing under it.
    """
    wanted = st.query_params.get(GAME_PARAM)
    shown = st.session_state.get(STORED_ID)
    if wanted is None:
        if shown is not None:
            # The URL lost its id (the user went back to the start page): the game is closed.
            close_game()
        return
    if wanted == shown:
        return
    try:
        show_stored(store().load(wanted))
    except StoreError as exc:
        # The game in memory, if any, stays; the message says why the stored one could not be read.
        st.session_state[STORE_ERROR] = str(exc)


def close_game() -> None:
    for key in (GAME, STORED_ID, VERSION, GAME_NAME, PAGE_ONLY):
        st.session_state.pop(key, None)
    st.query_params.pop(GAME_PARAM, None)
    st.query_params.pop(TAB_PARAM, None)


def new_game(game: GameState, name: str) -> Saved:
    """Store ``game`` as a new game and open it; if the store cannot take it, it is kept in this page only."""
    close_game()
    st.session_state[GAME_NAME] = name
    return commit(game)


def commit(game: GameState, *, expected_version: int | None = None) -> Saved:
    """Store ``game`` as the next version of the open one and show it: the outcome (refused, when a newer
    version was saved first).

    ``game`` is saved against ``expected_version`` (default: the version shown now); a game not stored
    yet (the store failed when it was made) is stored now. On a refusal the fresh game is shown and
    every widget keeps the user's entry, to apply again. When the store cannot be written the game is
    kept in this page, with the message.
    """
    version = st.session_state.get(VERSION) if expected_version is None else expected_version
    try:
        games = store()
    except StoreError as exc:
        saved = Saved.failed(exc)
    else:
        name = st.session_state.get(GAME_NAME) or default_name()
        saved = save(games, game, game_id=st.session_state.get(STORED_ID), version=version, name=name)
        if saved.refused and st.session_state.get(PAGE_ONLY):
            # Showing the stored game would drop the entries only this page holds: both games stay where they are.
            saved = Saved(None, problem=CHANGED_WHILE_UNSAVED)
    st.session_state[STORE_ERROR] = saved.refused or saved.problem
    if saved.stored is None:
        st.session_state[GAME] = game
        st.session_state[PAGE_ONLY] = True
        fresh_widgets()
    else:
        show_stored(saved.stored, keep_entries=not saved.kept)
    return saved


@st.fragment(run_every=POLL_SECONDS)
def watch_store() -> None:
    """Show the game as stored now when another device saved a new version of it.

    Drawn last on the page, so a full run handles the user's entries first; on
    its own it runs every :data:`POLL_SECONDS`, and only reruns the page when the
    version moved. A view with a poll of its own (the Record view's win-chance
    strip) calls :func:`follow_store` in it instead, so that the page polls once.
    """
    follow_store()


def edit_key(name: str, shown: object) -> str:
    """:func:`game_key` of a field of a form applied by a button, noting ``shown``, the value it is drawn with: a
    value changed and not applied yet is carried over when another device's change redraws the page
    (:func:`follow_store`), rather than lost with the widget's key."""
    st.session_state.setdefault(EDITS, {})[name] = shown
    return game_key(name)


def _unapplied() -> dict[str, object]:
    """The fields drawn by :func:`edit_key` whose value is not the one they were drawn with, by name."""
    drawn = st.session_state.get(EDITS) or {}
    values = {name: st.session_state.get(game_key(name), shown) for name, shown in drawn.items()}
    return {name: value for name, value in values.items() if value != drawn[name]}


def follow_store() -> None:
    """Rerun the page with the game as stored now, if another device saved a new version of it since it was shown."""
    game_id = st.session_state.get(STORED_ID)
    if game_id is None:
        return
    try:
        version, name = store().head(game_id)
        if version == st.session_state.get(VERSION):
            if name == st.session_state.get(GAME_NAME):
                return
            st.session_state[GAME_NAME] = name  # renamed on another device: the title and the file's name follow
        elif st.session_state.get(PAGE_ONLY):
            # The page holds entries the store never got: the other device's game is not put over them.
            if st.session_state.get(STORE_ERROR) == CHANGED_WHILE_UNSAVED:
                return
            st.session_state[STORE_ERROR] = CHANGED_WHILE_UNSAVED
        else:
            carried = _unapplied()
            show_stored(store().load(game_id))
            # The fields start again from the new game, but for those the user changed and has not applied.
            st.session_state[EDITS] = {}
            for field, value in carried.items():
                st.session_state[game_key(field)] = value
            st.session_state[CARRIED] = bool(carried)
    except StoreError:
        return  # the game shown stays; the next change saved says what is wrong
    st.rerun(scope="app")


def store_message() -> None:
    if st.session_state.get(STORE_ERROR):
        st.error(plain(st.session_state[STORE_ERROR]))


def default_name() -> str:
    return f"Game of {datetime.now().strftime('%d %b %H:%M')}"


def game_key(name: str) -> str:
    """A widget key that changes with the game, so the widget shows the new game's value."""
    return f"{name}-{st.session_state.get(GENERATION, 0)}"


def say_unchanged(button: str) -> None:
    """Note that a press of the Apply button ``button`` changed nothing, for :func:`unchanged_note` to say."""
    st.session_state[UNCHANGED] = button


def unchanged_note(button: str) -> None:
    """Under the Apply button ``button``: that its last press changed nothing (nothing saved), said once."""
    if st.session_state.get(UNCHANGED) == button:
        del st.session_state[UNCHANGED]
        st.info("Nothing to apply: the entries are what the game already holds, so nothing was saved.")
