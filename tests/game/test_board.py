"""The classic map against independently known facts, the loader's validation, and the ``board`` CLI."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from analyzer.errors import BoardError
from analyzer.game.board import CLASSIC_MAP, SYMBOLS, Board, Border, classic_board

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def board() -> Board:
    return classic_board()


# -- the classic map: facts known from the board itself ------------------------------------


def test_sizes(board: Board) -> None:
    assert board.name == "classic"
    assert board.n_territories == 42
    assert len(board.continents) == 6
    assert len(board.borders) == 83
    assert int(board.adjacency.sum()) == 2 * 83


def test_continents_bonuses_and_sizes(board: Board) -> None:
    got = [(c.name, c.bonus, len(c.territories)) for c in board.continents]
    assert got == [
        ("North America", 5, 9),
        ("South America", 2, 4),
        ("Europe", 5, 7),
        ("Africa", 3, 6),
        ("Asia", 7, 12),
        ("Australia", 2, 4),
    ]
    assert board.continent_bonus.tolist() == [5, 2, 5, 3, 7, 2]
    assert board.continent_masks.sum(axis=1).tolist() == [9, 4, 7, 6, 12, 4]
    # Every territory in exactly one continent.
    assert (board.continent_masks.sum(axis=0) == 1).all()


def test_continent_membership(board: Board) -> None:
    def continent(t: str) -> str:
        return board.continents[int(board.continent_of[board.index(t)])].name

    assert continent("Central America") == "North America"
    assert continent("Greenland") == "North America"
    assert continent("Venezuela") == "South America"
    assert continent("Iceland") == "Europe"
    assert continent("Ukraine") == "Europe"
    assert continent("Madagascar") == "Africa"
    assert continent("Middle East") == "Asia"
    assert continent("Ural") == "Asia"
    assert continent("Indonesia") == "Australia"
    # Continent territory lists and continent_of agree, and ids are grouped by continent.
    for c, cont in enumerate(board.continents):
        assert all(board.continent_of[t] == c for t in cont.territories)
    assert board.continent_of.tolist() == sorted(board.continent_of.tolist())


KNOWN_BORDERS = [
    ("Alaska", "Kamchatka", True),
    ("Greenland", "Iceland", True),
    ("Brazil", "North Africa", True),
    ("Siam", "Indonesia", True),
    ("East Africa", "Middle East", True),
    ("Southern Europe", "Egypt", True),
    ("Western Europe", "North Africa", True),
    ("Madagascar", "South Africa", True),
    ("Japan", "Kamchatka", True),
    ("Great Britain", "Iceland", True),
    ("Central America", "Venezuela", False),
    ("Alaska", "Northwest Territory", False),
    ("Ukraine", "Ural", False),
    ("Ukraine", "Middle East", False),
    ("Southern Europe", "Middle East", False),
    ("Egypt", "Middle East", False),
    ("Afghanistan", "Ukraine", False),
    ("China", "Siam", False),
    ("Western Australia", "Eastern Australia", False),
    ("Mongolia", "Kamchatka", False),
]


@pytest.mark.parametrize(("a", "b", "sea"), KNOWN_BORDERS)
def test_known_borders(board: Board, a: str, b: str, sea: bool) -> None:
    assert board.are_adjacent(a, b) and board.are_adjacent(b, a)
    assert board.is_sea_border(a, b) is sea
    assert board.is_sea_border(b, a) is sea


NON_BORDERS = [
    ("Alaska", "Greenland"),
    ("Brazil", "Egypt"),
    ("Congo", "Egypt"),
    ("China", "Middle East"),
    ("Alberta", "Eastern United States"),
    ("Argentina", "South Africa"),
    ("Iceland", "Northern Europe"),
    ("Japan", "China"),
    ("Siam", "New Guinea"),
    ("Kamchatka", "Siberia"),
    ("Ural", "Middle East"),
    ("Quebec", "Iceland"),
]


@pytest.mark.parametrize(("a", "b"), NON_BORDERS)
def test_known_non_borders(board: Board, a: str, b: str) -> None:
    assert not board.are_adjacent(a, b)
    assert not board.is_sea_border(a, b)


@pytest.mark.parametrize(
    ("territory", "degree"),
    [
        ("Ukraine", 6),
        ("Kamchatka", 5),
        ("Argentina", 2),
        ("Madagascar", 2),
        ("Middle East", 6),
        ("China", 6),
        ("Siam", 3),
        ("Japan", 2),
        ("Ontario", 6),
        ("East Africa", 6),
        ("Greenland", 4),
        ("Indonesia", 3),
        ("Eastern Australia", 2),
        ("Brazil", 4),
    ],
)
def test_degrees(board: Board, territory: str, degree: int) -> None:
    t = board.index(territory)
    assert board.degree[t] == degree
    assert len(board.neighbors[t]) == degree
    assert int(board.adjacency[t].sum()) == degree


def _exits(board: Board, continent: str) -> set[frozenset[str]]:
    mask = board.continent_masks[board.continent_index(continent)]
    return {
        frozenset((board.territories[b.a], board.territories[b.b])) for b in board.borders if mask[b.a] != mask[b.b]
    }


def test_continent_exits(board: Board) -> None:
    assert _exits(board, "Australia") == {frozenset(("Siam", "Indonesia"))}
    assert _exits(board, "South America") == {
        frozenset(("Central America", "Venezuela")),
        frozenset(("Brazil", "North Africa")),
    }
    assert len(_exits(board, "North America")) == 3  # Kamchatka, Iceland, Venezuela
    assert len(_exits(board, "Africa")) == 6


def test_cards(board: Board) -> None:
    assert board.n_cards == 44
    counts = np.bincount(board.card_symbols, minlength=4).tolist()
    assert counts == [14, 14, 14, 2]
    assert board.card_symbols[-2:].tolist() == [3, 3]
    assert board.card_territory.tolist() == list(range(42)) + [-1, -1]
    assert SYMBOLS[board.card_symbols[board.index("Alaska")]] == "infantry"
    assert SYMBOLS[board.card_symbols[board.index("Japan")]] == "artillery"
    assert SYMBOLS[board.card_symbols[board.index("Siberia")]] == "cavalry"


def test_adjacency_structure(board: Board) -> None:
    adj = board.adjacency
    assert adj.dtype == bool and adj.shape == (42, 42)
    assert np.array_equal(adj, adj.T)
    assert not adj.diagonal().any()
    assert np.array_equal(board.sea_adjacency, board.sea_adjacency.T)
    assert not (board.sea_adjacency & ~adj).any()
    for border in board.borders:
        assert isinstance(border, Border) and border.a < border.b


def test_neighbor_table(board: Board) -> None:
    assert board.neighbor_table.dtype == np.int16
    assert board.neighbor_table.shape == (42, int(board.degree.max()))
    for t in range(42):
        row = board.neighbor_table[t]
        assert tuple(row[: board.degree[t]].tolist()) == board.neighbors[t]
        assert (row[board.degree[t] :] == -1).all()


def test_dtypes_and_read_only(board: Board) -> None:
    assert board.continent_of.dtype == np.int8
    assert board.continent_masks.dtype == bool and board.continent_masks.shape == (6, 42)
    assert board.continent_bonus.dtype == np.int16
    assert board.degree.dtype == np.int16
    assert board.coords.dtype == np.float64 and board.coords.shape == (42, 2)
    assert board.card_symbols.dtype == np.int8
    assert board.card_territory.dtype == np.int16
    with pytest.raises(ValueError):
        board.adjacency[0, 1] = False
    with pytest.raises(AttributeError):
        board.name = "other"


def test_connected(board: Board) -> None:
    seen = {0}
    frontier = [0]
    while frontier:
        t = frontier.pop()
        for n in board.neighbors[t]:
            if n not in seen:
                seen.add(n)
                frontier.append(n)
    assert len(seen) == 42


def test_layout_looks_like_the_board(board: Board) -> None:
    x, y = board.coords[:, 0], board.coords[:, 1]
    alaska, east_aus = board.index("Alaska"), board.index("Eastern Australia")
    assert x[alaska] == x.min() and y[alaska] > np.median(y)  # top left
    assert x[east_aus] >= np.percentile(x, 90) and y[east_aus] <= np.percentile(y, 10)  # bottom right
    assert y[board.index("Argentina")] < y[board.index("Venezuela")]


def test_classic_board_is_cached(board: Board) -> None:
    assert classic_board() is board
    assert board.path == CLASSIC_MAP
    assert CLASSIC_MAP == ROOT / "analyzer" / "game" / "maps" / "classic.json"


# -- look-ups -------------------------------------------------------------------------------


def test_index(board: Board) -> None:
    assert board.index("Alaska") == 0
    assert board.index("  middle EAST ") == board.index("Middle East")
    assert board.index(41) == 41
    assert board.index(np.int16(5)) == 5
    assert board.territories[board.index("Siam")] == "Siam"
    assert board.continent_index("asia") == 4
    assert board.continent_index(0) == 0


def test_index_unknown_name_suggests(board: Board) -> None:
    with pytest.raises(BoardError, match=r"unknown territory 'Kamchatca'.*did you mean 'Kamchatka'"):
        board.index("Kamchatca")
    with pytest.raises(BoardError, match=r"unknown territory 'Atlantis'.*expected one of: Alaska"):
        board.index("Atlantis")
    with pytest.raises(BoardError, match=r"unknown continent 'Antarctica'"):
        board.continent_index("Antarctica")


@pytest.mark.parametrize("bad", [42, -1, 1000])
def test_index_out_of_range(board: Board, bad: int) -> None:
    with pytest.raises(BoardError, match=rf"territory id {bad} is out of range.*0\.\.41"):
        board.index(bad)


def test_index_wrong_type(board: Board) -> None:
    with pytest.raises(BoardError, match="expected a territory name or id"):
        board.index(1.5)  # type: ignore[arg-type]
    with pytest.raises(BoardError, match="expected a territory name or id"):
        board.index(True)
    with pytest.raises(BoardError, match="continent id 6 is out of range"):
        board.continent_index(6)


# -- file format ----------------------------------------------------------------------------


def test_round_trip(board: Board) -> None:
    data = board.to_dict()
    again = Board.from_dict(json.loads(json.dumps(data)))
    assert again.to_dict() == data
    assert again.territories == board.territories
    assert again.continents == board.continents
    assert again.borders == board.borders
    assert np.array_equal(again.adjacency, board.adjacency)
    assert np.array_equal(again.card_symbols, board.card_symbols)
    assert np.array_equal(again.coords, board.coords)


def test_file_matches_to_dict(board: Board) -> None:
    raw = json.loads(CLASSIC_MAP.read_text(encoding="utf-8"))
    assert raw["format"] == "risk-analyzer/map" and raw["version"] == 1
    assert raw["wild_cards"] == 2
    assert "notes" in raw and "pyrisk" in raw["notes"]
    assert board.to_dict() == raw


def _small_map() -> dict[str, Any]:
    return {
        "name": "square",
        "format": "risk-analyzer/map",
        "version": 1,
        "continents": [{"name": "West", "bonus": 1}, {"name": "East", "bonus": 3}],
        "territories": [
            {"name": "A", "continent": "West", "x": 0, "y": 1, "card": "infantry"},
            {"name": "B", "continent": "West", "x": 0, "y": 0, "card": "cavalry"},
            {"name": "C", "continent": "East", "x": 1, "y": 1, "card": "artillery"},
            {"name": "D", "continent": "East", "x": 1.5, "y": 0, "card": "infantry"},
        ],
        "wild_cards": 1,
        "borders": [["A", "B", "land"], ["C", "A", "sea"], ["C", "D", "land"]],
    }


def test_custom_map_loads(tmp_path: Path) -> None:
    path = tmp_path / "square.json"
    path.write_text(json.dumps(_small_map()), encoding="utf-8")
    small = Board.load(path)
    assert small.name == "square" and small.path == path
    assert small.territories == ("A", "B", "C", "D")
    assert [(c.name, c.bonus, c.territories) for c in small.continents] == [("West", 1, (0, 1)), ("East", 3, (2, 3))]
    assert small.borders == (Border(0, 1, False), Border(0, 2, True), Border(2, 3, False))
    assert small.degree.tolist() == [2, 1, 2, 1]
    assert small.neighbor_table.tolist() == [[1, 2], [0, -1], [0, 3], [2, -1]]
    assert small.card_symbols.tolist() == [0, 1, 2, 0, 3]
    assert small.card_territory.tolist() == [0, 1, 2, 3, -1]
    assert small.is_sea_border("a", "c") and not small.is_sea_border("A", "B")
    assert small.coords.tolist() == [[0, 1], [0, 0], [1, 1], [1.5, 0]]
    assert Board.from_dict(small.to_dict()).to_dict() == small.to_dict()


def _mutate(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(_small_map())
    change(data)
    return data


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


BAD_MAPS: list[tuple[str, Any, str]] = [
    ("missing-key", lambda d: d.pop("borders"), r"missing the key\(s\) 'borders'"),
    ("unknown-key", _set(("territorys",), []), r"unknown key\(s\) 'territorys'"),
    ("wrong-format", _set(("format",), "lux"), r"'format' is 'lux', expected 'risk-analyzer/map'"),
    ("wrong-version", _set(("version",), 2), r"'version' is 2, expected 1"),
    ("dup-territory", _set(("territories", 3, "name"), "b"), r"duplicate territory name 'b'"),
    ("dup-continent", _set(("continents", 1, "name"), "west"), r"duplicate continent name 'west'"),
    ("unknown-continent", _set(("territories", 0, "continent"), "North"), r"territory 'A': unknown continent 'North'"),
    (
        "empty-continent",
        lambda d: d["continents"].append({"name": "Empty", "bonus": 2}),
        r"continent 'Empty' has no territories",
    ),
    (
        "bad-bonus",
        _set(("continents", 0, "bonus"), -1),
        r"continent 'West': bonus must be a whole number from 0 to 1000 \(analyzer.limits.MAX_BONUS\), got -1",
    ),
    ("huge-bonus", _set(("continents", 0, "bonus"), 40000), r"bonus must be a whole number from 0 to 1000"),
    (
        "missing-territory-key",
        lambda d: d["territories"][1].pop("card"),
        r"territory #2 is missing the key\(s\) 'card'",
    ),
    ("unknown-border-territory", _set(("borders", 0, 1), "Bee"), r"border #1 names unknown territory 'Bee'"),
    ("self-loop", _set(("borders", 1), ["C", "C", "land"]), r"border #2 C - C joins a territory to itself"),
    (
        "duplicate-border",
        lambda d: d["borders"].append(["B", "A", "sea"]),
        r"border #4 B - A is a duplicate of border #1",
    ),
    ("bad-kind", _set(("borders", 2, 2), "air"), r"border #3 C - D has kind 'air'; expected \"land\" or \"sea\""),
    ("short-border", _set(("borders", 0), ["A", "B"]), r"border #1 must be a list"),
    ("disconnected", lambda d: d["borders"].pop(2), r"not connected: D cannot be reached from A"),
    ("bad-card", _set(("territories", 2, "card"), "tank"), r"territory 'C': unknown card symbol 'tank'"),
    ("wild-as-territory-card", _set(("territories", 2, "card"), "wild"), r"unknown card symbol 'wild'"),
    ("bad-coords", _set(("territories", 1, "x"), "left"), r"territory 'B': coordinates x='left', y=0 must be finite"),
    ("nan-coords", _set(("territories", 1, "y"), float("nan")), r"not valid JSON: .NaN is not a JSON number"),
    ("bool-coords", _set(("territories", 1, "y"), True), r"must be finite numbers"),
    ("bad-wild-cards", _set(("wild_cards",), -2), r"'wild_cards' must be a whole number >= 0, got -2"),
    ("empty-territories", _set(("territories",), []), r"'territories' must be a non-empty list"),
    ("blank-name", _set(("name",), " "), r"name must be a non-empty string"),
    # Sizes past analyzer.limits are refused before anything of that size is built.
    ("huge-wild-cards", _set(("wild_cards",), 10**9), r"1000000000 wild cards is too many; the limit is 100"),
    (
        "too-many-territories",
        _set(
            ("territories",),
            [{"name": f"T{i}", "continent": "West", "x": 0, "y": 0, "card": "infantry"} for i in range(32767)],
        ),
        r"32767 territories is too many; the limit is 1000 \(analyzer.limits.MAX_TERRITORIES\)",
    ),
    ("long-name", _set(("territories", 1, "name"), "B" * 100_000), r"is longer than 40 characters"),
]


@pytest.mark.parametrize(("label", "change", "fault"), BAD_MAPS, ids=[b[0] for b in BAD_MAPS])
def test_malformed_map(tmp_path: Path, label: str, change: Any, fault: str) -> None:
    path = tmp_path / f"{label}.json"
    path.write_text(json.dumps(_mutate(change)), encoding="utf-8")
    with pytest.raises(BoardError, match=fault) as info:
        Board.load(path)
    message = str(info.value)
    assert message.startswith(str(path) + ":"), message
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("label", "text", "fault"),
    [
        ("not-json", '{"name": ', r"not valid JSON: .* at line 1 column"),
        ("top-level-list", "[1, 2]", r"expected a JSON object at the top level, got list"),
        ("top-level-string", '"classic"', r"expected a JSON object at the top level, got str"),
    ],
)
def test_unparseable_file(tmp_path: Path, label: str, text: str, fault: str) -> None:
    path = tmp_path / f"{label}.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BoardError, match=fault) as info:
        Board.load(path)
    assert str(info.value).startswith(str(path) + ":")


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    with pytest.raises(BoardError, match="cannot read the map file") as info:
        Board.load(path)
    assert str(path) in str(info.value)


def test_from_dict_names_its_source() -> None:
    with pytest.raises(BoardError, match=r"^my-map: duplicate territory name"):
        Board.from_dict(_mutate(_set(("territories", 3, "name"), "A")), source="my-map")


# -- CLI ------------------------------------------------------------------------------------


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "analyzer", "board", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_cli_board_starts_without_numba_and_prints_the_compiled_processes_map(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from analyzer.cli import main

    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "analyzer", "board", "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "analyzer.game.reader" in imported and "numba" not in imported
    assert main(["board", "--json"]) == 0  # this process's kernels are compiled
    assert json.loads(done.stdout) == json.loads(capsys.readouterr().out)


def test_cli_listing() -> None:
    result = _cli()
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "42 territories, 6 continents, 83 borders (25 by sea)" in out.splitlines()[-1]
    assert "44 cards: 14 infantry, 14 cavalry, 14 artillery, 2 wild" in out
    lines = {line.split("  ")[0]: line for line in out.splitlines()}
    assert "Kamchatka (sea)" in lines["Alaska"] and "infantry" in lines["Alaska"]
    assert "North America" in lines["Alaska"]
    assert lines["Asia"].split() == ["Asia", "7", "12"]
    assert lines["South America"].split() == ["South", "America", "2", "4"]
    assert "Siam (sea)" in lines["Indonesia"]
    assert "Peru, Brazil" in lines["Argentina"]


def test_cli_json() -> None:
    result = _cli("--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data == classic_board().to_dict()
    assert len(data["territories"]) == 42 and len(data["borders"]) == 83


def test_cli_custom_map(tmp_path: Path) -> None:
    path = tmp_path / "square.json"
    path.write_text(json.dumps(_small_map()), encoding="utf-8")
    result = _cli("--map", str(path))
    assert result.returncode == 0, result.stderr
    assert "4 territories, 2 continents, 3 borders (1 by sea)" in result.stdout
    assert json.loads(_cli("--map", str(path), "--json").stdout)["name"] == "square"


def test_cli_malformed_map(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_mutate(_set(("borders", 1), ["C", "C", "land"]))), encoding="utf-8")
    result = _cli("--map", str(path))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert str(path) in result.stderr and "joins a territory to itself" in result.stderr


def test_cli_missing_map(tmp_path: Path) -> None:
    result = _cli("--map", str(tmp_path / "none.json"))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "none.json" in result.stderr
