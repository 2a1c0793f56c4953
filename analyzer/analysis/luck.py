"""The luck meter: how each player's battles went against the exact odds.

The luck statistic
------------------
For every battle in a game's history, the attacker's **net** is the armies it
destroyed minus the armies it lost; the defender's net is the opposite. A
player's luck so far is the sum of their nets, compared with the exact
distribution of that sum: the per-battle distributions are independent, so
the distribution of the sum is their convolution, computed exactly (no normal
approximation). The **percentile** is the mid-rank ``100 * (P(S < s) +
P(S = s) / 2)`` of the observed sum ``s``: 50 is average luck, 95 means luckier
than 95 games in 100 with the same battles.

Each battle is scored against the distribution of the battle *as it started*
(armies on both territories) under a stopping rule read from how it ended:

* a battle **decided** (the territory taken, or the attacker worn down to one
  army) was fought to the end: the battle solver's
  :func:`~analyzer.solver.battle.battle` distribution from those armies;
* a battle the attacker **broke off** is taken to have run until as many
  armies had fallen as did (``T``, on both sides together), rolling fewer
  dice on the last roll if fewer armies were left to fall: what matters is
  then who lost those ``T`` armies. (Where ``T`` is large enough that the
  battle is always decided first, this is the solver's distribution again.)
* a **die-by-die roll** is scored against the exact distribution of that
  roll's dice (:func:`~analyzer.game.dice.roll_distribution`).

Both sides are taken to roll the most dice they may, as the engine's whole
battle step assumes. The neutral force of a 2-player game has no luck meter.

>>> from analyzer.game.state import GameState, turn_number
>>> from analyzer.game.actions import Attack, Defend, Place, Roll
>>> state = GameState.from_position([0] * 14 + [1] * 14 + [2] * 14, [3] * 42, n_players=3)
>>> for a in (Place("Alaska", 11), Attack("Alaska", "Kamchatka", 1), Defend(1), Roll(1, 0)):
...     state.apply(a)
>>> b = battle_luck(state)[0]
>>> b.attacker_lost, b.defender_lost, round(b.expected_defender_lost, 4), round(b.p_as_bad, 4)
(1, 0, 0.4167, 0.5833)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.game.actions import Battle, Roll, as_id
from analyzer.game.dice import DiceRules, roll_distribution
from analyzer.game.labels import player_names
from analyzer.game.state import GameState
from analyzer.game.timeline import timeline
from analyzer.solver.battle import BattleOptions, battle


@dataclass(frozen=True)
class BattleLuck:
    """One battle (or die-by-die roll) scored against its exact odds, from the attacker's side.

    ``net`` is ``defender_lost - attacker_lost``; ``distribution[k]`` is the
    probability of a net of ``offset + k``. ``p_as_good`` is the probability
    of a net at least as high as the one rolled (small: lucky for the
    attacker), ``p_as_bad`` of one at least as low (small: unlucky).
    """

    action: int
    turn: int
    kind: str
    attacker: int
    defender: int
    source: int
    target: int
    attackers: int
    defenders: int
    attacker_lost: int
    defender_lost: int
    expected_attacker_lost: float
    expected_defender_lost: float
    distribution: np.ndarray
    offset: int
    #: The dice each side rolled, for a die-by-die roll (0 for a whole battle: the most they could).
    attacker_dice: int = 0
    defender_dice: int = 0

    @property
    def net(self) -> int:
        return self.defender_lost - self.attacker_lost

    @property
    def expected_net(self) -> float:
        return self.expected_defender_lost - self.expected_attacker_lost

    @property
    def p_as_good(self) -> float:
        return float(self.distribution[self.net - self.offset :].sum())

    @property
    def p_as_bad(self) -> float:
        return float(self.distribution[: self.net - self.offset + 1].sum())


@dataclass(frozen=True)
class PlayerLuck:
    """A player's luck over the battles so far (see the module's note for the statistic)."""

    player: int
    name: str
    battles: int
    armies_lost: int
    armies_destroyed: int
    expected_lost: float
    expected_destroyed: float
    percentile: float
    p_as_good: float
    p_as_bad: float

    @property
    def net(self) -> int:
        return self.armies_destroyed - self.armies_lost

    @property
    def expected_net(self) -> float:
        return self.expected_destroyed - self.expected_lost


def loss_distribution(
    attackers: int, defenders: int, fallen: int | None, dice: DiceRules
) -> dict[tuple[int, int], float]:
    """``{(attacker_lost, defender_lost): probability}`` of a battle run until ``fallen`` armies fell or it was decided.

    ``fallen=None`` runs it to the end, which is the solver's distribution.
    Near the limit, if a full roll could take more armies than are left to
    fall, the attacker rolls only that many dice, so the battle never goes
    past ``fallen``.

    >>> d = loss_distribution(2, 1, None, DiceRules())   # one die against one: 15/36 to win
    >>> round(d[(0, 1)], 4), round(d[(1, 0)], 4)
    (0.4167, 0.5833)
    """
    if fallen is None:
        r = battle(attackers, defenders, options=BattleOptions(dice=dice))
        return {
            (attackers - int(a), defenders - int(d)): float(p)
            for a, d, p in zip(r.attacker_left, r.defender_left, r.probability)
        }
    live = {(attackers, defenders): 1.0}
    done: dict[tuple[int, int], float] = {}
    # Every roll removes at least one army, so states are settled in order of armies fallen.
    while live:
        nxt: dict[tuple[int, int], float] = {}
        for (a, d), m in live.items():
            gone = (attackers - a) + (defenders - d)
            if d == 0 or a == 1 or gone >= fallen:
                done[(attackers - a, defenders - d)] = done.get((attackers - a, defenders - d), 0.0) + m
                continue
            na, nd = dice.attacker_dice(a), dice.defender_dice(d)
            if min(na, nd) > fallen - gone:
                na = fallen - gone
            for (la, ld), q in roll_distribution(na, nd, dice).items():
                key = (a - la, d - ld)
                nxt[key] = nxt.get(key, 0.0) + m * float(q)
        live = nxt
    return done


def _scored(
    index: int,
    turn: int,
    kind: str,
    state: GameState,
    src: int,
    tgt: int,
    dist: dict[tuple[int, int], float],
    lost: tuple[int, int],
    dice: tuple[int, int] = (0, 0),
) -> BattleLuck:
    nets = [ld - la for la, ld in dist]
    offset = min(nets)
    vector = np.zeros(max(nets) - offset + 1)
    for (la, ld), p in dist.items():
        vector[ld - la - offset] += p
    return BattleLuck(
        action=index,
        turn=turn,
        kind=kind,
        attacker=state.player,
        defender=int(state.owner[tgt]),
        source=src,
        target=tgt,
        attackers=int(state.armies[src]),
        defenders=int(state.armies[tgt]),
        attacker_lost=lost[0],
        defender_lost=lost[1],
        expected_attacker_lost=sum(la * p for (la, _), p in dist.items()),
        expected_defender_lost=sum(ld * p for (_, ld), p in dist.items()),
        distribution=vector,
        offset=offset,
        attacker_dice=dice[0],
        defender_dice=dice[1],
    )


def battle_luck(state: GameState) -> list[BattleLuck]:
    """Every battle and die-by-die roll of ``state``'s history, scored against its exact odds, oldest first."""
    dice = state.rules.dice
    out: list[BattleLuck] = []
    for entry in timeline(state).entries:
        if entry.kind not in ("battle", "roll", "chance"):
            continue
        for i, (s, a) in enumerate(entry.steps(), start=entry.first):
            if isinstance(a, Battle):
                src, tgt = as_id(a.source), as_id(a.target)
                A, D = int(s.armies[src]), int(s.armies[tgt])
                lost = (A - a.attacker_left, D - a.defender_left)
                if sum(lost) > 0:
                    decided = a.defender_left == 0 or a.attacker_left == 1
                    dist = loss_distribution(A, D, None if decided else sum(lost), dice)
                    out.append(_scored(i, entry.round, "battle", s, src, tgt, dist, lost))
            elif isinstance(a, Roll):
                assert s.attack is not None
                src, tgt, na, nd = s.attack
                dist = {k: float(p) for k, p in roll_distribution(na, nd, dice).items()}
                lost = (a.attacker_losses, a.defender_losses)
                out.append(_scored(i, entry.round, "roll", s, src, tgt, dist, lost, (na, nd)))
    return out


def _sum_distribution(parts: list[tuple[np.ndarray, int]]) -> tuple[np.ndarray, int]:
    total, offset = np.ones(1), 0
    for vector, lo in parts:
        total = np.convolve(total, vector)
        offset += lo
    return total, offset


def _side(b: BattleLuck, player: int) -> tuple[np.ndarray, int, int]:
    """The battle's net distribution (vector, offset) and observed net from ``player``'s side."""
    if b.attacker == player:
        return b.distribution, b.offset, b.net
    flipped = b.distribution[::-1]
    return flipped, -(b.offset + len(b.distribution) - 1), -b.net


def _luck_of(player: int, name: str, battles: list[BattleLuck]) -> PlayerLuck:
    mine = [b for b in battles if player in (b.attacker, b.defender)]
    sides = [_side(b, player) for b in mine]
    total, offset = _sum_distribution([(v, lo) for v, lo, _ in sides])
    observed = sum(x for _, _, x in sides) - offset
    lost = sum(b.attacker_lost if b.attacker == player else b.defender_lost for b in mine)
    destroyed = sum(b.defender_lost if b.attacker == player else b.attacker_lost for b in mine)
    e_lost = sum(b.expected_attacker_lost if b.attacker == player else b.expected_defender_lost for b in mine)
    e_destroyed = sum(b.expected_defender_lost if b.attacker == player else b.expected_attacker_lost for b in mine)
    below, at = float(total[:observed].sum()), float(total[observed])
    return PlayerLuck(
        player=player,
        name=name,
        battles=len(mine),
        armies_lost=lost,
        armies_destroyed=destroyed,
        expected_lost=e_lost,
        expected_destroyed=e_destroyed,
        percentile=100.0 * (below + at / 2),
        p_as_good=float(total[observed:].sum()),
        p_as_bad=below + at,
    )


def player_luck(state: GameState) -> list[PlayerLuck]:
    """Each seat's luck over every battle so far, by seat."""
    battles = battle_luck(state)
    names = player_names(state)
    return [_luck_of(p, names[p], battles) for p in range(state.n_players)]


def luck_table(state: GameState) -> pd.DataFrame:
    """:func:`player_luck` as a DataFrame, one row per seat."""
    rows = []
    for x in player_luck(state):
        rows.append(
            {
                "player": x.player,
                "name": x.name,
                "battles": x.battles,
                "lost": x.armies_lost,
                "expected lost": x.expected_lost,
                "destroyed": x.armies_destroyed,
                "expected destroyed": x.expected_destroyed,
                "net": x.net,
                "expected net": x.expected_net,
                "percentile": x.percentile,
            }
        )
    return pd.DataFrame(rows)


def luck_series(state: GameState) -> pd.DataFrame:
    """Each seat's luck after each turn (round) of the table, for a chart: one row per turn and seat.

    Columns: ``turn``, ``player``, ``name``, ``battles``, ``net``,
    ``expected net``, ``luck`` (net minus its expectation) and ``percentile``.
    """
    battles = battle_luck(state)
    names = player_names(state)
    last = max([b.turn for b in battles], default=0)
    rows = []
    for turn in range(1, last + 1):
        so_far = [b for b in battles if b.turn <= turn]
        for p in range(state.n_players):
            x = _luck_of(p, names[p], so_far)
            rows.append(
                {
                    "turn": turn,
                    "player": p,
                    "name": x.name,
                    "battles": x.battles,
                    "net": x.net,
                    "expected net": x.expected_net,
                    "luck": x.net - x.expected_net,
                    "percentile": x.percentile,
                }
            )
    return pd.DataFrame(
        rows, columns=["turn", "player", "name", "battles", "net", "expected net", "luck", "percentile"]
    )


def extreme_battles(
    state: GameState, player: int
) -> tuple[tuple[BattleLuck, float] | None, tuple[BattleLuck, float] | None]:
    """``player``'s luckiest and unluckiest battle, each with the probability of a result at least that extreme.

    The luckiest is the one whose result (from the player's side) was least
    likely to be matched or beaten; the unluckiest, least likely to be
    matched or bettered downward. None where the player fought no battle.
    """
    lucky: tuple[BattleLuck, float] | None = None
    unlucky: tuple[BattleLuck, float] | None = None
    for b in battle_luck(state):
        if player not in (b.attacker, b.defender):
            continue
        good, bad = (b.p_as_good, b.p_as_bad) if b.attacker == player else (b.p_as_bad, b.p_as_good)
        if lucky is None or good < lucky[1]:
            lucky = (b, good)
        if unlucky is None or bad < unlucky[1]:
            unlucky = (b, bad)
    return lucky, unlucky


def extreme_battle_notes(state: GameState, player: int, names: Sequence[str]) -> list[str]:
    """``player``'s luckiest and unluckiest battle (:func:`extreme_battles`) told in a sentence each, or in one
    where they are the same battle (a player who fought one battle), with each side's players called by
    ``names``; none where the player fought no battle."""
    lucky, unlucky = extreme_battles(state, player)
    if lucky is None or unlucky is None:
        return []
    terr = state.board.territories

    def told(b: BattleLuck) -> str:
        lost, destroyed = (
            (b.attacker_lost, b.defender_lost) if b.attacker == player else (b.defender_lost, b.attacker_lost)
        )
        return (
            f"turn {b.turn}, {names[b.attacker]}'s {terr[b.source]} ({b.attackers}) on {names[b.defender]}'s "
            f"{terr[b.target]} ({b.defenders}): {names[player]} lost {lost} and destroyed {destroyed}"
        )

    if lucky[0] is unlucky[0]:
        return [
            f"The one battle of {names[player]}: {told(lucky[0])}; a result at least this good has probability "
            f"{lucky[1]:.1%}, at least this bad {unlucky[1]:.1%}"
        ]
    return [
        f"Luckiest battle for {names[player]}: {told(lucky[0])}; a result at least this good has probability {lucky[1]:.1%}",
        f"Unluckiest battle for {names[player]}: {told(unlucky[0])}; a result at least this bad has probability "
        f"{unlucky[1]:.1%}",
    ]
