"""The Board tab: the map, the quick edit of picked territories and the territory table."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import partial
from typing import Any

import pandas as pd
import streamlit as st

from analyzer.analysis.continents import continents_overview
from analyzer.errors import PositionError, RiskAnalyzerError
from analyzer.game.actions import Territory
from analyzer.game.labels import player_colors, player_names
from analyzer.game.state import GameState
from analyzer.limits import MAX_ARMIES
from analyzer.live import corrected
from analyzer.plot import PICK_SELECTION, chart_picks
from analyzer.services.entries import cell_number
from analyzer.services.saving import unchanged
from analyzer.text import plain
from analyzer.webapp.cached import map_spec, position_json
from analyzer.webapp.inputs import number_box
from analyzer.webapp.maps import map_of
from analyzer.webapp.session import (
    EDIT_ARMIES,
    EDIT_ERROR,
    EDIT_OWNER,
    GAME,
    MAP,
    MAP_OF,
    PICK,
    REFUSED_TABLE,
    STORE_ERROR,
    VERSION,
    commit,
    game_key,
    say_unchanged,
    unchanged_note,
)


def board_view(game: GameState, names: list[str]) -> GameState | None:
    board = game.board
    map_col, edit_col = st.columns([3, 2])
    with edit_col:
        picked = st.multiselect(
            "Pick territories (type to search, or click them on the map): ringed on the map, edited here",
            board.territories,
            key=PICK,
            accept_new_options=True,
        )
        quick_edit(game, names, picked)
        st.subheader("Territories")
        edited = territory_editor(game, names)
    with map_col:
        known = [t for t in picked if t in board.territories]
        shown = map_of(board, MAP_OF)
        key = map_key(picked, shown)
        with st.container(key="board_map"):
            st.vega_lite_chart(
                spec=map_spec(
                    position_json(game),
                    tuple(names),
                    tuple(player_colors(game, neutral=True)),
                    tuple(known),
                    continent=shown,
                ),
                key=key,
                on_select=partial(pick_on_map, key),
                selection_mode=PICK_SELECTION,
                width="content",
            )
        st.subheader("Continents")
        st.dataframe(continents_overview(board, game, names), hide_index=True)
    return edited


def map_key(picked: Sequence[str], continent: int | None = None) -> str:
    """The map's key: another one, and so a chart with nothing selected, whenever the picked list or the
    continent shown changes.

    The chart reports a click only when its selection changes, so a territory dropped from the
    list must not still count as selected there, or clicking it again would do nothing.
    """
    shown = "" if continent is None else str(continent)
    return f"{MAP}-{hashlib.blake2s(chr(0).join([shown, *picked]).encode(), digest_size=8).hexdigest()}"


def pick_on_map(key: str) -> None:
    """Add the territory clicked on the map to the picked ones.

    A callback: it runs before the script, while the picker (drawn before the map) can still be set.
    """
    clicked = chart_picks(st.session_state[key]["selection"], st.session_state[GAME].board)
    picked = list(st.session_state.get(PICK) or [])
    st.session_state[PICK] = picked + [t for t in clicked if t not in picked]


def quick_edit(game: GameState, names: list[str], picked: Sequence[str]) -> None:
    owner_col, armies_col = st.columns(2)
    owner_col.selectbox("New owner", names, index=None, placeholder="keep", key=EDIT_OWNER)
    # No bounds here (the browser would keep the last good value): the engine's check names the territory and value.
    number_box(armies_col, "Armies on each", value=None, placeholder="keep", key=EDIT_ARMIES)
    # The edit is made on the game shown, and saved against its version: a change saved meanwhile on another
    # device (and perhaps already brought in by the polling) refuses it, instead of receiving it unseen.
    st.button(
        "Apply to the picked territories",
        on_click=apply_quick_edit,
        args=(game, st.session_state.get(VERSION)),
        disabled=not picked,
        key="apply_quick_edit",
    )
    if st.session_state.get(EDIT_ERROR):
        st.error(plain(st.session_state[EDIT_ERROR]))
    unchanged_note("apply_quick_edit")


def apply_quick_edit(game: GameState, version: int | None) -> None:
    names = player_names(game)
    picked = st.session_state.get(PICK) or []
    owner, armies = st.session_state.get(EDIT_OWNER), cell_number(st.session_state.get(EDIT_ARMIES))
    try:
        # Names are resolved by the board, which refuses an unknown one and suggests the nearest.
        ids = [game.board.index(t) for t in picked]
        # A recorded game gets a correction entry, its history kept; a typed position is typed again.
        edited = corrected(
            game,
            owners={t: names.index(owner) for t in ids} if owner is not None else None,
            armies={t: armies for t in ids} if armies is not None else None,
        )
    except RiskAnalyzerError as exc:
        st.session_state[EDIT_ERROR] = str(exc)
        return
    st.session_state[EDIT_ERROR] = None
    if unchanged(edited, game):
        say_unchanged("apply_quick_edit")
    elif not commit(edited, expected_version=version).kept:
        st.session_state[EDIT_ERROR] = st.session_state.pop(STORE_ERROR, None)


def territory_editor(game: GameState, names: list[str]) -> GameState | None:
    """The editable table: a changed cell is applied at once, or refused with its message and left in place.

    Returns the edited game, for the caller to store. Entries refused because the game changed elsewhere stay
    in the table, not applied again until the user says so.
    """
    board = game.board
    table = pd.DataFrame(
        {
            "Territory": board.territories,
            "Owner": [names[int(pid)] if pid >= 0 else "" for pid in game.owner],
            "Armies": game.armies.astype(int),
        }
    )
    edited = st.data_editor(
        table,
        key=game_key("editor"),
        hide_index=True,
        disabled=["Territory"],
        column_config={
            "Owner": st.column_config.SelectboxColumn("Owner", options=names, required=True),
            # No bounds here (the browser would keep the last good value): the check below names the value.
            "Armies": st.column_config.NumberColumn("Armies", step=1, format="%d"),
        },
    )
    changed = [t for t in range(len(table)) if edited.at[t, "Owner"] != table.at[t, "Owner"]]
    owner_changes: dict[Territory, Any] = {
        board.territories[t]: names.index(edited.at[t, "Owner"]) for t in changed if edited.at[t, "Owner"] in names
    }
    unknown = [board.territories[t] for t in changed if edited.at[t, "Owner"] not in names]
    army_changes: dict[Territory, Any] = {
        board.territories[t]: cell_number(edited.at[t, "Armies"])
        for t in range(len(table))
        if pd.isna(edited.at[t, "Armies"]) or edited.at[t, "Armies"] != table.at[t, "Armies"]
    }
    if not (owner_changes or army_changes or unknown):
        return None
    too_many = [t for t, a in army_changes.items() if not pd.isna(a) and a > MAX_ARMIES]
    if too_many:
        st.error(
            plain(
                f"{too_many[0]}: at most {MAX_ARMIES:,} armies on a territory (the limit on armies), got "
                f"{army_changes[too_many[0]]:,.0f}. The table keeps your entries: correct the value to apply them."
            )
        )
        return None
    entries = repr((sorted(owner_changes.items()), sorted(army_changes.items()), unknown))
    if st.session_state.get(REFUSED_TABLE) == entries:
        st.warning("Your entries in the table were not applied: the game had changed elsewhere.")
        st.button(
            "Apply my table entries to the game as it is now",
            key="apply_table",
            on_click=lambda: st.session_state.update({REFUSED_TABLE: None}),
        )
        return None
    try:
        if unknown:
            raise PositionError(f"{unknown[0]} has no owner; choose one of {', '.join(names)}")
        updated = corrected(game, owners=owner_changes, armies=army_changes)
    except RiskAnalyzerError as exc:
        st.error(plain(f"{exc}. The table keeps your entries: correct the value to apply them."))
        return None
    # Marked before the save: if it is refused the entries stay in the table (its key does not change).
    st.session_state[REFUSED_TABLE] = entries
    return updated
