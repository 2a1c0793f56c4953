"""The default (planning) bot against the classic heuristic bot it replaced. Prints figures; asserts nothing.

* 2 players: the default bot against the classic bot, each deal played in both seatings on the same
  seeds; its win rate with a 95% Wilson interval (target: at least 60%);
* 4 players: one default seat against three classic ones, the default seat rotated round the table
  on the same seeds (fair share 25%; target: at least 40%);
* speed: player-turns per CPU second of compiled 4-player games with the default bot in every seat,
  and with the classic bot in every seat as the baseline in the same process (target: 50,000);
* the ladder of the registered compiled bots (2 players).

``--quick`` runs a tenth of the games.
"""

from __future__ import annotations

import sys
import time

from scipy.stats import binomtest

from analyzer.sim.ladder import describe, ladder
from analyzer.sim.simulate import simulate

SCALE = 0.1 if "--quick" in sys.argv else 1.0


def games(n: int) -> int:
    return max(10, int(n * SCALE))


def wilson(wins: int, n: int) -> str:
    ci = binomtest(wins, n).proportion_ci(confidence_level=0.95, method="wilson")
    return f"{wins / n:6.1%} [{ci.low:6.1%}, {ci.high:6.1%}]  {wins}/{n} games"


def two_players(n: int) -> None:
    wins = 0
    for seat in (0, 1):
        bots = ["classic", "classic"]
        bots[seat] = "default"
        r = simulate(2, bots, n, 1, progress=False)
        wins += int((r.games["winner"] == seat).sum())
    print(f"2 players, default vs classic, both seatings on the same seeds:  {wilson(wins, 2 * n)}")


def four_players(n: int) -> None:
    wins = 0
    for seat in range(4):
        bots = ["classic"] * 4
        bots[seat] = "default"
        r = simulate(4, bots, n, 2, progress=False)
        wins += int((r.games["winner"] == seat).sum())
    print(f"4 players, one default seat (rotated) vs three classic (fair 25%): {wilson(wins, 4 * n)}")


def speed(n: int) -> None:
    print("\nplayer-turns per CPU second, 4 players, compiled, one bot in every seat:")
    figures = {}
    for name in ("classic", "default", "classic", "default"):
        cpu = time.process_time()
        r = simulate(4, [name] * 4, n, 1, progress=False)
        figures[name] = r.turns_played / (time.process_time() - cpu)
    print(f"  classic (baseline) {figures['classic']:>9,.0f}\n  default            {figures['default']:>9,.0f}"
          f"  ({figures['default'] / figures['classic']:.2f}x the baseline)")


def main() -> None:
    simulate(4, ["default", "classic"] * 2, 5, 0, progress=False)  # warm the compiled kernels
    two_players(games(1000))
    four_players(games(500))
    speed(games(4000))
    print()
    print(describe(ladder(["default", "classic", "greedy", "cautious"], games=games(500), seed=3)))


if __name__ == "__main__":
    main()
