"""The README's Python examples run as written, in order, as one tour, and check what they claim."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_readme_python_blocks_run_in_order() -> None:
    # One example for the library user's odds, one for a game, one for the researcher's simulation.
    assert len(BLOCKS) >= 3
    namespace: dict[str, Any] = {}
    for index, block in enumerate(BLOCKS):
        exec(compile(block, f"README.md python block {index}", "exec"), namespace)
    assert namespace["result"].games.shape[0] == 20
    assert set(namespace["rates"]["bot"]) == {"default", "classic", "random"}


def test_readme_links_stay_inside_the_repository() -> None:
    text = README.read_text()
    assert "shared/seeds" not in text
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if not target.startswith(("http://", "https://")):
            assert (README.parent / target).exists(), target
