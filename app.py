"""Risk Analyzer in the browser: ``make run`` (or ``streamlit run app.py``).

A companion kept open on a phone at the table, and a thin layer: the engine, the
drawing, the analyses and the store live in :mod:`analyzer`; this file lays them
out. The page is, top to bottom: the battle calculator (with or without a
game), then either the start page (the stored games, a new game) or the open
game (whose turn, each player's cards and armies, the best attacks, then tabs).

Games live in :class:`analyzer.store.GameStore` (an SQLite file; ``$RISK_ANALYZER_DB``
chooses it) and the page URL carries the open game's id (``?game=...``), so a
reload, another tab or another device brings the same game back. Every change
is a new game built through the engine's checks and saved at once against the
version it was made on: a change refused by the checks or by a newer version
saved elsewhere shows its message and leaves the user's entries in their
widgets. A fragment polls the stored version every few seconds, so a change made
on another device appears without a reload.

A view of a tab is ``view(game, names) -> GameState | None``: a view that
returns a new game has it stored; the "Record" tab (:mod:`app_live`, a game
followed entry by entry as it is played) is one of them.

The tabs are lazy (``on_change="rerun"``): only the open one is computed, and
solver results are cached by position, so an interaction costs one tab.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timezone
from functools import partial
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st
from matplotlib.figure import Figure

import app_live

from analyzer.analysis.position import (
    attack_sources,
    attack_suggestions,
    attack_targets,
    blank_position,
    continent_table,
    edit_position,
    player_labels,
    reinforcement_forecast,
    win_chances,
    with_player_labels,
)
from analyzer.analysis.quick_odds import MAX_CHAIN, MAX_NEEDED_DEFENDERS, QuickOdds, quick_odds
from analyzer.bots.registry import BOTS
from analyzer.analysis.search import suggest_turn, turn_steps
from analyzer.errors import StoreConflictError, StoreError
from analyzer.game import face_down
from analyzer.game.board import SYMBOLS, Board, classic_board
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase, MAX_PLAYERS, MIN_PLAYERS
from analyzer.text import plain
from analyzer.limits import MAX_ARMIES, MAX_NAME_LENGTH
from analyzer.plot import (
    NEUTRAL_COLOR,
    PICK_SELECTION,
    PLAYER_COLORS,
    board_chart,
    chart_picks,
    draw_board,
    player_name,
)
from analyzer.solver.battle import dice_options
from analyzer.solver.tables import TABLES, odds_tables
from analyzer.store import GameStore, StoredGame, default_path

#: Session-state keys.
GAME = "game"
STORED_ID = "stored_id"
VERSION = "version"
GAME_NAME = "game_name"
GENERATION = "generation"
STORE_ERROR = "store_error"
LOAD_ERROR = "load_error"
EDIT_ERROR = "edit_error"
PLAYERS_ERROR = "players_error"
REFUSED_TABLE = "refused_table"
CHAIN_ERROR = "chain_error"
UPLOAD = "upload"
N_PLAYERS = "n_players"
SEED = "seed"
NEW_NAME = "new_name"
TAB = "tab"
PICK = "pick"
MAP = "map"
EDIT_OWNER = "edit_owner"
EDIT_ARMIES = "edit_armies"
CHANCES = "chances"
TURN_TIP = "turn_tip"
#: The calculator's inputs.
ATTACKERS = "attackers"
DEFENDERS = "defenders"
STOP_AT = "stop_at"
CHAIN = "chain"
GARRISON = "garrison"
TARGET_P = "target_p"
CAPITAL = "capital"
TIES = "ties_to_attacker"
BLITZ = "balanced_blitz"
SIDES = "sides"
CAP = "cap"
ATTACK_FROM = "attack_from"
ATTACK_TO = "attack_to"
CHAIN_PATH = "chain_path"
#: The URL parameter that carries the open game's id.
GAME_PARAM = "game"
#: Seconds between two looks at the stored version, for changes made on another device.
POLL_SECONDS = 2.0
#: Dice a player may have at the table.
DICE_SIDES = (4, 6, 8, 10, 12, 20)
#: Resolution of the matplotlib pictures (the bare map, the heatmaps) at the app's width.
MAP_DPI = 110
#: Width in pixels the map is drawn at. On a phone it scrolls sideways rather than shrinking, so that the names
#: and army counts keep their size and never run into each other.
MAP_WIDTH = 760
#: Attacks shown on the game's front page; the Suggestions tab has them all.
TOP_ATTACKS = 5

#: Page style (constant, never user text). The calculator's number inputs are sized for a thumb, and its
#: columns stay side by side on a phone instead of stacking; the map scrolls sideways on a narrow screen.
CSS = """<style>
.st-key-calculator [data-testid="stNumberInput"] input { font-size: 1.6rem; height: 3.2rem; }
.st-key-calculator [data-testid="stNumberInputStepDown"],
.st-key-calculator [data-testid="stNumberInputStepUp"] { width: 3rem !important; height: 3.2rem !important; }
.st-key-calculator [data-testid="stNumberInputStepDown"] svg,
.st-key-calculator [data-testid="stNumberInputStepUp"] svg { width: 1.5rem !important; height: 1.5rem !important; }
.st-key-calculator [data-testid="stHorizontalBlock"] { flex-wrap: nowrap; gap: 0.5rem; }
.st-key-calculator [data-testid="stColumn"] { min-width: 0; width: auto; flex: 1 1 0; }
.st-key-calculator [data-testid="stMetricValue"] { font-size: 1.6rem; }
.st-key-board_map { overflow-x: auto; }
@media (max-width: 640px) {
  .block-container { padding: 3.5rem 0.75rem 1rem; }
  h1 { font-size: 1.8rem !important; }
}
</style>"""

def main() -> None:
    st.set_page_config(page_title="Risk Analyzer", layout="wide", initial_sidebar_state="collapsed")
    st.html(CSS)
    st.title("Risk Analyzer")
    follow_url()
    calculator()
    game: GameState | None = st.session_state.get(GAME)
    names = player_names(game) if game is not None else []
    if game is None:
        start_page()
        return
    game_page(game, names)


@contextmanager
def shown_errors() -> Iterator[None]:
    """Show a user-caused error (the package raises ValueErrors) instead of the traceback; the game is untouched."""
    try:
        yield
    except ValueError as exc:
        st.error(plain(str(exc)))


# ---------------------------------------------------------------------------------- the store
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
    for key in (GAME, STORED_ID, VERSION, GAME_NAME):
        st.session_state.pop(key, None)
    st.query_params.pop(GAME_PARAM, None)


def new_game(game: GameState, name: str) -> None:
    """Store ``game`` as a new game and open it; if the store cannot take it, it is kept in this page only."""
    st.session_state[STORE_ERROR] = None
    try:
        show_stored(store().create(game, name))
    except StoreError as exc:
        close_game()
        st.session_state[GAME] = game
        st.session_state[GAME_NAME] = name
        fresh_widgets()
        st.session_state[STORE_ERROR] = f"{exc}. The game is kept in this page only: save it as a file to keep it."


def commit(game: GameState) -> bool:
    """Store ``game`` as the next version of the open one and show it. False if a newer version refused it.

    On a refusal the fresh game is shown and every widget keeps the user's
    entry, to apply again. When the store cannot be written the game is kept
    in this page, with the message.
    """
    st.session_state[STORE_ERROR] = None
    game_id = st.session_state.get(STORED_ID)
    try:
        if game_id is None:
            # Not stored yet (the store failed when it was created): try again now.
            show_stored(store().create(game, st.session_state.get(GAME_NAME) or default_name()))
        else:
            show_stored(store().save(game_id, game, expected_version=st.session_state[VERSION]))
        return True
    except StoreConflictError as exc:
        assert isinstance(exc.current, StoredGame)
        show_stored(exc.current, keep_entries=True)
        st.session_state[STORE_ERROR] = str(exc)
        return False
    except StoreError as exc:
        st.session_state[GAME] = game
        fresh_widgets()
        st.session_state[STORE_ERROR] = f"{exc}. The change is kept in this page only: save the game as a file."
        return True


@st.fragment(run_every=POLL_SECONDS)
def watch_store() -> None:
    """Show the game as stored now when another device saved a new version of it.

    Drawn last on the page, so a full run handles the user's entries first; on
    its own it runs every :data:`POLL_SECONDS`, and only reruns the page when the
    version moved.
    """
    game_id = st.session_state.get(STORED_ID)
    if game_id is None:
        return
    try:
        if store().version(game_id) == st.session_state.get(VERSION):
            return
        show_stored(store().load(game_id))
    except StoreError:
        return  # the game shown stays; the next change saved says what is wrong
    st.rerun(scope="app")


def store_message() -> None:
    if st.session_state.get(STORE_ERROR):
        st.error(plain(st.session_state[STORE_ERROR]))


def default_name() -> str:
    return f"Game of {datetime.now().strftime('%d %b %H:%M')}"


# ---------------------------------------------------------------------------------- the game itself
def game_key(name: str) -> str:
    """A widget key that changes with the game, so the widget shows the new game's value."""
    return f"{name}-{st.session_state.get(GENERATION, 0)}"


def player_names(game: GameState) -> list[str]:
    """Display names of the forces of ``game``: the names kept in it, then "Neutral" in a 2-player game."""
    names, _ = player_labels(game)
    seats = names if names is not None else [player_name(p) for p in range(game.n_players)]
    return seats + (["Neutral"] if game.neutral is not None else [])


def player_colors(game: GameState) -> list[str]:
    _, colors = player_labels(game)
    seats = colors if colors is not None else list(PLAYER_COLORS[: game.n_players])
    return seats + ([NEUTRAL_COLOR] if game.neutral is not None else [])


# ---------------------------------------------------------------------------------- the calculator
@st.fragment
def calculator() -> None:
    """Odds of any battle or chain, typed as counts; with a game open, two territories picked fill them in.

    A fragment: a changed input reruns the calculator alone, not the map and tables of the game below.
    """
    game: GameState | None = st.session_state.get(GAME)
    with shown_errors():
        calculator_body(game, player_names(game) if game is not None else [])


def calculator_body(game: GameState | None, names: list[str]) -> None:
    for key, value in ((ATTACKERS, 12), (DEFENDERS, 7), (STOP_AT, 1), (CHAIN, ""), (GARRISON, 1), (TARGET_P, 0.75),
                       (CAPITAL, False), (TIES, False), (BLITZ, False), (SIDES, 6), (CAP, False)):
        st.session_state.setdefault(key, value)
    with st.container(key="calculator"):
        st.subheader("Battle odds")
        if game is not None and not np.any(game.owner < 0):
            territory_pickers(game, names)
        attackers_col, defenders_col = st.columns(2)
        attackers_col.number_input("Attacking armies", min_value=2, max_value=MAX_ARMIES, step=1, key=ATTACKERS,
                                   help="Every army on the attacking territory: one stays behind, the rest roll.")
        defenders_col.number_input("Defenders", min_value=1, max_value=MAX_ARMIES, step=1, key=DEFENDERS)
        with st.expander("Stop at, chain, dice"):
            stop_col, garrison_col = st.columns(2)
            stop_col.number_input("Stop at (armies left)", min_value=1, max_value=MAX_ARMIES - 1, step=1, key=STOP_AT,
                                  help="Stop attacking once the territory holds this many armies.")
            garrison_col.number_input("Garrison", min_value=1, max_value=MAX_ARMIES, step=1, key=GARRISON,
                                      help="Armies left in each conquered territory of a chain.")
            st.text_input("Then on against (a chain: the defenders of each next territory)", key=CHAIN,
                          placeholder="e.g. 3 2 4", max_chars=8 * MAX_CHAIN)
            st.slider("Target probability for the armies needed", 0.05, 0.99, step=0.01, key=TARGET_P)
            capital_col, ties_col = st.columns(2)
            capital_col.toggle("Capital: 3 defence dice", key=CAPITAL)
            ties_col.toggle("Ties to the attacker", key=TIES)
            blitz_col, cap_col = st.columns(2)
            blitz_col.toggle("Balanced Blitz", key=BLITZ, help="Risk: Global Domination's Balanced Blitz.")
            cap_col.toggle("Never below stop at", key=CAP,
                           help="Roll no more dice than armies above stop at (Risk: Global Domination).")
            st.selectbox("Sides of each die", DICE_SIDES, key=SIDES)
        odds = calculator_odds()
        odds_answer(odds)


def chain_defenders(text: str) -> list[int]:
    """The defenders typed for a chain: whole numbers separated by spaces or commas."""
    parts = text.replace(",", " ").split()
    if len(parts) > MAX_CHAIN - 1:
        raise ValueError(f"a chain has at most {MAX_CHAIN} territories, got {len(parts) + 1}")
    for part in parts:
        if not part.isdigit() or not 1 <= int(part) <= MAX_ARMIES:
            raise ValueError(f"each territory of the chain needs 1 to {MAX_ARMIES:,} defenders, got {part[:20]!r}")
    return [int(part) for part in parts]


def calculator_odds() -> QuickOdds:
    s = st.session_state
    options = dice_options(capital=bool(s[CAPITAL]), ties_to_attacker=bool(s[TIES]), balanced_blitz=bool(s[BLITZ]),
                           sides=int(s[SIDES]), cap=bool(s[CAP]))
    defenders = [int(s[DEFENDERS]), *chain_defenders(str(s[CHAIN]))]
    return cached_quick_odds(int(s[ATTACKERS]), tuple(defenders), int(s[STOP_AT]), int(s[GARRISON]),
                             options.dice.defender_max, options.dice.ties_to_attacker, options.balanced_blitz,
                             options.dice.sides, options.stop_mode, float(s[TARGET_P]))


@st.cache_data(max_entries=256, show_spinner=False)
def cached_quick_odds(attackers: int, defenders: tuple[int, ...], stop_at: int, garrison: int, defender_max: int,
                      ties: bool, blitz: bool, sides: int, stop_mode: str, target_p: float) -> QuickOdds:
    options = dice_options(capital=defender_max == 3, ties_to_attacker=ties, balanced_blitz=blitz, sides=sides,
                           cap=stop_mode == "cap")
    return quick_odds(attackers, defenders, stop_at=stop_at, garrison=garrison, options=options, target_p=target_p)


def odds_answer(odds: QuickOdds) -> None:
    chained = len(odds.defenders) > 1
    win_col, need_col = st.columns(2)
    win_col.metric("P(win)" if not chained else "P(whole chain)", f"{odds.p_win:.2%}")
    if odds.armies_needed is not None:
        need_col.metric(f"Armies for P ≥ {odds.target_p:.0%}", f"{odds.armies_needed:,}",
                        help=f"Fewest armies on the attacking territory that win with at least this probability "
                             f"(now {odds.attackers:,}).")
    else:
        need_col.metric(f"Armies for P ≥ {odds.target_p:.0%}", "—",
                        help=f"Searched up to {MAX_NEEDED_DEFENDERS:,} defenders in all.")
    attacker_col, defender_col = st.columns(2)
    spread_a = "" if odds.std_attacker_losses is None else f" ± {odds.std_attacker_losses:.2f}"
    spread_d = "" if odds.std_defender_losses is None else f" ± {odds.std_defender_losses:.2f}"
    attacker_col.metric("Attacker's expected losses", f"{odds.expected_attacker_losses:.2f}",
                        help="± one standard deviation." if spread_a else None)
    defender_col.metric("Defender's expected losses", f"{odds.expected_defender_losses:.2f}")
    if spread_a:
        st.caption(f"Spread (one standard deviation): attacker{spread_a}, defender{spread_d}.")
    if chained:
        st.dataframe(pd.DataFrame({
            "Territory": [f"#{i + 1}" for i in range(len(odds.defenders))],
            "Defenders": list(odds.defenders),
            "P(taken, with all before it)": list(odds.p_conquer),
        }), hide_index=True)
    with st.expander("Survivors", expanded=True):
        st.vega_lite_chart(odds.survivors, survivors_spec("armies", "armies left (green: won, red: stopped)",
                                                          color=True), key="survivors")
        st.vega_lite_chart(odds.defenders_left, survivors_spec("defenders", "defenders left (0: conquered)"),
                           key="defenders_left")


def survivors_spec(x: str, title: str, *, color: bool = False) -> dict[str, Any]:
    """A bar chart of how likely each count left is: conquests green and stops red when ``color``.

    No legend (the axis title says it): a legend squeezes the plot of a chart this low to nothing.
    """
    encoding: dict[str, Any] = {
        # Ordinal: one bar per count, as wide as the chart allows; the labels thin out where they would overlap.
        "x": {"field": x, "type": "ordinal", "title": title, "sort": "ascending",
              "axis": {"labelOverlap": "greedy", "labelAngle": 0}},
        "y": {"field": "probability", "type": "quantitative", "title": "probability"},
        "tooltip": [{"field": x}, {"field": "probability", "format": ".4f"}],
        "color": ({"field": "outcome", "scale": {"domain": ["conquered", "stopped"], "range": ["#2ca02c", "#d62728"]},
                   "legend": None} if color else {"value": "#1f5fbf"}),
    }
    return {"mark": {"type": "bar", "tooltip": True}, "encoding": encoding, "height": 140}


def territory_pickers(game: GameState, names: list[str]) -> None:
    """Two territories of the open game (and a chain on from them): picking them fills in the calculator."""
    board = game.board

    def label(t: int) -> str:
        return f"{board.territories[t]} ({names[int(game.owner[t])]}, {int(game.armies[t])})"

    # The player to move's stacks first: the usual question during a turn.
    sources = sorted(attack_sources(game), key=lambda t: game.owner[t] != game.player)
    from_col, to_col = st.columns(2)
    source = from_col.selectbox("Attack from", sources, index=None, format_func=label, key=game_key(ATTACK_FROM),
                                placeholder="a territory", on_change=fill_calculator)
    targets = attack_targets(game, source) if source is not None else []
    to_col.selectbox("Attack", targets, index=None, format_func=label, key=game_key(ATTACK_TO),
                     placeholder="its neighbour", on_change=fill_calculator, disabled=source is None)
    if source is not None:
        owner = int(game.owner[source])
        others = [t for t in range(board.n_territories) if game.owner[t] != owner]
        st.multiselect("Then on to, in order (a chain)", others, format_func=label, key=game_key(CHAIN_PATH),
                       on_change=fill_calculator, help="Each territory must border the one before it.",
                       max_selections=MAX_CHAIN - 1)
    if st.session_state.get(CHAIN_ERROR):
        st.error(plain(st.session_state[CHAIN_ERROR]))


def fill_calculator() -> None:
    """A callback: it runs before the script, while the calculator's inputs (drawn after) can still be set."""
    game: GameState = st.session_state[GAME]
    source = st.session_state.get(game_key(ATTACK_FROM))
    target = st.session_state.get(game_key(ATTACK_TO))
    if source is None:
        return
    st.session_state[ATTACKERS] = max(2, int(game.armies[source]))
    if target is None or int(target) not in attack_targets(game, source):
        return
    st.session_state[DEFENDERS] = int(game.armies[target])
    path = st.session_state.get(game_key(CHAIN_PATH)) or []
    # The chain must be a path of borders: the board names the first gap.
    for before, after in zip([target, *path], path):
        if not game.board.are_adjacent(before, after):
            st.session_state[CHAIN_ERROR] = (f"{game.board.territories[before]} does not border "
                                             f"{game.board.territories[after]}: a chain goes from border to border")
            return
    st.session_state[CHAIN_ERROR] = None
    st.session_state[CHAIN] = " ".join(str(int(game.armies[t])) for t in path)


# ---------------------------------------------------------------------------------- the start page
def start_page() -> None:
    """The stored games, to open, rename, delete or download; a new game; a saved file to upload."""
    store_message()
    st.subheader("Games")
    try:
        games = store().list()
    except StoreError as exc:
        st.error(plain(f"{exc}. New games are kept in this page only."))
        games = []
    if not games and not st.session_state.get(STORE_ERROR):
        st.caption("No stored game yet: start one below. Each game is saved as it changes, and its page address "
                   "opens it again, here or on another device.")
    for summary in games:
        with st.container(border=True, key=f"stored-{summary.id}"):
            st.markdown(f"**{plain(summary.name)}**  \n{plain(', '.join(summary.players))} · turn {summary.turn} · "
                        f"changed {ago(summary.updated)}")
            open_col, rename_col, download_col, delete_col = st.columns(4)
            open_col.button("Open", key=f"open-{summary.id}", on_click=open_game, args=(summary.id,), type="primary")
            with rename_col.popover("Rename"):
                st.text_input("New name", value=summary.name, key=f"rename-{summary.id}", max_chars=MAX_NAME_LENGTH,
                              on_change=rename_game, args=(summary.id,))
            with delete_col.popover("Delete"):
                st.button("Delete this game for good", key=f"delete-{summary.id}", on_click=delete_game,
                          args=(summary.id,))
            download_col.download_button("JSON", data=partial(stored_json, summary.id), key=f"download-{summary.id}",
                                         file_name=f"risk-{summary.id}.json", mime="application/json",
                                         on_click="ignore")
    st.subheader("New game")
    st.text_input("Name", key=NEW_NAME, max_chars=MAX_NAME_LENGTH, placeholder=default_name())
    players_col, seed_col = st.columns(2)
    players_col.slider("Players", min_value=MIN_PLAYERS, max_value=MAX_PLAYERS, value=3, key=N_PLAYERS)
    seed_col.number_input("Seed", min_value=0, max_value=2**32 - 1, value=1, step=1, key=SEED)
    random_col, blank_col = st.columns(2)
    random_col.button("New random setup", on_click=new_random_setup, type="primary", key="new_random")
    blank_col.button("New blank game", on_click=new_blank_game, key="new_blank",
                     help="Territories dealt round the table with one army each, to type a real game over.")
    with st.expander("Follow a game at the table, move by move"):
        live = app_live.render(None, "live-start")
        if live is not None:
            new_game(live, chosen_name())
            st.rerun()
    upload_game()
    st.subheader("Classic map")
    st.image(bare_map_png())
    st.dataframe(continents_overview(classic_board()), hide_index=True)


def upload_game() -> None:
    st.file_uploader("Open a saved game (JSON)", type="json", key=UPLOAD, on_change=load_upload)
    if st.session_state.get(LOAD_ERROR):
        st.error(plain(st.session_state[LOAD_ERROR]))


def ago(when: datetime) -> str:
    seconds = (datetime.now(timezone.utc) - when).total_seconds()
    if seconds < 90:
        return "just now"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min ago"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.0f} h ago"
    return when.astimezone().strftime("%d %b %Y")


def stored_json(game_id: str) -> str:
    try:
        return store().load(game_id).state.to_json()
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


def delete_game(game_id: str) -> None:
    try:
        store().delete(game_id)
        st.session_state[STORE_ERROR] = None
    except StoreError as exc:
        st.session_state[STORE_ERROR] = str(exc)


def chosen_name() -> str:
    return str(st.session_state.get(NEW_NAME) or "").strip() or default_name()


def new_random_setup() -> None:
    rng = np.random.default_rng(int(st.session_state[SEED]))
    new_game(GameState.random_start(int(st.session_state[N_PLAYERS]), rng), chosen_name())


def new_blank_game() -> None:
    new_game(blank_position(int(st.session_state[N_PLAYERS])), chosen_name())


def saved_game(game: GameState) -> str:
    """The file "Save game" offers: the game, its players' names and colours included."""
    return game.to_json()


def load_upload() -> None:
    # A callback, not a check in the script body: the uploader keeps its file across reruns, and
    # reloading it on each one would undo every later "New random setup".
    upload = st.session_state[UPLOAD]
    st.session_state[LOAD_ERROR] = None
    if upload is None:
        return
    try:
        game = GameState.from_json(upload.getvalue().decode("utf-8"))
        player_labels(game)
    except ValueError as exc:
        # Bad JSON, bad UTF-8, a malformed state or labels are all ValueErrors; the current game is kept.
        st.session_state[LOAD_ERROR] = f"Could not load {upload.name}: {exc}"
        return
    new_game(game, upload.name.removesuffix(".json")[:MAX_NAME_LENGTH].strip() or default_name())


# ---------------------------------------------------------------------------------- the open game
def game_page(game: GameState, names: list[str]) -> None:
    store_message()
    title_col, close_col = st.columns([4, 1])
    title_col.subheader(plain(st.session_state.get(GAME_NAME) or "Game"))
    close_col.button("All games", on_click=close_game, key="close_game")
    if st.session_state.get(STORED_ID) is not None:
        st.caption(f"Saved: version {st.session_state[VERSION]}")
    in_setup = bool(np.any(game.owner < 0))
    st.markdown(f"Turn **{game.turn}** · {game.phase.name.replace('_', ' ').lower()} · "
                f"**{plain(names[game.player])}** to play")
    st.dataframe(players_summary(game, names), hide_index=True, key="players_summary")
    if not in_setup:
        top_attacks(game, names)
    with st.expander("Share, save or open another game"):
        if st.session_state.get(STORED_ID) is not None:
            st.caption("This page's address opens this game on any device; every change is saved as it is made.")
        st.download_button("Save game", data=saved_game(game), file_name="risk-game.json", mime="application/json",
                           key="save_game")
        upload_game()
    tabs = st.tabs([label for label, _ in VIEWS], key=TAB, on_change="rerun")
    for tab, (_, view) in zip(tabs, VIEWS):
        # Tabs track their state, so `open` is False for every tab but the one in view.
        if not tab.open:
            continue
        with tab, shown_errors():
            if in_setup and view not in (board_view, record_view, players_view, tables_view):
                st.info("This game is still in its setup: this tab needs an owner for every territory. "
                        "Enter them on the Board tab, or start a new game.")
                continue
            changed = view(game, names)
            if changed is not None:
                commit(changed)
                st.rerun()  # the new game, or the fresh one with the refusal, drawn from the top
    watch_store()


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
    return board_chart(GameState.from_json(game_json, trusted=True), names, colors, picked, width=MAP_WIDTH).to_dict()


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
def cached_heatmap(max_armies: int, stop_at: int, which: str) -> bytes:
    fig = Figure(figsize=(7, 6), layout="constrained")
    odds_tables(max_armies, stop_at=stop_at).heatmap(which, ax=fig.add_subplot())
    return figure_png(fig)


# ---------------------------------------------------------------------------------- Board
def board_view(game: GameState, names: list[str]) -> GameState | None:
    board = game.board
    map_col, edit_col = st.columns([3, 2])
    with edit_col:
        picked = st.multiselect(
            "Pick territories (type to search, or click them on the map): ringed on the map, edited here",
            board.territories, key=PICK, accept_new_options=True,
        )
        quick_edit(game, names, picked)
        st.subheader("Territories")
        edited = territory_editor(game, names)
    with map_col:
        known = [t for t in picked if t in board.territories]
        key = map_key(picked)
        with st.container(key="board_map"):
            st.vega_lite_chart(spec=map_spec(position_json(game), tuple(names), tuple(player_colors(game)),
                                             tuple(known)),
                               key=key, on_select=partial(pick_on_map, key), selection_mode=PICK_SELECTION,
                               width="content")
        st.subheader("Continents")
        st.dataframe(continents_overview(board, game, names), hide_index=True)
    return edited


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
    # No minimum here: the engine's check names the territory and the value.
    armies_col.number_input("Armies on each", value=None, max_value=MAX_ARMIES, step=1, placeholder="keep",
                            key=EDIT_ARMIES)
    st.button("Apply to the picked territories", on_click=apply_quick_edit, disabled=not picked, key="apply_quick_edit")
    if st.session_state.get(EDIT_ERROR):
        st.error(plain(st.session_state[EDIT_ERROR]))


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
    st.session_state[EDIT_ERROR] = None
    commit(edited)


def territory_editor(game: GameState, names: list[str]) -> GameState | None:
    """The editable table: a changed cell is applied at once, or refused with its message and left in place.

    Returns the edited game, for the caller to store. Entries refused because the game changed elsewhere stay
    in the table, not applied again until the user says so.
    """
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
            "Armies": st.column_config.NumberColumn("Armies", step=1, format="%d", max_value=MAX_ARMIES),
        },
    )
    changed = [t for t in range(len(table)) if edited.at[t, "Owner"] != table.at[t, "Owner"]]
    owner_changes = {board.territories[t]: names.index(edited.at[t, "Owner"])
                     for t in changed if edited.at[t, "Owner"] in names}
    unknown = [board.territories[t] for t in changed if edited.at[t, "Owner"] not in names]
    army_changes = {board.territories[t]: edited.at[t, "Armies"] for t in range(len(table))
                    if pd.isna(edited.at[t, "Armies"]) or edited.at[t, "Armies"] != table.at[t, "Armies"]}
    if not (owner_changes or army_changes or unknown):
        return None
    too_many = [t for t, a in army_changes.items() if not pd.isna(a) and a > MAX_ARMIES]
    if too_many:
        st.error(plain(f"{too_many[0]}: at most {MAX_ARMIES:,} armies on a territory (the limit on armies), got "
                       f"{army_changes[too_many[0]]:,.0f}. The table keeps your entries: correct the value to apply them."))
        return None
    entries = repr((sorted(owner_changes.items()), sorted(army_changes.items()), unknown))
    if st.session_state.get(REFUSED_TABLE) == entries:
        st.warning("Your entries in the table were not applied: the game had changed elsewhere.")
        st.button("Apply my table entries to the game as it is now", key="apply_table",
                  on_click=lambda: st.session_state.update({REFUSED_TABLE: None}))
        return None
    try:
        if unknown:
            raise ValueError(f"{unknown[0]} has no owner; choose one of {', '.join(names)}")
        updated = edit_position(game, owner=owner_changes, armies=army_changes)
    except ValueError as exc:
        st.error(plain(f"{exc}. The table keeps your entries: correct the value to apply them."))
        return None
    # Marked before the save: if it is refused the entries stay in the table (its key does not change).
    st.session_state[REFUSED_TABLE] = entries
    return updated


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
    st.caption("Names and colours")
    colors = player_colors(game)
    for p in range(game.n_players):
        name_col, color_col = st.columns([4, 1])
        name_col.text_input(f"Name of seat {p + 1}", value=names[p], key=game_key(f"name{p}"),
                            max_chars=MAX_NAME_LENGTH, on_change=apply_labels)
        color_col.color_picker("Colour", value=colors[p], key=game_key(f"color{p}"), on_change=apply_labels)
    if len(set(names)) < len(names):
        st.warning("Two players have the same name; the tables will not tell them apart.")
    alive = [p for p in range(game.n_players) if np.any(game.owner == p)]
    st.selectbox("Player to move", alive, index=alive.index(game.player) if game.player in alive else 0,
                 format_func=lambda p: names[p], key=game_key("to_move"))
    st.number_input("Sets traded so far", value=int(game.sets_traded), step=1, key=game_key("sets_traded"),
                    help=f"The next set is worth {game.next_set_value()} armies.")
    cards = list(range(board.n_cards))
    hidden = set(game.face_down)
    down = face_down.counts(game)
    st.caption("Cards: the ones you have seen, and how many more each player holds face down.")
    for p in range(game.n_players):
        known_col, down_col = st.columns([3, 1])
        # A face-down card's id is a placeholder: listing it would name a card nobody has seen.
        known_col.multiselect(f"Cards of {plain(names[p])}", cards, default=[c for c in game.hand(p) if c not in hidden],
                              format_func=lambda c: card_label(board, c), key=game_key(f"hand{p}"))
        down_col.number_input(f"Face down, {plain(names[p])}", min_value=0, max_value=board.n_cards, value=down[p], step=1,
                              key=game_key(f"down{p}"))
    st.button("Apply", on_click=apply_players, key="apply_players", type="primary")
    if st.session_state.get(PLAYERS_ERROR):
        st.error(plain(st.session_state[PLAYERS_ERROR]))


def apply_players() -> None:
    game: GameState = st.session_state[GAME]
    try:
        edited = edit_position(
            game,
            player=int(st.session_state[game_key("to_move")]),
            sets_traded=st.session_state[game_key("sets_traded")],
            hands={p: [*st.session_state[game_key(f"hand{p}")],
                       *[face_down.UNKNOWN] * int(st.session_state[game_key(f"down{p}")])] for p in range(game.n_players)},
        )
    except ValueError as exc:
        st.session_state[PLAYERS_ERROR] = str(exc)
        return
    st.session_state[PLAYERS_ERROR] = None
    commit(edited)


def apply_labels() -> None:
    """Store the names and colours typed (a blank name is the seat's default one)."""
    game: GameState = st.session_state[GAME]
    seats = range(game.n_players)
    names = [str(st.session_state.get(game_key(f"name{p}")) or "").strip() or player_name(p) for p in seats]
    colors = [str(st.session_state.get(game_key(f"color{p}")) or PLAYER_COLORS[p]) for p in seats]
    if names == player_names(game)[: game.n_players] and [c.lower() for c in colors] == [
            c.lower() for c in player_colors(game)[: game.n_players]]:
        # Nothing new (a picker reporting the colour it was given, in its own case): saving it anyway
        # started a new version, whose fresh pickers reported again, and a rename typed meanwhile was lost.
        return
    try:
        labelled = with_player_labels(game, names, colors)
    except ValueError as exc:
        st.session_state[PLAYERS_ERROR] = str(exc)
        return
    st.session_state[PLAYERS_ERROR] = None
    commit(labelled)


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
    best_turn(game, names)

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
        if chances.assumed:
            st.caption(plain(chances.assumed))


#: Phases in which the player whose turn it is has a decision to make (the search's starting points).
TURN_PHASES = (Phase.REINFORCE, Phase.ATTACK, Phase.MOVE_IN, Phase.FORTIFY)


def best_turn(game: GameState, names: list[str]) -> None:
    """The search bot's whole turn for the player to move, on a button: a few seconds of rollouts."""
    st.subheader("Best whole turn")
    player = names[game.player]
    if game.phase not in TURN_PHASES:
        st.info(f"A turn is suggested when {plain(player)} has a move to make (placing, attacking, moving in or "
                "fortifying): finish the battle or card draw in progress first.")
        return
    st.caption("Each plan (the default bot's own turn, bolder, more careful, for continents...) plays the rest of "
               f"{plain(player)}'s turn, then the default bot plays every seat to the end of the game; every plan "
               "gets the same dice, so their differences are sharper than their win chances.")
    budget_col, run_col = st.columns([3, 2])
    budget = budget_col.slider("Thinking time (s)", 1, 15, 3, key="turn_budget")
    if run_col.button("Suggest a turn", key="turn_run", type="primary"):
        bar = st.progress(0.0, text="Trying the plans...")

        def progress(done: int, used: float) -> None:
            bar.progress(used, text=f"{done} rollouts of each plan")

        tip = suggest_turn(game, budget=float(budget), on_progress=progress)
        bar.empty()
        st.session_state[TURN_TIP] = (position_json(game), tip)
    stored = st.session_state.get(TURN_TIP)
    if stored is None:
        return
    computed_for, tip = stored
    if computed_for != position_json(game):
        st.warning("This turn was suggested for an earlier position: suggest again.")
        return
    st.markdown(f"**{plain(tip.plan)}**: {plain(player)} wins {tip.win_chance:.0%} of the rollouts, against "
                f"{tip.default_win_chance:.0%} with the default bot's own turn.")
    st.metric("Gain in win chance", f"{tip.gain:+.1%}")
    st.markdown(f"95% interval: **{tip.gain_low:+.1%} to {tip.gain_high:+.1%}**")
    if tip.gain_low <= 0:
        st.caption("The interval reaches 0: no plan beats the default turn clearly yet (more thinking time "
                   "narrows it). The best of several plans is also picked for its luck, so the gain is optimistic.")
    # A list rather than a table: a step is a sentence, which a table's cell would cut short on a phone.
    st.markdown("\n".join(
        f"{row.step}. {plain(row.do)}" + (f" · *{plain(row.first_rollout)}*" if row.first_rollout else "")
        for row in turn_steps(game, tip).itertuples()
    ))
    st.caption(f"{tip.rollouts} rollouts of each of {len(tip.table)} plans. In italics, how a battle went on the "
               "first rollout's dice, which the later steps follow: with other dice, play on by the plan's rule.")
    with st.expander("Every plan tried"):
        st.dataframe(tip.table, hide_index=True, key="turn_plans", column_config={
            "plan": "Plan", "rollouts": "Rollouts",
            "win_chance": st.column_config.NumberColumn("Win chance", format="percent"),
            "gain": st.column_config.NumberColumn("Gain", format="percent"),
            "gain_low": st.column_config.NumberColumn("95% from", format="percent"),
            "gain_high": st.column_config.NumberColumn("to", format="percent"),
        })


# ---------------------------------------------------------------------------------- Tables
def record_view(game: GameState, names: list[str]) -> GameState | None:
    """Follow the game as it is played at the table, entry by entry (:mod:`app_live`)."""
    return app_live.render(game, "live")


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


#: The tabs of an open game, in order: (label, view). A view returning a game has it stored.
VIEWS: tuple[tuple[str, Callable[[GameState, list[str]], GameState | None]], ...] = (
    ("Board", board_view),
    ("Record", record_view),
    ("Players & cards", players_view),
    ("Continents", continents_view),
    ("Reinforcements", reinforcements_view),
    ("Suggestions", suggestions_view),
    ("Tables", tables_view),
)

main()
