"""Balanced Blitz: SMG Studio's published figures, each step by hand, invariants, and the simulator's draws."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

import analyzer.solver.blitz
from analyzer.bots import CLASSIC_BOT
from analyzer.errors import SimulationError
from analyzer.game.dice import DiceRules
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.sim import playout
from analyzer.sim.battles import battle_sampler, sample_battle
from analyzer.sim.play import play_game
from analyzer.sim.simulate import simulate
from analyzer.solver.battle import BattleOptions, armies_needed, battle, start_values
from analyzer.solver.blitz import (
    OUTCOME_POWER,
    WIN_POWER,
    balance,
    balanced_win_probability,
    outcome_cutoff,
    outcome_power,
    win_chance_cutoff,
    win_chance_power,
)
from analyzer.solver.chains import chain, chain_armies_needed

BLITZ = BattleOptions(balanced_blitz=True)
CAPITAL = DiceRules(defender_max=3)  # SMG's capital: a third defence die


def p_lost(options: BattleOptions, attackers: int, defenders: int, lost: int) -> float:
    """P(the attacker conquers having lost exactly ``lost`` armies): SMG's ``AttackLossChances[lost]``."""
    r = battle(attackers, defenders, options=options)
    hit = (r.defender_left == 0) & (r.attacker_left == attackers - lost)
    return float(r.probability[hit].sum())


# --- SMG Studio's published figures (README of its dice code, RISK: Global Domination) ----------------------
# SMG counts the attacking troops that can roll: its 30 troops are 31 armies on our territory.


def test_smg_true_random_capital_figure() -> None:
    p = p_lost(BattleOptions(dice=CAPITAL), 31, 15, 12)
    assert round(p, 7) == 0.0222128
    assert p == pytest.approx(0.0222128001707278, rel=1e-13)  # the README's full printout


def test_smg_balanced_blitz_capital_figure() -> None:
    p = p_lost(BattleOptions(dice=CAPITAL, balanced_blitz=True), 31, 15, 12)
    assert round(p, 7) == 0.0100283
    assert p == pytest.approx(0.0100282888709122, rel=1e-13)


def test_smg_figures_need_the_rolling_armies_reading() -> None:
    # The true-random figure cannot tell the readings apart: a conquest losing 12 never runs short of
    # three dice from 30 or 31 armies. Balanced Blitz reshapes by the whole battle, so it can.
    assert p_lost(BattleOptions(dice=CAPITAL), 30, 15, 12) == pytest.approx(
        p_lost(BattleOptions(dice=CAPITAL), 31, 15, 12)
    )
    assert round(p_lost(BattleOptions(dice=CAPITAL, balanced_blitz=True), 30, 15, 12), 7) != 0.0100283
    assert battle(49, 50, options=BLITZ).p_win < 0.8  # 49 armies on the territory are not enough


def test_smg_troops_needed_for_80_percent_against_50() -> None:
    n = armies_needed(50, 0.8, options=BLITZ)
    assert n - 1 == 49  # troops that roll, as SMG counts them
    assert battle(n, 50, options=BLITZ).p_win >= 0.8 > battle(n - 1, 50, options=BLITZ).p_win
    assert armies_needed(50, 0.8) > n  # true random needs more: blitz favours the favourite


# --- each step on a small distribution, by hand --------------------------------------------------------------


def test_win_chance_cutoff() -> None:
    # The attacker's 0.04 is at most 0.05: it never wins; the defender's outcomes scale up to 1.
    assert win_chance_cutoff(np.array([0.04, 0.5, 0.46]), 1) == pytest.approx([0, 0.5 / 0.96, 0.46 / 0.96])
    # The defender's 0.05 (at most the cutoff, inclusive): the attacker always wins.
    assert win_chance_cutoff(np.array([0.7, 0.25, 0.05]), 2) == pytest.approx([0.7 / 0.95, 0.25 / 0.95, 0])
    # Above the cutoff on both sides nothing changes.
    assert win_chance_cutoff(np.array([0.5, 0.2, 0.3]), 2).tolist() == [0.5, 0.2, 0.3]
    assert win_chance_cutoff(np.array([0.06, 0.94]), 1).tolist() == [0.06, 0.94]


def test_win_chance_power() -> None:
    p = np.array([0.6, 0.2, 0.2])
    w = 0.8**WIN_POWER / (0.8**WIN_POWER + 0.2**WIN_POWER)
    # Each side keeps its shape, scaled to its new total.
    assert win_chance_power(p, 2) == pytest.approx([0.75 * w, 0.25 * w, 1 - w])
    assert win_chance_power(np.array([0.25, 0.25, 0.5]), 2) == pytest.approx([0.25, 0.25, 0.5])


def test_outcome_cutoff_on_one_line() -> None:
    # Line: conquests 0.05, 0.45, then stops 0.3, 0.2. The 0.1 cut from the attacker's end takes the
    # first outcome and 0.05 of the second; the one from the other end leaves the last stop 0.1.
    assert outcome_cutoff(np.array([0.05, 0.45, 0.3, 0.2]), 2) == pytest.approx([0, 0.4 / 0.8, 0.3 / 0.8, 0.1 / 0.8])
    # The cut can change who is favoured: a 0.15 conquest keeps 0.05 of 0.8.
    out = outcome_cutoff(np.array([0.15, 0.05, 0.8]), 1)
    assert out == pytest.approx([0.0625, 0.0625, 0.875])
    # One outcome straddling both cuts keeps its middle; a side under 0.1 at an end vanishes.
    assert outcome_cutoff(np.array([1.0]), 1).tolist() == [1.0]
    assert outcome_cutoff(np.array([0.95, 0.05]), 1) == pytest.approx([1.0, 0.0])


def test_outcome_power_keeps_each_side() -> None:
    p = np.array([0.3, 0.1, 0.6])
    r = 3**OUTCOME_POWER
    assert outcome_power(p, 2) == pytest.approx([0.4 * r / (r + 1), 0.4 / (r + 1), 0.6])
    # Tiny outcomes do not underflow to nothing: the side keeps its chance.
    tiny = outcome_power(np.array([1e-200, 1e-201, 1.0 - 1.1e-200]), 2)
    assert tiny[:2].sum() == pytest.approx(1.1e-200) and tiny[0] > tiny[1] > 0


def test_the_steps_in_order_on_the_smallest_battle() -> None:
    # One rolling army against one defender: 5/12 against 7/12, one outcome per side.
    w = 5**WIN_POWER / (5**WIN_POWER + 7**WIN_POWER)
    r = battle(2, 1, options=BLITZ)
    assert r.p_win == pytest.approx((w - 0.1) / 0.8, rel=1e-14)
    assert r.probability.tolist() == pytest.approx([(w - 0.1) / 0.8, (0.9 - w) / 0.8])
    p = np.array([0.5, 0.2, 0.3])
    expected = outcome_power(outcome_cutoff(win_chance_power(win_chance_cutoff(p, 1), 1), 1), 1)
    assert balance(p, 1).tolist() == expected.tolist()


# --- invariants over every dice variant and stop rule --------------------------------------------------------

VARIANTS = [
    BattleOptions(balanced_blitz=True),
    BattleOptions(dice=CAPITAL, balanced_blitz=True),
    BattleOptions(dice=DiceRules(sides=8, ties_to_attacker=True), balanced_blitz=True),
    BattleOptions(attacker_dice=2, defender_dice=1, balanced_blitz=True),
    BattleOptions(stop_mode="cap", balanced_blitz=True),
]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(2, 60), st.integers(1, 60), st.integers(1, 6))
def test_balanced_distributions_are_distributions(
    options: BattleOptions, attackers: int, defenders: int, stop: int
) -> None:
    stop = min(stop, attackers - 1)
    exact = battle(
        attackers,
        defenders,
        stop_at=stop,
        options=BattleOptions(options.dice, options.attacker_dice, options.defender_dice, options.stop_mode),
    )
    r = battle(attackers, defenders, stop_at=stop, options=options)
    assert (r.probability > 0).all()
    assert r.probability.sum() == pytest.approx(1.0, abs=1e-12)
    # The win chance follows from the true-random one alone.
    assert r.p_win == pytest.approx(float(balanced_win_probability(exact.p_win)), abs=1e-12)
    # Balanced outcomes are true-random outcomes, in the same order (best for the attacker first).
    pairs = list(zip(exact.attacker_left.tolist(), exact.defender_left.tolist()))
    where = [pairs.index(o) for o in zip(r.attacker_left.tolist(), r.defender_left.tolist())]
    assert where == sorted(where)


def test_outcomes_away_from_the_cuts_keep_their_ratios_raised_to_the_power() -> None:
    exact, r = battle(20, 12), battle(20, 12, options=BLITZ)
    won = exact.defender_left == 0
    true = dict(zip(exact.attacker_left[won].tolist(), exact.probability[won]))
    ours = dict(zip(r.attacker_left[r.defender_left == 0].tolist(), r.probability[r.defender_left == 0]))
    inner = sorted(ours)[1:-1]  # the end ones may straddle a cut
    i, j = inner[0], inner[-1]
    assert ours[i] / ours[j] == pytest.approx((true[i] / true[j]) ** OUTCOME_POWER, rel=1e-9)


def test_hopeless_and_certain_attacks() -> None:
    assert battle(3, 10).p_win > 0
    hopeless = battle(3, 10, options=BLITZ)
    assert hopeless.p_win == 0 and (hopeless.defender_left > 0).all()
    certain = battle(30, 3, options=BLITZ)
    assert certain.p_win == pytest.approx(1.0) and (certain.defender_left == 0).all()


def test_a_thousand_against_a_thousand() -> None:
    # Web calculators run out of memory here; the solver stays O(A + D).
    for dice in (DiceRules(), CAPITAL):
        exact = battle(1000, 1000, options=BattleOptions(dice=dice))
        r = battle(1000, 1000, options=BattleOptions(dice=dice, balanced_blitz=True))
        assert r.probability.sum() == pytest.approx(1.0, abs=1e-12)
        assert r.p_win == pytest.approx(float(balanced_win_probability(exact.p_win)), abs=1e-12)


def test_searches_use_the_balanced_distribution() -> None:
    values = start_values(14, 6, np.ones(15), 1, BLITZ)
    assert values[12] == pytest.approx(battle(12, 6, options=BLITZ).p_win)
    assert values[1] == 0
    for d, p in [(8, 0.6), (20, 0.9), (3, 0.5)]:
        n = armies_needed(d, p, options=BLITZ)
        assert battle(n, d, options=BLITZ).p_win >= p > battle(n - 1, d, options=BLITZ).p_win
    r = chain(12, [4, 3], options=BLITZ)
    assert r.p_conquer[0] == pytest.approx(battle(12, 4, options=BLITZ).p_win)
    n = chain_armies_needed([4, 3], 0.7, options=BLITZ)
    assert chain(n, [4, 3], options=BLITZ).p_win >= 0.7 > chain(n - 1, [4, 3], options=BLITZ).p_win


# --- the simulator -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("attackers, defenders, stop", [(12, 8, 1), (9, 6, 3), (25, 10, 1)])
def test_sampled_battles_follow_the_balanced_distribution(attackers: int, defenders: int, stop: int) -> None:
    r = battle(attackers, defenders, stop_at=stop, options=BLITZ)
    expected = dict(zip(zip(r.attacker_left.tolist(), r.defender_left.tolist()), r.probability))
    cdf, outcomes = battle_sampler(attackers, defenders, stop, DiceRules(), balanced_blitz=True)
    assert outcomes == list(expected)
    assert np.diff(cdf, prepend=0.0) == pytest.approx(list(expected.values()))
    n = 40_000
    rng = np.random.default_rng(11)
    drawn = [sample_battle(attackers, defenders, stop, DiceRules(), rng, balanced_blitz=True) for _ in range(n)]
    # The compiled playout's cache and draw, fed uniforms from the same kind of generator.
    cache = playout.BattleCache().arrays()
    kernel = playout._kernel(DiceRules(), True)
    u = np.random.default_rng(12).random(n)
    compiled = [tuple(playout._draw_battle(*cache, attackers, defenders, stop, kernel, x)[:2]) for x in u]
    for sample in (drawn, compiled):
        assert set(sample) <= set(expected)  # outcomes cut away are never drawn
        counts = np.array([sample.count(o) for o in expected])
        assert chisquare(counts, n * np.array(list(expected.values()))).pvalue > 1e-3


def test_balanced_blitz_cannot_be_rolled_die_by_die() -> None:
    rules = Rules(balanced_blitz=True)
    with pytest.raises(SimulationError, match="Balanced Blitz reshapes whole battles"):
        simulate(2, "default", n_games=1, rules=rules, sample_battles=False, progress=False)
    state = GameState.new(2, np.random.default_rng(0), rules)
    with pytest.raises(SimulationError, match="sample_battles=True"):
        play_game(state, [CLASSIC_BOT] * 2, np.random.default_rng(0), sample_battles=False)
    with pytest.raises(SimulationError, match="sample_battles=True"):
        playout.play_compiled(state, [CLASSIC_BOT] * 2, np.random.default_rng(0), sample_battles=False)


def test_balanced_games_are_the_same_compiled_or_in_python() -> None:
    rules = Rules(balanced_blitz=True)
    fast = simulate(2, "default", n_games=3, seed=5, rules=rules, progress=False)
    slow = simulate(2, "default", n_games=3, seed=5, rules=rules, compiled=False, progress=False)
    classic = simulate(2, "default", n_games=3, seed=5, progress=False)
    for table in ("games", "seats"):
        assert getattr(fast, table).equals(getattr(slow, table))
    assert not fast.seats.equals(classic.seats)


def test_rules_option_is_checked_and_round_trips() -> None:
    from analyzer.errors import RulesError

    with pytest.raises(RulesError, match="balanced_blitz must be True or False, got 'yes'"):
        Rules(balanced_blitz="yes")  # type: ignore[arg-type]
    assert Rules.from_dict(Rules(balanced_blitz=True).to_dict()) == Rules(balanced_blitz=True)


def test_docstring_examples() -> None:
    assert doctest.testmod(analyzer.solver.blitz).failed == 0
