"""The strategist: the planning bot, plus eliminations planned for cards and a guard against being one.

:class:`StrategistBot` is a :class:`~analyzer.bots.planner.PlannerBot` (its draft, continent plans,
attacks and fortifying stay) with four additions, computed afresh at each decision:

* **kills for cards**: for every opponent, the cheapest route from one of its stacks through all of
  that player's territories (:mod:`analyzer.bots.kills`), scored as one battle against every army on
  the way plus the garrisons, from the exact solver's win table. Its worth is the cards taken, at the
  progressive set values they trade for (the sets the rules make it trade at once from six cards, then
  ``later`` x a third of a set per card kept), the territories, and ``rival`` shared by the opponents
  left (a rival fewer matters most when few remain); less ``loss`` per army to beat. The best kill of
  odds at least ``kill_odds`` (one figure per count of players left, 2 to 6) and net worth at least
  ``kill_worth`` gets every reinforcement (and a set traded at once to make it), then its battles, one
  after the other, while their odds stay above ``go_on``; kills chain on while the armies allow.
* **the card cascade**: a set is traded at once when it makes a kill, when the strategist is exposed
  (below), or under the planner's card policy otherwise.
* **its own exposure**: the best odds any opponent has of taking all its territories this turn, from
  that opponent's biggest stack next to it plus a guess at its reinforcements (territories / 3, and
  a set if it holds three cards). Above ``exposure`` it trades any set at once (fewer cards to hand
  over, more armies) and puts its reinforcements next to that stack (one figure per count of players
  left; by default never with two, where the planner's own play holds up best).
* **caution with many players**: fights outside its plan and its kills only at the attack threshold
  raised by ``caution`` (one figure per count of players left: by default +0.3 with four left and
  +0.4 with five or six, so 0.9 and 1.0). At crowded tables, of card hunters and weaker bots or of
  planners, it measured far stronger so (``docs/bots.md``); with two or three left it fights as the
  planner does.

Every decision is compiled and shared by :meth:`StrategistBot.choose` and the compiled playout.

>>> import numpy as np
>>> from analyzer.game.state import GameState
>>> rng = np.random.default_rng(3)
>>> state = GameState.new(4, rng)
>>> type(StrategistBot().choose(state, rng)).__name__
'Claim'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from analyzer.bots import kills, planner
from analyzer.bots.base import Decision
from analyzer.bots.heuristic import ORDER, P_ATTACK, BoardData, HeuristicBot, _choose_trade
from analyzer.bots.planner import PlannerBot, _odds, knobs_at
from analyzer.errors import BotError
from analyzer.game.engine import steps as engine
from analyzer.game.engine.layout import AT_ALIVE, armies_view, owner_view
from analyzer.game.state import GameState
from analyzer.game.vocabulary import PLAYER_COUNTS
from analyzer.kernels import kernel

#: The player counts ``kill_odds`` has a figure for: every count a game may have.
PLAYERS = tuple(PLAYER_COUNTS)
#: The strategist's knobs, in the order its parameter vector holds them after the planner's:
#: (field of :class:`StrategistBot`, how many numbers it takes).
KNOBS: tuple[tuple[str, int], ...] = (
    ("kill_odds", len(PLAYERS)),
    ("go_on", 1),
    ("kill_worth", 1),
    ("later", 1),
    ("loss", 1),
    ("rival", 1),
    ("exposure", len(PLAYERS)),
    ("caution", len(PLAYERS)),
)
_AT = {name: sum(k for _, k in KNOBS[:i]) for i, (name, _) in enumerate(KNOBS)}
S_KILL_ODDS, S_GO_ON, S_KILL_WORTH, S_LATER, S_LOSS, S_RIVAL, S_EXPOSURE, S_CAUTION = (
    _AT[k] for k in ("kill_odds", "go_on", "kill_worth", "later", "loss", "rival", "exposure", "caution")
)
#: Where the heuristic's parameters with trades at every chance start, after the knobs.
S_EAGER = sum(k for _, k in KNOBS)
#: A kill is looked at only from a stack of at least this share of the least it has to beat.
HOPE = 0.8


@dataclass(frozen=True)
class StrategistBot(PlannerBot):
    """The strategist (see the module docstring); every :class:`PlannerBot` knob keeps its meaning. Its
    plans are taken from odds of 0.4 and weigh a continent's bonus over one turn (the planner's 0.5 and
    2): with ``caution`` holding it back from other fights at 4 to 6 players, it takes the plans it has."""

    plan_threshold: float = 0.4
    bonus_turns: float = 1.0

    kill_odds: tuple[float, ...] = (0.75, 0.6, 0.55, 0.5, 0.5)
    go_on: float = 0.3
    kill_worth: float = 4.0
    later: float = 0.5
    loss: float = 0.1
    rival: float = 6.0
    exposure: tuple[float, ...] = (1.0, 0.35, 0.35, 0.35, 0.35)
    caution: tuple[float, ...] = (0.0, 0.0, 0.3, 0.4, 0.4)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.draft != "ease":
            raise BotError(f"the strategist drafts by ease of holding only, got draft={self.draft!r}")
        for name in ("kill_odds", "exposure", "caution"):
            value = getattr(self, name)
            if (
                not isinstance(value, tuple)
                or len(value) != len(PLAYERS)
                or not all(isinstance(p, (int, float)) and 0 <= p <= 1 for p in value)
            ):
                raise BotError(
                    f"{name} must be {len(PLAYERS)} probabilities, one for each of {PLAYERS} players left, got {value!r}"
                )
        if not isinstance(self.go_on, (int, float)) or not 0 <= self.go_on <= 1:
            raise BotError(f"go_on must be a probability from 0 to 1, got {self.go_on!r}")
        for name in ("kill_worth", "later", "loss", "rival"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or value < 0:
                raise BotError(f"{name} must be a number >= 0, got {value!r}")

    def choose(self, state: GameState, rng: np.random.Generator) -> Decision:
        """The bot's decision, made by :func:`decide`: the same compiled code the compiled playout runs."""
        return kills.choose(self, decide, state, rng)

    def params(self, data: BoardData) -> np.ndarray:
        """The planner's parameters, the knobs of :data:`KNOBS`, then the heuristic's parameters with
        trades at every chance."""
        base = super().params(data)
        knobs = np.concatenate([np.atleast_1d(np.asarray(getattr(self, name), dtype=float)) for name, _ in KNOBS])
        heuristic = HeuristicBot(*(getattr(self, f.name) for f in dataclasses.fields(HeuristicBot)))
        eager = HeuristicBot.params(dataclasses.replace(heuristic, cards="first"), data)
        return np.concatenate([base, knobs, eager])


# ---------------------------------------------------------------------------------- compiled decisions
@kernel(inline=True)
def _left(S):  # pragma: no cover - compiled
    """Players still in the game, within :data:`PLAYERS`."""
    left = 0
    for o in range(S[engine.N_PLAYERS]):
        left += S[S[AT_ALIVE] + o]
    return min(max(left, PLAYERS[0]), PLAYERS[-1])


@kernel(inline=True)
def _kill(S, C, bp, table, extra, work):  # pragma: no cover - compiled
    """The best kill as (stack, next target, victim), ``extra`` armies still to place on the stack;
    stack -1 if none is worth it. In the attack phase (``extra`` 0) the odds need only reach ``go_on``.

    Inlined, so that the common case costs no call: a stack with under HOPE x the victim's armies
    and garrisons has no odds worth a look, and most decisions stop here, before the cards are
    counted or the win table read (a compiled call that can fail takes a reference to each array
    it is passed, an atomic pair each, at every decision)."""
    p = S[engine.PLAYER]
    n = S[engine.N_TERRITORIES]
    kills.tally(S, C, work)
    _, _, _, A, T, _ = kills.regions(n, C[engine.R_CONTINENTS])
    top = int(kills.biggest(S, C, p, work))
    hopeful = False
    for o in range(S[engine.N_PLAYERS]):
        if o != p and work[T + o] > 0:
            hopeful = hopeful or top + extra >= HOPE * kills.defenders_to_beat(C, work[A + o], work[T + o], 0.0)
    if not hopeful:
        return -1, -1, -1
    return _search_kill(S, C, bp, table, extra, top, work)


@kernel
def _search_kill(S, C, bp, table, extra, top, work):  # pragma: no cover - compiled
    """:func:`_kill` once a kill is conceivable (after :func:`analyzer.bots.kills.tally`)."""
    p = S[engine.PLAYER]
    armies = armies_view(S)
    n = S[engine.N_TERRITORIES]
    k = knobs_at(C)
    _, _, _, A, T, K = kills.regions(n, C[engine.R_CONTINENTS])
    left = _left(S)
    threshold = bp[k + S_KILL_ODDS + left - PLAYERS[0]] if extra > 0 or S[engine.RESUME_ATTACK] else bp[k + S_GO_ON]
    kills.tally_cards(S, C, work)
    # Branch and bound: the opponents in order of their best conceivable score (no cost of reaching
    # them), each searched for its route only while that bound beats the best kill found.
    best_score = bp[k + S_KILL_WORTH]
    best_victim = -1
    best_floor = 0
    tried = 0
    searched = -1  # whose routes the cost region holds
    best_stack = -1
    while True:
        candidate, bound, floor = -1, best_score, 0
        for o in range(S[engine.N_PLAYERS]):
            if o == p or work[T + o] == 0 or not S[S[AT_ALIVE] + o] or (tried >> o) & 1:
                continue
            at_least = kills.defenders_to_beat(C, work[A + o], work[T + o], 0.0)
            if top + extra < HOPE * at_least:
                continue
            worth = (
                kills.cards_worth(S, C, work[K + p], work[K + o], bp[k + S_LATER])
                + work[T + o]
                + bp[k + S_RIVAL] / (left - 1)
            )
            odds = _odds(table, top + extra, at_least)
            score = odds * worth - bp[k + S_LOSS] * at_least
            if odds >= threshold and score > bound:
                candidate, bound, floor = o, score, at_least
        if candidate < 0:
            break
        tried |= 1 << candidate
        searched = candidate
        # Routes dearer than 1.2 x the stack leave odds near 0: no search beyond.
        if kills.route_costs(S, C, candidate, p, 1.2 * (top + extra) - floor, extra, work) != 1:
            continue
        stack, cost = kills.best_stack(S, C, p, extra, work)
        if stack < 0:
            continue
        need = kills.defenders_to_beat(C, work[A + candidate], work[T + candidate], cost)
        odds = _odds(table, armies[stack] + extra, need)
        worth = (
            kills.cards_worth(S, C, work[K + p], work[K + candidate], bp[k + S_LATER])
            + work[T + candidate]
            + bp[k + S_RIVAL] / (left - 1)
        )
        score = odds * worth - bp[k + S_LOSS] * need
        if odds >= threshold and score > best_score:
            best_score, best_victim, best_floor, best_stack = score, candidate, floor, stack
    if best_victim < 0:
        return -1, -1, -1
    if searched != best_victim:
        kills.route_costs(S, C, best_victim, p, 1.2 * (top + extra) - best_floor, extra, work)
    return best_stack, kills.next_battle(S, C, best_stack, best_victim, work), best_victim


@kernel
def _exposure(S, C, table, work):  # pragma: no cover - compiled
    """(odds, where): the best odds an opponent has of taking every territory of the player to move
    this turn, from its biggest stack next to them with its reinforcements guessed, and the player's
    territory next to that stack (-1 if none borders it). Needs :func:`analyzer.bots.kills.tally`;
    ``work[:2 * forces]`` is scratch (each opponent's biggest stack next to the player, and where)."""
    p = S[engine.PLAYER]
    owner = owner_view(S)
    armies = armies_view(S)
    n = owner.shape[0]
    players = S[engine.N_PLAYERS]
    _, _, _, A, T, K = kills.regions(n, C[engine.R_CONTINENTS])
    width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
    for o in range(players):
        work[o] = 0.0
        work[players + o] = -1.0
    for u in range(n):
        if owner[u] != p:
            continue
        for j in range(width):
            w = C[nb + u * width + j]
            if w < 0:
                break
            o = owner[w]
            if o != p and o < players and armies[w] > work[o]:
                work[o] = armies[w]
                work[players + o] = u
    need = kills.defenders_to_beat(C, work[A + p], work[T + p], 0.0)
    value = kills.set_value_at(S, C, 0)
    worst, where = 0.0, -1
    for o in range(players):
        if work[o] < 2:
            continue
        coming = max(3.0, work[T + o] // 3) + (value if work[K + o] >= 3 else 0.0)
        odds = _odds(table, int(work[o] + coming), need)
        if odds > worst:
            worst, where = odds, int(work[players + o])
    return worst, where


@kernel(inline=True)
def _reinforce(S, C, bp, table, work):  # pragma: no cover - compiled
    """A kill's stack gets everything (a set traded first to make it); exposed, a set is traded at once
    and the armies go next to the biggest threat; otherwise the planner's reinforcement."""
    k = knobs_at(C)
    eager = bp[k + S_EAGER :]
    c0, c1, c2, bonus = _choose_trade(S, C, eager)
    pending = S[engine.PENDING]
    limit = bp[k + S_EXPOSURE + _left(S) - PLAYERS[0]]
    odds, where = -1.0, -1  # the exposure, once worked out: the position is the same below
    if c0 >= 0:
        trade_now = _choose_trade(S, C, bp)[0] >= 0
        if not trade_now:
            stack, _, _ = _kill(S, C, bp, table, pending + int(kills.set_value_at(S, C, 0)), work)
            trade_now = stack >= 0
        if not trade_now:
            kills.tally(S, C, work)
            kills.tally_cards(S, C, work)
            odds, where = _exposure(S, C, table, work)
            trade_now = odds > limit
        if trade_now:
            return engine.TRADE, c0, c1, c2, bonus
    stack, _, _ = _kill(S, C, bp, table, pending, work)
    if stack >= 0:
        return engine.PLACE, stack, pending, 0, 0
    if odds < 0:
        kills.tally_cards(S, C, work)
        odds, where = _exposure(S, C, table, work)
    if odds > limit and where >= 0:
        return engine.PLACE, where, pending, 0, 0
    return planner._decide_reinforce_plan(S, C, bp, table, work)


@kernel(inline=True)
def _attack(S, C, bp, table, work):  # pragma: no cover - compiled
    """A kill's next battle; else the planner's attack, its other fights at the attack threshold
    raised by ``caution`` for the count of players left."""
    stack, target, _ = _kill(S, C, bp, table, 0, work)
    if stack >= 0 and target >= 0:
        return ORDER, stack, target, 1, 0
    attack = bp[P_ATTACK] + bp[knobs_at(C) + S_CAUTION + _left(S) - PLAYERS[0]]
    return planner.decide_attack_plan_at(S, C, bp, table, attack, work)


@kernel(inline=True)
def _move_in(S, C, bp, table, work):  # pragma: no cover - compiled
    """Everything moves in, but on a kill what the victim's territories the stack would cut off need.
    Most move-ins cut off no territory of a player a kill could be aimed at: no kill is worked out."""
    owners = kills.cut_off_owners(S, C)
    if owners == 0 or not kills.within_reach(S, C, S[engine.PLAYER], owners, HOPE):
        return engine.MOVE_IN_ACTION, S[engine.MOVE_HI], 0, 0, 0
    _, _, victim = _kill(S, C, bp, table, 0, work)
    return engine.MOVE_IN_ACTION, S[engine.MOVE_HI] - kills.keep_behind(S, C, victim, work), 0, 0, 0


@kernel(inline=True)
def decide(S, C, bp, table, rng, work, setup_values):  # pragma: no cover - compiled
    """The strategist's decision as (code, a, b, c, d) (see :func:`analyzer.bots.heuristic.decode`) in
    any phase with a decision; ``work`` of :func:`analyzer.bots.kills.scratch_size`."""
    phase = S[engine.PHASE]
    if phase == engine.REINFORCE:
        return _reinforce(S, C, bp, table, work)
    if phase == engine.ATTACK:
        return _attack(S, C, bp, table, work)
    if phase == engine.MOVE_IN:
        return _move_in(S, C, bp, table, work)
    return planner.decide(S, C, bp, table, rng, work, setup_values)


#: The strategist with its default knobs.
STRATEGIST_BOT = StrategistBot()
