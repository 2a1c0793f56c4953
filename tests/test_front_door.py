"""``import analyzer``: the front door's names, loaded lazily, and the core install without the extras."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import analyzer
from analyzer.errors import MissingExtraError, RiskAnalyzerError
from analyzer.extras import EXTRAS, require
from analyzer.solver.battle import battle

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("numba", "streamlit", "dask", "distributed", "pyarrow", "psycopg")


def _python(
    code: str, *args: str, env: dict[str, str] | None = None, path: list[Path] = ()
) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "RISK_ANALYZER_KERNELS"}
    environ["PYTHONPATH"] = os.pathsep.join([*map(str, path), str(ROOT)])
    environ.update(env or {})
    return subprocess.run(
        [sys.executable, *(["-c", code] if code else []), *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_a_battle_through_the_front_door_loads_no_extra_and_no_simulator() -> None:
    """``python -c "import analyzer; print(analyzer.battle(12, 7).p_win)"``, in a fresh process: ``import
    analyzer`` alone loads nothing heavy, and the odds load no extra and not the simulator."""
    done = _python(
        textwrap.dedent(f"""
        import json, sys
        import analyzer
        bare = sorted(m for m in {HEAVY!r} if m in sys.modules)
        p = float(analyzer.battle(12, 7).p_win)
        heavy = sorted(m for m in {HEAVY!r} if m in sys.modules and m != "numba")
        print(json.dumps([p, bare, heavy, "analyzer.sim.simulate" in sys.modules]))
    """)
    )
    assert done.returncode == 0, done.stderr
    p_win, bare, heavy, simulator = json.loads(done.stdout)
    assert bare == [] and heavy == [] and not simulator
    assert p_win == pytest.approx(float(battle(12, 7).p_win), abs=1e-12)


def test_the_front_door_names_are_the_modules_own() -> None:
    for name, module in analyzer.EXPORTS.items():
        assert getattr(analyzer, name) is getattr(importlib.import_module(module), name), name
    assert set(analyzer.__all__) == {"__version__", *analyzer.EXPORTS}
    assert set(analyzer.EXPORTS) <= set(dir(analyzer))
    with pytest.raises(AttributeError, match="no attribute 'batle'"):
        analyzer.batle  # noqa: B018


def test_odds_asked_for_first_leave_the_games_compiled() -> None:
    """Reading a front-door name switches nothing: after a battle's odds, a simulation still plays compiled
    games (the mode is the environment's alone), and no warning is given."""
    done = _python(
        textwrap.dedent("""
        import json, warnings
        import analyzer
        from analyzer import kernels
        analyzer.armies_needed(5, 0.9)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            analyzer.simulate
        print(json.dumps([kernels.plain(), [str(w.message) for w in caught]]))
    """)
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [False, []]


def test_a_missing_extra_is_named_with_its_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # what an install without the extra looks like
    with pytest.raises(MissingExtraError, match=r"^Dask is not installed: pip install 'risk-analyzer\[dask\]'$"):
        require("distributed")
    assert issubclass(MissingExtraError, RiskAnalyzerError) and issubclass(MissingExtraError, ImportError)
    assert {extra for extra, _ in EXTRAS.values()} == {"app", "dask", "parquet", "postgres", "train"}


def test_simulate_on_dask_without_dask_says_which_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'risk-analyzer\[dask\]'"):
        analyzer.simulate(2, "random", 2, seed=1, dask=True, progress=False)


def test_parquet_without_pyarrow_says_which_extra_and_writes_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    result = analyzer.simulate(2, "random", 2, seed=1, progress=False)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(
        MissingExtraError,
        match=r"pyarrow \(for Parquet files\) is not installed: pip install 'risk-analyzer\[parquet\]'",
    ):
        result.save(tmp_path / "games.parquet")
    assert list(tmp_path.iterdir()) == []
    assert len(result.save(tmp_path / "games.csv", "csv")) >= 1  # CSV needs no extra


# A core install: the extras' packages cannot be imported (as if never installed).
BLOCKER = f"""
import importlib.abc, sys

class _NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {HEAVY[1:]!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, _NotInstalled())
"""


def test_a_core_install_runs_odds_and_simulate(tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text(BLOCKER)
    blocked = _python("import streamlit", path=[tmp_path])
    assert blocked.returncode != 0 and "No module named 'streamlit'" in blocked.stderr
    odds = _python("", "-m", "analyzer", "odds", "12", "7", path=[tmp_path])
    assert odds.returncode == 0, odds.stderr
    assert "85.2" in odds.stdout
    run = _python(
        "",
        "-m",
        "analyzer",
        "simulate",
        "--games",
        "4",
        "--players",
        "3",
        "--bots",
        "random",
        "--quiet",
        "--json",
        path=[tmp_path],
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["games"] == 4
    dask = _python("", "-m", "analyzer", "simulate", "--games", "4", "--dask", "--quiet", path=[tmp_path])
    assert dask.returncode == 2 and dask.stderr.strip().endswith(
        "Dask is not installed: pip install 'risk-analyzer[dask]'"
    )
