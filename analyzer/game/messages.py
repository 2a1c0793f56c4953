"""Why an action is illegal, in the player's words: the compiled legality check's reason codes
(:mod:`analyzer.game.engine.legality`) told with the state's names and numbers."""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from analyzer.errors import BoardError, IllegalActionError
from analyzer.game.actions import Action, Attack, Battle, ChooseCapital, Claim, Fortify, Place, Trade, as_id
from analyzer.game.board import SYMBOLS
from analyzer.game.codec import CODES, ENCODE
from analyzer.game.core import StateCore
from analyzer.game.engine import legality
from analyzer.game.rules import FORCED_TRADE_HAND


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
        if isinstance(action, Trade):
            # As many cards as were given: illegal_reason tells the player a set is three.
            cards = cast("tuple[int, int, int]", tuple(int(c) for c in action.cards))
            bonus = None if action.bonus is None else index(action.bonus)
            return Trade(cards, bonus)
    except BoardError as exc:
        raise IllegalActionError(f"illegal action {action!r} in phase {state.phase.name}: {exc}") from None
    except (TypeError, ValueError):
        raise IllegalActionError(f"malformed action {action!r} in phase {state.phase.name}") from None
    return action

def illegal_reason(state: StateCore, action: Action) -> str | None:
    """Why ``action`` is illegal now, or None if it is legal: the compiled check's reason, in words."""
    phase = state.phase
    kind = type(action)
    if kind not in ENCODE or not legality.allowed(int(phase), CODES[kind]):
        expected = [t.__name__ for t, code in CODES.items() if legality.allowed(int(phase), code)]
        return f"expected {', '.join(expected) or 'nothing (the game is over)'}"
    for name in ("armies", "dice"):
        value = getattr(action, name, 1)
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
            return f"{name} must be a whole number, got {value!r}"
    if isinstance(action, Trade) and len(action.cards) != 3:
        return f"a set is three different cards, got {action.cards!r}"
    code = int(legality.reason(state.S, state.C, *ENCODE[kind](action)))
    return None if code == legality.LEGAL else _message(state, code, action)

def _message(state: StateCore, code: int, action: Any) -> str:
    """The words for reason ``code`` of :mod:`analyzer.game.engine.legality` about ``action``
    (past :func:`normalize`, every territory is an id)."""
    L = legality
    p, armies, name = state.player, state.armies, state.board.territories.__getitem__
    s = as_id(getattr(action, "source", getattr(action, "territory", 0)))
    t = as_id(getattr(action, "target", 0))
    if code == L.CLAIMED:
        return f"{name(s)} is already claimed"
    if code == L.NOT_YOURS:
        return f"{name(s)} is not yours"
    if code == L.NOT_THE_FORCE:
        return f"{name(s)} is not {'neutral' if state._setup_force() == state.neutral else 'yours'}"
    if code == L.ONE_AT_A_TIME:
        return "setup places one army at a time"
    if code == L.MUST_TRADE:
        return f"you hold {len(state.hand(p))} cards and must trade a set first"
    if code == L.PLACE_RANGE:
        return f"armies must be from 1 to the {state.pending} left to place, got {action.armies}"
    if code == L.SET_SHAPE:
        return f"a set is three different cards, got {action.cards!r}"
    if code == L.NOT_IN_HAND:
        hand = set(state.hand(p))
        return f"card(s) {[c for c in action.cards if c not in hand]} are not in your hand {sorted(hand)}"
    if code == L.NOT_A_SET:
        symbols = [SYMBOLS[int(state.board.card_symbols[c])] for c in action.cards]
        return f"cards {list(action.cards)} ({', '.join(symbols)}) are not a set: need three of a kind, one of each, or two plus a wild"
    if code == L.TRADE_DOWN_ONLY:
        return f"after an elimination you trade only until you hold fewer than {FORCED_TRADE_HAND} cards"
    if code == L.CHOOSE_BONUS:
        return f"choose the bonus territory from {[name(b) for b in state._bonus_territories(action.cards)]}"
    if code == L.NO_BONUS:
        return "no bonus territory may be chosen for this set"
    if code == L.TARGET_YOURS:
        return f"{name(t)} is yours"
    if code == L.NOT_ADJACENT:
        return f"{name(s)} does not border {name(t)}"
    if code == L.TOO_FEW_TO_ATTACK:
        return f"{name(s)} has {int(armies[s])} army; attacking needs at least 2"
    if code == L.DICE_RANGE:
        most = state.rules.dice.attacker_dice(int(armies[s]))
        return f"dice must be from 1 to {most} with {int(armies[s])} armies on {name(s)}, got {action.dice}"
    if code == L.BATTLE_RANGE:
        return (
            f"a battle of {int(armies[s])} against {int(armies[t])} cannot leave "
            f"{action.attacker_left} and {action.defender_left}"
        )
    if code == L.CAPTURE_LEAVES_TWO:
        return "a capture leaves the attacker at least 2 armies (one moves in, one stays)"
    if code == L.DEFENCE_RANGE:
        return f"defence dice must be from 1 to {state.max_defence_dice()}, got {action.dice}"
    if code == L.MOVE_RANGE:
        lo, hi = state.move_range()
        return f"move in from {lo} (the dice rolled) to {hi} (all but one) armies, got {action.armies}"
    if code == L.FORTIFY_NOT_YOURS:
        return f"both {name(s)} and {name(t)} must be yours"
    if code == L.NOT_REACHABLE:
        how = "adjacent to" if state.rules.fortify == "adjacent" else "connected through your territories to"
        return f"{name(t)} is not {how} {name(s)}"
    if code == L.FORTIFY_RANGE:
        return f"move from 1 to {int(armies[s]) - 1} armies (leave at least one on {name(s)}), got {action.armies}"
    if code == L.IMPOSSIBLE_ROLL:
        attack = state._pending_attack()
        return f"{action} is not a possible outcome of {attack.dice} dice against {attack.defence}"
    if code == L.NOT_IN_PILE:
        return f"card {action.card} is not in the deck"
    return f"no such territory in {action!r}"
