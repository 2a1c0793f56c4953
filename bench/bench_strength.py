"""The default bot's targets and its figures against bots it was not tuned on. Prints
figures with 95% Wilson intervals; asserts nothing.

Every setting rotates the seats on the same deals (game ``i`` of every seating draws from the same
generator): each seating of the bots under test plays ``games / seatings`` games, and a game is a
win when the winning seat is one of theirs.

Targets (``bot`` is ``--bot``, by default the registry's ``strategist``):

* 6 players, one ``bot`` against five hunters: above 16.7%, its fair share;
* 4 players, two ``bot`` against two hunters (every seating of 2 and 2): above 50%;
* 3 players, one against two hunters: above 33.3%;
* 6 players, one against five planners (the default bot before it): at least 25%;
* 2 players, against the classic bot: at least 65%.

Then one seat of 4 against three classic, greedy, cautious and planner bots (fair share 25%), and one
of 6 against five classic, greedy and cautious bots (fair share 16.7%; against five planners it is the
target setting above), none of which it was tuned on.

``--games N`` games per setting (default 2,000); ``--bot NAME`` the bot under test; ``--only a,b``
only the settings named (``hunter6``, ``hunter4``, ``hunter3``, ``planner6``, ``classic2``,
``others``).
"""

from __future__ import annotations

import itertools
import sys
import time

from scipy.stats import binomtest

from analyzer.sim.simulate import simulate


def option(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def wilson(wins: int, n: int) -> str:
    ci = binomtest(wins, n).proportion_ci(confidence_level=0.95, method="wilson")
    return f"{wins / n:6.1%} [{ci.low:6.1%}, {ci.high:6.1%}]  {wins}/{n} games"


def seatings(n_players: int, ours: int) -> list[tuple[int, ...]]:
    """Every choice of ``ours`` seats of ``n_players`` (one seat: each seat in turn)."""
    return list(itertools.combinations(range(n_players), ours))


def score(bot: str, other: str, n_players: int, ours: int, games: int, seed: int) -> tuple[int, int]:
    """Wins of the seats ``bot`` plays, and games, over every seating on the same deals."""
    wins = total = 0
    chosen = seatings(n_players, ours)
    per = -(-games // len(chosen))
    for seats in chosen:
        bots = [bot if s in seats else other for s in range(n_players)]
        r = simulate(n_players, bots, per, seed, progress=False)
        wins += int(r.games["winner"].isin(seats).sum())
        total += per
    return wins, total


SETTINGS = {
    "hunter6": ("hunter", 6, 1, "6 players, one vs five hunters (fair 16.7%; target > 16.7%)"),
    "hunter4": ("hunter", 4, 2, "4 players, two vs two hunters (fair 50%; target > 50%)"),
    "hunter3": ("hunter", 3, 1, "3 players, one vs two hunters (fair 33.3%; target > 33.3%)"),
    "planner6": ("planner", 6, 1, "6 players, one vs five planners (fair 16.7%; target >= 25%)"),
    "classic2": ("classic", 2, 1, "2 players, vs the classic bot (fair 50%; target >= 65%)"),
}
OTHERS = [
    ("classic", 4, 1, "4 players, one vs three classic (fair 25%)"),
    ("greedy", 4, 1, "4 players, one vs three greedy (fair 25%)"),
    ("cautious", 4, 1, "4 players, one vs three cautious (fair 25%)"),
    ("planner", 4, 1, "4 players, one vs three planners (fair 25%)"),
    ("classic", 6, 1, "6 players, one vs five classic (fair 16.7%)"),
    ("greedy", 6, 1, "6 players, one vs five greedy (fair 16.7%)"),
    ("cautious", 6, 1, "6 players, one vs five cautious (fair 16.7%)"),
]


def main() -> None:
    games = int(option("--games", "2000"))
    bot = option("--bot", "strategist")
    only = option("--only", ",".join([*SETTINGS, "others"])).split(",")
    seed = int(option("--seed", "19"))
    simulate(4, [bot, "hunter"] * 2, 5, 0, progress=False)  # compile first, outside the timings
    print(f"{bot}: {games:,} games per setting, seats rotated on the same deals (seed {seed}); 95% Wilson intervals")
    started = time.process_time()
    for key, (other, n, ours, label) in SETTINGS.items():
        if key in only:
            print(f"  {label:62} {wilson(*score(bot, other, n, ours, games, seed))}", flush=True)
    if "others" in only:
        print("against bots it was not tuned on:")
        for other, n, ours, label in OTHERS:
            print(f"  {label:62} {wilson(*score(bot, other, n, ours, games, seed))}", flush=True)
    print(f"({time.process_time() - started:,.0f} CPU s)")


if __name__ == "__main__":
    main()
