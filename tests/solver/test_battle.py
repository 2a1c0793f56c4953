"""The exact single-battle solver: published values, exact fractions, Monte Carlo, properties, bad input."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.battles import OSBORNE_TABLE_3, simulate

from analyzer.errors import BattleInputError, RiskAnalyzerError
from analyzer.game.dice import DiceRules
from analyzer.solver.battle import (
    EXACT_LIMIT,
    BattleOptions,
    armies_needed,
    battle,
    battle_exact,
    battle_plain,
    win_grid,
)

# Single-roll probabilities as published (e.g. Osborne's table 2), typed in here so the small
# battles below are composed by hand, independently of analyzer.game.dice and of the solver.
ONE_V_ONE = Fraction(15, 36)  # the attacker's die beats the defender's
TWO_V_ONE = Fraction(125, 216)
THREE_V_ONE = Fraction(855, 1296)
ONE_V_TWO = Fraction(55, 216)
THREE_V_TWO_WIN2, THREE_V_TWO_SPLIT, THREE_V_TWO_LOSE2 = (
    Fraction(2890, 7776),
    Fraction(2611, 7776),
    Fraction(2275, 7776),
)


def exact_p_win(attackers: int, defenders: int, **kwargs: object) -> Fraction:
    return sum((p for (a, d), p in battle_exact(attackers, defenders, **kwargs).items() if d == 0), Fraction(0))


# --- published values --------------------------------------------------------------------------------


@pytest.mark.parametrize("rolling", range(1, 11))
def test_osborne_table_3(rolling: int) -> None:
    # Osborne's A counts the armies that can roll; the territory holds one more.
    for defenders, published in enumerate(OSBORNE_TABLE_3[rolling - 1], start=1):
        p = battle(rolling + 1, defenders).p_win
        assert abs(p - published) <= 0.0005 + 1e-12, (rolling, defenders, p, published)


def test_published_exact_fractions_in_armies_on_the_territory() -> None:
    # 3 armies on the territory (2 roll) against 3 and against 4 defenders.
    assert exact_p_win(3, 3) == Fraction(692225, 3359232)
    assert exact_p_win(3, 4) == Fraction(5520775, 60466176)
    assert battle(3, 3).p_win == pytest.approx(692225 / 3359232, rel=1e-15)
    assert battle(3, 4).p_win == pytest.approx(5520775 / 60466176, rel=1e-15)


@pytest.mark.parametrize(
    ("attackers", "defenders", "published"), [(10, 10, 0.47993525647768026), (5, 3, 0.6416228964559516)]
)
def test_published_doubles_to_the_last_bit(attackers: int, defenders: int, published: float) -> None:
    # Printed as doubles from float sums: each is within one unit in the last place of the exact
    # fraction, and so is ours (10 v 10 is the correctly rounded one, 5 v 3 the same double as printed).
    ulp = math.ulp(published)
    assert abs(Fraction(published) - exact_p_win(attackers, defenders)) < ulp
    assert abs(battle(attackers, defenders).p_win - published) <= ulp


def test_the_table_is_in_board_counts() -> None:
    r = battle(10, 5)
    assert r.rolling == 9
    assert round(r.p_win, 3) == OSBORNE_TABLE_3[8][4]


# --- exact fractions of small cases, composed by hand ----------------------------------------------------


def test_one_rolling_army_against_one_defender_wins_five_twelfths() -> None:
    assert battle_exact(2, 1) == {(2, 0): Fraction(5, 12), (1, 1): Fraction(7, 12)}
    assert battle(2, 1).p_win == pytest.approx(5 / 12, abs=1e-16)


def test_small_battles_by_hand() -> None:
    p_3v1 = TWO_V_ONE + (1 - TWO_V_ONE) * ONE_V_ONE  # 2 dice; after a loss, 1 die
    p_2v2 = ONE_V_TWO * ONE_V_ONE  # must win against 2 dice, then against 1
    p_4v1 = THREE_V_ONE + (1 - THREE_V_ONE) * p_3v1
    p_4v2 = THREE_V_TWO_WIN2 + THREE_V_TWO_SPLIT * p_3v1 + THREE_V_TWO_LOSE2 * p_2v2
    assert p_3v1 == Fraction(1955, 2592)
    assert p_2v2 == Fraction(275, 2592)
    for (a, d), expected in {(3, 1): p_3v1, (2, 2): p_2v2, (4, 1): p_4v1, (4, 2): p_4v2}.items():
        assert exact_p_win(a, d) == expected
        assert battle(a, d).p_win == pytest.approx(float(expected), rel=1e-15)


def test_exact_outcomes_of_a_stop_rule_by_hand() -> None:
    # 5 against 2, stopping at 3: one 3v2 roll, then from (4, 1) one 3v1 roll.
    expected = {
        (5, 0): THREE_V_TWO_WIN2,
        (4, 0): THREE_V_TWO_SPLIT * THREE_V_ONE,
        (3, 1): THREE_V_TWO_SPLIT * (1 - THREE_V_ONE),
        (3, 2): THREE_V_TWO_LOSE2,
    }
    assert battle_exact(5, 2, stop_at=3) == expected
    r = battle(5, 2, stop_at=3)
    assert {(int(a), int(d)): p for a, d, p in zip(r.attacker_left, r.defender_left, r.probability)} == pytest.approx(
        {k: float(v) for k, v in expected.items()}, rel=1e-15
    )


def test_cap_mode_never_ends_below_the_threshold() -> None:
    # From 5 armies stopping at 3 the cap allows 2 dice, then 1: the territory never holds fewer than 3.
    out = battle_exact(5, 4, stop_at=3, options=BattleOptions(stop_mode="cap"))
    assert min(a for a, _ in out) == 3
    assert sum(out.values()) == 1
    overshoot = battle_exact(5, 4, stop_at=3)
    assert min(a for a, _ in overshoot) == 2


def test_a_defender_who_always_rolls_one_die() -> None:
    one = BattleOptions(defender_dice=1)
    # 3 dice against 1 die at every roll: a negative binomial race.
    p_one = exact_p_win(4, 2, options=one)
    # 3 dice (then fewer) against a single die at every roll, state by state:
    p_3_1 = TWO_V_ONE + (1 - TWO_V_ONE) * ONE_V_ONE
    p_3_2 = TWO_V_ONE * p_3_1 + (1 - TWO_V_ONE) * ONE_V_ONE * ONE_V_ONE
    p_4_1 = THREE_V_ONE + (1 - THREE_V_ONE) * p_3_1
    expected = THREE_V_ONE * p_4_1 + (1 - THREE_V_ONE) * p_3_2
    assert p_one == expected
    assert p_one > exact_p_win(4, 2)


# --- agreement between the three solvers and with the engine's dice --------------------------------------


OPTION_SETS = [
    BattleOptions(),
    BattleOptions(stop_mode="cap"),
    BattleOptions(dice=DiceRules(defender_max=3)),
    BattleOptions(dice=DiceRules(sides=8)),
    BattleOptions(dice=DiceRules(ties_to_attacker=True)),
    BattleOptions(attacker_dice=2, defender_dice=1),
    BattleOptions(dice=DiceRules(sides=4, attacker_max=4, defender_max=3), stop_mode="cap"),
    BattleOptions(dice=DiceRules(sides=2, attacker_max=5, defender_max=5)),
]


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize(
    ("attackers", "defenders", "stop_at"), [(2, 1, 1), (7, 6, 1), (13, 9, 4), (9, 14, 2), (30, 4, 1)]
)
def test_float_solvers_match_exact_fractions(
    options: BattleOptions, attackers: int, defenders: int, stop_at: int
) -> None:
    exact = battle_exact(attackers, defenders, stop_at=stop_at, options=options)
    assert sum(exact.values()) == 1
    dense = np.zeros((attackers + 1, defenders + 1))
    for (a, d), p in exact.items():
        dense[a, d] = float(p)
    for solver in (battle, battle_plain):
        got = solver(attackers, defenders, stop_at=stop_at, options=options).joint()
        assert np.allclose(got, dense, rtol=1e-13, atol=1e-300), solver.__name__


@pytest.mark.parametrize("options", OPTION_SETS)
def test_fast_path_matches_the_plain_sweep_on_large_battles(options: BattleOptions) -> None:
    for attackers, defenders, stop_at in [(300, 250, 1), (120, 400, 7), (500, 60, 30)]:
        fast = battle(attackers, defenders, stop_at=stop_at, options=options)
        plain = battle_plain(attackers, defenders, stop_at=stop_at, options=options)
        assert np.allclose(fast.joint(), plain.joint(), rtol=1e-11, atol=1e-16)
        assert fast.probability.sum() == pytest.approx(1.0, abs=1e-14)


@pytest.mark.parametrize(
    ("attackers", "defenders", "stop_at", "options"),
    [
        (8, 6, 1, BattleOptions()),
        (12, 10, 4, BattleOptions()),
        (12, 10, 4, BattleOptions(stop_mode="cap")),
        (9, 7, 1, BattleOptions(dice=DiceRules(defender_max=3, ties_to_attacker=True), defender_dice=2)),
    ],
)
def test_agrees_with_monte_carlo_of_the_engines_dice(
    attackers: int, defenders: int, stop_at: int, options: BattleOptions
) -> None:
    n = 40_000
    rng = np.random.default_rng(attackers * 100 + defenders)
    sim_a, sim_d = simulate(attackers, defenders, stop_at, options, n, rng)
    r = battle(attackers, defenders, stop_at=stop_at, options=options)
    for a, d, p in zip(r.attacker_left, r.defender_left, r.probability):
        observed = np.mean((sim_a == a) & (sim_d == d))
        assert abs(observed - p) <= 4 * np.sqrt(p * (1 - p) / n) + 1e-9, (a, d, p, observed)
    assert abs(np.mean(sim_d == 0) - r.p_win) <= 4 * np.sqrt(r.p_win * (1 - r.p_win) / n)
    losses = attackers - sim_a
    assert abs(losses.mean() - r.expected_attacker_losses) <= 4 * r.std_attacker_losses / np.sqrt(n)
    assert abs((defenders - sim_d).mean() - r.expected_defender_losses) <= 4 * r.std_defender_losses / np.sqrt(n)


# --- what a result offers ---------------------------------------------------------------------------------


def test_result_summaries_follow_from_the_outcomes() -> None:
    r = battle(10, 5)
    joint = r.joint()
    a_left = np.arange(11)[:, None]
    d_left = np.arange(6)[None, :]
    assert joint.sum() == pytest.approx(1.0, abs=1e-15)
    assert r.expected_attacker_losses == pytest.approx(10 - (joint * a_left).sum(), rel=1e-14)
    assert r.expected_defender_losses == pytest.approx(5 - (joint * d_left).sum(), rel=1e-14)
    var_a = (joint * (a_left - (joint * a_left).sum()) ** 2).sum()
    assert r.std_attacker_losses == pytest.approx(np.sqrt(var_a), rel=1e-12)
    assert np.allclose(r.attacker_distribution(), joint.sum(axis=1))
    assert np.allclose(r.defender_distribution(), joint.sum(axis=0))
    assert r.defender_distribution()[0] == pytest.approx(r.p_win)
    assert r.p_defender_at_most(0) == pytest.approx(r.p_win)
    assert r.p_defender_at_most(2) == pytest.approx(joint[:, :3].sum())
    assert r.p_defender_at_most(5) == pytest.approx(1.0)


def test_exact_expected_losses() -> None:
    exact = battle_exact(10, 5)
    e_att = sum(p * (10 - a) for (a, _), p in exact.items())
    e_def = sum(p * (5 - d) for (_, d), p in exact.items())
    r = battle(10, 5)
    assert r.expected_attacker_losses == pytest.approx(float(e_att), rel=1e-14)
    assert r.expected_defender_losses == pytest.approx(float(e_def), rel=1e-14)


def test_outcomes_are_listed_best_first_and_to_dict_has_the_cli_keys() -> None:
    r = battle(6, 4)
    won = r.defender_left == 0
    assert won[: won.sum()].all()  # conquests first
    assert (np.diff(r.attacker_left[won]) < 0).all()
    assert (np.diff(r.defender_left[~won]) >= 0).all()
    data = r.to_dict()
    assert data["p_win"] == r.p_win and data["rolling"] == 5
    assert {"p_win", "expected_attacker_losses", "expected_defender_losses", "outcomes"} <= data.keys()
    assert data["outcomes"][0] == {"attacker": 6, "defender": 0, "p": pytest.approx(float(r.probability[0]))}
    assert sum(o["p"] for o in data["outcomes"]) == pytest.approx(1.0)


def test_the_one_battle_of_a_thousand_is_exact_to_float_rounding() -> None:
    r = battle(1000, 1000)
    assert len(r.probability) < 2100  # about A + D outcomes
    assert r.probability.sum() == pytest.approx(1.0, abs=1e-15)
    plain = battle_plain(1000, 1000)
    assert r.p_win == pytest.approx(plain.p_win, abs=1e-15)


# --- the backward values and the inverse ------------------------------------------------------------------


def test_win_grid_matches_single_battles() -> None:
    value, mean_a, mean_d = win_grid(30, 1, BattleOptions())
    for a, d in [(2, 1), (10, 5), (30, 30), (17, 3)]:
        r = battle(a, d)
        assert value[a, d] == pytest.approx(r.p_win, rel=1e-13)
        assert a - mean_a[a, d] == pytest.approx(r.expected_attacker_losses, rel=1e-13)
        assert d - mean_d[a, d] == pytest.approx(r.expected_defender_losses, rel=1e-13)


def test_armies_needed_is_the_first_count_that_reaches_p() -> None:
    for defenders, p in [(1, 0.5), (5, 0.8), (10, 0.75), (20, 0.99), (3, 0.999999)]:
        n = armies_needed(defenders, p)
        assert battle(n, defenders).p_win >= p
        assert n == 2 or battle(n - 1, defenders).p_win < p
    assert armies_needed(1, 0.5) == 3  # 2 armies win 5/12 of the time


def test_armies_needed_with_stop_and_variants() -> None:
    options = BattleOptions(stop_mode="cap", dice=DiceRules(defender_max=3))
    n = armies_needed(6, 0.7, stop_at=3, options=options)
    assert battle(n, 6, stop_at=3, options=options).p_win >= 0.7 > battle(n - 1, 6, stop_at=3, options=options).p_win


# --- properties ---------------------------------------------------------------------------------------------------

dice_rules = st.builds(
    DiceRules,
    sides=st.integers(2, 10),
    attacker_max=st.integers(1, 4),
    defender_max=st.integers(1, 3),
    ties_to_attacker=st.booleans(),
)


@st.composite
def battles(draw: st.DrawFn, max_armies: int = 80) -> tuple[int, int, int, BattleOptions]:
    dice = draw(dice_rules)
    options = BattleOptions(
        dice=dice,
        attacker_dice=draw(st.none() | st.integers(1, dice.attacker_max)),
        defender_dice=draw(st.none() | st.integers(1, dice.defender_max)),
        stop_mode=draw(st.sampled_from(["overshoot", "cap"])),
    )
    attackers = draw(st.integers(2, max_armies))
    defenders = draw(st.integers(1, max_armies))
    stop_at = draw(st.integers(1, attackers - 1))
    return attackers, defenders, stop_at, options


@settings(max_examples=150, deadline=None)
@given(battles())
def test_every_distribution_sums_to_one_and_matches_the_plain_sweep(case: tuple[int, int, int, BattleOptions]) -> None:
    attackers, defenders, stop_at, options = case
    r = battle(attackers, defenders, stop_at=stop_at, options=options)
    assert r.probability.sum() == pytest.approx(1.0, abs=1e-13)
    assert (r.probability > 0).all()
    ended = (r.defender_left == 0) | (r.attacker_left <= stop_at)
    assert ended.all()
    if options.stop_mode == "cap":
        assert (r.attacker_left >= stop_at).all()
    plain = battle_plain(attackers, defenders, stop_at=stop_at, options=options)
    assert np.allclose(r.joint(), plain.joint(), rtol=1e-11, atol=1e-15)
    assert r.expected_attacker_losses == pytest.approx(attackers - r.attacker_distribution() @ np.arange(attackers + 1))


@settings(max_examples=60, deadline=None)
@given(battles(max_armies=10))
def test_float_solver_matches_exact_fractions(case: tuple[int, int, int, BattleOptions]) -> None:
    attackers, defenders, stop_at, options = case
    exact = battle_exact(attackers, defenders, stop_at=stop_at, options=options)
    r = battle(attackers, defenders, stop_at=stop_at, options=options)
    got = {(int(a), int(d)): float(p) for a, d, p in zip(r.attacker_left, r.defender_left, r.probability)}
    assert got == pytest.approx({k: float(v) for k, v in exact.items() if v > 0}, rel=1e-13)


@settings(max_examples=60, deadline=None)
@given(dice_rules, st.integers(2, 60), st.integers(1, 60))
def test_p_win_is_monotone_in_both_armies(dice: DiceRules, attackers: int, defenders: int) -> None:
    options = BattleOptions(dice=dice)
    p = battle(attackers, defenders, options=options).p_win
    assert battle(attackers + 1, defenders, options=options).p_win >= p - 1e-15
    assert battle(attackers, defenders + 1, options=options).p_win <= p + 1e-15


# --- bad input -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((1, 3), {}, "attackers must be a whole number >= 2, got 1"),
        ((0, 3), {}, "attackers must be a whole number >= 2, got 0"),
        ((-4, 3), {}, "attackers must be a whole number >= 2, got -4"),
        ((5, 0), {}, "defenders must be a whole number >= 1, got 0"),
        ((5, -2), {}, "defenders must be a whole number >= 1, got -2"),
        ((5.5, 2), {}, "attackers must be a whole number >= 2, got 5.5"),
        (("5", 2), {}, "attackers must be a whole number >= 2, got '5'"),
        ((5, 2.0), {}, "defenders must be a whole number >= 1, got 2.0"),
        ((True, 2), {}, "attackers must be a whole number >= 2, got True"),
        ((5, 2), {"stop_at": 5}, "stop_at must be below the attacking armies (5), got 5"),
        ((5, 2), {"stop_at": 9}, "stop_at must be below the attacking armies (5), got 9"),
        ((5, 2), {"stop_at": 0}, "stop_at must be a whole number >= 1, got 0"),
        ((5, 2), {"stop_at": 2.5}, "stop_at must be a whole number >= 1, got 2.5"),
        ((5, 2), {"options": "cap"}, "options must be a BattleOptions, got str"),
    ],
)
def test_bad_battle_input_is_a_clear_value_error(args: tuple, kwargs: dict, message: str) -> None:
    for solver in (battle, battle_plain, battle_exact):
        with pytest.raises(BattleInputError) as info:
            solver(*args, **kwargs)
        assert str(info.value).startswith(message)
        assert isinstance(info.value, (ValueError, RiskAnalyzerError))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"attacker_dice": 4}, "attacker_dice must be None or a whole number from 1 to 3, got 4"),
        ({"defender_dice": 0}, "defender_dice must be None or a whole number from 1 to 2, got 0"),
        ({"defender_dice": 1.5}, "defender_dice must be None or a whole number from 1 to 2, got 1.5"),
        ({"stop_mode": "never"}, "stop_mode must be 'overshoot' or 'cap', got 'never'"),
        ({"dice": 6}, "dice must be a DiceRules, got int"),
        ({"balanced_blitz": "yes"}, "balanced_blitz must be True or False, got 'yes'"),
    ],
)
def test_bad_options(kwargs: dict, message: str) -> None:
    with pytest.raises(
        BattleInputError, match="^" + message.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")
    ):
        BattleOptions(**kwargs)


def test_bad_inverse_and_exact_requests() -> None:
    for p in (0, 1, 1.5, -0.1, "0.5", None):
        with pytest.raises(BattleInputError, match="target probability"):
            armies_needed(3, p)  # type: ignore[arg-type]
    with pytest.raises(BattleInputError, match="defenders"):
        armies_needed(0, 0.5)
    with pytest.raises(BattleInputError, match="small battles"):
        battle_exact(EXACT_LIMIT, 2)
    with pytest.raises(BattleInputError, match="no exact rational form"):
        battle_exact(5, 2, options=BattleOptions(balanced_blitz=True))
    with pytest.raises(BattleInputError, match="g must be a whole number >= 0"):
        battle(5, 2).p_defender_at_most(-1)
