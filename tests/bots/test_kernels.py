"""The compiled-code boundary: one decorator policy, and a cache keyed by the compiled sources."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from analyzer import kernels
from analyzer.bots.registry import BOTS
from analyzer.game.engine import steps as engine
from analyzer.game.state import GameState


@pytest.fixture(scope="module")
def copy_of_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("src") / "analyzer"
    shutil.copytree(kernels.PACKAGE, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_the_key_is_the_sources_not_the_place(copy_of_package: Path) -> None:
    assert kernels.source_key(root=copy_of_package) == kernels.source_key()


@pytest.mark.parametrize(
    "module",
    [
        "game/engine/steps.py",  # a kernel module
        "game/rules.py",  # constants the kernels freeze (FORCED_TRADE_HAND, ...)
        "game/missions.py",  # imported as ``from analyzer.game import missions``
        "solver/battle.py",  # kernels the playout inlines
        "kernels.py",  # the policy itself
    ],
)
def test_an_edit_the_kernels_can_see_changes_the_key(copy_of_package: Path, module: str) -> None:
    path = copy_of_package / module
    before = kernels.source_key(root=copy_of_package)
    text = path.read_text()
    try:
        path.write_text(text + "\n# an edit\n")
        assert kernels.source_key(root=copy_of_package) != before
    finally:
        path.write_text(text)
    assert kernels.source_key(root=copy_of_package) == before


def test_an_edit_the_kernels_cannot_see_keeps_the_key(copy_of_package: Path) -> None:
    path = copy_of_package / "cli.py"
    before = kernels.source_key(root=copy_of_package)
    text = path.read_text()
    try:
        path.write_text(text + "\n# an edit\n")
        assert kernels.source_key(root=copy_of_package) == before
    finally:
        path.write_text(text)


def test_every_kernel_module_is_in_the_key() -> None:
    files = {
        p.relative_to(kernels.PACKAGE).with_suffix("").as_posix().replace("/", ".") for p in kernels.source_files()
    }
    assert {m.removeprefix("analyzer.") for m in kernels.KERNEL_MODULES} <= files


def test_a_kernel_outside_the_kernel_modules_is_refused() -> None:
    def f(x):  # pragma: no cover - never compiled
        return x

    f.__module__ = "analyzer.somewhere_else"
    with pytest.raises(RuntimeError, match="KERNEL_MODULES"):
        kernels.kernel(f)


def test_compiled_kernels_are_cached_under_the_key_only() -> None:
    state = GameState.random_start(3, np.random.default_rng(0))
    engine.reinforcements(state.S, state.C, 0)
    here = kernels.cache_dir()
    assert here.name == kernels.source_key()
    assert any(here.rglob("*.nbi"))
    # No kernel left numba's own cache beside its source: all of them go through the policy.
    stray = [p for p in kernels.PACKAGE.rglob("*.nb[ic]") if here not in p.parents and "kernels" not in p.parts]
    assert stray == []


#: Every registered bot but "default" (another name of one of them) and "random" (whose games can run to
#: hundreds of thousands of moves, minutes of plain Python).
_BOTS = [name for name in BOTS if name not in ("default", "random")]
_GAMES = """
import hashlib, sys
import numpy as np
from analyzer.bots.registry import make_bot
from analyzer.game.state import GameState
from analyzer.sim.play import play_game
for name in sys.argv[1:]:
    for n in (2, 4, 6):
        state = play_game(GameState.new(n, np.random.default_rng(n)), [make_bot(name)] * n, np.random.default_rng(7))
        print(name, n, len(state.history), hashlib.sha256(state.to_json().encode()).hexdigest())
"""


def test_the_compiled_kernels_play_the_same_games_as_their_python_source() -> None:
    # Two implementations of every rule and every bot: numba's compiled kernels and the same functions run as
    # plain Python (RISK_ANALYZER_KERNELS=python). From one seed they must play the same games, move for move.
    def games(kernels: str | None) -> list[str]:
        env = {k: v for k, v in os.environ.items() if k != kernels_env}
        if kernels is not None:
            env[kernels_env] = kernels
        out = subprocess.run(
            [sys.executable, "-c", _GAMES, *_BOTS], env=env, capture_output=True, text=True, timeout=900, check=True
        )
        return out.stdout.splitlines()

    kernels_env = "RISK_ANALYZER_KERNELS"
    compiled, python = games(None), games("python")
    assert len(compiled) == 3 * len(_BOTS)
    assert python == compiled
