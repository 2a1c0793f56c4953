"""Bots: agents that choose an action for the player who must decide.

Every bot is an object with ``choose(state, rng)`` (see :class:`Bot`); it is
only asked at decision nodes, never at chance nodes. In the attack phase it may
answer with a :class:`BattleOrder` for a whole battle.
"""

from analyzer.bots.base import BattleOrder, Bot, Decision
from analyzer.bots.heuristic import DEFAULT_BOT, HeuristicBot
from analyzer.bots.random_bot import RandomBot
from analyzer.bots.registry import BOTS, make_bot

__all__ = ["BOTS", "DEFAULT_BOT", "BattleOrder", "Bot", "Decision", "HeuristicBot", "RandomBot", "make_bot"]
