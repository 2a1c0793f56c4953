"""Bots by name, for the command line and for run parameters.

>>> make_bot("random")
RandomBot(stop_attack=0.2, trade=0.5, fortify=0.5, stack=0.5, advance=0.5)
>>> make_bot("greedy").cards
'first'
>>> make_bot("analyzer.bots:RandomBot")  # any importable class or object, as module:name
RandomBot(stop_attack=0.2, trade=0.5, fortify=0.5, stack=0.5, advance=0.5)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from analyzer.bots.base import Bot
from analyzer.bots.heuristic import CLASSIC_BOT, HeuristicBot
from analyzer.bots.hunter import HUNTER_BOT
from analyzer.bots.planner import PLANNER_BOT
from analyzer.bots.random_bot import RandomBot
from analyzer.bots.sparring import CLUSTER_BOT, PIXIE_BOT
from analyzer.bots.strategist import STRATEGIST_BOT
from analyzer.errors import BotError
from analyzer.limits import quote

#: The built-in bots. ``default`` is the strategist (:class:`~analyzer.bots.strategist.StrategistBot`), also
#: ``strategist``; ``planner`` is the planning bot it builds on, and ``classic`` (also ``heuristic``) the
#: heuristic bot with its default knobs, :data:`~analyzer.bots.heuristic.CLASSIC_BOT`, both baselines of the
#: studies; ``greedy`` and ``cautious`` are simpler members of the heuristic family.
BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    # The strongest of the family against bots it was not tuned on (docs/bots.md, results/bots/strength.txt).
    "default": lambda: STRATEGIST_BOT,
    # The heuristic bot with a whole-region attack plan, reinforcing for it, and an ease-of-holding draft.
    "planner": lambda: PLANNER_BOT,
    # The planner with kills for cards and a guard against being one (analyzer.bots.strategist).
    "strategist": lambda: STRATEGIST_BOT,
    # A sparring bot that eliminates the weakest player for their cards (analyzer.bots.hunter).
    "hunter": lambda: HUNTER_BOT,
    # Sparring bots in the styles of weaker public agents (analyzer.bots.sparring): cluster grows one connected
    # group and attacks recklessly from its border; pixie takes the continents it can hold and guards their borders.
    "cluster": lambda: CLUSTER_BOT,
    "pixie": lambda: PIXIE_BOT,
    "classic": lambda: CLASSIC_BOT,
    "heuristic": lambda: CLASSIC_BOT,
    # No continent plan: attacks any even fight, trades at once, stacks the borders by threat, never fortifies.
    "greedy": lambda: HeuristicBot(
        attack_threshold=0.5,
        card_threshold=0.5,
        continent_focus=0.0,
        eliminate=0.0,
        reinforce="ratio",
        fortify="none",
        cards="first",
    ),
    # Attacks only near-certain fights and holds its cards until forced.
    "cautious": lambda: HeuristicBot(attack_threshold=0.8, card_threshold=0.8, reinforce="ratio", cards="forced"),
}


def make_bot(name: str) -> Bot:
    """The bot called ``name``: a key of :data:`BOTS`, or ``module:attribute`` naming a bot class
    (built with no arguments) or a bot object, so that a user's own bot plugs in by name."""
    key = name.strip()
    if key in BOTS:
        return BOTS[key]()
    if ":" in key:
        module_name, _, attr = key.partition(":")
        try:
            # An empty or relative module name (":Bot", ".x:Bot") is a ValueError or TypeError of importlib's.
            obj = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError, ValueError, TypeError) as exc:
            raise BotError(
                f"bot {quote(name)}: cannot import {quote(attr)} from module {quote(module_name)} ({quote(str(exc))})"
            ) from None
        try:
            bot = obj() if isinstance(obj, type) else obj
        except TypeError as exc:
            raise BotError(f"bot {quote(name)}: cannot build it with no arguments ({quote(str(exc))})") from None
        if not isinstance(bot, Bot):
            raise BotError(f"bot {quote(name)} is not a bot: it has no choose(state, rng) method")
        return bot
    raise BotError(f"unknown bot {quote(name)}: expected one of {', '.join(BOTS)} or module:ClassName")
