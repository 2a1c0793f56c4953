"""The search player's gain over the default bot, paired on the same deals. Prints figures; asserts nothing.

For each deal ``i`` (game ``i`` of the seed: the same claims, the same dice up to the searching seat's
first turn) and each seat ``k``, one game with :class:`~analyzer.analysis.search_bot.SearchBot` in seat
``k`` and the default bot (the registry's ``"default"``, whichever bot that is) in every other seat, and
one game with the default bot in every seat: the searching seat's wins against the default bot's wins in
the same seat on the same deals. The gain is the mean over deals of the paired difference (the searching
seat's win rate over the deal's seats less the default bot's), with a 95% normal interval over the deals,
which are independent where the seats of one deal are not. The search games run through the engine's
checked path (the search player is not one of the package's compiled bots), so every action is legal.

    python bench/bench_search_bot.py --players 4 --deals 50 [--rollouts 6] [--seed 19]

It prints, and with ``--out PATH`` also writes, the figures and the CPU seconds a search took. A
search game is slow (a few CPU seconds), so keep ``--deals`` small: 50 deals at 4 players and 30 at 6
take about 9 and 16 minutes of one core.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from analyzer.analysis.players import make_player
from analyzer.analysis.search_bot import SEARCH_ROLLOUTS, SearchBot
from analyzer.bots.planner import PlannerBot
from analyzer.bots.registry import BOTS, make_bot
from analyzer.game.state import GameState
from analyzer.sim.intervals import wilson_interval
from analyzer.sim.simulate import simulate

#: CPU seconds of each search, in this process.
SEARCH_SECONDS: list[float] = []


class TimedSearchBot(SearchBot):
    """The search player, timing each search (a benchmark's bot: one process, one game at a time)."""

    def plan(self, state: GameState, rng: np.random.Generator) -> PlannerBot:
        started = time.process_time()
        try:
            return super().plan(state, rng)
        finally:
            SEARCH_SECONDS.append(time.process_time() - started)


def default_name() -> str:
    """Which registered bot ``"default"`` is, by its other name."""
    default = make_bot("default")
    return next((name for name in BOTS if name != "default" and make_bot(name) == default), type(default).__name__)


def rate(wins: int, n: int) -> str:
    low, high = wilson_interval(wins, n)
    return f"{wins / n:6.1%} [{low:6.1%}, {high:6.1%}]  {wins}/{n} games"


def run(n_players: int, deals: int, rollouts: int, seed: int) -> list[str]:
    default = make_bot("default")
    searcher = TimedSearchBot(rollouts=rollouts, base=default)
    assert isinstance(make_player("search"), SearchBot) and make_player("search").base == default
    cpu = time.process_time()
    base = simulate(n_players, [default] * n_players, deals, seed, progress=False)
    base_winner = base.games["winner"].to_numpy(dtype=float, na_value=-1.0)
    won = np.zeros((deals, n_players))
    for k in range(n_players):
        seats = [default] * n_players
        seats[k] = searcher
        r = simulate(n_players, seats, deals, seed, progress=False)
        won[:, k] = r.games["winner"].to_numpy(dtype=float, na_value=-1.0) == k
        print(f"  {n_players} players, searching seat {k}: {int(won[:, k].sum())}/{deals} won "
              f"({time.process_time() - cpu:.0f} CPU s so far)", flush=True)
    base_won = np.stack([base_winner == k for k in range(n_players)], axis=1).astype(float)
    diff = won.mean(axis=1) - base_won.mean(axis=1)
    half = 1.96 * diff.std(ddof=1) / np.sqrt(deals)
    games = deals * n_players
    seconds = np.array(SEARCH_SECONDS)
    return [
        f"{n_players} players, {deals} deals x {n_players} seats = {games} games a side (seed {seed}), "
        f"search {rollouts} rollouts per plan, default = {default_name()}",
        f"  search seat       {rate(int(won.sum()), games)}",
        f"  default seat      {rate(int(base_won.sum()), games)}  (same deals and seats; fair share {1 / n_players:.1%})",
        f"  paired gain       {diff.mean():+.1%} [{diff.mean() - half:+.1%}, {diff.mean() + half:+.1%}]  (95%, over {deals} deals)",
        f"  {len(seconds)} searches, {seconds.mean():.3f} CPU s each (median {np.median(seconds):.3f}); "
        f"{time.process_time() - cpu:.0f} CPU s in all",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--rollouts", type=int, default=SEARCH_ROLLOUTS)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    simulate(args.players, ["default"] * args.players, 5, 0, progress=False)  # warm the compiled kernels
    lines = run(args.players, args.deals, args.rollouts, args.seed)
    print("\n".join(lines))
    if args.out is not None:
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
