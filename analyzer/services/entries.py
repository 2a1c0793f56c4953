"""The Record view's entry forms: each field's bounds and each list's choices, declared once.

A form is drawn from these declarations and read back through the same ones, so a field's bounds
cannot differ between what the page offers and what an entry accepts. The bounds come from the
position and its rules (the armies on a territory, the dice the rules allow, the armies due), the
choices from the position (the territories an attack may start from and reach, the cards a
face-down draw may be).

>>> import numpy as np
>>> from analyzer.game.state import GameState
>>> game = GameState.random_start(3, np.random.default_rng(1))
>>> owner, armies = [0] * 41 + [1], [4] * 42
>>> armies[41] = 1  # Eastern Australia, Player 2's one army, against Western Australia's 4 (40)
>>> [(c.name, c.lo, c.hi, c.start) for c in roll_counts(GameState.from_position(owner, armies), 40, 41)]
[('attacker_dice', 1, 3, 3), ('defender_dice', 1, 1, 1), ('attacker_lost', 0, 1, 0), ('defender_lost', 0, 1, 0)]
>>> place_count(game).read(40)
Traceback (most recent call last):
...
analyzer.services.entries.Blank: Armies: enter a whole number from 1 to 4, not 40
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from analyzer.errors import RiskAnalyzerError
from analyzer.game import face_down
from analyzer.game.actions import Territory
from analyzer.game.board import Board
from analyzer.game.core import StateCore
from analyzer.game.vocabulary import DECK, player_count
from analyzer.limits import MAX_NAME_LENGTH
from analyzer.text import shortened

T = TypeVar("T")

#: Sets traded a typed position may say: more than a game ever sees.
MAX_SETS = 1000


class Blank(Exception):
    """A field of an entry holds no valid value: the field shows its own message, and the entry does nothing."""


class EntryError(RiskAnalyzerError):
    """An entry that cannot even be read (the rules never saw it): the message names the part."""


def bounds_problem(raw: float | int | None, lo: int, hi: int | None, *, allow_empty: bool = False) -> str:
    """What is wrong with ``raw`` as a whole number from ``lo`` to ``hi``, in words ("" if nothing).

    >>> bounds_problem(1234567890, 1, 1_000_000)
    'enter a whole number from 1 to 1,000,000, not 1,234,567,890'
    >>> bounds_problem(2.5, 0, None), bounds_problem(None, 0, 3), bounds_problem(3, 0, 3)
    ('enter a whole number of at least 0, not 2.5', 'enter a whole number from 0 to 3', '')
    >>> bounds_problem(12345678901234567890.0, 1, 1_000_000)
    'enter a whole number from 1 to 1,000,000, not 1.23e+19'
    """
    wanted = f"a whole number from {lo:,} to {hi:,}" if hi is not None else f"a whole number of at least {lo:,}"
    if raw is None:
        return "" if allow_empty else f"enter {wanted}"
    # A float past 2**53 holds other digits than those typed: said as the field shows it, in its leading digits.
    shown = f"{raw:.3g}" if abs(raw) >= 2**53 else f"{int(raw):,}" if float(raw).is_integer() else f"{raw:,}"
    if not float(raw).is_integer() or raw < lo or (hi is not None and raw > hi):
        return f"enter {wanted}, not {shown}"
    return ""


def cell_number(value: Any) -> Any:
    """A table cell's number as the package takes it: a whole float as an ``int``, a cleared cell as None,
    anything else as it is (for the package to refuse, naming it).

    A data editor's number column turns to floats once a cell is cleared; the package takes no float
    as a count, so the app turns its own widgets' floats back here.

    >>> cell_number(np.float64(3.0)), cell_number(float("nan")), cell_number(2.5), cell_number(np.int64(4))
    (3, None, 2.5, np.int64(4))
    """
    if value is None or value is pd.NA or (isinstance(value, (float, np.floating)) and np.isnan(value)):
        return None
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return int(value)
    return value


@dataclass(frozen=True)
class Count:
    """A whole-number field of a form: what it is called, its label, its bounds and the value it starts from."""

    name: str
    label: str
    lo: int
    hi: int
    start: int

    def read(self, raw: float | int | None) -> int:
        """The field's value, or :class:`Blank` (saying why) when ``raw`` is not a number within the bounds."""
        problem = bounds_problem(raw, self.lo, self.hi)
        if problem:
            raise Blank(f"{self.label}: {problem}")
        return int(raw)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------ counts
def place_count(s: StateCore) -> Count:
    """Armies placed on one territory: one to all that are due (it starts at all of them)."""
    return Count("armies", "Armies", 1, max(1, s.pending), max(1, s.pending))


def battle_counts(s: StateCore, source: int, target: int) -> tuple[Count, Count]:
    """A whole battle, as the two stacks it left: each starts from the stack as it is now."""
    a, d = int(s.armies[source]), int(s.armies[target])
    return (
        Count("attackers_left", "Armies left on the attacking territory", 1, a, a),
        Count("defenders_left", "Armies left on the defending territory (0: taken)", 0, d, d),
    )


def roll_counts(s: StateCore, source: int, target: int) -> tuple[Count, Count, Count, Count]:
    """One roll from ``source`` on ``target``: the dice each side threw, up to as many as the rules let their
    armies roll (where the fields start), and the armies each lost."""
    dice = s.rules.dice
    attacking = max(1, dice.attacker_dice(int(s.armies[source])))
    defending = max(1, dice.defender_dice(int(s.armies[target])))
    compared = min(attacking, defending)
    return (
        Count("attacker_dice", "Attacker's dice", 1, attacking, attacking),
        Count("defender_dice", "Defender's dice", 1, defending, defending),
        Count("attacker_lost", "Attacker lost", 0, compared, 0),
        Count("defender_lost", "Defender lost", 0, compared, 0),
    )


def move_in_count(s: StateCore) -> Count:
    """Armies moved into a captured territory: the capture's range, starting at the most."""
    lo, hi = s.move_range()
    assert s.move is not None
    return Count("moved_in", f"Armies moved into {s.board.territories[s.move[1]]} ({lo} to {hi})", lo, hi, hi)


def fortify_count(s: StateCore, source: int) -> Count:
    """Armies moved by a fortify: one to all but the one that stays."""
    return Count("fortified", "Armies moved", 1, int(s.armies[source]) - 1, 1)


def face_down_count(s: StateCore, player: int, name: str) -> Count:
    """The cards ``player`` (called ``name``) holds face down: none to every card of the deck, starting from the
    count the game holds."""
    return Count("face_down", f"Face down, {name}", 0, s.board.n_cards, face_down.counts(s)[player])


def sets_traded_count(s: StateCore) -> Count:
    """The sets traded so far in a typed position: up to :data:`MAX_SETS`, starting from the game's."""
    return Count("sets_traded", "Sets traded so far", 0, MAX_SETS, int(s.sets_traded))


# ------------------------------------------------------------------------------------ choices
def attack_sources(s: StateCore) -> list[int]:
    """The territories the player to move can attack from."""
    return [int(t) for t in s.attack_sources()]


def fortify_sources(s: StateCore) -> list[int]:
    """The player to move's territories with an army to spare."""
    return [t for t in s.territories_of(s.player) if s.armies[t] > 1]


def _deck(s: StateCore) -> set[int]:
    return {int(c) for c in np.flatnonzero(s.card_loc == DECK)}


def unseen_cards(s: StateCore) -> list[int]:
    """The cards nobody at the table has seen: those still in the deck and those drawn face down."""
    return sorted(set(s.face_down) | _deck(s))


def trade_choices(s: StateCore, *, own: bool) -> list[int]:
    """The cards the player to move may show in a trade: with ``own`` (the user's own hand, every card of it
    named) the cards of their hand not face down; else their hand and the deck, any of which a card they
    hold face down may be."""
    held = s.hand(s.player)
    if own:
        down = set(s.face_down)
        return [c for c in held if c not in down]
    return sorted(set(held) | _deck(s))


def choice(values: Sequence[object], options: Sequence[T]) -> T | None:
    """The option a list shows for ``values`` (its choices, most recent first): the first of them that still is
    an option, else the first option (None: none).

    >>> choice([5], [3, 5]), choice([4, 5], [3, 5]), choice([4, 6], [3, 5]), choice([4], [])
    (5, 5, 3, None)
    """
    for value in values:
        for option in options:
            if option == value:
                return option
    return options[0] if options else None


def table_names(text: str) -> list[str]:
    """The players typed for a game at the table, comma-separated in seat order: 2 to 6 of them, each name its
    own (whatever the case), as the tables and the log tell the players apart by them.

    >>> table_names(" Ann, Bo ,Cy,")
    ['Ann', 'Bo', 'Cy']
    >>> table_names("Ann, Bo, ann")
    Traceback (most recent call last):
    ...
    analyzer.services.entries.EntryError: Ann is named twice: give each player a name of their own
    """
    names = [shortened(n, MAX_NAME_LENGTH) for n in text.split(",") if n.strip()]
    player_count(len(names), "the number of players named", EntryError)
    seen: dict[str, str] = {}
    for name in names:
        if name.casefold() in seen:
            raise EntryError(f"{seen[name.casefold()]} is named twice: give each player a name of their own")
        seen[name.casefold()] = name
    return names


# ------------------------------------------------------------------------------------ typed entries
def counts_from_text(text: str, board: Board) -> dict[Territory, int]:
    """``"Ukraine 3, Ural 2"`` as ``{territory: armies}``; a part that is not a name and a count is named.

    >>> from analyzer.game.board import classic_board
    >>> counts_from_text("Ukraine 3, Ural 2, Ukraine 1", classic_board())
    {19: 4, 26: 2}
    >>> counts_from_text("Ukraine three", classic_board())
    Traceback (most recent call last):
    ...
    analyzer.services.entries.EntryError: 'Ukraine three' is not a territory and a count, like 'Ukraine 3'
    """
    out: dict[Territory, int] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, _, count = part.rpartition(" ")
        if not name or not count.isdigit():
            raise EntryError(f"{part[:MAX_NAME_LENGTH]!r} is not a territory and a count, like 'Ukraine 3'")
        t = board.index(name.strip())
        out[t] = out.get(t, 0) + int(count)
    return out


def deal_owners(picked: Sequence[Sequence[int]], board: Board) -> list[int]:
    """The owner of every territory of ``board`` from each force's picks; a territory picked twice or by
    nobody is named.

    >>> from analyzer.game.board import classic_board
    >>> deal_owners([[0], [0]], classic_board())
    Traceback (most recent call last):
    ...
    analyzer.services.entries.EntryError: Alaska is picked for two players
    """
    owner = [-1] * board.n_territories
    for force, territories in enumerate(picked):
        for t in territories:
            if owner[t] >= 0:
                raise EntryError(f"{board.territories[t]} is picked for two players")
            owner[t] = force
    missing = [board.territories[t] for t, o in enumerate(owner) if o < 0]
    if missing:
        raise EntryError(
            f"{len(missing)} territories have no owner yet: {', '.join(missing[:5])}"
            + (", ..." if len(missing) > 5 else "")
        )
    return owner
