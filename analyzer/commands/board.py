"""``risk-analyzer board``: show the map (continents, territories, borders, cards).

``--json`` prints the map in its file format instead, and ``--map PATH`` shows a
custom map file rather than the classic one.
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from analyzer.game.board import SYMBOLS, Board, classic_board, dump_json


def register(subparsers: Any) -> None:
    """Add the ``board`` subcommand to the CLI's subparsers."""
    parser = subparsers.add_parser(
        "board",
        help="show the map: continents, territories, borders and cards",
        description="Show the map: each continent with its bonus, each territory with its "
        "continent, card symbol and neighbours (sea crossings marked), and totals.",
    )
    parser.add_argument(
        "--map", metavar="PATH", help="a map file in the risk-analyzer/map JSON format (default: the classic map)"
    )
    parser.add_argument("--json", action="store_true", help="print the map as JSON in its file format")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    board = classic_board() if args.map is None else Board.load(args.map)
    print(dump_json(board.to_dict()) if args.json else describe(board))
    return 0


def describe(board: Board) -> str:
    """The human-readable listing printed by ``risk-analyzer board``."""
    lines = [f"Map {board.name!r}" + (f" ({board.path})" if board.path else ""), ""]

    width = max(len("Continent"), *(len(c.name) for c in board.continents))
    lines.append(f"{'Continent':<{width}}  Bonus  Territories")
    for continent in board.continents:
        lines.append(f"{continent.name:<{width}}  {continent.bonus:>5}  {len(continent.territories):>11}")
    lines.append("")

    t_width = max(len("Territory"), *(len(t) for t in board.territories))
    c_width = width
    s_width = max(len(s) for s in SYMBOLS)
    lines.append(f"{'Territory':<{t_width}}  {'Continent':<{c_width}}  {'Card':<{s_width}}  Neighbours")
    for t, name in enumerate(board.territories):
        continent_name = board.continents[int(board.continent_of[t])].name
        symbol = SYMBOLS[int(board.card_symbols[t])]
        neighbours = ", ".join(
            board.territories[n] + (" (sea)" if board.sea_adjacency[t, n] else "") for n in board.neighbors[t]
        )
        lines.append(f"{name:<{t_width}}  {continent_name:<{c_width}}  {symbol:<{s_width}}  {neighbours}")
    lines.append("")

    counts = Counter(SYMBOLS[int(s)] for s in board.card_symbols)
    lines.append(f"{board.n_cards} cards: " + ", ".join(f"{counts[s]} {s}" for s in SYMBOLS))
    n_sea = sum(b.sea for b in board.borders)
    lines.append(
        f"{board.n_territories} territories, {len(board.continents)} continents, "
        f"{len(board.borders)} borders ({n_sea} by sea)"
    )
    return "\n".join(lines)
