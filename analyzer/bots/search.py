"""A search over whole-turn plans for a given position, scored by rollouts of the compiled playout.

:func:`suggest_turn` plays the player's turn from ``state`` with each of a
few whole-turn plans (:data:`PLANS`: the default bot's own turn, and variants
of it that attack more or less boldly, chase or ignore continents, or sit the
turn out), then the rest of the game in compiled code with the default bot in
every seat, and counts the player's wins. Every plan is played on the same
random numbers (rollout ``k`` draws from ``game_rng(seed, k)`` for every
plan), so the differences between plans are sharper than their win chances.
It returns the best plan with its win chance and its gain over the default
bot's own turn ("doing nothing special"), with a 95% paired interval.

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
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.bots.base import BattleOrder, Decision
from analyzer.bots.planner import PLANNER_BOT, PlannerBot
from analyzer.errors import BotError
from analyzer.game.actions import Battle
from analyzer.game.state import GameState, Phase
from analyzer.sim import playout
from analyzer.sim.simulate import game_rng, sample_battle

#: Whole-turn plans, as the bot that plays the turn; ``default`` is the baseline every gain is against.
PLANS: dict[str, PlannerBot] = {
    "default": PLANNER_BOT,
    "bold: attack any fight at 50%": dataclasses.replace(PLANNER_BOT, attack_threshold=0.5, card_threshold=0.4, plan_threshold=0.35),
    "careful: only near-certain fights": dataclasses.replace(PLANNER_BOT, attack_threshold=0.8, card_threshold=0.6, plan_threshold=0.75),
    "break enemy continents first": dataclasses.replace(PLANNER_BOT, break_turns=15.0),
    "complete a continent first": dataclasses.replace(PLANNER_BOT, bonus_turns=6.0, break_turns=1.0),
    "stop each battle at 3 armies": dataclasses.replace(PLANNER_BOT, stop_at=3),
    "card only: one sure capture, then stop": dataclasses.replace(PLANNER_BOT, attack_threshold=1.0, plan_threshold=1.0, card_threshold=0.7),
}
#: Rounds a rollout may last past the position before it counts as lost (a stalemate).
ROLLOUT_ROUNDS = 300


@dataclass(frozen=True)
class TurnSuggestion:
    """The recommended turn: the ``plan``'s name, its ``actions`` as played on the first rollout's dice
    (placements first, battle orders with their stop rule, the fortify), its ``win_chance``, its
    ``gain`` over the default bot's own turn with a 95% paired interval ``gain_low`` .. ``gain_high``,
    the ``rollouts`` per plan, and the whole ``table`` of plans, best first."""

    plan: str
    actions: tuple[Decision, ...]
    win_chance: float
    gain: float
    gain_low: float
    gain_high: float
    rollouts: int
    table: pd.DataFrame


def play_setup(state: GameState, rng: np.random.Generator) -> GameState:
    """Play ``state``'s setup (claims and placements) with the default bot, up to the first turn."""
    while state.phase in (Phase.SETUP_CLAIM, Phase.SETUP_PLACE, Phase.CHOOSE_CAPITAL):
        state.apply(PLANNER_BOT.choose(state, rng))  # type: ignore[arg-type]  # setup decisions are actions
    return state


def _play_turn(state: GameState, me: int, bot: PlannerBot, rng: np.random.Generator, actions: list[Decision] | None) -> None:
    """Play on until ``me``'s turn is over, ``bot`` deciding for ``me`` (the default bot defends for the
    others); every action through the engine's legality check."""
    turn = state.turn
    while state.phase != Phase.GAME_OVER and state.turn == turn:
        if state.phase in (Phase.ROLL, Phase.DRAW):
            state.apply_chance(rng)
            continue
        mover = state.current_player
        decision = (bot if mover == me else PLANNER_BOT).choose(state, rng)
        if mover == me and actions is not None:
            actions.append(decision)
        if type(decision) is BattleOrder:
            s, t = decision.source, decision.target
            a_left, d_left = sample_battle(int(state.armies[s]), int(state.armies[t]), decision.stop_at, state.rules.dice, rng)
            state.apply(Battle(s, t, a_left, d_left))
        else:
            state.apply(decision)  # type: ignore[arg-type]  # anything but an order is an action


def suggest_turn(
    state: GameState,
    *,
    budget: float | None = 2.0,
    rollouts: int | None = None,
    seed: int = 0,
    plans: Mapping[str, PlannerBot] | None = None,
) -> TurnSuggestion:
    """The best whole turn for the player to move in ``state`` (at the start of, or during, their turn).

    Rollouts go round the plans until ``budget`` seconds have passed, or exactly ``rollouts`` per plan
    (reproducible from ``seed``) if that is given. See the module docstring.
    """
    if state.phase in (Phase.SETUP_CLAIM, Phase.SETUP_PLACE, Phase.CHOOSE_CAPITAL, Phase.GAME_OVER):
        raise BotError(f"a turn can be suggested during play, not in phase {state.phase.name}")
    if state.is_chance():
        raise BotError("the position waits for dice or a card draw: resolve it before asking for a turn")
    if rollouts is None and (budget is None or budget <= 0):
        raise BotError(f"give a time budget in seconds above 0 or a number of rollouts, got budget={budget!r}")
    if rollouts is not None and rollouts < 2:
        raise BotError(f"rollouts must be at least 2 (for an interval), got {rollouts!r}")
    chosen = dict(plans if plans is not None else PLANS)
    if "default" not in chosen:
        chosen = {"default": PLANNER_BOT} | chosen
    me = state.current_player
    names = list(chosen)
    wins: dict[str, list[float]] = {name: [] for name in names}
    first_actions: dict[str, list[Decision]] = {name: [] for name in names}
    rules = dataclasses.replace(state.rules, turn_limit=min(state.rules.turn_limit or 10**9, state.round + ROLLOUT_ROUNDS))
    started = time.perf_counter()
    k = 0
    while (rollouts is not None and k < rollouts) or (
        rollouts is None and (k < 2 or time.perf_counter() - started < float(budget))  # type: ignore[arg-type]
    ):
        for name in names:
            s = state.copy()
            s.rules = rules
            rng = game_rng(seed, k)
            _play_turn(s, me, chosen[name], rng, first_actions[name] if k == 0 else None)
            if not s.is_terminal():
                while s.is_chance():
                    s.apply_chance(rng)
                playout.play(s, [PLANNER_BOT] * s.n_players, rng)
            wins[name].append(1.0 if s.winner == me else 0.0)
        k += 1
    base = np.array(wins["default"])
    rows = []
    for name in names:
        w = np.array(wins[name])
        diff = w - base
        half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
        rows.append({"plan": name, "rollouts": len(w), "win_chance": w.mean(), "gain": diff.mean(),
                     "gain_low": diff.mean() - half, "gain_high": diff.mean() + half})
    table = pd.DataFrame(rows).sort_values(["win_chance", "plan"], ascending=[False, True], ignore_index=True)
    best = table.iloc[0]
    return TurnSuggestion(
        plan=str(best["plan"]),
        actions=tuple(first_actions[str(best["plan"])]),
        win_chance=float(best["win_chance"]),
        gain=float(best["gain"]),
        gain_low=float(best["gain_low"]),
        gain_high=float(best["gain_high"]),
        rollouts=k,
        table=table,
    )


__all__ = ["PLANS", "TurnSuggestion", "play_setup", "suggest_turn"]
