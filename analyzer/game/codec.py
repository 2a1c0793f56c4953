"""The action codec: each action as the compiled steps take it, a code and four whole numbers, and back.

:func:`analyzer.game.engine.steps.step` and the legality check read an action
as ``(code, a, b, c, d)`` (the codes are :mod:`analyzer.game.vocabulary`'s);
:data:`ENCODE` makes that row from an action and :func:`decode` the action from
a row, as a legal listing or a compiled playout's record gives it.

>>> ENCODE[Attack](Attack(3, 4, 2))
(4, 3, 4, 2, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from analyzer.errors import IllegalActionError
from analyzer.game.actions import (
    Action,
    Attack,
    Battle,
    ChooseCapital,
    Claim,
    Defend,
    Draw,
    EndAttack,
    EndTurn,
    Fortify,
    MoveIn,
    Place,
    Roll,
    Trade,
)
from analyzer.game.vocabulary import (
    ATTACK_ACTION,
    BATTLE,
    CAPITAL,
    CLAIM,
    DEFEND_ACTION,
    DRAW_ACTION,
    END_ATTACK,
    END_TURN,
    FORTIFY_ACTION,
    MOVE_IN_ACTION,
    PLACE,
    ROLL_ACTION,
    TRADE,
)

#: Each action type's code for :func:`analyzer.game.engine.steps.step`, in the order messages list them.
CODES: dict[type, int] = {
    Claim: CLAIM,
    ChooseCapital: CAPITAL,
    Trade: TRADE,
    Place: PLACE,
    Attack: ATTACK_ACTION,
    EndAttack: END_ATTACK,
    Battle: BATTLE,
    Defend: DEFEND_ACTION,
    Roll: ROLL_ACTION,
    MoveIn: MOVE_IN_ACTION,
    Fortify: FORTIFY_ACTION,
    EndTurn: END_TURN,
    Draw: DRAW_ACTION,
}


#: The fields of each action type that are its arguments a, b, c, d, in order.
_ARGS: dict[type, tuple[str, ...]] = {
    Claim: ("territory",),
    ChooseCapital: ("territory",),
    Place: ("territory", "armies"),
    Attack: ("source", "target", "dice"),
    EndAttack: (),
    Battle: ("source", "target", "attacker_left", "defender_left"),
    Defend: ("dice",),
    Roll: ("attacker_losses", "defender_losses"),
    MoveIn: ("armies",),
    Fortify: ("source", "target", "armies"),
    EndTurn: (),
    Draw: ("card",),
}


def _trade(a: Any) -> tuple[int, int, int, int, int]:
    c0, c1, c2 = a.cards
    return TRADE, int(c0), int(c1), int(c2), -1 if a.bonus is None else int(a.bonus)


def _encoder(kind: type, names: tuple[str, ...]) -> Callable[[Any], tuple[int, int, int, int, int]]:
    code = CODES[kind]

    def encode(a: Any) -> tuple[int, int, int, int, int]:
        args = [int(getattr(a, n)) for n in names] + [0] * (4 - len(names))
        return code, args[0], args[1], args[2], args[3]

    return encode


#: Each action type's code and arguments for :func:`analyzer.game.engine.steps.step`.
ENCODE: dict[type, Callable[[Any], tuple[int, int, int, int, int]]] = {
    Trade: _trade,
    **{kind: _encoder(kind, names) for kind, names in _ARGS.items()},
}


#: Each action code's constructor from the arguments a, b, c, d (a legal listing makes many).
DECODE: dict[int, Callable[[int, int, int, int], Action]] = {
    CLAIM: lambda a, b, c, d: Claim(a),
    CAPITAL: lambda a, b, c, d: ChooseCapital(a),
    TRADE: lambda a, b, c, d: Trade((a, b, c), None if d < 0 else d),
    PLACE: lambda a, b, c, d: Place(a, b),
    ATTACK_ACTION: lambda a, b, c, d: Attack(a, b, c),
    END_ATTACK: lambda a, b, c, d: EndAttack(),
    BATTLE: lambda a, b, c, d: Battle(a, b, c, d),
    DEFEND_ACTION: lambda a, b, c, d: Defend(a),
    ROLL_ACTION: lambda a, b, c, d: Roll(a, b),
    MOVE_IN_ACTION: lambda a, b, c, d: MoveIn(a),
    FORTIFY_ACTION: lambda a, b, c, d: Fortify(a, b, c),
    END_TURN: lambda a, b, c, d: EndTurn(),
    DRAW_ACTION: lambda a, b, c, d: Draw(a),
}


def decode(row: Sequence[int]) -> Action:
    """The action of a row ``(code, a, b, c, d)`` of :func:`analyzer.game.engine.steps.step`'s arguments.

    >>> decode([ATTACK_ACTION, 3, 4, 2, 0])
    Attack(source=3, target=4, dice=2)
    """
    kind, a, b, c, d = (int(x) for x in row)
    make = DECODE.get(kind)
    if make is None:
        raise IllegalActionError(f"unknown action code {kind}")
    return make(a, b, c, d)
