"""Whether the review's dice part averages 0 over many turns of players who are not the rollout bot.

Reviews ``--games`` recorded 4-player games of up to ``--turns`` player-turns each (each seed's first game, cut
there or at its end; seeds ``--first-seed`` on), their seats played by four bots other than the review's rollout
bot (:data:`bench_review.RECORDED_BY`), at ``--rollouts`` rollouts (the dice part is unbiased at any budget; a
small one keeps the run short), and prints the mean dice part per turn with its 95% interval over the turns, and
the same from the games' totals (turns of one game share its course): both should hold 0. Prints figures;
asserts nothing.

The games are not picked for lasting (as bench_review.py's are, to time a 100-turn review): 63% of the games of
these bots end within 50 player-turns, and a pick of games by how they went is a pick by their dice too.

    python bench/bench_review_dice.py [--games 96] [--first-seed 1] [--turns 50] [--rollouts 40] [--workers 1]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from bench_review import RECORDED_BY, recorded_game

from analyzer.analysis.review import review_game
from analyzer.sim.intervals import Z95


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=96)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--turns", type=int, default=50)
    parser.add_argument("--rollouts", type=int, default=40)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    dice: list[float] = []
    totals: list[tuple[float, int]] = []
    for seed in range(args.first_seed, args.first_seed + args.games):
        game = recorded_game(args.turns, seed=seed, lasting=False)
        review = review_game(game, rollouts=args.rollouts, seed=seed, turning_points=0, workers=args.workers)
        dice += review.turns["dice"].tolist()
        totals.append((100 * float(review.turns["dice"].sum()), len(review.turns)))
    d = 100 * np.array(dice)
    half = Z95 * d.std(ddof=1) / np.sqrt(len(d))
    # The same mean as the games' total over their turns, its interval over the games (the delta method's).
    total, turns = (np.array(x, dtype=float) for x in zip(*totals))
    mean = total.sum() / turns.sum()
    by_game = Z95 * np.sqrt(((total - mean * turns) ** 2).sum() / (len(turns) * (len(turns) - 1))) / turns.mean()
    print(
        f"{args.games} games (seeds {args.first_seed} to {args.first_seed + args.games - 1}) of up to {args.turns} "
        f"player-turns by {', '.join(RECORDED_BY)}, reviewed at {args.rollouts} rollouts "
        f"({time.perf_counter() - started:.0f} s)"
    )
    print(
        f"dice part over {len(d)} turns: mean {d.mean():+.2f} [{d.mean() - half:+.2f}, {d.mean() + half:+.2f}] points a "
        f"turn (sd {d.std(ddof=1):.1f}); over the games' totals, [{mean - by_game:+.2f}, {mean + by_game:+.2f}]"
    )


if __name__ == "__main__":
    main()
