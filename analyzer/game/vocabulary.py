"""The game's vocabulary, defined once: phases, action codes, player counts, forces and the pseudo-players.

Every layer names these things the same way, from the compiled rule steps
(:mod:`analyzer.game.engine.steps`, which read the plain ``int`` constants) to
the app (which reads :class:`Phase`). This module imports nothing of the game
(only the package's whole-number policy, :mod:`analyzer.integers`), so the
lowest module of the game can use it.

>>> Phase(3).name, int(Phase.GAME_OVER) == GAME_OVER
('REINFORCE', True)
>>> [forces(n) for n in PLAYER_COUNTS], neutral(2), neutral(3)
([3, 3, 4, 5, 6], 2, -1)
"""

from __future__ import annotations

from enum import IntEnum

from analyzer.integers import whole_number


class Phase(IntEnum):
    """Where in the game the state is."""

    SETUP_CLAIM = 0
    SETUP_PLACE = 1
    CHOOSE_CAPITAL = 2
    REINFORCE = 3
    ATTACK = 4
    DEFEND = 5
    ROLL = 6
    MOVE_IN = 7
    FORTIFY = 8
    DRAW = 9
    GAME_OVER = 10


# The phases as plain ints, for the compiled steps (numba folds a global int into the code).
SETUP_CLAIM, SETUP_PLACE, CHOOSE_CAPITAL, REINFORCE, ATTACK, DEFEND, ROLL, MOVE_IN, FORTIFY, DRAW, GAME_OVER = map(
    int, Phase
)
#: The phases' names, by value (how a saved game spells its phase).
PHASE_NAMES: tuple[str, ...] = tuple(p.name for p in Phase)
#: The phases of the setup, before the first turn.
SETUP_PHASES: tuple[int, ...] = (SETUP_CLAIM, SETUP_PLACE, CHOOSE_CAPITAL)

# Action codes of the compiled step(): the arguments a, b, c, d of each.
CLAIM = 0  # territory
PLACE = 1  # territory, armies
CAPITAL = 2  # territory
TRADE = 3  # card, card, card, bonus territory or -1
ATTACK_ACTION = 4  # source, target, dice
DEFEND_ACTION = 5  # dice
ROLL_ACTION = 6  # attacker losses, defender losses
BATTLE = 7  # source, target, attacker left, defender left
MOVE_IN_ACTION = 8  # armies
END_ATTACK = 9
FORTIFY_ACTION = 10  # source, target, armies
END_TURN = 11
DRAW_ACTION = 12  # card

#: Where a card is when no player holds it (a held card's location is its holder's seat).
DECK, DISCARD = -1, -2

#: Whose decision it is while a chance event (dice, card draw) is pending.
CHANCE = -1
#: Whose decision it is once the game is over.
TERMINAL = -2

#: The fewest and the most players of a game (the guide's table of starting armies).
MIN_PLAYERS, MAX_PLAYERS = 2, 6
#: Every player count a game may have.
PLAYER_COUNTS = range(MIN_PLAYERS, MAX_PLAYERS + 1)
#: The player counts as a help text says them.
PLAYER_COUNT_TEXT = f"{MIN_PLAYERS} to {MAX_PLAYERS}"
#: The player count whose game adds a neutral force (the guide's rules for two players).
NEUTRAL_GAME = 2


def player_count(value: object, name: str = "n_players", error: type[ValueError] = ValueError) -> int:
    """``value`` as an int if it is a player count (:data:`PLAYER_COUNTS`), else ``error`` naming ``name``.

    Every way in that takes a number of players asks here: the command line, a study, a saved game.

    >>> player_count(4)
    4
    >>> player_count(7, "--players")
    Traceback (most recent call last):
    ...
    ValueError: --players must be a whole number from 2 to 6, got 7
    """
    return whole_number(value, name, MIN_PLAYERS, error, maximum=MAX_PLAYERS)


def has_neutral(n_players: int) -> bool:
    """Whether a ``n_players``-player game has the neutral force: its own pile of the deal, its own armies."""
    return n_players == NEUTRAL_GAME


def forces(n_players: int) -> int:
    """Armies' owners in a game: the players, and the neutral force of a 2-player game."""
    return n_players + (1 if has_neutral(n_players) else 0)


def neutral(n_players: int) -> int:
    """The neutral force's index in a ``n_players``-player game (after the players), or -1 for none."""
    return n_players if has_neutral(n_players) else -1


#: The fields of the actions (:mod:`analyzer.game.actions`) that hold territories, one or a tuple of them, by id or
#: name; every other field of an action holds whole numbers.
TERRITORY_FIELDS = ("territory", "source", "target", "bonus", "territories")
