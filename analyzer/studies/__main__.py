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

``python -m analyzer.studies cards [--games N] [--rollouts R] [--workers W | --scheduler ADDRESS]``
runs the trade-or-hold decision study (:mod:`analyzer.studies.trades`) for ``--population`` (default:
the registry's default bot) on local workers or a Dask scheduler, the same seeds giving the same
tables, and saves its positions and tables in ``--out``; it also rebuilds the kill-for-cards table
(:func:`~analyzer.studies.eliminations.kill_for_cards`) from the elimination positions committed there.
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
from analyzer.studies.cards import PLAYER_COUNTS, card_timing
from analyzer.studies.eliminations import elimination_value, kill_for_cards, play_eliminations
from analyzer.studies.headline import (
    POLICIES,
    compare_populations,
    headline_findings,
    headline_tables,
    replace_card_findings,
)
from analyzer.studies.policies import DEFAULT, POPULATIONS, population_name
from analyzer.studies.trades import play_trade_choices, trade_factors, trade_value

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


def run_cards(argv: Sequence[str]) -> int:
    """``cards``: the trade-or-hold study at scale, and the kill-for-cards table of the committed positions."""
    parser = argparse.ArgumentParser(
        prog="python -m analyzer.studies cards", description="Trade now or hold, and the kill for cards."
    )
    parser.add_argument("--games", type=int, default=200, help="games searched per player count (one position each)")
    parser.add_argument("--rollouts", type=int, default=8, help="playouts of each arm from each position")
    parser.add_argument("--players", type=int, nargs="+", default=None, help="player counts (default: 3 to 6)")
    parser.add_argument("--workers", type=int, default=1, help="local worker processes (default: 1)")
    parser.add_argument("--scheduler", help="address of a Dask scheduler to run the games on")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the run")
    parser.add_argument("--population", choices=(*POPULATIONS, DEFAULT), default=DEFAULT, help="the bots in the seats")
    parser.add_argument("--out", type=Path, help="directory of the CSVs (default: results/<population>_population/)")
    parser.add_argument(
        "--first-game", type=int, default=0, help="number of the first game searched (to extend a run: with --append)"
    )
    parser.add_argument(
        "--append",
        action="store_true",
        help="add the positions to those already in --out (of the same seed and rollouts, earlier games) and "
        "rebuild the tables from all of them",
    )
    parser.add_argument(
        "--timing",
        action="store_true",
        help="instead, rerun the card-timing findings with --games games per player count and policy, in place of "
        "the headline's (headline_card_timing.csv and the card rows of findings.csv)",
    )
    args = parser.parse_args(argv)
    out = args.out or results_dir(args.population)
    started = time.perf_counter()
    if args.timing:
        return run_card_timing(args, out, started)
    try:
        positions = play_trade_choices(
            args.population,
            args.games,
            args.seed,
            rollouts=args.rollouts,
            workers=args.workers,
            scheduler=args.scheduler,
            first_game=args.first_game,
            **({"player_counts": args.players} if args.players else {}),
        )
    except StudyError as error:
        print(error, file=sys.stderr)
        return 2
    seconds = time.perf_counter() - started
    played = len(positions)
    saved = out / "trade_or_hold_positions.csv"
    if args.append and saved.is_file():
        before = pd.read_csv(saved)
        if played and before["population"].ne(positions["population"].iloc[0]).any():
            print(f"{saved} holds another population's positions", file=sys.stderr)
            return 2
        both = pd.concat([before, positions], ignore_index=True)
        if both.duplicated(["n_players", "game"]).any():
            print(f"{saved} already holds some of these games: give a --first-game past them", file=sys.stderr)
            return 2
        positions = both.sort_values(["n_players", "game"], kind="stable", ignore_index=True)
    out.mkdir(parents=True, exist_ok=True)
    positions.to_csv(out / "trade_or_hold_positions.csv", index=False)
    trade_value(positions).to_csv(out / "trade_or_hold.csv", index=False)
    trade_factors(positions).to_csv(out / "trade_or_hold_factors.csv", index=False)
    eliminations = out / "elimination_positions.csv"
    if eliminations.is_file():
        kill_for_cards(pd.read_csv(eliminations)).to_csv(out / "kill_for_cards.csv", index=False)
    games = 2 * args.rollouts * played
    print(f"{out}: {played} positions, {games} games played on from them, {seconds:.0f} s ({len(positions)} in all)")
    return 0


def run_card_timing(args: argparse.Namespace, out: Path, started: float) -> int:
    """``cards --timing``: the headline's card-timing table at a larger size, its findings put in place."""
    try:
        table = card_timing(
            args.players or PLAYER_COUNTS,
            POLICIES,
            args.games,
            args.seed,
            population=args.population,
            workers=args.workers,
            scheduler=args.scheduler,
        )
    except StudyError as error:
        print(error, file=sys.stderr)
        return 2
    games = table["games"].sum()
    out.mkdir(parents=True, exist_ok=True)
    saved = out / "headline_card_timing.csv"
    if saved.is_file():  # a rerun of some player counts keeps the others' rows
        before = pd.read_csv(saved)
        kept = before[~before["n_players"].isin(set(table["n_players"]))]
        table = pd.concat([kept, table], ignore_index=True).sort_values("n_players", kind="stable", ignore_index=True)
    table.to_csv(saved, index=False)
    if (out / FINDINGS).is_file():
        replace_card_findings(pd.read_csv(out / FINDINGS), table).to_csv(out / FINDINGS, index=False)
    print(f"{out}: {int(games)} games, {time.perf_counter() - started:.0f} s")
    return 0


ORDER = ("battle_odds.ipynb", "openings.ipynb", "card_timing.ipynb", "continent_value.ipynb")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["cards"]:
        return run_cards(argv[1:])
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
            kill_for_cards(runs).to_csv(out / "kill_for_cards.csv", index=False)
    except StudyError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"{out}: {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
