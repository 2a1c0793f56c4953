"""The version is written once, as ``analyzer.__version__``, and the package's metadata reads it."""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path

import analyzer

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def test_the_version_is_declared_once_and_the_installed_metadata_agrees() -> None:
    project = tomllib.loads(PYPROJECT.read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "analyzer.__version__"}
    assert version("risk-analyzer") == analyzer.__version__
