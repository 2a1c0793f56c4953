"""The game as a user plays it: a state machine over the classic rules, checked at every step.

The board (:class:`analyzer.game.board.Board`) is constant; a :class:`GameState`
holds everything that changes, in compact numpy arrays, and can be copied.

The state tells whose decision it is (:attr:`GameState.current_player`), which
actions are legal (:meth:`GameState.legal_actions`) and applies them
(:meth:`GameState.apply`, checked; :meth:`GameState.apply_unchecked`, the fast
path for the simulator). Dice rolls and card draws are chance events: while one
is pending, :attr:`current_player` is :data:`~analyzer.game.vocabulary.CHANCE`,
:meth:`GameState.chance_outcomes` gives the exact probabilities of its
outcomes, and :meth:`GameState.apply_chance` samples one from an injected
generator (or pass a :class:`Roll` / :class:`Draw` to :meth:`apply`).

A :class:`GameState` is a :class:`~analyzer.game.core.StateCore` (the state
vector, the queries, the unchecked steps) with the checks of input: the checked
:meth:`~GameState.apply` (its refusals worded by :mod:`analyzer.game.messages`),
a position typed in (:meth:`~GameState.from_position`), the saved form
(:meth:`~GameState.to_dict`, :meth:`~GameState.from_dict`, in
:mod:`analyzer.game.saved`'s format) and the replay of a history, all proved by
:func:`validate`.

Decisions with only one legal choice (a defender with one army, a capture where
the move-in is forced) are taken automatically.

>>> import numpy as np
>>> state = GameState.random_start(4, np.random.default_rng(7))
>>> state.phase.name, int(state.armies.sum())
('REINFORCE', 120)
>>> state.reinforcements(state.current_player) >= 3
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from analyzer.errors import BoardError, IllegalActionError, PositionError, RiskAnalyzerError
from analyzer.game import correction, messages, reader, wording
from analyzer.game import face_down as face_down_mod
from analyzer.game.actions import Action, Correct, Trade, action_to_json, as_id
from analyzer.game.board import Board, classic_board
from analyzer.game.core import StateCore
from analyzer.game.engine import steps as engine
from analyzer.game.reader import check_action
from analyzer.game.records import Elimination, SetTraded
from analyzer.game.rules import Rules
from analyzer.game.saved import FORMAT, FORMAT_VERSION, read_fields
from analyzer.game.validation import check_initial, check_invariants
from analyzer.game.vocabulary import DECK, forces, player_count
from analyzer.limits import MAX_ARMIES, MAX_SETS_TRADED, quote

__all__ = ["GameState", "validate", "check_replay", "load_state"]


class GameState(StateCore):
    """One game in progress, checked at every step. Build with :meth:`new` or :meth:`random_start`.

    Everything that changes lives in one ``int64`` state vector ``S`` (see
    :class:`~analyzer.game.core.StateCore`); a game loaded or typed in is proved
    by :func:`validate` before the engine sees it.
    """

    @classmethod
    def from_position(
        cls,
        owner: Any,
        armies: Any,
        *,
        n_players: int | None = None,
        player: int = 0,
        hands: Mapping[int, Sequence[int | str]] | None = None,
        sets_traded: int = 0,
        rules: Rules | None = None,
        board: Board | None = None,
        face_down: Sequence[int] = (),
    ) -> GameState:
        """A game at the start of ``player``'s turn, from a position entered mid-game.

        ``owner`` and ``armies`` give each territory's owner and armies (in a
        2-player game the neutral force is player 2). ``n_players`` defaults to
        the highest owner + 1, which is wrong for a 2-player game with
        neutrals, so give it there. Players who own nothing count as
        eliminated. Cards not in ``hands`` are in the deck. A card held face
        down is ``"?"`` in its hand, or listed in ``face_down`` by its
        placeholder id (see :mod:`analyzer.game.face_down`).

        Player 0 below holds all but Eastern Australia: 41 // 3 = 13 armies,
        plus every continent but Australia, 5 + 2 + 5 + 3 + 7 = 22.

        >>> state = GameState.from_position([0] * 41 + [1], [3] * 42)
        >>> state.n_players, state.pending
        (2, 35)
        """
        board = board if board is not None else classic_board()
        if not isinstance(board, Board):
            raise PositionError(f"board must be a Board, got {type(board).__name__}")
        n = board.n_territories
        try:
            owner_arr = np.asarray(owner)
            armies_arr = np.asarray(armies)
        except (ValueError, TypeError, OverflowError):
            raise PositionError("owners and armies must be lists of whole numbers, one per territory") from None
        if owner_arr.shape != (n,) or armies_arr.shape != (n,):
            raise PositionError(
                f"a position needs an owner and armies for each of the {n} territories, "
                f"got {owner_arr.size} owners and {armies_arr.size} army counts"
            )
        if not np.issubdtype(owner_arr.dtype, np.integer) or not np.issubdtype(armies_arr.dtype, np.integer):
            raise PositionError("owners and armies must be whole numbers")
        owner_arr, armies_arr = owner_arr.astype(np.int64), armies_arr.astype(np.int64)
        if n_players is None:
            n_players = max(2, int(owner_arr.max()) + 1)
        n_players = player_count(n_players, "n_players", PositionError)
        n_forces = forces(n_players)
        bad = np.flatnonzero((owner_arr < 0) | (owner_arr >= n_forces))
        if len(bad):
            t = int(bad[0])
            raise PositionError(
                f"{board.territories[t]} has owner {int(owner_arr[t])}; expected a player from 0 to {n_forces - 1}"
            )
        bad = np.flatnonzero((armies_arr < 1) | (armies_arr > MAX_ARMIES))
        if len(bad):
            t = int(bad[0])
            raise PositionError(
                f"{board.territories[t]} has {int(armies_arr[t])} armies; every territory holds 1 to {MAX_ARMIES} "
                "(analyzer.limits.MAX_ARMIES)"
            )
        player = reader.read_int(player, "player", -(2**62), 2**62)
        if not 0 <= player < n_players or not np.any(owner_arr == player):
            raise PositionError(
                f"player {player} to move must be a seat from 0 to {n_players - 1} that owns a territory"
            )
        sets_traded = reader.read_int(sets_traded, "sets traded", 0, MAX_SETS_TRADED)
        if hands is not None and not isinstance(hands, Mapping):
            raise PositionError(f"hands must map seats to lists of cards, got {reader.quote(hands)}")
        hand_lists: dict[int, list[int | str]] = {}
        for p, cards in (hands or {}).items():
            seat = reader.read_int(p, "a hand's seat", -(2**62), 2**62)
            if not 0 <= seat < n_players:
                raise PositionError(f"hand given for player {p}; expected a player from 0 to {n_players - 1}")
            if not isinstance(cards, (list, tuple)) or len(cards) > board.n_cards:
                raise PositionError(f"hands[{p}] must be a list of card ids, got {reader.quote(cards)}")
            hand_lists[seat] = [
                c if c == face_down_mod.UNKNOWN else reader.read_int(c, f"hands[{p}]", -(2**62), 2**62) for c in cards
            ]
        known_hands, placeholders = face_down_mod.fill_unknown(hand_lists, board.n_cards)
        if isinstance(face_down, (str, bytes)) or not isinstance(face_down, Sequence) or len(face_down) > board.n_cards:
            raise PositionError(f"face_down must be a list of card ids, got {reader.quote(face_down)}")
        down = sorted(set(placeholders) | {reader.read_int(c, "face_down", 0, board.n_cards - 1) for c in face_down})
        rules = rules if rules is not None else Rules()
        if rules.missions or rules.capitals:
            raise PositionError("a position entered mid-game cannot carry missions or capitals yet")
        # Built as a dealt game whose deal the position then overwrites.
        state = cls(n_players, rules, board, first_player=player, deal=_even_deal(n, n_forces))
        state.owner[:] = owner_arr
        state.armies[:] = armies_arr
        state.pool[:] = 0
        for p in range(n_players):
            state.alive[p] = bool(np.any(owner_arr == p))
        for seat, cards in known_hands.items():
            for c in cards:
                if not 0 <= c < board.n_cards:
                    raise PositionError(f"card {c} does not exist; cards are numbered 0 to {board.n_cards - 1}")
                if state.card_loc[c] != DECK:
                    raise PositionError(f"card {c} is in more than one hand")
                state.card_loc[c] = seat
        state.sets_traded = sets_traded
        state.initial = {
            "n_players": n_players,
            "position": {
                "owner": owner_arr.tolist(),
                "armies": armies_arr.tolist(),
                "player": player,
                "hands": {str(p): cards for p, cards in known_hands.items()},
                "sets_traded": sets_traded,
            },
        }
        if down:  # the placeholders, by id: a card named later takes one's place through the history and this start
            state.initial["position"]["face_down"] = down
        state.face_down = down
        state.history = []
        state._begin_turn(player, True)
        check_invariants(state)
        return state

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: Action) -> None:
        """Check that ``action`` is legal, then apply it.

        Raises :class:`IllegalActionError` naming the action, the phase and the
        reason. Territory names are accepted wherever an id is.
        """
        try:  # before any number reaches numpy
            reader.check_action(action, "")
        except PositionError as exc:
            raise self._illegal(action, exc) from None
        action = messages.normalize(self, action)
        if isinstance(action, Correct):
            self._correct(action)
            return
        if isinstance(action, Trade) and set(action.cards) & set(self.face_down):
            self._reveal_for_trade(action)
            return
        reason = self.illegal_reason(action)
        if reason is not None:
            raise self._illegal(action, reason)
        self.apply_unchecked(action)

    def _illegal(self, action: Action, reason: object) -> IllegalActionError:
        """The error for ``action``, refused here for ``reason``: it names the action, the phase and the player."""
        return IllegalActionError(wording.refused(self, action, reason))

    def _correct(self, action: Correct) -> None:
        """Apply a correction if the position it makes is possible (see :mod:`analyzer.game.correction`)."""
        reason = correction.refusal(self, action)
        if reason is not None:
            raise PositionError(f"cannot correct the position: {reason}")
        trial = self.copy()
        trial.apply_unchecked(action)
        try:
            validate(trial, replay=False)
        except PositionError as exc:
            raise PositionError(f"cannot correct the position: it would be impossible ({exc})") from None
        self.__dict__.update(trial.__dict__)

    def _reveal_for_trade(self, action: Trade) -> None:
        """Trade cards some of which are face down: they take identities that make a set, if any can.

        A face-down card may be any unseen card, so the trade is accepted when
        the player holds the cards and unseen cards of the symbols needed
        exist (:func:`analyzer.game.face_down.set_identities`); the cards
        then take those identities throughout the game, and the set is traded.
        """
        hand = set(self.hand(self.player))
        if len(set(action.cards)) != 3 or not set(action.cards) <= hand:
            reason = self.illegal_reason(action) or "a set is three different cards of the player's hand"
            raise self._illegal(action, reason)
        bonus = None if action.bonus is None else as_id(action.bonus)
        try:
            swaps = face_down_mod.set_identities(self, self.player, action.cards, bonus)
        except IllegalActionError as exc:
            raise self._illegal(action, exc) from None
        trial = self.copy()
        cards = list(action.cards)
        for x, y in swaps:
            face_down_mod.swap(trial, x, y)
            cards = [y if c == x else c for c in cards]
        hidden = action.face_down or sum(1 for c in action.cards if c in set(self.face_down))
        revealed = Trade((cards[0], cards[1], cards[2]), action.bonus, hidden)
        refused = trial.illegal_reason(revealed)
        if refused is not None:
            raise self._illegal(action, refused)
        trial.apply_unchecked(revealed)
        self.__dict__.update(trial.__dict__)

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, or None if it is legal: the compiled check's reason, in words
        (:func:`analyzer.game.messages.illegal_reason`)."""
        return messages.illegal_reason(self, action)

    def is_legal(self, action: Action) -> bool:
        try:
            action = messages.normalize(self, action)
        except (IllegalActionError, BoardError):
            return False
        return self.illegal_reason(action) is None

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal; a correction (:mod:`analyzer.game.correction`) is no move of
        the rules, so the compiled steps never see it."""
        if isinstance(action, Correct):
            self.history.append(action)
            correction.apply(self, action)
            return
        super().apply_unchecked(action)

    # ------------------------------------------------------------------ serialization
    def to_dict(self, history: bool = True) -> dict[str, Any]:
        """Versioned plain-JSON form; with ``history`` the event log that replays to this state."""
        board = self.board
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "map": "classic" if board is classic_board() else board.to_dict(),
            "rules": self.rules.to_dict(),
            "n_players": self.n_players,
            "initial": self.initial,
            "phase": self.phase.name,
            "player": self.player,
            "first_player": self.first_player,
            "owner": self.owner.tolist(),
            "armies": self.armies.tolist(),
            "card_loc": self.card_loc.tolist(),
            "pool": self.pool.tolist(),
            "alive": [bool(a) for a in self.alive],
            "eliminated_by": self.eliminated_by.tolist(),
            "capitals": self.capitals.tolist(),
            "missions": self.missions.tolist(),
            "turn": self.turn,
            "round": self.round,
            "pending": self.pending,
            "captured": self.captured,
            "bonus_used": self.bonus_used,
            "sets_traded": self.sets_traded,
            "resume_attack": self.resume_attack,
            "elimination_trade": self.elimination_trade,
            "setup_step": self.setup_step,
            "attack": None if self.attack is None else list(self.attack),
            "move": None if self.move is None else list(self.move),
            "winner": self.winner,
            "eliminations": [[e.player, e.by, e.turn] for e in self.eliminations],
            "trades": [[r.player, r.turn, r.value] for r in self.trades],
            "labels": self.labels,
        }
        if self.face_down:  # absent when every card is known, as in every save before face-down cards
            data["face_down"] = list(self.face_down)
        if history:
            data["history"] = [action_to_json(a) for a in self.history]
        return data

    def to_json(self, history: bool = True) -> str:
        return json.dumps(self.to_dict(history), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Any, board: Board | None = None, *, trusted: bool = False) -> GameState:
        """Inverse of :meth:`to_dict`, through :func:`validate`.

        Raises :class:`StateFormatError` for a malformed save and :class:`PositionError`
        naming the field for an impossible one. The history must replay to the stored
        state unless ``trusted`` (for a state this process saved itself, with or without
        its history).
        """
        fields = read_fields(data, board)
        board = fields["board"]
        state = object.__new__(cls)
        state.board = board
        state._bind(engine.new_state(board.n_territories, board.n_cards, fields["n_players"]))
        state.rules = fields["rules"]
        state.initial = fields["initial"]
        S = state.S
        for name, index in (
            ("phase", engine.PHASE),
            ("player", engine.PLAYER),
            ("first_player", engine.FIRST_PLAYER),
            ("turn", engine.TURN),
            ("round", engine.ROUND),
            ("pending", engine.PENDING),
            ("sets_traded", engine.SETS_TRADED),
            ("setup_step", engine.SETUP_STEP),
            ("captured", engine.CAPTURED),
            ("bonus_used", engine.BONUS_USED),
            ("resume_attack", engine.RESUME_ATTACK),
            ("elimination_trade", engine.ELIMINATION_TRADE),
        ):
            S[index] = int(fields[name])
        for name in engine.FIELDS:
            getattr(state, name)[:] = fields[name]
        for name, index in (("attack", engine.ATTACK_S), ("move", engine.MOVE_S)):
            S[index : index + 4] = (-1, 0, 0, 0) if fields[name] is None else fields[name]
        S[engine.WINNER] = -1 if fields["winner"] is None else fields["winner"]
        state.eliminations = [Elimination(*e) for e in fields["eliminations"]]
        state.trades = [SetTraded(*r) for r in fields["trades"]]
        # A save without its history (to_json(history=False)) can be loaded only as trusted.
        state.history = fields["history"] if fields["history"] is not None else ([] if trusted else None)  # type: ignore[assignment]
        state.labels = fields["labels"]
        state.face_down = fields["face_down"]
        validate(state, replay=not trusted)
        return state

    @classmethod
    def from_json(cls, text: str | bytes, board: Board | None = None, *, trusted: bool = False) -> GameState:
        """A saved game from its JSON text (see :meth:`from_dict`); size and nesting are checked before parsing."""
        return cls.from_dict(reader.loads(text, "saved game"), board, trusted=trusted)

    def _validate(self) -> None:
        """Reject a state that breaks the invariants the engine relies on (no replay; see :mod:`analyzer.game.validation`)."""
        check_invariants(self)

    @classmethod
    def replay(
        cls, initial: dict[str, Any], history: list[Action], rules: Rules | None = None, board: Board | None = None
    ) -> GameState:
        """Rebuild a game from its starting configuration and event log, checking every action."""
        if "position" in initial:
            pos = initial["position"]
            state = cls.from_position(
                pos["owner"],
                pos["armies"],
                n_players=initial["n_players"],
                player=pos["player"],
                hands={int(p): cards for p, cards in pos["hands"].items()},
                sets_traded=pos["sets_traded"],
                rules=rules,
                board=board,
                face_down=pos.get("face_down", ()),
            )
            for action in history:
                state.apply(action)
            return state
        state = cls(
            initial["n_players"],
            rules,
            board,
            first_player=initial["first_player"],
            deal=initial["deal"],
            missions=initial["missions"],
        )
        for action in history:
            state.apply(action)
        return state

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self.to_dict() == other.to_dict()


def validate(state: GameState, *, replay: bool = True) -> None:
    """Check every field of ``state`` and their agreement; with ``replay`` also that its history replays to it.

    Raises :class:`PositionError` naming the first field found wrong. A state that
    passes is safe for the compiled engine and the simulator. Skip the replay
    (``replay=False``) only for states this process built or edited through its
    own checked paths.

    >>> state = GameState.random_start(3, np.random.default_rng(1))
    >>> validate(state)
    >>> state.armies[5] = 0
    >>> validate(state, replay=False)
    Traceback (most recent call last):
    ...
    analyzer.errors.PositionError: armies[5] (Quebec) is 0 in phase REINFORCE; every territory in play holds at least 1
    """
    check_invariants(state)
    if replay:
        check_replay(state)


def check_replay(state: GameState) -> None:
    """Replay ``state``'s history from its ``initial`` through the checked engine; it must give ``state``."""
    if state.history is None:
        raise PositionError(
            "history is missing, so the game cannot be checked; load it as trusted only if this process saved it"
        )
    check_initial(state)
    for i, action in enumerate(state.history):
        check_action(action, f"history[{i}]")
    try:
        replayed = type(state).replay(state.initial, [], state.rules, state.board)
    except RiskAnalyzerError as exc:
        raise PositionError(f"initial does not start a game: {exc}") from None
    for i, action in enumerate(state.history):
        try:
            replayed.apply(action)
        except RiskAnalyzerError as exc:
            # The engine's own sentence, whole: it quotes the user's values in it already, shortened.
            raise PositionError(f"the history's entry {i + 1} does not replay: {exc}") from None
    mine = state.to_dict(history=False)
    theirs = replayed.to_dict(history=False)
    for key in mine:
        # Which cards are face down is what the table knew, not something the moves decide.
        if key not in ("labels", "face_down") and mine[key] != theirs.get(key):
            raise PositionError(f"{key} is {quote(mine[key])}, but the history replays to {quote(theirs[key])}")


def load_state(data: str | bytes | dict[str, Any], board: Board | None = None, *, replay: bool = True) -> GameState:
    """A saved game (JSON text or its dict) as a validated :class:`GameState`: the app's store loads through this."""
    if isinstance(data, dict):
        return GameState.from_dict(data, board, trusted=not replay)
    return GameState.from_json(data, board, trusted=not replay)


def _even_deal(n_territories: int, n_forces: int) -> list[int]:
    """A placeholder deal that passes the constructor's checks; the caller overwrites it."""
    return [t % n_forces for t in range(n_territories)]


def turn_number(state: GameState) -> int:
    """The table's turn number: the round, every player's n-th turn (0 during the setup).

    The one number the log, the recorder, the games list and the app's header
    show; :attr:`GameState.turn` counts player-turns, which a table never says.

    >>> state = GameState.random_start(3, np.random.default_rng(1))
    >>> turn_number(state), state.turn
    (1, 1)
    """
    return int(state.round)
