"""The README's Python examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_python_block_runs(index: int) -> None:
    exec(compile(BLOCKS[index], f"README.md block {index}", "exec"), {})


def test_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 2
