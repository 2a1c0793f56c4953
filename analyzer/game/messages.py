"""Why an action is illegal, in the player's words: the compiled legality check's reason codes
(:mod:`analyzer.game.engine.legality`) told with the state's names and numbers."""

from __future__ import annotations

from typing import cast

from analyzer.errors import BoardError, IllegalActionError
from analyzer.game import wording
from analyzer.game.actions import Action, Attack, Battle, ChooseCapital, Claim, Correct, Fortify, Place, Trade
from analyzer.game.codec import CODES, ENCODE
from analyzer.game.core import StateCore
from analyzer.game.engine import legality
from analyzer.integers import is_whole


def normalize(state: StateCore, action: Action) -> Action:
    index = state.board.index
    try:
        if isinstance(action, (Claim, ChooseCapital)):
            return type(action)(index(action.territory))
        if isinstance(action, Place):
            return Place(index(action.territory), action.armies)
        if isinstance(action, Attack):
            return Attack(index(action.source), index(action.target), action.dice)
        if isinstance(action, Battle):
            return Battle(index(action.source), index(action.target), action.attacker_left, action.defender_left)
        if isinstance(action, Fortify):
            return Fortify(index(action.source), index(action.target), action.armies)
        if isinstance(action, Correct):
            return Correct(
                tuple(index(t) for t in action.territories),
                *(
                    tuple(int(v) for v in getattr(action, f))
                    for f in ("owners", "armies", "moved", "to", "seats", "hidden")
                ),
            )
        if isinstance(action, Trade):
            # As many cards as were given: illegal_reason tells the player a set is three.
            cards = cast("tuple[int, int, int]", tuple(int(c) for c in action.cards))
            bonus = None if action.bonus is None else index(action.bonus)
            return Trade(cards, bonus, action.face_down)
    except BoardError as exc:
        raise IllegalActionError(wording.refused(state, action, exc)) from None
    except (TypeError, ValueError):
        raise IllegalActionError(wording.refused(state, action, "its numbers must be whole numbers")) from None
    return action


def illegal_reason(state: StateCore, action: Action) -> str | None:
    """Why ``action`` is illegal now, or None if it is legal: the compiled check's reason, in words."""
    phase = state.phase
    kind = type(action)
    if kind not in ENCODE or not legality.allowed(int(phase), CODES[kind]):
        return wording.phase_words(state)
    for name in ("armies", "dice"):
        value = getattr(action, name, 1)
        if not is_whole(value):
            return f"{name} must be a whole number, got {value!r}"
    if isinstance(action, Trade) and len(action.cards) != 3:
        return f"a set is three different cards, got {action.cards!r}"
    code = int(legality.reason(state.S, state.C, *ENCODE[kind](action)))
    return None if code == legality.LEGAL else wording.reason(state, code, action)
