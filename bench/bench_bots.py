"""The default bot (the strategist) against the classic heuristic bot it replaced. Prints figures; asserts nothing.

* 2 players: the default bot against the classic bot, each deal played in both seatings on the same
  seeds; its win rate with a 95% Wilson interval (target: at least 60%);
* 4 players: one default seat against three classic ones, the default seat rotated round the table
  on the same seeds (fair share 25%; target: at least 40%);
* the draft: one seat of 4 (rotated) of the default bot drafting by the fitted draft model
  (``PlannerBot(draft="model")``) against three default bots, which draft by each continent's ease
  of holding (fair share 25%), and against three classic bots (the default bot's own figure is above);
* speed: player-turns per CPU second of compiled 4-player games with one bot in every seat: the
  strategist, the hunter, the sparring cluster and pixie, and as baselines in the same process the
  planner (the default before the strategist) and the classic bot, the median and the best of 12 runs of 500 games each (target:
  50,000); beside it the turns a game lasts and the CPU time a game takes, since a bot whose games end
  sooner plays fewer turns a second at the same cost a game (``--speed`` runs this section alone:
  ``--games N --runs R``, by default 500 and 12). A run of ``simulate`` also costs about 10 ms
  whatever its size (its result tables), a tenth of a 100-game run's time: runs of 500 games leave
  that to about 2%;
* the ladder of the registered compiled bots (2 players);
* the search player's gain is ``bench/bench_search_bot.py``'s.

``--quick`` runs a tenth of the games.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time

import numpy as np
from scipy.stats import binomtest

from analyzer.bots.planner import PLANNER_BOT
from analyzer.sim.ladder import describe, ladder
from analyzer.sim.simulate import simulate

SCALE = 0.1 if "--quick" in sys.argv else 1.0


def option(name: str, default: int) -> int:
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


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


def draft(n: int) -> None:
    model = dataclasses.replace(PLANNER_BOT, draft="model")
    for others, seed in ((PLANNER_BOT, 11), ("classic", 2)):
        wins = 0
        for seat in range(4):
            bots: list[object] = [others] * 4
            bots[seat] = model
            r = simulate(4, bots, n, seed, progress=False)
            wins += int((r.games["winner"] == seat).sum())
        name = "default" if others is PLANNER_BOT else others
        print(f"4 players, one model-drafting default seat (rotated) vs three {name}: {wilson(wins, 4 * n)}")


SPEED_BOTS = ("strategist", "hunter", "planner", "classic", "cluster", "pixie")


def speed(n: int, runs: int) -> None:
    """Each bot's median and best of ``runs`` runs, taking turns: other load on a shared machine moves
    single runs by a third and only ever slows them, so the best of many short runs is the steadier
    figure of what the code can do, and the median says what a run met here. The planner (the default
    before the strategist) and the classic bot are the baselines, measured in the same process."""
    print(
        f"\nplayer-turns per CPU second, 4 players, compiled, one bot in every seat ({runs} runs each of {n:,} games):"
    )
    for name in SPEED_BOTS:
        simulate(4, [name] * 4, n, 1, progress=False)  # the battles of these games into the solver's cache
    figures: dict[str, list[float]] = {name: [] for name in SPEED_BOTS}
    per_game: dict[str, list[float]] = {name: [] for name in SPEED_BOTS}
    turns: dict[str, int] = {}
    for run in range(runs):
        for name in SPEED_BOTS[run % len(SPEED_BOTS) :] + SPEED_BOTS[: run % len(SPEED_BOTS)]:
            cpu = time.process_time()
            r = simulate(4, [name] * 4, n, 1, progress=False)
            spent = time.process_time() - cpu
            figures[name].append(r.turns_played / spent)
            per_game[name].append(spent / n)
            turns[name] = r.turns_played
    print(f"  {'':22} {'median':>9} {'best':>9}   {'turns a game':>12} {'CPU ms a game (median)':>22}")
    for name in SPEED_BOTS:
        print(
            f"  {name:22} {np.median(figures[name]):>9,.0f} {max(figures[name]):>9,.0f}   "
            f"{turns[name] / n:>12.1f} {1e3 * np.median(per_game[name]):>22.3f}"
        )
    for name in ("strategist", "hunter"):
        median = np.median(figures[name]) / np.median(figures["planner"])
        best = max(figures[name]) / max(figures["planner"])
        game = np.median(per_game[name]) / np.median(per_game["planner"])
        target = "   (target: 50,000 for the strategist)" if name == "strategist" else ""
        print(f"  {name + ' / planner':22} {median:>8.2f}x {best:>8.2f}x   {'':>12} {game:>21.2f}x{target}")
    load = os.getloadavg()
    print(f"  (load average {load[0]:.1f}, {load[1]:.1f}, {load[2]:.1f} on {os.cpu_count()} cores at the end)")


def main() -> None:
    if "--speed" in sys.argv:
        speed(option("--games", 500), option("--runs", 12))
        return
    simulate(4, ["default", "classic"] * 2, 5, 0, progress=False)  # warm the compiled kernels
    two_players(games(1000))
    four_players(games(500))
    draft(games(500))
    speed(games(500), 12 if SCALE == 1.0 else 4)
    print()
    print(describe(ladder(["default", "classic", "greedy", "cautious"], games=games(500), seed=3)))


if __name__ == "__main__":
    main()
