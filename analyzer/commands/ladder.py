"""``risk-analyzer ladder``: every bot against every other, rated on the Elo scale.

    risk-analyzer ladder --bots default,classic,greedy --games 200 --seed 1 --out ladder.parquet

plays each pairing on the same seeds with the seats rotated (see :mod:`analyzer.sim.ladder`) and
prints each bot's rating with a 95% bootstrap interval and each pairing's score; ``--out`` saves the
games as ``simulate --out`` does, with the ratings and pairings beside them. Names are
:data:`analyzer.analysis.players.PLAYERS`: the bots' registry and the searching player ``search``,
which plays only when named (``--bots search,default``).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from analyzer.analysis.players import SEARCHERS, make_player
from analyzer.bots import BOTS
from analyzer.commands.files import table_file
from analyzer.commands.simulate import _rules
from analyzer.errors import SimulationError
from analyzer.game.vocabulary import PLAYER_COUNT_TEXT, player_count
from analyzer.integers import whole_number
from analyzer.sim.ladder import BOOTSTRAP, describe, ladder, save


def register(subparsers: Any) -> None:
    """Add the ``ladder`` subcommand to the CLI's subparsers."""
    parser = subparsers.add_parser(
        "ladder",
        help="every bot against every other: Elo-scale ratings with intervals",
        description="Play every pairing of bots on the same seeds, seats rotated, and print a "
        "Bradley-Terry rating on the Elo scale with 95% bootstrap intervals.",
    )
    parser.add_argument(
        "--bots",
        default=None,
        help=f"comma-separated bots to rate (default: every registered bot: {', '.join(BOTS)}; aliases once; "
        f"also, when named: {', '.join(SEARCHERS)})",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=2,
        help=f"players per game, {PLAYER_COUNT_TEXT} (default 2); the two bots alternate seats",
    )
    parser.add_argument("--games", type=int, default=200, help="games per seating of each pairing (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of every pairing (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="local worker processes (default 1)")
    parser.add_argument(
        "--bootstrap", type=int, default=BOOTSTRAP, help=f"bootstrap resamples for the intervals (default {BOOTSTRAP})"
    )
    parser.add_argument("--max-rounds", type=int, default=None, help="end a game with no winner after this many rounds")
    parser.add_argument("--rules", metavar="JSON", help='rule options as JSON, e.g. \'{"fortify": "connected"}\'')
    parser.add_argument(
        "--out",
        metavar="PATH",
        help="save the games to PATH (ending in .parquet or .csv, which says the format; the other tables, ratings and "
        "pairings beside it)",
    )
    parser.add_argument("--csv", action="store_true", help="save CSV (--out must then end in .csv)")
    parser.add_argument("--json", action="store_true", help="print the ratings and pairings as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    player_count(args.players, "--players", SimulationError)
    whole_number(args.bootstrap, "--bootstrap", 0, SimulationError)
    out, fmt = table_file(args.out, "--out", SimulationError, csv=args.csv) if args.out else (None, "")
    result = ladder(
        None if args.bots is None else args.bots.split(","),
        n_players=args.players,
        games=args.games,
        seed=args.seed,
        rules=_rules(args.rules),
        max_rounds=args.max_rounds,
        workers=args.workers,
        bootstrap=args.bootstrap,
        make=make_player,
    )
    written = save(result, out, fmt) if out is not None else []
    if args.json:
        print(
            json.dumps(
                {
                    "params": result.params,
                    "ratings": result.ratings.reset_index().to_dict("records"),
                    "pairings": result.pairings.to_dict("records"),
                    "written": [str(p) for p in written],
                },
                indent=1,
            )
        )
    else:
        print(describe(result) + ("\n\nwritten: " + ", ".join(map(str, written)) if written else ""))
    return 0
