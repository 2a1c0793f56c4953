"""The headline findings of a population and their comparison across populations."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analyzer.errors import StudyError
from analyzer.studies.headline import (
    COLUMNS,
    POLICIES,
    compare_populations,
    headline_findings,
    headline_tables,
    opening_findings,
)
from analyzer.studies.stats import VERDICTS, verdicts


def finding(population: str, estimate: float, low: float, high: float, name: str = "f") -> dict:
    return {
        "study": "s",
        "finding": name,
        "n_players": 4,
        "estimate": estimate,
        "low": low,
        "high": high,
        "population": population,
    }


def test_a_finding_holds_when_every_interval_excludes_zero_on_the_same_side():
    rows = [
        *(finding(p, 0.1, 0.02, 0.2, "up") for p in "abc"),
        *(finding(p, -0.1, -0.2, -0.02, "down") for p in "abc"),
        finding("a", 0.1, 0.02, 0.2, "flip"),
        finding("b", -0.1, -0.2, -0.02, "flip"),
        finding("c", 0.1, 0.05, 0.2, "flip"),
        finding("a", 0.1, 0.02, 0.2, "unclear"),
        finding("b", 0.05, -0.01, 0.1, "unclear"),
        finding("c", 0.1, 0.05, 0.2, "unclear"),
        finding("a", 0.1, 0.02, 0.2, "lacking"),
        finding("b", 0.1, 0.02, 0.2, "lacking"),
        # Every interval within one point of 0, one of them on the edge: too small to matter anywhere.
        finding("a", 0.002, -0.004, 0.008, "small"),
        finding("b", 0.0, -0.01, 0.01, "small"),
        finding("c", -0.003, -0.009, 0.001, "small"),
        # One interval past the margin, another including 0: neither decided nor negligible.
        finding("a", 0.002, -0.004, 0.008, "wide"),
        finding("b", 0.004, -0.006, 0.014, "wide"),
        finding("c", 0.0, -0.005, 0.005, "wide"),
        # Significant everywhere and small everywhere: the sign decides first.
        finding("a", 0.005, 0.001, 0.009, "small up"),
        finding("b", 0.005, 0.002, 0.008, "small up"),
        finding("c", 0.005, 0.003, 0.007, "small up"),
    ]
    table = compare_populations(pd.DataFrame(rows)).set_index("finding")
    assert table["verdict"].to_dict() == {
        "up": "holds",
        "down": "holds",
        "flip": "reverses",
        "unclear": "mixed",
        "small": "equivalent",
        "wide": "mixed",
        "small up": "holds",
    }
    assert table["holds"].to_dict() == {
        "up": True,
        "down": True,
        "flip": False,
        "unclear": False,
        "small": False,
        "wide": False,
        "small up": True,
    }
    assert table.loc["flip", ["a", "b", "b_low", "c_high"]].tolist() == [0.1, -0.1, -0.2, 0.2]
    with pytest.raises(StudyError, match="lack the column"):
        compare_populations(pd.DataFrame(rows).drop(columns="population"))


def test_opening_findings_of_a_hand_made_table():
    # Two games of three seats: the first mover won one of the two; Africa's first claimers won both.
    features = pd.DataFrame(
        {
            "game": [0, 0, 0, 1, 1, 1],
            "n_players": 3,
            "order": [1, 2, 3, 2, 1, 3],
            "won": [True, False, False, False, False, True],
            "full_continents": [0, 1, 0, 0, 0, 0],
            "first_claim_continent": ["Africa", "Asia", "Europe", "Asia", "Europe", "Africa"],
        }
    )
    table = opening_findings(features).set_index("finding")
    assert table.loc["moves first", "estimate"] == pytest.approx(0.5 - 1 / 3)
    assert table.loc["moves first", "low"] < table.loc["moves first", "estimate"] < table.loc["moves first", "high"]
    assert table.loc["first claim in Africa", "estimate"] == 1.0 and table.loc["first claim in Africa", "seats"] == 2
    assert table.loc["a full continent at the start", "estimate"] == pytest.approx(0 - 2 / 5)
    assert list(opening_findings(features).columns) == [*COLUMNS, "seats"]
    with pytest.raises(StudyError, match="one player count"):
        opening_findings(features.drop(columns="order"))


def test_the_headline_studies_of_a_small_run():
    tables = headline_tables("classic", 6, seed=3, player_counts=(3,))
    findings = headline_findings(tables)
    assert list(findings.columns) == COLUMNS and set(findings["n_players"]) == {3}
    assert set(findings["study"]) == {"openings", "card timing", "continent value"}
    assert sorted(findings.loc[findings["study"] == "card timing", "finding"]) == sorted(f"trade {p}" for p in POLICIES)
    assert "moves first" in set(findings["finding"])
    assert tables["card_timing"]["games"].eq(6).all()
    ok = findings.dropna()
    assert ((ok["low"] <= ok["estimate"] + 1e-12) & (ok["estimate"] <= ok["high"] + 1e-12)).all()
    assert np.all(np.abs(findings["estimate"].dropna()) <= 1)


def test_the_cli_compares_the_committed_findings(tmp_path, monkeypatch):
    from analyzer.studies import __main__ as cli

    monkeypatch.setattr(cli, "RESULTS", tmp_path)
    assert cli.main(["--compare"]) == 2  # nothing committed yet
    for population, sign in (("classic", 1), ("planner", 1), ("strategist", -1)):
        (tmp_path / f"{population}_population").mkdir()
        pd.DataFrame([finding(population, sign * 0.1, sign * 0.05, sign * 0.15)]).to_csv(
            tmp_path / f"{population}_population" / "findings.csv", index=False
        )
    assert cli.main(["--compare"]) == 0
    table = pd.read_csv(tmp_path / cli.COMPARISON)
    assert table["verdict"].tolist() == ["reverses"] and table["strategist"].tolist() == [-0.1]


def test_verdicts_of_single_intervals_and_nan():
    low = np.array([0.02, -0.05, -0.009, -0.02, np.nan])
    high = np.array([0.04, -0.01, 0.009, 0.03, 0.1])
    assert verdicts(low, high).tolist() == ["holds", "holds", "equivalent", "mixed", "mixed"]
    assert set(verdicts(low, high)) <= set(VERDICTS)
    with pytest.raises(StudyError, match="one bound per finding"):
        verdicts(np.zeros((2, 3)), np.zeros((2, 2)))


def test_the_cli_reruns_the_card_findings_in_place(tmp_path):
    from analyzer.studies import __main__ as cli

    kept = [finding("classic", 0.1, 0.05, 0.15, "moves first"), finding("classic", 0.1, 0.05, 0.15, "hold Asia")]
    old = {**finding("classic", 0.5, 0.4, 0.6, "trade first"), "study": "card timing", "n_players": 3}
    pd.DataFrame([kept[0], old, kept[1]]).to_csv(tmp_path / "findings.csv", index=False)
    args = ["cards", "--timing", "--games", "3", "--players", "3", "--population", "classic", "--out", str(tmp_path)]
    assert cli.main(args) == 0
    table = pd.read_csv(tmp_path / "headline_card_timing.csv")
    assert table["games"].eq(3).all() and sorted(table["policy"]) == sorted(["value:10", *POLICIES])
    findings = pd.read_csv(tmp_path / "findings.csv")
    assert findings["finding"].tolist() == ["moves first", *(f"trade {p}" for p in POLICIES), "hold Asia"]
    assert findings["population"].eq("classic").all() and findings["n_players"].iloc[1:-1].eq(3).all()
    assert 0.5 not in findings["estimate"].tolist()
    # A rerun of another player count keeps these rows, in both tables.
    three = findings.copy()
    assert cli.main([*args[:5], "4", *args[6:]]) == 0
    table = pd.read_csv(tmp_path / "headline_card_timing.csv")
    assert table["n_players"].tolist() == [3] * 6 + [4] * 6
    findings = pd.read_csv(tmp_path / "findings.csv")
    assert findings["finding"].tolist() == ["moves first", *[f"trade {p}" for p in POLICIES] * 2, "hold Asia"]
    pd.testing.assert_frame_equal(findings.iloc[:6], three.iloc[:6])
