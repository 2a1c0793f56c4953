"""A game's record: its history as entries made of actions, and player-turns made of entries, each with the
position before and after it.

The engine keeps a game's history as one flat list of actions (:attr:`GameState.history`). The table
tells it in entries: a run of armies placed, a set traded, a battle with its move-in, one roll of the
dice with its move-in, a fortify or the end of a turn with the card drawn after it, a correction. An
:class:`Entry` is one of those, with the history indices it covers and the positions around it; a
:class:`Turn` is a player's turn, the entries from its start to the next player's start. The log, the
luck meter and the review read a game through :func:`timeline`, so the rules of how actions make an
entry are written here once.

>>> from analyzer.game.actions import Battle, MoveIn, Place
>>> state = GameState.from_position([0] * 14 + [1] * 14 + [2] * 14, [3] * 42, n_players=3)
>>> for a in (Place("Alaska", 11), Battle("Alaska", "Kamchatka", 9, 0), MoveIn(5)):
...     state.apply(a)
>>> [(e.kind, e.first, e.last) for e in timeline(state).entries]
[('place', 0, 0), ('battle', 1, 2)]
>>> entry = timeline(state).entries[1]
>>> entry.text
'battle Alaska > Kamchatka leaves 9-0; move in 5'
>>> int(entry.before.armies[0]), int(entry.after.armies[0]), int(entry.after.armies[entry.target])
(14, 4, 5)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

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
    as_id,
)
from analyzer.game.notation import entry_text
from analyzer.game.state import GameState, turn_number
from analyzer.game.vocabulary import SETUP_PHASES, Phase

#: The kinds of entry, as :attr:`Entry.kind` names them.
KINDS = (
    "claim",  # a territory claimed in the setup
    "setup",  # a run of starting armies placed one at a time round the table
    "capital",  # a capital chosen (capital Risk)
    "place",  # a run of armies placed by the player to move
    "trade",  # a set of cards traded
    "battle",  # a battle fought to its stop in one entry, with its move-in
    "roll",  # one roll of an attack entered die by die (its attack and defence), with its move-in
    "move",  # a move-in entered on its own
    "end-attack",  # the attack phase ended, with no fortify or end of turn entered after it yet
    "fortify",  # a fortify (with the end of the attack before it and the card drawn after it)
    "end",  # the end of a turn (with the end of the attack before it and the card drawn after it)
    "correction",  # a correction of the board, the cards or the turn (the table's, not a move)
    "chance",  # a draw or a roll entered on its own
)


@dataclass(frozen=True)
class Entry:
    """One entry of a game's record: its ``kind`` (one of :data:`KINDS`), the ``player`` to move when it
    began, the table's turn number ``round`` (:func:`~analyzer.game.state.turn_number`) and the
    player-turn ``turn`` (:attr:`GameState.turn`) it began in, the history indices ``first`` .. ``last``
    it covers and its ``actions``, and the positions ``before`` and ``after`` it (shared with the entries
    around it: read them, never change them)."""

    kind: str
    player: int
    round: int
    turn: int
    first: int
    last: int
    actions: tuple[Action, ...]
    before: GameState = field(repr=False)
    after: GameState = field(repr=False)

    @property
    def text(self) -> str:
        """The entry's actions in words (:func:`analyzer.game.notation.entry_text`)."""
        return entry_text(self.actions, self.before.board)

    @property
    def setup(self) -> bool:
        """Whether the entry belongs to the setup (claims, starting armies, a capital chosen before play)."""
        return self.before.phase in SETUP_PHASES

    @property
    def source(self) -> int:
        """The attacking territory of a battle or a roll."""
        return as_id(self.actions[0].source)  # type: ignore[union-attr]  # battles and rolls begin with the attack

    @property
    def target(self) -> int:
        """The defending territory of a battle or a roll."""
        return as_id(self.actions[0].target)  # type: ignore[union-attr]

    @property
    def captured(self) -> bool:
        """Whether a battle or a roll took its target."""
        return bool(self.after.owner[self.target] == self.player)

    def steps(self) -> Iterator[tuple[GameState, Action]]:
        """Each action of the entry with the position just before it. The position is one working copy,
        advanced after each step: read it within the step."""
        s = self.before.copy()
        for action in self.actions:
            yield s, action
            s.apply_unchecked(action)


@dataclass(frozen=True)
class Turn:
    """Player-turn ``turn`` (:attr:`GameState.turn`) of a game: ``player`` moved in the table's turn
    ``round`` from ``before`` to ``after`` (the next player's start, or the game's end) through
    ``entries``; ``complete`` is False for the turn still being played."""

    turn: int
    round: int
    player: int
    entries: tuple[Entry, ...] = field(repr=False)
    before: GameState = field(repr=False)
    after: GameState = field(repr=False)
    complete: bool = True

    @property
    def first(self) -> int:
        return self.entries[0].first

    @property
    def last(self) -> int:
        return self.entries[-1].last

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(a for e in self.entries for a in e.actions)


@dataclass(frozen=True)
class Timeline:
    """A game's record: its ``entries`` in order, and :attr:`turns` (the player-turns of play)."""

    game: GameState
    entries: tuple[Entry, ...]

    @property
    def turns(self) -> list[Turn]:
        """The player-turns after the setup, oldest first; the last is incomplete while it is being played."""
        out: list[Turn] = []
        entries = [e for e in self.entries if not e.setup]
        i = 0
        while i < len(entries):
            j = i
            while j < len(entries) and entries[j].turn == entries[i].turn:
                j += 1
            after = entries[j].before if j < len(entries) else entries[j - 1].after
            complete = after.turn != entries[i].turn or after.is_terminal()
            first = entries[i]
            out.append(Turn(first.turn, first.round, first.player, tuple(entries[i:j]), first.before, after, complete))
            i = j
        return out


def timeline(game: GameState) -> Timeline:
    """``game``'s record, replayed from its first position (:attr:`GameState.initial`).

    The positions carry the game's players' names and colours (no other labels), and the cards still face
    down at the end of the game (:attr:`GameState.face_down`) are face down in every position that holds
    them.
    """
    history = game.history
    s = GameState.replay(game.initial, [], game.rules, game.board)
    s.labels = {key: game.labels[key] for key in ("names", "colors") if key in game.labels}
    hidden = set(game.face_down)

    def position() -> GameState:
        p = s.copy()
        p.face_down = sorted(c for c in hidden if p.card_loc[c] >= 0)
        return p

    spans: list[tuple[str, int, int, int, int, int]] = []  # kind, player, round, turn, first, last
    snapshots = [position()]
    i = 0
    while i < len(history):
        first, kind = i, _kind(s, history, i)
        head = (s.player, turn_number(s), s.turn)
        i = _end(s, history, i, kind)
        spans.append((kind, *head, first, i - 1))
        snapshots.append(position())
    entries = tuple(
        Entry(kind, player, round_, turn, first, last, tuple(history[first : last + 1]), snapshots[k], snapshots[k + 1])
        for k, (kind, player, round_, turn, first, last) in enumerate(spans)
    )
    return Timeline(game, entries)


def _kind(s: GameState, history: list[Action], i: int) -> str:
    a = history[i]
    if isinstance(a, EndAttack):
        following = history[i + 1] if i + 1 < len(history) else None
        return (
            "fortify" if isinstance(following, Fortify) else "end" if isinstance(following, EndTurn) else "end-attack"
        )
    kinds: tuple[tuple[type, str], ...] = (
        (Claim, "claim"),
        (ChooseCapital, "capital"),
        (Trade, "trade"),
        (Battle, "battle"),
        (Attack, "roll"),
        (MoveIn, "move"),
        (Fortify, "fortify"),
        (EndTurn, "end"),
        (Correct, "correction"),
    )
    if isinstance(a, Place):
        return "setup" if s.phase == Phase.SETUP_PLACE else "place"
    return next((kind for cls, kind in kinds if isinstance(a, cls)), "chance")


def _end(s: GameState, history: list[Action], i: int, kind: str) -> int:
    """Apply the entry of ``kind`` that begins at ``history[i]`` to ``s``; the index after it."""

    def take(i: int) -> int:
        s.apply_unchecked(history[i])
        return i + 1

    def next_is(i: int, cls: type | tuple[type, ...]) -> bool:
        return i < len(history) and isinstance(history[i], cls)

    if kind in ("setup", "place"):
        phase, player = s.phase, s.player
        while next_is(i, Place) and s.phase == phase and (phase == Phase.SETUP_PLACE or s.player == player):
            i = take(i)
        return i
    if kind in ("fortify", "end") and isinstance(history[i], EndAttack):
        i = take(i)
    i = take(i)
    if kind == "roll":
        while next_is(i, (Defend, Roll)):
            i = take(i)
    if kind in ("battle", "roll") and s.phase == Phase.MOVE_IN and next_is(i, MoveIn):
        i = take(i)
    if kind in ("fortify", "end") and s.phase == Phase.DRAW and next_is(i, Draw):
        i = take(i)
    return i


__all__ = ["KINDS", "Entry", "Timeline", "Turn", "timeline"]
