"""Game review speed: a recorded 4-player game of 100 player-turns reviewed at the default budget.

The game is played from a seeded random start (the setup included), turn by turn through the engine
so that its history is recorded, and cut after its 100th player-turn (a seed whose game lasts that
long). Its seats are played by four bots other than the review's rollout bot (classic, random,
cautious, hunter: games between them rarely last 100 player-turns without the random bot), as a recorded human game is not the rollout bot's: a turn the rollout bot would
have played itself costs nothing against its own turn and plays no rollouts of its own away from the turning points
(:func:`~analyzer.analysis.review.is_bots_own_turn`), and a game of the rollout bot's own turns would
flatter the review's speed (``--recorded-by default`` measures that case). This game has 19 such turns of 100.

``--baseline-tree DIR`` reviews the same game (saved as JSON) with another checkout's package in a
subprocess too (``bench_simulate.py``'s exported baseline revision, for example), with its wall clock
and CPU time, run before this tree's review under the same load. The review runs with the default rollouts
on ``--workers`` processes (2 by default, the machine's cores) and prints its time, then the same
review's figures: rollouts played and rollouts per second. A baseline run in the same process, the
positions' rollouts alone on one worker for the first 10 positions, gives the per-rollout cost the
review's time is made of. Prints figures; asserts nothing.

Prints the load average before and after, and the CPU time of the review's processes beside the wall
clock (the machine is shared).

``--face-down`` reviews the same game with the cards held at its end face down (:func:`face_down_at_the_end`),
as a game followed at the table by nobody has them: every rollout of a position that held them draws them afresh,
and none of those positions is the rollout bot's own turn.

    python bench/bench_review.py [--workers 2] [--rollouts 200] [--turns 100] [--recorded-by others|default]
                                 [--baseline-tree DIR] [--face-down]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from analyzer.analysis.review import ROLLOUT_BOT, ROLLOUTS, _values, replay_turn, review_game
from analyzer.analysis.search import play_setup
from analyzer.bots.registry import make_bot
from analyzer.game.state import GameState

#: The seats' bots of the recorded game: none of them the rollout bot.
RECORDED_BY = ("classic", "random", "cautious", "hunter")
#: The baseline's review, run in another tree: its wall clock and CPU seconds (with its workers').
_BASELINE = """
import resource, sys, time
from analyzer.analysis.review import review_game
from analyzer.game.state import GameState
game = GameState.from_json(open(sys.argv[1]).read())
review_game(GameState.from_json(open(sys.argv[2]).read()), rollouts=2, turning_points=1)
started, own = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
review_game(game, rollouts=int(sys.argv[3]), workers=int(sys.argv[4]), seed=0)
seconds = time.perf_counter() - started
after, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = after.ru_utime + after.ru_stime - own.ru_utime - own.ru_stime + children.ru_utime + children.ru_stime
print(seconds, cpu)
"""


def recorded_game(turns: int, seed: int = 0, recorded_by: str = "others", *, lasting: bool = True) -> GameState:
    """A 4-player game, recorded action by action, cut after ``turns`` player-turns: its seats played by
    :data:`RECORDED_BY` (``"others"``) or all by the rollout bot (``"default"``). With ``lasting`` it is the first
    of the seed's games still going after ``turns`` player-turns; without, the seed's first game, cut there or
    at its end (games picked for lasting are picked by their dice too)."""
    bots = [make_bot(name) for name in RECORDED_BY] if recorded_by == "others" else [ROLLOUT_BOT] * 4
    for attempt in range(50):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(attempt,)))
        state = play_setup(GameState.new(4, rng), rng)
        played = 0
        while not state.is_terminal() and played < turns:
            replay_turn(state, (), rng, bots[state.player])
            played += 1
        if not lasting or (played == turns and not state.is_terminal()):
            return state
    raise RuntimeError(f"no game of {turns} player-turns in 50 seeds")


def face_down_at_the_end(game: GameState) -> list[int]:
    """The cards held in hands at the end of ``game``: face down, as a game recorded at the table by nobody has them
    (a card traded was shown; one still held never was). The review then draws them afresh in every rollout of every
    position that held them, and no such position is the rollout bot's own turn."""
    return sorted(c for p in range(game.n_players) for c in game.hand(p))


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the review's worker processes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rollouts", type=int, default=ROLLOUTS)
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--recorded-by", choices=("others", "default"), default="others")
    parser.add_argument("--baseline-tree", type=Path, help="a checkout whose review is timed on the same game first")
    parser.add_argument(
        "--face-down",
        action="store_true",
        help="the cards held at the game's end face down, as in a game followed at the table by nobody",
    )
    args = parser.parse_args()
    load = os.getloadavg()
    started = time.perf_counter()
    game = recorded_game(args.turns, recorded_by=args.recorded_by)
    if args.face_down:
        game.face_down = face_down_at_the_end(game)
    print(
        f"built a recorded 4-player game of {args.turns} player-turns by {args.recorded_by} (round {game.round}, "
        f"{len(game.history)} actions{f', {len(game.face_down)} cards face down' if args.face_down else ''}) in "
        f"{time.perf_counter() - started:.1f} s"
    )
    review_game(recorded_game(1), rollouts=2, turning_points=1)  # warm every kernel the review runs
    started = time.perf_counter()
    text = game.to_json(history=False)
    for j in range(10):
        _values(text, None, None, None, 1, j, args.rollouts // 10, None)
    base = (time.perf_counter() - started) / (10 * (args.rollouts // 10))
    base_seconds = base_cpu = None
    if args.baseline_tree is not None:
        folder = Path(tempfile.mkdtemp())
        (folder / "game.json").write_text(game.to_json())
        (folder / "warm.json").write_text(recorded_game(1).to_json())
        tree = args.baseline_tree.resolve()
        out = subprocess.run(
            [
                sys.executable,
                "-c",
                _BASELINE,
                str(folder / "game.json"),
                str(folder / "warm.json"),
                str(args.rollouts),
                str(args.workers),
            ],
            cwd=tree,
            env={**os.environ, "PYTHONPATH": str(tree)},
            capture_output=True,
            text=True,
            check=True,
        )
        base_seconds, base_cpu = map(float, out.stdout.split()[-2:])
        print(
            f"baseline {tree}: the same review in {base_seconds:.1f} s wall clock, {base_cpu:.1f} s of CPU; "
            f"load average after: {os.getloadavg()[0]:.1f}"
        )
    started, cpu = time.perf_counter(), _cpu()
    review = review_game(game, rollouts=args.rollouts, workers=args.workers, seed=0)
    seconds, cpu = time.perf_counter() - started, _cpu() - cpu
    n = len(review.turns)
    own = int(review.turns["bots_own_turn"].sum())
    rollouts = review.played
    print(
        f"review of {n} player-turns, {args.rollouts} rollouts per estimate, {args.workers} workers: {seconds:.1f} s "
        f"wall clock, {cpu:.1f} s of CPU (this process and its workers; {cpu / args.workers:.1f} s per worker if "
        f"the machine were ours alone); load average before/after: {load[0]:.1f}/{os.getloadavg()[0]:.1f}"
    )
    print(
        f"  {own} of the {n} turns were the rollout bot's own (costing 0 against its own turn, with no rollouts of "
        "their own but at the turning points)"
    )
    dec = (review.turns["decisions_high"] - review.turns["decisions_low"]) / 2
    dice = review.turns["dice"]
    # The dice parts of different turns are independent draws of mean 0: their mean's interval says whether
    # they average 0 in this game.
    half = 1.959964 * dice.std(ddof=1) / np.sqrt(n)
    others = dec[~review.turns["bots_own_turn"]]
    print(
        f"  95% half-width of the decisions, mean over the turns: {100 * dec.mean():.2f} points ({100 * others.mean():.2f} "
        f"over the {len(others)} turns not the rollout bot's own); dice parts sum to "
        f"{100 * dice.sum():+.1f} over {n} turns, mean {100 * dice.mean():+.2f} [{100 * (dice.mean() - half):+.2f}, "
        f"{100 * (dice.mean() + half):+.2f}] points a turn"
    )
    print(
        f"  {rollouts:,} truncated rollouts ({rollouts / seconds:,.0f}/s); one whole-game rollout from the final position on one worker: "
        f"{1000 * base:.2f} ms, so {rollouts * base / seconds:.2f}x that many rollouts' serial time"
    )
    if base_cpu is not None and base_seconds is not None:
        print(
            f"  against the baseline's review of the same game: CPU {cpu / base_cpu:.2f}x, wall clock {seconds / base_seconds:.2f}x"
        )
    print(review.summary.to_string(index=False))


if __name__ == "__main__":
    main()
