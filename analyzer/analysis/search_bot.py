"""The turn search as a player: a bot that searches each of its turns at a fixed budget and plays the best plan.

At the first decision of each of its turns, :class:`SearchBot` runs
:func:`~analyzer.analysis.search.suggest_turn` from the position with a fixed
number of rollouts per plan (the plans are :func:`~analyzer.analysis.search.plans_of`
its ``base`` bot, the registry's ``default`` unless given), and plays the rest of
the turn as the chosen plan's bot. Everywhere else (the setup, defending, a search
budget of 0) it is ``base``. A plan replaces ``base``'s own turn only when the
search's paired 95% interval of its gain is above 0 (``confident``): with a few
rollouts per plan the best of seven is mostly luck, and a plan picked for luck
plays worse than the default, not better.

The budget is in rollouts, so that a seed gives the same games on any machine and
with any number of workers (a wall-clock budget would not); ``bench/bench_search_bot.py``
prints what a search of the default budget costs in seconds.

A turn's plan is kept between its decisions in a memo keyed by the game and the turn,
and a new search starts at every turn's first decision (:func:`turn_start`), so no
memo outlives its turn; the memo is not pickled with the bot.

>>> import numpy as np
>>> from analyzer.bots.registry import make_bot
>>> from analyzer.game.state import GameState
>>> from analyzer.sim.play import play_game
>>> bot = SearchBot(rollouts=2, base=make_bot("planner"))
>>> state = play_game(GameState.new(3, np.random.default_rng(1)), [bot] + [make_bot("planner")] * 2,
...                   np.random.default_rng(1), check=True)
>>> state.is_terminal()
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from analyzer.analysis.search import plans_of, suggest_turn
from analyzer.bots.base import Decision
from analyzer.bots.planner import PlannerBot
from analyzer.bots.registry import make_bot
from analyzer.errors import BotError
from analyzer.game.state import GameState
from analyzer.game.vocabulary import SETUP_PHASES, Phase

#: Rollouts per plan of each search: about 0.03 CPU s a search on one core of the reference machine
#: (``bench/bench_search_bot.py`` measures it). Twelve won 3 to 6 points more than six, paired over the same
#: deals, at each table measured (``results/bots/search_*_r12.txt``).
SEARCH_ROLLOUTS = 12


def _default_base() -> PlannerBot:
    bot = make_bot("default")
    if not isinstance(bot, PlannerBot):
        raise BotError(f"the search plays variants of a planning bot, but the default bot is {type(bot).__name__}")
    return bot


def turn_start(state: GameState) -> bool:
    """Whether ``state`` is at the first decision of its player's turn: reinforcing, nothing captured,
    traded or placed yet (the pending armies are the turn's own reinforcements).

    A trade followed by placements that bring the pending armies back to exactly the turn's own count
    passes too: the bot then searches once more, from that position.
    """
    return (
        state.phase == Phase.REINFORCE
        and not state.captured
        and not state.bonus_used
        and not state.elimination_trade
        and state.pending == state.reinforcements(state.player)
    )


@dataclass(frozen=True)
class SearchBot:
    """Searches each of its turns with ``rollouts`` rollouts per plan and plays the best plan (see the
    module docstring); ``rollouts=0`` plays exactly as ``base``. ``confident=False`` plays the plan
    with the highest win chance even when its interval includes no gain (ties go to ``base``)."""

    rollouts: int = SEARCH_ROLLOUTS
    base: PlannerBot = field(default_factory=_default_base)
    confident: bool = True
    # The plan of the turn in progress: {"key": (id(state), turn), "plan": bot}. Not part of the bot's identity.
    _memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if (
            not isinstance(self.rollouts, int)
            or isinstance(self.rollouts, bool)
            or self.rollouts < 0
            or self.rollouts == 1
        ):
            raise BotError(
                f"the search bot's rollouts must be 0 (no search) or a whole number from 2 (for an interval), got {self.rollouts!r}"
            )
        if not isinstance(self.base, PlannerBot):
            raise BotError(f"the search bot plays variants of a planning bot, got base {self.base!r}")

    def __getstate__(self) -> dict[str, Any]:
        return {"rollouts": self.rollouts, "base": self.base, "confident": self.confident}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in (state | {"_memo": {}}).items():
            object.__setattr__(self, name, value)

    def choose(self, state: GameState, rng: np.random.Generator) -> Decision:
        phase = state.phase
        if self.rollouts == 0 or phase in SETUP_PHASES or phase == Phase.DEFEND:
            return self.base.choose(state, rng)
        key = (id(state), state.turn)
        if turn_start(state) or self._memo.get("key") != key:
            self._memo.update(key=key, plan=self.plan(state, rng))
        plan: PlannerBot = self._memo["plan"]
        return plan.choose(state, rng)

    def plan(self, state: GameState, rng: np.random.Generator) -> PlannerBot:
        """The bot to play the rest of ``state``'s turn as: the search's best plan, or ``base``."""
        plans = plans_of(self.base)
        tip = suggest_turn(state, rollouts=self.rollouts, seed=int(rng.integers(2**63)), plans=plans, base=self.base)
        better = tip.gain_low > 0 if self.confident else tip.win_chance > tip.default_win_chance
        return plans[tip.plan] if better else self.base


__all__ = ["SEARCH_ROLLOUTS", "SearchBot", "turn_start"]
