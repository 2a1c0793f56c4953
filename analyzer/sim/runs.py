"""What a simulation run is: its specification, its seats' bots and each game's random generator.

Game ``i`` of a run with seed ``seed`` draws every random number (setup, dice, cards, bots' choices)
from :func:`game_rng` ``(seed, i)``, the ``i``-th child of ``SeedSequence(seed).spawn(n_games)``, so a
run's results are the same whatever the number of workers or the backend.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from analyzer.bots.base import Bot
from analyzer.bots.registry import make_bot
from analyzer.errors import BotError, SimulationError
from analyzer.game.board import Board
from analyzer.game.rules import Rules
from analyzer.sim import playout

#: The round cap a run has unless it names one: far beyond any game between the built-in bots, so only
#: a stalemate reaches it. (:data:`analyzer.limits.MAX_ROUNDS` is the largest cap a run may name.)
DEFAULT_MAX_ROUNDS = 1000
#: Games per task and checkpoint file.
BATCH_SIZE = 100
#: Games per batch when every seat runs compiled: a batch then takes about as long as 100 Python games
#: take a tenth of, and the tables are built once per batch.
COMPILED_BATCH_SIZE = 1000


@dataclass(frozen=True)
class RunSpec:
    """Everything that determines a run's results (and nothing that does not, like the workers)."""

    n_players: int
    bots: tuple[Bot, ...]
    bot_names: tuple[str, ...]
    n_games: int
    seed: int
    rules: Rules = field(default_factory=Rules)
    board: Board | None = None
    max_rounds: int = DEFAULT_MAX_ROUNDS
    sample_battles: bool = True
    record_turns: bool = False
    check: bool = False
    compiled: bool = True  # not in params(): the games are the same either way
    batch_size: int = BATCH_SIZE
    start: str | None = None  # a saved mid-game state (JSON) every game starts from, for position evaluation

    @property
    def playing_bots(self) -> tuple[Bot, ...]:
        """The bots that play each seat once the claiming draft is over."""
        return tuple(after_draft(b) for b in self.bots)

    @property
    def runs_compiled(self) -> bool:
        """Whether the games run in the compiled playout (see :func:`plays_compiled`)."""
        return plays_compiled(self.bots, self.compiled, self.check)

    @property
    def n_batches(self) -> int:
        return math.ceil(self.n_games / self.batch_size)

    def batch_games(self, batch: int) -> range:
        return range(batch * self.batch_size, min(self.n_games, (batch + 1) * self.batch_size))

    def params(self) -> dict[str, Any]:
        """Plain-JSON form, recorded in a checkpoint so that a rerun can tell whether it is the same run."""
        return {
            "n_players": self.n_players,
            "bots": [_bot_id(b) for b in self.bots],
            "bot_names": list(self.bot_names),
            "n_games": self.n_games,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "board": None if self.board is None else self.board.to_dict(),
            "max_rounds": self.max_rounds,
            "sample_battles": self.sample_battles,
            "record_turns": self.record_turns,
            "check": self.check,
            "batch_size": self.batch_size,
            "start": self.start,
        }


def trusted_bot(bot: Bot) -> bool:
    """Whether ``bot`` is one of the package's own bots (``analyzer.bots``, and the studies' in
    ``analyzer.studies``), whose actions may skip the engine's checks.

    Any other bot (``module:Class`` from the command line, an object passed in) plays through the
    checked path, so that an illegal action is an error naming it rather than a corrupt game.
    """
    return type(bot).__module__.startswith(("analyzer.bots.", "analyzer.studies."))


def after_draft(bot: Bot) -> Bot:
    """The bot ``bot`` plays as once a claiming draft is over: the bot its ``after_draft`` attribute
    names, if it has one, else itself.

    >>> from analyzer.studies.policies import OpeningBot
    >>> after_draft(OpeningBot()) == make_bot("classic"), after_draft(make_bot("random")) == make_bot("random")
    (True, True)
    """
    later = getattr(bot, "after_draft", None)
    return later if isinstance(later, Bot) else bot


def plays_compiled(bots: Sequence[Bot], compiled: bool, check: bool) -> bool:
    """Whether games of ``bots`` run in the compiled playout: asked for, unchecked, and every seat, once
    any claiming draft is over, a bot the playout compiles."""
    return compiled and not check and playout.compiled([after_draft(b) for b in bots])


def _bot_id(bot: Bot) -> str:
    """A dataclass bot's repr names its parameters; other objects' reprs hold a memory address."""
    if dataclasses.is_dataclass(bot):
        return repr(bot)
    return f"{type(bot).__module__}.{type(bot).__qualname__}"


def game_rng(seed: int, game: int) -> np.random.Generator:
    """The generator of game ``game``: child ``game`` of ``SeedSequence(seed)``.

    >>> a = game_rng(5, 3).random()
    >>> b = np.random.default_rng(np.random.SeedSequence(5).spawn(4)[3]).random()
    >>> a == b
    True
    """
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(game,)))


class Reused:
    """One generator for many short games, set to another generator's start for each: the same numbers, and
    numba takes a generator it was handed before in far less time than a new one (about 45 microseconds less a
    compiled call), which counts in rollouts of a fraction of a millisecond.

    >>> reused = Reused()
    >>> a = reused.at(game_rng(5, 3)).random(2)
    >>> b = reused.at(game_rng(5, 4)).random(2)
    >>> bool((a == game_rng(5, 3).random(2)).all()), bool((b == game_rng(5, 4).random(2)).all())
    (True, True)
    """

    def __init__(self) -> None:
        self._generator = np.random.Generator(np.random.PCG64())

    def at(self, start: np.random.Generator) -> np.random.Generator:
        """The one generator, set to where ``start`` (a PCG64 generator) stands."""
        self._generator.bit_generator.state = start.bit_generator.state
        return self._generator


def resolve_bots(bots: Sequence[Bot | str], n_players: int) -> tuple[tuple[Bot, ...], tuple[str, ...]]:
    """Bot objects and names for each seat, from names (see :func:`analyzer.bots.make_bot`) or objects.

    A string is a comma-separated list, or one name for every seat.
    """
    if isinstance(bots, str):
        bots = bots.split(",") if "," in bots else [bots] * n_players
    if not isinstance(bots, Sequence):
        raise SimulationError(
            f"bots must be names ('default,classic,random', or one for every seat) or one bot per seat, "
            f"got {type(bots).__name__}"
        )
    if len(bots) != n_players:
        raise SimulationError(
            f"{n_players} players need {n_players} bots, one per seat; got {len(bots)}: {list(bots)!r}"
        )
    objects, names = [], []
    for b in bots:
        if isinstance(b, str):
            objects.append(make_bot(b))
            names.append(b.strip())
        else:
            if not isinstance(b, Bot):
                raise BotError(f"{b!r} is not a bot: it has no choose(state, rng) method")
            objects.append(b)
            names.append(type(b).__name__)
    return tuple(objects), tuple(names)
