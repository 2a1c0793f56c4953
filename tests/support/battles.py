"""The published table of a battle's odds, and battles sampled roll by roll from the engine's distributions."""

from __future__ import annotations

import numpy as np

from analyzer.game.dice import roll_distribution
from analyzer.solver.battle import BattleOptions

# Osborne (2003), "Markov Chains for the RISK Board Game Revisited", Mathematics Magazine 76(2),
# table 3: P(the attacker wins), rows A = 1..10 attacking armies *that can roll*, columns D = 1..10
# defenders, rounded to three decimals. Transcribed from the public copy of the table in the test
# suite of jeroenvanwijgerden/dice-of-war (test/jvw/analysis_test.clj, "Osborne-2003-table-3");
# its first row matches the widely quoted 0.417, 0.106, 0.027.
OSBORNE_TABLE_3 = [
    [0.417, 0.106, 0.027, 0.007, 0.002, 0.000, 0.000, 0.000, 0.000, 0.000],
    [0.754, 0.363, 0.206, 0.091, 0.049, 0.021, 0.011, 0.005, 0.003, 0.001],
    [0.916, 0.656, 0.470, 0.315, 0.206, 0.134, 0.084, 0.054, 0.033, 0.021],
    [0.972, 0.785, 0.642, 0.477, 0.359, 0.253, 0.181, 0.123, 0.086, 0.057],
    [0.990, 0.890, 0.769, 0.638, 0.506, 0.397, 0.297, 0.224, 0.162, 0.118],
    [0.997, 0.934, 0.857, 0.745, 0.638, 0.521, 0.423, 0.329, 0.258, 0.193],
    [0.999, 0.967, 0.910, 0.834, 0.736, 0.640, 0.536, 0.446, 0.357, 0.287],
    [1.000, 0.980, 0.947, 0.888, 0.818, 0.730, 0.643, 0.547, 0.464, 0.380],
    [1.000, 0.990, 0.967, 0.930, 0.873, 0.808, 0.726, 0.646, 0.558, 0.480],
    [1.000, 0.994, 0.981, 0.954, 0.916, 0.861, 0.800, 0.724, 0.650, 0.568],
]


def simulate(
    attackers: int | np.ndarray, defenders: int, stop_at: int, options: BattleOptions, n: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """``n`` battles rolled one roll at a time from the engine's per-roll distributions; armies left on each side."""
    a = np.broadcast_to(attackers, n).copy()
    d = np.full(n, defenders)
    # cumulative probabilities over attacker losses for every (attacker dice, defender dice)
    cum = {}
    for na in range(1, options.attacker_cap + 1):
        for nd in range(1, options.defender_cap + 1):
            dist = roll_distribution(na, nd, options.dice)
            pairs = min(na, nd)
            cum[na, nd] = np.cumsum([float(dist.get((j, pairs - j), 0)) for j in range(pairs + 1)])
    while True:
        n_att = np.array([options.attacker_rolls(int(x), stop_at) for x in a])
        live = (n_att > 0) & (d > 0)
        if not live.any():
            return a, d
        n_def = np.minimum(options.defender_cap, d)
        u = rng.random(n)
        for na, nd in {(int(x), int(y)) for x, y in zip(n_att[live], n_def[live])}:
            sel = live & (n_att == na) & (n_def == nd)
            a_loss = np.minimum(np.searchsorted(cum[na, nd], u[sel], side="right"), min(na, nd))
            a[sel] -= a_loss
            d[sel] -= min(na, nd) - a_loss
