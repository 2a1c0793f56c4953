"""Rerun the study notebooks in place at a chosen size: ``python -m analyzer.studies --games 2000``.

Each notebook reads its sizes from environment variables in its parameter
cell (``RISK_NB_GAMES``, ``RISK_NB_WORKERS``, ``RISK_NB_SCHEDULER``,
``RISK_NB_SEED``, ``RISK_NB_POPULATION``: the bots in the seats, ``classic``,
``planner``, ``strategist`` or ``default``); this sets them, executes the notebooks with nbclient (from the
project's ``test`` extra) and saves them with their new outputs, in place or
in the ``--out`` directory.

``--headline`` runs the headline studies of :mod:`analyzer.studies.headline` for ``--population``
instead, and saves their tables and findings as CSVs in ``--out`` (default
``results/<population>_population/``); ``--eliminations`` does the same for the elimination study
(:mod:`analyzer.studies.eliminations`); ``--compare`` sets the committed findings of every population
side by side in ``results/population_comparison.csv``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from analyzer.errors import StudyError
from analyzer.studies.eliminations import elimination_value, play_eliminations
from analyzer.studies.headline import compare_populations, headline_findings, headline_tables
from analyzer.studies.policies import DEFAULT, POPULATIONS, population_name

#: The notebooks and the committed results live in the repository beside the package (installed editable).
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
RESULTS = NOTEBOOKS.parent / "results"
#: The CSV of a population's findings, in its results directory; and of the comparison, in RESULTS.
FINDINGS = "findings.csv"
COMPARISON = "population_comparison.csv"


def results_dir(population: str) -> Path:
    """Where a population's committed results live: ``results/<population>_population/``."""
    return RESULTS / f"{population_name(population)}_population"


def run_headline(population: str, games: int, seed: int, workers: int, out: Path) -> None:
    tables = headline_tables(population, games, seed, workers=workers)
    out.mkdir(parents=True, exist_ok=True)
    for name, table in tables.items():
        table.to_csv(out / f"headline_{name}.csv", index=False)
    headline_findings(tables).assign(population=population_name(population)).to_csv(out / FINDINGS, index=False)


def run_comparison() -> Path:
    frames = [
        pd.read_csv(results_dir(name) / FINDINGS) for name in POPULATIONS if (results_dir(name) / FINDINGS).is_file()
    ]
    if len(frames) < 2:
        raise StudyError(
            f"a comparison needs the findings of at least two populations under {RESULTS}; run --headline first"
        )
    compare_populations(pd.concat(frames, ignore_index=True)).to_csv(RESULTS / COMPARISON, index=False)
    return RESULTS / COMPARISON


ORDER = ("battle_odds.ipynb", "openings.ipynb", "card_timing.ipynb", "continent_value.ipynb")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analyzer.studies", description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", help=f"notebooks to run (default: all of {', '.join(ORDER)})")
    parser.add_argument("--games", type=int, help="games per table cell (each notebook says what a cell is)")
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="local worker processes (default: every core)"
    )
    parser.add_argument("--scheduler", help="address of a Dask scheduler to run the games on")
    parser.add_argument("--seed", type=int, help="seed of every run")
    parser.add_argument(
        "--population",
        choices=(*POPULATIONS, DEFAULT),
        help="the bots that fill the seats (the notebooks' default: classic); default: the bot registry's default bot",
    )
    parser.add_argument("--out", type=Path, help="directory to save the executed notebooks in (default: in place)")
    study = parser.add_mutually_exclusive_group()
    study.add_argument(
        "--headline",
        action="store_true",
        help="run the headline studies for --population and save CSVs, not the notebooks",
    )
    study.add_argument(
        "--eliminations", action="store_true", help="run the elimination study for --population and save a CSV"
    )
    study.add_argument(
        "--compare",
        action="store_true",
        help=f"compare the committed findings of the populations in results/{COMPARISON}",
    )
    args = parser.parse_args(argv)
    if args.headline or args.eliminations or args.compare:
        return run_study(args)
    try:
        import nbformat
        from nbclient import NotebookClient
    except ImportError:
        print("running the notebooks needs nbclient: pip install -e '.[test]'", file=sys.stderr)
        return 2
    for name, value in (
        ("GAMES", args.games),
        ("WORKERS", args.workers),
        ("SCHEDULER", args.scheduler),
        ("SEED", args.seed),
        ("POPULATION", args.population),
    ):
        if value is not None:
            os.environ[f"RISK_NB_{name}"] = str(value)
    paths = [Path(p) for p in args.notebooks] or [NOTEBOOKS / name for name in ORDER]
    for path in paths:
        if not path.is_file():
            print(f"no notebook at {path}", file=sys.stderr)
            return 2
        started = time.perf_counter()
        notebook = nbformat.read(path, as_version=4)
        NotebookClient(
            notebook, timeout=None, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
        ).execute()
        target = path if args.out is None else args.out / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook, target)
        print(f"{path.name}: {time.perf_counter() - started:.0f} s", flush=True)
    return 0


def run_study(args: argparse.Namespace) -> int:
    """The CSV studies: the headline studies, the elimination study or the comparison."""
    started = time.perf_counter()
    try:
        if args.compare:
            print(f"{run_comparison()}: {time.perf_counter() - started:.0f} s")
            return 0
        population = args.population or DEFAULT
        out = args.out or results_dir(population)
        seed = args.seed if args.seed is not None else 2026
        if args.headline:
            run_headline(population, args.games or 2000, seed, args.workers, out)
        else:
            runs = play_eliminations(population, args.games or 500, seed, workers=args.workers)
            out.mkdir(parents=True, exist_ok=True)
            runs.to_csv(out / "elimination_positions.csv", index=False)
            elimination_value(runs).to_csv(out / "elimination_value.csv", index=False)
    except StudyError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"{out}: {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
