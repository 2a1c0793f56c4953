"""One validation of a game state, used by every way in.

A state reaches the engine from a saved game (:meth:`GameState.from_json
<analyzer.game.state.GameState.from_json>`, :meth:`~analyzer.game.state.GameState.from_dict`),
a position typed in (:meth:`~analyzer.game.state.GameState.from_position`), the
app's edits and its store. All of them end in :func:`validate`, which proves
what the compiled rule steps (:mod:`analyzer.game.engine.steps`) take on trust:

* every field's type and range (ids on the board, armies within
  :data:`analyzer.limits.MAX_ARMIES`, counters within their limits);
* the fields agree with each other: owners and ``alive`` (an alive seat owns a
  territory once the setup is over, a dead one owns none and holds no cards),
  hand sizes, the phase and the pending attack or move-in, the winner and
  ``GAME_OVER``, missions and capitals only under their rule, the setup's
  armies and claims;
* by default, that the history replays, action by action through the checked
  :meth:`~analyzer.game.state.GameState.apply`, from ``initial`` to exactly the
  stored state. ``replay=False`` (``trusted=True`` on the loaders) skips this
  last step for states this process made itself.

Failures raise :class:`~analyzer.errors.PositionError` naming the field
(``armies[12] (Alaska)``, ``phase``, ``history``); malformed JSON raises
:class:`~analyzer.errors.StateFormatError`. A bad value is quoted back in at
most :data:`analyzer.limits.MAX_MESSAGE` characters.

>>> import numpy as np
>>> from analyzer.game.state import GameState
>>> state = GameState.random_start(3, np.random.default_rng(1))
>>> validate(state)
>>> state.armies[5] = 0
>>> validate(state, replay=False)
Traceback (most recent call last):
...
analyzer.errors.PositionError: armies[5] (Quebec) is 0 in phase REINFORCE; every territory in play holds at least 1
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import numpy as np

from analyzer import limits
from analyzer.limits import quote
from analyzer.errors import PositionError, RiskAnalyzerError, StateFormatError
from analyzer.game import face_down
from analyzer.game import missions as missions_mod
from analyzer.game.engine import steps as engine
from analyzer.game.engine.layout import AT, HEADER
from analyzer.game.rules import ELIMINATION_TRADE_HAND, FORCED_TRADE_HAND, NEUTRAL_ARMIES, STARTING_ARMIES

if TYPE_CHECKING:
    from analyzer.game.board import Board
    from analyzer.game.state import GameState

__all__ = ["validate", "load_state", "loads", "quote", "check_depth", "check_board_for_game", "check_action"]

_PHASE_NAMES = (
    "SETUP_CLAIM", "SETUP_PLACE", "CHOOSE_CAPITAL", "REINFORCE", "ATTACK", "DEFEND", "ROLL", "MOVE_IN", "FORTIFY",
    "DRAW", "GAME_OVER",
)
_SETUP = (engine.SETUP_CLAIM, engine.SETUP_PLACE, engine.CHOOSE_CAPITAL)
#: Most cards a seat holds while another plays: 4 kept past its trades, one more kept after an
#: elimination (fewer than 6), and the turn's card.
MAX_HAND_WAITING = FORCED_TRADE_HAND + 1
#: Most cards the player to move holds: 5 in hand and a victim's 6 just taken, before trading down.
MAX_HAND_TO_MOVE = FORCED_TRADE_HAND + ELIMINATION_TRADE_HAND


# ---------------------------------------------------------------------------------- JSON
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)


def json_depth(text: str) -> int:
    """How deep ``text``'s arrays and objects nest, counted without parsing it (brackets in strings aside).

    >>> json_depth('{"a": [1, [2, "]]]"]]}')
    3
    """
    bare = _STRING.sub("", text).encode("utf-8", "replace")
    b = np.frombuffer(bare, dtype=np.uint8)
    opens = (b == ord("[")) | (b == ord("{"))
    at = np.flatnonzero(opens | (b == ord("]")) | (b == ord("}")))
    if not len(at):
        return 0
    return int(np.cumsum(np.where(opens[at], 1, -1)).max())


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def loads(text: str | bytes, what: str = "saved game", error: type[RiskAnalyzerError] = StateFormatError) -> Any:
    """Parse JSON ``text`` within :data:`~analyzer.limits.MAX_JSON_BYTES` and :data:`~analyzer.limits.MAX_JSON_DEPTH`.

    The depth is counted before :func:`json.loads` recurses; NaN and Infinity are refused.
    Every fault raises ``error`` whose message starts with ``what``.

    >>> loads('[[[1]]]')
    [[[1]]]
    >>> loads('[' * 100_000)
    Traceback (most recent call last):
    ...
    analyzer.errors.StateFormatError: saved game nests 100000 levels deep; the limit is 32 (analyzer.limits.MAX_JSON_DEPTH)
    """
    if isinstance(text, (bytes, bytearray)):
        if len(text) > limits.MAX_JSON_BYTES:
            raise error(f"{what} has {len(text)} bytes; the limit is {limits.MAX_JSON_BYTES} (analyzer.limits.MAX_JSON_BYTES)")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise error(f"{what} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if not isinstance(text, str):
        raise error(f"{what} must be JSON text, got {type(text).__name__}")
    if len(text) > limits.MAX_JSON_BYTES:
        raise error(f"{what} has {len(text)} characters; the limit is {limits.MAX_JSON_BYTES} (analyzer.limits.MAX_JSON_BYTES)")
    depth = json_depth(text)
    if depth > limits.MAX_JSON_DEPTH:
        raise error(f"{what} nests {depth} levels deep; the limit is {limits.MAX_JSON_DEPTH} (analyzer.limits.MAX_JSON_DEPTH)")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise error(f"{what} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except (ValueError, RecursionError) as exc:  # a number of more than 4300 digits, NaN
        raise error(f"{what} is not valid JSON: {quote(str(exc))}") from None


def check_depth(value: Any, what: str, error: type[RiskAnalyzerError] = PositionError) -> None:
    """Refuse Python data (dicts, lists) nested past :data:`~analyzer.limits.MAX_JSON_DEPTH`, without recursing."""
    stack = [(value, 1)]
    seen = 0
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth > limits.MAX_JSON_DEPTH:
            raise error(f"{what} nests deeper than {limits.MAX_JSON_DEPTH} levels (analyzer.limits.MAX_JSON_DEPTH)")
        seen += len(children)
        if seen > limits.MAX_JSON_BYTES:
            raise error(f"{what} holds more than {limits.MAX_JSON_BYTES} values (analyzer.limits.MAX_JSON_BYTES)")
        stack.extend((child, depth + 1) for child in children)


# ---------------------------------------------------------------------------------- field readers
def _fail(field: str, expected: str, value: object) -> PositionError:
    return PositionError(f"{field} must be {expected}, got {quote(value)}")


def read_int(value: object, field: str, lo: int, hi: int) -> int:
    """``value`` as an int if it is a whole number from ``lo`` to ``hi``, else a :class:`PositionError` naming ``field``."""
    if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)) or not lo <= value <= hi:
        raise _fail(field, f"a whole number from {lo} to {hi}", value)
    return int(value)


def read_bool(value: object, field: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise _fail(field, "true or false", value)
    return bool(value)


def read_ints(value: object, field: str, length: int, lo: int, hi: int) -> list[int]:
    """A list of ``length`` whole numbers from ``lo`` to ``hi``."""
    if not isinstance(value, list) or len(value) != length:
        got = f"{len(value)} entries" if isinstance(value, list) else quote(value)
        raise PositionError(f"{field} must be a list of {length} whole numbers, got {got}")
    for i, v in enumerate(value):
        read_int(v, f"{field}[{i}]", lo, hi)
    return [int(v) for v in value]


def read_rows(value: object, field: str, most: int, width: int) -> list[list[int]]:
    """A list of at most ``most`` rows of ``width`` whole numbers (ranges are checked by :func:`validate`)."""
    if not isinstance(value, list) or len(value) > most:
        raise _fail(field, f"a list of at most {most} rows", value)
    return [read_ints(row, f"{field}[{i}]", width, -(2**62), 2**62) for i, row in enumerate(value)]


_KEYS = (
    "format", "version", "map", "rules", "n_players", "initial", "phase", "player", "first_player", "owner", "armies",
    "card_loc", "pool", "alive", "eliminated_by", "capitals", "missions", "turn", "round", "pending", "captured",
    "bonus_used", "sets_traded", "resume_attack", "elimination_trade", "setup_step", "attack", "move", "winner",
    "eliminations", "trades",
)
_OPTIONAL = ("labels", "history", "face_down")
#: Generous bounds for the raw numbers of a save: :func:`validate` checks the real ranges, these only
#: keep every value inside int64 before it is stored.
_BIG = 2**62


def read_fields(data: Any, board: Board | None, format_: str, version: int) -> dict[str, Any]:
    """Check a saved game's keys and each field's type, and read it into plain values.

    Returns the fields with ``board`` (a :class:`Board`), ``rules`` (a :class:`Rules`),
    ``history`` (actions) and ``phase`` (its index) resolved; the ranges and the
    fields' agreement are :func:`validate`'s.
    """
    from analyzer.game.actions import action_from_json
    from analyzer.game.board import Board, classic_board
    from analyzer.game.rules import Rules

    if not isinstance(data, dict) or data.get("format") != format_:
        raise StateFormatError(f"not a saved game: expected a JSON object with format {format_!r}")
    if data.get("version") != version or isinstance(data.get("version"), bool):
        raise StateFormatError(f"saved game version {quote(data.get('version'))} is not supported (expected {version})")
    check_depth(data, "saved game", StateFormatError)
    missing = [k for k in _KEYS if k not in data]
    if missing:
        raise StateFormatError(f"saved game is malformed: missing field(s) {', '.join(missing)}")
    unknown = [k for k in data if k not in _KEYS and k not in _OPTIONAL]
    if unknown:
        raise StateFormatError(f"saved game is malformed: unknown field(s) {quote(unknown)}")
    out: dict[str, Any] = {}
    if board is None:
        try:
            board = classic_board() if data["map"] == "classic" else Board.from_dict(data["map"], "saved game map")
        except RiskAnalyzerError as exc:
            raise PositionError(f"map: {exc}") from None
    out["board"] = board
    if not isinstance(data["rules"], dict):
        raise _fail("rules", "an object of rule options", data["rules"])
    try:
        out["rules"] = Rules.from_dict(data["rules"])
    except RiskAnalyzerError as exc:
        raise PositionError(f"rules: {exc}") from None
    n = out["n_players"] = read_int(data["n_players"], "n_players", 2, 6)
    if data["phase"] not in _PHASE_NAMES:
        raise _fail("phase", f"one of {', '.join(_PHASE_NAMES)}", data["phase"])
    out["phase"] = _PHASE_NAMES.index(data["phase"])
    for name in ("player", "first_player", "turn", "round", "pending", "sets_traded", "setup_step"):
        out[name] = read_int(data[name], name, -_BIG, _BIG)
    for name in ("captured", "bonus_used", "resume_attack", "elimination_trade"):
        out[name] = read_bool(data[name], name)
    forces = n + (n == 2)
    T, M = board.n_territories, board.n_cards
    for name, length in (("owner", T), ("armies", T), ("card_loc", M), ("pool", forces),
                         ("eliminated_by", n), ("capitals", n), ("missions", n)):
        out[name] = read_ints(data[name], name, length, -_BIG, _BIG)
    alive = data["alive"]
    if not isinstance(alive, list) or len(alive) != n:
        raise _fail("alive", f"a list of {n} true/false values", alive)
    out["alive"] = [read_bool(a, f"alive[{p}]") for p, a in enumerate(alive)]
    for name in ("attack", "move"):
        value = data[name]
        out[name] = None if value is None else read_ints(value, name, 4, -_BIG, _BIG)
    winner = data["winner"]
    out["winner"] = None if winner is None else read_int(winner, "winner", 0, n - 1)
    out["eliminations"] = read_rows(data["eliminations"], "eliminations", n, 3)
    out["trades"] = read_rows(data["trades"], "trades", limits.MAX_SETS_TRADED, 3)
    initial = data["initial"]
    if not isinstance(initial, dict):
        raise _fail("initial", "an object", initial)
    out["initial"] = dict(initial)
    history = data.get("history")
    if history is not None:
        if not isinstance(history, list) or len(history) > limits.MAX_HISTORY:
            raise _fail("history", f"a list of at most {limits.MAX_HISTORY} actions", history)
        actions = []
        for i, entry in enumerate(history):
            try:
                action = action_from_json(entry)
            except (RiskAnalyzerError, TypeError) as exc:
                raise PositionError(f"history[{i}]: {quote(str(exc))}") from None
            check_action(action, f"history[{i}]")
            actions.append(action)
        out["history"] = actions
    else:
        out["history"] = None
    labels = data.get("labels", {})
    if not isinstance(labels, dict) or not all(isinstance(k, str) for k in labels):
        raise _fail("labels", "an object with string keys", labels)
    out["labels"] = dict(labels)
    down = data.get("face_down", [])
    if not isinstance(down, list) or len(down) > M:
        raise _fail("face_down", f"a list of at most {M} card ids", down)
    out["face_down"] = read_ints(down, "face_down", len(down), 0, M - 1)
    return out


def check_action(action: object, field: str = "action", error: type[RiskAnalyzerError] = PositionError) -> None:
    """Refuse an action whose fields are not plain whole numbers within int32 (or territory names).

    Run before an action's numbers go near compiled code or numpy; its legality is the engine's.
    """
    from dataclasses import fields, is_dataclass

    try:
        _check_action(action, field, is_dataclass, fields)
    except PositionError as exc:
        raise (exc if error is PositionError else error(f"illegal action {quote(action)}: {exc}")) from None


def _check_action(action: object, field: str, is_dataclass: Any, fields: Any) -> None:
    if not is_dataclass(action) or isinstance(action, type):
        raise _fail(field, "an action", action)
    prefix = f"{field}." if field else ""
    for f in fields(action):
        value = getattr(action, f.name)
        values = value if isinstance(value, tuple) else (value,)
        if f.name == "cards" and len(values) > 3:
            raise _fail(f"{prefix}cards", "three card ids", value)
        for v in values:
            if v is None and f.name == "bonus":
                continue
            if isinstance(v, str) and f.name in _TERRITORY_FIELDS and len(v) <= limits.MAX_MESSAGE:
                continue
            if not isinstance(v, (int, np.integer)) or isinstance(v, (bool, np.bool_)) or not -(2**31) <= v < 2**31:
                whole = isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
                expected = "a whole number" + (" of at most 9 digits" if whole else "")
                if f.name in _TERRITORY_FIELDS:
                    expected += " or a territory name"
                raise _fail(f"{prefix}{f.name}", expected, v)


#: The fields of actions that name a territory (its id or its name).
_TERRITORY_FIELDS = ("territory", "source", "target", "bonus", "territories")


# ---------------------------------------------------------------------------------- the state
def _pending(S: np.ndarray, start: int) -> tuple[int, int, int, int] | None:
    """The pending attack (``start=ATTACK_S``) or move-in (``MOVE_S``) as the state vector holds it."""
    if S[start] < 0:
        return None
    return int(S[start]), int(S[start + 1]), int(S[start + 2]), int(S[start + 3])


def pending_attack(state: GameState) -> tuple[int, int, int, int] | None:
    """Source, target, attack dice and defence dice (0 until chosen) of the pending attack, or None."""
    return _pending(state.S, engine.ATTACK_S)


def pending_move(state: GameState) -> tuple[int, int, int, int] | None:
    """Source, target, fewest and most armies of the pending capture's move-in, or None."""
    return _pending(state.S, engine.MOVE_S)


def validate(state: GameState, *, replay: bool = True) -> None:
    """Check every field of ``state`` and their agreement; with ``replay`` also that its history replays to it.

    Raises :class:`PositionError` naming the first field found wrong. A state that
    passes is safe for the compiled engine and the simulator. Skip the replay
    (``replay=False``) only for states this process built or edited through its
    own checked paths.
    """
    _Checker(state).run()
    if replay:
        check_replay(state)


def load_state(data: str | bytes | dict[str, Any], board: Board | None = None, *, replay: bool = True) -> GameState:
    """A saved game (JSON text or its dict) as a validated :class:`GameState`: the app's store loads through this."""
    from analyzer.game.state import GameState

    if isinstance(data, dict):
        return GameState.from_dict(data, board, trusted=not replay)
    return GameState.from_json(data, board, trusted=not replay)


class _Checker:
    """The checks of :func:`validate`, one method per group of fields."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    def fail(self, message: str) -> PositionError:
        return PositionError(message)

    def name(self, t: int) -> str:
        return f"[{t}] ({self.state.board.territories[t]})"

    def run(self) -> None:
        from analyzer.game.board import Board
        from analyzer.game.rules import Rules

        st = self.state
        if not isinstance(getattr(st, "board", None), Board) or not isinstance(getattr(st, "rules", None), Rules):
            raise self.fail("board and rules must be a Board and a Rules")
        S = st.S
        if not isinstance(S, np.ndarray) or S.dtype != np.int64 or S.ndim != 1 or len(S) < HEADER:
            raise self.fail("the state vector must be a 1-d int64 array")
        n = int(S[engine.N_PLAYERS])
        if n not in STARTING_ARMIES:
            raise _fail("n_players", "from 2 to 6", n)
        board = st.board
        T, M = board.n_territories, board.n_cards
        spans = engine.layout(T, M, n)
        expected = {engine.N_TERRITORIES: T, engine.N_CARDS: M, engine.NEUTRAL: 2 if n == 2 else -1,
                    engine.N_FORCES: spans["pool"][1],
                    engine.TURN_LIMIT: -1 if st.rules.turn_limit is None else st.rules.turn_limit}
        # Compiled code finds every array through these header slots: a wrong one would read out of bounds.
        expected.update({AT[name]: start for name, (start, _) in spans.items()})
        for index, value in expected.items():
            if S[index] != value:
                raise self.fail(f"state vector header [{index}] is {int(S[index])}, expected {value} for this board and rules")
        if len(S) != sum(spans["missions"]):
            raise self.fail(f"the state vector has {len(S)} entries, expected {sum(spans['missions'])}")
        self.n, self.T, self.M, self.forces = n, T, M, spans["pool"][1]
        self.phase = int(S[engine.PHASE])
        if not 0 <= self.phase <= engine.GAME_OVER:
            raise _fail("phase", f"a phase from 0 to {engine.GAME_OVER}", self.phase)
        self.phase_name = _PHASE_NAMES[self.phase]
        self.ranges()
        self.players()
        self.cards()
        self.rules_options()
        if self.phase in _SETUP:
            self.setup()
        else:
            self.in_play()
        self.pending_fields()
        self.records()

    # -- ranges
    def ranges(self) -> None:
        st, n, T = self.state, self.n, self.T
        S = st.S
        scalars = (
            ("player", engine.PLAYER, 0, n - 1), ("first_player", engine.FIRST_PLAYER, 0, n - 1),
            ("turn", engine.TURN, 0, limits.MAX_TURNS), ("round", engine.ROUND, 0, limits.MAX_ROUNDS),
            ("pending", engine.PENDING, 0, limits.MAX_ARMIES), ("sets_traded", engine.SETS_TRADED, 0, limits.MAX_SETS_TRADED),
            ("setup_step", engine.SETUP_STEP, 0, 2 if n == 2 else 0), ("winner", engine.WINNER, -1, n - 1),
            ("captured", engine.CAPTURED, 0, 1), ("bonus_used", engine.BONUS_USED, 0, 1),
            ("resume_attack", engine.RESUME_ATTACK, 0, 1), ("elimination_trade", engine.ELIMINATION_TRADE, 0, 1),
        )
        for name, index, lo, hi in scalars:
            read_int(int(S[index]), name, lo, hi)
        arrays = (
            ("owner", st.owner, -1, self.forces - 1), ("armies", st.armies, 0, limits.MAX_ARMIES),
            ("card_loc", st.card_loc, engine.DISCARD, n - 1), ("pool", st.pool, 0, max(STARTING_ARMIES[n], NEUTRAL_ARMIES)),
            ("alive", st.alive, 0, 1), ("eliminated_by", st.eliminated_by, -1, n - 1),
            ("capitals", st.capitals, -1, T - 1), ("missions", st.missions, -1, len(missions_mod.MISSIONS) - 1),
        )
        for name, values, lo, hi in arrays:
            bad = np.flatnonzero((values < lo) | (values > hi))
            if len(bad):
                i = int(bad[0])
                where = self.name(i) if name in ("owner", "armies") else f"[{i}]"
                raise PositionError(f"{name}{where} is {int(values[i])}; expected {lo} to {hi}")
        for field, pending in (("attack", pending_attack(st)), ("move", pending_move(st))):
            if pending is not None and not (0 <= pending[0] < T and 0 <= pending[1] < T):
                raise self.fail(f"{field}: territories {pending[0]} and {pending[1]} must be ids from 0 to {T - 1}")
        if st.round > st.turn or st.turn > n * st.round:
            raise self.fail(f"turn {st.turn} and round {st.round} disagree: each round has 1 to {n} player-turns")

    # -- players
    def players(self) -> None:
        st, n = self.state, self.n
        counts = np.bincount(st.owner[st.owner >= 0], minlength=self.forces)
        self.counts = counts
        alive = st.alive.astype(bool)
        for p in range(n):
            # A seat out of a position typed in mid-game has no known eliminator (-1).
            if alive[p] and st.eliminated_by[p] != -1:
                raise self.fail(f"alive[{p}] is true but eliminated_by[{p}] is {int(st.eliminated_by[p])}")
            if not alive[p]:
                if st.eliminated_by[p] == p:
                    raise self.fail(f"eliminated_by[{p}] is {p}: a player cannot eliminate itself")
                if counts[p]:
                    raise self.fail(f"seat {p} is eliminated but owns {int(counts[p])} territories")
        if not alive[st.player]:
            raise self.fail(f"player {st.player} to move is eliminated")

    def cards(self) -> None:
        st, n = self.state, self.n
        hands = np.bincount(st.card_loc[st.card_loc >= 0], minlength=n)
        for p in range(n):
            if not st.alive[p] and hands[p]:
                raise self.fail(f"card_loc: eliminated seat {p} holds {int(hands[p])} cards")
            most = MAX_HAND_TO_MOVE if p == st.player else MAX_HAND_WAITING
            if hands[p] > most:
                raise self.fail(f"card_loc: seat {p} holds {int(hands[p])} cards; at most {most} can be held "
                                + ("by the player to move" if p == st.player else "while another seat plays"))
        self.hands = hands
        face_down.check(st)

    def rules_options(self) -> None:
        st, n = self.state, self.n
        rules = st.rules
        if rules.missions:
            if (st.missions < 0).any() or len(set(st.missions.tolist())) != n:
                raise self.fail(f"missions {st.missions.tolist()} must be distinct mission ids, one per seat, under the missions rule")
        elif (st.missions >= 0).any():
            raise self.fail(f"missions {st.missions.tolist()} are set but the missions rule is off")
        chosen = st.capitals[st.capitals >= 0]
        if not rules.capitals and len(chosen):
            raise self.fail(f"capitals {st.capitals.tolist()} are set but the capitals rule is off")
        if len(set(chosen.tolist())) != len(chosen):
            raise self.fail(f"capitals {st.capitals.tolist()} must be distinct territories")
        if rules.capitals and self.phase not in _SETUP and len(chosen) != n:
            raise self.fail(f"capitals {st.capitals.tolist()}: every seat has a capital once the setup is over")
        limit = rules.turn_limit
        if limit is not None and st.round > limit:
            raise self.fail(f"round {st.round} is past the rules' turn_limit of {limit}")

    # -- setup
    def setup(self) -> None:
        st, n = self.state, self.n
        S = st.S
        for name, index in (("turn", engine.TURN), ("round", engine.ROUND), ("pending", engine.PENDING),
                            ("sets_traded", engine.SETS_TRADED), ("captured", engine.CAPTURED),
                            ("bonus_used", engine.BONUS_USED), ("resume_attack", engine.RESUME_ATTACK),
                            ("elimination_trade", engine.ELIMINATION_TRADE)):
            if S[index] != 0:
                raise self.fail(f"{name} is {int(S[index])} in phase {self.phase_name}; the setup has none")
        if S[engine.WINNER] >= 0:
            raise self.fail(f"winner is {int(S[engine.WINNER])} in phase {self.phase_name}")
        if not st.alive.all():
            raise self.fail(f"alive {st.alive.astype(bool).tolist()}: nobody is eliminated during the setup")
        if (st.card_loc != engine.DECK).any():
            raise self.fail("card_loc: every card is in the deck during the setup")
        unowned = st.owner < 0
        if ((st.armies == 0) != unowned).any():
            t = int(np.flatnonzero((st.armies == 0) != unowned)[0])
            raise self.fail(f"armies{self.name(t)} is {int(st.armies[t])} with owner {int(st.owner[t])}: "
                            "a claimed territory holds armies, an unclaimed one none")
        starting = STARTING_ARMIES[n]
        for f in range(self.forces):
            total = starting if f < n else NEUTRAL_ARMIES
            placed = int(st.armies[st.owner == f].sum())
            if placed + int(st.pool[f]) != total:
                raise self.fail(f"pool[{f}] is {int(st.pool[f])} with {placed} armies placed; they add up to {total}")
        if self.phase == engine.SETUP_CLAIM:
            if not unowned.any():
                raise self.fail("phase is SETUP_CLAIM but every territory is claimed")
            if st.rules.setup != "claim" or n == 2:
                raise self.fail(f"phase is SETUP_CLAIM but territories are dealt in a {n}-player game with setup={st.rules.setup!r}")
            claimed = int((~unowned).sum())
            if st.player != (st.first_player + claimed) % n:
                raise self.fail(f"player is {st.player}, but after {claimed} claims from seat {st.first_player} "
                                f"it is seat {(st.first_player + claimed) % n}'s claim")
        elif unowned.any():
            raise self.fail(f"owner{self.name(int(np.flatnonzero(unowned)[0]))} is unclaimed in phase {self.phase_name}")
        if self.phase != engine.CHOOSE_CAPITAL:
            if (st.capitals >= 0).any():
                raise self.fail(f"capitals {st.capitals.tolist()} are chosen before phase CHOOSE_CAPITAL")
        else:
            if not st.rules.capitals:
                raise self.fail("phase is CHOOSE_CAPITAL but the capitals rule is off")
            if st.pool.any():
                raise self.fail(f"pool {st.pool.tolist()}: capitals are chosen once every army is placed")
            done = (st.player - st.first_player) % n
            for k in range(n):
                p = (st.first_player + k) % n
                cap = int(st.capitals[p])
                if (cap >= 0) != (k < done):
                    raise self.fail(f"capitals[{p}] is {cap}: seats choose in turn from seat {st.first_player}, "
                                    f"and seat {st.player} is choosing")
                if cap >= 0 and st.owner[cap] != p:
                    raise self.fail(f"capitals[{p}] is territory{self.name(cap)}, which seat {p} does not own")

    # -- in play
    def in_play(self) -> None:
        st, n = self.state, self.n
        if st.pool.any():
            raise self.fail(f"pool {st.pool.tolist()} holds armies in phase {self.phase_name}; the setup placed them all")
        if (st.owner < 0).any():
            raise self.fail(f"owner{self.name(int(np.flatnonzero(st.owner < 0)[0]))} is unclaimed in phase {self.phase_name}")
        if st.turn < 1:
            raise self.fail(f"turn is {st.turn} in phase {self.phase_name}; play starts at turn 1")
        move = pending_move(st)
        empty = st.armies < 1
        if self.phase == engine.MOVE_IN and move is not None and 0 <= move[1] < self.T:
            empty[move[1]] = False  # the captured territory waits for the move-in
        if empty.any():
            t = int(np.flatnonzero(empty)[0])
            raise self.fail(f"armies{self.name(t)} is {int(st.armies[t])} in phase {self.phase_name}; "
                            "every territory in play holds at least 1")
        alive = st.alive.astype(bool)
        for p in range(n):
            if alive[p] and not self.counts[p]:
                raise self.fail(f"seat {p} is alive but owns no territory")
        winner = int(st.S[engine.WINNER])
        if self.phase != engine.GAME_OVER:
            if alive.sum() < 2 and self.phase != engine.MOVE_IN:  # the winning capture's move-in is still to come
                raise self.fail(f"only seat {int(np.flatnonzero(alive)[0])} is alive, but phase is {self.phase_name}, not GAME_OVER")
            if winner >= 0:
                raise self.fail(f"winner is {winner} but phase is {self.phase_name}, not GAME_OVER")
            return
        if winner < 0:
            limit = st.rules.turn_limit
            if limit is None or st.round < limit:
                raise self.fail("phase is GAME_OVER with no winner, but no turn_limit was reached")
            return
        if not alive[winner]:
            raise self.fail(f"winner {winner} is eliminated")
        if not (st.rules.missions or st.rules.capitals) and alive.sum() != 1:
            raise self.fail(f"winner is {winner} while seats {np.flatnonzero(alive).tolist()} are alive; "
                            "without missions or capitals the winner is the last seat standing")

    # -- the phase's pending fields
    def pending_fields(self) -> None:
        st, phase = self.state, self.phase
        S = st.S
        attack, move = pending_attack(st), pending_move(st)
        dice = st.rules.dice
        if (attack is not None) != (phase in (engine.DEFEND, engine.ROLL)):
            raise self.fail(f"attack is {attack} in phase {self.phase_name}; an attack is pending in DEFEND and ROLL only")
        if (move is not None) != (phase == engine.MOVE_IN):
            raise self.fail(f"move is {move} in phase {self.phase_name}; a move-in is pending in MOVE_IN only")
        # A mission or capital can be won while armies wait to be placed: GAME_OVER keeps them.
        placing = (engine.REINFORCE, engine.GAME_OVER)
        if S[engine.PENDING] and phase not in placing:
            raise self.fail(f"pending is {int(S[engine.PENDING])} in phase {self.phase_name}; armies wait to be placed in REINFORCE only")
        if S[engine.RESUME_ATTACK] and phase not in placing:
            raise self.fail(f"resume_attack is set in phase {self.phase_name}; it marks trading after an elimination")
        if S[engine.ELIMINATION_TRADE] and phase not in (engine.MOVE_IN, engine.GAME_OVER):
            raise self.fail(f"elimination_trade is set in phase {self.phase_name}; it waits for the move-in")
        p = st.player
        if phase == engine.REINFORCE:
            if S[engine.RESUME_ATTACK]:
                if not S[engine.CAPTURED]:
                    raise self.fail("resume_attack is set but nothing was captured this turn")
                if S[engine.PENDING] == 0 and self.hands[p] < FORCED_TRADE_HAND:
                    raise self.fail(f"nothing to place and {int(self.hands[p])} cards after an elimination: the attack would have resumed")
            else:
                if S[engine.CAPTURED]:
                    raise self.fail("captured is set at the start of a turn")
                if S[engine.PENDING] == 0:
                    raise self.fail("pending is 0 in REINFORCE; a turn brings at least 3 armies")
        if phase == engine.DRAW and not S[engine.CAPTURED]:
            raise self.fail("phase is DRAW but nothing was captured this turn")
        if phase == engine.DRAW and not (st.card_loc < 0).any():
            raise self.fail("phase is DRAW but the deck and the discards are empty")
        if attack is not None:
            s, t, a_dice, d_dice = attack
            self.border(s, t, "attack")
            if st.owner[t] == p:
                raise self.fail(f"attack: target{self.name(t)} is the attacker's own")
            most = dice.attacker_dice(int(st.armies[s]))
            if not 1 <= a_dice <= most:
                raise self.fail(f"attack: {a_dice} attack dice from {int(st.armies[s])} armies; expected 1 to {most}")
            most = dice.defender_dice(int(st.armies[t]))
            if phase == engine.DEFEND and (d_dice != 0 or most < 2):
                raise self.fail(f"attack: defence dice are {d_dice} in DEFEND against {int(st.armies[t])} armies; "
                                "expected 0 (to choose) with at least 2 defenders")
            if phase == engine.ROLL and not 1 <= d_dice <= most:
                raise self.fail(f"attack: {d_dice} defence dice with {int(st.armies[t])} armies; expected 1 to {most}")
        if move is not None:
            s, t, lo, hi = move
            self.border(s, t, "move")
            if st.owner[t] != p or st.armies[t] != 0:
                raise self.fail(f"move: the captured territory{self.name(t)} must be the mover's with 0 armies until the move-in")
            if not 1 <= lo <= dice.attacker_max or hi != int(st.armies[s]) - 1 or lo >= hi:
                raise self.fail(f"move: from {lo} to {hi} armies with {int(st.armies[s])} on the source; "
                                f"expected the dice rolled (1 to {dice.attacker_max}) up to all but one, fewest below most")
            if not S[engine.CAPTURED]:
                raise self.fail("move is pending but captured is not set")

    def border(self, s: int, t: int, field: str) -> None:
        st = self.state
        if not (0 <= s < self.T and 0 <= t < self.T):
            raise self.fail(f"{field}: territories {s} and {t} must be ids from 0 to {self.T - 1}")
        if st.owner[s] != st.player:
            raise self.fail(f"{field}: source{self.name(s)} is not the player's")
        if not st.board.adjacency[s, t]:
            raise self.fail(f"{field}: {st.board.territories[s]} does not border {st.board.territories[t]}")

    # -- the records kept beside the vector
    def records(self) -> None:
        st, n = self.state, self.n
        dead = {p for p in range(n) if not st.alive[p] and st.eliminated_by[p] >= 0}
        seen: set[int] = set()
        for i, e in enumerate(st.eliminations):
            if e.player in seen or e.player not in dead or e.by != int(st.eliminated_by[e.player]) or not 1 <= e.turn <= st.turn:
                raise self.fail(f"eliminations[{i}] {[e.player, e.by, e.turn]} does not match eliminated_by "
                                f"{st.eliminated_by.tolist()} at turn {st.turn}")
            seen.add(e.player)
        if seen != dead:
            raise self.fail(f"eliminations list seats {sorted(seen)}, but seats {sorted(dead)} are eliminated")
        if len(st.trades) > st.sets_traded:
            raise self.fail(f"trades lists {len(st.trades)} sets, more than sets_traded {st.sets_traded}")
        for i, r in enumerate(st.trades):
            if not 0 <= r.player < n or not 1 <= r.turn <= st.turn or not 0 <= r.value <= limits.MAX_ARMIES:
                raise self.fail(f"trades[{i}] {[r.player, r.turn, r.value]}: expected a seat, a turn so far and a value")
        if not isinstance(st.labels, dict):
            raise _fail("labels", "an object", st.labels)
        check_depth(st.labels, "labels")
        try:
            json.dumps(st.labels)
        except (TypeError, ValueError) as exc:
            raise PositionError(f"labels must be plain JSON: {quote(str(exc))}") from None


# ---------------------------------------------------------------------------------- the history
def _check_initial(state: GameState) -> None:
    initial, n = state.initial, state.n_players
    if not isinstance(initial, dict) or initial.get("n_players") != n or isinstance(initial.get("n_players"), bool):
        raise PositionError(f"initial must be an object with n_players {n}, got {quote(initial)}")
    T, M = state.board.n_territories, state.board.n_cards
    if "position" in initial:
        if set(initial) != {"n_players", "position"}:
            raise PositionError(f"initial: a position's start has keys n_players and position, got {quote(sorted(initial))}")
        pos = initial["position"]
        if not isinstance(pos, dict) or set(pos) - {"face_down"} != {"owner", "armies", "player", "hands", "sets_traded"}:
            raise PositionError(f"initial.position must have owner, armies, player, hands and sets_traded "
                                f"(and face_down, optional), got {quote(pos)}")
        if "face_down" in pos:
            read_ints(pos["face_down"], "initial.position.face_down", len(pos["face_down"]) if isinstance(pos["face_down"], list) else -1, 0, M - 1)
        read_ints(pos["owner"], "initial.position.owner", T, 0, n)
        read_ints(pos["armies"], "initial.position.armies", T, 1, limits.MAX_ARMIES)
        read_int(pos["player"], "initial.position.player", 0, n - 1)
        read_int(pos["sets_traded"], "initial.position.sets_traded", 0, limits.MAX_SETS_TRADED)
        hands = pos["hands"]
        if not isinstance(hands, dict) or len(hands) > n:
            raise _fail("initial.position.hands", "an object of hands by seat", hands)
        for p, cards in hands.items():
            if not isinstance(p, str) or not p.isdigit() or int(p) >= n:
                raise _fail("initial.position.hands", "keyed by seat numbers", p)
            if not isinstance(cards, list) or len(cards) > MAX_HAND_TO_MOVE:
                raise _fail(f"initial.position.hands[{p}]", f"a list of at most {MAX_HAND_TO_MOVE} cards", cards)
            read_ints(cards, f"initial.position.hands[{p}]", len(cards), 0, M - 1)
        return
    if set(initial) != {"n_players", "first_player", "deal", "missions"}:
        raise PositionError(f"initial must have n_players, first_player, deal and missions, got {quote(sorted(initial))}")
    read_int(initial["first_player"], "initial.first_player", 0, n - 1)
    if initial["deal"] is not None:
        read_ints(initial["deal"], "initial.deal", T, 0, n)
    if initial["missions"] is not None:
        read_ints(initial["missions"], "initial.missions", n, 0, len(missions_mod.MISSIONS) - 1)


def check_replay(state: GameState) -> None:
    """Replay ``state``'s history from its ``initial`` through the checked engine; it must give ``state``."""
    if state.history is None:
        raise PositionError("history is missing, so the game cannot be checked; load it as trusted only if this process saved it")
    _check_initial(state)
    for i, action in enumerate(state.history):
        check_action(action, f"history[{i}]")
    try:
        replayed = type(state).replay(state.initial, [], state.rules, state.board)
    except RiskAnalyzerError as exc:
        raise PositionError(f"initial does not start a game: {quote(str(exc))}") from None
    for i, action in enumerate(state.history):
        try:
            replayed.apply(action)
        except RiskAnalyzerError as exc:
            raise PositionError(f"history[{i}] does not replay: {quote(str(exc))}") from None
    mine = state.to_dict(history=False)
    theirs = replayed.to_dict(history=False)
    for key in mine:
        # Which cards are face down is what the table knew, not something the moves decide.
        if key not in ("labels", "face_down") and mine[key] != theirs.get(key):
            raise PositionError(
                f"{key} is {quote(mine[key])}, but the history replays to {quote(theirs[key])}"
            )


def check_board_for_game(board: Board, n_players: int) -> None:
    """Refuse a map on which a ``n_players``-player game cannot be set up: too few territories for
    every force to get one, or too many for the starting armies to put one army on each."""
    from analyzer.errors import BoardError

    forces = 3 if n_players == 2 else n_players
    most = forces * min(STARTING_ARMIES[n_players], NEUTRAL_ARMIES)
    if not forces <= board.n_territories <= most:
        raise BoardError(
            f"map {board.name!r} has {board.n_territories} territories; a {n_players}-player game needs from "
            f"{forces} (one for each {'pile' if n_players == 2 else 'player'}) to {most} "
            f"(one starting army on each)"
        )
