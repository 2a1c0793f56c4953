"""A chain of attacks as the user gives it: the defenders typed, or territories picked on a game.

>>> chain_defenders("3 2, 4")
[3, 2, 4]
>>> chain_defenders("3 x")
Traceback (most recent call last):
...
analyzer.errors.BattleInputError: each territory of the chain needs 1 to 1,000,000 defenders, got 'x'
>>> from analyzer.game.board import classic_board
>>> board = classic_board()
>>> check_chain_path(board, board.index("Alaska"), [board.index("Alberta"), board.index("Ontario")])
>>> check_chain_path(board, board.index("Alaska"), [board.index("Ontario")])
Traceback (most recent call last):
...
analyzer.errors.IllegalActionError: Alaska does not border Ontario: a chain goes from border to border
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzer.analysis.quick_odds import MAX_CHAIN
from analyzer.errors import BattleInputError, IllegalActionError
from analyzer.game.board import Board
from analyzer.limits import MAX_ARMIES

#: How much of a bad part of a typed chain a message repeats.
_SHOWN = 20


def chain_defenders(text: str) -> list[int]:
    """The defenders typed for the territories after the first of a chain: whole numbers split by spaces or commas.

    An empty text is no chain (``[]``). Raises :class:`BattleInputError` naming the first bad part.
    """
    parts = text.replace(",", " ").split()
    if len(parts) > MAX_CHAIN - 1:
        raise BattleInputError(f"a chain has at most {MAX_CHAIN} territories, got {len(parts) + 1}")
    for part in parts:
        if not part.isdigit() or not 1 <= int(part) <= MAX_ARMIES:
            raise BattleInputError(
                f"each territory of the chain needs 1 to {MAX_ARMIES:,} defenders, got {part[:_SHOWN]!r}"
            )
    return [int(part) for part in parts]


def check_chain_path(board: Board, first: int, then: Sequence[int]) -> None:
    """Raise :class:`IllegalActionError` at the first territory of ``first, *then`` that does not border the one before."""
    for before, after in zip([first, *then], then):
        if not board.are_adjacent(before, after):
            raise IllegalActionError(
                f"{board.territories[before]} does not border {board.territories[after]}: "
                "a chain goes from border to border"
            )
