"""The win-chance strip beside a live game: each player's chance to win, with its interval, following the game.

The chances are those of the game review (:func:`analyzer.analysis.review.position_chances`: the
planner bot's rollouts, :data:`analyzer.analysis.review.ROLLOUT_BOT`) at the start of the turn being played, so they move after each recorded
turn. They are computed in a background process of the server, one position at a time, the newest
first (a turn just recorded is valued next, before earlier turns still waiting), and kept by position (a hash of the position without its history) in the game store's cache
(:meth:`analyzer.store.GameStore.put_cached`, kind :data:`CACHE_KIND`), so every session and every
later server finds them there: the strip polls for them every :data:`POLL_SECONDS` in a fragment of its own, so an entry is
never kept waiting. While the newest position is being valued the strip shows the last chances it
has, saying which turn they are from. Earlier turns are valued after it, for the small chart of the
chances over the turns so far.
"""

from __future__ import annotations

import hashlib
import io
import multiprocessing
import os
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from functools import partial

import numpy as np
import pandas as pd
import streamlit as st
from matplotlib.figure import Figure

from analyzer.analysis.review import assumptions, position_chances, turn_positions
from analyzer.errors import StoreError
from analyzer.game.state import GameState, turn_number
from analyzer.store import GameStore
from analyzer.text import plain
from analyzer.webapp.session import GAME, follow_store, player_colors, store

#: The environment variable that sets :data:`STRIP_ROLLOUTS` (a club's server with cores to spare can
#: narrow the intervals; the browser test slows the valuation to see an entry answered before it ends).
ROLLOUTS_ENV = "RISK_ANALYZER_STRIP_ROLLOUTS"
#: Rollouts per position: intervals about 14 points wide at 50%, a few seconds of one core on a loaded server.
STRIP_ROLLOUTS = 200


def strip_rollouts() -> int:
    """The rollouts per position: :data:`ROLLOUTS_ENV` if set, else :data:`STRIP_ROLLOUTS`."""
    text = os.environ.get(ROLLOUTS_ENV, "").strip()
    if not text:
        return STRIP_ROLLOUTS
    if not text.isdigit() or int(text) < 2:
        raise ValueError(f"{ROLLOUTS_ENV}={text!r}: expected a whole number of rollouts, 2 or more")
    return int(text)


ROLLOUTS = strip_rollouts()
#: Seconds between two looks for finished chances.
POLL_SECONDS = 2.0
#: Positions whose chances the server keeps in memory (a 4-player game of 100 player-turns has 101).
KEEP = 2000
#: The kind of the chances in the store's cache.
CACHE_KIND = "win-chances"

_LOCK = threading.Lock()
_DONE: dict[str, pd.DataFrame] = {}
_RUNNING: dict[str, Future[pd.DataFrame]] = {}
#: The positions waiting to be valued: their priority (when a page last asked, the turn), how to read them,
#: and the store to keep their chances in.
_WANTED: dict[str, tuple[tuple[float, int], Callable[[], GameState], GameStore]] = {}
#: Seconds after which a waiting position that no page asked for again is dropped.
FORGET_SECONDS = 30.0
#: When this server last found each waiting position missing from the store's cache. It does not ask the store
#: again for RECHECK_SECONDS: a long game opened on a fresh server has a hundred positions waiting, and a look
#: for each at every poll kept the script thread, which the entries wait for, busy for most of the poll.
_MISSED: dict[str, float] = {}
#: Seconds before the store is asked again for a position it did not have (another server may have valued it).
RECHECK_SECONDS = 10.0
#: Lower than the server's own priority: the pages (and the browser on the same machine) come first.
_NICENESS = 5
#: One worker process: the chances queue behind each other, and the server keeps its other core for the
#: pages. A process, not a thread: the rollouts are Python and compiled code holding the interpreter's
#: lock, and a thread of the server would make every entry wait behind them.
_WORKER = ProcessPoolExecutor(
    max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=os.nice, initargs=(_NICENESS,)
)


def position_key(state: GameState, rollouts: int | None = None) -> str:
    """The key a position's chances are kept under: a hash of the position without its history, and the
    rollouts (by default the server's, :data:`ROLLOUTS`)."""
    return _key_of(state.to_json(history=False), rollouts)


def _key_of(position_json: str, rollouts: int | None = None) -> str:
    return f"{ROLLOUTS if rollouts is None else rollouts}:" + hashlib.sha256(position_json.encode()).hexdigest()


def _valued(key: str, games: GameStore, future: Future[pd.DataFrame]) -> None:
    """Keep the chances a worker found (in this server and in the store's cache), then value the next position."""
    if not future.cancelled() and future.exception() is None:
        table = future.result()
        try:
            games.put_cached(CACHE_KIND, key, table.to_json(orient="split"))
        except StoreError:
            pass  # the chances are still kept by this server; the store says what is wrong at the next save
        with _LOCK:
            _DONE[key] = table
            _MISSED.pop(key, None)
            while len(_DONE) > KEEP:
                _DONE.pop(next(iter(_DONE)))
    # Else not kept: the position is queued again the next time it is shown.
    with _LOCK:
        _RUNNING.pop(key, None)
    _next()


def chances(state: GameState, games: GameStore) -> pd.DataFrame | None:
    """The chances of ``state`` if they are known (to this server or in ``games``' cache); else they are
    queued (once) and None is returned."""
    known = _chances(position_key(state), lambda: state, games, (time.monotonic(), 0))
    _next()
    return known


def _chances(
    key: str, position: Callable[[], GameState], games: GameStore, priority: tuple[float, int]
) -> pd.DataFrame | None:
    """:func:`chances` of the position under ``key``, read (``position()``) only when it must be valued; else
    it waits with ``priority`` (:func:`_next` starts the waiting position of highest priority)."""
    with _LOCK:
        if key in _DONE:
            return _DONE[key]
        if key in _RUNNING:
            return None
        missed = _MISSED.get(key)
    kept = None
    if missed is None or time.monotonic() - missed >= RECHECK_SECONDS:
        try:
            kept = games.get_cached(CACHE_KIND, key)
        except StoreError:
            pass
        if kept is None:
            with _LOCK:
                _MISSED[key] = time.monotonic()
    with _LOCK:
        if kept is not None:
            _DONE[key] = pd.read_json(io.StringIO(kept), orient="split")
            _WANTED.pop(key, None)
            _MISSED.pop(key, None)
            return _DONE[key]
        if key not in _RUNNING:
            _WANTED[key] = (priority, position, games)
    return None


def _next() -> None:
    """Start valuing the waiting position of highest priority, unless one is being valued: one at a time, so
    that the newest turn of a game, asked for at the page's next poll, waits behind one position and not
    behind every earlier turn of the game. Positions no page has asked for in :data:`FORGET_SECONDS` are
    dropped: nobody is looking at them."""
    with _LOCK:
        now = time.monotonic()
        for key in [k for k, when in _MISSED.items() if now - when > RECHECK_SECONDS]:
            del _MISSED[key]
        if _RUNNING:
            return
        for key in [k for k, (priority, _, _) in _WANTED.items() if now - priority[0] > FORGET_SECONDS]:
            del _WANTED[key]
        if not _WANTED:
            return
        key = max(_WANTED, key=lambda k: _WANTED[k][0])
        _, position, games = _WANTED.pop(key)
        state = position()
        try:
            with _bare_main():
                future = _WORKER.submit(position_chances, state, rollouts=ROLLOUTS)
        except RuntimeError:
            return  # the server is shutting down
        _RUNNING[key] = future
    future.add_done_callback(partial(_valued, key, games))


@contextmanager
def _bare_main() -> Iterator[None]:
    """``__main__`` as an empty module while the worker may be started (it is, at the first submit).

    During a run Streamlit installs the app's script as ``sys.modules["__main__"]``, and a process spawned then
    runs that script first: the worker ran the whole app (its start page, on the store) before valuing anything,
    costing the server seconds of a core just as the first turn is recorded.
    """
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if main is not None:
            sys.modules["__main__"] = main


@st.cache_data(max_entries=32, show_spinner=False)
def _positions(game_json: str) -> list[tuple[str, str]]:
    """The key and JSON of the game at the start of each complete turn (cached by the game, history included)."""
    texts = [p.to_json(history=False) for p in turn_positions(GameState.from_json(game_json, trusted=True))]
    return [(_key_of(text), text) for text in texts]


def _queue(positions: list[tuple[str, str]], games: GameStore) -> list[pd.DataFrame | None]:
    """Every position's chances as known now; the unknown ones are queued, the newest to be valued first."""
    asked = time.monotonic()
    known = [
        _chances(key, partial(GameState.from_json, text, trusted=True), games, (asked, i))
        for i, (key, text) in enumerate(positions)
    ]
    _next()
    return known


@st.cache_data(max_entries=64, show_spinner=False)
def _chart_png(
    chances: tuple[tuple[float, ...], ...], names: tuple[str, ...], colors: tuple[str, ...], turns: tuple[int, ...]
) -> bytes:
    """The small chart of each player's chance over the turns (``turns``: the table's turn of each point), as a
    picture: a tick at the first point of each turn, named by its number.

    A picture, not an interactive chart: the strip is drawn again at each of
    its polls, and the browser of a phone takes longer to build a chart again
    than an entry may wait; the same picture is not fetched twice.
    """
    fig = Figure(figsize=(4.0, 1.5), dpi=110)
    ax = fig.subplots()
    series = np.array(chances)
    for p, name in enumerate(names):
        ax.plot(range(len(series)), 100 * series[:, p], color=colors[p], label=name, linewidth=1.5)
    ax.set_ylim(0, 100)
    starts = [i for i, turn in enumerate(turns) if i == 0 or turn != turns[i - 1]]
    ax.set_xticks(starts, [str(turns[i]) for i in starts])
    ax.set_xlabel("turn", fontsize=7)
    ax.set_ylabel("win chance %", fontsize=7)
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=6, loc="upper left", ncols=len(names), frameon=False)
    # Fixed margins, not tight_layout: its measuring pass drew the chart twice, a quarter of the chart's time in
    # the script thread that entries wait for. The tick labels are at most three digits, so the margins hold.
    fig.subplots_adjust(left=0.12, right=0.98, bottom=0.25, top=0.96)
    out = io.BytesIO()
    fig.savefig(out, format="png")
    return out.getvalue()


@st.fragment(run_every=POLL_SECONDS)
def win_strip(names: list[str]) -> None:
    """The strip: the chances at the start of the turn being played (or the latest known), and a small chart.

    Its poll is also the page's look for another device's entries (:func:`follow_store`): one poll, not two.
    Each poll is a run of the server's one script thread, and an entry's run that comes while one is queued is
    run with it, its answer waiting for both.
    """
    follow_store()
    game: GameState | None = st.session_state.get(GAME)
    if game is None:
        return
    positions = _positions(game.to_json())
    if not positions:
        st.caption("Win chances appear here once the first turn is recorded.")
        return
    known = _queue(positions, store())
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
            col.metric(
                plain(names[p]),
                f"{100 * row['p_win']:.0f}%",
                help=f"95% interval {100 * row['ci_low']:.0f}% to {100 * row['ci_high']:.0f}%",
            )
            col.caption(f"{100 * row['ci_low']:.0f}–{100 * row['ci_high']:.0f}%")
        shown = GameState.from_json(positions[latest][1], trusted=True)
        if latest == len(positions) - 1:
            when = "now"
        else:
            newest = GameState.from_json(positions[-1][1], trusted=True)
            when = f"at the start of {_whose_turn(shown, names)}; {_whose_turn(newest, names)} is being valued"
        st.caption(plain(f"Win chances {when}, {ROLLOUTS} rollouts. {assumptions(shown, names)}"))
        series = tuple(tuple(float(x) for x in t["p_win"]) for t in known if t is not None)
        if len(series) > 1:
            turns = tuple(_turn_of(text) for (_, text), t in zip(positions, known) if t is not None)
            st.image(
                _chart_png(series, tuple(plain(n) for n in names), tuple(player_colors(game)[: game.n_players]), turns)
            )


def _whose_turn(position: GameState, names: list[str]) -> str:
    """The turn a position starts, as the table says it: "Bo's turn 3"."""
    return f"{names[position.player]}'s turn {turn_number(position)}"


def _turn_of(position_json: str) -> int:
    return turn_number(GameState.from_json(position_json, trusted=True))
