"""How often the review's intervals hold the decisions' and the dice's true effect, on three recorded games.

The review (:func:`~analyzer.analysis.review.review_game`, default budget, seed 0) values a turn's
decisions by the turn replayed against the best plan, and each battle's dice by the position it left
against the battle fought afresh, each side played on by the default bot for
:data:`~analyzer.analysis.review.REVIEW_ROUNDS` rounds and valued there by the learned model, paired on the
same random numbers. The reference plays the same sides on other random numbers (seed 1), every rollout on
to the game's end, and counts the mover's wins: the effect in win chance under the default bot, with no
model in it. Turns whose figure is exactly 0 (the rollout bot's own turns for the decisions, turns with no
battle for the dice) are left out.

Prints, for the decisions and for the dice, over the turns compared:

* the share of the review's 95% intervals that hold the reference's figure (the reference has noise of its
  own, which makes a share somewhat under 95% from a true cover of 95%), and the share that hold it once
  widened by that noise;
* for the decisions, the same share for the intervals of the review's noise alone (without the model's error
  it adds, :data:`~analyzer.analysis.review.DECISION_ERROR` and a share of the cost);
* the mean difference, review less reference (the review's bias), with its 95% interval, the mean absolute
  difference, the correlation and the intervals' mean half-width;
* for the decisions, the model's error that this game's figures fit: the standard deviation ``e`` that makes
  the review less the reference most likely, as normal with variance the review's noise squared (from its
  interval of the noise alone) plus the reference's plus ``e`` squared, and the least such constant that holds
  it for 95% of the turns;
* the error and the share of the cost (:data:`~analyzer.analysis.review.DECISION_ERROR` and
  :data:`~analyzer.analysis.review.DECISION_ERROR_SHARE`) with the narrowest intervals that hold it for 95% of
  the turns: how the two are fitted.

Where an error is fitted, an interval is counted as holding the true figure when, widened by the reference's
noise (in quadrature), it holds the reference's: counted without, the reference's noise would be taken for the
model's error, and more of it the narrower the review's noise.

Prints figures; asserts nothing.

    python bench/bench_review_cover.py [--game-seed 0 1 2] [--rollouts 8000 4000 4000] [--fit 0 1]
                                       [--dice-rollouts 1000] [--workers 2] [--turns 100] [--reference FILE]

Each game is reported in turn (``--rollouts``: one count for all, or one for each game), then the error and
share with the narrowest intervals that hold 95% of the turns of the games of ``--fit`` together (how
:data:`~analyzer.analysis.review.DECISION_ERROR` and its share were fitted; game seed 2 is held out), and how
many of each game's turns they hold.

With ``--reference FILE`` (``.npz``; by default ``results/bench/bench_review_cover_ref{game seed}.npz``) the
reference's sides are read from the file where it has them, and the sides it lacks are played and added to it:
the reference does not depend on the review, so reviews at other settings are compared with the same reference
without playing it again.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from bench_review import recorded_game
from kept import keep, kept

from analyzer.analysis.review import (
    DECISION_ERROR,
    DECISION_ERROR_SHARE,
    ROLLOUTS,
    _values,
    decision_error,
    player_turns,
    review_game,
)
from analyzer.sim.backends import local_pool
from analyzer.sim.intervals import Z95, mean_interval, wilson_interval

#: The reference's random numbers: not the review's (seed 0).
REFERENCE_SEED = 1
#: Where the reference's sides of game seed ``{}`` are kept between runs: the committed ones, so that a run at the
#: defaults (``make bench``'s) plays only what they lack instead of 8,000 whole rollouts a side of every turn.
REFERENCES = str(Path(__file__).resolve().parent.parent / "results" / "bench" / "bench_review_cover_ref{}.npz")


def reference(args: tuple) -> tuple[tuple[int, str], np.ndarray]:
    """One side ``side`` of turn ``j``: the mover's wins (0 or 1) in each whole rollout."""
    j, side, text, decisions, outcomes, plan, player, rollouts = args
    return (j, side), _values(text, decisions, outcomes, plan, REFERENCE_SEED, j, rollouts, None)[:, player]


def held(k: int, n: int) -> str:
    a, b = wilson_interval(k, n)
    return f"{k} of {n}, {100 * k / n:.1f}% [{100 * a:.1f}, {100 * b:.1f}]"


def report(
    what: str, shown: np.ndarray, low: np.ndarray, high: np.ndarray, ref: np.ndarray, ref_se: np.ndarray
) -> None:
    """The cover, bias and spread of the review's figures ``shown`` [``low``, ``high``] against ``ref``."""
    n = len(shown)
    gap = shown - ref
    bias, bias_low, bias_high = (float(x[0]) for x in mean_interval(gap[:, None]))
    print(f"{what}: {n} turns; the reference's standard error, mean over the turns: {100 * ref_se.mean():.2f} points")
    print(f"  the review's 95% intervals hold the reference: {held(int(np.sum((low <= ref) & (ref <= high))), n)}")
    print(
        f"  the same, widened by the reference's own noise (1.96 standard errors, in quadrature): "
        f"{held(int(np.sum(holds_truth(gap, (high - low) / 2, ref_se))), n)}"
    )
    print(
        f"  review less reference: mean {100 * bias:+.2f} [{100 * bias_low:+.2f}, {100 * bias_high:+.2f}] points, "
        f"mean absolute {100 * np.abs(gap).mean():.2f}; correlation {np.corrcoef(shown, ref)[0, 1]:.2f}; "
        f"the review's half-width, mean {100 * (high - low).mean() / 2:.2f} points"
    )


def fitted_error(gap: np.ndarray, noise_se: np.ndarray, ref_se: np.ndarray) -> float:
    """The standard deviation ``e`` that maximises the likelihood of ``gap`` as independent normal draws of
    variance ``noise_se**2 + ref_se**2 + e**2`` (a grid search to 0.0001 of a win chance).

    >>> rng = np.random.default_rng(0)
    >>> se = np.full(4000, 0.02)
    >>> round(fitted_error(rng.normal(0, np.hypot(se, 0.03)), se, se * 0), 3)
    0.03
    """
    # A turn whose two sides were the same games in every rollout of both (no noise at all) says nothing of it.
    told = (noise_se > 0) | (ref_se > 0)
    gap, noise_se, ref_se = gap[told], noise_se[told], ref_se[told]
    grid = np.arange(0, 0.1, 0.0001)
    var = noise_se[None, :] ** 2 + ref_se[None, :] ** 2 + grid[:, None] ** 2
    loglik = -0.5 * (np.log(var) + gap[None, :] ** 2 / var).sum(axis=1)
    return float(grid[int(np.argmax(loglik))])


def holds_truth(gap: np.ndarray, half: np.ndarray, ref_se: np.ndarray) -> np.ndarray:
    """Whether each interval of half-width ``half`` holds the true figure, counted against a reference ``gap`` away
    with standard errors ``ref_se`` of its own: the reference's noise moves it out of intervals that hold the true
    figure, so an interval counts as holding it when, widened by that noise in quadrature, it holds the reference
    (a true cover of 95% then shows as 95%)."""
    return np.abs(gap) <= np.hypot(half, Z95 * ref_se)


def half_widths(noise: np.ndarray, shown: np.ndarray, error: float, share: float) -> np.ndarray:
    """The 95% half-widths of intervals of noise alone ``noise`` (half-widths) widened by a model's error of
    ``error`` and ``share`` of the figures ``shown``, in quadrature, as the review widens them."""
    return Z95 * np.sqrt((noise / Z95) ** 2 + error**2 + (share * shown) ** 2)


def narrowest(
    gap: np.ndarray, shown: np.ndarray, noise: np.ndarray, ref_se: np.ndarray | None = None
) -> tuple[float, float, float]:
    """The error ``e`` and share ``k`` (grids of 0.001 and 0.01) whose 95% intervals, half-width
    ``Z95 * hypot(noise / Z95, e, k * shown)``, hold the true figure for 95% of the turns with the least mean
    half-width; with that half-width (NaN where none do). ``gap`` is the figures less a reference with standard
    errors ``ref_se`` of its own: an interval holds the true figure as often as, widened by the reference's noise
    in quadrature, it holds the reference, so that noise is not taken for the model's error.

    >>> rng = np.random.default_rng(0)
    >>> shown = rng.uniform(-0.3, 0.3, 4000)
    >>> e, k, _ = narrowest(rng.normal(0, 0.1 * np.abs(shown)), shown, np.zeros(4000))
    >>> bool(e < 0.01), round(k, 1)
    (True, 0.1)
    >>> e, k, _ = narrowest(rng.normal(0, np.hypot(0.1 * shown, 0.01)), shown, np.zeros(4000), np.full(4000, 0.01))
    >>> bool(e < 0.003), round(k, 1)
    (True, 0.1)
    """
    ref = np.zeros_like(gap) if ref_se is None else ref_se
    best = (np.inf, np.nan, np.nan)
    for e in np.arange(0, 0.03, 0.001):
        for k in np.arange(0, 0.5, 0.01):
            half = half_widths(noise, shown, e, k)
            if np.mean(holds_truth(gap, half, ref)) >= 0.95:
                best = min(best, (float(half.mean()), float(e), float(k)))
    return best[1], best[2], best[0]


def paired(wins: dict[tuple[int, str], np.ndarray], j: int, pairs: list[tuple[str, str]]) -> tuple[float, float]:
    """The mean and standard error over the rollouts of the sum over ``pairs`` of (first side less second)."""
    diff = sum((wins[(j, a)] - wins[(j, b)] for a, b in pairs), np.zeros(len(wins[(j, pairs[0][0])])))
    mean, low, high = mean_interval(diff)
    return float(mean), float(high - low) / (2 * Z95)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--rollouts",
        type=int,
        nargs="+",
        default=[8000, 4000, 4000],
        help="whole rollouts a side of each decision, by game",
    )
    parser.add_argument("--dice-rollouts", type=int, default=1000, help="whole rollouts a side of each battle")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument(
        "--game-seed", type=int, nargs="+", default=[0, 1, 2], help="the recorded games' seeds (bench_review.py's: 0)"
    )
    parser.add_argument(
        "--fit", type=int, nargs="+", default=[0, 1], help="the games whose turns together fit the model's error"
    )
    parser.add_argument("--reference", type=Path, help="an .npz of the reference's sides, read and added to")
    parser.add_argument("--review-rollouts", type=int, default=ROLLOUTS, help="the review's budget")
    args = parser.parse_args()
    if args.reference is not None and len(args.game_seed) > 1:
        parser.error("--reference names one game's file: give one --game-seed with it")
    rollouts = args.rollouts * len(args.game_seed) if len(args.rollouts) == 1 else args.rollouts
    if len(rollouts) != len(args.game_seed):
        parser.error("--rollouts takes one count, or one for each --game-seed")
    games = []
    for seed, count in zip(args.game_seed, rollouts):
        if len(args.game_seed) > 1:
            print(f"# game seed {seed}")
        reference = args.reference or Path(REFERENCES.format(seed))
        games.append(cover(seed, count, reference, args))
    fitted = [game for seed, game in zip(args.game_seed, games) if seed in args.fit]
    if len(games) > 1 and fitted:
        gap, shown, noise, gap_se = (np.concatenate(x) for x in zip(*fitted))
        error, share, width = narrowest(gap, shown, noise, gap_se)
        print(
            f"# games {', '.join(str(s) for s in args.game_seed if s in args.fit)} together ({len(gap)} turns): the "
            f"error and share of the cost with the narrowest intervals that, widened by the reference's noise, hold it "
            f"for 95% of their turns (DECISION_ERROR, DECISION_ERROR_SHARE: {100 * DECISION_ERROR:.1f} points, "
            f"{DECISION_ERROR_SHARE:.2f}): {100 * error:.1f} points, {share:.2f}; half-width, mean "
            f"{100 * width:.2f} points"
        )
        for seed, (g, s, n, se) in zip(args.game_seed, games):
            half = half_widths(n, s, error, share)
            print(
                f"  game seed {seed}: widened by the reference's noise, they hold "
                f"{held(int(np.sum(holds_truth(g, half, se))), len(g))}; half-width, mean "
                f"{100 * half.mean():.2f} points"
            )


def cover(seed: int, rollouts: int, path: Path, args: argparse.Namespace) -> tuple[np.ndarray, ...]:
    """Review game ``seed``, compare it with the reference (``rollouts`` whole rollouts a side of each decision,
    kept in ``path``) and print the report; the decisions' figures less the reference's, the figures, and the
    half-widths of their noise alone, for a fit over several games."""
    game = recorded_game(args.turns, seed=seed)
    started = time.perf_counter()
    review = review_game(game, rollouts=args.review_rollouts, workers=args.workers, seed=0)
    print(
        f"review of {len(review.turns)} player-turns of game seed {seed} at {args.review_rollouts} "
        f"rollouts: {time.perf_counter() - started:.1f} s"
    )
    turns = player_turns(game)
    table = review.turns
    decided = table.index[~table["bots_own_turn"]].tolist()
    fought = [j for j in table.index if turns[j].battles]
    jobs = []
    for j in decided:
        t, best = turns[j], str(table.loc[j, "best_plan"])
        text = t.before.to_json(history=False)
        jobs.append((j, "replay", text, t.decisions, t.outcomes, None, t.player, rollouts))
        # The rollout bot's own turn is the plan "default", played with no decisions given.
        jobs.append((j, f"plan {best}", text, None, None, None if best == "default" else best, t.player, rollouts))
    for j in fought:
        t = turns[j]
        for side, start, orders in t.battle_sides():
            jobs.append((j, side, start.to_json(history=False), orders, None, None, t.player, args.dice_rollouts))

    def name(job: tuple) -> str:
        return f"{seed}|{job[0]}|{job[1]}|{job[-1]}"  # game, turn, side, rollouts

    stored = kept(path)
    todo = [job for job in jobs if name(job) not in stored]
    started = time.perf_counter()
    with local_pool(args.workers) as pool:
        wins = dict(pool.map(reference, todo))
    print(
        f"reference: seed {REFERENCE_SEED}, {rollouts:,} whole rollouts a side of each turn's decisions and "
        f"{args.dice_rollouts:,} of each battle, {len(todo)} sides in {time.perf_counter() - started:.0f} s on "
        f"{args.workers} workers" + (f" ({len(jobs) - len(todo)} more read from {path})" if stored else "")
    )
    if todo:
        stored |= {name(job): wins[job[:2]] for job in todo}
        keep(path, stored)
    wins |= {job[:2]: stored[name(job)] for job in jobs if job[:2] not in wins}
    ref, ref_se = np.array([paired(wins, j, [("replay", f"plan {table.loc[j, 'best_plan']}")]) for j in decided]).T
    shown = table.loc[decided, "decisions"].to_numpy()
    low, high = (table.loc[decided, f"decisions_{end}"].to_numpy() for end in ("low", "high"))
    report("decisions", shown, low, high, ref, ref_se)
    # The review's own noise: its interval less the model's error it adds.
    noise = np.sqrt(np.maximum(((high - low) / 2) ** 2 - (Z95 * decision_error(shown)) ** 2, 0.0))
    print(
        f"  the intervals of the review's noise alone (no model's error) hold it: "
        f"{held(int(np.sum(np.abs(shown - ref) <= noise)), len(decided))}; their half-width, mean "
        f"{100 * noise.mean():.2f} points"
    )
    error = fitted_error(shown - ref, noise / Z95, ref_se)
    half = half_widths(noise, shown, error, 0.0)
    print(
        f"  the constant model's error these turns fit: {100 * error:.2f} points; "
        f"with it the intervals, widened by the reference's noise, hold the reference for "
        f"{held(int(holds_truth(shown - ref, half, ref_se).sum()), len(decided))}, half-width, mean "
        f"{100 * half.mean():.2f} points"
    )
    grid = np.arange(0, 0.1, 0.0005)
    covers = [np.mean(holds_truth(shown - ref, half_widths(noise, shown, e, 0.0), ref_se)) for e in grid]
    least = float(grid[np.argmax(np.array(covers) >= 0.95)]) if max(covers) >= 0.95 else float("nan")
    print(
        f"  the least constant error whose intervals, widened by the reference's noise, hold it for 95% of the turns: "
        f"{100 * least:.2f} points, half-width, mean {100 * half_widths(noise, shown, least, 0.0).mean():.2f} points"
    )
    error, share, width = narrowest(shown - ref, shown, noise, ref_se)
    print(
        f"  the error and share of the cost (DECISION_ERROR, DECISION_ERROR_SHARE: {100 * DECISION_ERROR:.1f} points, "
        f"{DECISION_ERROR_SHARE:.2f}) with the narrowest intervals that, widened by the reference's noise, hold it for 95% "
        f"of the turns: "
        f"{100 * error:.1f} points, {share:.2f}; half-width, mean {100 * width:.2f} points"
    )
    searched = [i for i, j in enumerate(decided) if table.loc[j, "best_plan"] != "default"]
    print(
        f"  turns whose best plan was a searched one: {len(searched)}, held: "
        f"{int(np.sum((low[searched] <= ref[searched]) & (ref[searched] <= high[searched])))}"
    )
    gap, gap_se = shown - ref, ref_se
    ref, ref_se = np.array(
        [paired(wins, j, [(f"{k} as it fell", f"{k} afresh") for k in range(len(turns[j].battles))]) for j in fought]
    ).T
    low, high = (table.loc[fought, f"dice_{end}"].to_numpy() for end in ("low", "high"))
    report("dice", table.loc[fought, "dice"].to_numpy(), low, high, ref, ref_se)
    return gap, shown, noise, gap_se


if __name__ == "__main__":
    main()
