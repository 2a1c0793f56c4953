"""Why an action is illegal, in the player's words: the compiled legality check's reason codes
(:mod:`analyzer.game.engine.legality`) told with the state's names and numbers."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from analyzer.errors import BoardError, IllegalActionError
from analyzer.game import wording
from analyzer.game.actions import Action, Trade
from analyzer.game.codec import CODES, ENCODE
from analyzer.game.core import StateCore
from analyzer.game.engine import legality
from analyzer.game.vocabulary import TERRITORY_FIELDS
from analyzer.integers import is_whole


def normalize(state: StateCore, action: Action) -> Action:
    """``action`` as the history keeps it: territories as ids, every number a plain ``int`` (numpy's integers, as read
    off a state's arrays, would not save as JSON)."""
    index = state.board.index

    def plain(name: str, value: object) -> object:
        if value is None:
            return None
        if isinstance(value, tuple):
            return tuple(plain(name, v) for v in value)
        return index(value) if name in TERRITORY_FIELDS else int(value)  # type: ignore[arg-type, call-overload]

    try:
        values: dict[str, Any] = {f.name: plain(f.name, getattr(action, f.name)) for f in fields(action)}
        return replace(action, **values)
    except BoardError as exc:
        raise IllegalActionError(wording.refused(state, action, exc)) from None
    except (TypeError, ValueError):
        raise IllegalActionError(wording.refused(state, action, "its numbers must be whole numbers")) from None


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
