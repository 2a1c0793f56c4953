"""The luck meter, checked against hand-computed odds, the battle solver and brute-force enumeration of the dice."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import pytest

from analyzer.analysis.luck import (
    battle_luck,
    extreme_battle_notes,
    extreme_battles,
    loss_distribution,
    luck_series,
    luck_table,
    player_luck,
)
from analyzer.game.actions import Attack, Battle, Defend, EndAttack, EndTurn, MoveIn, Place, Roll
from analyzer.game.dice import DiceRules
from analyzer.game.state import GameState
from analyzer.solver.battle import battle, battle_exact


@cache
def _roll_by_faces(na: int, nd: int) -> dict[tuple[int, int], Fraction]:
    """One roll's losses by enumerating every face of every die (ties to the defender)."""
    out: dict[tuple[int, int], Fraction] = {}
    total = 6 ** (na + nd)
    for faces in itertools.product(range(1, 7), repeat=na + nd):
        att = sorted(faces[:na], reverse=True)
        dfd = sorted(faces[na:], reverse=True)
        la = sum(1 for x, y in zip(att, dfd) if x <= y)
        ld = sum(1 for x, y in zip(att, dfd) if x > y)
        out[(la, ld)] = out.get((la, ld), Fraction(0)) + Fraction(1, total)
    return out


def brute_battle(A: int, D: int, fallen: int | None) -> dict[tuple[int, int], Fraction]:
    """``{(attacker lost, defender lost): p}`` of a battle, die by die: to the end, or until ``fallen`` armies fell."""
    out: dict[tuple[int, int], Fraction] = {}

    def go(a: int, d: int, p: Fraction) -> None:
        gone = (A - a) + (D - d)
        if d == 0 or a == 1 or (fallen is not None and gone >= fallen):
            out[(A - a, D - d)] = out.get((A - a, D - d), Fraction(0)) + p
            return
        na, nd = min(3, a - 1), min(2, d)
        if fallen is not None and min(na, nd) > fallen - gone:
            na = fallen - gone
        for (la, ld), q in _roll_by_faces(na, nd).items():
            go(a - la, d - ld, p * q)

    go(A, D, Fraction(1))
    return out


def test_hand_computed_one_and_two_dice_battles() -> None:
    # One die against one: the attacker wins the roll on 15 of the 36 pairs of faces.
    d = loss_distribution(2, 1, None, DiceRules())
    assert d[(0, 1)] == pytest.approx(15 / 36) and d[(1, 0)] == pytest.approx(21 / 36)
    # Three armies (two dice) against one: 125/216 to win the first roll; after a loss, 15/36 again.
    d = loss_distribution(3, 1, None, DiceRules())
    assert d[(0, 1)] == pytest.approx(125 / 216)
    assert d[(1, 1)] == pytest.approx(91 / 216 * 15 / 36)
    assert d[(2, 0)] == pytest.approx(91 / 216 * 21 / 36)
    expected_lost = 91 / 216 * (1 + 21 / 36)
    r = battle(3, 1)
    assert expected_lost == pytest.approx(r.expected_attacker_losses)


@pytest.mark.parametrize("A,D", [(2, 1), (3, 2), (5, 3), (8, 4), (12, 7)])
def test_a_battle_run_until_every_army_could_fall_is_the_solvers(A: int, D: int) -> None:
    # Armies-fallen limit A - 1 + D is never reached before the battle is decided.
    dp = loss_distribution(A, D, A - 1 + D, DiceRules())
    exact = {(A - a, D - d): float(p) for (a, d), p in battle_exact(A, D).items()}
    assert dp.keys() == exact.keys()
    for k in dp:
        assert dp[k] == pytest.approx(exact[k], abs=1e-12)


@pytest.mark.parametrize("A,D,fallen", [(4, 2, 2), (5, 3, 3), (10, 1, 2), (6, 4, 5)])
def test_a_broken_off_battle_matches_the_dice_enumerated(A: int, D: int, fallen: int) -> None:
    dp = loss_distribution(A, D, fallen, DiceRules())
    brute = brute_battle(A, D, fallen)
    assert dp.keys() == brute.keys()
    for k in dp:
        assert dp[k] == pytest.approx(float(brute[k]), abs=1e-12)


def small_log() -> GameState:
    """Red (seat 0) and Blue (seat 1) fight four battles, one die-by-die, each side attacking."""
    owner = [0] * 14 + [1] * 14 + [2] * 14
    armies = [3] * 42
    state = GameState.from_position(owner, armies, n_players=3, player=0)
    state.labels["names"] = ["Red", "Blue", "Green"]
    # Red holds 14 territories and both Americas: 4 + 5 + 2 = 11 armies to place.
    for a in [
        Place("Iceland", 1),
        Place("Alaska", 10),
        Battle("Iceland", "Scandinavia", 2, 0),  # 4 against 3: taken with 2 lost
        Battle("Alaska", "Kamchatka", 11, 2),  # 13 against 3 (Green's): broken off after 3 fell
        Attack("Alaska", "Kamchatka", 3),
        Defend(2),
        Roll(2, 0),
        EndAttack(),
        EndTurn(),
    ]:
        state.apply(a)
    state.apply(state.chance_outcomes()[0][0])  # Red took Scandinavia: a card
    # Blue: takes back Scandinavia by a whole battle from Ukraine.
    pending = state.pending
    state.apply(Place("Ukraine", pending))
    state.apply(Battle("Ukraine", "Scandinavia", 3 + pending - 1, 0))
    if state.phase.name == "MOVE_IN":
        state.apply(MoveIn(state.move_range()[0]))
    return state


def _brute_percentile(state: GameState, player: int) -> tuple[Fraction, Fraction]:
    """P(S < s) and P(S = s) of ``player``'s summed net, enumerating every joint outcome of every battle."""
    parts = []
    observed = 0
    for b in battle_luck(state):
        if player not in (b.attacker, b.defender):
            continue
        if b.kind == "roll":
            dist = _roll_by_faces(b.attacker_dice, b.defender_dice)
        else:
            decided = b.defender_lost == b.defenders or b.attacker_lost == b.attackers - 1
            dist = brute_battle(b.attackers, b.defenders, None if decided else b.attacker_lost + b.defender_lost)
        sign = 1 if b.attacker == player else -1
        parts.append([(sign * (ld - la), p) for (la, ld), p in dist.items()])
        observed += sign * b.net
    below = at = Fraction(0)
    for combo in itertools.product(*parts):
        total = sum(x for x, _ in combo)
        p = Fraction(1)
        for _, q in combo:
            p *= q
        if total < observed:
            below += p
        elif total == observed:
            at += p
    return below, at


def test_percentile_matches_brute_force_enumeration() -> None:
    state = small_log()
    battles = battle_luck(state)
    assert [b.kind for b in battles] == ["battle", "battle", "roll", "battle"]
    assert [(b.attacker, b.defender) for b in battles] == [(0, 1), (0, 2), (0, 2), (1, 0)]
    for x in player_luck(state):
        below, at = _brute_percentile(state, x.player)
        assert x.percentile == pytest.approx(float(100 * (below + at / 2)), abs=1e-9)
        assert x.p_as_bad == pytest.approx(float(below + at), abs=1e-12)
        assert x.p_as_good == pytest.approx(float(1 - below), abs=1e-12)


def test_expectations_come_from_the_solver_for_decided_battles() -> None:
    state = small_log()
    b = battle_luck(state)[0]
    r = battle(4, 3)
    assert (b.attackers, b.defenders, b.attacker_lost, b.defender_lost) == (4, 3, 2, 3)
    assert b.expected_attacker_lost == pytest.approx(r.expected_attacker_losses)
    assert b.expected_defender_lost == pytest.approx(r.expected_defender_losses)
    red = player_luck(state)[0]
    assert red.battles == 4 and red.armies_lost == 2 + 2 + 2 + 1  # the last as Scandinavia's defender
    roll = battle_luck(state)[2]
    # Three dice against two, the attacker losing both: 2275/7776 of the faces.
    assert roll.p_as_bad == pytest.approx(2275 / 7776)


def test_series_and_extremes() -> None:
    state = small_log()
    series = luck_series(state)
    last = series[series["turn"] == series["turn"].max()]
    for x in player_luck(state):
        row = last[last["player"] == x.player].iloc[0]
        assert row["percentile"] == pytest.approx(x.percentile) and row["net"] == x.net
    table = luck_table(state)
    assert list(table["name"]) == ["Red", "Blue", "Green"]
    lucky, unlucky = extreme_battles(state, 0)
    assert lucky is not None and unlucky is not None
    everything = battle_luck(state)
    red_good = [b.p_as_good if b.attacker == 0 else b.p_as_bad for b in everything if 0 in (b.attacker, b.defender)]
    red_bad = [b.p_as_bad if b.attacker == 0 else b.p_as_good for b in everything if 0 in (b.attacker, b.defender)]
    assert lucky[1] == min(red_good) and unlucky[1] == min(red_bad)
    assert extreme_battles(state, 2)[0] is not None  # Green defended twice


def test_a_players_one_battle_is_told_once_with_both_tails_and_several_as_luckiest_and_unluckiest() -> None:
    state = GameState.from_position([0] * 14 + [1] * 14 + [2] * 14, [3] * 42, n_players=3, player=0)
    names = ["Red", "Blue", "Green"]
    for a in [Place("Iceland", 11), Battle("Iceland", "Scandinavia", 12, 0)]:  # 14 against 3: taken, 2 lost
        state.apply(a)
    (b,) = battle_luck(state)
    assert (b.attacker_lost, b.defender_lost) == (2, 3)
    (red,) = extreme_battle_notes(state, 0, names)
    assert red == (
        "The one battle of Red: turn 1, Red's Iceland (14) on Blue's Scandinavia (3): Red lost 2 and destroyed 3; "
        f"a result at least this good has probability {b.p_as_good:.1%}, at least this bad {b.p_as_bad:.1%}"
    )
    (blue,) = extreme_battle_notes(state, 1, names)
    assert "Blue lost 3 and destroyed 2" in blue and f"good has probability {b.p_as_bad:.1%}" in blue
    assert extreme_battle_notes(state, 2, names) == []  # Green fought no battle
    several = small_log()
    lucky, unlucky = extreme_battles(several, 0)
    assert lucky is not None and unlucky is not None and lucky[0] is not unlucky[0]
    notes = extreme_battle_notes(several, 0, names)
    assert [n.split(":")[0] for n in notes] == ["Luckiest battle for Red", "Unluckiest battle for Red"]
    assert notes[0].endswith(f"at least this good has probability {lucky[1]:.1%}")
    assert notes[1].endswith(f"at least this bad has probability {unlucky[1]:.1%}")
