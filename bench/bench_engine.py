"""Random-play throughput of the game engine: full games/s and player-turns/s.

The baseline is the same games played through the checked path (`apply`,
which validates every action); the figure of interest is the unchecked path
(`apply_unchecked`) the simulator uses. Prints figures; asserts nothing.
"""

from __future__ import annotations

import time

import numpy as np

from analyzer.bots import RandomBot
from analyzer.game.state import GameState

GAMES = {2: 40, 4: 4, 6: 4}


def play(n_players: int, seed: int, checked: bool) -> int:
    bot = RandomBot()
    rng = np.random.default_rng(seed)
    state = GameState.random_start(n_players, rng)
    apply = state.apply if checked else state.apply_unchecked
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance(rng)
        else:
            apply(bot.choose(state, rng))
    return state.turn


def measure(n_players: int, checked: bool) -> tuple[float, float]:
    start = time.perf_counter()
    turns = sum(play(n_players, seed, checked) for seed in range(GAMES[n_players]))
    elapsed = time.perf_counter() - start
    return GAMES[n_players] / elapsed, turns / elapsed


def main() -> None:
    print("engine random play, one core (same seeds for both paths)")
    print(f"{'players':>7} {'games':>5} {'games/s':>9} {'turns/s':>9} {'checked turns/s':>16} {'ratio':>6}")
    for n in GAMES:
        games_s, turns_s = measure(n, checked=False)
        _, base_turns_s = measure(n, checked=True)
        print(
            f"{n:>7} {GAMES[n]:>5} {games_s:>9.2f} {turns_s:>9.0f} {base_turns_s:>16.0f} {turns_s / base_turns_s:>5.2f}x"
        )


if __name__ == "__main__":
    main()
