"""The package is typed (it ships ``py.typed``): mypy, configured in pyproject.toml, finds no errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MYPY_ARGS = ["analyzer"]


def test_mypy_finds_no_errors() -> None:
    # Run from the project root so that mypy reads its [tool.mypy] settings from pyproject.toml.
    result = subprocess.run(
        [sys.executable, "-m", "mypy", *MYPY_ARGS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, f"mypy {' '.join(MYPY_ARGS)} failed:\n{result.stdout}{result.stderr}"
