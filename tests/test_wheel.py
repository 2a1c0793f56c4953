"""The built wheel installs and runs on its own: the map ships inside it, nothing reads the checkout.

The wheel goes into a fresh virtual environment with ``--no-deps``; the third-party packages come
from this environment's site-packages through a ``.pth`` line (a folder a ``.pth`` file adds is not
a site folder, so the editable install's own ``.pth`` hook there does not run), and every command
runs from an empty folder elsewhere.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.timeout(1200), pytest.mark.xdist_group("wheel")]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("wheel")
    dist = tmp / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(dist), str(ROOT)],
        check=True,
        cwd=tmp,
    )
    (wheel,) = dist.glob("risk_analyzer-*.whl")
    env_dir = tmp / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--quiet", str(wheel)],
        check=True,
        cwd=tmp,
    )
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    (site / "third_party.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    return env_dir, elsewhere


def run(installed: tuple[Path, Path], *args: str) -> subprocess.CompletedProcess[str]:
    env_dir, elsewhere = installed
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(list(args), cwd=elsewhere, env=env, capture_output=True, text=True, timeout=900)


def test_the_package_comes_from_the_wheel(installed: tuple[Path, Path]) -> None:
    env_dir, _ = installed
    out = run(installed, str(env_dir / "bin" / "python"), "-c", "import analyzer; print(analyzer.__file__)")
    assert out.returncode == 0, out.stderr
    where = Path(out.stdout.strip())
    assert env_dir in where.parents and ROOT not in where.parents


def test_board_loads_the_shipped_map(installed: tuple[Path, Path]) -> None:
    env_dir, _ = installed
    out = run(installed, str(env_dir / "bin" / "risk-analyzer"), "board", "--json")
    assert out.returncode == 0, out.stderr
    board = json.loads(out.stdout)
    assert len(board["territories"]) == 42


def test_odds(installed: tuple[Path, Path]) -> None:
    env_dir, _ = installed
    out = run(installed, str(env_dir / "bin" / "risk-analyzer"), "odds", "12", "7")
    assert out.returncode == 0, out.stderr
    # The same exact figure as the checkout's command gives (tests/analysis/test_display.py checks it).
    assert "P(win)              85.20%" in out.stdout, out.stdout


def test_a_two_game_simulation(installed: tuple[Path, Path]) -> None:
    env_dir, _ = installed
    out = run(installed, str(env_dir / "bin" / "risk-analyzer"), "simulate", "--games", "2", "--quiet", "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["games"] == 2, summary
