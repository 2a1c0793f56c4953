"""Bots: agents that choose an action for the player who must decide.

Every bot is an object with ``choose(state, rng) -> Action`` (see :class:`Bot`);
it is only asked at decision nodes, never at chance nodes.
"""

from analyzer.bots.base import Bot
from analyzer.bots.random_bot import RandomBot

__all__ = ["Bot", "RandomBot"]
