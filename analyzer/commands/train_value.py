"""``risk-analyzer train-value``: train the win-chance model on self-play positions.

    risk-analyzer train-value --games N --seed S --out FILE [--held-out M] [--card CARD.json]

plays ``N`` games of the training populations (:mod:`analyzer.studies.value_training`), fits the
network and writes it to ``FILE`` (a numpy archive that :mod:`analyzer.value.model` reads); its card
(games, positions, seed, time and the held-out scores) is printed and, with ``--card``, written as JSON.
Needs the ``train`` extra (scikit-learn).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tqdm.auto import tqdm

from analyzer.commands.files import output_path
from analyzer.errors import SimulationError
from analyzer.integers import whole_number
from analyzer.limits import quote


def register(subparsers: Any) -> None:
    """Add the ``train-value`` subcommand to the CLI's subparsers."""
    parser = subparsers.add_parser(
        "train-value",
        help="train the win-chance model on self-play positions",
        description="Play games of the training populations, label their positions by the default bot's "
        "play-on, fit the win-chance network (scikit-learn) and write it to --out. The same --games and "
        "--seed give the same positions.",
    )
    parser.add_argument("--games", type=int, required=True, help="games to play for the training positions")
    parser.add_argument("--seed", type=int, default=0, help="seed of the games (default 0)")
    parser.add_argument("--out", metavar="FILE", required=True, help="the model file to write (.npz)")
    parser.add_argument(
        "--held-out", type=int, default=0, help="games (seed + 1) to score the model on afterwards (default 0)"
    )
    parser.add_argument(
        "--band-positions",
        type=int,
        default=0,
        help="held-out positions per player count on which to measure the model's error band against "
        "rollouts (seed + 2; default 0: none)",
    )
    parser.add_argument("--band-rollouts", type=int, default=500, help="rollouts per position for the band")
    parser.add_argument("--card", metavar="CARD.json", help="also write the training card as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from analyzer.studies.value_training import card_text, train_value

    # Two rollouts at least for the band: it is an interval.
    for name, least in (("band_rollouts", 2), ("games", 1), ("held_out", 0), ("band_positions", 0), ("seed", 0)):
        whole_number(getattr(args, name), f"--{name.replace('_', '-')}", least, SimulationError)
    out = output_path(args.out, "--out", SimulationError)
    if out.suffix.lower() != ".npz":
        raise SimulationError(f"--out {quote(args.out)}: give a file ending in .npz")
    # Checked before the games are played, not when the card is written after them.
    card_file = output_path(args.card, "--card", SimulationError) if args.card else None
    bar = tqdm(total=args.games, desc="games", unit="game", file=sys.stderr, disable=args.quiet)
    try:
        card = train_value(
            args.games,
            args.seed,
            out,
            held_out=args.held_out,
            band_positions=args.band_positions,
            band_rollouts=args.band_rollouts,
            on_game=bar.update,
            log=lambda m: bar.write(m, file=sys.stderr),
        )
    finally:
        bar.close()
    text = card_text(card)
    if card_file is not None:
        card_file.write_text(text)
    print(text, end="")
    return 0
