"""The tests' helpers (``tests/support``: a throwaway PostgreSQL server, a free port) for the benches.

A bench runs as ``python bench/bench_x.py``, with only ``bench/`` on its path; importing this module puts
``tests/`` there too, as pytest's ``pythonpath`` does for the tests, so that both import the helpers as
``support.*``. Import it before them::

    import tests_support  # noqa: F401 - puts tests/ on the path
    from support.scratch_postgres import ScratchServer
"""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))
