"""The default (planning) bot against the classic heuristic bot it replaced. Prints figures; asserts nothing.

* 2 players: the default bot against the classic bot, each deal played in both seatings on the same
  seeds; its win rate with a 95% Wilson interval (target: at least 60%);
* 4 players: one default seat against three classic ones, the default seat rotated round the table
  on the same seeds (fair share 25%; target: at least 40%);
* speed: player-turns per CPU second of compiled 4-player games with the default bot in every seat,
  and with the classic bot in every seat as the baseline in the same process (target: 50,000);
* the ladder of the registered compiled bots (2 players);
* with ``--search N``: N 4-player games of one seat that picks each turn by
  :func:`analyzer.bots.search.suggest_turn` (``SEARCH_ROLLOUTS`` rollouts per
  plan, a fixed budget per decision) against three default bots, against the
  same seeds played by four default bots (slow: seconds per game).

``--quick`` runs a tenth of the games.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

from scipy.stats import binomtest

from analyzer.bots.base import Decision
from analyzer.bots.planner import PLANNER_BOT
from analyzer.bots.search import PLANS, suggest_turn
from analyzer.game.state import GameState, Phase
from analyzer.sim.ladder import describe, ladder
from analyzer.sim.simulate import game_rng, play, simulate

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


SEARCH_ROLLOUTS = 6
SEARCH_PLANS = ("default", "bold: attack any fight at 50%", "careful: only near-certain fights",
                "complete a continent first")


@dataclass
class TurnSearcher:
    """Plays each of its turns with the plan :func:`suggest_turn` picks at the turn's start (a
    benchmark's bot: it remembers the plan of the turn in progress, so one game at a time)."""

    plans: dict[str, object] = field(default_factory=lambda: {n: PLANS[n] for n in SEARCH_PLANS})
    current: tuple[int, int] = (-1, -1)
    bot: object = PLANNER_BOT
    searches: int = 0

    def choose(self, state: GameState, rng) -> Decision:
        key = (state.turn, state.player)
        if state.phase == Phase.REINFORCE and key != self.current:
            tip = suggest_turn(state, rollouts=SEARCH_ROLLOUTS, seed=int(rng.integers(1 << 30)), plans=self.plans)  # type: ignore[arg-type]
            self.current, self.bot = key, PLANS[tip.plan]
            self.searches += 1
        bot = self.bot if key == self.current else PLANNER_BOT
        return bot.choose(state, rng)  # type: ignore[attr-defined]


def search_gain(n: int) -> None:
    searched = plain = 0
    started = time.process_time()
    searcher = TurnSearcher()
    for game in range(n):
        state = GameState.new(4, game_rng(7, game))
        play(state, [searcher, PLANNER_BOT, PLANNER_BOT, PLANNER_BOT], game_rng(7, game))
        searched += state.winner == 0
        base = GameState.new(4, game_rng(7, game))
        play(base, [PLANNER_BOT] * 4, game_rng(7, game))
        plain += base.winner == 0
    print(f"\nturn search ({SEARCH_ROLLOUTS} rollouts x {len(SEARCH_PLANS)} plans per turn) in seat 0 of 4, vs 3 default bots:")
    print(f"  searching seat {wilson(int(searched), n)}; the default bot in that seat, same seeds: {wilson(int(plain), n)}")
    print(f"  {searcher.searches} searches, {(time.process_time() - started) / max(searcher.searches, 1):.2f} CPU s each")


def main() -> None:
    if "--search" in sys.argv:
        search_gain(int(sys.argv[sys.argv.index("--search") + 1]))
        return
    simulate(4, ["default", "classic"] * 2, 5, 0, progress=False)  # warm the compiled kernels
    two_players(games(1000))
    four_players(games(500))
    speed(games(4000))
    print()
    print(describe(ladder(["default", "classic", "greedy", "cautious"], games=games(500), seed=3)))


if __name__ == "__main__":
    main()
