"""The constant game board: territories, continents, borders and the card deck.

A board is loaded from a JSON map file (``analyzer/game/maps/classic.json`` is the classic
Parker Brothers / Hasbro map) and validated once; after that it never changes,
so the engine, the solver and the simulator can share one instance and index
its NumPy arrays directly in their hot loops.

Territories and continents are numbered by their order in the file, and card
``i`` is the card of territory ``i``; the wild cards come last.

>>> board = classic_board()
>>> board.n_territories, len(board.continents), len(board.borders), board.n_cards
(42, 6, 83, 44)
>>> board.are_adjacent("Alaska", "kamchatka"), board.is_sea_border("Alaska", "Kamchatka")
(True, True)
>>> [board.territories[t] for t in board.neighbors[board.index("Argentina")]]
['Peru', 'Brazil']

The file format (what :meth:`Board.to_dict` returns)::

    {
      "name": "classic", "format": "risk-analyzer/map", "version": 1,
      "notes": "optional free text",
      "continents": [{"name": "North America", "bonus": 5}, ...],
      "territories": [{"name": "Alaska", "continent": "North America",
                       "x": 4, "y": 57, "card": "infantry"}, ...],
      "wild_cards": 2,
      "borders": [["Alaska", "Northwest Territory", "land"], ...]
    }

Each border is listed once, in either direction; ``"sea"`` marks a crossing over
water (a dashed line on the board). ``x`` and ``y`` only place the territory in
drawings (y points up).
"""

from __future__ import annotations

import difflib
import functools
import json
import math
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.errors import BoardError
from analyzer.game.reader import loads
from analyzer.integers import is_whole
from analyzer.limits import (
    MAX_BONUS,
    MAX_CONTINENTS,
    MAX_JSON_BYTES,
    MAX_NAME_LENGTH,
    MAX_TERRITORIES,
    MAX_WILD_CARDS,
    quote,
)

#: Card symbol names; a card's symbol code is its index here.
SYMBOLS: tuple[str, ...] = ("infantry", "cavalry", "artillery", "wild")
#: Code of the wild symbol in :attr:`Board.card_symbols`.
WILD = 3
#: The ``"format"`` value every map file carries.
MAP_FORMAT = "risk-analyzer/map"
#: The only format version this module reads and writes.
MAP_VERSION = 1
#: The classic map ships inside the package (package data), so an installed wheel finds it too.
CLASSIC_MAP = Path(str(resources.files("analyzer.game") / "maps" / "classic.json"))

BORDER_KINDS = ("land", "sea")
_TERRITORY_SYMBOLS = SYMBOLS[:WILD]
_REQUIRED_KEYS = ("name", "format", "version", "continents", "territories", "borders")
_OPTIONAL_KEYS = ("notes", "wild_cards")
_CONTINENT_KEYS = ("name", "bonus")
_TERRITORY_KEYS = ("name", "continent", "x", "y", "card")

#: A territory or continent given by name (any case) or by id; NumPy integers from the arrays work too.
NameOrId = str | int | np.integer[Any]


@dataclass(frozen=True)
class Continent:
    """A continent: its name, the armies its holder earns each turn, and its territory ids."""

    name: str
    bonus: int
    territories: tuple[int, ...]


@dataclass(frozen=True)
class Border:
    """An undirected border between territories ``a < b``; ``sea`` if it crosses water."""

    a: int
    b: int
    sea: bool


def _readonly(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


class Board:
    """An immutable, validated map; build one with :meth:`load` or :meth:`from_dict`.

    The arrays are read-only and indexed by territory id (``0 .. n_territories-1``)
    or continent id; see the module docstring for an example.
    """

    name: str
    path: Path | None
    notes: str
    territories: tuple[str, ...]
    continents: tuple[Continent, ...]
    borders: tuple[Border, ...]
    wild_cards: int
    continent_of: np.ndarray
    continent_masks: np.ndarray
    continent_bonus: np.ndarray
    adjacency: np.ndarray
    sea_adjacency: np.ndarray
    neighbors: tuple[tuple[int, ...], ...]
    neighbor_table: np.ndarray
    degree: np.ndarray
    coords: np.ndarray
    card_symbols: np.ndarray
    card_territory: np.ndarray
    _territory_ids: dict[str, int]
    _continent_ids: dict[str, int]

    def __init__(
        self,
        *,
        name: str,
        territories: Sequence[str],
        continents: Sequence[Continent],
        borders: Sequence[Border],
        coords: Sequence[tuple[float, float]],
        territory_symbols: Sequence[int],
        wild_cards: int,
        path: Path | None = None,
        notes: str = "",
        source: str = "<board>",
    ) -> None:
        """Build the derived arrays from already-parsed parts; prefer :meth:`from_dict`.

        Checks the structural invariants (ids in range, each territory in exactly
        one continent, no self-loops or repeated borders, a connected graph) and
        raises :class:`BoardError` naming ``source`` if one fails.
        """
        n = len(territories)
        n_continents = len(continents)
        if n == 0:
            raise BoardError(f"{source}: the map has no territories")
        _check_sizes(n, n_continents, wild_cards, source)
        if len(coords) != n or len(territory_symbols) != n:
            raise BoardError(f"{source}: expected one coordinate pair and one card symbol per territory")

        continent_of = np.full(n, -1, dtype=np.int8)
        masks = np.zeros((n_continents, n), dtype=bool)
        for c, continent in enumerate(continents):
            if not continent.territories:
                raise BoardError(f"{source}: continent {continent.name!r} has no territories")
            for t in continent.territories:
                if not 0 <= t < n:
                    raise BoardError(
                        f"{source}: continent {continent.name!r} lists territory id {t}, expected 0..{n - 1}"
                    )
                if continent_of[t] != -1:
                    raise BoardError(
                        f"{source}: territory {territories[t]!r} is in both "
                        f"{continents[continent_of[t]].name!r} and {continent.name!r}"
                    )
                continent_of[t] = c
                masks[c, t] = True
        orphans = [territories[t] for t in range(n) if continent_of[t] == -1]
        if orphans:
            raise BoardError(f"{source}: territories in no continent: {', '.join(orphans)}")

        adjacency = np.zeros((n, n), dtype=bool)
        sea = np.zeros((n, n), dtype=bool)
        for border in borders:
            a, b = border.a, border.b
            if not (0 <= a < b < n):
                raise BoardError(f"{source}: border {border} must have 0 <= a < b < {n}")
            if adjacency[a, b]:
                raise BoardError(f"{source}: border {territories[a]} - {territories[b]} is listed twice")
            adjacency[a, b] = adjacency[b, a] = True
            sea[a, b] = sea[b, a] = border.sea
        # Borders are undirected by construction; this guards the construction itself.
        if not np.array_equal(adjacency, adjacency.T) or adjacency.diagonal().any():
            raise BoardError(f"{source}: the adjacency matrix is not symmetric with an empty diagonal")

        neighbors = tuple(tuple(int(j) for j in np.flatnonzero(adjacency[i])) for i in range(n))
        degree = np.array([len(ns) for ns in neighbors], dtype=np.int16)
        table = np.full((n, max(int(degree.max()), 1)), -1, dtype=np.int16)
        for i, ns in enumerate(neighbors):
            table[i, : len(ns)] = ns

        unreached = _unreachable(neighbors)
        if unreached:
            names = ", ".join(territories[t] for t in unreached)
            raise BoardError(f"{source}: the map is not connected: {names} cannot be reached from {territories[0]}")

        symbols = np.array(list(territory_symbols) + [WILD] * wild_cards, dtype=np.int8)
        if ((symbols[:n] < 0) | (symbols[:n] >= WILD)).any():
            raise BoardError(f"{source}: territory card symbols must be codes 0..{WILD - 1}")

        set_ = object.__setattr__
        set_(self, "name", name)
        set_(self, "path", path)
        set_(self, "notes", notes)
        set_(self, "territories", tuple(territories))
        set_(self, "continents", tuple(continents))
        set_(self, "borders", tuple(borders))
        set_(self, "wild_cards", wild_cards)
        set_(self, "continent_of", _readonly(continent_of))
        set_(self, "continent_masks", _readonly(masks))
        set_(self, "continent_bonus", _readonly(np.array([c.bonus for c in continents], dtype=np.int16)))
        set_(self, "adjacency", _readonly(adjacency))
        set_(self, "sea_adjacency", _readonly(sea))
        set_(self, "neighbors", neighbors)
        set_(self, "neighbor_table", _readonly(table))
        set_(self, "degree", _readonly(degree))
        set_(self, "coords", _readonly(np.array(coords, dtype=np.float64).reshape(n, 2)))
        set_(self, "card_symbols", _readonly(symbols))
        set_(self, "card_territory", _readonly(np.array(list(range(n)) + [-1] * wild_cards, dtype=np.int16)))
        set_(self, "_territory_ids", {t.casefold(): i for i, t in enumerate(territories)})
        set_(self, "_continent_ids", {c.name.casefold(): i for i, c in enumerate(continents)})

    # -- immutability -------------------------------------------------------------

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Board is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Board is immutable; cannot delete {name!r}")

    def __repr__(self) -> str:
        return (
            f"<Board {self.name!r}: {self.n_territories} territories, "
            f"{len(self.continents)} continents, {len(self.borders)} borders>"
        )

    # -- sizes and look-ups ---------------------------------------------------------

    @property
    def n_territories(self) -> int:
        """Number of territories."""
        return len(self.territories)

    @property
    def n_cards(self) -> int:
        """Number of cards in the deck: one per territory plus the wild cards."""
        return len(self.card_symbols)

    def index(self, territory: NameOrId) -> int:
        """Id of a territory given its name (any case) or its id.

        >>> classic_board().index("middle east"), classic_board().index(3)
        (35, 3)
        """
        return self._lookup(territory, self._territory_ids, self.territories, "territory")

    def continent_index(self, continent: NameOrId) -> int:
        """Id of a continent given its name (any case) or its id.

        >>> classic_board().continent_index("Asia")
        4
        """
        names = tuple(c.name for c in self.continents)
        return self._lookup(continent, self._continent_ids, names, "continent")

    def _lookup(self, key: NameOrId, ids: dict[str, int], names: tuple[str, ...], kind: str) -> int:
        if is_whole(key):
            if 0 <= key < len(names):
                return int(key)
            raise BoardError(f"{kind} id {quote(key)} is out of range: map {self.name!r} has ids 0..{len(names) - 1}")
        if isinstance(key, str):
            found = ids.get(key.strip().casefold())
            if found is not None:
                return found
            close = (
                difflib.get_close_matches(key.strip().casefold(), list(ids), n=3, cutoff=0.6)
                if len(key) <= 2 * MAX_NAME_LENGTH
                else []
            )
            if close:
                hint = "did you mean " + " or ".join(repr(names[ids[c]]) for c in close) + "?"
            else:
                hint = f"expected one of: {', '.join(names)}"
            raise BoardError(f"unknown {kind} {quote(key)} on map {self.name!r}; {hint}")
        raise BoardError(f"expected a {kind} name or id, got {type(key).__name__} {quote(key)}")

    def are_adjacent(self, a: NameOrId, b: NameOrId) -> bool:
        """Whether territories ``a`` and ``b`` share a border (land or sea)."""
        return bool(self.adjacency[self.index(a), self.index(b)])

    def is_sea_border(self, a: NameOrId, b: NameOrId) -> bool:
        """Whether ``a`` and ``b`` share a border that crosses water (False if they share none)."""
        return bool(self.sea_adjacency[self.index(a), self.index(b)])

    # -- file format ----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The map in its file format; :meth:`from_dict` reads it back to an equal board."""
        data: dict[str, Any] = {"name": self.name, "format": MAP_FORMAT, "version": MAP_VERSION}
        if self.notes:
            data["notes"] = self.notes
        data["continents"] = [{"name": c.name, "bonus": c.bonus} for c in self.continents]
        data["territories"] = [
            {
                "name": name,
                "continent": self.continents[int(self.continent_of[t])].name,
                "x": _plain_number(self.coords[t, 0]),
                "y": _plain_number(self.coords[t, 1]),
                "card": SYMBOLS[int(self.card_symbols[t])],
            }
            for t, name in enumerate(self.territories)
        ]
        data["wild_cards"] = self.wild_cards
        data["borders"] = [
            [self.territories[b.a], self.territories[b.b], "sea" if b.sea else "land"] for b in self.borders
        ]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "<dict>", path: Path | None = None) -> Board:
        """Validate a map in its file format and build the board.

        Every fault raises :class:`BoardError` whose message starts with ``source``.
        """
        return cls(**_parse(data, source), path=path, source=source)

    @classmethod
    def load(cls, path: str | Path | None = None) -> Board:
        """Read and validate a map file; ``None`` loads the classic map (``analyzer/game/maps/classic.json``)."""
        file = CLASSIC_MAP if path is None else Path(path)
        source = str(file)
        try:
            with file.open("rb") as f:
                # One byte past the limit is enough to know the file is too large.
                text = f.read(MAX_JSON_BYTES + 1)
        except OSError as exc:
            raise BoardError(f"{source}: cannot read the map file: {exc.strerror or exc}") from exc
        return cls.from_dict(loads(text, f"{source}:", BoardError), source=source, path=file)


@functools.cache
def classic_board() -> Board:
    """The classic 42-territory map, loaded once and shared."""
    return Board.load()


def dump_json(data: dict[str, Any]) -> str:
    """A map dict as readable JSON: one continent, territory or border a line.

    >>> print(dump_json({"name": "m", "borders": [["A", "B", "land"]]}))
    {
      "name": "m",
      "borders": [
        ["A", "B", "land"]
      ]
    }
    """
    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if isinstance(value, list) and value:
            lines.append(f"  {json.dumps(key)}: [")
            for j, item in enumerate(value):
                item_comma = "," if j < len(value) - 1 else ""
                lines.append(f"    {json.dumps(item, ensure_ascii=False)}{item_comma}")
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines)


# -- parsing and validation -----------------------------------------------------------


def _plain_number(value: float) -> int | float:
    # Whole coordinates are written back as ints so a saved map stays as readable as a typed one.
    as_float = float(value)
    return int(as_float) if as_float.is_integer() else as_float


def _check_sizes(territories: int, continents: int, wild_cards: int, source: str) -> None:
    """The map's sizes against :mod:`analyzer.limits`, before anything of that size is allocated."""
    for what, value, limit, name in (
        ("territories", territories, MAX_TERRITORIES, "MAX_TERRITORIES"),
        ("continents", continents, MAX_CONTINENTS, "MAX_CONTINENTS"),
        ("wild cards", wild_cards, MAX_WILD_CARDS, "MAX_WILD_CARDS"),
    ):
        if value > limit:
            raise BoardError(f"{source}: {value} {what} is too many; the limit is {limit} (analyzer.limits.{name})")


def _is_number(value: object) -> bool:
    if is_whole(value):
        return abs(value) <= 10**15  # far off any drawing, and convertible to a float
    return isinstance(value, float) and math.isfinite(value)


def _unreachable(neighbors: Sequence[Sequence[int]]) -> list[int]:
    """Territories that a breadth-first search from territory 0 does not reach."""
    seen = [False] * len(neighbors)
    seen[0] = True
    queue = deque([0])
    while queue:
        for j in neighbors[queue.popleft()]:
            if not seen[j]:
                seen[j] = True
                queue.append(j)
    return [t for t, ok in enumerate(seen) if not ok]


def _check_keys(obj: dict[str, Any], required: Sequence[str], optional: Sequence[str], where: str) -> None:
    missing = [k for k in required if k not in obj]
    if missing:
        raise BoardError(f"{where} is missing the key(s) {', '.join(map(repr, missing))}")
    unknown = [k for k in obj if k not in required and k not in optional]
    if unknown:
        allowed = ", ".join(map(repr, (*required, *optional)))
        raise BoardError(f"{where} has unknown key(s) {quote(', '.join(map(str, unknown)))}; expected only {allowed}")


def _name(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise BoardError(f"{where}: name must be a non-empty string, got {quote(value)}")
    if len(value) > MAX_NAME_LENGTH:
        raise BoardError(
            f"{where}: name {quote(value)} is longer than {MAX_NAME_LENGTH} characters (analyzer.limits.MAX_NAME_LENGTH)"
        )
    if value != value.strip():
        raise BoardError(f"{where}: name {value!r} has leading or trailing spaces")
    return value


def _object_list(data: dict[str, Any], key: str, source: str) -> list[Any]:
    value = data[key]
    if not isinstance(value, list) or not value:
        raise BoardError(f"{source}: {key!r} must be a non-empty list, got {quote(value)}")
    return value


def _named_entries(
    data: dict[str, Any], key: str, keys: Sequence[str], expected: str, source: str
) -> Iterator[tuple[int, str, dict[str, Any], str]]:
    """Each entry of the map's ``key`` list (continents, territories) checked as an object with
    ``keys`` and a new name: ``(index, name, entry, where)``, ``where`` naming it for later messages."""
    seen: set[str] = set()
    kind = key[:-1] if key != "territories" else "territory"
    for i, entry in enumerate(_object_list(data, key, source)):
        where = f"{source}: {kind} #{i + 1}"
        if not isinstance(entry, dict):
            raise BoardError(f"{where} must be an object with {expected}, got {quote(entry)}")
        _check_keys(entry, keys, (), where)
        name = _name(entry["name"], where)
        if name.casefold() in seen:
            raise BoardError(f"{source}: duplicate {kind} name {name!r}")
        seen.add(name.casefold())
        yield i, name, entry, f"{source}: {kind} {name!r}"


def _parse(data: Any, source: str) -> dict[str, Any]:
    """Check a map dict and turn it into the keyword arguments of :class:`Board`."""
    if not isinstance(data, dict):
        raise BoardError(f"{source}: expected a JSON object at the top level, got {type(data).__name__}")
    _check_keys(data, _REQUIRED_KEYS, _OPTIONAL_KEYS, f"{source}: the map")
    if data["format"] != MAP_FORMAT:
        raise BoardError(f"{source}: 'format' is {quote(data['format'])}, expected {MAP_FORMAT!r}")
    if data["version"] != MAP_VERSION or not is_whole(data["version"]):
        raise BoardError(f"{source}: 'version' is {quote(data['version'])}, expected {MAP_VERSION}")
    name = _name(data["name"], f"{source}: the map")
    notes = data.get("notes", "")
    if not isinstance(notes, str):
        raise BoardError(f"{source}: 'notes' must be a string, got {type(notes).__name__}")
    wild_cards = data.get("wild_cards", 0)
    if not is_whole(wild_cards) or wild_cards < 0:
        raise BoardError(f"{source}: 'wild_cards' must be a whole number >= 0, got {quote(wild_cards)}")
    n_territories, n_continents = (
        len(v) if isinstance(v, list) else 0 for v in (data["territories"], data["continents"])
    )
    _check_sizes(n_territories, n_continents, wild_cards, source)

    # Continents.
    continent_names: list[str] = []
    bonuses: list[int] = []
    continent_ids: dict[str, int] = {}
    for i, cname, entry, where in _named_entries(data, "continents", _CONTINENT_KEYS, "'name' and 'bonus'", source):
        bonus = entry["bonus"]
        if not is_whole(bonus) or not 0 <= bonus <= MAX_BONUS:
            raise BoardError(
                f"{where}: bonus must be a whole number from 0 to {MAX_BONUS} (analyzer.limits.MAX_BONUS), got {quote(bonus)}"
            )
        continent_ids[cname.casefold()] = i
        continent_names.append(cname)
        bonuses.append(bonus)

    # Territories.
    territory_names: list[str] = []
    territory_ids: dict[str, int] = {}
    members: list[list[int]] = [[] for _ in continent_names]
    coords: list[tuple[float, float]] = []
    symbols: list[int] = []
    for i, tname, entry, where in _named_entries(
        data, "territories", _TERRITORY_KEYS, ", ".join(_TERRITORY_KEYS), source
    ):
        continent = entry["continent"]
        c = continent_ids.get(continent.casefold()) if isinstance(continent, str) else None
        if c is None:
            raise BoardError(
                f"{where}: unknown continent {quote(continent)}; expected one of {quote(', '.join(continent_names))}"
            )
        x, y = entry["x"], entry["y"]
        if not (_is_number(x) and _is_number(y)):
            raise BoardError(f"{where}: coordinates x={quote(x)}, y={quote(y)} must be finite numbers")
        card = entry["card"]
        if card not in _TERRITORY_SYMBOLS:
            raise BoardError(
                f"{where}: unknown card symbol {quote(card)}; expected one of {', '.join(_TERRITORY_SYMBOLS)}"
            )
        territory_ids[tname.casefold()] = i
        territory_names.append(tname)
        members[c].append(i)
        coords.append((float(x), float(y)))
        symbols.append(_TERRITORY_SYMBOLS.index(card))

    continents = [Continent(n, b, tuple(m)) for n, b, m in zip(continent_names, bonuses, members)]
    for continent in continents:
        if not continent.territories:
            raise BoardError(f"{source}: continent {continent.name!r} has no territories")

    # Borders.
    def territory_id(value: object, where: str) -> int:
        t = territory_ids.get(value.casefold()) if isinstance(value, str) else None
        if t is None:
            close = difflib.get_close_matches(value, territory_names, n=2, cutoff=0.6) if isinstance(value, str) else []
            hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
            raise BoardError(f"{where} names unknown territory {quote(value)}{hint}")
        return t

    borders: list[Border] = []
    seen: dict[tuple[int, int], int] = {}
    entries = _object_list(data, "borders", source)
    most = len(territory_names) * (len(territory_names) - 1) // 2
    if len(entries) > most:
        raise BoardError(
            f"{source}: {len(entries)} borders among {len(territory_names)} territories; at most {most} are distinct"
        )
    for i, entry in enumerate(entries):
        where = f"{source}: border #{i + 1}"
        if not isinstance(entry, list) or len(entry) != 3:
            raise BoardError(f'{where} must be a list [territory, territory, "land" or "sea"], got {quote(entry)}')
        a, b = territory_id(entry[0], where), territory_id(entry[1], where)
        where = f"{source}: border #{i + 1} {territory_names[a]} - {territory_names[b]}"
        if a == b:
            raise BoardError(f"{where} joins a territory to itself")
        kind = entry[2]
        if kind not in BORDER_KINDS:
            raise BoardError(f'{where} has kind {quote(kind)}; expected "land" or "sea"')
        key = (min(a, b), max(a, b))
        if key in seen:
            raise BoardError(f"{where} is a duplicate of border #{seen[key] + 1}")
        seen[key] = i
        borders.append(Border(key[0], key[1], kind == "sea"))

    return {
        "name": name,
        "territories": territory_names,
        "continents": continents,
        "borders": borders,
        "coords": coords,
        "territory_symbols": symbols,
        "wild_cards": wild_cards,
        "notes": notes,
    }
