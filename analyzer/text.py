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

_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$&:])")


def plain(text: object) -> str:
    """``text`` with Markdown's and HTML's special characters escaped, to show user text as typed."""
    return _MARKDOWN.sub(r"\\\1", str(text))
