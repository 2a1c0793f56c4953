"""The battle calculator's answer: one battle or a chain, with every option of the ``odds`` CLI, as plain values.

The app's calculator is this function laid out; it takes counts only, so it
answers "12 against 7?" with no game open.

>>> odds = quick_odds(12, [7], target_p=0.75)
>>> round(odds.p_win, 4), odds.armies_needed
(0.852, 11)
>>> odds = quick_odds(10, [3, 2])            # a chain: 3 defenders, then 2
>>> [round(p, 4) for p in odds.p_conquer]
[0.967, 0.8435]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.errors import BattleInputError
from analyzer.game.board import classic_board
from analyzer.limits import MAX_ARMIES
from analyzer.solver.battle import BattleOptions, armies_needed, battle, whole_number
from analyzer.solver.chains import chain, chain_armies_needed

#: Most territories in a chain: on the classic map a stack can attack every other territory, one after another.
MAX_CHAIN = classic_board().n_territories - 1
#: Most defenders (summed over a chain) for which the armies needed are searched: the search grows with the
#: square of the defenders, and a calculator must answer at once.
MAX_NEEDED_DEFENDERS = 3_000
#: Outcomes less likely than this at either end of a distribution are left out of the survivors' chart.
CHART_TAIL = 1e-6


@dataclass(frozen=True)
class QuickOdds:
    """How an attack from ``attackers`` armies on one territory against ``defenders`` (one count per territory
    of a chain) can end.

    ``p_conquer[k]`` is the probability of taking the first ``k + 1``
    territories. The spreads (standard deviations) of the losses are known for
    a single battle only (None for a chain). ``armies_needed`` is None when not
    asked for, or past :data:`MAX_NEEDED_DEFENDERS`. ``survivors`` has a row per
    number of armies left on the attacking stack where the attack ended
    (``armies``, ``outcome`` "conquered" or "stopped", ``probability``);
    ``defenders_left`` a row per number of defenders left on the territory
    where it ended (0: conquered).
    """

    attackers: int
    defenders: tuple[int, ...]
    stop_at: int
    options: BattleOptions
    p_win: float
    p_conquer: tuple[float, ...]
    expected_attacker_losses: float
    expected_defender_losses: float
    std_attacker_losses: float | None
    std_defender_losses: float | None
    target_p: float | None
    armies_needed: int | None
    survivors: pd.DataFrame
    defenders_left: pd.DataFrame


def _trimmed(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    """``frame`` without the rows at either end of ``column`` whose whole tail is below :data:`CHART_TAIL`."""
    totals = frame.groupby(column)["probability"].sum().sort_index()
    cumulative = totals.cumsum().to_numpy()
    keep = totals.index[(cumulative >= CHART_TAIL) & (cumulative - totals.to_numpy() <= 1 - CHART_TAIL)]
    return frame[frame[column].between(keep.min(), keep.max())].reset_index(drop=True)


def _survivors(
    attacker_left: np.ndarray, won: np.ndarray, defender_left: np.ndarray, probability: np.ndarray
) -> tuple[pd.DataFrame, pd.DataFrame]:
    survivors = (
        pd.DataFrame(
            {"armies": attacker_left, "outcome": np.where(won, "conquered", "stopped"), "probability": probability}
        )
        .groupby(["armies", "outcome"], as_index=False)["probability"]
        .sum()
    )
    left = (
        pd.DataFrame({"defenders": defender_left, "probability": probability})
        .groupby("defenders", as_index=False)["probability"]
        .sum()
    )
    return _trimmed(survivors, "armies"), _trimmed(left, "defenders")


def quick_odds(
    attackers: int,
    defenders: Sequence[int],
    *,
    stop_at: int = 1,
    garrison: int = 1,
    options: BattleOptions | None = None,
    target_p: float | None = None,
) -> QuickOdds:
    """The calculator's answer for ``attackers`` against ``defenders`` (one count per territory, in order).

    Sizes are checked first, against :data:`~analyzer.limits.MAX_ARMIES` and :data:`MAX_CHAIN`, so
    no request past them reaches the solver. ``garrison`` is left in each conquered territory of a
    chain the stack moves on from.
    """
    options = BattleOptions() if options is None else options
    a = whole_number(attackers, "attackers", 2)
    if a > MAX_ARMIES:
        raise BattleInputError(f"attackers must be at most {MAX_ARMIES:,} (the limit on armies), got {a:,}")
    ds = tuple(whole_number(d, "defenders", 1) for d in defenders)
    if not 1 <= len(ds) <= MAX_CHAIN:
        raise BattleInputError(f"a chain has 1 to {MAX_CHAIN} territories, got {len(ds)}")
    if max(ds) > MAX_ARMIES:
        raise BattleInputError(f"defenders must be at most {MAX_ARMIES:,} (the limit on armies), got {max(ds):,}")
    searched = target_p is not None and sum(ds) <= MAX_NEEDED_DEFENDERS
    if len(ds) == 1:
        r = battle(a, ds[0], stop_at=stop_at, options=options)
        # Balanced Blitz's armies needed come from the solver itself, with the same options.
        needed = armies_needed(ds[0], float(target_p or 0), stop_at=stop_at, options=options) if searched else None
        survivors, left = _survivors(r.attacker_left, r.defender_left == 0, r.defender_left, r.probability)
        return QuickOdds(
            a,
            ds,
            r.stop_at,
            options,
            r.p_win,
            (r.p_win,),
            r.expected_attacker_losses,
            r.expected_defender_losses,
            r.std_attacker_losses,
            r.std_defender_losses,
            target_p,
            needed,
            survivors,
            left,
        )
    c = chain(a, ds, garrison=garrison, stop_at=stop_at, options=options)
    needed = (
        chain_armies_needed(ds, float(target_p or 0), garrison=garrison, stop_at=stop_at, options=options)
        if searched
        else None
    )
    survivors, left = _survivors(c.attacker_left, c.conquered == len(ds), c.defender_left, c.probability)
    return QuickOdds(
        a,
        ds,
        c.stop_at,
        options,
        c.p_win,
        tuple(float(p) for p in c.p_conquer),
        c.expected_attacker_losses,
        c.expected_defender_losses,
        None,
        None,
        target_p,
        needed,
        survivors,
        left,
    )
