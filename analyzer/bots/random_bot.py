"""A bot that plays random legal moves, sampled without listing every legal action."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.game.actions import Action, Attack, Defend, EndAttack, EndTurn, Fortify, MoveIn, Place, Roll, as_id
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase


@dataclass(frozen=True)
class RandomBot:
    """Random play with a few knobs, so that games between random bots end.

    In the attack phase it fights each battle on until it is won or its
    source no longer outnumbers the target; between battles it stops with
    probability ``stop_attack``, otherwise starts a random attack, with the most dice, among those whose source
    outnumbers its target (uniform random attacks deadlock: card values
    escalate for everyone and nobody is ever eliminated). It trades a set when
    forced, otherwise with probability ``trade``; places all its armies on
    one territory with an enemy neighbour, the one with the most armies with
    probability ``stack``, else a random one; defends with the most
    dice; after a capture moves in all it can with probability ``advance``,
    else a random number; fortifies with probability ``fortify``. Setup choices are uniform over
    the legal ones.
    """

    stop_attack: float = 0.2
    trade: float = 0.5
    fortify: float = 0.5
    stack: float = 0.5
    advance: float = 0.5

    def choose(self, state: GameState, rng: np.random.Generator) -> Action:
        phase = state.phase
        p = state.player
        if phase == Phase.REINFORCE:
            trades = state.legal_trades()
            if trades and (state.must_trade() or rng.random() < self.trade):
                return trades[int(rng.integers(len(trades)))]
            border = state.attack_sources(min_armies=1)
            if rng.random() < self.stack:
                # Piling onto the biggest front-line stack is what lets random games end.
                target = int(border[np.argmax(state.armies[border])])
            else:
                target = int(border[int(rng.integers(len(border)))])
            return Place(target, state.pending)
        if phase == Phase.ATTACK:
            armies, owner = state.armies, state.owner
            last = _last_attack(state)
            if last is not None:
                s, t = as_id(last.source), as_id(last.target)
                if owner[t] != p and armies[s] > max(1, armies[t]):
                    # A battle goes on roll after roll until it is won or the odds turn.
                    return Attack(s, t, state.rules.dice.attacker_dice(int(armies[s])))
            if rng.random() < self.stop_attack:
                return EndAttack()
            options = [
                (int(s), t) for s in state.attack_sources() for t in state.attack_targets(s) if armies[s] > armies[t]
            ]
            if not options:
                return EndAttack()
            s, t = options[int(rng.integers(len(options)))]
            return Attack(s, t, state.rules.dice.attacker_dice(int(armies[s])))
        if phase == Phase.DEFEND:
            return Defend(state.max_defence_dice())
        if phase == Phase.MOVE_IN:
            lo, hi = state.move_range()
            return MoveIn(hi if rng.random() < self.advance else int(rng.integers(lo, hi + 1)))
        if phase == Phase.FORTIFY:
            if rng.random() >= self.fortify:
                return EndTurn()
            sources = np.flatnonzero((state.owner == p) & (state.armies >= 2))
            rng.shuffle(sources)
            for src in sources:
                targets = state.fortify_targets(int(src))
                if targets:
                    t = targets[int(rng.integers(len(targets)))]
                    return Fortify(int(src), t, int(rng.integers(1, int(state.armies[src]))))
            return EndTurn()
        actions = state.legal_actions()
        return actions[int(rng.integers(len(actions)))]


def _last_attack(state: GameState) -> Attack | None:
    """The attack of the roll just resolved, if the last action was such a roll."""
    history = state.history
    if len(history) >= 2 and isinstance(history[-1], Roll):
        for action in (history[-2], history[-3] if len(history) >= 3 else None):
            if isinstance(action, Attack):
                return action
    return None
