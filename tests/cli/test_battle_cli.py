"""``risk-analyzer odds`` and ``odds-table``: output, JSON keys, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from analyzer.cli import main
from analyzer.solver.battle import BattleOptions, armies_needed, battle
from analyzer.solver.chains import chain
from analyzer.solver.tables import odds_tables


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["odds", *argv] if argv and argv[0] != "odds-table" else list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_text_output_is_short_and_says_how_many_can_roll(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "10", "5")
    assert code == 0 and err == ""
    assert "10 armies (9 can roll) against 5 defenders" in out
    assert f"{100 * battle(10, 5).p_win:.2f}%" in out
    assert len(out.splitlines()) <= 8


def test_json_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "10", "5", "--json")
    data = json.loads(out)
    r = battle(10, 5)
    assert code == 0
    assert data["p_win"] == pytest.approx(r.p_win)
    assert data["expected_attacker_losses"] == pytest.approx(r.expected_attacker_losses)
    assert data["expected_defender_losses"] == pytest.approx(r.expected_defender_losses)
    assert data["rolling"] == 9
    assert data["outcomes"][0] == {"attacker": 10, "defender": 0, "p": pytest.approx(float(r.probability[0]))}
    assert set(data["outcomes"][0]) == {"attacker", "defender", "p"}
    assert sum(o["p"] for o in data["outcomes"]) == pytest.approx(1.0)


def test_need_and_stop_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "12", "8", "--stop-at", "3", "--cap", "--need", "0.9", "--json")
    data = json.loads(out)
    options = BattleOptions(stop_mode="cap")
    assert code == 0
    assert data["p_win"] == pytest.approx(battle(12, 8, stop_at=3, options=options).p_win)
    assert data["armies_needed"] == armies_needed(8, 0.9, stop_at=3, options=options)
    code, out, _ = run(capsys, "12", "8", "--need", "0.9")
    assert f"{armies_needed(8, 0.9)} armies" in out


def test_dice_variant_flags(capsys: pytest.CaptureFixture[str]) -> None:
    from analyzer.game.dice import DiceRules

    _, out, _ = run(
        capsys, "9", "4", "--capital", "--sides", "8", "--ties-to-attacker", "--defender-dice", "2", "--json"
    )
    options = BattleOptions(dice=DiceRules(sides=8, defender_max=3, ties_to_attacker=True), defender_dice=2)
    assert json.loads(out)["p_win"] == pytest.approx(battle(9, 4, options=options).p_win)
    _, out, _ = run(capsys, "9", "4", "--balanced-blitz", "--attacker-dice", "2", "--json")
    options = BattleOptions(attacker_dice=2, balanced_blitz=True)
    assert json.loads(out)["p_win"] == pytest.approx(battle(9, 4, options=options).p_win)


def outcome_p(data: dict, attacker: int, defender: int) -> float:
    return next(o["p"] for o in data["outcomes"] if (o["attacker"], o["defender"]) == (attacker, defender))


def test_smg_published_figures(capsys: pytest.CaptureFixture[str]) -> None:
    # SMG's 30 attacking troops (that roll) against a capital of 15, losing exactly 12: 31 armies on
    # the territory, 19 left after the conquest.
    _, out, _ = run(capsys, "31", "15", "--capital", "--json")
    assert round(outcome_p(json.loads(out), 19, 0), 7) == 0.0222128
    _, out, _ = run(capsys, "31", "15", "--capital", "--balanced-blitz", "--json")
    assert round(outcome_p(json.loads(out), 19, 0), 7) == 0.0100283
    code, out, _ = run(capsys, "31", "15", "--capital", "--balanced-blitz", "--outcomes")
    row = next(line.split() for line in out.splitlines() if line.startswith("conquered") and line.split()[2] == "12")
    assert code == 0 and row[1] == "19" and round(float(row[4]), 7) == 0.0100283
    # 49 troops that roll: 50 on the territory.
    _, out, _ = run(capsys, "2", "50", "--balanced-blitz", "--need", "0.8")
    assert "50 armies (49 can roll)" in out


def test_published_classic_figures(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, published in [
        (["3", "3"], 692225 / 3359232),
        (["3", "4"], 5520775 / 60466176),
        (["10", "10"], 0.47993525647768026),
        (["5", "3"], 0.6416228964559516),
    ]:
        _, out, _ = run(capsys, *argv, "--json")
        assert json.loads(out)["p_win"] == pytest.approx(published, rel=1e-15, abs=0)


def test_outcomes_table_lists_every_ending(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "5", "2", "--stop-at", "3", "--outcomes")
    rows = [line.split() for line in out.splitlines() if line.startswith(("conquered", "stopped"))]
    r = battle(5, 2, stop_at=3)
    assert code == 0 and len(rows) == len(r.probability)
    assert [(int(a), int(lost), int(d)) for _, a, lost, d, _ in rows] == [
        (int(a), 5 - int(a), int(d)) for a, d in zip(r.attacker_left, r.defender_left)
    ]
    assert sum(float(row[4]) for row in rows) == pytest.approx(1.0, abs=1e-9)


def test_chain(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "15", "--chain", "2", "4", "1", "3", "--garrison", "2", "--json")
    data = json.loads(out)
    r = chain(15, [2, 4, 1, 3], garrison=2)
    assert code == 0
    assert data["p_conquer"] == pytest.approx(list(r.p_conquer))
    assert len(data["p_conquer"]) == 4
    assert data["p_win"] == pytest.approx(r.p_win)
    assert {"expected_attacker_losses", "expected_defender_losses", "outcomes"} <= data.keys()
    code, out, _ = run(capsys, "15", "--chain", "2", "4", "1", "3")
    assert "15 armies (14 can roll) along 4 territories, leaving 1 in each" in out
    assert f"{100 * r.p_conquer[0]:.2f}%" in out
    # A garrison above 1 is left only where the dice rolled still move in: 30 from 20 armies was promised outright.
    code, out, _ = run(capsys, "20", "--chain", "3", "2", "--garrison", "30")
    assert "leaving up to 30 in each (moving in at least the dice rolled)" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["1", "3"], "attackers must be a whole number >= 2, got 1"),
        (["5", "0"], "defenders must be a whole number >= 1, got 0"),
        (["-3", "2"], "attackers must be a whole number >= 2, got -3"),
        (["5", "-2"], "defenders must be a whole number >= 1, got -2"),
        (["5", "2", "--stop-at", "5"], "--stop-at must be below the attacking armies (5), got 5"),
        (["5", "2", "--stop-at", "8"], "--stop-at must be below the attacking armies (5), got 8"),
        (["5"], "give exactly one of DEFENDERS"),
        (["5", "2", "--chain", "3"], "give exactly one of DEFENDERS"),
        (["5", "2", "--need", "1.5"], "target probability must be a number between 0 and 1"),
        (["5", "--chain", "3", "0"], "defenders[1] must be a whole number >= 1, got 0"),
        (["5", "2", "--sides", "1"], "dice sides must be a whole number from 2 to 100"),
        (["10", "5", "--sides", "100"], "MAX_ROLL_PAIRS"),
        (["1000000000", "5"], "attackers 1000000000 is past the limit of 1000000"),
        (["5", "2000000"], "defenders 2000000 is past the limit of 1000000"),
        (["1000000", "1000000", "--stop-at", "999999"], "MAX_SOLVER_CELLS"),
        (["5", "2", "--defender-dice", "3"], "--defender-dice must be a whole number from 1 to 2, got 3"),
        (["5", "--chain", "3", "--outcomes"], "--outcomes lists one battle's outcomes"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("risk-analyzer odds: error: ") and message in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("argv", [["5", "2.5"], ["2.5", "1"], ["five", "1"], ["5", "2", "--stop-at", "1.5"]])
def test_non_integers_are_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["odds", *argv])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("risk-analyzer odds: error: argument ") and "invalid int value" in err
    assert err.count("\n") == 1  # one line, as every other error: no usage block before it


def test_a_real_process_prints_smg_figure() -> None:
    argv = ["31", "15", "--capital", "--balanced-blitz", "--outcomes"]
    done = subprocess.run([sys.executable, "-m", "analyzer", "odds", *argv], capture_output=True, text=True)
    assert done.returncode == 0 and "0.01002828887" in done.stdout


@pytest.mark.parametrize(
    "argv", [["12", "7", "--need", "0.8"], ["20", "--chain", "3", "4", "2"], ["9", "6", "--stop-at", "3", "--cap"]]
)
def test_a_small_odds_process_runs_the_solver_uncompiled_with_the_compiled_answer(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    # The real command solves these as plain Python and never imports numba (-X importtime lists every import).
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "analyzer", "odds", *argv, "--json"], capture_output=True, text=True
    )
    assert done.returncode == 0
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "analyzer.solver.battle" in imported and "numba" not in imported
    # This process's solver is compiled.
    assert main(["odds", *argv, "--json"]) == 0
    compiled = json.loads(capsys.readouterr().out)
    assert_close(json.loads(done.stdout), compiled)


def assert_close(a: object, b: object) -> None:
    """``a`` and ``b`` (parsed JSON) the same but for the last bits of their floats."""
    if isinstance(b, dict):
        assert isinstance(a, dict) and a.keys() == b.keys()
        for key in b:
            assert_close(a[key], b[key])
    elif isinstance(b, list):
        assert isinstance(a, list) and len(a) == len(b)
        for x, y in zip(a, b):
            assert_close(x, y)
    elif isinstance(b, float):
        assert a == pytest.approx(b, rel=1e-12, abs=1e-15)
    else:
        assert a == b


def test_no_traceback_from_a_real_process() -> None:
    for argv in (["1", "3"], ["5", "2.5"], ["5", "2", "--stop-at", "7"]):
        done = subprocess.run([sys.executable, "-m", "analyzer", "odds", *argv], capture_output=True, text=True)
        assert done.returncode == 2
        assert "Traceback" not in done.stderr and done.stderr.strip()


def test_odds_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_csv, plot = tmp_path / "odds.csv", tmp_path / "odds.png"
    code, out, _ = run(capsys, "odds-table", "--max", "20", "--out", str(out_csv), "--plot", str(plot))
    assert code == 0 and str(out_csv) in out
    table = pd.read_csv(out_csv, index_col="attackers")
    assert table.shape == (19, 20)
    assert table.loc[10, "5"] == pytest.approx(battle(10, 5).p_win, rel=1e-9)
    assert plot.read_bytes()[:4] == b"\x89PNG"
    code, _, _ = run(capsys, "odds-table", "--max", "6", "--out", str(out_csv), "--table", "all", "--stop-at", "2")
    long = pd.read_csv(out_csv)
    assert len(long) == 5 * 6
    expected = odds_tables(6, stop_at=2).expected_attacker_losses.loc[6, 3]
    assert long[(long.attackers == 6) & (long.defenders == 3)].expected_attacker_losses.iloc[0] == pytest.approx(
        expected
    )


def test_odds_table_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "odds-table", "--max", "1", "--out", str(tmp_path / "x.csv"))
    assert code == 2 and "--max must be a whole number >= 2, got 1" in err
    code, _, err = run(capsys, "odds-table", "--max", "5", "--out", str(tmp_path / "missing" / "x.csv"))
    assert code == 2 and err.count("\n") == 1
