"""Command-line interface: ``risk-analyzer`` or ``python -m analyzer``.

Each subcommand lives in its own module under :mod:`analyzer.commands` and
exposes ``register(subparsers)``. Errors a user can cause are reported as one
line on standard error with exit code 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Sequence
from typing import NoReturn

from analyzer import kernels
from analyzer.errors import RiskAnalyzerError
from analyzer.limits import quote

#: Modules of :mod:`analyzer.commands`, in the order their subcommands are listed.
COMMANDS: tuple[str, ...] = (
    "board",
    "odds",
    "simulate",
    "ladder",
    "games",
    "review",
    "chances",
    "train-value",
    "warm",
)
#: ``odds`` with at most this many in all of its whole-number arguments (armies, stop, dice, sides)
#: runs its kernels as plain Python: importing numba and loading the compiled solver costs more than
#: the plain solver takes for such a battle (``bench/bench_cli.py`` measures both).
PLAIN_ODDS_UP_TO = 400


class Parser(argparse.ArgumentParser):
    """argparse's parser, with its own usage errors (a word where a number goes, an unknown option) on one line
    too, as every other error here: the usage it would print first is one ``--help`` away.

    >>> Parser(prog="risk-analyzer odds").error("argument --need: invalid float value: 'x'")
    Traceback (most recent call last):
    SystemExit: 2
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (--help lists the options)\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand; with ``only``, of that one, the others as bare names.

    A command module imports what its command needs (the solver, the simulator and pandas), so
    ``risk-analyzer odds`` loads only the odds command's module.

    >>> build_parser("board").parse_args(["board", "--json"]).json
    True
    """
    parser = Parser(
        prog="risk-analyzer",
        description="Exact battle odds, rules engine and simulator for the board game Risk.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        if only is None or name == only:
            importlib.import_module(f"analyzer.commands.{name.replace('-', '_')}").register(sub)
        else:
            sub.add_parser(name)
    return parser


def plain_kernels(argv: Sequence[str]) -> bool:
    """Whether ``argv`` asks for work done faster uncompiled than numba starts: ``board`` (its checks of
    a map run no kernel that matters) and odds small enough.

    >>> plain_kernels(["odds", "12", "7"]), plain_kernels(["odds", "300", "200"]), plain_kernels(["board"])
    (True, False, True)
    """
    if argv and argv[0] == "board":
        return True
    if not argv or argv[0] != "odds":
        return False
    return sum(int(word) for word in argv[1:] if word.isdigit()) <= PLAIN_ODDS_UP_TO


def run() -> int:
    """The ``risk-analyzer`` command: :func:`main` on the process's arguments.

    ``board`` and a small ``odds`` run the kernels as plain Python (:data:`analyzer.kernels.MODE_VARIABLE`;
    set it to ``numba`` to keep them compiled). Only a process of its own may choose: the choice is
    made once, as the kernel modules are imported.
    """
    argv = sys.argv[1:]
    if plain_kernels(argv):
        os.environ.setdefault(kernels.MODE_VARIABLE, "python")
    return main(argv)


def said(exc: Exception, words: dict[str, str]) -> str:
    """An error in the command line's words: the library's names of its arguments as the command's options
    (``words``, which a command sets as its parser's default), an argument left out rather than None, and an
    error of the operating system as the file's name and what went wrong, without its errno.

    >>> said(ValueError("stop_at must be None or a whole number >= 1, got 0"), {"stop_at": "--stop-at"})
    '--stop-at must be a whole number >= 1, got 0'
    >>> said(FileNotFoundError(2, "No such file or directory", "games.jsonl"), {})
    "'games.jsonl': no such file or directory"
    """
    if isinstance(exc, OSError) and exc.strerror and exc.filename is not None:
        return f"{quote(os.fsdecode(exc.filename))}: {exc.strerror[:1].lower()}{exc.strerror[1:]}"
    text = str(exc).replace(" must be None or ", " must be ")
    for name, option in words.items():
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?!\w)", option, text)
    return text


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # The command is the first word; anything else (no command, --help, a typo) gets the full parser.
    parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        # The reader (e.g. `| head`) stopped early: nothing is wrong with the command.
        # Point stdout at devnull so the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (RiskAnalyzerError, OSError) as exc:
        print(f"{parser.prog} {args.command}: error: {said(exc, getattr(args, 'words', {}))}", file=sys.stderr)
        return 2
    except (MemoryError, RecursionError) as exc:
        # The limits (analyzer.limits) should refuse such a request first; still one line, not a traceback.
        print(
            f"{parser.prog} {args.command}: error: the request ran out of {'memory' if isinstance(exc, MemoryError) else 'stack'}",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        print(f"{parser.prog} {args.command}: interrupted", file=sys.stderr)
        return 130
    except SystemError as exc:
        # Ctrl-C inside a compiled kernel's callback surfaces as the dispatcher's SystemError, caused by it.
        if not isinstance(exc.__cause__, KeyboardInterrupt):
            raise
        print(f"{parser.prog} {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(run())
