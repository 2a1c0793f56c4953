"""The board drawing: what is drawn, and that bad inputs are refused with a clear message."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib import colors as mcolors
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.figure import Figure

from analyzer.game.board import classic_board
from analyzer.game.state import GameState
from analyzer.plot import NEUTRAL_COLOR, PLAYER_COLORS, draw_board, draw_state

BOARD = classic_board()
N = len(BOARD.territories)


def by_gid(ax: Axes, gid: str) -> list[object]:
    return [a for a in ax.get_children() if a.get_gid() == gid]


def texts(ax: Axes, gid: str) -> list[str]:
    return [t.get_text() for t in ax.texts if t.get_gid() == gid]


def territory_markers(ax: Axes) -> PathCollection:
    (markers,) = by_gid(ax, "territories")
    assert isinstance(markers, PathCollection)
    return markers


def legend_labels(ax: Axes) -> list[str]:
    legends = [a for a in ax.get_children() if isinstance(a, matplotlib.legend.Legend)]
    return [t.get_text() for legend in legends for t in legend.get_texts()]


def test_the_bare_map_has_a_marker_and_a_name_per_territory() -> None:
    fig = draw_board()
    ax = fig.axes[0]
    assert isinstance(fig, Figure)
    assert len(territory_markers(ax).get_offsets()) == N == 42
    assert [name.replace("\n", " ") for name in texts(ax, "name")] == list(BOARD.territories)
    assert texts(ax, "armies") == []
    np.testing.assert_allclose(territory_markers(ax).get_offsets(), BOARD.coords)


def test_continents_are_in_the_legend_with_their_bonus() -> None:
    labels = legend_labels(draw_board().axes[0])
    assert "North America (+5)" in labels
    assert "Australia (+2)" in labels
    assert all(f"{c.name} (+{c.bonus})" in labels for c in BOARD.continents)
    # Without owners there are no players to list.
    assert not any(label.startswith("Player") for label in labels)


def test_land_borders_are_solid_and_sea_routes_dashed() -> None:
    ax = draw_board().axes[0]
    (land,) = by_gid(ax, "land")
    assert isinstance(land, LineCollection)
    assert len(land.get_segments()) == sum(not b.sea for b in BOARD.borders)
    assert land.get_linestyle() == [(0, None)]

    dashed = [line for line in ax.lines if line.get_linestyle() == "--"]
    sea = [b for b in BOARD.borders if b.sea]
    expected = {f"sea:{BOARD.territories[b.a]}-{BOARD.territories[b.b]}" for b in sea}
    assert {line.get_gid() for line in dashed} == expected
    # Every sea route is one dashed line except the one that wraps round the map edge.
    assert len(dashed) == len(sea) + 1


def test_alaska_kamchatka_leaves_the_map_at_both_edges_instead_of_crossing_it() -> None:
    ax = draw_board().axes[0]
    alaska, kamchatka = BOARD.index("Alaska"), BOARD.index("Kamchatka")
    gid = "sea:" + "-".join(BOARD.territories[t] for t in sorted((alaska, kamchatka)))
    stubs = [line for line in ax.lines if line.get_gid() == gid]
    assert len(stubs) == 2
    left, right = ax.get_xlim()
    width = right - left
    starts = set()
    for stub in stubs:
        xs, ys = np.asarray(stub.get_xdata()), np.asarray(stub.get_ydata())
        starts.add((float(xs[0]), float(ys[0])))
        assert abs(xs[1] - xs[0]) < width / 2, "a stub must not cross the map"
        assert xs[1] < left or xs[1] > right, "a stub must run off the map edge"
    assert starts == {tuple(BOARD.coords[alaska]), tuple(BOARD.coords[kamchatka])}


def test_a_game_state_is_drawn_with_owner_colours_and_army_counts() -> None:
    state = GameState.random_start(4, np.random.default_rng(7))
    ax = draw_state(state, title="Four players").axes[0]
    assert texts(ax, "armies") == [str(a) for a in state.armies]
    expected = np.array([mcolors.to_rgba(PLAYER_COLORS[p]) for p in state.owner])
    np.testing.assert_allclose(territory_markers(ax).get_facecolors(), expected)
    labels = legend_labels(ax)
    for pid in range(4):
        held = state.owner == pid
        assert f"Player {pid + 1}: {held.sum()} territories, {state.armies[held].sum()} armies" in labels
    assert ax.get_title() == "Four players"


def test_the_neutral_force_of_a_two_player_game_is_grey() -> None:
    state = GameState.random_start(2, np.random.default_rng(3))
    neutral = state.n_players
    assert (state.owner == neutral).any()
    ax = draw_state(state).axes[0]
    faces = territory_markers(ax).get_facecolors()
    grey = mcolors.to_rgba(NEUTRAL_COLOR)
    for t, pid in enumerate(state.owner):
        assert (tuple(faces[t]) == grey) == (pid == neutral)
    assert any(label.startswith("Neutral: ") for label in legend_labels(ax))


def test_hand_made_position_with_names_colours_and_highlight() -> None:
    owner = np.arange(N) % 3
    armies = np.arange(N) + 1
    ax = draw_board(
        BOARD,
        owner,
        armies,
        player_colors=["red", "green", "blue"],
        player_names=["Ann", "Bob", "Cy"],
        highlight=["Alaska", 41],
    ).axes[0]
    np.testing.assert_allclose(
        territory_markers(ax).get_facecolors()[:3], [mcolors.to_rgba(c) for c in ("red", "green", "blue")]
    )
    assert texts(ax, "armies")[:3] == ["1", "2", "3"]
    assert any(label.startswith("Bob: 14 territories") for label in legend_labels(ax))
    (rings,) = by_gid(ax, "highlight")
    np.testing.assert_allclose(rings.get_offsets(), BOARD.coords[[BOARD.index("Alaska"), 41]])


def test_draws_into_a_given_axes() -> None:
    fig = Figure()
    ax = fig.add_subplot(1, 2, 2)
    assert draw_board(ax=ax) is fig
    assert len(territory_markers(ax).get_offsets()) == N


def test_the_figure_renders() -> None:
    fig = draw_state(GameState.random_start(3, np.random.default_rng(1)))
    fig.canvas.draw()
    width, height = fig.canvas.get_width_height()
    assert width > height > 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"owner": np.zeros(41, dtype=int)}, "owner has 41 entries but the board has 42 territories"),
        ({"armies": [1] * 43}, "armies has 43 entries but the board has 42 territories"),
        ({"owner": np.zeros((6, 7), dtype=int)}, r"owner has \(6, 7\) entries"),
        ({"armies": np.full(42, 1.5)}, "armies must hold whole numbers, got dtype float64"),
        ({"owner": np.full(42, 6)}, "player id 6 has no colour: player_colors has only 6"),
        ({"owner": np.zeros(42, dtype=int), "player_colors": []}, "player id 0 has no colour"),
        ({"highlight": ["Atlantis"]}, "unknown territory 'Atlantis'"),
        ({"highlight": [42]}, "territory id 42 is out of range"),
    ],
)
def test_bad_inputs_raise_value_errors_naming_the_value(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        draw_board(**kwargs)  # type: ignore[arg-type]
