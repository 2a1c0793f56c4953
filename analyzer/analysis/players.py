"""Players by name: the bots' registry and the players that search with the simulator.

:data:`analyzer.bots.BOTS` may name only what the bots' layer holds, and a player that searches
with rollouts needs the simulator, a layer above it. :data:`PLAYERS` extends the bots' registry
with those players, and :func:`make_player` is :func:`~analyzer.bots.make_bot` with them, so that
the ladder (``risk-analyzer ladder --bots search,default``) and scripts name every player the
same way, while ``analyzer.bots`` imports nothing from above.

>>> make_player("search").rollouts
12
>>> make_player("default") is make_bot("default")
True
"""

from __future__ import annotations

from collections.abc import Callable

from analyzer.analysis.search_bot import SearchBot
from analyzer.bots.base import Bot
from analyzer.bots.registry import BOTS, make_bot
from analyzer.errors import BotError
from analyzer.limits import quote

#: Players that search: too slow for the full ladder, so they play it only when named.
SEARCHERS: dict[str, Callable[[], Bot]] = {
    # The turn search at a fixed budget of rollouts per turn, around the default bot (analyzer.analysis.search_bot).
    "search": SearchBot,
}
#: Every player by name: the bots' registry, then :data:`SEARCHERS`.
PLAYERS: dict[str, Callable[[], Bot]] = BOTS | SEARCHERS


def make_player(name: str) -> Bot:
    """The player called ``name``: a key of :data:`PLAYERS`, or ``module:attribute`` as for
    :func:`~analyzer.bots.make_bot`."""
    key = name.strip()
    if key in SEARCHERS:
        return SEARCHERS[key]()
    if key not in BOTS and ":" not in key:
        raise BotError(f"unknown bot {quote(name)}: expected one of {', '.join(PLAYERS)} or module:ClassName")
    return make_bot(key)


__all__ = ["PLAYERS", "SEARCHERS", "make_player"]
