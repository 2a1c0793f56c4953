"""Whether the review's dice part averages 0 over many turns of players who are not the rollout bot.

Reviews ``--games`` recorded 4-player games of up to ``--turns`` player-turns each (each seed's first game, cut
there or at its end), their seats played by four bots other than the review's rollout bot
(:data:`bench_review.RECORDED_BY`), at ``--rollouts`` rollouts (the dice part is unbiased at any budget; a small
one keeps the run short), and prints the mean dice part per turn with its 95% interval over the turns: it should
hold 0. Prints figures; asserts nothing.

The games are not picked for lasting (as bench_review.py's are, to time a 100-turn review): 63% of the games of
these bots end within 50 player-turns, and a pick of games by how they went is a pick by their dice too.

    python bench/bench_review_dice.py [--games 24] [--turns 50] [--rollouts 40] [--workers 1]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from bench_review import RECORDED_BY, recorded_game

from analyzer.analysis.review import review_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--turns", type=int, default=50)
    parser.add_argument("--rollouts", type=int, default=40)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    dice: list[float] = []
    for seed in range(1, args.games + 1):
        game = recorded_game(args.turns, seed=seed, lasting=False)
        review = review_game(game, rollouts=args.rollouts, seed=seed, turning_points=0, workers=args.workers)
        dice += review.turns["dice"].tolist()
    d = 100 * np.array(dice)
    half = 1.959964 * d.std(ddof=1) / np.sqrt(len(d))
    print(
        f"{args.games} games of up to {args.turns} player-turns by {', '.join(RECORDED_BY)}, reviewed at {args.rollouts} "
        f"rollouts ({time.perf_counter() - started:.0f} s)"
    )
    print(
        f"dice part over {len(d)} turns: mean {d.mean():+.2f} [{d.mean() - half:+.2f}, {d.mean() + half:+.2f}] points a "
        f"turn (sd {d.std(ddof=1):.1f})"
    )


if __name__ == "__main__":
    main()
