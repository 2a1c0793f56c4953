"""The headline findings of the studies, measured in one population and compared across populations.

A finding is one difference in win rate with its interval, where 0 means "no effect":

* ``moves first``: the win rate of the seat that moves first minus its fair share (Wilson interval);
* ``first claim in <continent>``: seats whose first claim (drawn at random) was in that continent,
  minus the other seats, bootstrapped over games;
* ``a full continent at the start``: seats holding a whole continent when the first turn begins,
  minus the rest, bootstrapped over games;
* ``trade <policy>``: a card policy in one seat minus the population's own (``value:10``) on the same
  seeds (:func:`~analyzer.studies.cards.card_timing`, a paired t interval);
* ``hold <continent> after round 3``: holders minus seats of the same size
  (:func:`~analyzer.studies.continents.holding_value`'s ``adjusted``, bootstrapped over games).

:func:`headline_findings` measures them in one population (:data:`~analyzer.studies.policies.POPULATIONS`);
:func:`compare_populations` sets several side by side and says which hold in all of them: a finding
**holds** when in every population its interval excludes 0 on the same side. A finding that is
significant in every population but on opposite sides **reverses**; one whose every interval lies
within one point of 0 (:data:`~analyzer.studies.stats.EQUIVALENCE_MARGIN`) is **equivalent**: too small
to matter anywhere. Otherwise it is ``mixed``: some population cannot tell it from 0, nor from a
difference that matters (:func:`~analyzer.studies.stats.verdicts`).

>>> frame = pd.DataFrame({"study": "s", "finding": "f", "n_players": 4, "estimate": [0.1, 0.2, -0.1],
...                       "low": [0.05, 0.1, -0.2], "high": [0.15, 0.3, 0.01], "population": ["a", "b", "c"]})
>>> compare_populations(frame)[["a", "c", "verdict"]].to_dict("records")
[{'a': 0.1, 'c': -0.1, 'verdict': 'mixed'}]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from analyzer.errors import StudyError
from analyzer.sim.intervals import wilson_interval
from analyzer.studies.cards import BASELINE, PLAYER_COUNTS, card_timing
from analyzer.studies.continents import holding_value, play_continents
from analyzer.studies.openings import play_openings
from analyzer.studies.policies import population_name
from analyzer.studies.stats import VERDICTS, check_count, rate_difference, verdicts

#: The card policies compared with the population's own; the continent policy plays in Python, too slowly
#: for three populations at this size (its figures stay in the card-timing notebook).
POLICIES = ("first", "forced", "value:8", "value:12", "value:15")
#: The round after which continent holdings are read.
HOLDING_ROUND = 3
#: The study name of the card-timing findings.
CARD_STUDY = "card timing"
#: Columns of a findings table.
COLUMNS = ["study", "finding", "n_players", "estimate", "low", "high"]


def headline_tables(
    population: str,
    n_games: int,
    seed: int = 2026,
    *,
    player_counts: Sequence[int] = PLAYER_COUNTS,
    workers: int = 1,
    progress: bool = False,
) -> dict[str, pd.DataFrame]:
    """Run the three headline studies with ``n_games`` games per player count (and per card policy) in
    the ``population``: ``openings`` (the opening findings, :func:`opening_findings`), ``card_timing``
    (:func:`~analyzer.studies.cards.card_timing`'s table) and ``continent_value``
    (:func:`~analyzer.studies.continents.holding_value` after round :data:`HOLDING_ROUND`)."""
    population = population_name(population)
    n_games = check_count(n_games, "n_games", 2)
    openings = pd.concat(
        [
            opening_findings(
                play_openings(
                    n, n_games, seed + n, random_claims=1, population=population, workers=workers, progress=progress
                ).features,
                seed,
            )
            for n in player_counts
        ],
        ignore_index=True,
    )
    cards = card_timing(
        player_counts, POLICIES, n_games, seed, population=population, workers=workers, progress=progress
    )
    holdings = pd.concat(
        [
            play_continents(
                n, n_games, seed + n, rounds=HOLDING_ROUND, population=population, workers=workers, progress=progress
            ).holdings
            for n in player_counts
        ],
        ignore_index=True,
    )
    value = holding_value(holdings[holdings["round"] == HOLDING_ROUND], seed=seed)
    return {"openings": openings, "card_timing": cards, "continent_value": value}


def opening_findings(features: pd.DataFrame, seed: int = 0, confidence: float = 0.95) -> pd.DataFrame:
    """The opening findings of one player count's :func:`~analyzer.studies.openings.seat_features`
    (with first claims): columns of :data:`COLUMNS` and ``seats`` (the seats in the group studied)."""
    missing = [
        c
        for c in ("game", "n_players", "order", "won", "full_continents", "first_claim_continent")
        if c not in features.columns
    ]
    if missing or features["n_players"].nunique() != 1:
        raise StudyError(f"opening findings need one player count's seat features with first claims; missing {missing}")
    n = int(features["n_players"].iloc[0])
    game, won = features["game"].to_numpy(), features["won"].to_numpy(dtype=bool)
    rng = np.random.default_rng(seed)
    first = features["order"].to_numpy() == 1
    low, high = wilson_interval(int(won[first].sum()), int(first.sum()), confidence)
    rows = [("openings", "moves first", n, won[first].mean() - 1 / n, low - 1 / n, high - 1 / n, int(first.sum()))]
    groups = [
        (f"first claim in {c}", features["first_claim_continent"].to_numpy() == c)
        for c in sorted(features["first_claim_continent"].unique())
    ]
    groups.append(("a full continent at the start", features["full_continents"].to_numpy() > 0))
    for label, mask in groups:
        d = rate_difference(game, won, mask, confidence=confidence, rng=rng)
        rows.append(("openings", label, n, d.estimate, d.ci_low, d.ci_high, int(mask.sum())))
    return pd.DataFrame(rows, columns=[*COLUMNS, "seats"])


def headline_findings(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The findings of :func:`headline_tables`' tables, one row each: columns of :data:`COLUMNS`."""
    value = tables["continent_value"]
    return pd.concat(
        [
            tables["openings"][COLUMNS],
            card_findings(tables["card_timing"]),
            pd.DataFrame(
                {
                    "study": "continent value",
                    "finding": "hold " + value["continent"] + f" after round {HOLDING_ROUND}",
                    "n_players": value["n_players"],
                    "estimate": value["adjusted"],
                    "low": value["adjusted_low"],
                    "high": value["adjusted_high"],
                }
            ),
        ],
        ignore_index=True,
    )


def card_findings(cards: pd.DataFrame) -> pd.DataFrame:
    """The card-timing findings of :func:`~analyzer.studies.cards.card_timing`'s table: each policy but
    the baseline against it, columns of :data:`COLUMNS`."""
    cards = cards[cards["policy"] != BASELINE]
    return pd.DataFrame(
        {
            "study": CARD_STUDY,
            "finding": "trade " + cards["policy"],
            "n_players": cards["n_players"],
            "estimate": cards["vs_baseline"],
            "low": cards["vs_baseline_low"],
            "high": cards["vs_baseline_high"],
        }
    )


def replace_card_findings(findings: pd.DataFrame, cards: pd.DataFrame) -> pd.DataFrame:
    """``findings`` (:func:`headline_findings`) with its card-timing rows of the player counts in ``cards``
    measured anew there (a larger :func:`~analyzer.studies.cards.card_timing` run), in the same place
    among the others; the rows of other player counts are kept. ``cards`` must hold every player
    count's rows it replaces in full (the old and new rows are not interleaved)."""
    fresh = card_findings(cards)
    fresh = fresh.assign(**{c: findings[c].iloc[0] for c in findings.columns if c not in COLUMNS})
    redone = findings["n_players"].isin(set(cards["n_players"]))
    if not redone.all():
        old = findings[(findings["study"] == CARD_STUDY) & ~redone]
        fresh = pd.concat([old, fresh], ignore_index=True).sort_values("n_players", kind="stable")
    is_card = (findings["study"] == CARD_STUDY).to_numpy()
    first = int(np.argmax(is_card)) if is_card.any() else len(findings)
    before, after = findings.iloc[:first], findings.iloc[first:][~is_card[first:]]
    return pd.concat([before, fresh, after], ignore_index=True)[findings.columns]


def compare_populations(findings: pd.DataFrame) -> pd.DataFrame:
    """Findings of several populations (a ``population`` column beside :data:`COLUMNS`) side by side.

    One row per study, finding and player count measured in every population: for each population
    ``<name>``, ``<name>_low``, ``<name>_high``; ``verdict`` (one of :data:`VERDICTS`: see the module)
    and ``holds`` (the verdict is ``holds``). A finding some population lacks (a continent nobody held)
    has no row.
    """
    missing = [c for c in [*COLUMNS, "population"] if c not in findings.columns]
    if missing:
        raise StudyError(f"the findings lack the column(s) {', '.join(missing)}")
    names = list(dict.fromkeys(findings["population"]))
    keys = ["study", "finding", "n_players"]
    wide = findings.pivot_table(index=keys, columns="population", values=["estimate", "low", "high"], sort=False)
    wide = wide.dropna()
    out = wide.index.to_frame(index=False)
    for name in names:
        out[name] = wide[("estimate", name)].to_numpy()
        out[f"{name}_low"] = wide[("low", name)].to_numpy()
        out[f"{name}_high"] = wide[("high", name)].to_numpy()
    out["verdict"] = verdicts(
        np.column_stack([out[f"{name}_low"] for name in names]),
        np.column_stack([out[f"{name}_high"] for name in names]),
    )
    out["holds"] = out["verdict"] == "holds"
    return out


__all__ = [
    "COLUMNS",
    "HOLDING_ROUND",
    "POLICIES",
    "CARD_STUDY",
    "VERDICTS",
    "card_findings",
    "compare_populations",
    "headline_findings",
    "headline_tables",
    "opening_findings",
    "replace_card_findings",
]
