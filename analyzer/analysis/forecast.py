"""The reinforcements each player can expect next turn: territories, continents and the chance of a set."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.game import face_down
from analyzer.game.cards import find_sets
from analyzer.game.rules import FORCED_TRADE_HAND, reinforcement_from_territories
from analyzer.game.state import GameState


def reinforcement_forecast(state: GameState) -> pd.DataFrame:
    """What each player still in the game gets at the start of their next turn, one row per player.

    Columns: ``player`` (id), ``territories``, ``from_territories``
    (``max(3, territories // 3)``), ``continents`` (names held in full),
    ``from_continents`` (their bonuses), ``base`` (the sum: no cards),
    ``cards`` (in hand), ``has_set``, ``must_trade`` (holds 5 or more),
    ``set_value`` (what a set traded now is worth: under progressive values the
    next value of the shared counter, which grows with every trade made before
    this player's turn; under fixed values the best set in the hand; 0 where the
    hand cannot hold a set) and ``with_set`` (``base + set_value``: if a set is traded). ``face_down`` counts the
    cards held face down and ``p_set`` is the exact chance that the hand holds
    a set (:func:`analyzer.game.face_down.set_chance`: 1 or 0 when every card
    is known). With face-down cards ``has_set`` means a set is certain (five
    cards always hold one), and under fixed values a set of unknown cards is
    counted at the least a set is worth.

    >>> state = GameState.from_position([0] * 41 + [1], [3] * 42, n_players=3)
    >>> reinforcement_forecast(state)[["player", "from_territories", "from_continents", "base"]].values.tolist()
    [[0, 13, 22, 35], [1, 3, 0, 3]]
    """
    board = state.board
    rows = []
    for p in range(state.n_players):
        owned = int(np.count_nonzero(state.owner == p))
        if owned == 0:
            continue
        held = state.continents_held(p)
        hand = state.hand(p)
        symbols = [int(x) for x in board.card_symbols]
        hidden = [c for c in hand if c in set(state.face_down)]
        sets = find_sets([c for c in hand if c not in hidden], symbols)
        p_set = float(face_down.set_chance(state, p)) if hidden else float(bool(sets))
        if p_set == 0:  # a hand that may hold a set is told what one would bring, beside the chance it does
            value = 0
        elif state.rules.card_values == "progressive":
            value = state.next_set_value()
        elif sets:
            value = max(
                state.rules.set_value(state.sets_traded, (symbols[a], symbols[b], symbols[c])) for a, b, c in sets
            )
        else:
            value = min(
                state.rules.set_value(state.sets_traded, three)
                for three in ((0, 0, 0), (1, 1, 1), (2, 2, 2), (0, 1, 2))
            )
        from_territories = reinforcement_from_territories(owned)
        from_continents = sum(board.continents[c].bonus for c in held)
        rows.append(
            {
                "player": p,
                "territories": owned,
                "from_territories": from_territories,
                "continents": ", ".join(board.continents[c].name for c in held),
                "from_continents": from_continents,
                "base": from_territories + from_continents,
                "cards": len(hand),
                "face_down": len(hidden),
                "p_set": p_set,
                "has_set": p_set == 1,
                "must_trade": len(hand) >= FORCED_TRADE_HAND,
                "set_value": value,
                "with_set": from_territories + from_continents + value,
            }
        )
    columns = [
        "player",
        "territories",
        "from_territories",
        "continents",
        "from_continents",
        "base",
        "cards",
        "face_down",
        "p_set",
        "has_set",
        "must_trade",
        "set_value",
        "with_set",
    ]
    return pd.DataFrame(rows, columns=columns)
