"""Keeping a game in the store against the version it was made on, and what the page shows after.

An entry is made on the version of the game a page shows. Saving it against that version either keeps
it (the next version), or is refused because another device saved first (the page then shows the
game as stored now and keeps the user's entry, to apply again), or fails because the store cannot be
written (the page keeps the game itself and says so). :func:`save` decides which, and
:class:`Saved` carries what the page shows in each case. An edit that changes nothing is not saved at all
(:func:`unchanged`), and a page looks for a newer version every :func:`poll_seconds`.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

from analyzer.errors import RiskAnalyzerError, StoreConflictError, StoreError
from analyzer.game.state import GameState
from analyzer.limits import MAX_NAME_LENGTH
from analyzer.store import GameStore, StoredGame, check_name
from analyzer.text import shortened

#: The label under which a game's file keeps the game's name (the store keeps the name beside the game).
NAME_LABEL = "game name"

#: What a page says of a game it holds when the store could not be written.
KEPT_IN_PAGE = "The game is kept in this page only: save it as a file."
#: Said when a page that holds entries the store never got finds the stored game changed by another device: neither
#: game is put over the other.
CHANGED_WHILE_UNSAVED = (
    "Another device saved this game while this page could not save its entries: the store now holds that device's "
    "game, and this page its own. " + KEPT_IN_PAGE + " Reopen the game from the start page to take the stored one."
)

#: The environment variable that sets the seconds between two looks at the store.
POLL_ENV = "RISK_ANALYZER_POLL_SECONDS"


def poll_seconds() -> float:
    """Seconds between two looks at the stored version, for changes made on another device: ``$RISK_ANALYZER_POLL_SECONDS``,
    else 2. Anything but a positive number is refused when the app starts, naming the variable."""
    raw = os.environ.get(POLL_ENV, "").strip()
    if not raw:
        return 2.0
    try:
        seconds = float(raw)
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        raise RiskAnalyzerError(f"{POLL_ENV} must be a positive number of seconds, got {raw[:40]!r}")
    return seconds


def unchanged(edited: GameState, game: GameState) -> bool:
    """Whether an edit left ``game`` as it was. A position typed with no history is typed again by each edit,
    with the record of how it was typed (``initial``): only the game it makes counts."""
    if edited.history or game.history:
        return edited == game
    before, after = game.to_dict(), edited.to_dict()
    before.pop("initial"), after.pop("initial")
    return before == after


@dataclass(frozen=True)
class Saved:
    """The outcome of one save.

    ``stored`` is the game as stored now (the new version, or on a refusal the version another device
    saved), None when the store could not be written. ``refused`` says why the game was not kept (the
    entry stays in the page's widgets); ``problem`` says the store failed, the game being kept in the page.
    """

    stored: StoredGame | None
    refused: str | None = None
    problem: str | None = None

    @classmethod
    def failed(cls, exc: StoreError) -> Saved:
        """The store could not be opened or written: the game stays in the page, with the cause."""
        return cls(None, problem=f"{exc}. {KEPT_IN_PAGE}")

    @property
    def kept(self) -> bool:
        """Whether the game saved is the one the page goes on with (stored, or kept in the page)."""
        return self.refused is None


def save(store: GameStore, game: GameState, *, game_id: str | None, version: int | None, name: str) -> Saved:
    """Store ``game`` as the version after ``version`` of game ``game_id`` (None: not stored yet, created as ``name``).

    >>> import tempfile, numpy as np
    >>> from pathlib import Path
    >>> store = GameStore(Path(tempfile.mkdtemp()) / "games.sqlite3")
    >>> game = GameState.random_start(3, np.random.default_rng(1))
    >>> first = save(store, game, game_id=None, version=None, name="Friday")
    >>> first.stored.version, first.kept
    (1, True)
    >>> again = save(store, game, game_id=first.stored.id, version=1, name="Friday")
    >>> late = save(store, game, game_id=first.stored.id, version=1, name="Friday")
    >>> again.stored.version, late.kept, late.stored.version
    (2, False, 2)
    """
    try:
        if game_id is None:
            return Saved(store.create(game, name))
        if version is None:
            raise ValueError("a stored game is saved against the version it was made on; none was given")
        return Saved(store.save(game_id, game, expected_version=version))
    except StoreConflictError as exc:
        assert isinstance(exc.current, StoredGame)
        # The page shows the game as stored now and keeps the fields as the user left them, where they still are.
        return Saved(
            exc.current,
            refused=f"{exc}: the game as it is now is shown, and your entry is kept to apply again "
            "where it still applies",
        )
    except StoreError as exc:
        return Saved.failed(exc)


def file_text(game: GameState, name: str) -> str:
    """``game`` as its file: the game's JSON, with its ``name`` in its labels, so that the file opens under the name
    it had rather than the file's, which a file system may have made change ("Friday: Ann/Bo" is saved as
    ``Friday- Ann-Bo.json``).

    >>> import numpy as np
    >>> text = file_text(GameState.random_start(3, np.random.default_rng(1)), "Friday: Ann/Bo")
    >>> opened(GameState.from_json(text), "Friday- Ann-Bo.json")[1]
    'Friday: Ann/Bo'
    """
    named = game.copy()
    named.labels = {**game.labels, NAME_LABEL: name}
    return named.to_json()


def opened(game: GameState, file_name: str) -> tuple[GameState, str]:
    """A game read from the file ``file_name``, its name label taken out, and its name: the name the file keeps
    (:func:`file_text`) if it is one a game may have, else the file's, less its ``.json`` ("" if blank)."""
    kept = game.labels.pop(NAME_LABEL, None)
    try:
        return game, check_name(kept)
    except RiskAnalyzerError:
        return game, shortened(file_name.removesuffix(".json"), MAX_NAME_LENGTH)


def stored_already(store: GameStore, game: GameState, name: str) -> StoredGame | None:
    """The stored game named ``name`` that is ``game`` as it stands, the last changed first, if one is: a file saved
    from a stored game and opened again opens that game rather than storing a copy of it beside it. Only the games
    of that name are read."""
    for summary in store.list():
        if summary.name == name:
            stored = store.load(summary.id)
            if stored.state == game:
                return stored
    return None
