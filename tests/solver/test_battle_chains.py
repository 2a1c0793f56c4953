"""Chains of battles, whole regions and their inverse, against exact fractions and Monte Carlo."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.battles import simulate

from analyzer.errors import BattleInputError
from analyzer.game.board import classic_board
from analyzer.game.dice import DiceRules
from analyzer.solver.battle import BattleOptions, battle, battle_exact
from analyzer.solver.chains import _chain_values, chain, chain_armies_needed, conquest, moved_in


def exact_chain(attackers: int, defenders: list[int], garrisons: list[int], stop_at: int, options: BattleOptions):
    """The chain composed from exact single battles, with the move-in rule spelled out again."""
    stack = {attackers: Fraction(1)}
    p_conquer = []
    outcomes: dict[tuple[int, int, int], Fraction] = defaultdict(Fraction)
    final: dict[int, Fraction] = defaultdict(Fraction)
    for i, d in enumerate(defenders):
        keep = 1 if i == 0 else garrisons[i - 1]
        nxt: dict[int, Fraction] = defaultdict(Fraction)
        won = Fraction(0)
        for a, m in stack.items():
            if options.attacker_rolls(a, stop_at) == 0:
                outcomes[(i, a, d)] += m
                continue
            for (a_left, d_left), p in battle_exact(a, d, stop_at=stop_at, options=options).items():
                if d_left:
                    outcomes[(i, a_left, d_left)] += m * p
                    continue
                won += m * p
                moved = max(a_left - keep, options.attacker_rolls(a_left, stop_at))
                if i == len(defenders) - 1:
                    outcomes[(i + 1, a_left, 0)] += m * p
                    final[moved] += m * p
                else:
                    nxt[moved] += m * p
        p_conquer.append(won)
        stack = nxt
    return p_conquer, outcomes, final


CASES = [
    (6, [1, 1, 1], [1, 1], 1, BattleOptions()),
    (12, [3, 2, 4], [2, 3], 1, BattleOptions()),
    (14, [2, 5, 1, 2], [1, 4, 1], 3, BattleOptions()),
    (14, [2, 5, 1, 2], [1, 4, 1], 3, BattleOptions(stop_mode="cap")),
    (10, [2, 3], [5], 1, BattleOptions(dice=DiceRules(defender_max=3, sides=8), defender_dice=2)),
    (9, [4, 1], [2], 2, BattleOptions(attacker_dice=2, dice=DiceRules(ties_to_attacker=True))),
]


@pytest.mark.parametrize(("attackers", "defenders", "garrisons", "stop_at", "options"), CASES)
def test_chain_matches_exact_composition(attackers, defenders, garrisons, stop_at, options) -> None:
    p_conquer, outcomes, final = exact_chain(attackers, defenders, garrisons, stop_at, options)
    r = chain(attackers, defenders, garrison=garrisons, stop_at=stop_at, options=options)
    assert r.p_conquer == pytest.approx([float(p) for p in p_conquer], rel=1e-13)
    got = {
        (int(k), int(a), int(d)): p for k, a, d, p in zip(r.conquered, r.attacker_left, r.defender_left, r.probability)
    }
    assert got == pytest.approx({k: float(v) for k, v in outcomes.items() if v}, rel=1e-13)
    assert {m: p for m, p in enumerate(r.final_armies) if p} == pytest.approx(
        {k: float(v) for k, v in final.items() if v}, rel=1e-13
    )
    assert r.probability.sum() == pytest.approx(1.0, abs=1e-14)
    assert r.final_armies.sum() == pytest.approx(r.p_win)
    # Expected battle losses from the exact outcomes: what is not on the board at the end was killed.
    e_def = sum(
        p * (sum(defenders[:k]) + (defenders[k] - d if k < len(defenders) else 0)) for (k, _, d), p in outcomes.items()
    )
    assert r.expected_defender_losses == pytest.approx(float(e_def), rel=1e-12)


def test_expected_attacker_losses_of_a_chain() -> None:
    attackers, defenders, garrisons = 12, [3, 2, 4], [2, 3]
    # Armies killed, battle by battle, over the exact composition.
    stack = {attackers: Fraction(1)}
    killed = Fraction(0)
    for i, d in enumerate(defenders):
        keep = 1 if i == 0 else garrisons[i - 1]
        nxt: dict[int, Fraction] = defaultdict(Fraction)
        for a, m in stack.items():
            if a < 2:
                continue
            for (a_left, d_left), p in battle_exact(a, d).items():
                killed += m * p * (a - a_left)
                if d_left == 0:
                    nxt[max(a_left - keep, min(3, a_left - 1))] += m * p
        stack = nxt
    r = chain(attackers, defenders, garrison=garrisons)
    assert r.expected_attacker_losses == pytest.approx(float(killed), rel=1e-12)


def test_a_chain_of_one_is_a_battle() -> None:
    b = battle(9, 4)
    c = chain(9, [4])
    assert c.p_win == pytest.approx(b.p_win, rel=1e-14)
    assert c.expected_attacker_losses == pytest.approx(b.expected_attacker_losses, rel=1e-13)
    assert c.expected_defender_losses == pytest.approx(b.expected_defender_losses, rel=1e-13)
    assert np.array_equal(c.attacker_left, b.attacker_left) and np.array_equal(c.defender_left, b.defender_left)
    assert c.probability == pytest.approx(b.probability, rel=1e-13)
    assert c.final_armies[8] == pytest.approx(b.probability[0])  # won with 9, moved 8


def test_chain_agrees_with_monte_carlo() -> None:
    attackers, defenders, garrisons = 15, [2, 4, 1, 3], [1, 2, 1]
    n = 40_000
    rng = np.random.default_rng(2003)
    options = BattleOptions()
    stack = np.full(n, attackers)
    taken = np.zeros(n, int)
    alive = np.ones(n, bool)
    for i, d in enumerate(defenders):
        idx = np.flatnonzero(alive)
        a_left, d_left = simulate(stack[idx], d, 1, options, len(idx), rng)
        won = d_left == 0
        taken[idx[won]] += 1
        alive[idx[~won]] = False
        stack[idx[won]] = moved_in(a_left[won], 1 if i == 0 else garrisons[i - 1], 1, options)
    r = chain(attackers, defenders, garrison=garrisons)
    for k, p in enumerate(r.p_conquer, start=1):
        observed = np.mean(taken >= k)
        assert abs(observed - p) <= 4 * np.sqrt(p * (1 - p) / n), (k, p, observed)
    final = np.bincount(stack[taken == len(defenders)], minlength=len(r.final_armies)) / n
    for m, p in enumerate(r.final_armies):
        assert abs(final[m] - p) <= 4 * np.sqrt(p * (1 - p) / n) + 1e-9


def test_large_garrison_still_moves_the_dice_rolled() -> None:
    assert moved_in(np.array([4, 5, 10]), 5, 1, BattleOptions()).tolist() == [3, 3, 5]
    assert moved_in(np.array([6]), 5, 4, BattleOptions(stop_mode="cap")).tolist() == [2]
    r = chain(5, [1, 1], garrison=[10])
    assert r.p_conquer[1] > 0


def test_balanced_blitz_chain_is_built_from_reshaped_battles() -> None:
    blitz = BattleOptions(balanced_blitz=True)
    r = chain(10, [3, 3], options=blitz)
    assert r.p_conquer[0] == pytest.approx(battle(10, 3, options=blitz).p_win)
    assert r.probability.sum() == pytest.approx(1.0)
    # Forward and backward passes may differ in the last bit.
    assert chain_armies_needed([3, 3], r.p_win - 1e-12, options=blitz) == 10


# --- the inverse --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("defenders", "p", "kwargs"),
    [
        ([3, 2], 0.75, {}),
        ([1, 1, 1, 1, 1], 0.9, {}),
        ([5, 2, 8], 0.5, {"garrison": [3, 2]}),
        ([4, 4], 0.6, {"stop_at": 3, "options": BattleOptions(stop_mode="cap")}),
    ],
)
def test_chain_armies_needed(defenders, p, kwargs) -> None:
    n = chain_armies_needed(defenders, p, **kwargs)
    assert chain(n, defenders, **kwargs).p_win >= p
    stop = kwargs.get("stop_at", 1)
    assert n - 1 <= stop or chain(n - 1, defenders, **kwargs).p_win < p


def test_backward_chain_values_match_forward_chains() -> None:
    defenders, garrisons = (3, 1, 4), (2, 1)
    values = _chain_values(20, defenders, garrisons, 1, BattleOptions())
    for a in (2, 5, 11, 20):
        assert values[a] == pytest.approx(chain(a, list(defenders), garrison=list(garrisons)).p_win, abs=1e-14)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 60), st.lists(st.integers(1, 12), min_size=1, max_size=6), st.integers(1, 3))
def test_chain_properties(attackers: int, defenders: list[int], garrison: int) -> None:
    r = chain(attackers, defenders, garrison=garrison)
    assert r.probability.sum() == pytest.approx(1.0, abs=1e-13)
    assert (np.diff(r.p_conquer) <= 1e-15).all()
    assert r.final_armies.sum() == pytest.approx(r.p_win, abs=1e-13)
    assert chain(attackers + 1, defenders, garrison=garrison).p_win >= r.p_win - 1e-15


# --- several targets ------------------------------------------------------------------------------------------


def test_conquest_along_a_path_is_the_chain() -> None:
    borders = [("Start", "A"), ("A", "B"), ("B", "C")]
    r = conquest({"Start": 14}, {"A": 3, "B": 2, "C": 4}, borders, garrison={"A": 2, "B": 1})
    assert r.p_all == pytest.approx(chain(14, [3, 2, 4], garrison=[2, 1]).p_win, rel=1e-13)
    assert r.plan == (("Start", "A"), ("A", "B"), ("B", "C"))
    assert r.method.startswith("exact: the borders leave one way")


def test_conquest_from_two_staging_territories_multiplies() -> None:
    borders = [("S1", "A"), ("A", "B"), ("S2", "C"), ("S1", "S2")]
    r = conquest({"S1": 9, "S2": 6}, {"A": 2, "B": 2, "C": 3}, borders)
    assert r.p_by_staging["S1"] == pytest.approx(chain(9, [2, 2]).p_win)
    assert r.p_by_staging["S2"] == pytest.approx(battle(6, 3).p_win)
    assert r.p_all == pytest.approx(r.p_by_staging["S1"] * r.p_by_staging["S2"])


def exact_branch(a: int) -> Fraction:
    """Staging with ``a`` armies takes X (2), then from X both Y (1) and Z (1), splitting at X as well as possible."""
    options = BattleOptions()

    def p_win(armies: int, d: int) -> Fraction:
        if armies < 2:
            return Fraction(0)
        return sum((p for (_, dl), p in battle_exact(armies, d).items() if dl == 0), Fraction(0))

    def at_x(m: int) -> Fraction:
        # X attacks Y with m; after winning with m' it moves k into Y (a leaf) and keeps m' - k for Z.
        total = Fraction(0)
        if m < 2:
            return total
        for (m_left, d_left), p in battle_exact(m, 1).items():
            if d_left == 0:
                dice = options.attacker_rolls(m_left, 1)
                total += p * max(p_win(m_left - k, 1) for k in range(dice, m_left))
        return total

    total = Fraction(0)
    for (a_left, d_left), p in battle_exact(a, 2).items():
        if d_left == 0:
            total += p * at_x(a_left - 1)
    return total


def test_conquest_with_a_branch_is_exact() -> None:
    borders = [("S", "X"), ("X", "Y"), ("X", "Z")]
    for armies in (4, 7, 10):
        r = conquest({"S": armies}, {"X": 2, "Y": 1, "Z": 1}, borders)
        assert r.p_all == pytest.approx(float(exact_branch(armies)), rel=1e-13)
        assert r.plan[0] == ("S", "X") and set(r.plan[1:]) == {("X", "Y"), ("X", "Z")}


def test_conquer_australia_on_the_classic_board() -> None:
    board = classic_board()
    names = board.territories
    borders = [(names[b.a], names[b.b]) for b in board.borders]
    australia = {"Indonesia": 3, "New Guinea": 2, "Western Australia": 2, "Eastern Australia": 1}
    weak = conquest({"Siam": 8}, australia, borders)
    strong = conquest({"Siam": 20}, australia, borders)
    assert 0 < weak.p_all < strong.p_all < 1
    assert {to for _, to in strong.plan} == set(australia)
    assert strong.plan[0] == ("Siam", "Indonesia")
    assert "one of several" in strong.method  # New Guinea and Western Australia border each other
    # Taking all four is harder than taking the first.
    assert strong.p_all < battle(20, 3).p_win


def test_conquest_of_every_territory_of_a_player() -> None:
    board = classic_board()
    names = board.territories
    borders = [(names[b.a], names[b.b]) for b in board.borders]
    r = conquest(
        # Balanced Blitz makes a battle of less than 5% risk certain: keep Ukraine's share uncertain.
        {"Ukraine": 12, "Egypt": 10},
        {"Scandinavia": 2, "Iceland": 1, "Great Britain": 3, "Middle East": 2, "East Africa": 1},
        borders,
        options=BattleOptions(balanced_blitz=True),
    )
    assert 0 < r.p_all < 1
    assert r.p_all == pytest.approx(np.prod(list(r.p_by_staging.values())))
    assert r.method.endswith("Balanced Blitz")
    assert r.to_dict()["plan"][0][0] in {"Ukraine", "Egypt"}


# --- bad input --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: chain(1, [2]), "attackers must be a whole number >= 2, got 1"),
        (lambda: chain(5, []), "defenders must be a non-empty sequence"),
        (lambda: chain(5, 3), "defenders must be a non-empty sequence"),
        (lambda: chain(5, "32"), "defenders must be a non-empty sequence"),
        (lambda: chain(5, [2, 0]), r"defenders\[1\] must be a whole number >= 1, got 0"),
        (lambda: chain(5, [2, 1.5]), r"defenders\[1\] must be a whole number >= 1, got 1.5"),
        (lambda: chain(5, [2, 2], garrison=0), "garrison must be a whole number >= 1, got 0"),
        (lambda: chain(5, [2, 2], garrison=[1, 1]), "garrison needs one entry per territory the stack moves on from"),
        (lambda: chain(5, [2, 2], stop_at=5), r"stop_at must be below the attacking armies \(5\)"),
        (lambda: chain_armies_needed([2], 1.0), "target probability"),
        (lambda: conquest({"S": 5}, {"A": 1, "B": 1}, [("S", "A")]), "no staging territory can reach: B"),
        (lambda: conquest({"S": 5}, {"S": 1}, []), "both staging and a target: S"),
        (lambda: conquest({}, {"A": 1}, []), "at least one staging territory"),
        (lambda: conquest({"S": 5}, {"A": -1}, [("S", "A")]), "defenders of 'A' must be a whole number >= 1, got -1"),
        (lambda: conquest({"S": 5}, {"A": 1}, [("S", "A")], garrison={"Q": 2}), "neither staging nor targets: Q"),
    ],
)
def test_bad_chain_input(call, message) -> None:
    with pytest.raises(BattleInputError, match=message):
        call()
