"""The default bot against the hunter at tables with weaker sparring bots (cluster, pixie) to feed on,
per seat. Prints figures with 95% intervals; asserts nothing.

Each table is played in every rotation of its seats on the same deals (game ``i`` of every rotation
draws from the same generator), ``games / rotations`` games a rotation. A bot's per-seat win rate is its
wins over its seat-games (a table with two default seats counts each on its own: wins / (2 x games)),
with a 95% Wilson interval over the seat-games. The gain is the default's per-seat rate less the
hunter's; its 95% normal interval is over the deals (each deal's mean over its rotations: the
rotations of a deal share its dice, the deals are independent).

The tables the default is judged on (``tuned``):

* 6 players: default, hunter, cluster, pixie, cluster, pixie;
* 4 players: default, hunter, default, cluster;
* 3 players: default, hunter, pixie.

Then tables of other mixes and counts (``others``). ``--games N`` games a table (default 3,000);
``--bot NAME`` the bot in the default's seats (a registry name or ``module:attribute``); ``--only
tuned`` or ``--only others``; ``--seed S`` (default 32).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

import numpy as np
from scipy.stats import binomtest

from analyzer.sim.simulate import simulate

#: The tables the default is tuned and judged on: (label, seats), ``"D"`` for the bot under test.
TUNED: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("6 players: D, hunter, cluster, pixie, cluster, pixie", ("D", "hunter", "cluster", "pixie", "cluster", "pixie")),
    ("4 players: D, hunter, D, cluster", ("D", "hunter", "D", "cluster")),
    ("3 players: D, hunter, pixie", ("D", "hunter", "pixie")),
)
#: Tables of other mixes and counts, for judging.
OTHERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("5 players: D, hunter, cluster, pixie, cluster", ("D", "hunter", "cluster", "pixie", "cluster")),
    ("4 players: D, hunter, pixie, pixie", ("D", "hunter", "pixie", "pixie")),
    ("3 players: D, hunter, cluster", ("D", "hunter", "cluster")),
    (
        "6 players: D, hunter, planner, classic, cluster, pixie",
        ("D", "hunter", "planner", "classic", "cluster", "pixie"),
    ),
    (
        "6 players: D, hunter, greedy, cautious, classic, planner",
        ("D", "hunter", "greedy", "cautious", "classic", "planner"),
    ),
)


def option(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def wilson(wins: int, n: int) -> str:
    ci = binomtest(wins, n).proportion_ci(confidence_level=0.95, method="wilson")
    return f"{wins / n:6.1%} [{ci.low:6.1%}, {ci.high:6.1%}]"


def play(bot: object, seats: Sequence[str], games: int, seed: int) -> dict[str, np.ndarray]:
    """For every deal and rotation, which bot won: ``{"D": wins, "hunter": wins}`` arrays of shape
    (deals, rotations), counting the seats each holds."""
    n = len(seats)
    deals = -(-games // n)
    wins = {name: np.zeros((deals, n)) for name in ("D", "hunter")}
    for r in range(n):
        lineup = [seats[(s + r) % n] for s in range(n)]
        bots = [bot if name == "D" else name for name in lineup]
        winners = simulate(n, bots, deals, seed, progress=False).games["winner"].to_numpy()
        for name in wins:
            ours = [s for s in range(n) if lineup[s] == name]
            wins[name][:, r] = np.isin(winners, ours)
    return wins


def report(label: str, seats: Sequence[str], wins: dict[str, np.ndarray]) -> str:
    """The per-seat rates of the default and the hunter, and the gain with its interval over the deals."""
    kd, kh = seats.count("D"), seats.count("hunter")
    games = wins["D"].size
    d, h = int(wins["D"].sum()), int(wins["hunter"].sum())
    per_deal = (wins["D"] / kd - wins["hunter"] / kh).mean(axis=1)
    gain = per_deal.mean()
    half = 1.96 * per_deal.std(ddof=1) / np.sqrt(len(per_deal))
    return (
        f"{label} ({games:,} games, {games // len(seats):,} deals x {len(seats)} rotations; fair {1 / len(seats):.1%} a seat)\n"
        f"    default per seat {wilson(d, kd * games)}  {d}/{kd * games} seat-games\n"
        f"    hunter  per seat {wilson(h, kh * games)}  {h}/{kh * games} seat-games\n"
        f"    gain (default - hunter) {gain:+6.1%} [{gain - half:+6.1%}, {gain + half:+6.1%}]"
    )


def main() -> None:
    games = int(option("--games", "3000"))
    bot = option("--bot", "default")
    seed = int(option("--seed", "32"))
    only = option("--only", "tuned,others").split(",")
    simulate(3, [bot, "hunter", "pixie"], 3, 0, progress=False)  # compile first, outside the timings
    print(f"{bot} per seat against the hunter, seats rotated on the same deals (seed {seed}); 95% intervals")
    started = time.process_time()
    for group, tables in (("tuned", TUNED), ("others", OTHERS)):
        if group not in only:
            continue
        print("the tables the default is tuned on:" if group == "tuned" else "tables it was not tuned on:")
        for label, seats in tables:
            print(report(label, seats, play(bot, seats, games, seed)), flush=True)
    print(f"({time.process_time() - started:,.0f} CPU s)")


if __name__ == "__main__":
    main()
