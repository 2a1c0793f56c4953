"""Why the engine refuses an action, in the table's words: the one place those messages are written.

Every refusal names the player by name, territories and cards as the table
says them, never a Python repr or an id, and says what may be done instead.
:meth:`analyzer.game.state.GameState.apply` raises
:class:`~analyzer.errors.IllegalActionError` with :func:`refused`'s text.

>>> from analyzer.game.state import GameState
>>> from analyzer.game.actions import Battle
>>> state = GameState.from_position([0] * 14 + [1] * 14 + [2] * 14, [3] * 42, n_players=3)
>>> state.labels["names"] = ["Ann", "Bo", "Cy"]
>>> state.pending = 0; state.phase = state.phase.ATTACK
>>> try:
...     state.apply(Battle("Alaska", "Kamchatka", 3, 3))
... except ValueError as exc:
...     print(exc)
Ann cannot record the battle from Alaska into Kamchatka (3 and 3 left) now: a battle removes at least one army: Alaska still has 3 and Kamchatka 3; enter the armies left after the dice
"""

from __future__ import annotations

from typing import Any

from analyzer.game.actions import (
    Action,
    Attack,
    Battle,
    ChooseCapital,
    Claim,
    Correct,
    Defend,
    Draw,
    EndAttack,
    EndTurn,
    Fortify,
    MoveIn,
    Place,
    Roll,
    Trade,
    as_id,
)
from analyzer.game.board import SYMBOLS
from analyzer.game.core import StateCore
from analyzer.game.engine import legality
from analyzer.game.engine import steps as engine
from analyzer.game.labels import card_label, player_name
from analyzer.game.rules import FORCED_TRADE_HAND
from analyzer.integers import is_whole


def _territory(state: StateCore, t: Any) -> str:
    if not is_whole(t):
        return str(t)
    t = int(t)
    return state.board.territories[t] if 0 <= t < state.board.n_territories else f"territory number {t}"


def _card(state: StateCore, c: Any) -> str:
    if not is_whole(c):
        return f"card {c}"
    c = int(c)
    return card_label(state.board, c) if 0 <= c < state.board.n_cards else f"card number {c}"


def armies_text(k: Any) -> str:
    """A count of armies in words: "1 army", "3 armies"."""
    return f"{k} arm{'y' if k == 1 else 'ies'}"


def _dice(k: Any) -> str:
    return f"{k} {'die' if k == 1 else 'dice'}"


def action_words(state: StateCore, action: Action) -> str:
    """What ``action`` does, as a phrase after "cannot": "attack Kamchatka from Alaska with 3 dice"."""
    t = lambda x: _territory(state, x)  # noqa: E731
    if isinstance(action, Claim):
        return f"claim {t(action.territory)}"
    if isinstance(action, Place):
        return f"place {armies_text(action.armies)} on {t(action.territory)}"
    if isinstance(action, Trade):
        cards = ", ".join(_card(state, c) for c in action.cards)
        bonus = f" with the bonus on {t(action.bonus)}" if action.bonus is not None else ""
        return f"trade {cards}{bonus}"
    if isinstance(action, ChooseCapital):
        return f"choose {t(action.territory)} as capital"
    if isinstance(action, Attack):
        return f"attack {t(action.target)} from {t(action.source)} with {_dice(action.dice)}"
    if isinstance(action, Battle):
        return (
            f"record the battle from {t(action.source)} into {t(action.target)} "
            f"({action.attacker_left} and {action.defender_left} left)"
        )
    if isinstance(action, Defend):
        return f"defend with {_dice(action.dice)}"
    if isinstance(action, EndAttack):
        return "stop attacking"
    if isinstance(action, MoveIn):
        return f"move {armies_text(action.armies)} in"
    if isinstance(action, Fortify):
        return f"move {armies_text(action.armies)} from {t(action.source)} to {t(action.target)}"
    if isinstance(action, EndTurn):
        return "end the turn"
    if isinstance(action, Roll):
        return f"record a roll losing {action.attacker_losses} and destroying {action.defender_losses}"
    if isinstance(action, Draw):
        return f"draw {_card(state, action.card)}"
    if isinstance(action, Correct):
        return "correct the position"
    return "make that entry"


def phase_words(state: StateCore) -> str:
    """What the game waits for now, and so what may be entered."""
    who = player_name(state, state.player)
    phase = int(state.S[engine.PHASE])
    return {
        engine.SETUP_CLAIM: f"{who} is claiming a territory: claim one nobody holds",
        engine.SETUP_PLACE: f"the starting armies are being placed ({who}'s turn): place them one at a time",
        engine.CHOOSE_CAPITAL: f"{who} is choosing a capital",
        engine.REINFORCE: f"{who} is reinforcing: place the {armies_text(state.pending)} left, or trade a set",
        engine.ATTACK: f"{who} is attacking: record a battle, or stop attacking to fortify or end the turn",
        engine.DEFEND: "the defender is choosing how many dice to roll",
        engine.ROLL: "the dice of the attack are to be rolled",
        engine.MOVE_IN: f"{who} must first move armies into the territory just taken",
        engine.FORTIFY: f"{who} is fortifying: move armies once, or end the turn",
        engine.DRAW: "the card drawn at the end of the turn is to be entered",
        engine.GAME_OVER: "the game is over",
    }.get(phase, "the game is in no known phase")


def refused(state: StateCore, action: Action, reason: object) -> str:
    """The whole message for ``action`` refused for ``reason``: who, what, and why."""
    return f"{player_name(state, state.player)} cannot {action_words(state, action)} now: {reason}"


def phantom_battle(state: StateCore, action: Battle) -> str:
    s, t = as_id(action.source), as_id(action.target)
    return (
        f"a battle removes at least one army: {_territory(state, s)} still has {int(state.armies[s])} and "
        f"{_territory(state, t)} {int(state.armies[t])}; enter the armies left after the dice"
    )


def reason(state: StateCore, code: int, action: Any) -> str:
    """The words for reason ``code`` of :mod:`analyzer.game.engine.legality` about ``action``
    (territories as ids)."""
    L = legality
    who = player_name(state, state.player)
    armies, name = state.armies, lambda x: _territory(state, x)
    s = as_id(getattr(action, "source", getattr(action, "territory", 0)))
    t = as_id(getattr(action, "target", 0))
    if code == L.WRONG_PHASE:
        return phase_words(state)
    if code == L.CLAIMED:
        return f"{name(s)} is already claimed by {player_name(state, int(state.owner[s]))}; claim one nobody holds"
    if code == L.NOT_YOURS:
        return f"{name(s)} is not {who}'s (it is {player_name(state, int(state.owner[s]))}'s)"
    if code == L.NOT_THE_FORCE:
        neutral = state._setup_force() == state.neutral
        return f"{name(s)} is not {'neutral' if neutral else who + chr(39) + 's'}; this army goes on a territory of {'the neutral' if neutral else who}"
    if code == L.ONE_AT_A_TIME:
        return "setup places one army at a time"
    if code == L.MUST_TRADE:
        return f"{who} holds {len(state.hand(state.player))} cards and must trade a set first"
    if code == L.PLACE_RANGE:
        return f"armies must be from 1 to the {state.pending} left to place, got {action.armies}"
    if code == L.SET_SHAPE:
        return f"a set is three different cards, got {len(action.cards)}"
    if code == L.NOT_IN_HAND:
        hand = set(state.hand(state.player))
        missing = [_card(state, c) for c in action.cards if c not in hand]
        held = ", ".join(_card(state, c) for c in sorted(hand)) or "no cards"
        return f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not in {who}'s hand ({held})"
    if code == L.NOT_A_SET:
        symbols = [SYMBOLS[int(state.board.card_symbols[c])] for c in action.cards]
        return f"{', '.join(symbols)} are not a set: trade three of a kind, one of each, or two plus a wild"
    if code == L.TRADE_DOWN_ONLY:
        return f"after an elimination {who} trades only until holding fewer than {FORCED_TRADE_HAND} cards"
    if code == L.CHOOSE_BONUS:
        return f"choose the bonus territory from {', '.join(name(b) for b in state._bonus_territories(action.cards))}"
    if code == L.NO_BONUS:
        return "no bonus territory may be chosen for this set"
    if code == L.TARGET_YOURS:
        return f"{name(t)} is {who}'s own; attack a territory of another player"
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
            f"{action.attacker_left} and {action.defender_left}: {name(s)} keeps 1 to {int(armies[s])}, "
            f"{name(t)} 0 to {int(armies[t])}"
        )
    if code == L.PHANTOM_BATTLE:
        return phantom_battle(state, action)
    if code == L.CAPTURE_LEAVES_TWO:
        return "a capture leaves the attacker at least 2 armies (one moves in, one stays)"
    if code == L.DEFENCE_RANGE:
        return f"defence dice must be from 1 to {state.max_defence_dice()}, got {action.dice}"
    if code == L.MOVE_RANGE:
        lo, hi = state.move_range()
        return f"move in from {lo} (the dice rolled) to {hi} (all but one) armies, got {action.armies}"
    if code == L.FORTIFY_NOT_YOURS:
        return f"both {name(s)} and {name(t)} must be {who}'s"
    if code == L.NOT_REACHABLE:
        how = "adjacent to" if state.rules.fortify == "adjacent" else f"connected through {who}'s territories to"
        return f"{name(t)} is not {how} {name(s)}"
    if code == L.FORTIFY_RANGE:
        return f"move from 1 to {int(armies[s]) - 1} armies (leave at least one on {name(s)}), got {action.armies}"
    if code == L.IMPOSSIBLE_ROLL:
        attack = state._pending_attack()
        return (
            f"losing {action.attacker_losses} and destroying {action.defender_losses} is not a possible outcome "
            f"of {attack.dice} dice against {attack.defence}"
        )
    if code == L.NOT_IN_PILE:
        return f"{_card(state, action.card)} is not in the deck"
    return "it names a territory that does not exist"
