"""The win-chance strip beside a live game: each player's chance to win, following the game entry by entry.

The chances are the evaluator's (:func:`analyzer.analysis.evaluator.chances`, as in every view; their
positions and method are :mod:`analyzer.services.valuation`'s): truncated rollouts of the default bot for the
game as it stands, drawn with the entry that made them, and a small chart of them at the start of each complete
turn, drawn at the next poll. A tap counts whole rollouts for the position now instead, with their 95%
intervals, when a player wants the figures measured to the end.
"""

from __future__ import annotations

import io

import numpy as np
import streamlit as st
from matplotlib.figure import Figure

from analyzer.analysis.evaluator import ROLLOUTS, Chances
from analyzer.game.labels import player_colors
from analyzer.game.state import GameState, turn_number
from analyzer.game.vocabulary import SETUP_PHASES
from analyzer.services.valuation import Series, chance_series, counted, now, position_key
from analyzer.text import plain
from analyzer.webapp.session import GAME, POLL_SECONDS, follow_store

#: Where the counted chances of this page are kept, by position.
COUNTED = "strip_counted"


#: Seconds a run of the chart may spend valuing turns not valued yet: a long game opened afresh fills its chart
#: over a few polls, and an entry waits behind a run for no longer than this.
CHART_SECONDS = 0.5


class _CutShort(Exception):
    """A series that ran out of time: not kept, so the next poll goes on with it."""

    def __init__(self, series: Series) -> None:
        super().__init__()
        self.series = series


@st.cache_data(max_entries=32, show_spinner=False)
def _series(game_json: str) -> Series:
    """:func:`chance_series` of the game within :data:`CHART_SECONDS`, kept by the game (history included) once
    whole."""
    series = chance_series(GameState.from_json(game_json, trusted=True), seconds=CHART_SECONDS)
    if not series.complete:
        raise _CutShort(series)
    return series


#: The small chart's size in inches, and the dots an inch a screen shows it at: 374 pixels wide, as wide as a 390-px
#: phone's column, so that its text is shown at the size it is drawn (8 points: 12 pixels), not shrunk.
CHART_SIZE = (3.4, 1.6)
SCREEN_DPI = 110
#: Pixels drawn for each pixel shown: a phone's screen has two or three to the pixel, where one was blurred.
PIXEL_RATIO = 2
#: The page's style for the chart's box (:data:`analyzer.webapp.main.CSS` holds it): the chart's width shown.
CHART_CSS = f".st-key-win_chart {{ max-width: {round(CHART_SIZE[0] * SCREEN_DPI)}px; }}"


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
    fig = Figure(figsize=CHART_SIZE, dpi=SCREEN_DPI * PIXEL_RATIO)
    ax = fig.subplots()
    series = np.array(chances)
    for p, name in enumerate(names):
        ax.plot(range(len(series)), 100 * series[:, p], color=colors[p], label=name, linewidth=1.5)
    ax.set_ylim(0, 100)
    starts = [i for i, turn in enumerate(turns) if i == 0 or turn != turns[i - 1]]
    ax.set_xticks(starts, [str(turns[i]) for i in starts])
    ax.set_xlabel("turn", fontsize=8)
    ax.set_ylabel("win chance %", fontsize=8)
    ax.tick_params(labelsize=8)
    # At most three names a row: a row of six overran the chart and left the last names out.
    ax.legend(fontsize=8, loc="upper left", ncols=min(len(names), 3), frameon=False)
    # Fixed margins, not tight_layout: its measuring pass draws the chart twice, a quarter of the chart's time in
    # the script thread that entries wait for. The tick labels are at most three digits, so the margins hold.
    fig.subplots_adjust(left=0.15, right=0.98, bottom=0.25, top=0.96)
    out = io.BytesIO()
    fig.savefig(out, format="png")
    return out.getvalue()


def _count(game: GameState, key: str) -> None:
    """The button's callback: the rollouts of the position now, kept for the page (run before the strip's next
    run draws them)."""
    st.session_state.setdefault(COUNTED, {})[key] = counted(game)


def _rows(n: int) -> list[int]:
    """How many players each row of the strip's figures holds: one row up to three, else two rows as even as may
    be. Six columns on a phone leave a name two letters ("Pl…").

    >>> [_rows(n) for n in (2, 3, 4, 5, 6)]
    [[2], [3], [2, 2], [3, 2], [3, 3]]
    """
    if n <= 3:
        return [n]
    return [(n + 1) // 2, n // 2]


def strip_figures(game: GameState | None, names: list[str]) -> None:
    """Each player's chance to win the game as it stands, drawn by the Record view's own run, so they come with
    the entry that made them; and the button that counts whole rollouts instead."""
    if game is None or int(game.phase) in SETUP_PHASES:
        return
    key = position_key(game)
    kept: dict[str, Chances] = st.session_state.setdefault(COUNTED, {})
    shown = kept.get(key) or now(game)
    with st.container(key="win_strip", border=True):
        cols = [col for row in _rows(game.n_players) for col in st.columns(row)]
        for p, col in enumerate(cols):
            if not game.alive[p]:
                # Out of the game: no chance to estimate, so no "0%" with an interval as if it were one.
                by = int(game.eliminated_by[p])
                col.metric(plain(names[p]), "out")
                col.caption(plain(f"taken out by {names[by]}") if by >= 0 else "out of the game")
                continue
            col.metric(
                plain(names[p]),
                f"{100 * shown.p[p]:.0f}%",
                help=f"{100 * shown.low[p]:.0f}% to {100 * shown.high[p]:.0f}%",
            )
            col.caption(f"{100 * shown.low[p]:.0f}–{100 * shown.high[p]:.0f}%")
        st.caption(plain(f"Now, {names[game.player]}'s turn {turn_number(game)}. {shown.caption}"))
        if key not in kept and shown.method != "rollouts":
            st.button(
                f"Count {ROLLOUTS} rollouts",
                key="strip_count",
                help="measure the chances now by rollouts of the default bot",
                on_click=_count,
                args=(game, key),
            )


@st.fragment(run_every=POLL_SECONDS)
def win_chart(names: list[str]) -> None:
    """The small chart of the chances at the start of each turn so far, under the strip's figures.

    A picture takes a tenth of a second to draw, more than an entry may wait, so it is drawn by its own run, at
    the poll after the entry. That poll is also the page's look for another device's entries
    (:func:`follow_store`): one poll, not two.
    """
    follow_store()
    game: GameState | None = st.session_state.get(GAME)
    if game is None or int(game.phase) in SETUP_PHASES:
        return
    try:
        series = _series(game.to_json())
    except _CutShort as cut:
        series = cut.series
    if len(series.chances) > 1 or not series.complete:
        with st.container(key="win_chart"):
            if len(series.chances) > 1:
                p_series = tuple(tuple(float(x) for x in c.p) for c in series.chances)
                names_shown = tuple(plain(n) for n in names)
                # Stretched in a box of the chart's width (the page's style): a width in pixels would have
                # Streamlit shrink the picture to it, the pixels drawn for a phone's screen with it.
                st.image(_chart_png(p_series, names_shown, tuple(player_colors(game)), series.turns), width="stretch")
                st.caption(plain(f"Each player's chance at the start of each turn, by {series.chances[0].how}."))
            if not series.complete:
                st.caption(
                    f"Valuing the turns so far: {len(series.chances)} of {series.positions} done, the rest follow."
                )
