"""The hunter: a sparring bot that eliminates the weakest player for their cards.

Written by us from a description of the strongest public Risk bot we measured against (see
``docs/bots.md``), not from its source:

1. **A victim**: each turn, the opponent with the fewest armies net of their cards (armies minus
   the next set's value x cards / 3), among those it holds more than ``victim_ratio`` (2) times the
   armies of (:func:`analyzer.bots.kills.weakest`).
2. **The cost**: the cheapest route from one of its stacks through the victim's territories, which
   must be one connected group (:func:`analyzer.bots.kills.route_costs`); the hunt is on if the
   stack plus this turn's reinforcements exceed the victim's armies plus the cost of reaching them
   (each territory taken keeps one army behind).
3. **The kill**: every reinforcement on that stack, then battle after battle along the route, the
   stack moving in whole (leaving behind what a victim's territory cut off from the route needs), while
   it holds ``go_on`` of what is left to beat. The victim's cards are taken and traded at once (the
   rules force it from six cards), and the next decision looks for the next victim: kills chain on.
4. **Otherwise it expands**: the planning bot's plays (:mod:`analyzer.bots.planner`: it grows toward
   the continent it can best take or break, stacks that plan's source, fortifies the front), with a
   set traded at every chance.
5. **Once it outnumbers everyone** (its armies above ``outnumber`` x all the others' together) it
   attacks every fight it wins with probability ``everywhere``.

Every decision is compiled and shared by :meth:`HunterBot.choose` and the compiled playout.

>>> import numpy as np
>>> from analyzer.game.state import GameState
>>> rng = np.random.default_rng(3)
>>> state = GameState.new(4, rng)
>>> type(HunterBot().choose(state, rng)).__name__
'Claim'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from analyzer.bots import kills, planner
from analyzer.bots.base import Decision
from analyzer.bots.heuristic import ORDER, BoardData, CardPolicy, HeuristicBot, _choose_trade, decide_attack
from analyzer.bots.planner import PlannerBot, knobs_at
from analyzer.errors import BotError
from analyzer.game.engine import steps as engine
from analyzer.game.engine.layout import armies_view
from analyzer.game.state import GameState
from analyzer.kernels import kernel

#: The hunter's knobs, in the order its parameter vector holds them after the planner's
#: parameters: (field of :class:`HunterBot`, what it sets).
KNOBS: tuple[tuple[str, str], ...] = (
    ("victim_ratio", "a victim is an opponent it holds more than this many times the armies of"),
    ("go_on", "a hunt goes on while the stack holds this share of the armies left to beat"),
    ("outnumber", "it attacks everywhere once its armies exceed this many times all the others' together"),
    ("everywhere", "the win probability it then attacks at"),
)
_AT = {name: i for i, (name, _) in enumerate(KNOBS)}
H_VICTIM_RATIO, H_GO_ON, H_OUTNUMBER, H_EVERYWHERE = (
    _AT[k] for k in ("victim_ratio", "go_on", "outnumber", "everywhere")
)


@dataclass(frozen=True)
class HunterBot(PlannerBot):
    """The hunter (see the module docstring); the :class:`PlannerBot` knobs set how it expands."""

    cards: CardPolicy = "first"
    victim_ratio: float = 2.0
    go_on: float = 0.8
    outnumber: float = 1.0
    everywhere: float = 0.5

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.draft != "ease":
            raise BotError(f"the hunter drafts by ease of holding only, got draft={self.draft!r}")
        for name, _ in KNOBS:
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or value < 0:
                raise BotError(f"{name} must be a number >= 0, got {value!r}")
        if self.everywhere > 1:
            raise BotError(f"everywhere must be a probability from 0 to 1, got {self.everywhere!r}")

    def choose(self, state: GameState, rng: np.random.Generator) -> Decision:
        """The bot's decision, made by :func:`decide`: the same compiled code the compiled playout runs."""
        return kills.choose(self, decide, state, rng)

    def params(self, data: BoardData) -> np.ndarray:
        """The planner's parameters, the knobs of :data:`KNOBS`, then the heuristic's parameters again
        for attacking everywhere (its attack threshold at ``everywhere``)."""
        base = super().params(data)
        heuristic = HeuristicBot(*(getattr(self, f.name) for f in dataclasses.fields(HeuristicBot)))
        bold = dataclasses.replace(
            heuristic, attack_threshold=self.everywhere, card_threshold=min(self.everywhere, self.card_threshold)
        )
        knobs = np.array([getattr(self, name) for name, _ in KNOBS], dtype=float)
        return np.concatenate([base, knobs, HeuristicBot.params(bold, data)])


# ---------------------------------------------------------------------------------- compiled decisions
@kernel
def _hunt(S, C, bp, table, extra, work):  # pragma: no cover - compiled
    """The hunt as (stack, next target, victim), with ``extra`` armies still to place on the stack;
    stack -1 if no victim, or the route costs more than the stack (with ``go_on`` of it during the
    attack, ``extra`` 0)."""
    p = S[engine.PLAYER]
    nc = C[engine.R_CONTINENTS]
    k = knobs_at(C)
    kills.tally(S, C, work)
    victim = kills.weakest(S, C, p, bp[k + H_VICTIM_RATIO], work)
    if victim < 0:
        return -1, -1, -1
    _, _, _, A, T, _ = kills.regions(S[engine.N_TERRITORIES], nc)
    share = 1.0 if extra > 0 else bp[k + H_GO_ON]
    # The most a stack could afford to spend reaching the victim: no search beyond it.
    budget = (kills.biggest(S, C, p, work) + extra) / max(share, 1e-9) - kills.defenders_to_beat(
        C, work[A + victim], work[T + victim], 0.0
    )
    if budget < 0 or kills.route_costs(S, C, victim, p, budget, extra, work) != 1:
        return -1, -1, -1
    stack, cost = kills.best_stack(S, C, p, extra, work)
    if stack < 0:
        return -1, -1, -1
    need = kills.defenders_to_beat(C, work[A + victim], work[T + victim], cost)
    armies = armies_view(S)[stack] + extra
    if armies < 2 or armies <= share * need:
        return -1, -1, -1
    return stack, kills.next_battle(S, C, stack, victim, work), victim


@kernel
def _outnumbers(S, C, bp, work):  # pragma: no cover - compiled
    """Whether the player to move holds more than ``outnumber`` x all the others' armies (after tally)."""
    p = S[engine.PLAYER]
    A = kills.region(S[engine.N_TERRITORIES], C[engine.R_CONTINENTS], kills.R_ARMIES)
    others = 0.0
    for f in range(S[engine.N_FORCES]):
        if f != p:
            others += work[A + f]
    return work[A + p] > bp[knobs_at(C) + H_OUTNUMBER] * others


@kernel
def _reinforce(S, C, bp, table, work):  # pragma: no cover - compiled
    """A set at every chance; then every army on the hunt's stack, else the planner's placement."""
    c0, c1, c2, bonus = _choose_trade(S, C, bp)
    if c0 >= 0:
        return engine.TRADE, c0, c1, c2, bonus
    pending = S[engine.PENDING]
    stack, _, _ = _hunt(S, C, bp, table, pending, work)
    if stack >= 0:
        return engine.PLACE, stack, pending, 0, 0
    return planner._decide_reinforce_plan(S, C, bp, table, work)


@kernel
def _attack(S, C, bp, table, work):  # pragma: no cover - compiled
    """The hunt's next battle; else, outnumbering everyone, any fight at ``everywhere``; else the planner's."""
    stack, target, _ = _hunt(S, C, bp, table, 0, work)
    if stack >= 0 and target >= 0:
        return ORDER, stack, target, 1, 0
    if _outnumbers(S, C, bp, work):
        start = knobs_at(C) + len(KNOBS)
        return decide_attack(S, C, bp[start:], table, work)
    return planner._decide_attack_plan(S, C, bp, table, work)


@kernel
def _move_in(S, C, bp, work):  # pragma: no cover - compiled
    """Everything moves in but what the victim's territories the stack would cut off need."""
    if kills.cut_off_owners(S, C) == 0:
        return engine.MOVE_IN_ACTION, S[engine.MOVE_HI], 0, 0, 0
    kills.tally(S, C, work)
    victim = kills.weakest(S, C, S[engine.PLAYER], bp[knobs_at(C) + H_VICTIM_RATIO], work)
    return engine.MOVE_IN_ACTION, S[engine.MOVE_HI] - kills.keep_behind(S, C, victim, work), 0, 0, 0


@kernel
def decide(S, C, bp, table, rng, work, setup_values):  # pragma: no cover - compiled
    """The hunter's decision as (code, a, b, c, d) (see :func:`analyzer.bots.heuristic.decode`) in any
    phase with a decision; ``work`` of :func:`analyzer.bots.kills.scratch_size`."""
    phase = S[engine.PHASE]
    if phase == engine.REINFORCE:
        return _reinforce(S, C, bp, table, work)
    if phase == engine.ATTACK:
        return _attack(S, C, bp, table, work)
    if phase == engine.MOVE_IN:
        return _move_in(S, C, bp, work)
    return planner.decide(S, C, bp, table, rng, work, setup_values)


#: The hunter with its default knobs.
HUNTER_BOT = HunterBot()
