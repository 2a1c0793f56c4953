"""Timings of the exact battle solver against a plain reference DP run in the same process.

Figures only, no assertions (``make bench``). The targets: the full
final-state distribution of 1000 against 1000 in 2 ms (warm), the P(win) table
up to 1000 in 1 s, a 10-territory chain with 200 armies in 5 ms.

The reference is the textbook dynamic programme: every state of the A x D grid
in a Python loop, each passing its probability to the states its roll reaches.
The solver's own plain sweep (the same idea, compiled) is shown too, to tell
the gain of compiling from the gain of the closed form.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.game.dice import roll_table  # noqa: E402
from analyzer.solver.battle import CLASSIC, BattleOptions, battle, battle_plain, win_grid  # noqa: E402
from analyzer.solver.chains import chain  # noqa: E402
from analyzer.solver.tables import odds_tables  # noqa: E402

TABLE = roll_table().tolist()
CHAIN = [3, 5, 2, 8, 4, 6, 1, 3, 7, 2]


def reference_forward(start: list[float], defenders: int) -> tuple[list[float], list[list[float]]]:
    """Plain forward DP over every state; ``start[a]`` is the mass starting at ``(a, defenders)``."""
    top = len(start) - 1
    mass = [[0.0] * (defenders + 1) for _ in range(top + 1)]
    for a, m in enumerate(start):
        mass[a][defenders] = m
    for a in range(top, 1, -1):
        na = min(3, a - 1)
        row = mass[a]
        for d in range(defenders, 0, -1):
            m = row[d]
            if m == 0.0:
                continue
            nd = min(2, d)
            k = min(na, nd)
            probs = TABLE[na][nd]
            for j in range(k + 1):
                mass[a - j][d - k + j] += m * probs[j]
    return [mass[a][0] for a in range(top + 1)], mass


def reference_battle(attackers: int, defenders: int) -> list[list[float]]:
    start = [0.0] * (attackers + 1)
    start[attackers] = 1.0
    return reference_forward(start, defenders)[1]


def reference_table(n: int) -> list[list[float]]:
    """Plain backward DP: P(win) from every (a, d) up to n."""
    value = [[0.0] * (n + 1) for _ in range(n + 1)]
    for a in range(n + 1):
        value[a][0] = 1.0
        if a < 2:
            continue
        na = min(3, a - 1)
        for d in range(1, n + 1):
            nd = min(2, d)
            k = min(na, nd)
            probs = TABLE[na][nd]
            value[a][d] = sum(probs[j] * value[a - j][d - k + j] for j in range(k + 1))
    return value


def reference_chain(attackers: int, defenders: list[int]) -> list[float]:
    start = [0.0] * (attackers + 1)
    start[attackers] = 1.0
    p_conquer = []
    for d in defenders:
        won, _ = reference_forward(start, d)
        p_conquer.append(sum(won))
        start = [0.0] * (attackers + 1)
        for a, m in enumerate(won):
            if m:
                start[a - 1] += m  # leave 1 behind, move the rest on
    return p_conquer


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``repeat`` calls, in seconds."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def fmt(seconds: float) -> str:
    return f"{seconds * 1e3:9.3f} ms"


def main() -> None:
    t0 = time.perf_counter()
    battle(20, 20)
    win_grid(10, 1, CLASSIC)
    chain(10, [2, 2])
    print(f"first calls (compile or load the numba cache): {fmt(time.perf_counter() - t0)}")
    print()
    rows = []

    fast = timed(lambda: battle(1000, 1000), 200)
    compiled_plain = timed(lambda: battle_plain(1000, 1000), 5)
    reference = timed(lambda: reference_battle(1000, 1000), 3)
    rows.append(("1000 v 1000, full final-state distribution (target 2 ms)", fast, compiled_plain, reference))
    blitz = BattleOptions(balanced_blitz=True)
    blitz_fast = timed(lambda: battle(1000, 1000, options=blitz), 200)
    blitz_plain = timed(lambda: battle_plain(1000, 1000, options=blitz), 5)
    rows.append(
        ("1000 v 1000 reshaped by Balanced Blitz (vs the true-random reference)", blitz_fast, blitz_plain, reference)
    )

    table_fast = timed(lambda: odds_tables(1000), 3)
    grid_only = timed(lambda: win_grid(1000, 1, CLASSIC), 3)
    table_reference = timed(lambda: reference_table(1000), 1)
    rows.append(("P(win) + loss tables, every A, D <= 1000 (target 1 s)", table_fast, None, table_reference))

    chain_fast = timed(lambda: chain(200, CHAIN), 200)
    chain_reference = timed(lambda: reference_chain(200, CHAIN), 3)
    rows.append(("10-territory chain, 200 armies (target 5 ms)", chain_fast, None, chain_reference))

    width = max(len(name) for name, *_ in rows)
    header = f"{'':<{width}}  {'solver':>12}  {'compiled plain':>14}  {'reference DP':>12}  {'vs reference':>12}  {'vs compiled':>11}"
    print(header)
    for name, solver, plain, reference_time in rows:
        plain_text = fmt(plain) if plain is not None else "-"
        vs_plain = f"{plain / solver:10.1f}x" if plain is not None else "-"
        print(
            f"{name:<{width}}  {fmt(solver)}  {plain_text:>14}  {fmt(reference_time)}  "
            f"{reference_time / solver:11.0f}x  {vs_plain:>11}"
        )
    print()
    print("solver: battle(), odds_tables() (three tables as DataFrames), chain(); medians of repeated warm calls.")
    print("compiled plain: the solver's own sweep over every state of the battle.")
    print(f"the tables' backward pass alone (three arrays, before the DataFrames): {fmt(grid_only).strip()}")
    print("reference DP: the same plain programme in pure Python, timed in this process.")

    # The figures are only worth reading if the answers agree.
    ref_grid = np.array(reference_table(60))
    ours = odds_tables(60).p_win.to_numpy()
    table_err = np.abs(ours - ref_grid[2:, 1:]).max()
    battle_err = abs(battle(1000, 1000).p_win - float(sum(row[0] for row in reference_battle(1000, 1000))))
    chain_err = np.abs(chain(200, CHAIN).p_conquer - reference_chain(200, CHAIN)).max()
    print(f"agreement with the reference: battle P(win) {battle_err:.1e}, table {table_err:.1e}, chain {chain_err:.1e}")


if __name__ == "__main__":
    main()
