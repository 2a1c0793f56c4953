"""The documentation site builds without a warning, and every example it shows runs and prints what it says.

Every ```` ```pycon ```` block of a page under ``docs/`` is a doctest: the blocks of one page run in
order in one namespace, and each output shown must be the output printed (``...`` stands for any
text). A page that shows an example that no longer runs fails here, not in a reader's hands.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from analyzer.game.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(path for path in DOCS.rglob("*.md") if "_build" not in path.relative_to(DOCS).parts)
FENCE = re.compile(r"^```pycon[^\n]*\n(.*?)^```", flags=re.S | re.M)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def pycon_blocks(page: Path) -> list[str]:
    return FENCE.findall(page.read_text())


EXAMPLE_PAGES = [page for page in PAGES if pycon_blocks(page)]


def test_the_tutorial_has_examples() -> None:
    # The collector must find the tutorial's examples, or every test below would pass by running nothing.
    assert DOCS / "tutorial.md" in EXAMPLE_PAGES
    assert len(pycon_blocks(DOCS / "tutorial.md")) >= 8


@pytest.mark.parametrize("page", EXAMPLE_PAGES, ids=lambda page: str(page.relative_to(DOCS)))
def test_page_examples_run_as_shown(page: Path) -> None:
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    namespace: dict[str, object] = {"__name__": f"docs.{page.stem}"}
    for index, block in enumerate(pycon_blocks(page)):
        name = f"{page.relative_to(ROOT)} pycon block {index}"
        test = parser.get_doctest(block, namespace, name, str(page), 0)
        runner.run(test, clear_globs=False)
        namespace = test.globs  # a DocTest runs in a copy of the namespace: the next block goes on from it
    failed, attempted = runner.summarize(verbose=False)
    assert attempted > 0
    assert failed == 0, f"{failed} of {attempted} examples of {page.name} failed (the doctest report is above)"


def test_rules_page_names_every_option() -> None:
    table = (DOCS / "rules.md").read_text()
    documented = set(re.findall(r"^\| `(\w+)` \|", table, flags=re.M))
    assert documented == {field.name for field in fields(Rules)}


def test_docs_build_with_no_warning(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [
        sys.executable,
        "-m",
        "sphinx",
        "-W",
        "--keep-going",
        "-q",
        "-b",
        "html",
        "-d",
        str(tmp_path / "doctrees"),
        str(DOCS),
        str(tmp_path / "html"),
    ]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-5000:]
    html = tmp_path / "html"
    for page in ("index", "tutorial", "rules", "solver", "simulator", "findings", "contributing", "api/index"):
        assert (html / f"{page}.html").is_file(), page
    # The API reference reached the modules, not only the package.
    assert (html / "api" / "analyzer.solver.battle.html").is_file()
