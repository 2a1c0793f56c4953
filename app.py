"""Risk Analyzer in the browser: ``make run`` (or ``streamlit run app.py``).

A live-game companion and a thin layer: the game engine, the drawing and every
analysis live in :mod:`analyzer` (mostly :mod:`analyzer.analysis.position`); this file
only lays them out. The game lives in ``st.session_state`` so it survives
Streamlit's rerun of this script on every interaction. Every edit builds a new
game through the engine's checks; when they refuse it, the message is shown and
the last valid game is kept, with the user's pending entries left in their
widgets.

The tabs are lazy (``on_change="rerun"``): only the open one is computed, and
solver results are cached by position, so an interaction costs one tab.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st
from matplotlib.figure import Figure

from analyzer.analysis.position import (
    attack_odds,
    attack_sources,
    attack_suggestions,
    attack_targets,
    blank_position,
    chain_odds,
    continent_table,
    edit_position,
    player_labels,
    reinforcement_forecast,
    win_chances,
    with_player_labels,
)
from analyzer.solver.battle import armies_needed, battle
from analyzer.solver.tables import TABLES, odds_tables
from analyzer.game.board import SYMBOLS, Board, classic_board
from analyzer.bots.registry import BOTS
from analyzer.solver.chains import chain_armies_needed
from analyzer.plot import (
    NEUTRAL_COLOR,
    PICK_SELECTION,
    PLAYER_COLORS,
    board_chart,
    chart_picks,
    draw_board,
    player_name,
    plot_survivors,
)
from analyzer.game.state import GameState

#: Session-state keys.
GAME = "game"
GAME_ID = "game_id"
LOAD_ERROR = "load_error"
EDIT_ERROR = "edit_error"
PLAYERS_ERROR = "players_error"
UPLOAD = "upload"
N_PLAYERS = "n_players"
SEED = "seed"
TAB = "tab"
PICK = "pick"
MAP = "map"
EDIT_OWNER = "edit_owner"
EDIT_ARMIES = "edit_armies"
ATTACK_FROM = "attack_from"
ATTACK_TO = "attack_to"
STOP_AT = "stop_at"
CHAIN_PATH = "chain_path"
GARRISON = "garrison"
TARGET_P = "target_p"
CHANCES = "chances"

TABS = ("Board", "Players & cards", "Attack odds", "Continents", "Reinforcements", "Suggestions", "Tables")
#: Resolution of the matplotlib pictures (the bare map, the survivors' chart, the heatmaps) at the app's width.
MAP_DPI = 110


def main() -> None:
    st.set_page_config(page_title="Risk Analyzer", layout="wide")
    st.title("Risk Analyzer")
    sidebar()
    game: GameState | None = st.session_state.get(GAME)
    if game is None:
        first_view()
        return
    names = player_names(game)
    st.caption(f"Turn {game.turn} · {game.phase.name.replace('_', ' ').lower()} · {names[game.player]} to play")
    tabs = st.tabs(TABS, key=TAB, on_change="rerun")
    views = (board_view, players_view, odds_view, continents_view, reinforcements_view, suggestions_view, tables_view)
    in_setup = bool(np.any(game.owner < 0))
    for tab, view in zip(tabs, views):
        # Tabs track their state, so `open` is False for every tab but the one in view.
        if not tab.open:
            continue
        with tab, shown_errors():
            if in_setup and view not in (board_view, players_view, tables_view):
                st.info("This game is still in its setup: this tab needs an owner for every territory. "
                        "Enter them on the Board tab, or start a new game.")
            else:
                view(game, names)


@contextmanager
def shown_errors() -> Iterator[None]:
    """Show a user-caused error (the package raises ValueErrors) instead of the traceback; the game is untouched."""
    try:
        yield
    except ValueError as exc:
        st.error(str(exc))


# ---------------------------------------------------------------------------------- the game itself
def set_game(game: GameState) -> None:
    """Replace the game; widgets keyed by the game id start again from the new game's values."""
    st.session_state[GAME] = game
    st.session_state[GAME_ID] = st.session_state.get(GAME_ID, 0) + 1
    for key in (LOAD_ERROR, EDIT_ERROR, PLAYERS_ERROR):
        st.session_state[key] = None


def game_key(name: str) -> str:
    """A widget key that changes with the game, so the widget shows the new game's value."""
    return f"{name}-{st.session_state.get(GAME_ID, 0)}"


def player_names(game: GameState) -> list[str]:
    """Display names of the forces of ``game``: the names typed in the sidebar, then "Neutral" in a 2-player game."""
    names = [str(st.session_state.get(f"name{p}") or player_name(p)).strip() or player_name(p)
             for p in range(game.n_players)]
    return names + (["Neutral"] if game.neutral is not None else [])


def player_colors(game: GameState) -> list[str]:
    colors = [str(st.session_state.get(f"color{p}") or PLAYER_COLORS[p]) for p in range(game.n_players)]
    return colors + ([NEUTRAL_COLOR] if game.neutral is not None else [])


def sidebar() -> None:
    with st.sidebar:
        st.header("Game")
        st.slider("Players", min_value=2, max_value=6, value=3, key=N_PLAYERS)
        st.number_input("Seed", min_value=0, value=1, step=1, key=SEED)
        st.button("New random setup", on_click=new_random_setup, type="primary", key="new_random")
        st.button("New blank game", on_click=new_blank_game, key="new_blank",
                  help="Territories dealt round the table with one army each, to type a real game over.")
        game: GameState | None = st.session_state.get(GAME)
        if game is not None:
            with st.expander("Players: names and colours"):
                for p in range(game.n_players):
                    # Defaults go through session state rather than `value=`: loading a game writes its
                    # names into these keys, and a widget takes one source of its value, not two.
                    st.session_state.setdefault(f"name{p}", player_name(p))
                    st.session_state.setdefault(f"color{p}", PLAYER_COLORS[p])
                    name_col, color_col = st.columns([4, 1])
                    name_col.text_input(f"Name of seat {p + 1}", key=f"name{p}")
                    color_col.color_picker("Colour", key=f"color{p}")
                names = player_names(game)
                if len(set(names)) < len(names):
                    st.warning("Two players have the same name; the tables will not tell them apart.")
            st.download_button("Save game", data=saved_game(game), file_name="risk-game.json",
                               mime="application/json")
        st.file_uploader("Load a saved game", type="json", key=UPLOAD, on_change=load_upload)
        if st.session_state.get(LOAD_ERROR):
            st.error(st.session_state[LOAD_ERROR])


def new_random_setup() -> None:
    rng = np.random.default_rng(int(st.session_state[SEED]))
    set_game(GameState.random_start(int(st.session_state[N_PLAYERS]), rng))


def new_blank_game() -> None:
    set_game(blank_position(int(st.session_state[N_PLAYERS])))


def saved_game(game: GameState) -> str:
    """The file "Save game" offers: the game with the names and colours shown in the sidebar."""
    seats = game.n_players
    return with_player_labels(game, player_names(game)[:seats], player_colors(game)[:seats]).to_json()


def load_upload() -> None:
    # A callback, not a check in the script body: the uploader keeps its file across reruns, and
    # reloading it on each one would undo every later "New random setup". Running before the script
    # is also what lets it set the name and colour widgets, which are not drawn yet.
    upload = st.session_state[UPLOAD]
    st.session_state[LOAD_ERROR] = None
    if upload is None:
        return
    try:
        game = GameState.from_json(upload.getvalue().decode("utf-8"))
        names, colors = player_labels(game)
    except ValueError as exc:
        # Bad JSON, bad UTF-8, a malformed state or labels are all ValueErrors; the current game is kept.
        st.session_state[LOAD_ERROR] = f"Could not load {upload.name}: {exc}"
        return
    set_game(game)
    # The names belong to the game loaded: a file saved without them has the default ones.
    for p in range(game.n_players):
        st.session_state[f"name{p}"] = names[p] if names is not None else player_name(p)
        st.session_state[f"color{p}"] = colors[p] if colors is not None else PLAYER_COLORS[p]


def first_view() -> None:
    st.info("Choose the number of players and a seed, then press **New random setup**, "
            "or start a **New blank game** to type a real one in, or load a saved game.")
    st.image(bare_map_png())
    st.subheader("Continents")
    st.dataframe(continents_overview(classic_board()), hide_index=True)


# ---------------------------------------------------------------------------------- cached work
def position_json(game: GameState) -> str:
    """The cache key of a position: the game without its history (which the analysis never reads)."""
    return game.to_json(history=False)


@st.cache_data(max_entries=1, show_spinner=False)
def bare_map_png() -> bytes:
    return figure_png(draw_board(title="Classic map"))


@st.cache_data(max_entries=64, show_spinner=False)
def map_spec(game_json: str, names: tuple[str, ...], colors: tuple[str, ...], picked: tuple[str, ...]) -> dict[str, Any]:
    # The Vega-Lite spec is cached rather than the Altair chart: st.altair_chart would convert the chart
    # again on every rerun, which costs more than all the rest of the Board tab.
    return board_chart(GameState.from_json(game_json), names, colors, picked).to_dict()


def figure_png(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=MAP_DPI)
    return buffer.getvalue()


@st.cache_data(max_entries=256, show_spinner=False)
def cached_continents(game_json: str, player: int, stop_at: int) -> pd.DataFrame:
    return continent_table(GameState.from_json(game_json), player, stop_at=stop_at)


@st.cache_data(max_entries=256, show_spinner=False)
def cached_suggestions(game_json: str, player: int, stop_at: int) -> pd.DataFrame:
    return attack_suggestions(GameState.from_json(game_json), player, stop_at=stop_at)


@st.cache_data(max_entries=16, show_spinner=False)
def cached_tables(max_armies: int, stop_at: int) -> tuple[dict[str, pd.DataFrame], str]:
    tables = odds_tables(max_armies, stop_at=stop_at)
    return {name: tables.table(name) for name in TABLES}, tables.long().to_csv(index=False, float_format="%.10g")


@st.cache_data(max_entries=16, show_spinner=False)
def cached_heatmap(max_armies: int, stop_at: int, which: str) -> bytes:
    fig = Figure(figsize=(7, 6), layout="constrained")
    odds_tables(max_armies, stop_at=stop_at).heatmap(which, ax=fig.add_subplot())
    return figure_png(fig)


# ---------------------------------------------------------------------------------- Board
def board_view(game: GameState, names: list[str]) -> None:
    board = game.board
    map_col, edit_col = st.columns([3, 2])
    with edit_col:
        picked = st.multiselect(
            "Pick territories (type to search, or click them on the map): ringed on the map, edited here",
            board.territories, key=PICK, accept_new_options=True,
        )
        quick_edit(game, names, picked)
        st.subheader("Territories")
        territory_editor(game, names)
    with map_col:
        known = [t for t in picked if t in board.territories]
        key = map_key(picked)
        st.vega_lite_chart(spec=map_spec(position_json(game), tuple(names), tuple(player_colors(game)), tuple(known)),
                           key=key, on_select=partial(pick_on_map, key), selection_mode=PICK_SELECTION)
        st.subheader("Continents")
        st.dataframe(continents_overview(board, game, names), hide_index=True)


def map_key(picked: Sequence[str]) -> str:
    """The map's key: another one, and so a chart with nothing selected, whenever the picked list changes.

    The chart reports a click only when its selection changes, so a territory dropped from the
    list must not still count as selected there, or clicking it again would do nothing.
    """
    return f"{MAP}-{hashlib.blake2s(chr(0).join(picked).encode(), digest_size=8).hexdigest()}"


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
    armies_col.number_input("Armies on each", value=None, step=1, placeholder="keep", key=EDIT_ARMIES)
    st.button("Apply to the picked territories", on_click=apply_quick_edit, disabled=not picked, key="apply_quick_edit")
    if st.session_state.get(EDIT_ERROR):
        st.error(st.session_state[EDIT_ERROR])


def apply_quick_edit() -> None:
    game: GameState = st.session_state[GAME]
    names = player_names(game)
    picked = st.session_state.get(PICK) or []
    owner, armies = st.session_state.get(EDIT_OWNER), st.session_state.get(EDIT_ARMIES)
    try:
        # Names are resolved by the board, which refuses an unknown one and suggests the nearest.
        ids = [game.board.index(t) for t in picked]
        edited = edit_position(
            game,
            owner={t: names.index(owner) for t in ids} if owner is not None else None,
            armies={t: armies for t in ids} if armies is not None else None,
        )
    except ValueError as exc:
        st.session_state[EDIT_ERROR] = str(exc)
        return
    set_game(edited)


def territory_editor(game: GameState, names: list[str]) -> None:
    """The editable table: a changed cell is applied at once, or refused with its message and left in place."""
    board = game.board
    table = pd.DataFrame({
        "Territory": board.territories,
        "Owner": [names[int(pid)] if pid >= 0 else "" for pid in game.owner],
        "Armies": game.armies.astype(int),
    })
    edited = st.data_editor(
        table,
        key=game_key("editor"),
        hide_index=True,
        disabled=["Territory"],
        column_config={
            "Owner": st.column_config.SelectboxColumn("Owner", options=names, required=True),
            # No minimum here: the engine's check names the territory and the value.
            "Armies": st.column_config.NumberColumn("Armies", step=1, format="%d"),
        },
    )
    changed = [t for t in range(len(table)) if edited.at[t, "Owner"] != table.at[t, "Owner"]]
    owner_changes = {board.territories[t]: names.index(edited.at[t, "Owner"])
                     for t in changed if edited.at[t, "Owner"] in names}
    unknown = [board.territories[t] for t in changed if edited.at[t, "Owner"] not in names]
    army_changes = {board.territories[t]: edited.at[t, "Armies"] for t in range(len(table))
                    if pd.isna(edited.at[t, "Armies"]) or edited.at[t, "Armies"] != table.at[t, "Armies"]}
    if not (owner_changes or army_changes or unknown):
        return
    try:
        if unknown:
            raise ValueError(f"{unknown[0]} has no owner; choose one of {', '.join(names)}")
        updated = edit_position(game, owner=owner_changes, armies=army_changes)
    except ValueError as exc:
        st.error(f"{exc}. The table keeps your entries: correct the value to apply them.")
        return
    set_game(updated)
    st.rerun()


def continents_overview(board: Board, game: GameState | None = None, names: Sequence[str] = ()) -> pd.DataFrame:
    frame = pd.DataFrame({
        "Continent": [c.name for c in board.continents],
        "Bonus": [c.bonus for c in board.continents],
        "Territories": [len(c.territories) for c in board.continents],
    })
    if game is not None:
        holders = [set(game.owner[list(c.territories)].tolist()) for c in board.continents]
        frame["Held by"] = [names[h.pop()] if len(h) == 1 else "" for h in holders]
    return frame


# ---------------------------------------------------------------------------------- Players & cards
def card_label(board: Board, card: int) -> str:
    symbol = SYMBOLS[int(board.card_symbols[card])]
    territory = int(board.card_territory[card])
    return f"#{card} {board.territories[territory]} ({symbol})" if territory >= 0 else f"#{card} wild"


def players_view(game: GameState, names: list[str]) -> None:
    board = game.board
    forecast = reinforcement_forecast(game).set_index("player")
    summary = pd.DataFrame({
        "Player": names[: game.n_players],
        "Territories": [int(np.count_nonzero(game.owner == p)) for p in range(game.n_players)],
        "Armies": [int(game.armies[game.owner == p].sum()) for p in range(game.n_players)],
        "Cards": [len(game.hand(p)) for p in range(game.n_players)],
        "Has a set": [bool(forecast.loc[p, "has_set"]) if p in forecast.index else False for p in range(game.n_players)],
    })
    st.dataframe(summary, hide_index=True)
    alive = [p for p in range(game.n_players) if np.any(game.owner == p)]
    st.selectbox("Player to move", alive, index=alive.index(game.player) if game.player in alive else 0,
                 format_func=lambda p: names[p], key=game_key("to_move"))
    st.number_input("Sets traded so far", value=int(game.sets_traded), step=1, key=game_key("sets_traded"),
                    help=f"The next set is worth {game.next_set_value()} armies.")
    cards = list(range(board.n_cards))
    for p in range(game.n_players):
        st.multiselect(f"Cards of {names[p]}", cards, default=game.hand(p),
                       format_func=lambda c: card_label(board, c), key=game_key(f"hand{p}"))
    st.button("Apply", on_click=apply_players, key="apply_players", type="primary")
    if st.session_state.get(PLAYERS_ERROR):
        st.error(st.session_state[PLAYERS_ERROR])


def apply_players() -> None:
    game: GameState = st.session_state[GAME]
    try:
        edited = edit_position(
            game,
            player=int(st.session_state[game_key("to_move")]),
            sets_traded=st.session_state[game_key("sets_traded")],
            hands={p: st.session_state[game_key(f"hand{p}")] for p in range(game.n_players)},
        )
    except ValueError as exc:
        st.session_state[PLAYERS_ERROR] = str(exc)
        return
    set_game(edited)


# ---------------------------------------------------------------------------------- Attack odds
def odds_view(game: GameState, names: list[str]) -> None:
    board = game.board
    # The player to move's stacks first: the usual question during a turn.
    sources = sorted(attack_sources(game), key=lambda t: game.owner[t] != game.player)
    if not sources:
        st.info("No territory can attack: every stack of 2 or more armies is surrounded by its own player's.")
        return

    def label(t: int) -> str:
        return f"{board.territories[t]} ({names[int(game.owner[t])]}, {int(game.armies[t])})"

    from_col, to_col, stop_col = st.columns([2, 2, 1])
    source = from_col.selectbox("Attack from", sources, format_func=label, key=ATTACK_FROM)
    target = to_col.selectbox("Attack", attack_targets(game, source), format_func=label, key=ATTACK_TO)
    armies = int(game.armies[source])
    stop_at = stop_col.number_input("Stop at (armies left)", min_value=1, max_value=armies - 1, value=1, step=1,
                                    key=STOP_AT, help="Stop attacking once the territory holds this many armies.")
    result = attack_odds(game, source, target, stop_at=stop_at)
    st.subheader(f"{board.territories[source]} ({armies}) attacks {board.territories[target]} ({int(game.armies[target])})")
    win, lost_a, lost_d = st.columns(3)
    win.metric("P(win)", f"{result.p_win:.2%}")
    lost_a.metric("Attacker's expected losses", f"{result.expected_attacker_losses:.2f}",
                  help=f"standard deviation {result.std_attacker_losses:.2f}")
    lost_d.metric("Defender's expected losses", f"{result.expected_defender_losses:.2f}",
                  help=f"standard deviation {result.std_defender_losses:.2f}")
    st.caption(f"Spread (one standard deviation): attacker ±{result.std_attacker_losses:.2f}, "
               f"defender ±{result.std_defender_losses:.2f}.")
    st.image(survivors_png(armies, int(game.armies[target]), stop_at))

    st.subheader("Armies needed")
    p = st.slider("Target probability of winning", 0.05, 0.99, 0.75, 0.01, key=TARGET_P)
    needed = armies_needed(int(game.armies[target]), p, stop_at=stop_at)
    st.write(f"To take {board.territories[target]} with P ≥ {p:.0%} you need **{needed}** armies on "
             f"{board.territories[source]} (it has {armies}).")

    st.subheader("Chain of attacks")
    owner = int(game.owner[source])
    others = [t for t in range(board.n_territories) if game.owner[t] != owner]
    path = st.multiselect(f"Then on from {board.territories[target]}, in order", others, format_func=label,
                          key=CHAIN_PATH, help="Each territory must border the one before it.")
    garrison = st.number_input("Garrison left in each conquered territory", min_value=1, value=1, step=1, key=GARRISON)
    if path:
        full = [source, target, *path]
        r = chain_odds(game, full, stop_at=stop_at, garrison=garrison)
        st.dataframe(pd.DataFrame({
            "Territory": [board.territories[t] for t in full[1:]],
            "Defenders": [int(game.armies[t]) for t in full[1:]],
            "P(taken, with all before it)": r.p_conquer,
        }), hide_index=True)
        st.write(f"P(whole chain) **{r.p_win:.2%}**; expected losses: attacker {r.expected_attacker_losses:.2f}, "
                 f"defenders {r.expected_defender_losses:.2f}.")
        chain_needed = chain_armies_needed([int(game.armies[t]) for t in full[1:]], p, garrison=garrison,
                                           stop_at=stop_at)
        st.write(f"The whole chain with P ≥ {p:.0%} needs **{chain_needed}** armies on {board.territories[source]}.")


@st.cache_data(max_entries=128, show_spinner=False)
def survivors_png(attackers: int, defenders: int, stop_at: int) -> bytes:
    return figure_png(plot_survivors(battle(attackers, defenders, stop_at=stop_at)))


# ---------------------------------------------------------------------------------- Continents
def continents_view(game: GameState, names: list[str]) -> None:
    alive = [p for p in range(game.n_players) if np.any(game.owner == p)]
    player_col, stop_col = st.columns([3, 1])
    player = player_col.selectbox("Seen by", alive, index=alive.index(game.player) if game.player in alive else 0,
                                  format_func=lambda p: names[p], key="continent_player")
    stop_at = stop_col.number_input("Attacking stacks stop at", min_value=1, value=1, step=1, key="continent_stop")
    table = cached_continents(position_json(game), player, stop_at).copy()
    table["holder"] = [names[int(h)] if not pd.isna(h) else "" for h in table["holder"]]
    st.caption("Completing: every stack of the player's that borders a missing territory attacks this turn, before "
               "reinforcements (the conquest solver's plan). The cost is the expected armies lost, exact along "
               "single paths. Value per turn: the bonus plus the rise in territories ÷ 3. Borders list the "
               "largest enemy stack next to each.")
    st.dataframe(
        table,
        hide_index=True,
        column_config={
            "continent": "Continent", "bonus": "Bonus", "holder": "Held by", "owned": "Owned", "size": "Of",
            "borders": "Borders to defend (largest enemy stack)", "missing": "Missing",
            "missing_defenders": "Armies on them", "staging": "Attacking from",
            "p_complete": st.column_config.ProgressColumn("P(complete)", format="percent", min_value=0.0, max_value=1.0),
            "expected_cost": st.column_config.NumberColumn("Expected cost", format="%.2f"),
            "cost_exact": st.column_config.CheckboxColumn("Cost exact"),
            "value_per_turn": st.column_config.NumberColumn("Armies per turn"),
            "notes": "Notes",
        },
    )


# ---------------------------------------------------------------------------------- Reinforcements
def reinforcements_view(game: GameState, names: list[str]) -> None:
    forecast = reinforcement_forecast(game)
    forecast.insert(0, "name", [names[p] for p in forecast["player"]])
    st.caption(f"At the start of each player's next turn. The next set traded is worth {game.next_set_value()} "
               "armies; every trade before a player's turn raises it.")
    st.dataframe(forecast.drop(columns="player"), hide_index=True)
    st.bar_chart(forecast.set_index("name")[["from_territories", "from_continents", "set_value"]], stack=True)


# ---------------------------------------------------------------------------------- Suggestions
def suggestions_view(game: GameState, names: list[str]) -> None:
    alive = [p for p in range(game.n_players) if np.any(game.owner == p)]
    player_col, rank_col = st.columns([3, 2])
    player = player_col.selectbox("Attacks of", alive, index=alive.index(game.player) if game.player in alive else 0,
                                  format_func=lambda p: names[p], key="suggest_player")
    rank = rank_col.radio("Rank by", ["expected gain", "P(win)"], horizontal=True, key="suggest_rank")
    table = cached_suggestions(position_json(game), player, 1).copy()
    if rank == "P(win)":
        table = table.sort_values(["p_win", "expected_gain"], ascending=False, ignore_index=True)
    table["defender"] = [names[d] for d in table["defender"]]
    st.caption("Each stack attacks until it wins or is down to 1 army. Expected gain = P(win) × (1 for the territory "
               "+ the continent bonus it completes or breaks) − the attacker's expected losses, in armies.")
    st.dataframe(table, hide_index=True, column_config={
        "source": "From", "target": "To", "defender": "Defender", "attackers": "Armies", "defenders": "Defenders",
        "p_win": st.column_config.ProgressColumn("P(win)", format="percent", min_value=0.0, max_value=1.0),
        "attacker_losses": st.column_config.NumberColumn("Expected losses", format="%.2f"),
        "attacker_losses_std": st.column_config.NumberColumn("± (std)", format="%.2f"),
        "defender_losses": st.column_config.NumberColumn("Defender's losses", format="%.2f"),
        "completes": "Completes", "breaks": "Breaks",
        "expected_gain": st.column_config.NumberColumn("Expected gain", format="%.2f"),
    })

    st.subheader("Chances to win the game")
    bot_col, budget_col, seed_col = st.columns(3)
    bot = bot_col.selectbox("Bots playing every seat", list(BOTS), key="rollout_bot")
    budget = budget_col.slider("Time budget (s)", 1, 60, 10, key="rollout_budget")
    seed = seed_col.number_input("Rollout seed", min_value=0, value=0, step=1, key="rollout_seed")
    if st.button("Estimate by rollouts", key="rollout_run"):
        bar = st.progress(0.0, text="Playing the position out...")

        def progress(done: int, used: float) -> None:
            bar.progress(used, text=f"{done} rollouts")

        chances = win_chances(game, bot, budget=float(budget), seed=int(seed), on_progress=progress)
        bar.empty()
        st.session_state[CHANCES] = (position_json(game), chances)
    stored = st.session_state.get(CHANCES)
    if stored is not None:
        computed_for, chances = stored
        if computed_for != position_json(game):
            st.warning("These chances are for an earlier position: estimate again.")
        shown = chances.table.copy()
        shown.insert(0, "name", [names[p] for p in shown["player"]])
        st.dataframe(shown.drop(columns="player"), hide_index=True, column_config={
            "p_win": st.column_config.ProgressColumn("P(win)", format="percent", min_value=0.0, max_value=1.0),
        })
        st.caption(f"{chances.rollouts} rollouts in {chances.seconds:.1f} s, {chances.confidence:.0%} Wilson "
                   f"intervals; {chances.capped} reached the round cap with no winner.")


# ---------------------------------------------------------------------------------- Tables
def tables_view(game: GameState, names: list[str]) -> None:
    size_col, stop_col, which_col = st.columns(3)
    max_armies = size_col.slider("Up to armies", 5, 60, 20, key="table_max")
    stop_at = stop_col.number_input("Stop at", min_value=1, max_value=max_armies - 1, value=1, step=1, key="table_stop")
    which = which_col.selectbox("Table", TABLES, key="table_which", format_func=lambda t: t.replace("_", " "))
    tables, csv = cached_tables(max_armies, stop_at)
    st.image(cached_heatmap(max_armies, stop_at, which))
    st.dataframe(tables[which])
    st.download_button("Download all three tables (CSV)", data=csv, file_name=f"risk-odds-{max_armies}.csv",
                       mime="text/csv", key="download_tables")


main()
