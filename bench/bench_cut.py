"""The truncated rollouts' budget and the model's error where they stop, on tuning positions the benchmark does
not use. Prints figures; asserts nothing.

The positions: ``--per-cell`` of each population at 2, 3, 4 and 6 players, drawn as ``bench_value.py`` draws
its own, from games of other seeds (103: the training populations; 104: the tables the model never trained
on). Each is counted by 2,000 whole rollouts of the default bot (seed 7), the figure the views' chances
estimate; ``--reference FILE`` (``.npz``; by default ``results/bench/bench_cut_ref.npz``) keeps those counts, so a
later run plays only the positions it lacks.

* **Each budget** (``--budgets``, rollouts x rounds): the evaluator's truncated rollouts of each position on
  ``--seeds`` seeds, their mean absolute error per seat against the 2,000 rollouts (95% interval over the
  positions, each position's error its mean over the seeds) by players and in all, and their CPU milliseconds
  a position on this core (mean, and the slowest position's, by players); beside them, 200 whole rollouts of
  each position on another seed (``bench_value.py``'s), the figure the truncated rollouts should beat.
* **The model's error at the cut** of each budget, by players: the least ``e`` (a share of a seat's
  ``sqrt(p (1 - p))``, as :data:`~analyzer.analysis.evaluator.CUT_ERROR` holds it) whose 95% intervals,
  the rollouts' noise with ``e`` added, hold the 2,000-rollout figure for 95% of the seats over the positions
  and seeds; beside it, the share the noise alone holds. How ``CUT_ERROR`` is fitted.

    python bench/bench_cut.py [--per-cell 16] [--games 500] [--seeds 4] [--budgets 64x3,128x4] [--reference FILE]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the CPU times are one core's

import argparse  # noqa: E402
import hashlib  # noqa: E402
import time  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from bench_value import COUNTS, SHORT_SEED, held_out, pick, shares  # noqa: E402
from kept import keep, kept  # noqa: E402

from analyzer.analysis.evaluator import (  # noqa: E402
    CUT_ERROR,
    CUT_ROLLOUTS,
    CUT_ROUNDS,
    seat_chances,
    truncated_ends,
    valued,
)
from analyzer.game.state import GameState  # noqa: E402
from analyzer.sim.intervals import Z95, mean_interval, wilson_interval  # noqa: E402
from analyzer.value.model import shipped  # noqa: E402

#: Whole rollouts of the reference, and their seed (bench_value.py's).
REFERENCE_ROLLOUTS, REFERENCE_SEED = 2000, 7
#: The tuning games' seeds: not the benchmark's (101, 102) nor the training's.
SEEDS = (103, 104)
#: The committed counts of the tuning positions: a run plays only the positions it lacks.
REFERENCE = Path(__file__).resolve().parent.parent / "results" / "bench" / "bench_cut_ref.npz"


def reference(text: str) -> np.ndarray:
    """Each seat's share of the wins in the reference's whole rollouts of the position (JSON)."""
    return shares(GameState.from_json(text, trusted=True), REFERENCE_ROLLOUTS, REFERENCE_SEED)


def key(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def truncated(state: GameState, rollouts: int, rounds: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The evaluator's truncated chances of ``state`` on ``seed`` and the half-width of their 95% intervals of the
    rollouts' noise alone (no model error added)."""
    start, ends, luck = truncated_ends(state, rollouts, rounds, seed)
    p, low, high = seat_chances(valued(ends, start.C, start.board, shipped()), luck)
    return p, (high - low) / 2


def least_error(p: np.ndarray, noise: np.ndarray, ref: np.ndarray) -> tuple[float, float]:
    """The least share ``e`` (to 0.001) whose intervals hold ``ref`` for 95% of the seats, and the share the
    noise alone holds."""
    gap = np.abs(p - ref)
    share = np.clip(p, 0, 1) * (1 - np.clip(p, 0, 1))
    for e in np.arange(0, 0.3, 0.001):
        if np.mean(gap <= np.sqrt(noise**2 + (Z95 * e) ** 2 * share)) >= 0.95:
            return float(e), float(np.mean(gap <= noise))
    return float("nan"), float(np.mean(gap <= noise))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-cell", type=int, default=16)
    parser.add_argument("--games", type=int, default=500, help="tuning games of the training populations")
    parser.add_argument("--seeds", type=int, default=4, help="truncated rollouts' seeds a position")
    parser.add_argument("--budgets", default="64x3,128x3,128x4,256x4,256x5")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--reference", type=Path, default=REFERENCE, help="an .npz of the reference's counts, read and added to"
    )
    args = parser.parse_args()
    budgets = [tuple(int(x) for x in b.split("x")) for b in args.budgets.split(",")]
    picked = pick(held_out(args.games, SEEDS), args.per_cell, 5)
    texts = [text for *_, text in picked]
    stored = kept(args.reference)
    todo = [text for text in texts if key(text) not in stored]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        stored |= {key(text): counts for text, counts in zip(todo, pool.map(reference, todo))}
    if args.reference is not None and todo:
        keep(args.reference, stored)
    print(
        f"{len(picked)} tuning positions (games of seeds {SEEDS[0]} and {SEEDS[1]}), {args.per_cell} a population "
        f"and player count; {len(todo)} counted by {REFERENCE_ROLLOUTS:,} whole rollouts in "
        f"{time.perf_counter() - started:.0f} s on {args.workers} workers"
        + (f", {len(texts) - len(todo)} read from {args.reference}" if len(todo) < len(texts) else "")
    )
    print(
        f"the evaluator now: {CUT_ROLLOUTS} x {CUT_ROUNDS} rounds, CUT_ERROR "
        + ", ".join(f"{n}: {e}" for n, e in CUT_ERROR.items())
    )
    states = [GameState.from_json(text, trusted=True) for text in texts]
    # Seats still in the game only, as bench_value.py counts them: a seat out of it has no chance either way.
    alive = [np.asarray(s.alive[: s.n_players], dtype=bool) for s in states]
    refs = [stored[key(text)][a] for text, a in zip(texts, alive)]
    players = np.array([n for _, n, _, _ in picked])
    truncated(states[0], 8, 1, 0)  # the compiled playout warmed
    print(f"\nMean absolute error per seat against {REFERENCE_ROLLOUTS:,} rollouts, points (95% over the positions)")
    whole = [np.abs(shares(s, 200, SHORT_SEED)[a] - r).mean() for s, a, r in zip(states, alive, refs)]
    mean, low, high = mean_interval(100 * np.array(whole))
    by = "  ".join(f"{n}p {100 * np.mean(np.array(whole)[players == n]):4.2f}" for n in COUNTS)
    print(f"  200 whole rollouts: {mean:4.2f} [{low:4.2f}, {high:4.2f}]  ({by})")
    for rollouts, rounds in budgets:
        p, noise, seconds = [], [], np.zeros(len(states))
        for seed in range(args.seeds):
            for i, (s, a) in enumerate(zip(states, alive)):
                cpu = time.process_time()
                chances_i, noise_i = truncated(s, rollouts, rounds, seed)
                seconds[i] += (time.process_time() - cpu) / args.seeds
                p.append(chances_i[a])
                noise.append(noise_i[a])
        ms = 1000 * seconds
        n_pos = len(states)
        error = np.array(
            [np.mean([np.abs(p[k * n_pos + i] - refs[i]).mean() for k in range(args.seeds)]) for i in range(n_pos)]
        )
        by = "  ".join(f"{n}p {100 * error[players == n].mean():4.2f}" for n in COUNTS)
        mean, low, high = mean_interval(100 * error)
        print(f"  {rollouts:4d} x {rounds} rounds: {mean:4.2f} [{low:4.2f}, {high:4.2f}]  ({by})")
        print(
            "      ms CPU a position: "
            + ", ".join(f"{n}p {ms[players == n].mean():.1f} (max {ms[players == n].max():.1f})" for n in COUNTS)
        )
        fits = []
        for n in COUNTS:
            rows = [k * n_pos + i for k in range(args.seeds) for i in range(n_pos) if players[i] == n]
            e, alone = least_error(
                np.concatenate([p[r] for r in rows]),
                np.concatenate([noise[r] for r in rows]),
                np.concatenate([refs[r % n_pos] for r in rows]),
            )
            seats = sum(len(refs[r % n_pos]) for r in rows)
            a, b = wilson_interval(round(alone * seats), seats)
            fits.append(f"{n}p {e:.3f} (noise alone {100 * alone:.0f}% [{100 * a:.0f}, {100 * b:.0f}])")
        print("      least error for 95%: " + ", ".join(fits))


if __name__ == "__main__":
    main()
