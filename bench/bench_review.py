"""Game review speed: a recorded 4-player game of 100 player-turns reviewed at the default budget.

The game is played by the default bot in every seat from a seeded random start (the setup
included), turn by turn through the engine so that its history is recorded, and cut after its
100th player-turn (a seed whose game lasts that long). The review runs with the default rollouts
on ``--workers`` processes (2 by default, the machine's cores) and prints its time, then the same
review's figures: rollouts played and rollouts per second. A baseline run in the same process, the
positions' rollouts alone on one worker for the first 10 positions, gives the per-rollout cost the
review's time is made of. Prints figures; asserts nothing.

    python bench/bench_review.py [--workers 2] [--rollouts 200] [--turns 100]
"""

from __future__ import annotations

import argparse
import os
import resource
import time

import numpy as np

from analyzer.analysis.review import PLANS, ROLLOUTS, TURNING_POINTS, _winners, replay_turn, review_game
from analyzer.analysis.search import play_setup
from analyzer.game.state import GameState


def recorded_game(turns: int, seed: int = 0) -> GameState:
    """A 4-player game between default bots, recorded action by action, cut after ``turns`` player-turns."""
    for attempt in range(50):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(attempt,)))
        state = play_setup(GameState.new(4, rng), rng)
        played = 0
        while not state.is_terminal() and played < turns:
            replay_turn(state, (), rng)
            played += 1
        if played == turns and not state.is_terminal():
            return state
    raise RuntimeError(f"no game of {turns} player-turns in 50 seeds")


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the review's worker processes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rollouts", type=int, default=ROLLOUTS)
    parser.add_argument("--turns", type=int, default=100)
    args = parser.parse_args()
    load = os.getloadavg()
    started = time.perf_counter()
    game = recorded_game(args.turns)
    print(f"built a recorded 4-player game of {args.turns} player-turns (round {game.round}, "
          f"{len(game.history)} actions) in {time.perf_counter() - started:.1f} s")
    review_game(recorded_game(1), rollouts=2, turning_points=1)  # warm every kernel the review runs
    started = time.perf_counter()
    text = game.to_json(history=False)
    for j in range(10):
        _winners(text, None, None, None, 1, j, args.rollouts // 10)
    base = (time.perf_counter() - started) / (10 * (args.rollouts // 10))
    started, cpu = time.perf_counter(), _cpu()
    review = review_game(game, rollouts=args.rollouts, workers=args.workers, seed=0)
    seconds, cpu = time.perf_counter() - started, _cpu() - cpu
    n = len(review.turns)
    rollouts = args.rollouts * ((n + 1) + n + min(TURNING_POINTS, n) * (len(PLANS) - 1))
    print(f"review of {n} player-turns, {args.rollouts} rollouts per estimate, {args.workers} workers: {seconds:.1f} s "
          f"wall clock, {cpu:.1f} s of CPU (this process and its workers; {cpu / args.workers:.1f} s per worker if "
          f"the machine were ours alone); load average before/after: {load[0]:.1f}/{os.getloadavg()[0]:.1f}")
    print(f"  {rollouts:,} rollouts ({rollouts / seconds:,.0f}/s); one rollout from the final position on one worker: "
          f"{1000 * base:.2f} ms, so {rollouts * base / seconds:.2f}x that many rollouts' serial time")
    print(review.summary.to_string(index=False))


if __name__ == "__main__":
    main()
