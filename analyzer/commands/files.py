"""File names from the command line, shared by the subcommands that write files."""

from __future__ import annotations

from pathlib import Path

from analyzer.errors import RiskAnalyzerError


def check_path(text: str, option: str, error: type[RiskAnalyzerError] = RiskAnalyzerError) -> Path:
    """A file name from the command line, if the file system and the messages can both spell it.

    >>> check_path("out.csv", "--out")
    PosixPath('out.csv')
    >>> check_path("\\udcff.csv", "--out")
    Traceback (most recent call last):
    ...
    analyzer.errors.RiskAnalyzerError: --out: the file name b'\\xff.csv' is not UTF-8
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise error(f"{option}: the file name {text.encode('utf-8', 'surrogateescape')!r} is not UTF-8") from None
    return Path(text)
