"""``risk-analyzer simulate``: play many games between bots and summarise who wins.

    risk-analyzer simulate --players 4 --bots heuristic,heuristic,random,random \\
        --games 10000 --seed 1 --workers 2 --out results.parquet

prints the win rate per seat and per bot with 95% Wilson intervals, the mean
and median number of player-turns, and games/s (``--json``: the same as one
JSON object). ``--out`` saves the tables (see :mod:`analyzer.sim.simulate`) and
checkpoints finished batches in ``OUT.checkpoint/``: rerunning the same
command after an interruption resumes there; the checkpoint is removed once
the results are written.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
from pathlib import Path
from typing import Any

from analyzer.analysis.players import PLAYERS, SEARCHERS, make_player
from analyzer.commands.files import table_file
from analyzer.errors import SimulationError
from analyzer.game.reader import loads
from analyzer.game.rules import Rules
from analyzer.game.vocabulary import PLAYER_COUNT_TEXT, player_count
from analyzer.limits import quote
from analyzer.sim.runs import BATCH_SIZE, COMPILED_BATCH_SIZE, DEFAULT_MAX_ROUNDS
from analyzer.sim.simulate import simulate


def register(subparsers: Any) -> None:
    """Add the ``simulate`` subcommand to the CLI's subparsers."""
    parser = subparsers.add_parser(
        "simulate",
        help="play many games between bots: win rates, game lengths, games/s",
        description="Play many full games between bots (Monte Carlo) and print each seat's and "
        "each bot's win rate with 95% intervals, game lengths and speed. The same --seed gives "
        "the same games whatever --workers or backend. With --out, finished batches are "
        "checkpointed in OUT.checkpoint/ and rerunning the same command resumes there.",
    )
    parser.add_argument("--players", type=int, default=4, help=f"players per game, {PLAYER_COUNT_TEXT} (default 4)")
    parser.add_argument(
        "--bots",
        default="default",
        help=f"comma-separated bot per seat, or one bot for every seat: {', '.join(PLAYERS)}, "
        "or module:Class for your own (default: default)",
    )
    parser.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the whole run (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="local worker processes (default 1)")
    backend = parser.add_mutually_exclusive_group()
    backend.add_argument("--dask", action="store_true", help="run on a Dask LocalCluster of --workers workers")
    backend.add_argument("--scheduler", metavar="ADDRESS", help="run on the Dask scheduler at ADDRESS")
    parser.add_argument(
        "--out",
        metavar="PATH",
        help="save the tables: games to PATH (ending in .parquet or .csv, which says the format), the others beside it",
    )
    parser.add_argument("--csv", action="store_true", help="save CSV (--out must then end in .csv)")
    parser.add_argument(
        "--record-turns", action="store_true", help="also record each player's holdings after every turn"
    )
    parser.add_argument(
        "--roll-dice", action="store_true", help="roll battles die by die instead of one draw from the exact solver"
    )
    parser.add_argument(
        "--max-rounds",
        type=int,
        default=DEFAULT_MAX_ROUNDS,
        help=f"end a game with no winner after this many rounds (default {DEFAULT_MAX_ROUNDS})",
    )
    parser.add_argument(
        "--batch-size",
        type=int,
        default=None,
        help=f"games per task and checkpoint (default {COMPILED_BATCH_SIZE} when every bot runs compiled, else {BATCH_SIZE})",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="apply every action through the engine's legality check (always on for bots from outside the package)",
    )
    parser.add_argument("--rules", metavar="JSON", help='rule options as JSON, e.g. \'{"fortify": "connected"}\'')
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(func=run)


def _rules(text: str | None) -> Rules:
    if text is None:
        return Rules()
    data = loads(text, "--rules", SimulationError)
    if not isinstance(data, dict):
        raise SimulationError(
            f'--rules must be a JSON object of rule options like {{"fortify": "connected"}}, got {quote(text)}'
        )
    return Rules.from_dict(data)


def run(args: argparse.Namespace) -> int:
    player_count(args.players, "--players", SimulationError)
    bots = [b.strip() for b in args.bots.split(",")]
    if len(bots) == 1:
        bots *= args.players
    # simulate() names bots by the bots' own registry: a player that searches is passed as the object
    # (and an unknown name's message lists every player).
    made = [make_player(b) for b in bots]
    seats = [player if name in SEARCHERS else name for name, player in zip(bots, made)]
    out, fmt = table_file(args.out, "--out", SimulationError, csv=args.csv) if args.out else (None, "")
    checkpoint = Path(f"{out}.checkpoint") if out is not None else None
    resuming = checkpoint is not None and checkpoint.exists()
    result = simulate(
        args.players,
        seats,
        args.games,
        args.seed,
        rules=_rules(args.rules),
        max_rounds=args.max_rounds,
        sample_battles=not args.roll_dice,
        check=args.check,
        record_turns=args.record_turns,
        workers=args.workers,
        dask=args.dask,
        scheduler=args.scheduler,
        checkpoint=checkpoint,
        batch_size=args.batch_size,
        progress=not args.quiet,
    )
    written: list[Path] = []
    if out is not None:
        written = result.save(out, fmt)
        assert checkpoint is not None
        shutil.rmtree(checkpoint)
    summary = result.summary()
    if resuming:
        summary["resumed_games"] = summary["games"] - summary["games_played"]
    summary["written"] = [str(p) for p in written]
    print(json.dumps(summary, indent=1) if args.json else describe(summary))
    return 0


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def describe(summary: dict[str, Any]) -> str:
    """The human-readable summary printed by ``risk-analyzer simulate``."""
    lines = [
        f"{summary['games']} games, {summary['capped']} capped with no winner"
        + (f" ({summary['resumed_games']} resumed from the checkpoint)" if summary.get("resumed_games") else ""),
        f"player-turns per game: mean {summary['mean_turns']:.1f}, median {summary['median_turns']:.1f}",
    ]
    speed = summary["games_per_second"]
    if not math.isnan(speed):
        lines.append(
            f"speed: {speed:,.1f} games/s, {summary['player_turns_per_second']:,.0f} player-turns/s "
            f"({summary['games_played']} games in {summary['seconds']:.1f} s)"
        )
    tables = [("by_seat", "seat", "win rate by seat"), ("by_bot", "bot", "win rate by bot")]
    if summary["first_by_bot"]:
        tables.append(("first_by_bot", "bot", "first place by bot, capped games ranked by territories, then armies"))
    for key, title, heading in tables:
        lines += ["", f"{heading} (95% Wilson interval):"]
        width = max(len(str(r[title])) + (len(r["bot"]) + 3 if title == "seat" else 0) for r in summary[key])
        for r in summary[key]:
            label = f"{r[title]} ({r['bot']})" if title == "seat" else str(r[title])
            lines.append(
                f"  {label:<{width}}  {_pct(r['win_rate'])}  [{_pct(r['ci_low'])}, {_pct(r['ci_high'])}]"
                f"  {r['wins']}/{r['games']}"
            )
    if summary["written"]:
        lines += ["", "written: " + ", ".join(summary["written"])]
    return "\n".join(lines)
