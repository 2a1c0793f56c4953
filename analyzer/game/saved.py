"""A saved game's format: its name and version, its keys, and each field read into plain values.

:meth:`analyzer.game.state.GameState.to_dict` writes this format and
:meth:`~analyzer.game.state.GameState.from_dict` reads it through
:func:`read_fields`, which checks the keys and each field's type; the ranges
and the fields' agreement are :mod:`analyzer.game.validation`'s.
"""

from __future__ import annotations

from typing import Any

from analyzer import limits
from analyzer.errors import PositionError, RiskAnalyzerError, StateFormatError
from analyzer.game.actions import action_from_json
from analyzer.game.board import Board, classic_board
from analyzer.game.reader import check_action, check_depth, fail, read_bool, read_int, read_ints, read_rows
from analyzer.game.rules import Rules
from analyzer.game.vocabulary import PHASE_NAMES, forces, player_count
from analyzer.limits import quote

FORMAT = "risk-analyzer/state"
FORMAT_VERSION = 1

_KEYS = (
    "format",
    "version",
    "map",
    "rules",
    "n_players",
    "initial",
    "phase",
    "player",
    "first_player",
    "owner",
    "armies",
    "card_loc",
    "pool",
    "alive",
    "eliminated_by",
    "capitals",
    "missions",
    "turn",
    "round",
    "pending",
    "captured",
    "bonus_used",
    "sets_traded",
    "resume_attack",
    "elimination_trade",
    "setup_step",
    "attack",
    "move",
    "winner",
    "eliminations",
    "trades",
)
_OPTIONAL = ("labels", "history", "face_down")
#: Generous bounds for the raw numbers of a save: :func:`analyzer.game.validation.check_invariants` checks the real ranges, these only
#: keep every value inside int64 before it is stored.
_BIG = 2**62


def read_fields(data: Any, board: Board | None) -> dict[str, Any]:
    """Check a saved game's keys and each field's type, and read it into plain values.

    Returns the fields with ``board`` (a :class:`Board`), ``rules`` (a :class:`Rules`),
    ``history`` (actions) and ``phase`` (its index) resolved; the ranges and the
    fields' agreement are :func:`analyzer.game.validation.check_invariants`'s.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise StateFormatError(f"not a saved game: expected a JSON object with format {FORMAT!r}")
    if data.get("version") != FORMAT_VERSION or isinstance(data.get("version"), bool):
        raise StateFormatError(
            f"saved game version {quote(data.get('version'))} is not supported (expected {FORMAT_VERSION})"
        )
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
        raise fail("rules", "an object of rule options", data["rules"])
    try:
        out["rules"] = Rules.from_dict(data["rules"])
    except RiskAnalyzerError as exc:
        raise PositionError(f"rules: {exc}") from None
    n = out["n_players"] = player_count(data["n_players"], "n_players", PositionError)
    if data["phase"] not in PHASE_NAMES:
        raise fail("phase", f"one of {', '.join(PHASE_NAMES)}", data["phase"])
    out["phase"] = PHASE_NAMES.index(data["phase"])
    for name in ("player", "first_player", "turn", "round", "pending", "sets_traded", "setup_step"):
        out[name] = read_int(data[name], name, -_BIG, _BIG)
    for name in ("captured", "bonus_used", "resume_attack", "elimination_trade"):
        out[name] = read_bool(data[name], name)
    n_forces = forces(n)
    T, M = board.n_territories, board.n_cards
    for name, length in (
        ("owner", T),
        ("armies", T),
        ("card_loc", M),
        ("pool", n_forces),
        ("eliminated_by", n),
        ("capitals", n),
        ("missions", n),
    ):
        out[name] = read_ints(data[name], name, length, -_BIG, _BIG)
    alive = data["alive"]
    if not isinstance(alive, list) or len(alive) != n:
        raise fail("alive", f"a list of {n} true/false values", alive)
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
        raise fail("initial", "an object", initial)
    out["initial"] = dict(initial)
    history = data.get("history")
    if history is not None:
        if not isinstance(history, list) or len(history) > limits.MAX_HISTORY:
            raise fail("history", f"a list of at most {limits.MAX_HISTORY} actions", history)
        actions = []
        for i, entry in enumerate(history):
            try:
                action = action_from_json(entry)
            except RiskAnalyzerError as exc:  # says the entry's values shortened already
                raise PositionError(f"history[{i}]: {exc}") from None
            except TypeError as exc:  # Python's words, which may hold the whole entry
                raise PositionError(f"history[{i}]: {quote(str(exc))}") from None
            check_action(action, f"history[{i}]")
            actions.append(action)
        out["history"] = actions
    else:
        out["history"] = None
    labels = data.get("labels", {})
    if not isinstance(labels, dict) or not all(isinstance(k, str) for k in labels):
        raise fail("labels", "an object with string keys", labels)
    out["labels"] = dict(labels)
    down = data.get("face_down", [])
    if not isinstance(down, list) or len(down) > M:
        raise fail("face_down", f"a list of at most {M} card ids", down)
    out["face_down"] = read_ints(down, "face_down", len(down), 0, M - 1)
    return out
