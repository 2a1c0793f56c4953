"""The search player's gain over the default bot, paired on the same deals. Prints figures; asserts nothing.

For each deal ``i`` (game ``i`` of the seed: the same claims, the same dice up to the searching seat's
first turn) and each seat ``k``, one game with :class:`~analyzer.analysis.search_bot.SearchBot` in seat
``k`` and the default bot (the registry's ``"default"``, whichever bot that is) in every other seat, and
one game with the default bot in every seat: the searching seat's wins against the default bot's wins in
the same seat on the same deals. The gain is the mean over deals of the paired difference (the searching
seat's win rate over the deal's seats less the default bot's), with a 95% normal interval over the deals,
which are independent where the seats of one deal are not. The search games run through the engine's
checked path (the search player is not one of the package's compiled bots), so every action is legal.

    python bench/bench_search_bot.py --players 4 [--deals 50] [--minutes 12] [--rollouts 6] [--seed 19]

It prints, and with ``--out PATH`` also writes (after every deal), the figures and the CPU seconds a
search took. A search game is slow (a few CPU seconds), so the run is bounded: it stops after
``--deals`` deals or after the deal that passes ``--minutes`` minutes of CPU time, and reports the
deals it played in full.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from analyzer.analysis.players import make_player
from analyzer.analysis.search_bot import SEARCH_ROLLOUTS, SearchBot
from analyzer.bots.base import Bot
from analyzer.bots.planner import PlannerBot
from analyzer.bots.registry import BOTS, make_bot
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.sim.intervals import wilson_interval
from analyzer.sim.play import play_game
from analyzer.sim.runs import DEFAULT_MAX_ROUNDS, game_rng
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


def report(n_players: int, won: np.ndarray, base_won: np.ndarray, rollouts: int, seed: int, cpu: float) -> list[str]:
    """The figures of the deals played so far: ``won[i, k]`` whether the searching seat ``k`` won deal ``i``,
    ``base_won[i, k]`` whether the default bot's seat ``k`` did."""
    deals = len(won)
    diff = won.mean(axis=1) - base_won.mean(axis=1)
    half = 1.96 * diff.std(ddof=1) / np.sqrt(deals) if deals > 1 else np.nan
    games = deals * n_players
    seconds = np.array(SEARCH_SECONDS)
    return [
        f"{n_players} players, {deals} deals x {n_players} seats = {games} games a side (seed {seed}), "
        f"search {rollouts} rollouts per plan, default = {default_name()}",
        f"  search seat       {rate(int(won.sum()), games)}",
        f"  default seat      {rate(int(base_won.sum()), games)}  (same deals and seats; fair share {1 / n_players:.1%})",
        f"  paired gain       {diff.mean():+.1%} [{diff.mean() - half:+.1%}, {diff.mean() + half:+.1%}]  (95%, over {deals} deals)",
        f"  {len(seconds)} searches, {seconds.mean():.3f} CPU s each (median {np.median(seconds):.3f}); "
        f"{cpu:.0f} CPU s in all",
    ]


def run(n_players: int, deals: int, minutes: float, rollouts: int, seed: int, out: Path | None) -> list[str]:
    """Deals ``0, 1, ...`` of ``seed``, each in full (every seat searching in turn, and the default bot's
    game), until ``deals`` are played or ``minutes`` of CPU time are spent; the figures of the deals played.
    The figures are written to ``out`` after each deal, so a stopped run keeps what it finished."""
    default = make_bot("default")
    searcher = TimedSearchBot(rollouts=rollouts, base=default)
    assert isinstance(make_player("search"), SearchBot) and make_player("search").base == default
    rules = Rules(turn_limit=DEFAULT_MAX_ROUNDS)  # as simulate() caps a game
    cpu = time.process_time()
    won: list[list[float]] = []
    base_won: list[list[float]] = []
    lines: list[str] = []
    for deal in range(deals):
        rng = game_rng(seed, deal)
        base = play_game(GameState.new(n_players, rng, rules), [default] * n_players, rng)
        base_won.append([float(base.winner == k) for k in range(n_players)])
        row = []
        for k in range(n_players):
            seats: list[Bot] = [default] * n_players
            seats[k] = searcher
            rng = game_rng(seed, deal)
            game = play_game(GameState.new(n_players, rng, rules), seats, rng, check=True)
            row.append(float(game.winner == k))
        won.append(row)
        lines = report(n_players, np.array(won), np.array(base_won), rollouts, seed, time.process_time() - cpu)
        print(
            f"deal {deal}: searching seats won {row}, default's winner {base.winner}; " + lines[3].strip(), flush=True
        )
        if out is not None:
            out.write_text("\n".join(lines) + "\n")
        if time.process_time() - cpu > 60 * minutes:
            break
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=50, help="deals at most (default 50)")
    parser.add_argument(
        "--minutes", type=float, default=12.0, help="stop after the deal that passes this many CPU minutes (default 12)"
    )
    parser.add_argument("--rollouts", type=int, default=SEARCH_ROLLOUTS)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    simulate(args.players, ["default"] * args.players, 5, 0, progress=False)  # warm the compiled kernels
    print("\n".join(run(args.players, args.deals, args.minutes, args.rollouts, args.seed, args.out)))


if __name__ == "__main__":
    main()
