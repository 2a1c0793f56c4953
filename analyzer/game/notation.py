"""A short text for a position and for an action or an entry, and back: what the tests and the docs write.

A **position** reads as the board's territories in order, each ``owner:armies``, then the players, the
player to move, the sets traded so far, and each hand (card ids; ``?`` for a card held face down):

>>> from analyzer.game.board import classic_board
>>> board = classic_board()
>>> state = GameState.from_position([0] * 41 + [1], [3] * 41 + [1], n_players=3, player=1, hands={1: [4, "?"]})
>>> text = position_text(state)
>>> text[:16], text.split(" | ", 1)[1]
('0:3 0:3 0:3 0:3 ', 'players 3 | move 1 | sets 0 | 1=4,?')
>>> position_text(position_from_text(text)) == text
True

It holds what a table sees at the start of a turn (as :meth:`GameState.from_position` takes it); the
history, the order of the deck and the turn's progress are the game's record, not the position's.

An **action** reads as the table would say it, naming territories, and an **entry** is its actions
joined by ``"; "``:

>>> from analyzer.game.actions import Battle, MoveIn
>>> text = entry_text([Battle(0, board.index("Kamchatka"), 9, 0), MoveIn(5)], board)
>>> text
'battle Alaska > Kamchatka leaves 9-0; move in 5'
>>> entry_from_text(text, board) == [Battle(0, board.index("Kamchatka"), 9, 0), MoveIn(5)]
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from analyzer.errors import StateFormatError
from analyzer.game.actions import (
    Action,
    Attack,
    Battle,
    ChooseCapital,
    Claim,
    Correct,
    Defend,
    Draw,
    EndAttack,
    EndTurn,
    Fortify,
    MoveIn,
    Place,
    Roll,
    Trade,
    action_from_json,
    action_to_json,
    as_id,
)
from analyzer.game.board import Board, classic_board
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.game.vocabulary import TERRITORY_FIELDS

_T = r"(?P<{}>[^>;]+?)"  # a territory's name: anything up to the next separator
_N = r"(?P<{}>\d+)"

#: Each action's words: its pattern, and how its fields read back. Territories are named by the board.
_FORMS: dict[type, tuple[str, Callable[[Any, Board], str]]] = {
    Claim: (f"claim {_T.format('territory')}", lambda a, b: f"claim {b.territories[as_id(a.territory)]}"),
    Place: (
        f"place {_N.format('armies')} on {_T.format('territory')}",
        lambda a, b: f"place {a.armies} on {b.territories[as_id(a.territory)]}",
    ),
    Trade: (
        r"trade (?P<cards>\d+ \d+ \d+)(?: bonus (?P<bonus>[^;]+?))?(?: face down (?P<face_down>\d))?",
        lambda a, b: (
            "trade "
            + " ".join(str(int(c)) for c in a.cards)
            + (f" bonus {b.territories[as_id(a.bonus)]}" if a.bonus is not None else "")
            + (f" face down {a.face_down}" if a.face_down else "")
        ),
    ),
    ChooseCapital: (f"capital {_T.format('territory')}", lambda a, b: f"capital {b.territories[as_id(a.territory)]}"),
    Attack: (
        f"attack {_T.format('source')} > {_T.format('target')} with {_N.format('dice')}",
        lambda a, b: f"attack {b.territories[as_id(a.source)]} > {b.territories[as_id(a.target)]} with {a.dice}",
    ),
    Defend: (f"defend with {_N.format('dice')}", lambda a, b: f"defend with {a.dice}"),
    Roll: (
        f"roll loses {_N.format('attacker_losses')}-{_N.format('defender_losses')}",
        lambda a, b: f"roll loses {a.attacker_losses}-{a.defender_losses}",
    ),
    Battle: (
        f"battle {_T.format('source')} > {_T.format('target')} leaves "
        f"{_N.format('attacker_left')}-{_N.format('defender_left')}",
        lambda a, b: (
            f"battle {b.territories[as_id(a.source)]} > {b.territories[as_id(a.target)]} "
            f"leaves {a.attacker_left}-{a.defender_left}"
        ),
    ),
    MoveIn: (f"move in {_N.format('armies')}", lambda a, b: f"move in {a.armies}"),
    EndAttack: ("end attack", lambda a, b: "end attack"),
    Fortify: (
        f"fortify {_N.format('armies')} from {_T.format('source')} > {_T.format('target')}",
        lambda a, b: f"fortify {a.armies} from {b.territories[as_id(a.source)]} > {b.territories[as_id(a.target)]}",
    ),
    EndTurn: ("end turn", lambda a, b: "end turn"),
    Draw: (f"draw {_N.format('card')}", lambda a, b: f"draw {a.card}"),
    # A correction sets many things at once: its fields as JSON lists (read with json, never evaluated).
    Correct: (r"correct (?P<json>\[.*\])", lambda a, b: "correct " + json.dumps(action_to_json(a)[1:])),
}
_PATTERNS = [(cls, re.compile(pattern + r"\Z")) for cls, (pattern, _) in _FORMS.items()]


def action_text(action: Action, board: Board | None = None) -> str:
    """``action`` in words (:mod:`analyzer.game.notation`), territories by name on ``board`` (the classic board)."""
    return _FORMS[type(action)][1](action, board if board is not None else classic_board())


def action_from_text(text: str, board: Board | None = None) -> Action:
    """The action ``text`` says (as :func:`action_text` writes it), territories as ids on ``board``."""
    board = board if board is not None else classic_board()
    words = " ".join(str(text).split())
    for cls, pattern in _PATTERNS:
        m = pattern.match(words)
        if m is None:
            continue
        if cls is Correct:
            try:
                return action_from_json(["Correct", *json.loads(m["json"])])
            except (ValueError, TypeError) as exc:
                raise StateFormatError(f"correction {text!r} is not readable: {exc}") from None
        values: dict[str, Any] = {}
        for name, value in m.groupdict().items():
            if value is None:
                continue
            if name in TERRITORY_FIELDS:
                values[name] = board.index(value)
            elif name == "cards":
                values[name] = tuple(int(c) for c in value.split())
            else:
                values[name] = int(value)
        return cls(**values)
    raise StateFormatError(
        f"not an action: {text!r}; expected words such as 'place 3 on Alaska', "
        "'battle Alaska > Kamchatka leaves 9-0', 'move in 5' or 'end turn'"
    )


def entry_text(actions: Sequence[Action], board: Board | None = None) -> str:
    """An entry's actions in words, joined by ``"; "``."""
    return "; ".join(action_text(a, board) for a in actions)


def entry_from_text(text: str, board: Board | None = None) -> list[Action]:
    """The actions of an entry written by :func:`entry_text`."""
    return [action_from_text(part, board) for part in str(text).split(";") if part.strip()]


def position_text(state: GameState) -> str:
    """``state``'s position in one line (:mod:`analyzer.game.notation`)."""
    down = set(state.face_down)
    # The cards a hand shows, then one "?" for each held face down (whose placeholder ids mean nothing).
    hands = " ".join(
        f"{p}="
        + ",".join([str(c) for c in state.hand(p) if c not in down] + ["?"] * sum(c in down for c in state.hand(p)))
        for p in range(state.n_players)
        if state.hand(p)
    )
    board = " ".join(f"{int(o)}:{int(a)}" for o, a in zip(state.owner, state.armies))
    text = f"{board} | players {state.n_players} | move {state.player} | sets {state.sets_traded}"
    return text + (f" | {hands}" if hands else "")


def position_from_text(text: str, board: Board | None = None, rules: Rules | None = None) -> GameState:
    """The game at the start of the turn of the position ``text`` (as :func:`position_text` writes it)."""
    parts = [p.strip() for p in str(text).split("|")]

    def bad(why: str) -> StateFormatError:
        return StateFormatError(
            f"not a position: {why}; expected 'owner:armies' for each territory, then "
            "'| players N | move P | sets S' and each hand as 'P=card,card,?'"
        )

    if len(parts) not in (4, 5):
        raise bad(f"{len(parts)} parts separated by '|'")
    try:
        pairs = [tuple(int(x) for x in cell.split(":")) for cell in parts[0].split()]
        owner, armies = [p[0] for p in pairs], [p[1] for p in pairs]
        (n_players,), (player,), (sets,) = (
            _after(part, word) for part, word in zip(parts[1:4], ("players", "move", "sets"))
        )
        hands: dict[int, list[int | str]] = {}
        for hand in parts[4].split() if len(parts) == 5 else ():
            seat, cards = hand.split("=")
            hands[int(seat)] = [c if c == "?" else int(c) for c in cards.split(",")]
    except ValueError as exc:
        raise bad(str(exc)) from None
    return GameState.from_position(
        owner, armies, n_players=n_players, player=player, hands=hands, sets_traded=sets, rules=rules, board=board
    )


def _after(part: str, word: str) -> tuple[int]:
    key, _, value = part.partition(" ")
    if key != word:
        raise ValueError(f"expected '{word} N', got {part!r}")
    return (int(value),)


__all__ = ["action_from_text", "action_text", "entry_from_text", "entry_text", "position_from_text", "position_text"]
