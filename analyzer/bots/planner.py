"""The planning bot: drafts for continents it can hold, and attacks and reinforces for a whole-region plan.

:class:`PlannerBot` is a :class:`~analyzer.bots.heuristic.HeuristicBot` (it
keeps every knob, and reuses the family's compiled kernels for the decisions
it does not change) that adds a plan, computed afresh from the position at
each decision (bots keep no memory):

* **the plan**: for every continent it does not hold, the stack it would
  attack from (its biggest territory bordering the continent's missing
  territories, plus the armies still to place) and the exact odds, from the
  solver's win table, of taking all of them: one battle against their armies
  plus the army left behind in each territory the stack moves on from (the
  whole-region approximation the card study's :class:`ContinentCardBot` uses,
  and a close one: see ``tests/bots/test_planner.py``, which checks it against
  :func:`analyzer.solver.chains.conquest`). Its value is the territories
  taken plus ``bonus_turns`` turns of the continent's bonus. For every
  continent an enemy holds, breaking it (its weakest territory next to the
  bot's) is worth ``break_turns`` turns of the bonus. The plan is the best
  value x odds among those with odds of at least ``plan_threshold``. (Breaking
  weighs more than completing by default: it played stronger against the
  classic bot.)
* **a kill**: taking a stack of at least ``kill_from`` armies next to one of
  those attacking stacks is worth ``kill`` per army on it (a plan of its own,
  so that big stacks meet rather than circle the board).
* **reinforcement**: every army on the plan's stack; with no plan, as the
  default bot (the source of its best attack).
* **attack**: the plan's weakest target next to its stack while the plan's
  odds hold, then the default bot's attacks (a cheap card capture, any good fight).
* **draft**: the default bot's claim rule, weighing each continent by
  ``draft_weights``: by default the board's ease of holding, 1 / (territories
  + border territories), scaled to 1 for the easiest (Australia 1, South
  America 0.83, Africa 0.56, Europe 0.45, North America 0.42, Asia 0.29),
  which ranks the continents as the fitted draft model of
  :mod:`analyzer.studies.openings` and the first-claim study do. With
  ``draft="model"`` (3 to 6 players on the classic map) it claims instead the
  territory that raises its log-odds of winning most under that draft model,
  fitted to random drafts played on by this bot (:mod:`analyzer.bots.draft_model`).
  That is not the default because it measured weaker, against classic bots
  and against ease-drafting planners (``python bench/bench_bots.py`` plays
  such matches and prints their figures with 95% intervals).

Every decision is compiled and shared by :meth:`PlannerBot.choose` and the
compiled playout (:mod:`analyzer.sim.playout`), so games are the same either way.

>>> import numpy as np
>>> from analyzer.game.state import GameState
>>> rng = np.random.default_rng(3)
>>> state = GameState.new(4, rng)
>>> type(PlannerBot().choose(state, rng)).__name__
'Claim'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from analyzer.bots.base import Decision
from analyzer.bots.draft_model import PLAYER_COUNTS, model_block
from analyzer.bots.heuristic import (
    ORDER,
    P_ATTACK,
    P_STOP,
    P_WEIGHTS,
    BoardData,
    HeuristicBot,
    _choose_trade,
    board_data,
    check_decision_phase,
    check_knobs,
    decide_attack_at,
    decide_move_in,
    decide_setup,
    decode,
    place_reinforcements,
    win_table,
    work_size,
)
from analyzer.bots.heuristic import (
    decide as heuristic_decide,
)
from analyzer.errors import BotError
from analyzer.game.board import Board
from analyzer.game.dice import DiceRules
from analyzer.game.engine import steps as engine
from analyzer.game.engine.layout import armies_view, owner_view
from analyzer.game.state import GameState
from analyzer.game.vocabulary import ATTACK, CLAIM, MOVE_IN, PLACE, REINFORCE, SETUP_CLAIM, SETUP_PLACE, TRADE
from analyzer.kernels import kernel
from analyzer.slots import slots

#: The planner's knobs, after the heuristic's parameters in :meth:`PlannerBot.params`, in order: each as
#: the name of its ``Q_*`` offset and how its value is read from the bot.
KNOBS: tuple[tuple[str, Callable[[PlannerBot], float]], ...] = (
    ("threshold", lambda bot: bot.plan_threshold),
    ("bonus_turns", lambda bot: bot.bonus_turns),
    ("break_turns", lambda bot: bot.break_turns),
    ("kill", lambda bot: bot.kill),
    ("kill_from", lambda bot: bot.kill_from),
)
#: Offsets of the planner's knobs past the heuristic's parameters, from :data:`KNOBS`.
Q = slots(name for name, _ in KNOBS)
Q_THRESHOLD, Q_BONUS_TURNS, Q_BREAK_TURNS, Q_KILL, Q_KILL_FROM = (
    Q["threshold"],
    Q["bonus_turns"],
    Q["break_turns"],
    Q["kill"],
    Q["kill_from"],
)
#: Where, past the heuristic's parameters, the draft's whole copy of them starts (with the draft's
#: continent weights), after the knobs; the draft model's block follows it.
Q_DRAFT = len(KNOBS)


@dataclass(frozen=True)
class PlannerBot(HeuristicBot):
    """The planning bot; see the module docstring. Every :class:`HeuristicBot` knob keeps its meaning."""

    plan_threshold: float = 0.5
    bonus_turns: float = 2.0
    break_turns: float = 5.0
    kill: float = 0.2
    kill_from: int = 30
    draft: str = "ease"
    draft_weights: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        check_knobs(
            self, probabilities=("plan_threshold",), non_negative=("bonus_turns", "break_turns", "kill", "kill_from")
        )
        if self.draft not in ("model", "ease"):
            raise BotError(f"draft={self.draft!r} is not one of model, ease")

    def choose(self, state: GameState, rng: np.random.Generator) -> Decision:
        """The bot's decision, made by :func:`decide`: the same compiled code the compiled playout runs."""
        check_decision_phase(self, state.phase)
        bp, table = planner_args(self, state.board, state.rules.dice)
        n = state.board.n_territories
        work = np.empty(work_size(n, len(state.board.continents)))
        return decode(decide(state.S, state.C, bp, table, rng, work, np.full(n, -1.0)))

    def params(self, data: BoardData) -> np.ndarray:
        """The heuristic's parameters, the planner's knobs (``Q_*`` past them), the heuristic's
        parameters again with the draft's continent weights, then the draft model's coefficients
        (:func:`analyzer.bots.draft_model.model_block`; its flag 0 for the ``"ease"`` draft)."""
        base = super().params(data)
        weights = self.draft_weights if self.draft_weights is not None else tuple(ease_weights(data).tolist())
        if len(weights) != len(data.continent_size):
            raise BotError(
                f"draft_weights has {len(weights)} entries; the board has {len(data.continent_size)} continents"
            )
        draft = base.copy()
        draft[P_WEIGHTS : P_WEIGHTS + len(weights)] = weights
        knobs = np.array([read(self) for _, read in KNOBS], dtype=float)
        model = model_block(data.continent_of) if self.draft == "model" else np.zeros(1)
        return np.concatenate([base, knobs, draft, model])


def ease_weights(data: BoardData) -> np.ndarray:
    """Each continent's ease of holding: 1 / (its territories + its border territories), 1 for the easiest.

    >>> from analyzer.game.board import classic_board
    >>> [round(float(w), 2) for w in ease_weights(board_data(classic_board()))]
    [0.42, 0.83, 0.45, 0.56, 0.29, 1.0]
    """
    auto = np.asarray(data.auto_weights)
    bonus = np.asarray(data.continent_bonus)
    # auto_weights is bonus / (size + borders), scaled; undo the bonus to get 1 / (size + borders).
    raw = auto / np.where(bonus > 0, bonus, 1.0)
    return raw / raw.max()


def planner_args(bot: PlannerBot, board: Board, dice: DiceRules) -> tuple[np.ndarray, np.ndarray]:
    """What :func:`decide` needs besides the state: the bot's parameter vector and its win table."""
    return _planner_args(bot, board, dice)


@lru_cache(maxsize=64)
def _planner_args(bot: PlannerBot, board: Board, dice: DiceRules) -> tuple[np.ndarray, np.ndarray]:
    bp = bot.params(board_data(board))
    bp.setflags(write=False)
    return bp, win_table(bot.stop_at, dice)


# ---------------------------------------------------------------------------------- compiled decisions
@kernel
def _plan(S, C, bp, table, extra, work):  # pragma: no cover - compiled
    """The plan as (stack, target, odds): the stack to attack from with ``extra`` more armies, the
    first territory to take (the weakest of the plan's targets next to the stack) and the odds of the
    whole plan; stack -1 if no plan reaches ``plan_threshold``.

    Only stacks that could attack are looked at (most of a player's territories hold one army), and
    only continents next to one are counted, in registers (counts kept in memory made every update
    wait on the one before). ``work[:continents]`` is scratch."""
    p = S[engine.PLAYER]
    owner = owner_view(S)
    armies = armies_view(S)
    n = owner.shape[0]
    nc = C[engine.R_CONTINENTS]
    co = C[engine.O_CONTINENT_OF]
    bonus_at = C[engine.O_CONTINENT_BONUS]
    byc, starts = C[engine.O_BY_CONTINENT], C[engine.O_CONTINENT_START]
    q = P_WEIGHTS + 3 * nc
    threshold = bp[q + Q_THRESHOLD]
    stop = bp[P_STOP]
    kill_from = bp[q + Q_KILL_FROM]
    neutral = S[engine.NEUTRAL]
    width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
    # My biggest stack next to each continent's missing territories (-1: none; of equals, the first
    # territory), among those big enough to attack: a smaller biggest stack would be passed over below.
    for c in range(nc):
        work[c] = -1.0
    for u in range(n):
        a = armies[u] + extra
        if owner[u] != p or a < 2 or a <= stop:
            continue
        for j in range(width):
            v = C[nb + u * width + j]
            if v < 0:
                break
            if owner[v] == p:
                continue
            c = C[co + v]
            s = int(work[c])
            if s < 0 or armies[u] > armies[s]:
                work[c] = u
    best = 0.0
    bs, bt, bp_win = -1, -1, 0.0
    for c in range(nc):
        s = int(work[c])
        if s < 0:
            continue
        # The territories missing, the armies on them, and the one owner of all of it (-2: none seen
        # yet, -1: several).
        missing = 0
        against = 0
        holder = -2
        for i in range(C[starts + c], C[starts + c + 1]):
            v = C[byc + i]
            o = owner[v]
            if holder == -2:
                holder = o
            elif holder != o:
                holder = -1
            if o != p:
                missing += 1
                against += armies[v]
        a = armies[s] + extra
        if a <= missing:
            # Too small to leave an army in every territory it would take.
            continue
        # The weakest target next to the stack: the battle the plan starts with.
        t0 = -1
        for j in range(width):
            v = C[nb + s * width + j]
            if v < 0:
                break
            if owner[v] != p and C[co + v] == c and (t0 < 0 or armies[v] < armies[t0]):
                t0 = v
        bonus = C[bonus_at + c]
        if holder >= 0 and holder != p and holder != neutral:
            # An enemy's continent: one capture breaks it.
            d = armies[t0]
            value = bp[q + Q_BREAK_TURNS] * bonus + 1.0
        else:
            d = against + missing - 1
            value = bp[q + Q_BONUS_TURNS] * bonus + missing
        # odds <= 1, so a value no better than the best cannot win: skip its table lookup, the
        # plan's costliest step (a load from a 0.5 MB table, mostly missing the cache).
        if value > best:
            odds = _odds(table, a, d)
            if odds >= threshold and odds * value > best:
                best = odds * value
                bs, bt, bp_win = s, t0, odds
        # Killing a stack next to mine is worth its armies: without it two big stacks can circle the
        # board taking each other's single armies, while the card sets swell both without end.
        for j in range(width):
            v = C[nb + s * width + j]
            if v < 0:
                break
            if owner[v] == p or armies[v] < kill_from:
                continue
            value = bp[q + Q_KILL] * armies[v]
            if value <= best:
                continue
            odds = _odds(table, a, armies[v])
            if odds >= threshold and odds * value > best:
                best = odds * value
                bs, bt, bp_win = s, v, odds
    return bs, bt, bp_win


@kernel(inline=True)
def _odds(table, a, d):  # pragma: no cover - compiled
    """P(win) from the table; battles beyond it scaled down, keeping their ratio (as the heuristic's)."""
    top = table.shape[0] - 1
    m = max(a, d)
    if m > top:
        a = max(int(a * (top / m)), min(a, 2))
        d = max(int(d * (top / m)), 1)
    return table[a, d]


@kernel(inline=True)
def _decide_attack_plan(S, C, bp, table, work):  # pragma: no cover - compiled
    """The plan's next battle, else the default bot's attack."""
    return decide_attack_plan_at(S, C, bp, table, bp[P_ATTACK], work)


@kernel(inline=True)
def decide_attack_plan_at(S, C, bp, table, attack, work):  # pragma: no cover - compiled
    """:func:`_decide_attack_plan` with the default bot's attacks at win probability ``attack``."""
    s, t, _ = _plan(S, C, bp, table, 0, work)
    if s >= 0:
        return ORDER, s, t, int(bp[P_STOP]), 0
    return decide_attack_at(S, C, bp, table, attack, work)


@kernel(inline=True)
def _decide_reinforce_plan(S, C, bp, table, work):  # pragma: no cover - compiled
    """Trade as the default bot does; then every army on the plan's stack, else as the default bot."""
    c0, c1, c2, bonus = _choose_trade(S, C, bp)
    if c0 >= 0:
        return TRADE, c0, c1, c2, bonus
    pending = S[engine.PENDING]
    s, _, _ = _plan(S, C, bp, table, pending, work)
    if s >= 0:
        return PLACE, s, pending, 0, 0
    return place_reinforcements(S, C, bp, table, work)


@kernel
def _claim_by_model(S, C, bp, at, rng, work):  # pragma: no cover - compiled
    """The claim that raises the claimer's log-odds of winning most under the draft model whose
    coefficients start at ``bp[at]`` (see :func:`analyzer.bots.draft_model.model_block`); a draw of
    a millionth breaks ties. ``work[:2 * continents + territories]`` is scratch."""
    p = S[engine.PLAYER]
    owner = owner_view(S)
    n = owner.shape[0]
    nc = C[engine.R_CONTINENTS]
    co = C[engine.O_CONTINENT_OF]
    width, nb = C[engine.R_WIDTH], C[engine.O_NEIGHBORS]
    length = n + nc + 2
    b = at + 1 + (S[engine.N_PLAYERS] - PLAYER_COUNTS[0]) * length
    w_enemy, w_pairs = bp[b + n + nc], bp[b + n + nc + 1]
    # In work: my territories in each continent, where each continent's terms start, and whether each
    # territory not mine borders mine (an enemy neighbour, in the model's terms).
    HELD, START, TOUCH = 0, nc, 2 * nc
    start = 0
    for c in range(nc):
        work[HELD + c] = 0.0
        work[START + c] = start
        start += int(bp[P_WEIGHTS + nc + c]) + 1
    for t in range(n):
        touch = 0.0
        if owner[t] == p:
            work[HELD + C[co + t]] += 1
        else:
            for j in range(width):
                v = C[nb + t * width + j]
                if v < 0:
                    break
                if owner[v] == p:
                    touch = 1.0
                    break
        work[TOUCH + t] = touch
    best, score = -1, -np.inf
    for t in range(n):
        if owner[t] != -1:
            continue
        c = C[co + t]
        o = b + int(work[START + c]) + int(work[HELD + c])
        pairs = 0
        fresh = 0
        for j in range(width):
            v = C[nb + t * width + j]
            if v < 0:
                break
            if owner[v] == p:
                pairs += 1
            elif work[TOUCH + v] == 0:
                fresh += 1
        # t stops being an enemy neighbour; its neighbours not yet next to mine become ones.
        value = bp[o + 1] - bp[o] + w_pairs * pairs + w_enemy * (fresh - work[TOUCH + t]) + 1e-6 * rng.random()
        if value > score:
            best, score = t, value
    return CLAIM, best, 0, 0, 0


@kernel(inline=True)
def knobs_at(C):  # pragma: no cover - compiled
    """Where the knobs of a bot built on the planner start in its parameter vector: after the planner's
    parameters, when its draft is by ease (the draft model's block then one flag)."""
    return 2 * (P_WEIGHTS + 3 * C[engine.R_CONTINENTS]) + Q_DRAFT + 1


@kernel
def decide(S, C, bp, table, rng, work, setup_values):  # pragma: no cover - compiled
    """The planner's decision as (code, a, b, c, d) (see :func:`analyzer.bots.heuristic.decode`), in any
    phase with a decision: ``setup_values`` as :func:`analyzer.bots.heuristic._decide_setup` takes them."""
    phase = S[engine.PHASE]
    nc = C[engine.R_CONTINENTS]
    if phase == SETUP_CLAIM:
        length = P_WEIGHTS + 3 * nc
        at = 2 * length + Q_DRAFT
        if bp[at] > 0 and PLAYER_COUNTS[0] <= S[engine.N_PLAYERS] <= PLAYER_COUNTS[-1]:
            return _claim_by_model(S, C, bp, at, rng, work)
        draft = bp[length + Q_DRAFT : 2 * length + Q_DRAFT]
        return decide_setup(S, C, draft, table, rng, work, setup_values)
    if phase == SETUP_PLACE:
        return decide_setup(S, C, bp, table, rng, work, setup_values)
    if phase == ATTACK:
        return _decide_attack_plan(S, C, bp, table, work)
    if phase == REINFORCE:
        return _decide_reinforce_plan(S, C, bp, table, work)
    if phase == MOVE_IN:
        return decide_move_in(S, C, bp, work)
    return heuristic_decide(S, C, bp, table, work)


#: The planning bot with its default knobs.
PLANNER_BOT = PlannerBot()
