"""``risk-analyzer chances``: each player's chance to win the position at the end of a saved game.

    risk-analyzer chances GAME.json [--method model|truncated|rollouts] [--rollouts N] [--rounds R] [--seed S] [--json]
    risk-analyzer chances games.jsonl [--game ID] [--version N] ...   (a game of ``games export``)

prints one line per player: the chance and its band, then how it was made. ``--json`` prints
``{"method": ..., "players": [...], "chances": [...], "low": [...], "high": [...], "seconds": ...}``.
The figures come from :func:`analyzer.analysis.evaluator.chances`, as every view's do.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from analyzer.analysis.evaluator import CUT_ROLLOUTS, CUT_ROUNDS, METHODS, ROLLOUTS, Chances, chances
from analyzer.commands.files import add_game_arguments, read_game
from analyzer.errors import SimulationError


def register(subparsers: Any) -> None:
    """Add the ``chances`` subcommand to the CLI's subparsers."""
    parser = subparsers.add_parser(
        "chances",
        help="each player's chance to win the position at the end of a saved game",
        description="Each player's chance to win the position at the end of a saved game, when the default "
        "bot plays every seat from there: by rollouts cut a few rounds on and valued there by the learned model "
        "(truncated, the default: the figures the app shows), by the model alone (in a millisecond), or by whole "
        "rollouts.",
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--method",
        choices=METHODS,
        default="truncated",
        help="truncated (rollouts, the default), model or rollouts",
    )
    parser.add_argument(
        "--rollouts",
        type=int,
        default=None,
        help=f"rollouts, with --method truncated (default {CUT_ROLLOUTS}) or rollouts (default {ROLLOUTS})",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=CUT_ROUNDS,
        help=f"rounds each truncated rollout plays before the model values it (default {CUT_ROUNDS})",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the rollouts (default 0: the app's figures for the position)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(func=run)


def describe(result: Chances) -> str:
    """The lines ``risk-analyzer chances`` prints: a player a line, then the method."""
    width = max(len(n) for n in result.players)
    lines = [
        f"{name:<{width}}  {100 * p:5.1f}%  [{100 * lo:5.1f}, {100 * hi:5.1f}]"
        for name, p, lo, hi in zip(result.players, result.p, result.low, result.high)
    ]
    return "\n".join([*lines, result.caption])


def run(args: argparse.Namespace) -> int:
    state = read_game(args.file, args.game_id, args.version, SimulationError)
    result = chances(state, args.method, rollouts=args.rollouts, rounds=args.rounds, seed=args.seed)
    print(json.dumps(result.to_dict()) if args.json else describe(result))
    return 0
