"""Rerun the study notebooks in place at a chosen size: ``python -m analyzer.studies --games 2000``.

Each notebook reads its sizes from environment variables in its parameter
cell (``RISK_NB_GAMES``, ``RISK_NB_WORKERS``, ``RISK_NB_SCHEDULER``,
``RISK_NB_SEED``, ``RISK_NB_POPULATION``: the bots in the seats, ``classic``,
``planner``, ``strategist`` or ``default``); this sets them, executes the notebooks with nbclient (from the
project's ``test`` extra) and saves them with their new outputs, in place or
in the ``--out`` directory.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from analyzer.studies.policies import DEFAULT, POPULATIONS

#: The notebooks live in the repository beside the package (installed editable).
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
ORDER = ("battle_odds.ipynb", "openings.ipynb", "card_timing.ipynb", "continent_value.ipynb")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analyzer.studies", description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", help=f"notebooks to run (default: all of {', '.join(ORDER)})")
    parser.add_argument("--games", type=int, help="games per table cell (each notebook says what a cell is)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="local worker processes (default: every core)")
    parser.add_argument("--scheduler", help="address of a Dask scheduler to run the games on")
    parser.add_argument("--seed", type=int, help="seed of every run")
    parser.add_argument("--population", choices=(*POPULATIONS, DEFAULT),
                        help="the bots that fill the seats (the notebooks' default: classic); default: the bot registry's default bot")
    parser.add_argument("--out", type=Path, help="directory to save the executed notebooks in (default: in place)")
    args = parser.parse_args(argv)
    try:
        import nbformat
        from nbclient import NotebookClient
    except ImportError:
        print("running the notebooks needs nbclient: pip install -e '.[test]'", file=sys.stderr)
        return 2
    for name, value in (("GAMES", args.games), ("WORKERS", args.workers), ("SCHEDULER", args.scheduler), ("SEED", args.seed), ("POPULATION", args.population)):
        if value is not None:
            os.environ[f"RISK_NB_{name}"] = str(value)
    paths = [Path(p) for p in args.notebooks] or [NOTEBOOKS / name for name in ORDER]
    for path in paths:
        if not path.is_file():
            print(f"no notebook at {path}", file=sys.stderr)
            return 2
        started = time.perf_counter()
        notebook = nbformat.read(path, as_version=4)
        NotebookClient(notebook, timeout=None, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
        target = path if args.out is None else args.out / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook, target)
        print(f"{path.name}: {time.perf_counter() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
