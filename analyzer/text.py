"""User text made safe to show in the app: every name and message is plain text, never Markdown.

Player names, game names, file names and the engine's messages (which quote
user values) come from users and files. Shown as Markdown, a name like
``![x](http://host/t.png)`` would make every browser on the game fetch that
address.

>>> plain("![x](http://h/t.png)")
'\\\\!\\\\[x\\\\]\\\\(http\\\\://h/t\\\\.png\\\\)'
>>> plain("Ann & Bo")
'Ann \\\\& Bo'
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$&:])")


#: Characters that Windows, macOS or Linux refuse in a file name, and the control characters.
_NOT_IN_FILE_NAMES = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]')


def file_name(name: str, suffix: str) -> str:
    """The file a download of what is called ``name`` is saved as: the characters a common file system refuses
    become "-". A game opened from a file is named after the file, so a game saved and reopened keeps its name
    but for those characters.

    >>> file_name("Game of 07 Dec 21:40", ".json")
    'Game of 07 Dec 21-40.json'
    >>> file_name("Ann/Bo: the rematch?", ".json"), file_name(" .. ", ".json")
    ('Ann-Bo- the rematch-.json', 'game.json')
    """
    return (_NOT_IN_FILE_NAMES.sub("-", " ".join(name.split())).strip(" .") or "game") + suffix


def plain(text: object) -> str:
    """``text`` with Markdown's and HTML's special characters escaped, to show user text as typed."""
    return _MARKDOWN.sub(r"\\\1", str(text))


def counted(n: int, one: str, many: str) -> str:
    """``n`` and its noun, one or many as ``n`` asks.

    >>> counted(1, "army", "armies"), counted(0, "set", "sets"), counted(3, "set", "sets")
    ('1 army', '0 sets', '3 sets')
    """
    return f"{n} {one if n == 1 else many}"


def shortened(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters at a word's end, with "…" when anything was cut.

    >>> shortened("The long evening game of the Tuesday club at Ann's", 30)
    'The long evening game of the…'
    >>> shortened("Supercalifragilistic", 10), shortened("Ann", 10)
    ('Supercali…', 'Ann')
    """
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    # A word cut in two reads as a typo; one that has no end within the limit is cut where it must be.
    words = cut.rsplit(" ", 1)[0] if " " in cut and text[limit - 1] != " " else cut
    return words.rstrip(" ,;:-") + "…"


def percent(p: float, digits: int = 2) -> str:
    """``p`` as a percentage that never shows 100% or 0% for a chance that is neither.

    >>> percent(0.852), percent(1.0), percent(0.9999999), percent(1e-9), percent(0.0)
    ('85.20%', '100%', '>99.99%', '<0.01%', '0%')
    """
    if p >= 1:
        return "100%"
    if p <= 0:
        return "0%"
    shown = f"{p:.{digits}%}"
    step = 10.0**-digits
    if float(shown[:-1]) >= 100:
        return f">{100 - step:.{digits}f}%"
    if float(shown[:-1]) <= 0:
        return f"<{step:.{digits}f}%"
    return shown


def ago(when: datetime) -> str:
    """How long ago ``when`` (an aware time) was, as a list of games says it: "just now", "5 min ago", "3 h ago",
    else the day.

    >>> from datetime import timedelta
    >>> [ago(datetime.now(UTC) - timedelta(minutes=m)) for m in (1, 20, 180)]
    ['just now', '20 min ago', '3 h ago']
    """
    seconds = (datetime.now(UTC) - when).total_seconds()
    if seconds < 90:
        return "just now"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min ago"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.0f} h ago"
    return when.astimezone().strftime("%d %b %Y")
