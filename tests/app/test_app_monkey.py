"""A monkey at the Record view: random entries, valid and not, through the panel's own widgets on a stored game.

A fixed seed picks, again and again, a widget of the panel and a value for it
(a count in its range, just outside it, a 10-digit number, a negative one, a
territory, a card) and then presses one of the panel's buttons. The game lives
in a :class:`~analyzer.store.GameStore`, saved as the app's Record view saves
it (against the version shown). After each press:

- nothing escapes as an exception;
- the stored history never shrinks, except by an undo;
- a press answered with a message (a refusal) leaves the stored game as it was;
- the stored game is the replay of its own log (its starting position and actions);
- its live record still reads (``LiveGame(state)``), and covers that history.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from analyzer.game.state import GameState
from analyzer.live import LIVE_LABEL, LiveGame
from analyzer.store import DB_ENV, GameStore

#: Presses made; each is one run of the panel (tens of milliseconds on a quiet machine).
PRESSES = 2000
SEED = 20
KEY = "live"
TIMEOUT = 60
#: Values tried in a number field besides those in its range.
WILD = (0, -1, -7, 1_234_567_890, 10**12)


def host() -> None:
    """The Record view as the app runs it: the game read from the store, an entry saved against its version."""
    import os

    import streamlit as st

    from analyzer.services.saving import save
    from analyzer.store import GameStore
    from analyzer.webapp.record import render

    store = GameStore(os.environ["RISK_ANALYZER_DB"])
    stored = store.load(st.session_state["game_id"])
    render(
        stored.state,
        "live",
        lambda game, version: save(store, game, game_id=stored.id, version=version, name=stored.name),
        version=stored.version,
    )


def replayed_equals(state: GameState) -> bool:
    """Whether ``state`` is what its own starting position and actions make (its labels and face-down bookkeeping aside)."""
    again = GameState.replay(state.initial, list(state.history), state.rules, state.board).to_dict()
    now = state.to_dict()
    for d in (again, now):
        d.pop("labels", None)
        d.pop("face_down", None)
    return again == now


def recorded_game() -> GameState:
    """A 3-player game dealt at random and played a few turns through the recorder, so battles are at hand."""
    live = LiveGame.random(["Ann", "Bo", "Cy"], np.random.default_rng(SEED))
    for _ in range(3):
        s = live.state
        live.place({s.territories_of(s.player)[0]: s.pending})
        live.end_turn()
    return live.state


def widgets(at: AppTest, kind: str) -> list[Any]:
    return [w for w in getattr(at, kind) if str(getattr(w, "key", "") or "").startswith(f"{KEY}:")]


def poke(at: AppTest, rng: np.random.Generator) -> None:
    """Set none, one or two of the panel's number fields or choices to a random value (in range or not).

    Nothing runs here: the values go with the next press, as a browser sends every widget's value with a tap.
    """
    for _ in range(int(rng.integers(0, 3))):
        kind = ["number_input", "selectbox"][int(rng.integers(2))]
        found = widgets(at, kind)
        if not found:
            continue
        w = found[int(rng.integers(len(found)))]
        if kind == "number_input":
            w.set_value(int(rng.integers(0, 12)) if rng.random() < 0.6 else int(rng.choice(WILD)))
        elif w.options:
            w.select_index(int(rng.integers(len(w.options))))


def refusals(at: AppTest) -> list[str]:
    """The messages of entries refused (a field's own message about its number is not one)."""
    return [e.value for e in at.error if "enter a whole number" not in e.value]


@pytest.fixture
def database(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    path = tmp_path / "games.sqlite3"
    monkeypatch.setenv(DB_ENV, str(path))
    return path


def test_random_entries_never_lose_or_invent_anything(database: Path) -> None:
    store = GameStore(database)
    game_id = store.create(recorded_game(), "monkey").id
    at = AppTest.from_function(host, default_timeout=TIMEOUT)
    at.session_state["game_id"] = game_id
    at.run()
    rng = np.random.default_rng(SEED)
    presses = refused = undone = grew = 0
    before = store.load(game_id)
    while presses < PRESSES:
        assert not at.exception, [e.value for e in at.exception]
        poke(at, rng)
        buttons = [b for b in widgets(at, "button") if not b.disabled]
        button = buttons[int(rng.integers(len(buttons)))]
        button.click().run()
        presses += 1
        assert not at.exception, (button.key, [e.value for e in at.exception])
        is_undo = button.key == f"{KEY}:undo"
        if refusals(at):
            refused += 1
            assert store.version(game_id) == before.version, (button.key, refusals(at))
            continue
        if store.version(game_id) == before.version:
            continue  # nothing saved (a field out of its range, or an entry that changes nothing)
        after = store.load(game_id)
        if is_undo:
            undone += 1
        else:
            assert len(after.state.history) >= len(before.state.history), button.key
            grew += len(after.state.history) > len(before.state.history)
        assert replayed_equals(after.state), button.key
        assert LIVE_LABEL in after.state.labels
        LiveGame(after.state)  # the record reads back and covers the whole history
        before = after
    # The monkey must have done all three, or the invariants above were checked on too little.
    assert refused > PRESSES // 20 and grew > PRESSES // 20 and undone > 0, (refused, grew, undone)
