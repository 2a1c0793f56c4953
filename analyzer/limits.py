"""The documented limits on sizes, checked before any allocation.

Every way in (the CLI, the app, saved games, map files, the Python API) checks a
requested size against these numbers before it allocates, and a request past a
limit gets a :class:`ValueError` subclass that names the limit. They are far
above any real game: the classic game has 42 territories and a few hundred
armies on the largest stack.

========================== ==============  =====================================================
limit                      value           what it bounds
========================== ==============  =====================================================
``MAX_ARMIES``             1,000,000       armies on one territory; attackers, defenders
``MAX_SOLVER_CELLS``       33,554,432      states one battle, chain stage or odds table solves
                                           (256 MiB of float64): ``odds 1000000000 5`` and
                                           ``odds-table --max 100000`` are refused
``MAX_TABLE_ARMIES``       2,000           ``odds-table --max``
``MAX_BLITZ_TABLE_ARMIES`` 100             ``odds-table --max`` with ``--balanced-blitz``
``MAX_CHAIN_LENGTH``       1,000           territories in one chain of battles
``MAX_DICE``               5               dice a side may roll at most
``MAX_DICE_SIDES``         100             sides of a die
``MAX_ROLL_PAIRS``         500,000         sorted attack x defence rolls enumerated for the exact
                                           roll distributions (``--sides 100`` with 3 against
                                           2 dice is refused rather than run for minutes)
``MAX_GAMES``              100,000,000     games in one simulation run or evaluation
``MAX_BATCH_SIZE``         100,000         games per batch (held in memory together)
``MAX_ROUNDS``             1,000,000       a round cap or ``turn_limit``; a saved game's round
``MAX_TURNS``              6,000,000       a saved game's player-turn count
``MAX_SETS_TRADED``        10,000          sets traded in one game
``MAX_HISTORY``            2,000,000       actions in a saved game's history
``max_workers()``          4 x CPUs        local worker processes (at least 4)
``MAX_TERRITORIES``        1,000           territories of a map
``MAX_CONTINENTS``         62              continents of a map (held as bits of an int64)
``MAX_WILD_CARDS``         100             wild cards of a map
``MAX_BONUS``              1,000           a continent's bonus; the rules' territory bonus
``MAX_JSON_BYTES``         32 MiB          a saved game, map file or ``--rules`` text
``MAX_JSON_DEPTH``         32              nesting of a saved game, map file or ``--rules``
``MAX_MESSAGE``            200             characters of user text quoted back in a message
``MAX_NAME_LENGTH``        40              a player's, territory's or continent's name
========================== ==============  =====================================================

>>> MAX_ARMIES
1000000
>>> check_limit(5, MAX_DICE, "attacker dice", ValueError)
5
>>> check_limit(10**9, MAX_ARMIES, "attackers", ValueError, "MAX_ARMIES")
Traceback (most recent call last):
...
ValueError: attackers 1000000000 is past the limit of 1000000 (analyzer.limits.MAX_ARMIES)
"""

from __future__ import annotations

import os
import reprlib

#: Armies on one territory (a saved game, an edit, an attacker or a defender).
MAX_ARMIES = 1_000_000
#: Probability cells one battle, chain stage or odds table may allocate (2**25 float64: 256 MiB).
MAX_SOLVER_CELLS = 1 << 25
#: Largest ``odds-table --max``: its three (N + 1) x (N + 1) grids stay within MAX_SOLVER_CELLS.
MAX_TABLE_ARMIES = 2_000
#: Largest odds table under Balanced Blitz, where each of its cells is a battle of its own.
MAX_BLITZ_TABLE_ARMIES = 100
#: Territories in one chain of battles.
MAX_CHAIN_LENGTH = 1_000
#: Dice one side may roll at most.
MAX_DICE = 5
#: Sides of a die.
MAX_DICE_SIDES = 100
#: Sorted attack rolls times sorted defence rolls that the exact roll distributions enumerate.
MAX_ROLL_PAIRS = 500_000
#: Games in one simulation run or evaluation.
MAX_GAMES = 100_000_000
#: Games per batch, all held in memory until the batch is tabulated.
MAX_BATCH_SIZE = 100_000
#: A round cap (``--max-rounds``), a ``turn_limit`` rule, or a saved game's round.
MAX_ROUNDS = 1_000_000
#: A saved game's player-turns (six seats per round).
MAX_TURNS = 6 * MAX_ROUNDS
#: Sets traded in one game.
MAX_SETS_TRADED = 10_000
#: Actions in a saved game's history.
MAX_HISTORY = 2_000_000
#: Territories of a map (its adjacency matrix is territories squared).
MAX_TERRITORIES = 1_000
#: Continents of a map: the engine holds a player's continents as the bits of one int64.
MAX_CONTINENTS = 62
#: Wild cards of a map.
MAX_WILD_CARDS = 100
#: A continent's bonus, and the rules' territory bonus.
MAX_BONUS = 1_000
#: Bytes of a saved game, map file or ``--rules`` text.
MAX_JSON_BYTES = 32 << 20
#: Nesting depth of a saved game, map file or ``--rules`` text (a saved game needs 4).
MAX_JSON_DEPTH = 32
#: Characters of user text kept in a message (a name, a bad value quoted back).
MAX_MESSAGE = 200
#: Characters of a player's name or other free text a user types.
MAX_NAME_LENGTH = 40


def max_workers() -> int:
    """Most local worker processes a run may start: four per CPU this process may use, at least 4."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(4, 4 * cpus)


def check_limit(value: int, limit: int, what: str, error: type[ValueError], name: str | None = None) -> int:
    """``value`` if it is at most ``limit``, else ``error`` naming ``what``, the value and the limit.

    ``name`` is the limit's name here; by default the one constant of that value, if only one has it.
    """
    if value > limit:
        if name is None:
            names = [k for k, v in globals().items() if k.startswith("MAX_") and v == limit]
            name = names[0] if len(names) == 1 else None
        where = f" (analyzer.limits.{name})" if name else ""
        # str() of a huge int is slow (and refused past 4300 digits): quote its size instead.
        shown = value if value.bit_length() < 100 else f"of about 10**{int(value.bit_length() * 0.30103)}"
        raise error(f"{what} {shown} is past the limit of {limit}{where}")
    return value


class _Repr(reprlib.Repr):
    def repr_int(self, x: int, level: int) -> str:
        # repr() of a huge int is slow, and refused past 4300 digits.
        return repr(x) if x.bit_length() < 128 else f"<a {x.bit_length()}-bit number>"


_REPR = _Repr()
_REPR.maxlevel = 3
_REPR.maxstring = _REPR.maxother = 60
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = 6


def quote(value: object) -> str:
    """A short repr of a user's value for a message: never more than :data:`MAX_MESSAGE` characters.

    >>> quote("x" * 1000)[:10], len(quote(list(range(10**5)))) < 60
    ("'xxxxxxxxx", True)
    >>> quote(10**5000)
    '<a 16610-bit number>'
    """
    text = _REPR.repr(value)
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."
