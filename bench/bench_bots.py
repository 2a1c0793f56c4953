"""The default (planning) bot against the classic heuristic bot it replaced. Prints figures; asserts nothing.

* 2 players: the default bot against the classic bot, each deal played in both seatings on the same
  seeds; its win rate with a 95% Wilson interval (target: at least 60%);
* 4 players: one default seat against three classic ones, the default seat rotated round the table
  on the same seeds (fair share 25%; target: at least 40%);
* the draft: one seat of 4 (rotated) of the default bot drafting by the fitted draft model
  (``PlannerBot(draft="model")``) against three default bots, which draft by each continent's ease
  of holding (fair share 25%), and against three classic bots (the default bot's own figure is above);
* speed: player-turns per CPU second of compiled 4-player games with one bot in every seat: the
  strategist, the hunter, and as baselines in the same process the planner (the default before the
  strategist) and the classic bot, the median and the best of 40 short runs each (target: 50,000);
  beside it the turns a game lasts and the CPU time a game takes, since a bot whose games end sooner
  plays fewer turns a second at the same cost a game (``--speed`` runs this section alone:
  ``--games N --runs R``, by default 100 and 12);
* the ladder of the registered compiled bots (2 players);
* with ``--search N``: N 4-player games of one seat that picks each turn by
  :func:`analyzer.analysis.search.suggest_turn` (``--rollouts R`` per plan, default
  ``SEARCH_ROLLOUTS``: a fixed budget per decision) against three default bots,
  against the same deals played by four default bots, with the paired gain and
  its interval; ``--workers W`` processes (slow: about a CPU second per game).

``--quick`` runs a tenth of the games.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import numpy as np
from scipy.stats import binomtest

from analyzer.bots.base import Decision
from analyzer.bots.planner import PLANNER_BOT
from analyzer.analysis.search import PLANS, suggest_turn
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.sim.ladder import describe, ladder
from analyzer.sim.play import play_game
from analyzer.sim.runs import game_rng
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


SPEED_BOTS = ("strategist", "hunter", "planner", "classic")


def speed(n: int, runs: int) -> None:
    """Each bot's median and best of ``runs`` runs, taking turns: other load on a shared machine moves
    single runs by a third and only ever slows them, so the best of many short runs is the steadier
    figure of what the code can do, and the median says what a run met here. The planner (the default
    before the strategist) and the classic bot are the baselines, measured in the same process."""
    print(f"\nplayer-turns per CPU second, 4 players, compiled, one bot in every seat ({runs} runs each of {n:,} games):")
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
        print(f"  {name:22} {np.median(figures[name]):>9,.0f} {max(figures[name]):>9,.0f}   "
              f"{turns[name] / n:>12.1f} {1e3 * np.median(per_game[name]):>22.3f}")
    for name in ("strategist", "hunter"):
        median = np.median(figures[name]) / np.median(figures["planner"])
        best = max(figures[name]) / max(figures["planner"])
        game = np.median(per_game[name]) / np.median(per_game["planner"])
        target = "   (target: 50,000 for the strategist)" if name == "strategist" else ""
        print(f"  {name + ' / planner':22} {median:>8.2f}x {best:>8.2f}x   {'':>12} {game:>21.2f}x{target}")
    load = os.getloadavg()
    print(f"  (load average {load[0]:.1f}, {load[1]:.1f}, {load[2]:.1f} on {os.cpu_count()} cores at the end)")


SEARCH_ROLLOUTS = 8
SEARCH_PLANS = ("default", "bold: attack any fight at 50%", "careful: only near-certain fights",
                "complete a continent first")


@dataclass
class TurnSearcher:
    """Plays each of its turns with the plan :func:`suggest_turn` picks at the turn's start (a
    benchmark's bot: it remembers the plan of the turn in progress, so one game at a time)."""

    rollouts: int = SEARCH_ROLLOUTS
    plans: dict[str, object] = field(default_factory=lambda: {n: PLANS[n] for n in SEARCH_PLANS})
    current: tuple[int, int] = (-1, -1)
    bot: object = PLANNER_BOT
    searches: int = 0

    def choose(self, state: GameState, rng) -> Decision:
        key = (state.turn, state.player)
        if state.phase == Phase.REINFORCE and key != self.current:
            tip = suggest_turn(state, rollouts=self.rollouts, seed=int(rng.integers(1 << 30)), plans=self.plans)  # type: ignore[arg-type]
            self.current, self.bot = key, PLANS[tip.plan]
            self.searches += 1
        bot = self.bot if key == self.current else PLANNER_BOT
        return bot.choose(state, rng)  # type: ignore[attr-defined]


def search_games(games: range, rollouts: int) -> tuple[list[int], list[int], int, float]:
    """Games ``games`` (seat 0 searching, then the same deal with the default bot there): seat 0's wins
    in each, the searches made and the CPU seconds they took."""
    started = time.process_time()
    searcher = TurnSearcher(rollouts=rollouts)
    searched, plain = [], []
    for game in games:
        state = GameState.new(4, game_rng(7, game))
        play_game(state, [searcher, PLANNER_BOT, PLANNER_BOT, PLANNER_BOT], game_rng(7, game))
        searched.append(int(state.winner == 0))
        base = GameState.new(4, game_rng(7, game))
        play_game(base, [PLANNER_BOT] * 4, game_rng(7, game))
        plain.append(int(base.winner == 0))
    return searched, plain, searcher.searches, time.process_time() - started


def search_gain(n: int, rollouts: int, workers: int) -> None:
    """The searching seat's win rate against the default bot's on the same deals, and the paired
    difference with a 95% normal interval (each game's win minus the same deal's default win)."""
    chunks = [range(w, n, workers) for w in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(search_games, chunks, [rollouts] * workers))
    searched = np.array([x for part in parts for x in part[0]])
    plain = np.array([x for part in parts for x in part[1]])
    searches = sum(part[2] for part in parts)
    cpu = sum(part[3] for part in parts)
    diff = searched - plain
    half = 1.96 * diff.std(ddof=1) / np.sqrt(n)
    print(f"\nturn search ({rollouts} rollouts x {len(SEARCH_PLANS)} plans per turn) in seat 0 of 4, vs 3 default bots:")
    print(f"  searching seat {wilson(int(searched.sum()), n)}; the default bot in that seat, same deals: {wilson(int(plain.sum()), n)}")
    print(f"  gain {diff.mean():+.1%} [{diff.mean() - half:+.1%}, {diff.mean() + half:+.1%}] (paired, 95%)")
    print(f"  {searches} searches, {cpu / max(searches, 1):.2f} CPU s each (with the games); {cpu:.0f} CPU s in all")


def main() -> None:
    if "--speed" in sys.argv:
        speed(option("--games", 100), option("--runs", 12))
        return
    if "--search" in sys.argv:
        search_gain(int(option("--search", 100)), int(option("--rollouts", SEARCH_ROLLOUTS)), int(option("--workers", 1)))
        return
    simulate(4, ["default", "classic"] * 2, 5, 0, progress=False)  # warm the compiled kernels
    two_players(games(1000))
    four_players(games(500))
    draft(games(500))
    speed(games(250), 40 if SCALE == 1.0 else 10)
    print()
    print(describe(ladder(["default", "classic", "greedy", "cautious"], games=games(500), seed=3)))


if __name__ == "__main__":
    main()
