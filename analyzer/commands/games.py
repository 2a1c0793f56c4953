"""``risk-analyzer games``: list the stored games, and move them between stores.

``games export OUT`` writes every game of a store, with every version kept, to
a file of JSON lines (``-``: standard output); ``games import IN`` adds the
games of such a file to a store, all or none. ``--db`` names the store as
``$RISK_ANALYZER_DB`` does (a file path or a URL), so games move from an SQLite
file to a club's PostgreSQL database and back::

    risk-analyzer games export --db ~/games.sqlite3 games.jsonl
    risk-analyzer games import --db postgresql+psycopg://club@db.example/risk games.jsonl
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from analyzer.commands.files import check_path
from analyzer.errors import StoreError
from analyzer.limits import quote
from analyzer.store import DB_ENV, GameStore
from analyzer.store.games import plain_search
from analyzer.store.transfer import read_games, write_games


def register(subparsers: Any) -> None:
    """Add the ``games`` subcommand to the CLI's subparsers."""
    parser = subparsers.add_parser(
        "games",
        help="list the stored games; export or import them, between SQLite and PostgreSQL",
        description="The games the app keeps: list them, or move every game with every version kept from one "
        "store to another through a file of JSON lines.",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    database = argparse.ArgumentParser(add_help=False)
    database.add_argument(
        "--db",
        metavar="FILE_OR_URL",
        help=f"the store: an SQLite file or a database URL such as "
        f"postgresql+psycopg://USER@HOST/DATABASE (default: ${DB_ENV}, else the app's own file)",
    )
    listing = actions.add_parser("list", parents=[database], help="list the stored games, the last changed first")
    listing.add_argument(
        "--find",
        metavar="TEXT",
        default="",
        help="only the games with TEXT in their name or in a player's name, whatever the case (as the app's "
        "start page finds them)",
    )
    listing.set_defaults(func=run_list)
    export = actions.add_parser("export", parents=[database], help="write every game, with its versions, to a file")
    export.add_argument("out", metavar="OUT", help="the file to write (- for standard output)")
    export.set_defaults(func=run_export)
    load = actions.add_parser(
        "import", parents=[database], help="add the games of an exported file to the store, all or none"
    )
    load.add_argument("source", metavar="IN", help="a file written by `games export` (- for standard input)")
    load.set_defaults(func=run_import)


def _store(args: argparse.Namespace) -> GameStore:
    if args.db is not None:
        args.words = {DB_ENV: "--db"}  # the store's messages name the variable that names it; here the option did
    return GameStore(args.db)


def run_list(args: argparse.Namespace) -> int:
    store = _store(args)
    try:
        stored, deleted = store.list(), store.deleted_games()
    finally:
        store.close()
    found = [game for game in stored if game.matches(args.find)]
    for game in found:
        print(f"{game.id}  v{game.version:<4} {game.updated:%Y-%m-%d %H:%M}  {game.name}  ({', '.join(game.players)})")
    # Said on standard error, so that standard output stays one line per game for scripts.
    if deleted:
        print(
            f"{len(deleted)} deleted game{'s' if len(deleted) > 1 else ''} not listed, which the app's start page "
            "restores or deletes for good",
            file=sys.stderr,
        )
    if not stored:
        print(f"no games stored in {store.where}", file=sys.stderr)
    elif not found:
        print(
            f"none of the {len(stored)} games in {store.where} has {quote(plain_search(args.find))} in its name or "
            "its players' names",
            file=sys.stderr,
        )
    return 0


def run_export(args: argparse.Namespace) -> int:
    store = _store(args)
    if args.out == "-":
        count = write_games(store.export_games(), sys.stdout)
        print(f"exported {count} games from {store.where}", file=sys.stderr)
        return 0
    out = check_path(args.out, "OUT", StoreError)
    # Written beside and renamed when complete: a failed export leaves no half file under the name asked for.
    partial = out.with_name(out.name + ".partial")
    try:
        with partial.open("w", encoding="utf-8") as stream:
            count = write_games(store.export_games(), stream)
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
        store.close()
    print(f"exported {count} games from {store.where} to {out}")
    return 0


def run_import(args: argparse.Namespace) -> int:
    store = _store(args)
    try:
        if args.source == "-":
            count = store.import_games(read_games(sys.stdin, "standard input"))
        else:
            source = check_path(args.source, "IN", StoreError)
            with source.open(encoding="utf-8", errors="strict") as stream:
                count = store.import_games(read_games(stream, str(source)))
    except UnicodeDecodeError as exc:
        raise StoreError(f"{args.source} is not UTF-8 text (byte {exc.start}): not a file of exported games") from None
    finally:
        store.close()
    print(f"imported {count} games into {store.where}")
    return 0
