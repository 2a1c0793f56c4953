"""A game review like a chess engine's: the win chances turn by turn, the turning points, and how much
of each turn's swing the dice made and how much the decisions cost.

The win chances are the evaluator's (:mod:`analyzer.analysis.evaluator`): at each position,
:data:`~analyzer.analysis.evaluator.CUT_ROLLOUTS` rollouts of the default bot cut
:data:`~analyzer.analysis.evaluator.CUT_ROUNDS` rounds on and valued there by the learned
model, on seed 0, the same figures every view shows. The dice and the decisions are measured by truncated
rollouts: a turn is played from its position, then every seat is played on by the default bot
(:data:`ROLLOUT_BOT`) up to the start of the mover's turn :data:`REVIEW_ROUNDS` rounds on, and the model values
the position reached. Rollout
``r`` of player-turn ``j`` draws every random number from three streams of its own, keyed by the seed and ``j``
(:class:`RolloutStreams`: one for the mover's turn, one for the rounds after it, one for a battle fought afresh),
whatever process plays it, so a review is the same for a seed whatever the number of workers; two sides of a
turn or a battle that end alike play on alike. Where the
model cannot value the game (another map, no model file), the rollouts play on to the game's end and count
its winner, as the evaluator's rollouts do.

For player-turn ``j`` of the recorded game, on rollout ``r``'s random numbers, to the same horizon:

* **the rollout bot's own turn** from position ``j`` (the baseline of the search,
  :data:`analyzer.analysis.search.PLANS`);
* **the turn as played, under other dice**: the turn's own decisions replayed from position ``j``
  (:func:`replay_turn`: its placements and trades, its battle orders with their observed stop
  rules, its move-ins and its fortify, skipping what became impossible), every battle and card
  drawn afresh; for a turn the rollout bot would have played itself (:func:`is_bots_own_turn`) these
  are the very games of its own turn, which serve again;
* for **each battle of the turn**, the position the battle left, and the position before it with the
  battle fought afresh (its observed stop rule, one draw from the exact solver's outcomes), each played
  on by the rollout bot from there, the rest of the turn included;
* at the **turning points** (the turns that moved some player's chance most), every plan of the
  search from position ``j``.

For the player who moved, with ``V`` the model's value of each rollout's end for that player:

* ``dice = sum over the turn's battles of mean(V[as it fell] - V[afresh])``: what each battle's dice made
  of the mover's chance against the battle's average result, the rest of the turn played alike (by the
  rollout bot) on both sides. Each term has mean 0 over the battle's dice whoever decided before and
  after it, so the dice average 0 over many turns whatever the players' play;
* ``decisions = mean(V[replayed] - V[best plan])``: the decisions against the best plan, on the same
  random numbers (paired). Away from the turning points the best plan is the rollout bot's own turn;
  at them it is the search's plan with the highest mean if its gain over the rollout bot's turn has a
  95% paired interval above 0 (else the rollout bot's turn): the pick of the best of several plans
  on the same rollouts flatters it, and asking for a clear gain keeps the noise from making mistakes up.

Each figure is the mean of the per-rollout differences less what the rollouts' battle luck explains: each
seat's armies kept beyond their battles' expectations, on both sides, whose mean is 0 whoever decided what
(a control variate fitted by least squares, as the evaluator's). The intervals are 95% intervals of that
estimate; the decisions' also hold the model's error where the rollouts stop (:func:`decision_error`, growing
with the cost). See ``docs/review.md`` for the method and how often they hold the figures of whole games.

>>> import numpy as np
>>> from analyzer.game.state import GameState
>>> from analyzer.game.actions import Place, EndAttack, EndTurn
>>> game = GameState.from_position([0] * 41 + [1], [3] * 41 + [1], n_players=2)
>>> for a in (Place("Alaska", game.pending), EndAttack(), EndTurn()):
...     game.apply(a)
>>> turns = player_turns(game)
>>> [(t.round, t.player, [type(d).__name__ for d in t.decisions]) for t in turns]
[(1, 0, ['Place', 'EndAttack', 'EndTurn'])]
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyzer.analysis.evaluator import (
    BOT_NAME,
    CUT_ROLLOUTS,
    CUT_ROUNDS,
    ROLLOUT_BOT,
    ROLLOUT_ROUNDS,
    cut_horizon,
    face_down_assumption,
    limited,
    model_for,
    play_on,
    played_to,
    prepared_for,
    truncated_chances,
    valued,
)
from analyzer.analysis.luck import battle_luck
from analyzer.analysis.search import PLANS, seats_with
from analyzer.bots.base import BattleOrder, Decision
from analyzer.bots.planner import PlannerBot
from analyzer.errors import ReviewError
from analyzer.game import face_down
from analyzer.game.actions import (
    Action,
    Battle,
    Defend,
    Draw,
    EndAttack,
    EndTurn,
    Fortify,
    MoveIn,
    Place,
    Roll,
    Trade,
    as_id,
)
from analyzer.game.engine.layout import N_FORCES
from analyzer.game.labels import PLAYER_COLORS, player_names
from analyzer.game.reader import loads
from analyzer.game.state import GameState
from analyzer.game.timeline import Entry, Turn, timeline
from analyzer.game.vocabulary import Phase
from analyzer.integers import whole_number
from analyzer.sim import playout
from analyzer.sim.backends import run_tasks
from analyzer.sim.battles import battle_means, sample_battle
from analyzer.sim.intervals import Z95, chance_table, controlled_mean_interval
from analyzer.value.model import shipped

#: Rollouts per turn, replay and plan by default (bench/bench_review.py times a 4-player game of 100
#: player-turns at this budget: 46 to 56 s on 2 workers as the machine goes, about 4 of them the win chances of its
#: positions; its decisions' intervals are 2.49 points wide each side on average over its turns, 3.08 over the 81 the
#: default bot would not have played). At 600 the same review takes 38.8 s, and the intervals fitted there are 3.3
#: points wide on those turns: beyond that, more rollouts narrow them slowly, as the model's error, which they do not
#: touch, is most of what is left.
ROLLOUTS = 900
#: A battle's rollouts on each side (as it fell, fought afresh), as a share of :data:`ROLLOUTS`: a turn has
#: several battles, and the dice part sums them, so each needs fewer for the turn's interval. The battles are
#: a large part of a review's rollouts (737 battles in bench_review.py's game); 50 a side, and the rest of the
#: budget goes to the decisions.
BATTLE_SHARE = 18
#: The fewest rollouts on each side of a battle, whatever the budget: a turn's dice part sums its battles, and
#: two or three draws a side that happen to agree give an interval of no width around a figure they cannot
#: measure (at 50 rollouts, 2 a side, a 2-player turn's dice part read -101.4 points [-109.5, -93.3], where 900
#: read -10.9 [-30.3, +8.4]).
MIN_BATTLE_ROLLOUTS = 8
#: The model's error in a decision's cost, where the rollouts stop, which the spread of the paired differences does
#: not show: one standard deviation, in win chance, of ``DECISION_ERROR`` and :data:`DECISION_ERROR_SHARE` of the
#: cost, added to the decisions' intervals. The two sides of a small cost end in like positions, which the model
#: misvalues alike; a large one's end apart, where its errors do not cancel. Fitted with the shipped model at the
#: default budget on ``bench/bench_review_cover.py``'s games seeds 0 and 1 together: the pair with the narrowest
#: intervals on average that hold the true figure for 95% of their 174 turns, counted against whole rollouts
#: (8,000 and 4,000 a side) with those rollouts' own noise (77 of 81 and 89 of 93); they hold 88 of the 90 turns
#: of game seed 2, held out (``results/bench/bench_review_cover.txt``).
DECISION_ERROR = 0.007
#: The share of a decision's cost that :data:`DECISION_ERROR` adds to, as an error of its own.
DECISION_ERROR_SHARE = 0.06
#: Rounds each rollout of the dice and the decisions plays before the model values its end, as the win chances'
#: own rollouts do (:data:`~analyzer.analysis.evaluator.CUT_ROUNDS`). At three, the model's error where they stop
#: showed beside the rollouts' noise (a constant error of 1.4 and 1.0 points fitted the two games at 700
#: rollouts, and the pair that held 95% of one game held 89% of the other); at four it fits 0.00 to 0.02 points on
#: three games, and what the intervals add for the model covers the tails of a few costly turns.
REVIEW_ROUNDS = 4
#: The streams of a review's rollout (:class:`RolloutStreams`): the mover's turn's, the later rounds', and the
#: recorded battles' fought afresh.
TURN_STREAM, LATER_STREAM, AFRESH_STREAM = 0, 1, 2
#: Turns searched with every plan (the turns that moved some player's chance most).
TURNING_POINTS = 6
_SETUP = (Phase.SETUP_CLAIM, Phase.SETUP_PLACE, Phase.CHOOSE_CAPITAL)
#: The format of :meth:`GameReview.to_text`, and the review's tables it holds.
REVIEW_FORMAT = "risk-analyzer/review 1"
_TABLES = ("turns", "chances", "summary")


# ---------------------------------------------------------------------------------- the recorded turns
@dataclass(frozen=True)
class PlayerTurn:
    """Player-turn ``index`` (from 0) of a recorded game: ``player`` moved in round ``round`` from
    ``before`` (its start) to ``after`` (the next player's start, or the game's end); ``decisions``
    are the player's decisions in order (battles as :class:`BattleOrder` with the observed stop
    rule, no chance events), ``outcomes`` gives each battle order's result at the table (the armies left
    on its source and its target; None for the other decisions); the history indices ``first`` ..
    ``last`` are the turn's actions."""

    index: int
    round: int
    player: int
    before: GameState
    after: GameState
    decisions: tuple[Decision, ...]
    outcomes: tuple[tuple[int, int] | None, ...]
    first: int
    last: int
    #: The position before each battle order of ``decisions`` (without history), in order.
    battle_starts: tuple[GameState, ...] = ()

    @property
    def battles(self) -> list[tuple[GameState, BattleOrder, tuple[int, int]]]:
        """Each battle of the turn: the position before it, its order and its result (the armies left on its
        source and target)."""
        orders = [(d, o) for d, o in zip(self.decisions, self.outcomes) if type(d) is BattleOrder and o is not None]
        return [(start, order, left) for start, (order, left) in zip(self.battle_starts, orders)]

    def battle_sides(self) -> list[tuple[str, GameState, tuple[Decision, ...]]]:
        """Both sides of each battle, to be played on from: ``"k as it fell"``, the position battle ``k`` left (no
        order to replay), and ``"k afresh"``, the position before it with its order to fight again."""
        sides: list[tuple[str, GameState, tuple[Decision, ...]]] = []
        for k, (before, order, left) in enumerate(self.battles):
            fell = before.copy()
            fell.apply_unchecked(Battle(order.source, order.target, *left))
            sides += [(f"{k} as it fell", fell, ()), (f"{k} afresh", before, (order,))]
        return sides


def player_turns(game: GameState) -> list[PlayerTurn]:
    """Every complete player-turn of ``game``'s record (:func:`~analyzer.game.timeline.timeline`; a turn still
    in progress is left out), oldest first.

    Face-down cards still face down at the end of the game are face down in every position held
    them; a card later shown is known in every position (the review knows what the game revealed).
    """
    if game.history is None:
        raise ReviewError("the game was saved without its history: there are no turns to review")
    turns: list[PlayerTurn] = []
    for t in timeline(game).turns:
        if not t.complete:
            break
        decisions, outcomes, battle_starts = _decisions(t)
        turns.append(
            PlayerTurn(
                len(turns),
                t.round,
                t.player,
                _position(t.before),
                _position(t.after),
                decisions,
                outcomes,
                t.first,
                t.last,
                battle_starts,
            )
        )
    return turns


def _position(state: GameState) -> GameState:
    # The positions are valued by rollouts, which copy them: a position without its history copies fast.
    s = state.copy()
    s.history = []
    s.labels = {}
    return s


def _decisions(
    turn: Turn,
) -> tuple[
    tuple[Decision, ...],
    tuple[tuple[int, int] | None, ...],
    tuple[GameState, ...],
]:
    """The mover's decisions in ``turn``: battles (whole, or rolled die by die: the run of rolls between
    the same two territories) as battle orders that stop where the battle stopped, chance events and the
    defender's dice left out; each battle's result (armies left on its source and target); and the
    position before each battle."""
    out: list[Decision] = []
    outcomes: list[tuple[int, int] | None] = []
    starts: list[GameState] = []
    previous: Entry | None = None
    for e in turn.entries:
        if e.kind in ("battle", "roll"):
            a = e.actions[0]
            if isinstance(a, Battle):
                left = (a.attacker_left, a.defender_left)
            else:
                # The battle's result: the position after its last roll, before any move-in entered. A move-in the
                # rules left no choice in is made with the roll: the armies on both territories were the source's.
                moved = isinstance(e.actions[-1], MoveIn)
                s = next(s for s, x in e.steps() if isinstance(x, MoveIn)) if moved else e.after
                if e.captured and not moved:
                    left = (int(s.armies[e.source]) + int(s.armies[e.target]), 0)
                else:
                    left = (int(s.armies[e.source]), 0 if e.captured else int(s.armies[e.target]))
            order = BattleOrder(e.source, e.target, 1 if e.captured else _stop(*left))
            if (
                e.kind == "roll"
                and previous is not None
                and previous.kind == "roll"
                and (previous.source, previous.target) == (e.source, e.target)
                and not previous.captured
            ):
                out[-1], outcomes[-1] = order, left  # one more roll of the same battle
            else:
                out.append(order)
                outcomes.append(left)
                starts.append(_position(e.before))
            moves: list[Action] = [a for a in e.actions if isinstance(a, MoveIn)]
        else:
            moves = [a for a in e.actions if not isinstance(a, (Draw, Roll, Defend))]
        out.extend(moves)
        outcomes.extend([None] * len(moves))
        previous = e
    return tuple(out), tuple(outcomes), tuple(starts)


def _stop(attacker_left: int, defender_left: int) -> int:
    """The observed stop rule: a battle broken off with ``attacker_left`` armies stops there; one
    decided (taken, or the attacker down to one army) was fought to the end."""
    return attacker_left if defender_left > 0 and attacker_left > 1 else 1


# ---------------------------------------------------------------------------------- replaying a turn
_RANK = {Place: 0, Trade: 0, BattleOrder: 1, EndAttack: 1, MoveIn: 1, Fortify: 2, EndTurn: 2}


def _phase_rank(phase: Phase) -> int:
    return 0 if phase == Phase.REINFORCE else 2 if phase == Phase.FORTIFY else 1


def _fit(state: GameState, d: Decision) -> Decision | None:
    """``d`` as it can be played now (a placement cut to the armies left, a move-in or fortify to
    what the rules allow), or None if it is impossible now."""
    me = state.player
    if type(d) is BattleOrder:
        s, t = d.source, d.target
        if (
            state.phase == Phase.ATTACK
            and state.owner[s] == me
            and state.owner[t] != me
            and state.board.adjacency[s, t]
            and state.armies[s] > d.stop_at
        ):
            return d
        return None
    if type(d) is Place:
        if state.phase != Phase.REINFORCE or state.pending < 1:
            return None
        d = Place(d.territory, min(d.armies, state.pending))
    elif type(d) is MoveIn:
        if state.phase != Phase.MOVE_IN:
            return None
        fewest, most = state.move_range()
        d = MoveIn(min(max(d.armies, fewest), most))
    elif type(d) is Fortify:
        if state.phase != Phase.FORTIFY:
            return None
        d = Fortify(d.source, d.target, min(d.armies, int(state.armies[as_id(d.source)]) - 1))
    return d if state.is_legal(d) else None  # type: ignore[arg-type]  # only BattleOrder is not an Action


def replay_turn(
    state: GameState,
    decisions: Sequence[Decision],
    rng: np.random.Generator,
    bot: PlannerBot = ROLLOUT_BOT,
    outcomes: Sequence[tuple[int, int] | None] | None = None,
    luck: np.ndarray | None = None,
    *,
    fresh: np.random.Generator | None = None,
    compiled: bool = False,
) -> GameState:
    """Play the turn of the player to move in ``state`` (changed in place, and returned) with ``decisions``
    under the dice of ``rng``, up to the next player's start (or the game's end).

    Each battle order is fought afresh (one draw from the exact solver's outcomes) with its stop rule,
    each card is drawn afresh. The decisions are taken in order, each as far as the position allows:
    a placement is cut to the armies left to place, a move-in or a fortify to the armies that may move;
    a decision that became impossible (a battle from a territory too small for its stop rule, a
    placement beyond the armies to place) is skipped. When the position needs a decision the record
    does not have here (armies still to place, a trade that is forced), ``bot`` makes it.

    ``outcomes`` (one entry per decision: for a battle order, the armies left on its source and target
    at the table) keeps the replay on the table's track: from the first battle that ends otherwise than
    it did at the table, the player would have planned the rest of the turn afresh, on a board the
    record never saw, and ``bot`` plays the rest of the turn. With no ``decisions`` this is ``bot``'s own
    turn. The other players' decisions (none, with battle orders) are the rollout bot's.

    ``luck`` (one value per force) gains each battle's luck: the armies each side kept beyond the battle's
    expectation (:func:`~analyzer.sim.battles.battle_means`), as the compiled playout counts it.

    ``fresh`` (by default ``rng``) draws the recorded battle orders' dice, and ``rng`` everything else. With
    ``compiled``, once no recorded decision is left the rest of the turn is played in compiled code (``bot`` in the
    mover's seat, the rollout bot in the others'): the same games on the same random numbers, without the state's
    history; a replay's rollout on bench_review.py's game costs 0.8 ms this way, 1.75 deciding in Python.
    """
    queue = list(zip(decisions, outcomes if outcomes is not None else [None] * len(decisions)))
    me, turn = state.player, state.turn
    while state.phase != Phase.GAME_OVER and state.turn == turn:
        if compiled and not queue:
            playout.play_events(state, seats_with(bot, me, state), rng, until_turn=turn + 1, luck=luck)
            break
        if state.is_chance():
            state.apply_chance(rng)
            continue
        mover = state.current_player
        decision: Decision | None = None
        went: tuple[int, int] | None = None
        if mover == me:
            decision, went = _next(state, queue)
        dice = rng if decision is None or fresh is None else fresh
        if decision is None:
            decision = (bot if mover == me else ROLLOUT_BOT).choose(state, rng)
        if type(decision) is BattleOrder:
            s, t = decision.source, decision.target
            fight = (int(state.armies[s]), int(state.armies[t]), decision.stop_at, state.rules.dice)
            a_left, d_left = sample_battle(*fight, dice, state.rules.balanced_blitz)
            if luck is not None:
                kept_a, kept_d = battle_means(*fight, state.rules.balanced_blitz)
                luck[mover] += a_left - kept_a
                luck[int(state.owner[t])] += d_left - kept_d
            # Legal by construction: the order was fitted to the position (or is the bot's).
            state.apply_unchecked(Battle(s, t, a_left, d_left))
            if went is not None and went != (a_left, d_left):
                queue.clear()  # off the table's track: the rest of the turn is the bot's
        else:
            # A recorded decision passed _fit's legality check; the bot's are the package's own.
            state.apply_unchecked(decision)  # type: ignore[arg-type]  # anything but an order is an action
    return state


def _next(
    state: GameState, queue: list[tuple[Decision, tuple[int, int] | None]]
) -> tuple[Decision | None, tuple[int, int] | None]:
    """The recorded decision to play now with its recorded outcome, or None for the bot to decide."""
    rank = _phase_rank(state.phase)
    while queue:
        d, went = queue[0]
        fitted = _fit(state, d)
        if fitted is not None:
            queue.pop(0)
            return fitted, went
        later = _RANK.get(type(d), 1) > rank
        if later and state.phase == Phase.ATTACK:
            return EndAttack(), None  # the record has stopped attacking
        if later or state.phase == Phase.MOVE_IN or (state.phase == Phase.REINFORCE and state.must_trade()):
            return None, None  # a decision the record does not have here
        queue.pop(0)  # impossible now: skipped
    return None, None


def is_bots_own_turn(turn: PlayerTurn, bot: PlannerBot = ROLLOUT_BOT) -> bool:
    """Whether replaying ``turn`` (:func:`replay_turn`) is ``bot``'s own turn from its position on every dice.

    The replay plays the recorded decisions while the battles end as they did at the table, and ``bot``
    from the first that ends otherwise. So if, at every position of the table's track, the decision the
    replay would play is the one ``bot`` chooses there, the replay and ``bot``'s own turn make the same
    moves on any dice and draw the same random numbers: their rollouts are the same games. The bot's
    decisions after the claiming draft use no random numbers, so one walk along the track decides it.
    Positions with face-down cards are never its own turn (the bot's trades may depend on the cards drawn
    for them), nor is a track where the bot battles where the record did not (that battle's end is unknown).
    """
    s = turn.before.copy()
    if s.face_down:
        return False
    s.history = []
    queue = list(zip(turn.decisions, turn.outcomes))
    me, number = s.player, s.turn
    unused = np.random.default_rng(0)  # the bot draws nothing here, but its signature takes a generator
    while s.phase != Phase.GAME_OVER and s.turn == number and not s.is_chance():
        if s.current_player != me:
            return False
        recorded, went = _next(s, queue)
        mine = bot.choose(s, unused)
        if recorded is not None and recorded != mine:
            return False
        if type(mine) is BattleOrder:
            if went is None:
                return False
            s.apply_unchecked(Battle(mine.source, mine.target, *went))
        else:
            s.apply_unchecked(mine)  # type: ignore[arg-type]  # anything but an order is an action
    return True


# ---------------------------------------------------------------------------------- rollouts
def _values(
    position: str,
    decisions: tuple[Decision, ...] | None,
    outcomes: tuple[tuple[int, int] | None, ...] | None,
    plan: str | None,
    seed: int,
    j: int,
    rollouts: int,
    horizon: int | None,
    afresh: bool = False,
) -> np.ndarray:
    """Each seat's value after each of ``rollouts`` rollouts ``(j, r)`` of the position (JSON): the mover's turn
    played by the rollout bot (``decisions`` and ``plan`` None), replayed with ``decisions``, or played by the
    search's plan ``plan``; then played on by the rollout bot up to the start of player-turn ``horizon`` and
    valued there by the model (or, with no horizon, to the game's end, valued 1 for its winner). Then each seat's
    luck in the rollout's battles, whose mean is 0: rollouts x (seats + seats). A module-level function, for
    worker processes.

    The mover's turn and the rounds after it draw from two streams of the rollout (:class:`RolloutStreams`), so
    that the rollouts ``r`` of two turns that end alike play on alike: the difference between the two sides
    of a decision or a battle then holds less of the later rounds' dice. With ``afresh`` the recorded battle
    orders draw their dice from a third: the battle fought afresh on one side and the turn that follows it on
    the other's numbers, so that the two sides of a battle that ends as it fell are the same game."""
    start = limited(GameState.from_json(position, trusted=True))
    bots = prepared_for(start)
    model = shipped() if horizon is not None else None
    n = start.n_players
    out = np.zeros((rollouts, n))
    luck = np.zeros((rollouts, int(start.S[N_FORCES])))
    ends = []
    bot = PLANS[plan] if plan is not None else ROLLOUT_BOT
    streams = RolloutStreams(seed, j)
    dealer = face_down.Dealer(start)
    for r in range(rollouts):
        rng, rest = streams(r, TURN_STREAM), streams(r, LATER_STREAM)
        fresh = streams(r, AFRESH_STREAM) if afresh else None
        s = dealer.game(rng)
        s.history = []
        replay_turn(s, decisions or (), rng, bot, outcomes, luck[r], fresh=fresh, compiled=True)
        if horizon is None:
            winner = play_on(s, rest, bots, luck[r])
            if winner >= 0:
                out[r, winner] = 1.0
        else:
            ends.append(played_to(s, rest, bots, horizon, luck[r]))
    if model is not None:
        out = valued(np.stack([s.S for s in ends]), start.C, start.board, model)
    return np.hstack([out, luck[:, :n]])


class RolloutStreams:
    """The random streams of player-turn ``j``'s rollouts in a review on ``seed``: stream ``i`` of rollout ``r``
    (:data:`TURN_STREAM`, :data:`LATER_STREAM` or :data:`AFRESH_STREAM`) is the counter-based Philox generator keyed
    by ``SeedSequence(seed, spawn_key=(j,))``, its counter started at ``(0, 0, r, i)``: streams of their own, whatever
    process plays them, as far apart as 2**128 draws. Setting a counter takes 2 microseconds, where a generator
    seeded afresh takes 12, and numba takes a generator it was handed before in far less time than a new one (about
    45 microseconds less a compiled call, two a rollout): a rollout of bench_review.py's game in 0.31 ms, not 0.40.

    ``streams(r, i)`` sets stream ``i``'s one generator at rollout ``r``'s start and returns it: a generator
    returned for one rollout must not be drawn from once the next rollout's is asked for.

    >>> streams = RolloutStreams(0, 5)
    >>> a = streams(1, TURN_STREAM).random(2)
    >>> b = streams(2, TURN_STREAM).random(2)
    >>> bool((streams(1, TURN_STREAM).random(2) == a).all()), bool((a != b).all())
    (True, True)
    """

    def __init__(self, seed: int, j: int) -> None:
        self._key = np.random.SeedSequence(seed, spawn_key=(j,)).generate_state(2, np.uint64)
        self._generators = [np.random.Generator(np.random.Philox(key=self._key)) for _ in range(3)]

    def __call__(self, r: int, i: int) -> np.random.Generator:
        generator = self._generators[i]
        generator.bit_generator.state = {
            "bit_generator": "Philox",
            "state": {"counter": np.array([0, 0, r, i], dtype=np.uint64), "key": self._key},
            "buffer": np.zeros(4, dtype=np.uint64),
            "buffer_pos": 4,
            "has_uint32": 0,
            "uinteger": 0,
        }
        return generator


def _chances(position: str) -> np.ndarray:
    """The position's (JSON) win chances as every view shows them, a row each of chances, lows and highs: the
    evaluator's truncated rollouts on seed 0, whatever the review's seed."""
    return np.stack(
        truncated_chances(GameState.from_json(position, trusted=True), CUT_ROLLOUTS, CUT_ROUNDS, 0, shipped())
    )


Task = tuple[str, int, str | None]  # (what, turn, plan)


def _task(_: None, item: tuple[Task, tuple[Any, ...]]) -> np.ndarray:
    key, args = item
    return _chances(*args) if key[0] == "chance" else _values(*args)


def _run(
    tasks: dict[Task, tuple[Any, ...]], workers: int, on_done: Callable[[], None]
) -> Iterator[tuple[Task, np.ndarray]]:
    """Each task's result as it finishes, ``on_done`` called for each first. When the reading stops (``on_done``
    raised, say), the tasks not yet started are dropped rather than played for no one."""
    with contextlib.closing(run_tasks(_task, None, list(tasks.items()), workers=workers)) as results:
        for (key, _), result in results:
            on_done()
            yield key, result


def turn_positions(game: GameState) -> list[GameState]:
    """The game at the start of each of its complete player-turns, then after the last of them: the
    positions a review (and the app's win-chance strip) values. Empty before the first turn is over."""
    turns = player_turns(game)
    return [t.before for t in turns] + [turns[-1].after] if turns else []


# ---------------------------------------------------------------------------------- the review
@dataclass(frozen=True)
class GameReview:
    """The review of a game (see the module docstring); plain tables.

    ``turns``: one row per player-turn: ``turn`` (the table's turn number, :func:`~analyzer.game.state.turn_number`:
    every player's n-th turn is turn n), ``player_turn`` (the player-turns played, from 1: its place on the
    timeline), ``player`` (seat), ``name``,
    ``before``, ``after`` and ``change`` (the mover's win chance), ``dice``, ``dice_low``, ``dice_high``,
    ``decisions``, ``decisions_low``, ``decisions_high``, ``best_plan`` (the plan the decisions are
    measured against), ``bots_own_turn`` (the record is the rollout bot's own turn, :func:`is_bots_own_turn`:
    its replays are position ``j``'s rollouts), ``searched`` (every plan tried), ``turning_point``, ``moved`` (the largest change
    of any player's chance), ``battles``, ``luck_net`` and ``luck_expected`` (the mover's armies destroyed
    less lost in the turn's battles, and its exact expectation, from the luck meter), and ``after_<seat>``
    for every seat's win chance after the turn.
    ``chances``: one row per position and seat: ``position`` (0 before the first turn, ``j`` after turn
    ``j``), ``player``, ``p_win``, ``ci_low``, ``ci_high``.
    ``summary``: one row per player: ``player``, ``name``, ``turns``, ``start`` and ``end`` (win chance),
    ``decisions_per_turn`` (mean win chance lost to decisions per turn), ``largest_mistake`` and its
    ``mistake_turn``, ``dice_total`` and ``decisions_total`` (sums over the player's turns), and
    ``dice_share`` (``sum |dice| / (sum |dice| + sum |decisions|)`` over the player's turns).
    """

    players: list[str]
    turns: pd.DataFrame
    chances: pd.DataFrame
    summary: pd.DataFrame
    rollouts: int
    seed: int
    assumed: str
    seconds: float
    #: Truncated rollouts the review played.
    played: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The review as JSON-ready values: ``players`` (names) and ``turns`` (one object per player-turn)."""
        n = len(self.players)
        turns = []
        for row in self.turns.to_dict("records"):
            turns.append(
                {
                    "turn": int(row["turn"]),
                    "player_turn": int(row["player_turn"]),
                    "player": int(row["player"]),
                    "name": row["name"],
                    "win_chances": [float(row[f"after_{p}"]) for p in range(n)],
                    "before": float(row["before"]),
                    "after": float(row["after"]),
                    "change": float(row["change"]),
                    "dice": float(row["dice"]),
                    "dice_interval": [float(row["dice_low"]), float(row["dice_high"])],
                    "decisions": float(row["decisions"]),
                    "decisions_interval": [float(row["decisions_low"]), float(row["decisions_high"])],
                    "best_plan": row["best_plan"],
                    "searched": bool(row["searched"]),
                    "turning_point": bool(row["turning_point"]),
                    "luck_net": int(row["luck_net"]),
                    "luck_expected": float(row["luck_expected"]),
                }
            )
        summary = [{k: _json_value(v) for k, v in row.items()} for row in self.summary.to_dict("records")]
        return {
            "players": list(self.players),
            "rollouts": self.rollouts,
            "seed": self.seed,
            "assumed": self.assumed,
            "turns": turns,
            "summary": summary,
        }

    def to_text(self) -> str:
        """The whole review as JSON text, each table with its columns' types and its figures to 15 significant digits,
        for :meth:`from_text` to read back: a review kept to be shown again (:meth:`to_dict` is what a reader of its
        figures needs)."""
        data: dict[str, Any] = {
            "format": REVIEW_FORMAT,
            "players": list(self.players),
            "rollouts": self.rollouts,
            "seed": self.seed,
            "assumed": self.assumed,
            "seconds": self.seconds,
            "played": self.played,
        }
        for name in _TABLES:
            data[name] = json.loads(getattr(self, name).to_json(orient="table", index=False, double_precision=15))
        return json.dumps(data)

    @classmethod
    def from_text(cls, text: str) -> GameReview:
        """The review :meth:`to_text` wrote; :class:`~analyzer.errors.ReviewError` in one line if ``text`` is not one.

        >>> review = GameReview(["Ann", "Bo"], pd.DataFrame({"turn": [1], "decisions": [-0.25]}), pd.DataFrame(),
        ...     pd.DataFrame({"name": ["Ann", "Bo"], "mistake_turn": [1, pd.NA]}), 900, 0, "", 41.5, 1200)
        >>> again = GameReview.from_text(review.to_text())
        >>> again.turns.equals(review.turns), again.summary["mistake_turn"].isna().tolist(), again.played
        (True, [False, True], 1200)
        >>> GameReview.from_text('{"format": "something else"}')
        Traceback (most recent call last):
        ...
        analyzer.errors.ReviewError: kept review is not a 'risk-analyzer/review 1' text
        """
        data = loads(text, "kept review", ReviewError)
        if not isinstance(data, dict) or data.get("format") != REVIEW_FORMAT:
            raise ReviewError(f"kept review is not a {REVIEW_FORMAT!r} text")
        try:
            turns, chances, summary = (
                pd.read_json(io.StringIO(json.dumps(data[name])), orient="table") for name in _TABLES
            )
            return cls(
                [str(name) for name in data["players"]],
                turns,
                chances,
                summary,
                int(data["rollouts"]),
                int(data["seed"]),
                str(data["assumed"]),
                float(data["seconds"]),
                int(data["played"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ReviewError(f"kept review is damaged ({type(exc).__name__}: {exc})") from None


def _json_value(value: Any) -> Any:
    """A summary value as JSON has it: numpy scalars as Python numbers, a missing value (no turn) as None."""
    if value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return None
    return value.item() if isinstance(value, np.generic) else value


def decision_error(cost: Any) -> Any:
    """The model's error (one standard deviation, in win chance) in decisions that cost ``cost`` (a figure or an
    array of them), where the review's rollouts stop: :data:`DECISION_ERROR` and :data:`DECISION_ERROR_SHARE` of
    the cost, in quadrature.

    >>> round(float(decision_error(0.0)), 4), round(float(decision_error(-0.2)), 4)
    (0.007, 0.0139)
    """
    return np.hypot(DECISION_ERROR, DECISION_ERROR_SHARE * cost)


def _mean_interval(
    diff: np.ndarray, luck: np.ndarray, error: Callable[[float], float] | None = None
) -> tuple[float, float, float]:
    """The mean of the per-rollout differences ``diff`` less what the rollouts' ``luck`` (rollouts x controls,
    mean 0) explains of it, with its 95% interval widened by a systematic error (one standard deviation) of
    ``error(mean)``."""
    mean, low, high = (float(x[0]) for x in controlled_mean_interval(diff[:, None], luck))
    half = math.hypot(float(high - low) / 2, Z95 * float(error(mean)) if error is not None else 0.0)
    return float(mean), float(mean) - half, float(mean) + half


def battle_rollouts(rollouts: int) -> int:
    """The rollouts on each side of each battle for a budget of ``rollouts`` per estimate."""
    return max(MIN_BATTLE_ROLLOUTS, rollouts // BATTLE_SHARE)


def review_game(
    game: GameState,
    *,
    rollouts: int = ROLLOUTS,
    seed: int = 0,
    workers: int = 1,
    turning_points: int = TURNING_POINTS,
    on_progress: Callable[[int, int], None] | None = None,
) -> GameReview:
    """Review every complete player-turn of ``game`` (see the module docstring).

    ``on_progress(done, total)`` is called as the rollout tasks finish, for a progress bar.
    Raises :class:`~analyzer.errors.ReviewError` for a game with no complete turn or too few rollouts.
    """
    rollouts = whole_number(rollouts, "rollouts", 2, ReviewError)  # two at least, for an interval
    workers = whole_number(workers, "workers", 1, ReviewError)
    seed = whole_number(seed, "seed", 0, ReviewError)
    started = time.perf_counter()
    turns = player_turns(game)
    if not turns:
        raise ReviewError("the game has no complete player-turn to review")
    names = player_names(game, neutral=False)
    positions = [t.before for t in turns] + [turns[-1].after]
    texts = [p.to_json(history=False) for p in positions]
    model, note = model_for(positions[0])
    # Each turn's rollouts end where the mover's turn starts REVIEW_ROUNDS rounds on, valued there by the model;
    # with no model they play to the game's end.
    horizons: list[int | None] = [cut_horizon(t.before, REVIEW_ROUNDS) if model is not None else None for t in turns]
    # Stage 1: every turn's position played on by the rollout bot, the turn replayed under other dice, and each
    # battle as it fell and fought afresh, all to the same horizon.
    tasks: dict[Task, tuple[Any, ...]] = {}
    own = {t.index for t in turns if is_bots_own_turn(t)}
    per_battle = battle_rollouts(rollouts)
    for t in turns:
        j, h = t.index, horizons[t.index]
        # A turn the rollout bot would have played itself replays as its own turn's rollouts (the same games): its
        # decisions cost nothing against that turn, and its rollouts are played only where a plan of the search is
        # set against it (stage 2), or where they count the position's chances (no model).
        if j not in own or model is None:
            tasks[("plan", j, "default")] = (texts[j], None, None, None, seed, j, rollouts, h)
        if j not in own:
            tasks[("replay", j, None)] = (texts[j], t.decisions, t.outcomes, None, seed, j, rollouts, h)
        # Each battle: the position it left, and the position before it with the battle fought afresh, each
        # played on by the rollout bot from there (the rest of the turn included) on the same random numbers.
        # Their dice fought afresh draw from a stream of their own (afresh=True), the rest as the other side's.
        for side, start, orders in t.battle_sides():
            text = start.to_json(history=False)
            tasks[("battle", j, side)] = (text, orders, None, None, seed, j, per_battle, h, True)
    if model is None:
        last = len(turns)
        tasks[("plan", last, "default")] = (texts[last], None, None, None, seed, last, rollouts, None)
    else:
        for j in range(len(positions)):
            tasks[("chance", j, None)] = (texts[j],)
    # The turning points' tasks are known once stage 1 is done: until then, as many as they can be (an own turn's
    # rollouts are among them if it is a turning point).
    searched = min(max(0, turning_points), len(turns))
    own_searched = min(searched, len(own)) if model is not None else 0
    done, total = [0], [len(tasks) + searched * (len(PLANS) - 1) + own_searched]

    def tick() -> None:
        done[0] += 1
        if on_progress is not None:
            on_progress(done[0], total[0])

    if on_progress is not None:
        on_progress(0, total[0])
    won: dict[Task, np.ndarray] = dict(_run(tasks, workers, tick))
    if model is not None:
        p_win, low, high = (np.stack([won[("chance", j, None)][k] for j in range(len(positions))]) for k in range(3))
    else:
        counted = [won[("plan", j, "default")][:, : game.n_players] for j in range(len(positions))]
        tables = [chance_table(v.sum(axis=0).astype(int).tolist(), rollouts) for v in counted]
        p_win = np.stack([t["p_win"].to_numpy() for t in tables])
        low = np.stack([t["ci_low"].to_numpy() for t in tables])
        high = np.stack([t["ci_high"].to_numpy() for t in tables])
    moved = np.abs(np.diff(p_win, axis=0)).max(axis=1)
    chosen = sorted(np.argsort(-moved, kind="stable")[: max(0, turning_points)].tolist())
    # Stage 2: the search's plans at the turning points.
    plan_tasks: dict[Task, tuple[Any, ...]] = {
        ("plan", j, name): (texts[j], None, None, name, seed, j, rollouts, horizons[j])
        for j in chosen
        for name in PLANS
        if ("plan", j, name) not in won
    }
    total[0] = len(tasks) + len(plan_tasks)
    won.update(_run(plan_tasks, workers, tick))

    luck = _luck_by_turn(game, turns)
    n = game.n_players

    def valued_for(key: Task, me: int) -> tuple[np.ndarray, np.ndarray]:
        return won[key][:, me], won[key][:, n:]  # the mover's values, every seat's luck

    rows = []
    for t in turns:
        j, me = t.index, t.player
        best, decisions = "default", (0.0, 0.0, 0.0)  # an own turn away from the turning points
        if ("plan", j, "default") in won:
            plans = {"default": valued_for(("plan", j, "default"), me)}
            replayed = plans["default"] if j in own else valued_for(("replay", j, None), me)
            if j in chosen:
                plans |= {name: valued_for(("plan", j, name), me) for name in PLANS if name != "default"}
            best = _best_plan(plans)
            # The model's error where the rollouts stop moves the two sides' values apart by more than their noise,
            # whenever the two sides are two turns: the bot's own turn against another plan too.
            decisions = _mean_interval(
                replayed[0] - plans[best][0],
                np.hstack([replayed[1], plans[best][1]]),
                decision_error if model is not None and (j not in own or best != "default") else None,
            )
        # Per rollout, the sum over the turn's battles of (as it fell - afresh): paired within each battle; the
        # luck of each side's rollouts, summed over the battles, explains part of it.
        fell = [valued_for(("battle", j, f"{k} as it fell"), me) for k in range(len(t.battle_starts))]
        fresh = [valued_for(("battle", j, f"{k} afresh"), me) for k in range(len(t.battle_starts))]
        dice = _mean_interval(
            sum((a[0] - b[0] for a, b in zip(fell, fresh)), np.zeros(per_battle)),
            sum((a[1] - b[1] for a, b in zip(fell, fresh)), np.zeros((per_battle, n))),
        )
        net, expected, battles = luck.get(j, (0, 0.0, 0))
        row = {
            "turn": t.round,
            "player_turn": j + 1,
            "player": me,
            "name": names[me],
            "before": p_win[j, me],
            "after": p_win[j + 1, me],
            "change": p_win[j + 1, me] - p_win[j, me],
            "dice": dice[0],
            "dice_low": dice[1],
            "dice_high": dice[2],
            "decisions": decisions[0],
            "decisions_low": decisions[1],
            "decisions_high": decisions[2],
            "best_plan": best,
            "bots_own_turn": j in own,
            "searched": j in chosen,
            "turning_point": j in chosen,
            "moved": moved[j],
            "battles": battles,
            "luck_net": net,
            "luck_expected": expected,
        }
        row |= {f"after_{p}": p_win[j + 1, p] for p in range(game.n_players)}
        rows.append(row)
    table = pd.DataFrame(rows)
    chances = pd.DataFrame(
        [
            {"position": j, "player": p, "p_win": p_win[j, p], "ci_low": low[j, p], "ci_high": high[j, p]}
            for j in range(len(positions))
            for p in range(game.n_players)
        ]
    )
    return GameReview(
        names,
        table,
        chances,
        _summary(table, p_win, names),
        rollouts,
        seed,
        " ".join(x for x in (assumptions(positions[-1], model is not None, names), note) if x),
        time.perf_counter() - started,
        sum(CUT_ROLLOUTS if key[0] == "chance" else len(v) for key, v in won.items()),
    )


def _best_plan(plans: dict[str, tuple[np.ndarray, np.ndarray]]) -> str:
    """The plan (name: the mover's values and every seat's luck, a row per rollout) with the highest gain
    over the rollout bot's turn on the same rollouts, if the gain's 95% paired interval lies above 0; else
    ``default``. Picking the best of several plans on the same rollouts flatters it; asking for a clear gain
    keeps that from charging a turn with a mistake the noise made up."""
    value, luck = plans["default"]
    gains = {
        name: _mean_interval(v - value, np.hstack([lk, luck])) for name, (v, lk) in plans.items() if name != "default"
    }
    best = max(gains, key=lambda name: gains[name][0], default="default")
    return best if best != "default" and gains[best][1] > 0 else "default"


def assumptions(state: GameState, model: bool = True, names: Sequence[str] | None = None) -> str:
    """What the win chances of a review assume, in words, for the game at ``state`` (its players called
    ``names``, by default those ``state`` keeps)."""
    said = face_down_assumption(state, names)
    if model:
        text = (
            f"Win chances by {CUT_ROLLOUTS} rollouts of {BOT_NAME} in every seat, each cut {CUT_ROUNDS} rounds on "
            "and valued there by the learned model. Dice and decisions: each turn (and each "
            f"battle's result, as it fell and fought afresh) played on by {BOT_NAME} in every seat to the start "
            f"of the mover's turn {REVIEW_ROUNDS} rounds on, valued there by the model."
        )
    else:
        text = (
            f"Win chances, dice and decisions: each position played on to the end by {BOT_NAME} in every seat; "
            f"a rollout still running after {ROLLOUT_ROUNDS} more rounds counts as a win for nobody."
        )
    return text + (" " + said if said else "")


def _luck_by_turn(game: GameState, turns: list[PlayerTurn]) -> dict[int, tuple[int, float, int]]:
    """Per turn: the mover's net armies in its battles, the exact expectation, and the number of battles."""
    out: dict[int, tuple[int, float, int]] = {}
    starts = [t.first for t in turns]
    for b in battle_luck(game):
        j = int(np.searchsorted(starts, b.action, side="right")) - 1
        if j < 0 or b.action > turns[j].last or b.attacker != turns[j].player:
            continue
        net, expected, n = out.get(j, (0, 0.0, 0))
        out[j] = (net + b.net, expected + b.expected_net, n + 1)
    return out


def _summary(table: pd.DataFrame, p_win: np.ndarray, names: list[str]) -> pd.DataFrame:
    rows = []
    for p, name in enumerate(names):
        mine = table[table["player"] == p]
        dice_abs, dec_abs = mine["dice"].abs().sum(), mine["decisions"].abs().sum()
        worst = mine.loc[mine["decisions"].idxmin()] if len(mine) else None
        rows.append(
            {
                "player": p,
                "name": name,
                "turns": len(mine),
                "start": p_win[0, p],
                "end": p_win[-1, p],
                "decisions_per_turn": mine["decisions"].mean() if len(mine) else math.nan,
                "largest_mistake": worst["decisions"] if worst is not None else math.nan,
                "mistake_turn": int(worst["turn"]) if worst is not None else pd.NA,
                "dice_total": mine["dice"].sum(),
                "decisions_total": mine["decisions"].sum(),
                "dice_share": dice_abs / (dice_abs + dec_abs) if dice_abs + dec_abs > 0 else math.nan,
            }
        )
    # A whole turn, or missing for a player with no turn: a column of whole numbers that may be missing, kept so in a
    # kept review's text (read back as floats, it showed "turn 3.0").
    return pd.DataFrame(rows).astype({"mistake_turn": "Int64"})


# ---------------------------------------------------------------------------------- the chart
#: The share of the chart's width a turning point's label takes ("Player 3 12" at its size, with a margin).
LABEL_SPAN = 0.1


def review_figure(review: GameReview, colors: Sequence[str] | None = None) -> Figure:
    """Each player's win chance over the player-turns with its interval, the turning points marked."""
    fig = Figure(figsize=(7, 3.2))
    ax = fig.add_subplot()
    chances = review.chances
    for p, name in enumerate(review.players):
        mine = chances[chances["player"] == p]
        color = (colors or PLAYER_COLORS)[p % len(colors or PLAYER_COLORS)]
        ax.plot(mine["position"], mine["p_win"], color=color, label=name, lw=1.6)
        ax.fill_between(mine["position"], mine["ci_low"], mine["ci_high"], color=color, alpha=0.15, lw=0)
    # A turning point's label goes up a line where it would run into the label before it on a line below.
    span = max(len(review.turns), 1)
    lines: list[float] = []  # where the last label of each line stands
    for row in review.turns[review.turns["turning_point"]].sort_values("player_turn").itertuples():
        x = row.player_turn - 0.5
        ax.axvline(x, color="#777777", lw=0.8, ls="--")
        line = next((k for k, last in enumerate(lines) if x - last > LABEL_SPAN * span), len(lines))
        lines[line : line + 1] = [x]
        ax.annotate(
            f"{row.name} {row.turn}",
            (x, 1.0),
            xytext=(0, 9 * line),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=7,
            color="#555555",
            annotation_clip=False,
        )
    ax.set_xlim(0, len(review.turns))
    ax.set_ylim(0, 1)
    # A tick where each turn starts (its first player-turn), named by the table's turn number.
    starts = review.turns.drop_duplicates("turn")
    ax.set_xticks((starts["player_turn"] - 1).tolist(), [str(t) for t in starts["turn"]])
    ax.set_xlabel("turn")
    ax.set_ylabel("win chance")
    ax.legend(fontsize=7, loc="upper left", ncols=min(4, len(review.players)))
    fig.tight_layout()
    return fig


def review_chart(review: GameReview, colors: Sequence[str] | None = None) -> Any:
    """:func:`review_figure` as an interactive Altair chart, which fits the width it is given: each player's win chance
    in percent over the player-turns with its interval, the turning points as dashed rules, and at every point a
    tooltip with the turn, the player, the chance and its interval. The app draws this one: a phone shrank the
    figure's text to a few pixels.

    >>> review = GameReview(["Ann", "Bo"], pd.DataFrame({"player_turn": [1, 2], "turn": [1, 1], "player": [0, 1],
    ...     "name": ["Ann", "Bo"], "before": [0.5, 0.6], "after": [0.6, 0.5], "turning_point": [True, False]}),
    ...     pd.DataFrame({"position": [0, 0, 1, 1, 2, 2], "player": [0, 1] * 3, "p_win": [0.5, 0.5, 0.6, 0.4, 0.5, 0.5],
    ...     "ci_low": [0.4] * 6, "ci_high": [0.7] * 6}), pd.DataFrame(), 10, 0, "", 1.0)
    >>> [layer["mark"]["type"] for layer in review_chart(review).to_dict()["layer"]]
    ['area', 'line', 'rule']
    """
    import altair as alt

    palette = list(colors or PLAYER_COLORS)
    names = list(review.players)
    turns = review.turns.sort_values("player_turn")
    # Position j is the start of player-turn j + 1, the last one the end of the last turn.
    rounds = [*turns["turn"].tolist(), int(turns["turn"].iloc[-1])] if len(turns) else [1]
    chances = review.chances
    frame = pd.DataFrame(
        {
            "position": chances["position"].to_numpy(),
            "turn": [rounds[min(int(j), len(rounds) - 1)] for j in chances["position"]],
            "player": [names[int(p)] for p in chances["player"]],
            "chance": 100 * chances["p_win"].to_numpy(),
            "low": 100 * chances["ci_low"].to_numpy(),
            "high": 100 * chances["ci_high"].to_numpy(),
        }
    )
    marked = turns[turns["turning_point"]]
    rules = pd.DataFrame(
        {
            "at": (marked["player_turn"] - 0.5).to_numpy(dtype=float),
            "turning point": [
                f"turn {t}, {name}: {100 * b:.0f}% → {100 * a:.0f}%"
                for t, name, b, a in zip(marked["turn"], marked["name"], marked["before"], marked["after"])
            ],
        }
    )
    # A tick where each turn starts (its first player-turn), named by the table's turn number.
    starts = turns.drop_duplicates("turn")
    ticks = (starts["player_turn"] - 1).tolist()
    label = f"{[str(t) for t in starts['turn']]}[indexof({ticks}, datum.value)]"
    x = alt.X(
        "position:Q",
        title="turn",
        scale=alt.Scale(domain=[0, max(len(turns), 1)], nice=False),
        axis=alt.Axis(values=ticks, labelExpr=label, labelOverlap=True, grid=False),
    )
    scale = alt.Scale(domain=names, range=palette[: len(names)])
    # At most three names a row: one row of four ran past a phone's width.
    color = alt.Color(
        "player:N", scale=scale, legend=alt.Legend(title=None, orient="bottom", columns=min(3, len(names)))
    )
    base = alt.Chart(frame).encode(x=x)
    # The legend is the lines': the bands' would show their pale fill.
    band = base.mark_area(opacity=0.15).encode(
        color=alt.Color("player:N", scale=scale, legend=None),
        y=alt.Y("low:Q", title="win chance %", scale=alt.Scale(domain=[0, 100])),
        y2="high:Q",
    )
    tooltip = [
        alt.Tooltip("turn:Q", title="turn"),
        alt.Tooltip("player:N"),
        alt.Tooltip("chance:Q", format=".0f", title="win chance %"),
        alt.Tooltip("low:Q", format=".0f", title="from"),
        alt.Tooltip("high:Q", format=".0f", title="to"),
    ]
    lines = base.mark_line(point=alt.OverlayMarkDef(filled=True, size=20)).encode(
        y="chance:Q", color=color, tooltip=tooltip
    )
    marks = (
        alt.Chart(rules)
        .mark_rule(strokeDash=[4, 3], color="#777777")
        .encode(x=alt.X("at:Q", title="turn"), tooltip=["turning point:N"])
    )
    # The height is the plot's, the axes and the legend below it (two rows on a phone) added to it, not taken from it.
    fit = alt.AutoSizeParams(type="fit-x", contains="padding")
    return alt.layer(band, lines, marks).resolve_legend(color="independent").properties(height=240, autosize=fit)


__all__ = [
    "GameReview",
    "PlayerTurn",
    "ROLLOUTS",
    "TURNING_POINTS",
    "assumptions",
    "player_turns",
    "replay_turn",
    "review_chart",
    "review_figure",
    "review_game",
    "turn_positions",
]
