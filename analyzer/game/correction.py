"""Corrections: the table says the recorded position is wrong, and the record follows it.

A :class:`~analyzer.game.actions.Correct` sets owners, armies and cards to
what the table says. It is an action of the history like any other, so the
record never drops what was entered before it, an undo takes it back, and a
saved game still replays to its state. It is no move of the rules: nobody
rolls, nobody draws, and the luck meter leaves it out.

A correction is refused (:class:`~analyzer.errors.PositionError`, in words)
when the position it makes is impossible, or when it would knock a player out
or bring one back: an elimination is a battle's outcome, recorded as that
battle. It is entered between a turn's entries (reinforcing, attacking or
fortifying), not while a roll or a move-in is pending.
"""

from __future__ import annotations

import numpy as np

from analyzer.game.actions import Correct, as_id
from analyzer.game.core import StateCore
from analyzer.game.engine import steps as engine
from analyzer.game.labels import card_label, player_name
from analyzer.limits import MAX_ARMIES
from analyzer.text import counted

#: The phases (by the engine's codes) in which a correction may be entered.
CORRECTABLE = (engine.REINFORCE, engine.ATTACK, engine.FORTIFY)


def refusal(state: StateCore, action: Correct) -> str | None:
    """Why ``action`` cannot be applied to ``state`` (territories as ids), in words; None if it can."""
    board = state.board
    terr = board.territories
    if int(state.S[engine.PHASE]) not in CORRECTABLE:
        return (
            "a correction is entered between the entries of a turn (reinforcing, attacking or fortifying); "
            "finish the entry in progress first"
        )
    if not (len(action.territories) == len(action.owners) == len(action.armies)):
        return "a correction gives each territory it changes an owner and a number of armies"
    if len(action.moved) != len(action.to):
        return "a correction gives each card it moves a place"
    if len(set(action.territories)) != len(action.territories):
        return "a correction names each territory once"
    if len(set(action.moved)) != len(action.moved):
        return "a correction moves each card once"
    forces = len(state.pool)
    for t, o, k in zip(action.territories, action.owners, action.armies):
        t = as_id(t)
        if not 0 <= t < board.n_territories:
            return f"there is no territory {t}"
        if not 0 <= o < forces:
            return f"{terr[t]} cannot go to player {o}; the players are {', '.join(player_name(state, p) for p in range(forces))}"
        if not 1 <= k <= MAX_ARMIES:
            return f"{terr[t]} cannot hold {k} armies; a territory holds 1 to {MAX_ARMIES}"
    for c, where in zip(action.moved, action.to):
        if not 0 <= c < board.n_cards:
            return f"there is no card {c}; cards are numbered 0 to {board.n_cards - 1}"
        if where != engine.DECK and not 0 <= where < state.n_players:
            return f"{card_label(board, c)} can go to a player's hand or back to the deck"
        if state.card_loc[c] == engine.DISCARD:
            return f"{card_label(board, c)} has been traded in; it is in no hand"
    for p in action.seats:
        if not 0 <= p < state.n_players:
            return f"there is no player {p} whose hand could be stated"
    owner = state.owner.copy()
    owner[[as_id(t) for t in action.territories]] = action.owners
    for p in range(state.n_players):
        holds = bool(np.any(owner == p))
        if state.alive[p] and not holds:
            return (
                f"{player_name(state, p)} would hold no territory; a player is knocked out by a battle, "
                "so record that battle instead"
            )
        if not state.alive[p] and holds:
            return f"{player_name(state, p)} is out of the game and cannot hold a territory"
    loc = state.card_loc.copy()
    loc[list(action.moved)] = action.to
    for c in action.hidden:
        if not 0 <= c < board.n_cards or loc[c] not in action.seats:
            return f"card {c} is said to be face down but is in none of the hands stated"
    return None


def apply(state: StateCore, action: Correct) -> None:
    """Set what ``action`` says (checked by :func:`refusal`; the caller validates the whole state after)."""
    ts = [as_id(t) for t in action.territories]
    state.owner[ts] = action.owners
    state.armies[ts] = action.armies
    state.card_loc[list(action.moved)] = action.to
    stated = set(action.seats)
    # The hands stated say which of their cards are face down; a card back in the deck is face down no more.
    state.face_down = sorted(
        {c for c in state.face_down if state.card_loc[c] >= 0 and int(state.card_loc[c]) not in stated}
        | {int(c) for c in action.hidden}
    )


def describe(before: StateCore, after: StateCore, action: Correct) -> str:
    """The correction in words, from the game just before and just after it.

    "Alaska 5 armies (was 3); Ann's hand is 2 cards, 1 face down".
    """
    terr = before.board.territories
    parts = []
    for t, o, k in zip(action.territories, action.owners, action.armies):
        t = as_id(t)
        was_o, was_k = int(before.owner[t]), int(before.armies[t])
        if o != was_o:
            parts.append(
                f"{terr[t]} {player_name(after, o)}'s with {counted(k, 'army', 'armies')} "
                f"(was {player_name(before, was_o)}'s with {was_k})"
            )
        else:
            parts.append(f"{terr[t]} {counted(k, 'army', 'armies')} (was {was_k})")
    seats = list(action.seats) + sorted({int(p) for p in action.to if p >= 0} - set(action.seats))
    hidden = set(action.hidden)
    for p in seats:
        hand = after.hand(p)
        down = sum(1 for c in hand if c in hidden)
        text = f"{player_name(after, p)}'s hand is {len(hand)} card{'s' if len(hand) != 1 else ''}"
        if down:
            text += f", {down} face down"
        known = [card_label(after.board, c) for c in hand if c not in hidden]
        if known and down:
            text += f" ({', '.join(known)} shown)"
        elif known:
            text += f" ({', '.join(known)})"
        parts.append(text)
    return "; ".join(parts) if parts else "nothing changed"
