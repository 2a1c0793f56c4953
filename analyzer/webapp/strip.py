"""The win-chance strip beside a live game: each player's chance to win, with its interval, following the game.

The chances are those of the game review (:func:`analyzer.analysis.review.position_chances`: the
default bot's rollouts) at the start of the turn being played, so they move after each recorded
turn. They are computed in a background thread of the server, one position at a time, the newest
first, and kept by position (a hash of the position without its history) in the game store's cache
(:meth:`analyzer.store.GameStore.put_cached`, kind :data:`CACHE_KIND`), so every session and every
later server finds them there: the strip polls for them every :data:`POLL_SECONDS` in a fragment of its own, so an entry is
never kept waiting. While the newest position is being valued the strip shows the last chances it
has, saying which turn they are from. Earlier turns are valued after it, for the small chart of the
chances over the turns so far.
"""

from __future__ import annotations

import hashlib
import io
import threading
from concurrent.futures import Future, ThreadPoolExecutor

import pandas as pd
import streamlit as st

from analyzer.analysis.review import assumptions, position_chances, turn_positions
from analyzer.errors import StoreError
from analyzer.game.state import GameState
from analyzer.store import GameStore
from analyzer.text import plain
from analyzer.webapp.session import GAME, store

#: Rollouts per position: intervals about 14 points wide at 50%, a few seconds of one core on a loaded server.
STRIP_ROLLOUTS = 200
#: Seconds between two looks for finished chances.
POLL_SECONDS = 2.0
#: Positions whose chances the server keeps in memory (a 4-player game of 100 player-turns has 101).
KEEP = 2000
#: The kind of the chances in the store's cache.
CACHE_KIND = "win-chances"

_LOCK = threading.Lock()
_DONE: dict[str, pd.DataFrame] = {}
_RUNNING: dict[str, Future[pd.DataFrame]] = {}
#: One thread: the chances queue behind each other, and the server keeps its other core for the pages.
_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="win-chances")


def position_key(state: GameState) -> str:
    """The key a position's chances are kept under: a hash of the position without its history, and the rollouts."""
    return f"{STRIP_ROLLOUTS}:" + hashlib.sha256(state.to_json(history=False).encode()).hexdigest()


def _value(key: str, state: GameState, games: GameStore) -> pd.DataFrame:
    table = position_chances(state, rollouts=STRIP_ROLLOUTS)
    try:
        games.put_cached(CACHE_KIND, key, table.to_json(orient="split"))
    except StoreError:
        pass  # the chances are still kept by this server; the store says what is wrong at the next save
    with _LOCK:
        _DONE[key] = table
        _RUNNING.pop(key, None)
        while len(_DONE) > KEEP:
            _DONE.pop(next(iter(_DONE)))
    return table


def chances(state: GameState, games: GameStore) -> pd.DataFrame | None:
    """The chances of ``state`` if they are known (to this server or in ``games``' cache); else they are
    queued (once) and None is returned."""
    key = position_key(state)
    with _LOCK:
        if key in _DONE:
            return _DONE[key]
        if key in _RUNNING:
            return None
    try:
        kept = games.get_cached(CACHE_KIND, key)
    except StoreError:
        kept = None
    with _LOCK:
        if kept is not None:
            _DONE[key] = pd.read_json(io.StringIO(kept), orient="split")
            return _DONE[key]
        if key not in _RUNNING:
            _RUNNING[key] = _WORKER.submit(_value, key, state, games)
    return None


@st.cache_data(max_entries=32, show_spinner=False)
def _positions(game_json: str) -> list[str]:
    """The game at the start of each complete turn, as JSON (cached by the game, history included)."""
    return [p.to_json(history=False) for p in turn_positions(GameState.from_json(game_json, trusted=True))]


def _queue(positions: list[GameState]) -> list[pd.DataFrame | None]:
    """Every position's chances as known now; the newest unknown one is queued first, then the others."""
    known: list[pd.DataFrame | None] = [None] * len(positions)
    for i in reversed(range(len(positions))):
        known[i] = chances(positions[i], store())
    return known


@st.fragment(run_every=POLL_SECONDS)
def win_strip(names: list[str]) -> None:
    """The strip: the chances at the start of the turn being played (or the latest known), and a small chart."""
    game: GameState | None = st.session_state.get(GAME)
    if game is None:
        return
    positions = [GameState.from_json(text, trusted=True) for text in _positions(game.to_json())]
    if not positions:
        st.caption("Win chances appear here once the first turn is recorded.")
        return
    known = _queue(positions)
    latest = max((i for i, table in enumerate(known) if table is not None), default=None)
    with st.container(key="win_strip", border=True):
        if latest is None:
            st.caption("Win chances: being computed…")
            return
        table = known[latest]
        assert table is not None
        cols = st.columns(game.n_players)
        for p, col in enumerate(cols):
            row = table.iloc[p]
            col.metric(plain(names[p]), f"{100 * row['p_win']:.0f}%",
                       help=f"95% interval {100 * row['ci_low']:.0f}% to {100 * row['ci_high']:.0f}%")
            col.caption(f"{100 * row['ci_low']:.0f}–{100 * row['ci_high']:.0f}%")
        turns = len(positions) - 1
        when = "now" if latest == turns else f"after turn {latest} (turn {turns} being valued)"
        st.caption(f"Win chances {when}, {STRIP_ROLLOUTS} rollouts. {assumptions(positions[latest])}")
        chart = pd.DataFrame([{"turn": i, "player": plain(names[p]), "chance": float(t.iloc[p]["p_win"])}
                              for i, t in enumerate(known) if t is not None for p in range(game.n_players)])
        if chart["turn"].nunique() > 1:
            wide = chart.pivot(index="turn", columns="player", values="chance")
            st.line_chart(wide, height=140, x_label="player-turns", y_label="win chance")
