"""The packages' layering, as pyproject.toml's import-linter contracts declare it, holds and is checked.

``make test`` runs ``lint-imports`` too; these tests make a broken contract fail the suite wherever it
runs, and check that the contracts are not vacuous (the linter sees the imports, every top-level
module has a layer).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "analyzer"
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _lint(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def _contracts() -> list[dict]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def test_the_import_contracts_hold() -> None:
    done = _lint()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_the_linter_sees_an_upward_import(tmp_path: Path) -> None:
    """The same linter run on the order turned upside down (game above the solver) must fail: the
    contracts hold because the code obeys them, not because the linter sees nothing."""
    config = tmp_path / "upside_down.toml"
    config.write_text(
        '[tool.importlinter]\nroot_package = "analyzer"\n\n'
        '[[tool.importlinter.contracts]]\nname = "upside down"\ntype = "layers"\n'
        'layers = ["analyzer.game", "analyzer.solver"]\n'
    )
    done = _lint("--config", str(config))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "analyzer.solver" in done.stdout and "analyzer.game" in done.stdout and "BROKEN" in done.stdout


def test_every_top_level_module_has_a_layer() -> None:
    """A new module or package under analyzer/ must be placed in the order before it is used."""
    layered = set()
    for contract in _contracts():
        if contract.get("containers"):
            continue
        for layer in contract["layers"]:
            for name in layer.replace("|", ":").split(":"):
                layered.add(name.strip().strip("()"))
    tops = {f"analyzer.{p.stem}" for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    tops |= {f"analyzer.{p.parent.name}" for p in PACKAGE.glob("*/__init__.py")}
    assert tops - layered == set(), (
        f"add these to a layer of pyproject.toml's [tool.importlinter]: {sorted(tops - layered)}"
    )


def test_every_game_module_has_a_layer() -> None:
    (game,) = [c for c in _contracts() if c.get("containers") == ["analyzer.game"]]
    layered = {name.strip() for layer in game["layers"] for name in layer.replace("|", ":").split(":")}
    modules = {p.stem for p in (PACKAGE / "game").glob("*.py") if p.stem != "__init__"} | {"engine"}
    assert modules - layered == set(), f"add these to the game's layers: {sorted(modules - layered)}"


def test_bots_depend_only_on_the_game_the_solver_and_the_shared_leaves() -> None:
    graph = grimp.build_graph("analyzer", cache_dir=None)
    allowed = (
        "analyzer.bots",
        "analyzer.game",
        "analyzer.solver",
        "analyzer.errors",
        "analyzer.limits",
        "analyzer.kernels",
        "analyzer.integers",
        "analyzer.slots",
    )
    imported = {
        m
        for module in graph.find_descendants("analyzer.bots") | {"analyzer.bots"}
        for m in graph.find_modules_directly_imported_by(module)
    }
    assert {m for m in imported if not m.startswith(allowed)} == set()


def _imports_below_module_level(path: Path) -> list[str]:
    """``import`` statements inside functions or classes, and imports under ``if TYPE_CHECKING:``."""
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found += [f"{path.name}:{n.lineno}" for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom))]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            found.append(f"{path.name}:{node.lineno} (TYPE_CHECKING)")
    return found


def test_the_game_has_no_function_level_or_type_checking_imports() -> None:
    """The game is the bottom layer: it orders its own modules so that every import is at the top of a module."""
    found = [hit for path in sorted((PACKAGE / "game").rglob("*.py")) for hit in _imports_below_module_level(path)]
    assert found == []


def test_the_scan_finds_a_function_level_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import os\n\ndef f():\n    import json\n"
    )
    assert _imports_below_module_level(sample) == ["sample.py:2 (TYPE_CHECKING)", "sample.py:6"]
