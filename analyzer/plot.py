"""Matplotlib drawing of the board, shared by the app and the notebooks.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> fig = draw_board()          # the classic map, no game state
>>> len(fig.axes[0].texts)      # one name per territory
42
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib import colors as mcolors
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from analyzer.errors import BoardError
from analyzer.game.board import Board, classic_board
from analyzer.game.labels import NEUTRAL_COLOR, PLAYER_COLORS
from analyzer.game.labels import seat_name as player_name

if TYPE_CHECKING:
    import altair as alt
    import pandas as pd

    from analyzer.game.state import GameState
    from analyzer.solver.battle import BattleResult

#: Fill of territories nobody owns yet (or of every territory when no owners are given).
UNOWNED_COLOR = "#ffffff"
#: Pale continent backgrounds, in the classic order (N. America, S. America, Europe, Africa, Asia, Australia).
CONTINENT_COLORS: tuple[str, ...] = ("#f7e08b", "#f4a582", "#9ec5ea", "#d8b98c", "#a8d8a0", "#cdb4e0")
HIGHLIGHT_COLOR = "#ff00c8"
LAND_COLOR = "#4d4d4d"
SEA_COLOR = "#2b6cb0"

#: Name of :func:`board_chart`'s click selection, which :func:`chart_picks` reads the territories from.
PICK_SELECTION = "territory_pick"
#: Owner shown for a territory nobody holds yet.
UNOWNED = "nobody yet"

#: Marker area (points^2) of a territory; big enough for a three-digit army count.
_NODE_SIZE = 330.0
#: Width (points) of the pale band that joins the territories of one continent.
_CONTINENT_BAND = 26.0
#: Names longer than this are split over two lines so neighbours' labels do not collide.
_WRAP_AT = 11


def draw_board(
    board: Board | None = None,
    owner: Sequence[int] | np.ndarray | None = None,
    armies: Sequence[int] | np.ndarray | None = None,
    *,
    ax: Axes | None = None,
    player_colors: Sequence[str] | None = None,
    player_names: Sequence[str] | None = None,
    highlight: Iterable[int | str] | None = None,
    title: str | None = None,
    neutral: int | None = None,
) -> Figure:
    """Draw ``board`` (the classic map by default), optionally with a game position.

    ``owner[t]`` is the player id holding territory ``t`` (negative: nobody yet)
    and ``armies[t]`` its army count; either may be omitted to draw just the map.
    ``neutral`` is the id of the neutral force, always drawn grey. ``highlight``
    names territories (by name or id) to ring. Returns the figure holding ``ax``
    (a new one when ``ax`` is None).
    """
    board = classic_board() if board is None else board
    n = len(board.territories)
    owner_ids = _per_territory("owner", owner, n)
    army_counts = _per_territory("armies", armies, n)
    colors = tuple(PLAYER_COLORS if player_colors is None else player_colors)
    players = _players(owner_ids, neutral)
    for pid in players:
        if pid != neutral and pid >= len(colors):
            raise BoardError(f"player id {pid} has no colour: player_colors has only {len(colors)}")

    if ax is None:
        fig = Figure(figsize=_figsize(board.coords), layout="constrained")
        ax = fig.add_subplot()
    else:
        # `.figure` of a Figure is itself and of a SubFigure its root: the figure to return either way.
        fig = ax.figure.figure
    xlim, ylim = _limits(board.coords)
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_aspect("equal")
    ax.set_axis_off()
    if title is not None:
        ax.set_title(title)

    _draw_continents(ax, board)
    _draw_borders(ax, board, xlim)
    fills = _fills(owner_ids, colors, neutral, n)
    _draw_territories(ax, board, fills, army_counts)
    if highlight is not None:
        ids = [board.index(t) for t in highlight]
        xs, ys = board.coords[ids].T
        ax.scatter(
            xs,
            ys,
            s=_NODE_SIZE * 2.2,
            facecolors="none",
            edgecolors=HIGHLIGHT_COLOR,
            linewidths=2.5,
            zorder=4,
            gid="highlight",
        )

    continent_legend = ax.legend(
        handles=[
            Patch(
                facecolor=CONTINENT_COLORS[i % len(CONTINENT_COLORS)], edgecolor="none", label=f"{c.name} (+{c.bonus})"
            )
            for i, c in enumerate(board.continents)
        ],
        title="Continents",
        loc="upper left",
        bbox_to_anchor=(0.0, 0.0),
        ncols=3,
        fontsize=8,
        frameon=False,
    )
    if owner_ids is not None:
        # A second legend replaces the first unless the first is kept as an artist.
        ax.add_artist(continent_legend)
        ax.legend(
            handles=[_player_handle(pid, owner_ids, army_counts, colors, player_names, neutral) for pid in players],
            title="Players",
            loc="upper right",
            bbox_to_anchor=(1.0, 0.0),
            ncols=2,
            fontsize=8,
            frameon=False,
        )
    return fig


def draw_state(state: GameState, **kwargs: Any) -> Figure:
    """:func:`draw_board` of a game state; ``kwargs`` are passed on (``ax``, ``highlight``, ...)."""
    # The neutral force of a two-player game has the first id after the players'.
    return draw_board(state.board, state.owner, state.armies, neutral=state.n_players, **kwargs)


def plot_survivors(result: BattleResult, *, axes: Sequence[Axes] | None = None) -> Figure:
    """Bar charts of how one battle can end: armies left on each side.

    Left, the armies left on the attacking territory (green where the
    attacker conquered, red where it was stopped); right, the defenders left
    (the bar at 0 is P(win)). ``axes`` is a pair to draw on, or None for a new
    figure. Returns the figure.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from analyzer.solver.battle import battle
    >>> fig = plot_survivors(battle(5, 3))
    >>> round(float(fig.axes[1].patches[0].get_height()), 4)   # P(no defender left)
    0.6416
    """
    if axes is None:
        fig = Figure(figsize=(9, 3.2), layout="constrained")
        attacker_ax, defender_ax = fig.subplots(1, 2)
    else:
        attacker_ax, defender_ax = axes
        fig = attacker_ax.figure.figure
    won = result.defender_left == 0
    # The same number of armies can be left after a conquest or after a stop: stack the two.
    conquered = np.bincount(result.attacker_left[won], weights=result.probability[won], minlength=result.attackers + 1)
    stopped = np.bincount(result.attacker_left[~won], weights=result.probability[~won], minlength=result.attackers + 1)
    left = np.arange(result.attackers + 1)
    attacker_ax.bar(left, stopped, color="#d62728", label="stopped", gid="stopped")
    attacker_ax.bar(left, conquered, bottom=stopped, color="#2ca02c", label="conquered", gid="conquered")
    attacker_ax.set_xlabel("armies left on the attacking territory")
    attacker_ax.set_ylabel("probability")
    attacker_ax.legend(fontsize=8, frameon=False)
    defenders = result.defender_distribution()
    defender_ax.bar(np.arange(len(defenders)), defenders, color="#1f5fbf", gid="defenders")
    defender_ax.set_xlabel("defenders left (0: conquered)")
    for ax in (attacker_ax, defender_ax):
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.set_ylim(0, None)
    attacker_ax.set_title(f"{result.attackers} attacking {result.defenders}: P(win) = {result.p_win:.1%}", fontsize=10)
    return fig


def board_chart(
    state: GameState,
    player_names: Sequence[str] | None = None,
    player_colors: Sequence[str] | None = None,
    picked: Iterable[int | str] = (),
    *,
    width: int = 600,
    continent: int | None = None,
) -> alt.LayerChart:
    """The position as an Altair chart whose territories can be clicked: the app's map.

    The same picture as :func:`draw_state` (territories coloured by owner with
    their armies, land borders solid and sea routes dashed, continents as pale
    halos), drawn by the browser, so that a click selects a territory through
    the point selection :data:`PICK_SELECTION` (see :func:`chart_picks`).
    ``player_names`` and ``player_colors`` are per force as in
    :func:`draw_board`, the neutral force's included; ``picked`` territories
    (names or ids) are ringed. With ``continent`` (an index into
    ``board.continents``) only that continent is drawn, as large as ``width``
    allows: a map a phone can be tapped on.

    >>> from analyzer.game.state import GameState
    >>> chart = board_chart(GameState.from_position([0] * 41 + [1], [3] * 42, n_players=3), picked=["Peru"])
    >>> [param.name for param in chart.params]
    ['territory_pick']
    """
    # Altair is only needed for this chart: importing it with the module would slow every plain drawing.
    import altair as alt
    import pandas as pd

    board = state.board
    names, colors = _forces(state, player_names, player_colors)
    shown = _shown(board, continent)
    territories = _territory_table(state, names, colors, picked)[shown]
    xlim, ylim = _limits(board.coords[shown])
    height = round(width * (ylim[1] - ylim[0]) / (xlim[1] - xlim[0]))
    x = alt.X("x:Q", scale=alt.Scale(domain=list(xlim), nice=False, zero=False), axis=None)
    y = alt.Y("y:Q", scale=alt.Scale(domain=list(ylim), nice=False, zero=False), axis=None)
    tooltip = [
        alt.Tooltip("territory:N", title="Territory"),
        alt.Tooltip("continent:N", title="Continent"),
        alt.Tooltip("owner:N", title="Owner"),
        alt.Tooltip("armies:Q", title="Armies"),
    ]
    base = alt.Chart(territories).encode(x=x, y=y, tooltip=tooltip)

    # A name shared by two players is drawn in the first one's colour: the sidebar warns of it.
    owners = _owners(state, names)
    owner_colors = [colors[names.index(o)] if o != UNOWNED else UNOWNED_COLOR for o in owners]
    pick = alt.selection_point(name=PICK_SELECTION, fields=["territory"], on="click")
    continents = base.mark_circle(size=_NODE_SIZE * 5, opacity=0.8).encode(
        color=alt.Color(
            "continent:N",
            scale=alt.Scale(domain=[c.name for c in board.continents], range=list(CONTINENT_COLORS)),
            # One continent's map is named by its picker: a key of six colours, wider than a phone, showed others.
            legend=alt.Legend(title="Continents", orient="bottom") if continent is None else None,
        )
    )
    markers = (
        base.mark_circle(size=_NODE_SIZE, opacity=1.0, stroke="black", strokeWidth=0.8, cursor="pointer")
        .encode(
            color=alt.Color(
                "owner:N",
                scale=alt.Scale(domain=list(owners), range=owner_colors),
                # Three to a row on a continent's map, which a phone's width holds; the world map has room for six.
                legend=alt.Legend(title="Players", orient="top", columns=3 if continent is not None else alt.Undefined),
            ),
            # The accessible name of each marker, so a screen reader (or a browser test) can find a territory.
            description=alt.Description("territory:N"),
        )
        .add_params(pick)
    )
    rings = base.transform_filter("datum.picked").mark_point(
        shape="circle", filled=False, size=_NODE_SIZE * 2.2, color=HIGHLIGHT_COLOR, strokeWidth=2.5, opacity=1.0
    )
    armies = base.mark_text(fontSize=11, fontWeight="bold", cursor="pointer").encode(
        text="armies:Q", color=alt.Color("ink:N", scale=None)
    )
    below = (
        base.transform_filter("!datum.above")
        .mark_text(fontSize=8, dy=10, baseline="top", lineBreak="\n", color="#333333")
        .encode(text="label:N")
    )
    # Above a marker a name's lines still run downwards from the first: a two-line name starts a line higher.
    above = [
        base.transform_filter(f"datum.above && datum.lines == {n}")
        .mark_text(
            fontSize=8,
            dy=-10 - _LINE_HEIGHT * (n - 1),
            baseline="bottom",
            lineBreak="\n",
            color="#333333",
        )
        .encode(text="label:N")
        for n in (1, 2)
    ]

    # The map wraps round at the whole board's width, whatever part of it is drawn.
    full_x = _limits(board.coords)[0]
    period = full_x[1] - full_x[0]
    segments = [
        (a, b, border.sea)
        for border in board.borders
        if shown[border.a] and shown[border.b]
        for a, b in _route(board.coords[border.a], board.coords[border.b], border.sea, period)
    ]
    routes = pd.DataFrame(
        [(a[0], a[1], b[0], b[1], sea) for a, b, sea in segments], columns=["x", "y", "x2", "y2", "sea"]
    )
    lines = alt.Chart(routes).encode(x=x, y=y, x2="x2:Q", y2="y2:Q")
    land = lines.transform_filter("!datum.sea").mark_rule(color=LAND_COLOR, strokeWidth=1)
    sea = lines.transform_filter("datum.sea").mark_rule(color=SEA_COLOR, strokeWidth=1.3, strokeDash=[5, 4])

    return (
        alt.layer(continents, land, sea, markers, rings, armies, below, *above)
        # Two colour legends: continents and players each keep their own scale.
        .resolve_scale(color="independent")
        .properties(width=width, height=height, usermeta={"embedOptions": {"renderer": "svg"}})
        .configure_view(stroke=None)
    )


def board_spec(
    state: GameState,
    player_names: Sequence[str] | None = None,
    player_colors: Sequence[str] | None = None,
    picked: Iterable[int | str] = (),
    *,
    width: int = 600,
    continent: int | None = None,
) -> dict[str, Any]:
    """:func:`board_chart`'s Vega-Lite spec (its ``to_dict()``), built in a few milliseconds where the chart takes
    a tenth of a second: what the app draws at each entry of a claimed setup.

    The chart's layout (its layers, scales and legends, the borders drawn) depends on the board, the forces'
    names and colours, the width, the continent and which forces own a territory; the position changes only the
    table of territories in it. The layout is built once through :func:`board_chart` and kept, and each call
    puts the position's table in a copy of it. The spec is :func:`board_chart`'s, its data set's name aside
    (the layout's, which keeps one name while the position changes).

    >>> from analyzer.game.state import GameState
    >>> state = GameState.from_position([0] * 41 + [1], [3] * 42, n_players=3)
    >>> spec = board_spec(state, picked=["Peru"])
    >>> sorted(row["territory"] for rows in spec["datasets"].values() for row in rows if row.get("picked"))
    ['Peru']
    """
    import altair as alt

    names, colors = _forces(state, player_names, player_colors)
    key = (id(state.board), tuple(names), tuple(colors), width, continent, tuple(_owners(state, names)))
    kept = _LAYOUTS.pop(key, None)
    if kept is None:
        spec = board_chart(state, names, colors, width=width, continent=continent).to_dict(validate=False)
        name = next(n for n, rows in spec["datasets"].items() if rows and "territory" in rows[0])
        kept = (state.board, spec, name)  # the board is kept with its layout, so its id names no other board
    _LAYOUTS[key] = kept  # the newest last: the oldest layout is the one dropped
    while len(_LAYOUTS) > _KEEP_LAYOUTS:
        _LAYOUTS.pop(next(iter(_LAYOUTS)))
    _, layout, name = kept
    spec = copy.deepcopy(layout)
    rows = _territory_table(state, names, colors, picked)[_shown(state.board, continent)]
    spec["datasets"][name] = alt.utils.data.to_values(rows)["values"]
    return spec


#: The layouts :func:`board_spec` keeps: (board's id, names, colours, width, continent, owners) -> (board, spec,
#: the name of its territories' data set). A claimed setup's maps take one for each continent and set of owners.
_LAYOUTS: dict[tuple[Any, ...], tuple[Board, dict[str, Any], str]] = {}
_KEEP_LAYOUTS = 64


def _forces(
    state: GameState, player_names: Sequence[str] | None, player_colors: Sequence[str] | None
) -> tuple[list[str], list[str]]:
    """Each force's name and colour (the neutral's included), as given or by default; too few is an error."""
    neutral = state.n_players
    forces = neutral + (1 if state.neutral is not None else 0)
    names = [player_name(pid, neutral) for pid in range(forces)] if player_names is None else list(player_names)
    colors = (
        list(PLAYER_COLORS[:neutral]) + [NEUTRAL_COLOR] * (forces - neutral)
        if player_colors is None
        else list(player_colors)
    )
    if len(names) < forces or len(colors) < forces:
        raise BoardError(f"the game has {forces} forces but {len(names)} names and {len(colors)} colours were given")
    return names, colors


def _shown(board: Board, continent: int | None) -> np.ndarray:
    """Which territories a map of ``continent`` (None: the whole board) draws; an unknown continent is an error."""
    if continent is None:
        return np.ones(board.n_territories, dtype=bool)
    if not 0 <= continent < len(board.continents):
        raise BoardError(
            f"continent {continent!r} does not exist; continents are numbered 0 to {len(board.continents) - 1}"
        )
    return board.continent_of == continent


def _owners(state: GameState, names: Sequence[str]) -> list[str]:
    """The owners shown in the map's legend, in seat order ("nobody yet" first while territories are free)."""
    return list(dict.fromkeys(names[int(pid)] if pid >= 0 else UNOWNED for pid in sorted(set(state.owner.tolist()))))


def _territory_table(
    state: GameState, names: Sequence[str], colors: Sequence[str], picked: Iterable[int | str]
) -> pd.DataFrame:
    """A row per territory of the board: what the map draws of it in ``state``."""
    import pandas as pd

    board = state.board
    fills = _fills(state.owner.astype(np.int64), colors, state.n_players, board.n_territories)
    ringed = {board.index(t) for t in picked}
    return pd.DataFrame(
        {
            "territory": board.territories,
            "label": [_wrap(name) for name in board.territories],
            "continent": [board.continents[int(c)].name for c in board.continent_of],
            "x": board.coords[:, 0],
            "y": board.coords[:, 1],
            "owner": [names[int(pid)] if pid >= 0 else UNOWNED for pid in state.owner],
            "armies": state.armies.astype(int),
            "ink": [_ink(fill) for fill in fills],
            "picked": [t in ringed for t in range(board.n_territories)],
            "above": _labels_above(board.coords),
            "lines": [_wrap(name).count("\n") + 1 for name in board.territories],
        }
    )


def chart_picks(selection: Mapping[str, Any], board: Board | None = None) -> list[str]:
    """The territories of ``board`` clicked in a :func:`board_chart`, from the selection state of its chart event.

    ``selection`` maps selection names to their state, as Streamlit reports a
    chart's ``on_select`` event; a point selection's state is a list of the
    selected points' fields. Anything else (an empty selection, a click on a
    border line) gives no territory.

    >>> chart_picks({PICK_SELECTION: [{"territory": "Peru"}, {"territory": None}]})
    ['Peru']
    """
    board = classic_board() if board is None else board
    points = selection.get(PICK_SELECTION)
    if not isinstance(points, list):
        return []
    names = [point.get("territory") for point in points if isinstance(point, Mapping)]
    return [name for name in names if isinstance(name, str) and name in board.territories]


def _per_territory(what: str, values: Sequence[int] | np.ndarray | None, n: int) -> np.ndarray | None:
    if values is None:
        return None
    array = np.asarray(values)
    if array.ndim != 1 or len(array) != n:
        raise BoardError(
            f"{what} has {len(array) if array.ndim == 1 else array.shape} entries but the board has {n} territories"
        )
    if not np.issubdtype(array.dtype, np.integer):
        raise BoardError(f"{what} must hold whole numbers, got dtype {array.dtype}")
    return array.astype(np.int64)


def _players(owner: np.ndarray | None, neutral: int | None) -> list[int]:
    """Player ids for the legend: every id up to the highest owner, the neutral force last."""
    if owner is None or not (owner >= 0).any():
        return []
    owned = set(owner[owner >= 0].tolist())
    ids = [pid for pid in range(max(owned) + 1) if pid != neutral]
    return ids + [neutral] if neutral is not None and neutral in owned else ids


def _fills(owner: np.ndarray | None, colors: Sequence[str], neutral: int | None, n: int) -> list[str]:
    if owner is None:
        return [UNOWNED_COLOR] * n
    return [UNOWNED_COLOR if pid < 0 else NEUTRAL_COLOR if pid == neutral else colors[pid] for pid in owner.tolist()]


def _player_handle(
    pid: int,
    owner: np.ndarray,
    armies: np.ndarray | None,
    colors: Sequence[str],
    names: Sequence[str] | None,
    neutral: int | None,
) -> Line2D:
    name = names[pid] if names is not None and pid < len(names) else player_name(pid, neutral)
    held = owner == pid
    label = f"{name}: {int(held.sum())} territories"
    if armies is not None:
        label += f", {int(armies[held].sum())} armies"
    return Line2D(
        [],
        [],
        marker="o",
        linestyle="none",
        markersize=10,
        markerfacecolor=NEUTRAL_COLOR if pid == neutral else colors[pid],
        markeredgecolor="black",
        label=label,
    )


def _limits(coords: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]]:
    lo, hi = coords.min(axis=0), coords.max(axis=0)
    pad = 0.06 * float((hi - lo).max())
    return (float(lo[0] - pad), float(hi[0] + pad)), (float(lo[1] - pad), float(hi[1] + pad))


def _figsize(coords: np.ndarray) -> tuple[float, float]:
    (x0, x1), (y0, y1) = _limits(coords)
    width = 10.0
    # Room under the map for the two legends.
    return width, width * (y1 - y0) / (x1 - x0) + 1.0


def _draw_continents(ax: Axes, board: Board) -> None:
    """Each continent as a pale region: bands along its inner borders, filled where three of them close a triangle.

    Following the border graph keeps the region on the continent's own territories, where a
    convex hull of an irregular continent can spill over its neighbours.
    """
    for i, continent in enumerate(board.continents):
        color = CONTINENT_COLORS[i % len(CONTINENT_COLORS)]
        members = set(continent.territories)
        inner = {(b.a, b.b) for b in board.borders if b.a in members and b.b in members}
        triangles = [
            board.coords[[a, b, c]]
            for (a, b) in inner
            for c in members
            if b < c and (a, c) in inner and (b, c) in inner
        ]
        gid = f"continent:{continent.name}"
        ax.add_collection(
            PolyCollection(
                triangles,
                facecolors=color,
                edgecolors=color,
                linewidths=_CONTINENT_BAND,
                joinstyle="round",
                zorder=0,
                gid=gid,
            )
        )
        ax.add_collection(
            LineCollection(
                [board.coords[list(e)] for e in inner],
                colors=color,
                linewidths=_CONTINENT_BAND,
                capstyle="round",
                zorder=0,
                gid=gid,
            )
        )
        xs, ys = board.coords[sorted(members)].T
        ax.scatter(xs, ys, s=_NODE_SIZE * 5, color=color, linewidths=0, zorder=0, gid=gid)


def _draw_borders(ax: Axes, board: Board, xlim: tuple[float, float]) -> None:
    land = [board.coords[[b.a, b.b]] for b in board.borders if not b.sea]
    ax.add_collection(LineCollection(land, colors=LAND_COLOR, linewidths=1.0, zorder=1, gid="land"))
    # A route longer than half the map goes round the back of the globe (Alaska-Kamchatka):
    # draw it as two stubs leaving the map towards each other's shifted image.
    period = xlim[1] - xlim[0]
    for border in (b for b in board.borders if b.sea):
        a, b = board.coords[border.a], board.coords[border.b]
        gid = f"sea:{board.territories[border.a]}-{board.territories[border.b]}"
        if abs(a[0] - b[0]) <= period / 2:
            segments = [(a, b)]
        else:
            west, east = (a, b) if a[0] < b[0] else (b, a)
            segments = [(west, east - (period, 0.0)), (east, west + (period, 0.0))]
        for start, end in segments:
            ax.add_line(
                Line2D(
                    [start[0], end[0]],
                    [start[1], end[1]],
                    color=SEA_COLOR,
                    linewidth=1.3,
                    linestyle="--",
                    zorder=1,
                    gid=gid,
                )
            )


def _draw_territories(ax: Axes, board: Board, fills: list[str], armies: np.ndarray | None) -> None:
    xs, ys = board.coords.T
    ax.scatter(xs, ys, s=_NODE_SIZE, c=fills, edgecolors="black", linewidths=0.8, zorder=3, gid="territories")
    for t, (x, y) in enumerate(board.coords):
        ax.annotate(
            _wrap(board.territories[t]),
            (x, y),
            xytext=(0, -11),
            textcoords="offset points",
            ha="center",
            va="top",
            fontsize=6,
            zorder=5,
            gid="name",
        )
        if armies is not None:
            ax.text(
                x,
                y,
                str(armies[t]),
                ha="center",
                va="center",
                fontsize=8,
                fontweight="bold",
                color=_ink(fills[t]),
                zorder=5,
                gid="armies",
            )


def _route(a: np.ndarray, b: np.ndarray, sea: bool, period: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """The segments drawn for the border a-b: one, or for a sea route round the back of the globe
    (Alaska-Kamchatka) two stubs leaving the map towards each other's shifted image, as in :func:`draw_board`."""
    if not sea or abs(a[0] - b[0]) <= period / 2:
        return [(a, b)]
    west, east = (a, b) if a[0] < b[0] else (b, a)
    return [(west, east - (period, 0.0)), (east, west + (period, 0.0))]


def _wrap(name: str) -> str:
    if len(name) <= _WRAP_AT or " " not in name:
        return name
    # Split at the space nearest the middle.
    spaces = [i for i, ch in enumerate(name) if ch == " "]
    cut = min(spaces, key=lambda i: abs(i - len(name) / 2))
    return name[:cut] + "\n" + name[cut + 1 :]


def _ink(fill: str) -> str:
    """Black or white text, whichever reads better on ``fill``."""
    r, g, b = mcolors.to_rgb(fill)
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"


#: A territory whose name would run into a marker this close below it (board units) has its name above instead.
_LABEL_CLEAR_X = 4.0
_LABEL_CLEAR_Y = 9.0
#: Height in pixels of a line of a territory's name on the chart (8 px type).
_LINE_HEIGHT = 9


def _labels_above(coords: np.ndarray) -> list[bool]:
    """For each territory, whether another marker sits just below it, where its name is drawn by default.

    >>> from analyzer.game.board import classic_board
    >>> board = classic_board()
    >>> above = _labels_above(board.coords)
    >>> [board.territories[t] for t in range(board.n_territories) if above[t]][:3]
    ['Northwest Territory', 'Iceland', 'Northern Europe']
    """
    out = []
    for x, y in coords:
        near = np.abs(coords[:, 0] - x) < _LABEL_CLEAR_X
        dy = y - coords[:, 1]
        below = np.any(near & (dy > 0) & (dy < _LABEL_CLEAR_Y))
        over = np.any(near & (dy < 0) & (dy > -_LABEL_CLEAR_Y))
        out.append(bool(below and not over))
    return out


def whole_ticks(lo: int, hi: int, most: int = 10) -> list[int]:
    """Evenly spaced whole-number ticks from ``lo`` to ``hi``: a step of 1, 2 or 5 times a power of ten, at most ``most`` steps.

    >>> whole_ticks(0, 7), whole_ticks(950, 1000), whole_ticks(1, 1000)[:3]
    ([0, 1, 2, 3, 4, 5, 6, 7], [950, 955, 960, 965, 970, 975, 980, 985, 990, 995, 1000], [100, 200, 300])
    """
    span = max(1, hi - lo)
    step = next(m * 10**e for e in itertools.count() for m in (1, 2, 5) if span / (m * 10**e) <= most)
    first = -(-lo // step) * step
    return list(range(first, hi + 1, step))


def turn_chart(
    frame: pd.DataFrame,
    value: str,
    title: str,
    names: Sequence[str],
    colors: Sequence[str],
    domain: tuple[float, float] | None = None,
) -> alt.Chart:
    """Each player's ``value`` over the turns, from ``frame`` (a row per turn and player: ``turn``, ``name`` and
    ``value``): a line each, named and coloured as ``names`` and ``colors``, with a point at every turn so that a
    game of one turn still shows, and an axis of whole turns.

    >>> import pandas as pd
    >>> frame = pd.DataFrame({"turn": [1, 1], "name": ["Ann", "Bo"], "percentile": [77.0, 23.0]})
    >>> spec = turn_chart(frame, "percentile", "percentile", ["Ann", "Bo"], ["#d62728", "#1f77b4"]).to_dict()
    >>> spec["mark"]["type"], spec["mark"]["point"]["filled"], spec["encoding"]["x"]["axis"]["values"]
    ('line', True, [1])
    """
    import altair as alt

    first, last = int(frame["turn"].min()), int(frame["turn"].max())
    x = alt.X(
        "turn:Q",
        title="turn",
        # A single turn would make a scale of no width, which Vega labels 1.000000.
        scale=alt.Scale(domain=[first, last] if last > first else [first - 1, first + 1], nice=False),
        axis=alt.Axis(values=whole_ticks(first, last), format="d"),
    )
    y = alt.Y(f"{value}:Q", title=title, scale=alt.Scale(domain=list(domain)) if domain else alt.Undefined)
    color = alt.Color(
        "name:N",
        scale=alt.Scale(domain=list(names), range=list(colors)),
        legend=alt.Legend(title=None, orient="bottom"),
    )
    tooltip = ["turn:Q", "name:N", alt.Tooltip(f"{value}:Q", format=".0f")]
    return (
        alt.Chart(frame)
        .mark_line(point=alt.OverlayMarkDef(filled=True, size=30))
        .encode(x=x, y=y, color=color, tooltip=tooltip)
    )
