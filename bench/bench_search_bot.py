"""The search player's gain over the default bot, paired on the same deals, at any table. Prints figures; asserts nothing.

A table names a bot for each seat (``--table default,hunter,cluster,pixie,cluster,pixie``; by default the
default bot in every seat). For each deal ``i`` (game ``i`` of the seed: the same dice stream) and each
distinct rotation of the table's seats (a table of one bot has one), one game of the table as it is, and for each seat that the rotation gives the
default bot (the registry's ``"default"``), one game with :class:`~analyzer.analysis.search_bot.SearchBot`
in that seat instead and every other seat unchanged. The searching seat's wins are set against the default
bot's wins in the same seat of the same game. The gain is the mean over deals of the paired difference
(the searching seats' win rate over the deal's games less the default seats'), with a 95% normal interval
over the deals, which are independent where the games of one deal are not. The search games run through
the engine's checked path (the search player is not one of the package's compiled bots), so every action
is legal. The other bots' win rates per seat are printed for both sides.

    python bench/bench_search_bot.py --table default,hunter,pixie [--deals 50] [--minutes 12] [--workers 2]
    python bench/bench_search_bot.py --players 4 [--rollouts 6] [--seed 19] [--out PATH] [--record CSV]
    python bench/bench_search_bot.py ... --record new.csv --against old.csv

It prints, and with ``--out PATH`` also writes (after every batch of deals), the figures and the CPU seconds a
search took. ``--record CSV`` keeps each deal's wins (the searching seats' and the default bot's in the same
seats), so two runs of the same table and seed, with two models or two budgets, can be paired deal by deal:
``--against CSV`` prints the difference of their gains over the deals both played, with its 95% interval. A search game is slow (a few CPU seconds), so the run is bounded: it stops after ``--deals``
deals or after the batch that passes ``--minutes`` minutes of wall time, and reports the deals it played in full.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from analyzer.analysis.players import make_player
from analyzer.analysis.search_bot import SEARCH_ROLLOUTS, SearchBot
from analyzer.bots.base import Bot
from analyzer.bots.planner import PlannerBot
from analyzer.bots.registry import BOTS, make_bot
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.sim.backends import run_tasks
from analyzer.sim.intervals import wilson_interval
from analyzer.sim.play import play_game
from analyzer.sim.runs import DEFAULT_MAX_ROUNDS, game_rng
from analyzer.sim.simulate import simulate
from analyzer.value.model import shipped

#: CPU seconds of each search, in this process.
SEARCH_SECONDS: list[float] = []


class TimedSearchBot(SearchBot):
    """The search player, timing each search (a benchmark's bot: one game at a time in a process)."""

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


@dataclass(frozen=True)
class Setting:
    table: tuple[str, ...]
    rollouts: int
    seed: int


@dataclass
class Deal:
    """One deal's games: per searching game, whether the searching seat won and whether the default bot won
    that seat in the table's own game; the other bots' seat wins and seats played on either side."""

    search: list[float] = field(default_factory=list)
    base: list[float] = field(default_factory=list)
    others_search: Counter[str] = field(default_factory=Counter)
    others_base: Counter[str] = field(default_factory=Counter)
    seats_search: Counter[str] = field(default_factory=Counter)
    seats_base: Counter[str] = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)

    @property
    def gain(self) -> float:
        """The searching seats' win rate over the deal's games less the default bot's in the same seats."""
        return float(np.mean(self.search) - np.mean(self.base))


def play_deal(setting: Setting, deal: int) -> Deal:
    """Every rotation of the table on deal ``deal``, as the module docstring says."""
    table, n = setting.table, len(setting.table)
    bots = {name: make_bot(name) for name in set(table)}
    searcher = TimedSearchBot(rollouts=setting.rollouts, base=bots["default"])  # type: ignore[arg-type]
    rules = Rules(turn_limit=DEFAULT_MAX_ROUNDS)  # as simulate() caps a game
    SEARCH_SECONDS.clear()
    out = Deal()
    # Each distinct seating once: rotations of a table of one bot (or of a repeating pattern) play the same games.
    seatings = list(dict.fromkeys(tuple(table[(k - r) % n] for k in range(n)) for r in range(n)))
    for names in seatings:
        rng = game_rng(setting.seed, deal)
        base = play_game(GameState.new(n, rng, rules), [bots[name] for name in names], rng)
        for k, name in enumerate(names):
            if name != "default":
                out.others_base[name] += base.winner == k
                out.seats_base[name] += 1
        for k in (k for k, name in enumerate(names) if name == "default"):
            seats: list[Bot] = [bots[name] for name in names]
            seats[k] = searcher
            rng = game_rng(setting.seed, deal)
            game = play_game(GameState.new(n, rng, rules), seats, rng, check=True)
            out.search.append(float(game.winner == k))
            out.base.append(float(base.winner == k))
            for j, name in enumerate(names):
                if name != "default":
                    out.others_search[name] += game.winner == j
                    out.seats_search[name] += 1
    out.seconds = list(SEARCH_SECONDS)
    return out


def report(setting: Setting, deals: list[Deal], wall: float) -> list[str]:
    """The figures of the deals played so far."""
    n = len(setting.table)
    diff = np.array([d.gain for d in deals])
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else np.nan
    games = sum(len(d.search) for d in deals)
    seconds = np.concatenate([d.seconds for d in deals])
    card = shipped().card
    lines = [
        f"{n} players, table {','.join(setting.table)} (default = {default_name()}), seats rotated: {len(deals)} deals, "
        f"{games} games a side (seed {setting.seed}), search {setting.rollouts} rollouts per plan",
        f"  model: the shipped win-chance model, {card.get('games', 0):,} training games (seed {card.get('seed')})",
        f"  search seat       {rate(int(sum(sum(d.search) for d in deals)), games)}",
        f"  default seat      {rate(int(sum(sum(d.base) for d in deals)), games)}  "
        f"(same deals and seats; fair share {1 / n:.1%})",
        f"  paired gain       {diff.mean():+.1%} [{diff.mean() - half:+.1%}, {diff.mean() + half:+.1%}]  "
        f"(95%, over {len(deals)} deals)",
    ]
    for name in sorted({name for name in setting.table if name != "default"}):
        won_s = sum(d.others_search[name] for d in deals)
        won_b = sum(d.others_base[name] for d in deals)
        seats_s = sum(d.seats_search[name] for d in deals)
        seats_b = sum(d.seats_base[name] for d in deals)
        lines.append(
            f"  {name} per seat   beside the search {won_s / seats_s:6.1%} of {seats_s} seats; "
            f"beside the default {won_b / seats_b:6.1%} of {seats_b} seats"
        )
    lines.append(
        f"  {len(seconds)} searches, {seconds.mean():.3f} CPU s each (median {np.median(seconds):.3f}); "
        f"{wall:.0f} s wall"
    )
    return lines


RECORD_HEADER = "deal,games,search_wins,default_wins"


def write_record(path: Path, played: dict[int, Deal]) -> None:
    """Each deal's games and wins a side, one line a deal."""
    rows = [f"{i},{len(d.search)},{int(sum(d.search))},{int(sum(d.base))}" for i, d in sorted(played.items())]
    path.write_text("\n".join([RECORD_HEADER, *rows]) + "\n")


def read_record(path: Path) -> dict[int, float]:
    """Each deal's paired gain (the searching seats' win rate less the default bot's) from a ``--record`` file."""
    lines = path.read_text().splitlines()
    if not lines or lines[0] != RECORD_HEADER:
        raise SystemExit(f"{path}: not a --record file (its first line should be {RECORD_HEADER!r})")
    gains = {}
    for line in lines[1:]:
        deal, games, search, base = (int(x) for x in line.split(","))
        gains[deal] = (search - base) / games
    return gains


def paired_against(played: dict[int, Deal], path: Path) -> str:
    """This run's gain less the recorded run's, over the deals both played, with a 95% normal interval."""
    old = read_record(path)
    common = sorted(set(old) & set(played))
    diff = np.array([played[i].gain - old[i] for i in common])
    if len(diff) < 2:
        return f"  against {path.name}: {len(diff)} deals in common, too few to pair"
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
    return (
        f"  against {path.name}: gain {diff.mean():+.1%} [{diff.mean() - half:+.1%}, {diff.mean() + half:+.1%}] "
        f"(this run less that one, 95%, paired over {len(diff)} deals)"
    )


def run(
    setting: Setting,
    deals: int,
    minutes: float,
    workers: int,
    out: Path | None,
    record: Path | None = None,
    against: Path | None = None,
) -> list[str]:
    """Deals ``0, 1, ...`` of the seed in batches of ``2 * workers``, until ``deals`` are played or a batch ends
    past ``minutes`` of wall time; the figures of the deals played. The figures are written to ``out`` after
    each batch, so a stopped run keeps what it finished."""
    assert isinstance(make_player("search"), SearchBot) and make_player("search").base == make_bot("default")
    started = time.perf_counter()
    played: dict[int, Deal] = {}
    lines: list[str] = []
    batch = 2 * workers
    for first in range(0, deals, batch):
        items = list(range(first, min(deals, first + batch)))
        played.update(run_tasks(play_deal, setting, items, workers=workers))
        done = [played[i] for i in sorted(played)]
        lines = report(setting, done, time.perf_counter() - started)
        if against is not None:
            lines.append(paired_against(played, against))
        print(f"deals to {items[-1]}: " + lines[4].strip(), flush=True)
        if record is not None:
            write_record(record, played)
        if out is not None:
            out.write_text("\n".join(lines) + "\n")
        if time.perf_counter() - started > 60 * minutes:
            break
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, help="the default bot in every seat (without --table)")
    parser.add_argument("--table", default=None, help="a bot a seat, comma-separated, at least one 'default'")
    parser.add_argument("--deals", type=int, default=50, help="deals at most (default 50)")
    parser.add_argument(
        "--minutes", type=float, default=12.0, help="stop after the batch that passes this many minutes (default 12)"
    )
    parser.add_argument("--rollouts", type=int, default=SEARCH_ROLLOUTS)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--record", type=Path, default=None, help="write each deal's wins to this CSV")
    parser.add_argument("--against", type=Path, default=None, help="pair the gain with a --record CSV's")
    args = parser.parse_args()
    table = tuple(args.table.split(",")) if args.table else ("default",) * args.players
    if "default" not in table:
        parser.error(f"the table {args.table!r} has no 'default' seat for the search to take")
    for name in set(table):
        make_bot(name)
    simulate(len(table), ["default"] * len(table), 5, 0, progress=False)  # warm the compiled kernels
    setting = Setting(table, args.rollouts, args.seed)
    if args.against is not None:
        read_record(args.against)  # a bad file stops the run before its hour of games
    lines = run(setting, args.deals, args.minutes, args.workers, args.out, args.record, args.against)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
