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
from analyzer.game.labels import card_label, player_names
from analyzer.game.state import GameState, turn_number
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
    """The history of ``state`` as readable lines, oldest first (replayed from ``state.initial``)."""
    names = player_names(state)
    board = state.board
    terr = board.territories
    s = GameState.replay(state.initial, [], state.rules, state.board)
    s.labels = state.labels  # the players' names, for the lines that name them (read only)
    history = state.history
    out: list[LogLine] = []
    i = 0
    carried: int | None = None  # the end of an attack, told with the fortify or end of turn after it

    def line(kind: str, text: str, first: int, last: int, player: int, setup: bool = False) -> None:
        when = "Setup" if setup else f"Turn {s_round}"
        # A correction is the table's, not the player's to move: the line names no one before it.
        who = "" if kind == "correction" else f", {names[player]}"
        out.append(LogLine(s_round, player, names[player], kind, f"{when}{who}: {text}", first, last))

    while i < len(history):
        a = history[i]
        p, s_round, phase = s.player, turn_number(s), s.phase
        first = i if carried is None else carried
        carried = None
        setup = phase in (Phase.SETUP_CLAIM, Phase.SETUP_PLACE, Phase.CHOOSE_CAPITAL)
        if isinstance(a, Place) and phase == Phase.SETUP_PLACE:
            # Setup armies go down one at a time round the table: one line per force for the whole run.
            placed: dict[int, dict[int, int]] = {}
            while i < len(history) and isinstance(history[i], Place) and s.phase == Phase.SETUP_PLACE:
                force = int(s.owner[as_id(history[i].territory)])  # type: ignore[union-attr]
                t = as_id(history[i].territory)  # type: ignore[union-attr]
                placed.setdefault(force, {})[t] = placed.get(force, {}).get(t, 0) + 1
                s.apply_unchecked(history[i])
                i += 1
            for force, counts in placed.items():
                text = f"places {sum(counts.values())} starting armies: " + ", ".join(
                    f"{terr[t]} {k}" for t, k in counts.items()
                )
                line("setup", text, first, i - 1, force, setup=True)
            continue
        if isinstance(a, Place):
            parts = []
            while i < len(history) and isinstance(history[i], Place) and s.phase == Phase.REINFORCE and s.player == p:
                pl = history[i]
                assert isinstance(pl, Place)
                parts.append(f"{pl.armies} on {terr[as_id(pl.territory)]}")
                s.apply_unchecked(pl)
                i += 1
            line("place", "places " + ", ".join(parts), first, i - 1, p)
            continue
        i += 1
        before_elims = len(s.eliminations)
        if isinstance(a, Claim):
            s.apply_unchecked(a)
            line("claim", f"claims {terr[as_id(a.territory)]}", first, first, p, setup=True)
        elif isinstance(a, ChooseCapital):
            s.apply_unchecked(a)
            line("capital", f"chooses {terr[as_id(a.territory)]} as capital", first, first, p, setup=setup)
        elif isinstance(a, Trade):
            s.apply_unchecked(a)
            value = s.trades[-1].value
            bonus = f", +{s.rules.territory_bonus} on {terr[as_id(a.bonus)]}" if a.bonus is not None else ""
            down = a.face_down
            if down:
                # The identities of face-down cards are the recorder's guess: the table saw only how many.
                seen = [card_label(board, c) for c in a.cards[: 3 - down]]
                text = (
                    f"{', '.join(seen)} and {down} face-down card{'s' if down > 1 else ''}"
                    if seen
                    else f"a set of {down} face-down cards"
                )
                line("trade", f"trades {text} (+{value}){bonus}", first, first, p)
            else:
                cards = ", ".join(card_label(board, c) for c in a.cards)
                line("trade", f"trades {cards} for {value} armies{bonus}", first, first, p)
        elif isinstance(a, Battle):
            src, tgt = as_id(a.source), as_id(a.target)
            text = f"{terr[src]} ({int(s.armies[src])}) attacks {terr[tgt]} ({int(s.armies[tgt])}): "
            defender = int(s.owner[tgt])
            s.apply_unchecked(a)
            if a.defender_left == 0:
                text += f"{terr[tgt]} taken, {names[p]} {a.attacker_left} left"
                if s.phase == Phase.MOVE_IN and i < len(history) and isinstance(history[i], MoveIn):
                    s.apply_unchecked(history[i])
                    i += 1
                # A move-in not entered yet is pending, not a move of 0.
                text += ", move-in to come" if s.phase == Phase.MOVE_IN else f", moved in {int(s.armies[tgt])}"
            else:
                text += f"stopped with {a.attacker_left} against {a.defender_left}"
            text += _eliminated(s, before_elims, names, defender)
            line("battle", text, first, i - 1, p)
        elif isinstance(a, Attack):
            src, tgt = as_id(a.source), as_id(a.target)
            text = f"{terr[src]} ({int(s.armies[src])}) rolls {a.dice} against {terr[tgt]} ({int(s.armies[tgt])})"
            defender = int(s.owner[tgt])
            s.apply_unchecked(a)
            while i < len(history) and isinstance(history[i], (Defend, Roll)):
                step = history[i]
                if isinstance(step, Defend):
                    text += f" defending with {step.dice}"
                elif isinstance(step, Roll):
                    text += f": loses {step.attacker_losses}, destroys {step.defender_losses}"
                s.apply_unchecked(step)
                i += 1
            if int(s.owner[tgt]) == p:
                text += f"; {terr[tgt]} taken"
                if s.phase == Phase.MOVE_IN and i < len(history) and isinstance(history[i], MoveIn):
                    s.apply_unchecked(history[i])
                    i += 1
                # A move-in not entered yet is pending, not a move of 0.
                text += ", move-in to come" if s.phase == Phase.MOVE_IN else f", moved in {int(s.armies[tgt])}"
            text += _eliminated(s, before_elims, names, defender)
            line("roll", text, first, i - 1, p)
        elif isinstance(a, Correct):
            before = s.copy()
            s.apply_unchecked(a)
            line("correction", f"correction: {correction.describe(before, s, a)}", first, first, p)
        elif isinstance(a, MoveIn):
            s.apply_unchecked(a)
            line("move", f"moves in {a.armies}", first, first, p)
        elif isinstance(a, Fortify):
            s.apply_unchecked(a)
            i = _draw(s, history, i)
            text = f"fortifies {a.armies} from {terr[as_id(a.source)]} to {terr[as_id(a.target)]}"
            line("fortify", text + (", draws a card" if isinstance(history[i - 1], Draw) else ""), first, i - 1, p)
        elif isinstance(a, EndAttack):
            s.apply_unchecked(a)
            if i < len(history) and isinstance(history[i], (EndTurn, Fortify)):
                carried = first
                continue
            line("end-attack", "stops attacking", first, first, p)
        elif isinstance(a, EndTurn):
            s.apply_unchecked(a)
            i = _draw(s, history, i)
            line(
                "end", "ends the turn" + (", draws a card" if isinstance(history[i - 1], Draw) else ""), first, i - 1, p
            )
        else:  # a draw or a roll not after its own action: told as it is
            s.apply_unchecked(a)
            line("chance", repr(a), first, first, p)
        if s.winner is not None and s.phase == Phase.GAME_OVER:
            line("victory", "wins the game", i - 1, i - 1, s.winner)
    return out


def _eliminated(state: GameState, before: int, names: list[str], defender: int) -> str:
    if len(state.eliminations) == before:
        return ""
    cards = len(state.hand(state.player))
    return f"; {names[defender]} is out, {names[state.player]} now holds {cards} card{'s' if cards != 1 else ''}"


def _draw(state: GameState, history: list[Action], i: int) -> int:
    """Apply the card drawn at the end of a turn, if the next action is that draw; the index after it."""
    if i < len(history) and isinstance(history[i], Draw) and state.phase == Phase.DRAW:
        state.apply_unchecked(history[i])
        return i + 1
    return i


def log_frame(state: GameState) -> pd.DataFrame:
    """:func:`log_lines` as a DataFrame, one row per line (columns: turn, player, name, kind, text, actions)."""
    rows = [asdict(x) for x in log_lines(state)]
    columns = ["turn", "player", "name", "kind", "text", "first_action", "last_action"]
    return pd.DataFrame(rows, columns=columns)


def log_csv(state: GameState) -> str:
    """:func:`log_frame` as CSV text, for a download."""
    return str(log_frame(state).to_csv(index=False))
