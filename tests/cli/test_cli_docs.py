"""The command line's page (docs/cli.md) shows only options the commands take: each line of its synopsis is read
by the command's own parser, and every option it names is one the parser knows."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from analyzer.cli import build_parser

PAGE = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def synopsis() -> list[list[str]]:
    """The words of each command of the page's first shell block, comments and continuations joined."""
    block = PAGE.read_text(encoding="utf-8").split("```sh\n", 1)[1].split("```", 1)[0]
    text = block.replace("\\\n", " ")
    return [shlex.split(line.split("#", 1)[0])[1:] for line in text.splitlines() if line.startswith("risk-analyzer")]


def options_of(parser: argparse.ArgumentParser, words: list[str]) -> set[str]:
    """The option strings the command of ``words`` takes (its subcommand's too, such as ``games list``)."""
    known: set[str] = set()
    for action in parser._actions:  # argparse keeps no public list of a parser's options
        known.update(action.option_strings)
        if isinstance(action, argparse._SubParsersAction):
            for word in words:
                if word in action.choices:
                    known |= options_of(action.choices[word], words[words.index(word) + 1 :])
    return known


COMMANDS = synopsis()
PARSER = build_parser()  # every command's parser (odds-table is registered by the odds command's module)


def test_the_page_shows_every_command() -> None:
    (commands,) = [a for a in PARSER._actions if isinstance(a, argparse._SubParsersAction)]
    assert {words[0] for words in COMMANDS} == set(commands.choices)


@pytest.mark.parametrize("words", COMMANDS, ids=[" ".join(w[:2]) for w in COMMANDS])
def test_every_option_the_page_shows_is_the_commands(words: list[str]) -> None:
    shown = {re.sub(r"[=\]|].*", "", w) for w in " ".join(words).replace("[", " ").split() if w.startswith("--")}
    known = options_of(PARSER, words)
    assert shown <= known, shown - known
