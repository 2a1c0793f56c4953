"""A search over whole-turn plans for a given position, scored by rollouts of the compiled playout.

:func:`suggest_turn` plays the player's turn from ``state`` with each of a
few whole-turn plans (:data:`PLANS`: the default bot's own turn, and variants
of it that attack more or less boldly, chase or ignore continents, or sit the
turn out), then one round more in compiled code with the base bot (the default bot unless told) in
every seat, and values the position reached with the learned model (the evaluator's,
:mod:`analyzer.analysis.evaluator`); where the model cannot value the game, or for another base bot,
the rollouts play to the end and count the player's wins. Every plan is played on the same
random numbers (rollout ``k`` draws from ``game_rng(seed, k)`` for every
plan), so the differences between plans are sharper than their win chances.
It returns the best plan with its win chance and its gain over the base
bot's own turn ("doing nothing special"), with a 95% paired interval, and the
turn as that plan played it on the first rollout's dice, both as the player's
decisions (battle orders with their stop rule) and as the engine's actions.
The best of several plans on the same rollouts is picked for its high score, so
its gain is optimistic by the choice: more rollouts shrink both. Cards held
face down (:attr:`GameState.face_down`) are drawn afresh in every rollout
but the first, the same draw for every plan; the first plays the position's
own placeholders, so that the turn it shows can be played from the position.

>>> import numpy as np
>>> from analyzer.game.state import GameState
>>> state = GameState.new(3, np.random.default_rng(2))
>>> s = state.copy()
>>> _ = play_setup(s, np.random.default_rng(2))
>>> tip = suggest_turn(s, rollouts=4, seed=1)
>>> tip.table.columns.tolist()
['plan', 'rollouts', 'win_chance', 'gain', 'gain_low', 'gain_high']
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from analyzer.analysis.evaluator import ROLLOUT_BOT, limited, model_for
from analyzer.bots.base import BattleOrder, Decision
from analyzer.bots.planner import PLANNER_BOT, PlannerBot
from analyzer.errors import BotError
from analyzer.game import face_down
from analyzer.game.actions import Action, Battle, EndAttack, EndTurn, Fortify, MoveIn, Place, Trade
from analyzer.game.board import Board
from analyzer.game.dice import DiceRules
from analyzer.game.labels import card_label
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.sim import playout
from analyzer.sim.battles import resolve_order
from analyzer.sim.runs import Reused, game_rng
from analyzer.value.model import ValueModel

#: The variants of the default bot's turn that the search tries, by name: each changes a few of the
#: bot's knobs (:func:`plans_of` applies them to any planning bot).
VARIANTS: dict[str, dict[str, float]] = {
    "bold: attack any fight at 50%": {"attack_threshold": 0.5, "card_threshold": 0.4, "plan_threshold": 0.35},
    "careful: only near-certain fights": {"attack_threshold": 0.8, "card_threshold": 0.6, "plan_threshold": 0.75},
    "break enemy continents first": {"break_turns": 15.0},
    "complete a continent first": {"bonus_turns": 6.0, "break_turns": 1.0},
    "stop each battle at 3 armies": {"stop_at": 3},
    "card only: one sure capture, then stop": {"attack_threshold": 1.0, "plan_threshold": 1.0, "card_threshold": 0.7},
}


def plans_of(base: PlannerBot) -> dict[str, PlannerBot]:
    """The whole-turn plans around ``base`` (a :class:`PlannerBot` or a subclass, such as the strategist):
    ``base`` itself as ``default``, then each of :data:`VARIANTS` applied to it."""
    return {"default": base} | {name: dataclasses.replace(base, **knobs) for name, knobs in VARIANTS.items()}  # type: ignore[arg-type]


#: Whole-turn plans, as the bot that plays the turn; ``default`` is the baseline every gain is against.
PLANS: dict[str, PlannerBot] = plans_of(ROLLOUT_BOT)


@dataclass(frozen=True)
class TurnSuggestion:
    """The recommended turn: the ``plan``'s name, its ``actions`` as played on the first rollout's dice
    (placements first, battle orders with their stop rule, the fortify), the same turn as ``line``, the
    engine's actions that played it (each battle order as the :class:`Battle` that resolved it, so
    ``line`` replays through :meth:`GameState.apply`), its ``win_chance`` (the base bot's own turn:
    ``default_win_chance``), its ``gain`` over the base bot's own turn with a 95% paired interval
    ``gain_low`` .. ``gain_high``, the ``rollouts`` per plan, and the whole ``table`` of plans, best first."""

    plan: str
    actions: tuple[Decision, ...]
    line: tuple[Action, ...]
    win_chance: float
    default_win_chance: float
    gain: float
    gain_low: float
    gain_high: float
    rollouts: int
    table: pd.DataFrame


def play_setup(state: GameState, rng: np.random.Generator) -> GameState:
    """Play ``state``'s setup (claims and placements) with the planner, up to the first turn."""
    while state.phase in (Phase.SETUP_CLAIM, Phase.SETUP_PLACE, Phase.CHOOSE_CAPITAL):
        state.apply(PLANNER_BOT.choose(state, rng))  # type: ignore[arg-type]  # setup decisions are actions
    return state


def seats_with(bot: PlannerBot, me: int, state: GameState, others: PlannerBot = ROLLOUT_BOT) -> playout.Prepared:
    """The compiled seats of ``state``'s game: ``bot`` in seat ``me``, ``others`` in the rest."""
    return _seats_with(bot, me, others, state.n_players, state.board, state.rules.dice, state.rules.balanced_blitz)


@lru_cache(maxsize=64)
def _seats_with(
    bot: PlannerBot, me: int, others: PlannerBot, n: int, board: Board, dice: DiceRules, balanced_blitz: bool
) -> playout.Prepared:
    bots = [others] * n
    bots[me] = bot
    return playout.Prepared(bots, board, dice, balanced_blitz)


def _play_turn(
    state: GameState,
    me: int,
    bot: PlannerBot,
    rng: np.random.Generator,
    record: list[tuple[Decision, Action]] | None,
    others: PlannerBot = ROLLOUT_BOT,
) -> None:
    """Play on until ``me``'s turn is over, ``bot`` deciding for ``me`` (``others`` defends for the
    others); every action through the engine's legality check. ``record`` gets each of ``me``'s
    decisions with the action that carried it out; with none, the turn is played in compiled code (the same
    game on the same random numbers, without the legality checks of actions the package's bots chose)."""
    turn = state.turn
    if record is None:
        if not state.is_terminal():
            playout.play_events(state, seats_with(bot, me, state, others), rng, until_turn=turn + 1)
        return
    while state.phase != Phase.GAME_OVER and state.turn == turn:
        if state.phase in (Phase.ROLL, Phase.DRAW):
            state.apply_chance(rng)
            continue
        mover = state.current_player
        decision = (bot if mover == me else others).choose(state, rng)
        if type(decision) is BattleOrder:
            action: Action = resolve_order(state, decision, rng)
        else:
            action = decision  # type: ignore[assignment]  # anything but an order is an action
        state.apply(action)
        if mover == me and record is not None:
            record.append((decision, action))


def _value(
    s: GameState,
    me: int,
    horizon: int | None,
    rng: np.random.Generator,
    bots: playout.Prepared,
    model: ValueModel | None,
) -> float:
    """``me``'s value of a rollout after its turn: played on by ``bots`` to ``horizon`` and valued by the model,
    or with no horizon played to the end (1 for a win)."""
    if not s.is_terminal():
        while s.is_chance():
            s.apply_chance(rng)
        if horizon is None:
            playout.play_compiled(s, bots, rng)
        elif s.turn < horizon:
            playout.play_events(s, bots, rng, until_turn=horizon)
    if s.is_terminal() or model is None:
        return 1.0 if s.winner == me else 0.0
    return float(model.chances(s)[me])


def suggest_turn(
    state: GameState,
    *,
    budget: float | None = 2.0,
    rollouts: int | None = None,
    seed: int = 0,
    plans: Mapping[str, PlannerBot] | None = None,
    base: PlannerBot = ROLLOUT_BOT,
    on_progress: Callable[[int, float], None] | None = None,
) -> TurnSuggestion:
    """The best whole turn for the player to move in ``state`` (at the start of, or during, their turn).

    Rollouts go round the plans until ``budget`` seconds have passed, or exactly ``rollouts`` per plan
    (reproducible from ``seed``) if that is given. ``on_progress(rollouts_per_plan, fraction_done)``
    is called after each round of the plans, for a progress bar. ``base`` is the bot whose own turn is
    the ``default`` plan (unless ``plans`` names one) and that plays every other seat and the rest of each
    rollout; ``plans`` are by default :func:`plans_of` it. See the module docstring.
    """
    if state.phase in (Phase.SETUP_CLAIM, Phase.SETUP_PLACE, Phase.CHOOSE_CAPITAL, Phase.GAME_OVER):
        raise BotError(f"a turn can be suggested during play, not in phase {state.phase.name}")
    if state.is_chance():
        raise BotError("the position waits for dice or a card draw: resolve it before asking for a turn")
    if state.phase == Phase.DEFEND:
        raise BotError("the battle in progress waits for the defender's dice: resolve it before asking for a turn")
    if rollouts is None and (budget is None or budget <= 0):
        raise BotError(f"give a time budget in seconds above 0 or a number of rollouts, got budget={budget!r}")
    if rollouts is not None and rollouts < 2:
        raise BotError(f"rollouts must be at least 2 (for an interval), got {rollouts!r}")
    chosen = dict(plans if plans is not None else plans_of(base))
    if "default" not in chosen:
        chosen = {"default": base} | chosen
    me = state.current_player
    names = list(chosen)
    wins: dict[str, list[float]] = {name: [] for name in names}
    first_turns: dict[str, list[tuple[Decision, Action]]] = {name: [] for name in names}
    # A rollout still running after the evaluator's round cap counts as a win for nobody.
    rules = limited(state).rules
    model, _ = model_for(state) if base is ROLLOUT_BOT else (None, "")
    # With the model, a rollout stops where the mover's next turn starts and the model values it there.
    horizon = state.turn + int(np.sum(state.alive)) if model is not None else None
    # The base bot in every seat, made once for all the rollouts.
    bots = playout.Prepared([base] * state.n_players, state.board, state.rules.dice, state.rules.balanced_blitz)
    reused = Reused()  # every plan's rollout k on game_rng(seed, k)'s numbers, without a new generator for each
    dealer = face_down.Dealer(state)
    started = time.perf_counter()
    k = 0
    while (rollouts is not None and k < rollouts) or (
        rollouts is None and (k < 2 or time.perf_counter() - started < float(budget))  # type: ignore[arg-type]
    ):
        # Every plan meets the same draw of the face-down cards. The first rollout keeps the position's
        # own placeholders, so that the turn it records (a trade's cards) is one the position can play.
        start = (
            state
            if k == 0 or not state.face_down
            else dealer.game(np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(k, 1))))
        )
        begin = game_rng(seed, k)  # never drawn from: each plan's rollout starts where it stands
        for name in names:
            s = start.copy()
            s.rules = rules
            rng = reused.at(begin)
            _play_turn(s, me, chosen[name], rng, first_turns[name] if k == 0 else None, base)
            wins[name].append(_value(s, me, horizon, rng, bots, model))
        k += 1
        if on_progress is not None:
            used = k / rollouts if rollouts is not None else (time.perf_counter() - started) / float(budget)  # type: ignore[arg-type]
            on_progress(k, min(1.0, used))
    own_turn = np.array(wins["default"])
    rows = []
    for name in names:
        w = np.array(wins[name])
        diff = w - own_turn
        half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
        rows.append(
            {
                "plan": name,
                "rollouts": len(w),
                "win_chance": w.mean(),
                "gain": diff.mean(),
                "gain_low": diff.mean() - half,
                "gain_high": diff.mean() + half,
            }
        )
    table = pd.DataFrame(rows).sort_values(["win_chance", "plan"], ascending=[False, True], ignore_index=True)
    best = table.iloc[0]
    turn = first_turns[str(best["plan"])]
    return TurnSuggestion(
        plan=str(best["plan"]),
        actions=tuple(decision for decision, _ in turn),
        line=tuple(action for _, action in turn),
        win_chance=float(best["win_chance"]),
        default_win_chance=float(own_turn.mean()),
        gain=float(best["gain"]),
        gain_low=float(best["gain_low"]),
        gain_high=float(best["gain_high"]),
        rollouts=k,
        table=table,
    )


def turn_steps(state: GameState, tip: TurnSuggestion) -> pd.DataFrame:
    """The suggested turn in words, one row per decision: ``step``, ``do`` (what to do, with the
    armies on each territory at that moment) and ``first_rollout`` (how a battle went on the first
    rollout's dice: the later steps follow from it), by replaying ``tip.line`` from ``state``.

    >>> state = GameState.from_position([0] * 41 + [1], [5] * 41 + [1], n_players=2)
    >>> tip = suggest_turn(state, rollouts=2, plans={"default": PLANNER_BOT})
    >>> for row in turn_steps(state, tip).itertuples():
    ...     print(row.step, row.do + (f" | {row.first_rollout}" if row.first_rollout else ""))
    1 Place 35 armies on New Guinea (5)
    2 Attack Eastern Australia (1) from New Guinea (40), until it falls or New Guinea is down to 1 | taken, 38 armies left on New Guinea
    3 Move 37 into Eastern Australia (all 37 it may)
    """
    board = state.board
    replay = state.copy()
    rng = np.random.default_rng(0)  # for a card drawn between two steps, which no step reads
    names = board.territories

    def at(t: int) -> str:
        return f"{names[t]} ({int(replay.armies[t])})"

    def card(c: int) -> str:
        return card_label(board, c)

    rows: list[dict[str, object]] = []
    for decision, action in zip(tip.actions, tip.line):
        while replay.is_chance():
            replay.apply_chance(rng)
        outcome = ""
        if type(decision) is BattleOrder:
            assert type(action) is Battle
            s, t = decision.source, decision.target
            do = f"Attack {at(t)} from {at(s)}, until it falls or {names[s]} is down to {decision.stop_at}"
            replay.apply(action)
            if action.defender_left > 0:
                outcome = f"stopped: {action.attacker_left} against {action.defender_left}"
            elif replay.move is not None:
                outcome = f"taken, {action.attacker_left} armies left on {names[s]}"
            else:  # the move-in had one choice, which the engine made
                outcome = f"taken, {action.attacker_left - int(replay.armies[s])} moved in"
            rows.append({"step": len(rows) + 1, "do": do, "first_rollout": outcome})
            continue
        elif type(decision) is Place:
            do = f"Place {decision.armies} {'army' if decision.armies == 1 else 'armies'} on {at(int(decision.territory))}"
        elif type(decision) is Trade:
            before = replay.pending
            replay.apply(action)
            do = f"Trade {', '.join(card(c) for c in decision.cards)} for {replay.pending - before} armies"
            if decision.bonus is not None:
                do += f" (the bonus armies on {names[int(decision.bonus)]})"
            rows.append({"step": len(rows) + 1, "do": do, "first_rollout": ""})
            continue
        elif type(decision) is MoveIn:
            move = replay.move
            assert move is not None
            choice = f"all {move.most} it may" if decision.armies == move.most else f"of {move.fewest} to {move.most}"
            do = f"Move {decision.armies} into {names[move.target]} ({choice})"
        elif type(decision) is Fortify:
            do = f"Fortify: move {decision.armies} from {at(int(decision.source))} to {at(int(decision.target))}"
        elif type(decision) is EndAttack:
            do = "Stop attacking"
        elif type(decision) is EndTurn:
            do = "End the turn without fortifying"
        else:
            do = repr(decision)
        replay.apply(action)
        rows.append({"step": len(rows) + 1, "do": do, "first_rollout": outcome})
    return pd.DataFrame(rows, columns=["step", "do", "first_rollout"])


__all__ = ["PLANS", "VARIANTS", "TurnSuggestion", "play_setup", "plans_of", "seats_with", "suggest_turn", "turn_steps"]
