"""The README's Python examples run as written, in order, as one tour."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_readme_python_blocks_run_in_order() -> None:
    assert len(BLOCKS) >= 4
    namespace: dict[str, Any] = {}
    for index, block in enumerate(BLOCKS):
        exec(compile(block, f"README.md python block {index}", "exec"), namespace)
    assert namespace["result"].games.shape[0] == 20
    assert abs(namespace["chances"].table["win_rate"].sum() - 1.0) < 1e-9
