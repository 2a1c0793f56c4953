"""Bots: agents that choose an action for the player who must decide.

Every bot is an object with ``choose(state, rng)`` (see :class:`Bot`); it is
only asked at decision nodes, never at chance nodes. In the attack phase it may
answer with a :class:`BattleOrder` for a whole battle.

What it offers: :func:`make_bot` and :data:`BOTS`, every built-in bot by name (``default`` is the
strategist); :class:`HeuristicBot` and :data:`CLASSIC_BOT` (:mod:`~analyzer.bots.heuristic`, the
rule-of-thumb family, compiled); the planner, the strategist and the sparring bots in their own modules
(:mod:`~analyzer.bots.planner`, :mod:`~analyzer.bots.strategist`, :mod:`~analyzer.bots.hunter`,
:mod:`~analyzer.bots.sparring`); :class:`RandomBot`, a legal random player.
"""

from analyzer.bots.base import BattleOrder, Bot, Decision
from analyzer.bots.heuristic import CLASSIC_BOT, HeuristicBot
from analyzer.bots.random_bot import RandomBot
from analyzer.bots.registry import BOTS, make_bot

__all__ = ["BOTS", "CLASSIC_BOT", "BattleOrder", "Bot", "Decision", "HeuristicBot", "RandomBot", "make_bot"]
