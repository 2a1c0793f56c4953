"""All rule options in one configuration object.

The defaults are the classic rules of the guide ``docs/rules-source/guide-en.txt``. Every
option that changes them is named below, with the classic choice first.

=====================  =================================  ==============================================
option                 classic default                    variants
=====================  =================================  ==============================================
``setup``              ``"claim"``: players claim one     ``"deal"``: the territory cards are dealt out
                       territory at a time (3-6 players)  at random. Two players always deal three piles.
``fortify``            ``"adjacent"``: one move to an     ``"connected"``: one move along a path of
                       adjacent owned territory           owned territories
``card_values``        ``"progressive"``: 4, 6, 8, 10,    ``"fixed"``: three infantry 4, three cavalry 6,
                       12, 15, then +5, counter shared    three artillery 8, one of each 10 (a wild
                       by all players                     stands in for the symbol that pays most)
``territory_bonus``    2 armies on one traded card's      any other number; 0 turns it off
                       owned territory, once a turn
``missions``           off                                secret mission cards (:mod:`analyzer.game.missions`)
``capitals``           off                                Capital Risk: each player picks a capital;
                                                          whoever holds every capital wins
``turn_limit``         none                               a number of rounds; the game then ends and the
                                                          players are ranked by territories (then armies)
``dice``               6 sides, 3 vs 2 dice, ties to      :class:`analyzer.game.dice.DiceRules`
                       the defender
``balanced_blitz``     off: a battle's outcome is what    on (Risk: Global Domination, digital edition):
                       the dice give                      a battle ends as Balanced Blitz reshapes the
                                                          dice's odds (:mod:`analyzer.solver.blitz`);
                                                          battles are then drawn whole, never rolled
                                                          die by die
=====================  =================================  ==============================================

>>> Rules().set_value(6)
20
>>> [Rules().set_value(i) for i in range(8)]
[4, 6, 8, 10, 12, 15, 20, 25]
"""

from __future__ import annotations

import itertools
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal

from analyzer.errors import BoardError, RulesError
from analyzer.game.board import Board
from analyzer.game.dice import DiceRules
from analyzer.game.vocabulary import forces, has_neutral, player_count
from analyzer.integers import is_whole
from analyzer.limits import MAX_BONUS, MAX_ROUNDS, quote

#: Starting armies per player, by number of players (the guide's table).
STARTING_ARMIES: dict[int, int] = {2: 40, 3: 35, 4: 30, 5: 25, 6: 20}
#: Armies of the neutral force in a two-player game.
NEUTRAL_ARMIES = 40
#: Values of the first six sets traded under progressive values; each later set is 5 more.
PROGRESSIVE_SET_VALUES = (4, 6, 8, 10, 12, 15)
#: Fixed set values by symbol (infantry, cavalry, artillery) and for one of each.
FIXED_SET_VALUES = (4, 6, 8)
FIXED_MIXED_SET_VALUE = 10
#: A player who starts a turn with this many cards must trade.
FORCED_TRADE_HAND = 5
#: After an elimination, a player holding this many cards trades at once down to fewer than FORCED_TRADE_HAND.
ELIMINATION_TRADE_HAND = 6

_CHOICES: dict[str, tuple[str, ...]] = {
    "setup": ("claim", "deal"),
    "fortify": ("adjacent", "connected"),
    "card_values": ("progressive", "fixed"),
}


@dataclass(frozen=True)
class Rules:
    """The rule options of one game; the defaults are the classic rules."""

    setup: Literal["claim", "deal"] = "claim"
    fortify: Literal["adjacent", "connected"] = "adjacent"
    card_values: Literal["progressive", "fixed"] = "progressive"
    territory_bonus: int = 2
    missions: bool = False
    capitals: bool = False
    turn_limit: int | None = None
    dice: DiceRules = field(default_factory=DiceRules)
    balanced_blitz: bool = False

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if not isinstance(value, str) or value not in allowed:
                raise RulesError(f"rules option {name}={quote(value)} is not one of {', '.join(allowed)}")
        if not is_whole(self.territory_bonus) or not 0 <= self.territory_bonus <= MAX_BONUS:
            raise RulesError(
                f"territory_bonus must be a whole number from 0 to {MAX_BONUS} (analyzer.limits.MAX_BONUS), "
                f"got {quote(self.territory_bonus)}"
            )
        if self.turn_limit is not None and (not is_whole(self.turn_limit) or not 1 <= self.turn_limit <= MAX_ROUNDS):
            raise RulesError(
                f"turn_limit must be None or a whole number from 1 to {MAX_ROUNDS} (analyzer.limits.MAX_ROUNDS), "
                f"got {quote(self.turn_limit)}"
            )
        # A numpy integer kept as an int, for JSON.
        object.__setattr__(self, "territory_bonus", int(self.territory_bonus))
        if self.turn_limit is not None:
            object.__setattr__(self, "turn_limit", int(self.turn_limit))
        for name in ("missions", "capitals"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false, got {quote(getattr(self, name))}")
        if self.missions and self.capitals:
            raise RulesError("missions and capitals are separate game modes; choose at most one")
        if not isinstance(self.dice, DiceRules):
            raise RulesError(f"dice must be a DiceRules, got {type(self.dice).__name__}")
        if not isinstance(self.balanced_blitz, bool):
            raise RulesError(f"balanced_blitz must be True or False, got {self.balanced_blitz!r}")

    def deals(self, n_players: int) -> bool:
        """Whether a ``n_players``-player game deals its territories out rather than having them
        claimed: under ``setup="deal"``, and in every 2-player game (the neutral force takes a pile)."""
        return self.setup == "deal" or has_neutral(n_players)

    def set_value(self, sets_traded: int, symbols: tuple[int, int, int] | None = None) -> int:
        """Armies for a set when ``sets_traded`` sets have been traded before it.

        ``symbols`` (the card symbols, 3 for a wild) matters only for fixed values.
        """
        if self.card_values == "progressive":
            if sets_traded < len(PROGRESSIVE_SET_VALUES):
                return PROGRESSIVE_SET_VALUES[sets_traded]
            return PROGRESSIVE_SET_VALUES[-1] + 5 * (sets_traded - len(PROGRESSIVE_SET_VALUES) + 1)
        if symbols is None:
            raise RulesError("fixed card values need the symbols of the set")
        return fixed_set_value(symbols)

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form of the options."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict`; unknown keys are an error."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object of rule options, got {quote(data)}")
        known = {f.name for f in fields(cls)}
        unknown = [str(k) for k in data if k not in known]
        if unknown:
            raise RulesError(
                f"unknown rules option(s): {quote(', '.join(sorted(unknown)))}; expected {', '.join(sorted(known))}"
            )
        values = dict(data)
        if isinstance(values.get("dice"), dict):
            dice_known = {f.name for f in fields(DiceRules)}
            unknown = [str(k) for k in values["dice"] if k not in dice_known]
            if unknown:
                raise RulesError(
                    f"unknown dice option(s): {quote(', '.join(sorted(unknown)))}; expected {', '.join(sorted(dice_known))}"
                )
            values["dice"] = DiceRules(**values["dice"])
        return cls(**values)


def fixed_set_value(symbols: tuple[int, int, int]) -> int:
    """Fixed value of a set, reading each wild card (symbol 3) as the symbol that pays most.

    >>> fixed_set_value((0, 0, 0)), fixed_set_value((2, 2, 3)), fixed_set_value((0, 1, 3))
    (4, 8, 10)
    """
    plain = [s for s in symbols if s != 3]
    best = 0
    for reading in itertools.product(range(3), repeat=3 - len(plain)):
        kinds = set(plain) | set(reading)
        if len(kinds) == 1:
            best = max(best, FIXED_SET_VALUES[kinds.pop()])
        elif len(kinds) == 3:
            best = max(best, FIXED_MIXED_SET_VALUE)
    return best


def starting_armies(n_players: int) -> int:
    """Starting armies for each player (the guide's table)."""
    return STARTING_ARMIES[player_count(n_players, "n_players", RulesError)]


def reinforcement_from_territories(n_territories: int) -> int:
    """Armies for holding ``n_territories``: territories // 3, at least 3.

    >>> reinforcement_from_territories(11), reinforcement_from_territories(14)
    (3, 4)
    """
    return max(3, n_territories // 3)


def check_board_for_game(board: Board, n_players: int) -> None:
    """Refuse a map on which a ``n_players``-player game cannot be set up: too few territories for
    every force to get one, or too many for the starting armies to put one army on each."""
    n_forces = forces(n_players)
    most = n_forces * min(STARTING_ARMIES[n_players], NEUTRAL_ARMIES)
    if not n_forces <= board.n_territories <= most:
        raise BoardError(
            f"map {board.name!r} has {board.n_territories} territories; a {n_players}-player game needs from "
            f"{n_forces} (one for each {'pile' if has_neutral(n_players) else 'player'}) to {most} "
            f"(one starting army on each)"
        )
