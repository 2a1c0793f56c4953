"""Risk cards: which three cards form a set.

A card is an id into the board's card arrays (``Board.card_symbols`` and
``Board.card_territory``); symbols are 0 infantry, 1 cavalry, 2 artillery and
3 wild.

>>> is_valid_set((0, 0, 0)), is_valid_set((0, 1, 2)), is_valid_set((0, 0, 3)), is_valid_set((0, 0, 1))
(True, True, True, False)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import cast

import numpy as np

from analyzer.game.board import WILD

#: The symbol of each card id: a list, or the board's ``card_symbols`` array.
CardSymbols = Sequence[int] | np.ndarray


def is_valid_set(symbols: Sequence[int]) -> bool:
    """Three of a kind, one of each, or any two plus a wild."""
    if len(symbols) != 3:
        return False
    if WILD in symbols:
        return True
    return len(set(symbols)) in (1, 3)


def find_sets(hand: Sequence[int], card_symbols: CardSymbols) -> list[tuple[int, int, int]]:
    """Every valid set (as sorted card-id triples) among the cards of ``hand``."""
    return [
        combo for combo in itertools.combinations(sorted(hand), 3) if is_valid_set([card_symbols[c] for c in combo])
    ]


def set_symbols(cards: tuple[int, int, int], card_symbols: CardSymbols) -> tuple[int, int, int]:
    """The symbols of a set's three cards, as plain ints (what :meth:`analyzer.game.rules.Rules.set_value` takes)."""
    return cast("tuple[int, int, int]", tuple(int(card_symbols[c]) for c in cards))
