"""The win-chance model on held-out games: against rollouts, against outcomes, and its speed.

Held-out positions come from games of the training populations played with seed 101 and of tables
the model never trained on (:data:`analyzer.studies.value_training.UNSEEN`) with seed 102; the model
was trained on games of another seed, so no position here shares a game with its training.

* **Against rollouts**: for ``--per-cell`` positions of each population at 2, 3, 4 and 6 players (one
  position of each of as many games, drawn with ``--seed`` among every position the game kept), the
  model's chances against ``--rollouts`` rollouts of the default bot (the same thing measured): the mean
  absolute error per seat, in points, with a 95% interval over the positions; beside it, the mean absolute
  error of a 200-rollout estimate (the first 200 of the same rollouts) against the same reference.
* **Against outcomes**: every held-out position's chances against who won the default bot's play-on: a
  reliability table by decile of the predicted chance (observed rate with its 95% Wilson interval), and
  the Brier score of the model and of the 200-rollout estimate on the positions of the first part.
* **Speed**: one position from Python, and positions a second in batches on one core (compiled columns,
  numpy's matrix products), against 200 rollouts of one position in the same process.

Prints figures; asserts nothing. Writes ``results/value/reliability.csv`` and ``reliability.png``.

    python bench/bench_value.py [--per-cell 6] [--rollouts 2000] [--workers 2] [--seed 5]
"""

from __future__ import annotations

import os

# One core for the speed figures: numpy's matrix products would otherwise use every core.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import math  # noqa: E402
import time  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from analyzer.analysis.evaluator import chances, rollout_winners  # noqa: E402
from analyzer.game.state import GameState  # noqa: E402
from analyzer.sim.intervals import win_rate  # noqa: E402
from analyzer.studies.value_training import UNSEEN, play_positions  # noqa: E402
from analyzer.value.model import shipped  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "results" / "value"
COUNTS = (2, 3, 4, 6)
Z = 1.959963984540054


def _rollouts(args: tuple[str, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Each seat's share of the rollouts' wins, and of the first 200's."""
    text, rollouts, seed = args
    state = GameState.from_json(text, trusted=True)
    winners = rollout_winners(state, rollouts, seed)
    return np.stack([winners == p for p in range(state.n_players)]).mean(axis=1), np.stack(
        [winners[:200] == p for p in range(state.n_players)]
    ).mean(axis=1)


def _interval(x: np.ndarray) -> str:
    half = Z * x.std(ddof=1) / math.sqrt(len(x)) if len(x) > 1 else float("nan")
    return f"{x.mean():5.2f} [{x.mean() - half:5.2f}, {x.mean() + half:5.2f}]"


def held_out(games: int) -> dict[str, object]:
    trained = play_positions(range(games), 101, keep_states=True)
    unseen = play_positions(range(games // 5), 102, populations=UNSEEN, keep_states=True)
    return {"trained": trained, "unseen": unseen}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--per-cell", type=int, default=6)
    parser.add_argument("--rollouts", type=int, default=2000)
    parser.add_argument("--games", type=int, default=3000, help="held-out games of the training populations")
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
    picked: list[tuple[str, int, np.ndarray, str]] = []  # population, players, outcome per seat, state
    # One position of each game, drawn among all those the game kept (a game's first was from its opening
    # rounds, 1 to 3, two times in three, where the chances are hardest to read): positions from anywhere in a game.
    draw = np.random.default_rng(args.seed)
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
                    if taken == args.per_cell:
                        break
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        counted = list(pool.map(_rollouts, [(text, args.rollouts, 7) for _, _, _, text in picked]))
    print(
        f"{len(picked)} positions x {args.rollouts} rollouts of the default bot in {time.perf_counter() - started:.0f} s "
        f"on {args.workers} workers\n"
    )
    rows_out = []
    for (population, n, _, text), (reference, short) in zip(picked, counted):
        state = GameState.from_json(text, trusted=True)
        p = chances(state).p
        alive = p > 0
        rows_out.append(
            {
                "population": population,
                "players": n,
                "model_mae": 100 * np.abs(p - reference)[alive].mean(),
                "r200_mae": 100 * np.abs(short - reference)[alive].mean(),
                "reference_sd": 100 * np.sqrt(reference * (1 - reference) / args.rollouts)[alive].mean(),
            }
        )
    table = pd.DataFrame(rows_out)
    print("Mean absolute error per seat against the rollouts, in points, 95% interval over the positions")
    print(
        f"{'population':<12} {'players':>7} {'positions':>9}  {'model':<22} {'200 rollouts':<22} {'reference sd':>12}"
    )
    for (population, n), cell in table.groupby(["population", "players"], sort=False):
        print(
            f"{population:<12} {n:>7} {len(cell):>9}  {_interval(cell['model_mae'].to_numpy()):<22} "
            f"{_interval(cell['r200_mae'].to_numpy()):<22} {cell['reference_sd'].mean():12.2f}"
        )
    for n, cell in table.groupby("players"):
        print(
            f"{'all':<12} {n:>7} {len(cell):>9}  {_interval(cell['model_mae'].to_numpy()):<22} "
            f"{_interval(cell['r200_mae'].to_numpy()):<22} {cell['reference_sd'].mean():12.2f}"
        )
    print(
        f"{'all':<12} {'all':>7} {len(table):>9}  {_interval(table['model_mae'].to_numpy()):<22} "
        f"{_interval(table['r200_mae'].to_numpy()):<22} {table['reference_sd'].mean():12.2f}\n"
    )

    # ---------------------------------------------------------------- against outcomes
    for name, data in sets.items():
        p = model.predict_rows(data.rows, data.position)
        y = data.won.astype(float)
        edges = np.quantile(p, np.linspace(0, 1, 11))
        decile = np.clip(np.searchsorted(edges, p, side="right") - 1, 0, 9)
        print(
            f"Reliability, {name} tables: {data.n_positions} positions, {len(data)} seats; Brier {np.mean((p - y) ** 2):.4f}"
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
        OUT.mkdir(parents=True, exist_ok=True)
        frame = pd.DataFrame(cells)
        frame.to_csv(OUT / f"reliability_{name}.csv", index=False)
        fig = Figure(figsize=(4, 4))
        ax = fig.add_subplot()
        ax.plot([0, 1], [0, 1], color="#999999", lw=0.8)
        ax.errorbar(
            frame["predicted"],
            frame["observed"],
            yerr=[frame["observed"] - frame["ci_low"], frame["ci_high"] - frame["observed"]],
            fmt="o",
            ms=3,
        )
        ax.set_xlabel("predicted win chance (model)")
        ax.set_ylabel("observed win rate")
        ax.set_title(f"Held-out {name} tables, by decile", fontsize=9)
        fig.tight_layout()
        fig.savefig(OUT / f"reliability_{name}.png", dpi=110)
        print()

    # Brier on the positions counted above: each position's outcome is its own play-on's winner.
    brier_model, brier_200 = [], []
    for (_, _, outcome, text), (_, short) in zip(picked, counted):
        p = chances(GameState.from_json(text, trusted=True)).p
        alive = p > 0
        brier_model.extend(((p - outcome) ** 2)[alive])
        brier_200.extend(((short - outcome) ** 2)[alive])
    bm, b2 = np.array(brier_model), np.array(brier_200)
    diff = b2 - bm
    half = Z * diff.std(ddof=1) / math.sqrt(len(diff))
    print(f"Brier score against outcomes on the {len(picked)} positions counted above ({len(bm)} seats):")
    print(
        f"  model {bm.mean():.4f}, 200 rollouts {b2.mean():.4f}; 200 rollouts minus model {diff.mean():+.4f} "
        f"[{diff.mean() - half:+.4f}, {diff.mean() + half:+.4f}]\n"
    )

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
    print("Speed, one core (4-player positions):")
    print(f"  baseline: 200 rollouts of one position        {1000 * baseline:9.1f} ms")
    print(
        f"  one position from Python (evaluator.chances)  {1000 * single:9.3f} ms  ({baseline / single:,.0f}x faster)"
    )
    print(f"  batched, 100,000 positions                    {len(batch) / batched:9,.0f} positions/s")


if __name__ == "__main__":
    main()
