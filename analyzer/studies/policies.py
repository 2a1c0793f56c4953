"""Bots the studies need beyond the built-in family: random openings and the continent card policy.

Each changes one decision of a **population** bot (:data:`POPULATIONS`: the
classic heuristic bot, the planning bot, or the strategist; ``"default"`` is
whichever of them the bot registry calls ``default``) and leaves every other
decision to it, so a study compares that one decision and nothing else, in a
field of that population.

>>> card_policy("value:15").card_value, card_policy("continent").bot.cards
(15, 'forced')
>>> type(card_policy("first", population="planner")).__name__
'PlannerBot'
>>> card_policy("sometimes")
Traceback (most recent call last):
...
analyzer.errors.StudyError: unknown card policy 'sometimes': expected first, forced, value:X (X a whole number of armies) or continent
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from analyzer.bots.base import Decision
from analyzer.bots.heuristic import CLASSIC_BOT, HeuristicBot, board_data, win_probability
from analyzer.bots.planner import PLANNER_BOT  # noqa: F401 - the docstring examples play the planner
from analyzer.bots.registry import make_bot
from analyzer.bots.strategist import StrategistBot
from analyzer.errors import StudyError
from analyzer.game.actions import Claim, Place
from analyzer.game.dice import DiceRules
from analyzer.game.rules import FORCED_TRADE_HAND
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.studies.stats import check_count

#: The strategist as first tuned: plans from odds of 0.5, a continent's bonus valued over two turns, and no
#: caution among many players. The committed strategist results (``results/strategist_population/``) are its
#: games; the registry's ``strategist`` plays differently at every count of players.
EARLY_STRATEGIST = StrategistBot(plan_threshold=0.5, bonus_turns=2.0, caution=(0.0,) * 5)
#: The bot families a study can fill its seats with, by the registry's names: ``classic`` (the heuristic bot
#: with its default knobs, :data:`~analyzer.bots.CLASSIC_BOT`), ``planner`` (the planning bot) and ``strategist``
#: (the planner with kills for cards); and ``early_strategist`` (:data:`EARLY_STRATEGIST`), which reproduces the
#: committed strategist results. ``"default"`` is not a key: it names whichever bot the registry
#: (:data:`analyzer.bots.registry.BOTS`) calls ``default`` today (:func:`population_name`).
POPULATIONS: dict[str, HeuristicBot] = {
    **{name: make_bot(name) for name in ("classic", "planner", "strategist")},  # type: ignore[misc]
    "early_strategist": EARLY_STRATEGIST,
}
#: The name that stands for the registry's default bot.
DEFAULT = "default"


def population_name(population: str) -> str:
    """The key of :data:`POPULATIONS` that ``population`` names: itself, or for ``"default"`` the
    population whose bot is the registry's ``default`` bot, so that results are filed under the bot
    that played them, whichever bot the registry calls ``default``.

    >>> population_name(" Planner "), population_name("default") in POPULATIONS
    ('planner', True)
    """
    key = population.strip().lower() if isinstance(population, str) else None
    if key == DEFAULT:
        default = make_bot(DEFAULT)
        found = [name for name, bot in POPULATIONS.items() if bot == default]
        if not found:
            raise StudyError(
                f"the registry's default bot, {type(default).__name__}, is none of the populations {', '.join(POPULATIONS)}"
            )
        return found[0]
    if key not in POPULATIONS:
        raise StudyError(f"unknown population {population!r}: expected one of {', '.join((*POPULATIONS, DEFAULT))}")
    return key


def population_bot(population: str) -> HeuristicBot:
    """The bot of the population called ``population`` (a key of :data:`POPULATIONS`, or ``"default"``).

    >>> type(population_bot("strategist")).__name__, population_bot("classic") == CLASSIC_BOT
    ('StrategistBot', True)
    """
    return POPULATIONS[population_name(population)]


class DraftsThenPlays:
    """A study's bot that makes a claiming draft its own way, then plays exactly as its ``bot`` (a
    :class:`HeuristicBot` or :class:`PlannerBot`), which it names as :attr:`after_draft`, so that the
    simulator plays the rest of its games compiled."""

    bot: HeuristicBot

    def _check_bot(self) -> None:
        if not isinstance(self.bot, HeuristicBot):
            raise StudyError(
                f"{type(self).__name__} plays on as a HeuristicBot or PlannerBot, got {type(self.bot).__name__}"
            )

    @property
    def after_draft(self) -> HeuristicBot:
        """The bot it plays as once the claiming draft is over (see :func:`analyzer.sim.simulate.simulate`)."""
        return self.bot


@dataclass(frozen=True)
class OpeningBot(DraftsThenPlays):
    """``bot`` (by default the classic bot), except that its first ``random_claims`` claims of a claiming
    draft are uniformly random among the free territories.

    ``random_claims=1`` randomises the opening pick alone (a controlled
    experiment on the first territory claimed); ``random_claims=42`` drafts at
    random throughout, as the training drafts of Gibson, Desai & Zhao (2010).
    Once the draft is over it plays exactly as ``bot``, which it names as
    :attr:`after_draft`, so the simulator plays the rest of its games compiled.

    >>> from analyzer.game.state import GameState
    >>> rng = np.random.default_rng(0)
    >>> state = GameState.new(4, rng)
    >>> type(OpeningBot(random_claims=42).choose(state, rng)).__name__
    'Claim'
    >>> type(OpeningBot(bot=PLANNER_BOT).after_draft).__name__
    'PlannerBot'
    """

    random_claims: int = 1
    bot: HeuristicBot = CLASSIC_BOT

    def __post_init__(self) -> None:
        check_count(self.random_claims, "random_claims", 0)
        self._check_bot()

    def choose(self, state: GameState, rng: np.random.Generator) -> Decision:
        # The claims already made are on the board, so the bot needs no memory of its own.
        if state.phase == Phase.SETUP_CLAIM and np.count_nonzero(state.owner == state.player) < self.random_claims:
            free = np.flatnonzero(state.owner == -1)
            return Claim(int(free[rng.integers(len(free))]))
        return self.bot.choose(state, rng)


@dataclass(frozen=True)
class ContinentCardBot:
    """Trades a set when its armies complete or save a continent; otherwise holds until forced at 5 cards.

    At the start of its turn, holding a set it is not forced to trade, with
    ``P`` armies to place and the best set worth ``V``:

    * **complete**: for a continent it does not hold, let ``M`` be its
      territories held by others and ``s`` the bot's biggest stack bordering
      one of them. Taking ``M`` is scored as one battle of ``s`` against all
      the armies on ``M`` plus one for each territory beyond the first (the
      garrison the stack leaves as it moves on), with the exact odds of the
      battle solver. The set completes the continent if those odds reach
      ``attack_threshold`` with ``P + V`` more armies on ``s`` but not with ``P``.
    * **save**: for a continent it holds, let ``t`` be its territory most at
      risk: the one where the strongest bordering enemy stack, attacking with
      all it has, takes it with the highest probability once the bot has put
      all ``P`` armies on ``t``. The set saves the continent if that
      probability is at least ``save_below`` and the ``V`` more armies bring it
      below.

    In a turn in which it trades, it puts its armies where they save a
    continent, else where they complete one, else where ``bot`` would. Every
    other decision is ``bot``'s (by default the classic bot; its card policy
    is set to ``forced``), whose ``stop_at`` and ``attack_threshold`` it also
    reads.

    Player 0 below holds Australia, one army a territory, and 9 enemy armies
    in Siam face Indonesia: with its 5 armies there they still win 73% of the
    time, with the 4 of a set as well 38%.

    >>> from analyzer.game.board import classic_board
    >>> from analyzer.game.state import GameState
    >>> owner, armies = [1] * 38 + [0] * 4, [1] * 42
    >>> armies[classic_board().index("Siam")] = 9
    >>> state = GameState.from_position(owner, armies, n_players=2, hands={0: [0, 1, 2]})
    >>> dataclasses.replace(CLASSIC_BOT, cards="forced").choose(state, np.random.default_rng(0))
    Place(territory=38, armies=5)
    >>> bot = ContinentCardBot()
    >>> trade = bot.choose(state, np.random.default_rng(0))
    >>> trade
    Trade(cards=(0, 1, 2), bonus=None, face_down=0)
    >>> state.apply(trade)
    >>> bot.choose(state, np.random.default_rng(0))      # all 9 armies on Indonesia
    Place(territory=38, armies=9)
    """

    bot: HeuristicBot = CLASSIC_BOT
    save_below: float = 0.5

    def __post_init__(self) -> None:
        if not isinstance(self.bot, HeuristicBot):
            raise StudyError(f"a ContinentCardBot plays as a HeuristicBot or PlannerBot, got {type(self.bot).__name__}")
        if self.bot.cards != "forced":
            object.__setattr__(self, "bot", dataclasses.replace(self.bot, cards="forced"))
        if (
            isinstance(self.save_below, bool)
            or not isinstance(self.save_below, (int, float))
            or not 0 < self.save_below <= 1
        ):
            raise StudyError(f"save_below must be a probability above 0 and at most 1, got {self.save_below!r}")

    def choose(self, state: GameState, rng: np.random.Generator) -> Decision:
        if state.phase == Phase.REINFORCE and not state.resume_attack:
            p = state.player
            trades = state.legal_trades()
            forced = np.count_nonzero(state.card_loc == p) >= FORCED_TRADE_HAND
            if trades and not forced:
                best = dataclasses.replace(self.bot, cards="first")._trade(state)
                assert best is not None
                symbols = tuple(int(state.board.card_symbols[c]) for c in best.cards)
                value = state.rules.set_value(state.sets_traded, symbols)  # type: ignore[arg-type]
                pending = int(state.pending)
                if self._target(state, pending + value) is not None and self._target(state, pending) is None:
                    return best
            if not forced and any(tr.player == p and tr.turn == state.turn for tr in state.trades):
                target = self._target(state, int(state.pending))
                if target is not None:
                    return Place(target, int(state.pending))
        return self.bot.choose(state, rng)

    def _target(self, state: GameState, extra: int) -> int | None:
        """Where ``extra`` armies save a held continent, else complete another; None if they do neither."""
        saved = self._saved(state, extra)
        return saved if saved is not None else self._completed(state, extra)

    def _saved(self, state: GameState, extra: int) -> int | None:
        p = state.player
        board = state.board
        owner, armies = state.owner, state.armies
        dice = state.rules.dice
        for c in state.continents_held(p):
            worst, risk, threat = -1, 0.0, 0
            for t in board.continents[c].territories:
                enemies = [int(armies[e]) for e in board.neighbors[t] if owner[e] != p]
                biggest = max(enemies, default=0)
                if biggest < 2:
                    continue
                odds = _odds(biggest, int(armies[t]) + int(state.pending), 1, dice)
                if odds > risk:
                    worst, risk, threat = t, odds, biggest
            if (
                worst >= 0
                and risk >= self.save_below
                and _odds(threat, int(armies[worst]) + extra, 1, dice) < self.save_below
            ):
                return worst
        return None

    def _completed(self, state: GameState, extra: int) -> int | None:
        p = state.player
        data = board_data(state.board)
        owner, armies = state.owner, state.armies
        mine = owner == p
        for c in range(len(data.continent_size)):
            members = np.flatnonzero(data.continent_of == c)
            missing = members[~mine[members]]
            if len(missing) == 0:
                continue
            bordering = mine & (data.adjacency[:, missing].sum(axis=1) > 0)
            if not bordering.any():
                continue
            stack = int(np.flatnonzero(bordering)[np.argmax(armies[bordering])])
            needed = int(armies[missing].sum()) + len(missing) - 1
            if (
                _odds(int(armies[stack]) + extra, needed, self.bot.stop_at, state.rules.dice)
                >= self.bot.attack_threshold
            ):
                return stack
        return None


def _odds(attackers: int, defenders: int, stop_at: int, dice: DiceRules) -> float:
    """P(the attacker conquers), from the same exact table the default bot reads."""
    return float(win_probability(np.array([attackers]), np.array([defenders]), stop_at, dice)[0])


#: The card policies of the card-timing study, by name (``value:X`` takes any X).
CARD_POLICIES = ("first", "forced", "value:8", "value:12", "value:15", "continent")


def card_policy(name: str, population: str = "classic") -> HeuristicBot | ContinentCardBot:
    """The population's bot (:func:`population_bot`) with the card policy ``name``: ``first`` (trade at
    the first chance), ``forced`` (hold until forced at 5 cards), ``value:X`` (hold until a set is worth
    at least X armies, or forced) or ``continent`` (:class:`ContinentCardBot` over that bot).

    Every other knob is the population bot's; every population's own policy is ``value:10``. The
    strategist also trades at once, whatever its policy, for a set that makes a kill or when it is
    exposed to one (:mod:`analyzer.bots.strategist`): its policy governs the other trades.
    """
    base = population_bot(population)
    key = name.strip().lower() if isinstance(name, str) else name
    if key == "first":
        return dataclasses.replace(base, cards="first")
    if key == "forced":
        return dataclasses.replace(base, cards="forced")
    if key == "continent":
        return ContinentCardBot(bot=base)
    if isinstance(key, str) and key.startswith("value:") and key[6:].isdigit():
        return dataclasses.replace(base, cards="value", card_value=int(key[6:]))
    raise StudyError(
        f"unknown card policy {name!r}: expected first, forced, value:X (X a whole number of armies) or continent"
    )


__all__ = [
    "CARD_POLICIES",
    "DEFAULT",
    "POPULATIONS",
    "ContinentCardBot",
    "OpeningBot",
    "card_policy",
    "population_bot",
    "population_name",
]
