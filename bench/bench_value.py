"""The win-chance model on held-out games, alone and at the end of truncated rollouts: against rollouts,
against outcomes, and its speed.

Held-out positions come from games of the training populations played with seed 101 and of tables
the model never trained on (:data:`analyzer.studies.value_training.UNSEEN`) with seed 102; the model
was trained on games of another seed, so no position here shares a game with its training.

* **Against rollouts**: for ``--per-cell`` positions of each population at 2, 3, 4 and 6 players (one
  position of each of as many games, drawn with ``--seed`` among every position the game kept), the
  model's chances against ``--rollouts`` rollouts of the default bot (the same thing measured): the mean
  absolute error per seat, in points, with a 95% interval over the positions; beside it, the mean absolute
  error of the evaluator's truncated rollouts (:data:`~analyzer.analysis.evaluator.CUT_ROLLOUTS` rollouts cut
  :data:`~analyzer.analysis.evaluator.CUT_ROUNDS` rounds on and valued there by the model, on other random
  numbers than the reference's) and of a 200-rollout estimate (200 whole rollouts on another seed, 8) against
  the same reference; and how many seats' truncated 95% intervals hold
  the reference, with a Wilson interval; and the same error with the rollouts cut 1, 2 and 3 rounds on
  (:data:`SHORTER`): how much of the model's error lies in the next rounds' play.
* **Against outcomes**: every held-out position's chances, by the model and by the truncated rollouts,
  against who won the default bot's play-on: a reliability table of each by decile of the predicted chance
  (observed rate with its 95% Wilson interval), and
  the Brier score of the model, the truncated rollouts and the 200-rollout estimate on the positions of the
  first part; and, since an estimate's Brier score exceeds the true chances' by its mean squared error in
  expectation, the truncated rollouts' and the 200 rollouts' mean squared error against the reference, paired
  over the positions (the outcomes' noise, which the Brier scores carry, left out).
* **Speed**: one position from Python, and positions a second in batches on one core (compiled columns,
  numpy's matrix products), and the truncated rollouts of one position, against 200 rollouts of one position
  in the same process.

Prints figures; asserts nothing. Writes ``results/value/reliability_trained.csv`` and ``reliability_unseen.csv`` (both methods)
and a plot of each.

    python bench/bench_value.py [--per-cell 16] [--games 1500] [--rollouts 2000] [--workers 2] [--seed 5]
"""

from __future__ import annotations

import os

# One core for the speed figures: numpy's matrix products would otherwise use every core.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import time  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from analyzer.analysis.evaluator import CUT_ROLLOUTS, CUT_ROUNDS, Chances, chances, rollout_winners  # noqa: E402
from analyzer.game.state import GameState  # noqa: E402
from analyzer.sim.intervals import mean_interval, wilson_interval, win_rate  # noqa: E402
from analyzer.studies.value_training import UNSEEN, play_positions  # noqa: E402
from analyzer.value.model import shipped  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "results" / "value"
COUNTS = (2, 3, 4, 6)


#: The truncated rollouts' seed: other random numbers than the reference's (seed 7).
CUT_SEED = 11
#: The 200-rollout estimate's seed: other random numbers than the reference's, which its first 200 rollouts
#: would share with it (flattering the estimate).
SHORT_SEED = 8
#: Rounds short of :data:`~analyzer.analysis.evaluator.CUT_ROUNDS` at which the same rollouts are also cut: how
#: much of the model's error the next rounds' play holds.
SHORTER = (1, 2, 3)


def shares(state: GameState, rollouts: int, seed: int) -> np.ndarray:
    """Each seat's share of the wins in ``rollouts`` whole rollouts of ``state`` by the default bot on ``seed``."""
    winners = rollout_winners(state, rollouts, seed)
    return np.stack([winners == p for p in range(state.n_players)]).mean(axis=1)


def _rollouts(args: tuple[str, int, int]) -> tuple[np.ndarray, np.ndarray, Chances, list[np.ndarray]]:
    """Each seat's share of the rollouts' wins, and of 200 others' (seed :data:`SHORT_SEED`); its truncated
    chances; and its chances by as many rollouts cut each of :data:`SHORTER` rounds on."""
    text, rollouts, seed = args
    state = GameState.from_json(text, trusted=True)
    shorter = [chances(state, "truncated", rounds=k, seed=CUT_SEED).p for k in SHORTER]
    return (
        shares(state, rollouts, seed),
        shares(state, 200, SHORT_SEED),
        chances(state, "truncated", seed=CUT_SEED),
        shorter,
    )


def _interval(x: np.ndarray) -> str:
    mean, low, high = mean_interval(x)
    return f"{mean:5.2f} [{low:5.2f}, {high:5.2f}]"


def _cut(text: str) -> np.ndarray:
    """The evaluator's truncated chances of one position."""
    return chances(GameState.from_json(text, trusted=True), "truncated", seed=CUT_SEED).p


def reliability(name: str, method: str, p: np.ndarray, y: np.ndarray, positions: int) -> pd.DataFrame:
    """Print and return the reliability table of chances ``p`` against outcomes ``y``, by decile of ``p``."""
    edges = np.quantile(p, np.linspace(0, 1, 11))
    decile = np.clip(np.searchsorted(edges, p, side="right") - 1, 0, 9)
    print(
        f"Reliability of the {method}, {name} tables: {positions} positions, {len(p)} seats; Brier {np.mean((p - y) ** 2):.4f}"
    )
    print(f"{'decile':>6} {'seats':>6} {'predicted':>9} {'observed [95%]':<24} {'gap':>6}")
    cells = []
    for d in range(10):
        mask = decile == d
        rate = win_rate(int(y[mask].sum()), int(mask.sum()))
        gap = 100 * (rate["win_rate"] - p[mask].mean())
        cells.append(
            {
                "tables": name,
                "method": method,
                "decile": d + 1,
                "seats": int(mask.sum()),
                "predicted": p[mask].mean(),
                "observed": rate["win_rate"],
                "ci_low": rate["ci_low"],
                "ci_high": rate["ci_high"],
            }
        )
        print(
            f"{d + 1:>6} {int(mask.sum()):>6} {100 * p[mask].mean():8.1f}% "
            f"{100 * rate['win_rate']:5.1f}% [{100 * rate['ci_low']:4.1f}, {100 * rate['ci_high']:4.1f}]{'':<6} {gap:+6.1f}"
        )
    print()
    return pd.DataFrame(cells)


def held_out(games: int, seeds: tuple[int, int] = (101, 102)) -> dict[str, object]:
    """``games`` games of the training populations on the first seed, a fifth as many of the unseen tables on the
    second, every position each kept."""
    trained = play_positions(range(games), seeds[0], keep_states=True)
    unseen = play_positions(range(games // 5), seeds[1], populations=UNSEEN, keep_states=True)
    return {"trained": trained, "unseen": unseen}


def pick(sets: dict[str, object], per_cell: int, seed: int) -> list[tuple[str, int, np.ndarray, str]]:
    """``per_cell`` positions of each population at each player count: one position of each of as many games,
    drawn with ``seed`` among all those the game kept (a game's first was from its opening rounds, 1 to 3, two
    times in three, where the chances are hardest to read), as (population, players, each seat's outcome, the
    position's JSON)."""
    picked = []
    draw = np.random.default_rng(seed)
    for data in sets.values():
        names = data.populations
        first = np.r_[True, data.position[1:] != data.position[:-1]]
        rows = np.flatnonzero(first)
        for pop_index, population in enumerate(names):
            for n in COUNTS:
                taken, games = 0, set()
                for r in rows:
                    if data.population[r] != pop_index or data.players[r] != n or data.game[r] in games:
                        continue
                    games.add(int(data.game[r]))
                    kept = np.unique(data.position[rows[data.game[rows] == data.game[r]]])
                    pos = int(draw.choice(kept))
                    mine = data.position == pos
                    outcome = np.zeros(n)
                    outcome[data.seat[mine]] = data.won[mine]
                    picked.append((population, n, outcome, data.states[pos]))
                    taken += 1
                    if taken == per_cell:
                        break
    return picked


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--per-cell", type=int, default=16)
    parser.add_argument("--rollouts", type=int, default=2000)
    parser.add_argument("--games", type=int, default=1500, help="held-out games of the training populations")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=5, help="the draw of each game's position")
    args = parser.parse_args()
    model = shipped()
    card = model.card
    print(
        f"model: {card.get('games')} training games (seed {card.get('seed')}), {card.get('positions')} positions; "
        f"held-out games: seed 101 ({args.games}, training populations), seed 102 ({args.games // 5}, unseen tables)"
    )
    started = time.perf_counter()
    sets = held_out(args.games)
    print(f"held-out positions played in {time.perf_counter() - started:.0f} s")

    # ---------------------------------------------------------------- against rollouts
    picked = pick(sets, args.per_cell, args.seed)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        counted = list(pool.map(_rollouts, [(text, args.rollouts, 7) for _, _, _, text in picked]))
    print(
        f"{len(picked)} positions x {args.rollouts} rollouts of the default bot in {time.perf_counter() - started:.0f} s "
        f"on {args.workers} workers\n"
    )
    rows_out = []
    for (population, n, _, text), (reference, short, truncated, shorter) in zip(picked, counted):
        state = GameState.from_json(text, trusted=True)
        p = chances(state).p
        cut = truncated.p
        alive = p > 0
        held = (truncated.low <= reference) & (reference <= truncated.high)
        rows_out.append(
            {
                "population": population,
                "players": n,
                "model_mae": 100 * np.abs(p - reference)[alive].mean(),
                **{f"cut{k}_mae": 100 * np.abs(q - reference)[alive].mean() for k, q in zip(SHORTER, shorter)},
                "cut_mae": 100 * np.abs(cut - reference)[alive].mean(),
                "r200_mae": 100 * np.abs(short - reference)[alive].mean(),
                "cut_squared": np.mean(((cut - reference) ** 2)[alive]),
                "r200_squared": np.mean(((short - reference) ** 2)[alive]),
                "reference_sd": 100 * np.sqrt(reference * (1 - reference) / args.rollouts)[alive].mean(),
                "held": int(held[alive].sum()),
                "seats": int(alive.sum()),
                "half_width": 100 * ((truncated.high - truncated.low) / 2)[alive].mean(),
            }
        )
    table = pd.DataFrame(rows_out)
    print("Mean absolute error per seat against the rollouts, in points, 95% interval over the positions")
    cut_name = f"{CUT_ROLLOUTS} x {CUT_ROUNDS} rounds + model"
    print(
        f"{'population':<12} {'players':>7} {'positions':>9}  {'model':<22} {cut_name:<22} {'200 rollouts':<22} "
        f"{'reference sd':>12}"
    )

    def line(population: object, n: object, cell: pd.DataFrame) -> None:
        print(
            f"{population!s:<12} {n!s:>7} {len(cell):>9}  {_interval(cell['model_mae'].to_numpy()):<22} "
            f"{_interval(cell['cut_mae'].to_numpy()):<22} {_interval(cell['r200_mae'].to_numpy()):<22} "
            f"{cell['reference_sd'].mean():12.2f}"
        )

    for (population, n), cell in table.groupby(["population", "players"], sort=False):
        line(population, n, cell)
    for n, cell in table.groupby("players"):
        line("all", n, cell)
    line("all", "all", table)
    print()
    print(f"The {cut_name} figures' 95% intervals against the rollouts: seats whose interval holds them")
    for n, cell in [*table.groupby("players"), ("all", table)]:
        seats, held = int(cell["seats"].sum()), int(cell["held"].sum())
        low, high = wilson_interval(held, seats)
        print(
            f"  {n!s:>3} players: {held} of {seats} seats, {100 * held / seats:.1f}% [{100 * low:.1f}, {100 * high:.1f}]; "
            f"mean half-width {cell['half_width'].mean():.2f} points"
        )
    print()
    print(
        f"The same error when the rollouts play fewer rounds before the model reads the position ({CUT_ROLLOUTS} "
        f"rollouts each, seed {CUT_SEED}; {CUT_ROUNDS} rounds is the evaluator's), in points, 95% interval over the positions"
    )
    heads = ["model", *(f"{k} round{'s' if k > 1 else ''}" for k in SHORTER), f"{CUT_ROUNDS} rounds"]
    print(f"{'players':>7} {'positions':>9}  " + " ".join(f"{h:<22}" for h in heads))
    columns = ["model_mae", *(f"cut{k}_mae" for k in SHORTER), "cut_mae"]
    for n, cell in [*table.groupby("players"), ("all", table)]:
        print(f"{n!s:>7} {len(cell):>9}  " + " ".join(f"{_interval(cell[c].to_numpy()):<22}" for c in columns))
    print()

    # ---------------------------------------------------------------- against outcomes
    started = time.perf_counter()
    cut_by_set = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for name, data in sets.items():
            cut_by_set[name] = list(pool.map(_cut, data.states, chunksize=32))
    print(f"truncated rollouts of every held-out position in {time.perf_counter() - started:.0f} s\n")
    for name, data in sets.items():
        y = data.won.astype(float)
        cut = np.array([cut_by_set[name][pos][seat] for pos, seat in zip(data.position, data.seat)])
        frames = [
            reliability(name, "model", model.predict_rows(data.rows, data.position), y, data.n_positions),
            reliability(name, cut_name, cut, y, data.n_positions),
        ]
        OUT.mkdir(parents=True, exist_ok=True)
        frame = pd.concat(frames)
        frame.to_csv(OUT / f"reliability_{name}.csv", index=False)
        fig = Figure(figsize=(4, 4))
        ax = fig.add_subplot()
        ax.plot([0, 1], [0, 1], color="#999999", lw=0.8)
        for method, cells in frame.groupby("method", sort=False):
            ax.errorbar(
                cells["predicted"],
                cells["observed"],
                yerr=[cells["observed"] - cells["ci_low"], cells["ci_high"] - cells["observed"]],
                fmt="o",
                ms=3,
                label=str(method),
            )
        ax.legend(fontsize=7, frameon=False)
        ax.set_xlabel("predicted win chance")
        ax.set_ylabel("observed win rate")
        ax.set_title(f"Held-out {name} tables, by decile", fontsize=9)
        fig.tight_layout()
        fig.savefig(OUT / f"reliability_{name}.png", dpi=110)

    # Brier on the positions counted above: each position's outcome is its own play-on's winner.
    brier_model, brier_cut, brier_200 = [], [], []
    for (_, _, outcome, text), (_, short, truncated, _) in zip(picked, counted):
        cut = truncated.p
        p = chances(GameState.from_json(text, trusted=True)).p
        alive = p > 0
        brier_model.extend(((p - outcome) ** 2)[alive])
        brier_cut.extend(((cut - outcome) ** 2)[alive])
        brier_200.extend(((short - outcome) ** 2)[alive])
    bm, bc, b2 = np.array(brier_model), np.array(brier_cut), np.array(brier_200)
    print(f"Brier score against outcomes on the {len(picked)} positions counted above ({len(bm)} seats):")
    print(f"  model {bm.mean():.4f}, {cut_name} {bc.mean():.4f}, 200 rollouts {b2.mean():.4f}")
    for name, other in (("model", bm), (cut_name, bc)):
        mean, low, high = mean_interval(b2 - other)
        print(f"  200 rollouts minus {name}: {mean:+.4f} [{low:+.4f}, {high:+.4f}]")
    # In expectation an estimate's Brier score is the true chances' own plus its mean squared error about them:
    # measured against the 2,000 rollouts (whose noise adds the same to every estimate), without the outcomes'
    # noise, which the Brier scores above carry.
    sq_cut, sq_200 = table["cut_squared"].to_numpy(), table["r200_squared"].to_numpy()
    mean, low, high = mean_interval(sq_200 - sq_cut)
    print(
        f"  mean squared error against the {args.rollouts:,} rollouts, the part of the Brier score by which an estimate "
        f"exceeds the true chances': {cut_name} {sq_cut.mean():.6f}, 200 rollouts {sq_200.mean():.6f}; "
        f"200 rollouts minus {cut_name}: {mean:+.6f} [{low:+.6f}, {high:+.6f}] (paired over the positions)"
    )
    print()

    # ---------------------------------------------------------------- speed
    rng = np.random.default_rng(5)
    states = [GameState.from_json(text, trusted=True) for _, n, _, text in picked if n == 4][:8]
    states = states or [GameState.random_start(4, rng)]
    one = states[0]
    started = time.perf_counter()
    rollouts_200 = rollout_winners(one, 200, 3)
    baseline = time.perf_counter() - started
    del rollouts_200
    calls = 2000
    started = time.perf_counter()
    for i in range(calls):
        chances(states[i % len(states)])
    single = (time.perf_counter() - started) / calls
    batch = np.stack([states[i % len(states)].S for i in range(100_000)])
    model.batch(batch, one.C, one.board)  # the first call of a size allocates and warms the matrix products
    started = time.perf_counter()
    model.batch(batch, one.C, one.board)
    batched = time.perf_counter() - started
    chances(one, "truncated", seed=CUT_SEED)  # the compiled rollouts warmed
    started = time.perf_counter()
    for state in states:
        chances(state, "truncated", seed=CUT_SEED)
    cut_time = (time.perf_counter() - started) / len(states)
    # Every position counted above, one at a time, by its player count: the time a view waits for its figures.
    each: dict[int, list[float]] = {n: [] for n in COUNTS}
    for _, n, _, text in picked:
        state = GameState.from_json(text, trusted=True)
        started = time.perf_counter()
        chances(state, "truncated", seed=CUT_SEED)
        each[n].append(time.perf_counter() - started)
    print("Speed, one core (4-player positions):")
    print(f"  baseline: 200 rollouts of one position        {1000 * baseline:9.1f} ms")
    print(
        f"  one position from Python (evaluator.chances)  {1000 * single:9.3f} ms  ({baseline / single:,.0f}x faster)"
    )
    print(f"  batched, 100,000 positions                    {len(batch) / batched:9,.0f} positions/s")
    print(f"  {cut_name + ', one position':<44}  {1000 * cut_time:9.1f} ms  ({baseline / cut_time:,.1f}x faster)")
    print(f"  {cut_name}, each position counted above, in ms:")
    for n, times in each.items():
        ms = 1000 * np.array(times)
        print(
            f"    {n} players, {len(ms):3d} positions: mean {ms.mean():5.1f}, median {np.median(ms):5.1f}, "
            f"90th percentile {np.percentile(ms, 90):5.1f}, max {ms.max():5.1f}"
        )


if __name__ == "__main__":
    main()
