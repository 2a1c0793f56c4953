"""The actions of a game, as small frozen dataclasses.

Territories may be given by name or id; :meth:`analyzer.game.state.GameState.apply`
turns names into ids, and the actions listed by ``legal_actions()`` use ids.
Code reading the territory of an action past that point (the engine, bots
reading the history) narrows it to an id with :func:`as_id`.
Chance outcomes (:class:`Roll`, :class:`Draw`) are actions too, so that a game's
history replays exactly without a random generator.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass, field, fields
from typing import Any, cast

from analyzer.errors import StateFormatError
from analyzer.limits import quote

#: A territory in an action: its id or, until :meth:`GameState.apply` normalises it, its name.
Territory = int | str


def as_id(territory: Territory) -> int:
    """The territory of an action the engine has accepted, typed as the id it is by then.

    :meth:`analyzer.game.state.GameState.apply` turns names into ids before checking
    and applying an action, and the actions from ``legal_actions()`` and in a
    game's history hold ids; past that point a territory is an id (an ``int``,
    or a numpy integer, which indexes the same way). This only says so to the
    type checker: it returns its argument unchanged and looks nothing up (for
    that, use :meth:`analyzer.game.board.Board.index`).
    """
    return cast(int, territory)


@dataclass(frozen=True)
class Claim:
    """Setup: put one army on an unclaimed territory."""

    territory: Territory


@dataclass(frozen=True)
class Place:
    """Put ``armies`` armies on a territory (setup, reinforcements, the neutral's army in a 2-player setup)."""

    territory: Territory
    armies: int = 1


@dataclass(frozen=True)
class Trade:
    """Trade three cards for armies; ``bonus`` is the owned territory shown on one of them that takes the extra armies.

    ``face_down``: how many of the cards (the last ones) the table never saw before the
    trade, their identities being the recorder's guess (see :mod:`analyzer.game.face_down`);
    the log says so rather than name them. The rules never read it.
    """

    cards: tuple[int, int, int]
    bonus: Territory | None = None
    face_down: int = field(default=0, metadata={"optional": True})


@dataclass(frozen=True)
class ChooseCapital:
    """Capital Risk: name one of your territories as your capital."""

    territory: Territory


@dataclass(frozen=True)
class Attack:
    """Attack ``target`` from ``source``, rolling ``dice`` dice."""

    source: Territory
    target: Territory
    dice: int


@dataclass(frozen=True)
class Defend:
    """The defender's choice of dice for the pending attack."""

    dice: int


@dataclass(frozen=True)
class EndAttack:
    """Stop attacking and go on to fortify."""


@dataclass(frozen=True)
class MoveIn:
    """After a capture, move ``armies`` armies into the captured territory."""

    armies: int


@dataclass(frozen=True)
class Fortify:
    """The turn's one fortifying move; it ends the turn."""

    source: Territory
    target: Territory
    armies: int


@dataclass(frozen=True)
class EndTurn:
    """End the turn without fortifying."""


@dataclass(frozen=True)
class Roll:
    """Chance: the outcome of the pending roll, as the armies each side loses."""

    attacker_losses: int
    defender_losses: int


@dataclass(frozen=True)
class Draw:
    """Chance: the card drawn at the end of a turn with a capture."""

    card: int


@dataclass(frozen=True)
class Battle:
    """A whole battle in one step: the armies left on both territories when it stopped.

    The simulator's fast path draws this from the battle solver's exact
    distribution instead of rolling die by die; both sides are taken to have
    rolled the most dice. If ``defender_left`` is 0 the target is captured,
    and the capturing roll used ``min(3, attacker_left - 1)`` dice.
    """

    source: Territory
    target: Territory
    attacker_left: int
    defender_left: int


@dataclass(frozen=True)
class Correct:
    """A correction of the position, entered when the recorded game and the table disagree.

    It is not a move of the rules: it sets what the table says, and the game's
    history keeps it, so the record stays the replay of its log. Each field
    is a flat tuple, so that the JSON form stays one list per field.

    ``territories`` changed take ``owners`` and ``armies`` (one each, in
    order); cards ``moved`` go ``to`` a seat, or -1 for the deck; ``seats``
    are the players whose hands were stated, and ``hidden`` the cards of
    those hands held face down afterwards. Only
    :meth:`analyzer.game.state.GameState.apply` applies it (the compiled
    playout never meets one).
    """

    territories: tuple[Territory, ...] = ()
    owners: tuple[int, ...] = ()
    armies: tuple[int, ...] = ()
    moved: tuple[int, ...] = ()
    to: tuple[int, ...] = ()
    seats: tuple[int, ...] = ()
    hidden: tuple[int, ...] = ()


Action = (
    Claim
    | Place
    | Trade
    | ChooseCapital
    | Attack
    | Defend
    | EndAttack
    | MoveIn
    | Fortify
    | EndTurn
    | Roll
    | Draw
    | Battle
    | Correct
)

ACTION_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        Claim,
        Place,
        Trade,
        ChooseCapital,
        Attack,
        Defend,
        EndAttack,
        MoveIn,
        Fortify,
        EndTurn,
        Roll,
        Draw,
        Battle,
        Correct,
    )
}


def action_to_json(action: Action) -> list[Any]:
    """Compact JSON form: ``[type name, field, ...]``, e.g. ``["Attack", 3, 4, 3]``.

    A trailing optional field at its default is left out, so a save reads the same as before it existed.
    """
    values = [list(v) if isinstance(v, tuple) else v for v in astuple(action)]
    specs = fields(action)
    while values and specs[len(values) - 1].metadata.get("optional") and values[-1] == specs[len(values) - 1].default:
        values.pop()
    return [type(action).__name__, *values]


def action_from_json(data: Any) -> Action:
    """Inverse of :func:`action_to_json`."""
    if not isinstance(data, list) or not data or data[0] not in ACTION_TYPES:
        raise StateFormatError(
            f"not an action: {quote(data)}; expected [type, fields...] with a type in {sorted(ACTION_TYPES)}"
        )
    cls = ACTION_TYPES[data[0]]
    names = [f.name for f in fields(cls)]
    required = len([f for f in fields(cls) if not f.metadata.get("optional")])
    if not required <= len(data) - 1 <= len(names):
        raise StateFormatError(f"action {quote(data)} has {len(data) - 1} fields; {data[0]} takes {names}")
    values = [tuple(v) if isinstance(v, list) else v for v in data[1:]]
    return cls(*values)
