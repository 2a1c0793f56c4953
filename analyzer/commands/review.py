"""``risk-analyzer review``: a recorded game reviewed turn by turn, like a chess engine's game review.

    risk-analyzer review GAME.json --rollouts 300 --seed 0 --workers 2 --out review.csv
    risk-analyzer review games.jsonl --game ID --version N

(``GAME.json`` a saved game, or a file of ``risk-analyzer games export``: its game at its latest version,
unless ``--game`` and ``--version`` pick another) prints one line per player-turn (the mover's win chance before and after it, and how much of the
change the dice made and the decisions cost, with 95% intervals; the turning points starred), then
each player's summary. ``--json`` prints ``{"players": [...], "turns": [...], ...}`` instead, each
turn with ``turn`` (the table's turn number), ``player``, ``win_chances`` (every seat's after the turn), ``dice`` and
``decisions``; ``--out`` writes the turns' table as CSV or Parquet (by the file's extension). The
method is in ``docs/review.md`` and :mod:`analyzer.analysis.review`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tqdm.auto import tqdm

from analyzer.analysis.review import REVIEW_ROUNDS, ROLLOUTS, GameReview, review_game
from analyzer.commands.files import add_game_arguments, read_game, table_file
from analyzer.errors import ReviewError


def register(subparsers: Any) -> None:
    """Add the ``review`` subcommand to the CLI's subparsers."""
    parser = subparsers.add_parser(
        "review",
        help="review a recorded game: win chances turn by turn, turning points, dice and decisions",
        description="Review a recorded game (a saved game's JSON with its history, or one game of a games "
        "export): each player's win chance after every player-turn, by the learned model of the default bot's "
        "play, the turning points, and each turn's change split into the dice (the outcome against the same "
        "decisions under other dice) and the decisions (the turn as played against the search's best plan on "
        f"the same dice), by rollouts of the default bot to the mover's turn {REVIEW_ROUNDS} rounds on, valued there "
        "by the model. The same --seed gives the same review whatever --workers.",
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--rollouts", type=int, default=ROLLOUTS, help=f"rollouts per turn, replay and plan (default {ROLLOUTS})"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the rollouts (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="local worker processes (default 1)")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument(
        "--out", metavar="FILE", help="write the turns' table: FILE.csv as CSV, FILE.parquet as Parquet"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    out, fmt = table_file(args.out, "--out", ReviewError) if args.out else (None, "")
    game = read_game(args.file, args.game_id, args.version, ReviewError)
    bars: list[tqdm] = []

    def progress(done: int, total: int) -> None:
        # Drawn when the review starts its work, its arguments checked: a refusal is then its one line.
        if not bars:
            bars.append(tqdm(total=total, desc="review", unit="task", file=sys.stderr, disable=args.quiet))
        bars[0].total = total
        bars[0].update(done - bars[0].n)

    try:
        review = review_game(game, rollouts=args.rollouts, seed=args.seed, workers=args.workers, on_progress=progress)
    finally:
        for bar in bars:
            bar.close()
    if out is not None:
        if fmt == "csv":
            review.turns.to_csv(out, index=False)
        else:
            review.turns.to_parquet(out, index=False)
    print(json.dumps(review.to_dict(), indent=1, default=_plain) if args.json else describe(review))
    return 0


def _plain(value: Any) -> Any:
    """numpy and pandas scalars in the summary, as JSON values."""
    if hasattr(value, "item"):
        return value.item()
    return None  # pandas' missing value


def _pts(x: float) -> str:
    return f"{100 * x:+5.1f}"


def describe(review: GameReview) -> str:
    """The table printed by ``risk-analyzer review``: win-chance points (100 = certain)."""
    lines = [
        f"{len(review.turns)} player-turns, {review.rollouts} rollouts per estimate, seed {review.seed} "
        f"({review.seconds:.1f} s). Changes in win-chance points of the player who moved; * turning point.",
        review.assumed,
        "",
        f"{'turn':>4}  {'player':<12} {'before':>6} {'after':>6} {'change':>6}  "
        f"{'dice [95%]':<20} {'decisions [95%]':<20} against",
    ]
    for r in review.turns.itertuples():
        dice = f"{_pts(r.dice)} [{_pts(r.dice_low)},{_pts(r.dice_high)}]"
        dec = f"{_pts(r.decisions)} [{_pts(r.decisions_low)},{_pts(r.decisions_high)}]"
        lines.append(
            f"{r.turn:>4}{'*' if r.turning_point else ' '} {str(r.name)[:12]:<12} "
            f"{100 * r.before:6.1f} {100 * r.after:6.1f} {_pts(r.change):>6}  {dice:<20} {dec:<20} {r.best_plan}"
        )
    lines += [
        "",
        f"{'player':<12} {'turns':>5} {'start':>6} {'end':>6} {'lost/turn':>9} {'worst':>6} {'(turn)':>6} "
        f"{'dice':>6} {'dice share':>10}",
    ]
    for s in review.summary.itertuples():
        turn = "" if s.turns == 0 else f"({s.mistake_turn})"
        lines.append(
            f"{str(s.name)[:12]:<12} {s.turns:>5} {100 * s.start:6.1f} {100 * s.end:6.1f} "
            f"{_pts(s.decisions_per_turn):>9} {_pts(s.largest_mistake):>6} {turn:>6} {_pts(s.dice_total):>6} "
            f"{100 * s.dice_share:9.0f}%"
        )
    return "\n".join(lines)
