"""The same games through the checked engine and through the compiled playout (with and without its check)."""

from __future__ import annotations

from collections.abc import Sequence

from analyzer.bots.base import Bot
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.sim import playout
from analyzer.sim.play import play_game
from analyzer.sim.runs import game_rng


def assert_same_games(bots: Sequence[Bot], rules: Rules, sample: bool, seed: int, games: int = 2) -> None:
    """Games ``0 .. games-1`` of ``seed`` end the same, with the same trades, eliminations and random draws used,
    whether played through the checked engine or the compiled playout, checked or not."""
    n_players = len(bots)
    for game in range(games):
        r1, r2, r3 = game_rng(seed, game), game_rng(seed, game), game_rng(seed, game)
        checked, fast, fast_checked = (GameState.new(n_players, r, rules) for r in (r1, r2, r3))
        play_game(checked, bots, r1, sample_battles=sample, check=True)
        record = playout.play_compiled(fast, bots, r2, sample_battles=sample)
        playout.play_compiled(fast_checked, bots, r3, sample_battles=sample, check=True)
        assert checked.is_terminal()
        assert fast.to_dict(history=False) == checked.to_dict(history=False) == fast_checked.to_dict(history=False)
        assert record.trades == checked.trades and record.eliminations == checked.eliminations
        assert r1.random() == r2.random()
