"""A game's history as readable lines, as a table and as CSV.

Each line is one event as the table would tell it: a run of armies placed, a
set traded, a whole battle with its move-in, a die-by-die roll, a fortify, the
end of a turn (with the card drawn), an elimination and the winner.
"Turn n" is :func:`~analyzer.game.state.turn_number`: the n-th round of the table (every player's n-th turn).

>>> from analyzer.game.state import GameState
>>> from analyzer.game.actions import Battle, MoveIn, Place
>>> state = GameState.from_position([0] * 14 + [1] * 14 + [2] * 14, [3] * 42, n_players=3)
>>> state.labels["names"] = ["Red", "Blue", "Green"]
>>> for a in (Place("Alaska", 11), Battle("Alaska", "Kamchatka", 9, 0), MoveIn(5)):
...     state.apply(a)
>>> for line in log_lines(state):
...     print(line.text)
Turn 1, Red: places 11 on Alaska
Turn 1, Red: Alaska (14) attacks Kamchatka (3): Kamchatka taken, Red 9 left, moved in 5
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import pandas as pd

from analyzer.game import correction
from analyzer.game.actions import (
    Attack,
    Battle,
    Correct,
    Defend,
    Draw,
    Fortify,
    Roll,
    Trade,
    as_id,
)
from analyzer.game.labels import card_label, player_names
from analyzer.game.state import GameState
from analyzer.game.timeline import Entry, timeline
from analyzer.game.vocabulary import Phase


@dataclass(frozen=True)
class LogLine:
    """One event of the log: who, when, what kind, the sentence, and the history actions it covers."""

    turn: int
    player: int
    name: str
    kind: str
    text: str
    first_action: int
    last_action: int


def log_lines(state: GameState) -> list[LogLine]:
    """The history of ``state`` as readable lines, oldest first: one line per entry of its record
    (:func:`~analyzer.game.timeline.timeline`), a run of starting armies one line per force."""
    names = player_names(state)
    out: list[LogLine] = []
    for e in timeline(state).entries:

        def line(kind: str, text: str, player: int, first: int = e.first, last: int = e.last) -> None:
            when = "Setup" if e.setup else f"Turn {e.round}"
            # A correction is the table's, not the player's to move: the line names no one before it.
            who = "" if kind == "correction" else f", {names[player]}"
            out.append(LogLine(e.round, player, names[player], kind, f"{when}{who}: {text}", first, last))

        if e.kind == "setup":
            # Starting armies go down one at a time round the table: one line per force for the whole run.
            for force, text in _starting_armies(e):
                line("setup", text, force)
        else:
            line(e.kind, _text(e, names), e.player)
        if e.after.phase == Phase.GAME_OVER and e.after.winner is not None:
            line("victory", "wins the game", e.after.winner, e.last, e.last)
    return out


def _starting_armies(e: Entry) -> list[tuple[int, str]]:
    terr = e.before.board.territories
    placed: dict[int, dict[int, int]] = {}
    for s, a in e.steps():
        t = as_id(a.territory)  # type: ignore[union-attr]  # a setup entry is placements
        force = int(s.owner[t])
        placed.setdefault(force, {})[t] = placed.get(force, {}).get(t, 0) + 1
    return [
        (
            force,
            f"places {sum(counts.values())} starting armies: " + ", ".join(f"{terr[t]} {k}" for t, k in counts.items()),
        )
        for force, counts in placed.items()
    ]


def _text(e: Entry, names: list[str]) -> str:
    """What the entry did, in words (the line after its "Turn n, name: ")."""
    board, before, after = e.before.board, e.before, e.after
    terr = board.territories
    a = e.actions[0]
    if e.kind == "place":
        return "places " + ", ".join(f"{pl.armies} on {terr[as_id(pl.territory)]}" for pl in e.actions)  # type: ignore[union-attr]
    if e.kind == "claim":
        return f"claims {terr[as_id(a.territory)]}"  # type: ignore[union-attr]
    if e.kind == "capital":
        return f"chooses {terr[as_id(a.territory)]} as capital"  # type: ignore[union-attr]
    if e.kind == "trade":
        assert isinstance(a, Trade)
        value = after.trades[-1].value
        bonus = f", +{after.rules.territory_bonus} on {terr[as_id(a.bonus)]}" if a.bonus is not None else ""
        down = a.face_down
        if not down:
            return f"trades {', '.join(card_label(board, c) for c in a.cards)} for {value} armies{bonus}"
        # The identities of face-down cards are the recorder's guess: the table saw only how many.
        seen = [card_label(board, c) for c in a.cards[: 3 - down]]
        text = (
            f"{', '.join(seen)} and {down} face-down card{'s' if down > 1 else ''}"
            if seen
            else f"a set of {down} face-down cards"
        )
        return f"trades {text} (+{value}){bonus}"
    if e.kind in ("battle", "roll"):
        src, tgt = e.source, e.target
        if isinstance(a, Battle):
            text = f"{terr[src]} ({int(before.armies[src])}) attacks {terr[tgt]} ({int(before.armies[tgt])}): "
            text += (
                f"{terr[tgt]} taken, {names[e.player]} {a.attacker_left} left"
                if a.defender_left == 0
                else f"stopped with {a.attacker_left} against {a.defender_left}"
            )
        else:
            assert isinstance(a, Attack)
            text = f"{terr[src]} ({int(before.armies[src])}) rolls {a.dice} against {terr[tgt]} ({int(before.armies[tgt])})"
            for step in e.actions[1:]:
                if isinstance(step, Defend):
                    text += f" defending with {step.dice}"
                elif isinstance(step, Roll):
                    text += f": loses {step.attacker_losses}, destroys {step.defender_losses}"
            if e.captured:
                text += f"; {terr[tgt]} taken"
        if e.captured:
            # A move-in not entered yet is pending, not a move of 0.
            text += ", move-in to come" if after.phase == Phase.MOVE_IN else f", moved in {int(after.armies[tgt])}"
        if len(after.eliminations) > len(before.eliminations):
            cards = len(after.hand(after.player))
            defender = int(before.owner[tgt])
            text += (
                f"; {names[defender]} is out, {names[after.player]} now holds {cards} card{'s' if cards != 1 else ''}"
            )
        return text
    if e.kind == "correction":
        assert isinstance(a, Correct)
        return f"correction: {correction.describe(before, after, a)}"
    if e.kind == "move":
        return f"moves in {a.armies}"  # type: ignore[union-attr]
    drew = ", draws a card" if isinstance(e.actions[-1], Draw) else ""
    if e.kind == "fortify":
        f = next(x for x in e.actions if isinstance(x, Fortify))
        return f"fortifies {f.armies} from {terr[as_id(f.source)]} to {terr[as_id(f.target)]}{drew}"
    if e.kind == "end":
        return "ends the turn" + drew
    if e.kind == "end-attack":
        return "stops attacking"
    return repr(a)  # a draw or a roll not after its own action: told as it is


def log_frame(state: GameState) -> pd.DataFrame:
    """:func:`log_lines` as a DataFrame, one row per line (columns: turn, player, name, kind, text, actions)."""
    rows = [asdict(x) for x in log_lines(state)]
    columns = ["turn", "player", "name", "kind", "text", "first_action", "last_action"]
    return pd.DataFrame(rows, columns=columns)


def log_csv(state: GameState) -> str:
    """:func:`log_frame` as CSV text, for a download."""
    return str(log_frame(state).to_csv(index=False))
