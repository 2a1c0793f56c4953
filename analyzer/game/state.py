"""The mutable game state: a state machine over the classic rules.

The board (:class:`analyzer.game.board.Board`) is constant; a :class:`GameState`
holds everything that changes, in compact numpy arrays, and can be copied.

The state tells whose decision it is (:attr:`GameState.current_player`), which
actions are legal (:meth:`GameState.legal_actions`) and applies them
(:meth:`GameState.apply`, checked; :meth:`GameState.apply_unchecked`, the fast
path for the simulator). Dice rolls and card draws are chance events: while one
is pending, :attr:`current_player` is :data:`CHANCE`,
:meth:`GameState.chance_outcomes` gives the exact probabilities of its
outcomes, and :meth:`GameState.apply_chance` samples one from an injected
generator (or pass a :class:`Roll` / :class:`Draw` to :meth:`apply`).

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

import bisect
import itertools
import json
from dataclasses import dataclass
from functools import lru_cache
from enum import IntEnum
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, NamedTuple, TypeVar, cast

import numpy as np

from analyzer.game.engine import legality
from analyzer.game.engine import steps as engine
from analyzer.game import missions as missions_mod
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
    action_to_json,
    as_id,
)
from analyzer.game.board import Board, classic_board
from analyzer.game import correction
from analyzer.game import face_down as face_down_mod
from analyzer.game import validation, wording
from analyzer.game.dice import DiceRules, roll_distribution
from analyzer.errors import BoardError, IllegalActionError, PositionError
from analyzer.limits import MAX_ARMIES, MAX_SETS_TRADED
from analyzer.game.rules import NEUTRAL_ARMIES, Rules, starting_armies

FORMAT = "risk-analyzer/state"
FORMAT_VERSION = 1

#: :attr:`GameState.current_player` while a chance event (dice, card draw) is pending.
CHANCE = legality.CHANCE
#: :attr:`GameState.current_player` once the game is over.
TERMINAL = legality.TERMINAL

#: Card locations other than a player's hand.
DECK = engine.DECK
DISCARD = engine.DISCARD


class Phase(IntEnum):
    """Where in the game the state is."""

    SETUP_CLAIM = 0
    SETUP_PLACE = 1
    CHOOSE_CAPITAL = 2
    REINFORCE = 3
    ATTACK = 4
    DEFEND = 5
    ROLL = 6
    MOVE_IN = 7
    FORTIFY = 8
    DRAW = 9
    GAME_OVER = 10


#: Phases by value, for a fast lookup from the state vector.
_PHASES = tuple(Phase)
#: Constant vectors by (id(board), id(rules)), holding the objects so that the ids stay theirs.
_CONFIGS: dict[tuple[int, int], tuple[Board, Rules, np.ndarray]] = {}


@dataclass(frozen=True)
class Elimination:
    """A player knocked out of the game."""

    player: int
    by: int
    turn: int


@dataclass(frozen=True)
class SetTraded:
    """A set traded in: by whom, on which turn, and for how many armies."""

    player: int
    turn: int
    value: int


class _Int:
    """A whole-number field of the game, stored in the state vector (see :mod:`analyzer.game.engine.steps`)."""

    def __init__(self, index: int) -> None:
        self.index = index

    def __get__(self, state: GameState, owner: type | None = None) -> int:
        return int(state.S[self.index])

    def __set__(self, state: GameState, value: int) -> None:
        state.S[self.index] = value


class _Flag(_Int):
    """A yes/no field of the game, stored in the state vector."""

    def __get__(self, state: GameState, owner: type | None = None) -> bool:
        return bool(state.S[self.index])


class PendingAttack(NamedTuple):
    """The attack waiting for its defence dice or its roll (``defence`` is 0 until chosen)."""

    source: int
    target: int
    dice: int
    defence: int


class PendingMove(NamedTuple):
    """The capture waiting for its move-in: from ``fewest`` (the dice rolled) to ``most`` (all but one) armies."""

    source: int
    target: int
    fewest: int
    most: int


_P = TypeVar("_P", PendingAttack, PendingMove)


class _Pending(Generic[_P]):
    """A pending attack or move-in stored in the state vector from ``index``; None while its source is -1.

    A plain 4-tuple is accepted on assignment (a saved game keeps them as lists).
    """

    def __init__(self, index: int, kind: type[_P]) -> None:
        self.index = index
        self.kind: type[_P] = kind

    def __get__(self, state: GameState, owner: type | None = None) -> _P | None:
        S, i = state.S, self.index
        if S[i] < 0:
            return None
        return self.kind(int(S[i]), int(S[i + 1]), int(S[i + 2]), int(S[i + 3]))

    def __set__(self, state: GameState, value: tuple[int, int, int, int] | None) -> None:
        state.S[self.index : self.index + 4] = (-1, 0, 0, 0) if value is None else value


class GameState:
    """One game in progress. Build with :meth:`new` or :meth:`random_start`.

    Everything that changes lives in one ``int64`` state vector ``S`` (layout in
    :mod:`analyzer.game.engine.steps`, whose compiled steps apply the rules); the arrays
    ``owner``, ``armies``, ``card_loc``, ``pool``, ``alive``, ``eliminated_by``,
    ``capitals`` and ``missions`` are views into it that write through, and the
    scalar fields below read and write it.
    """

    player = _Int(engine.PLAYER)
    first_player = _Int(engine.FIRST_PLAYER)
    turn = _Int(engine.TURN)
    round = _Int(engine.ROUND)
    pending = _Int(engine.PENDING)
    sets_traded = _Int(engine.SETS_TRADED)
    setup_step = _Int(engine.SETUP_STEP)
    n_players = _Int(engine.N_PLAYERS)
    captured = _Flag(engine.CAPTURED)
    bonus_used = _Flag(engine.BONUS_USED)
    resume_attack = _Flag(engine.RESUME_ATTACK)
    elimination_trade = _Flag(engine.ELIMINATION_TRADE)
    #: The pending attack, or None.
    attack = _Pending(engine.ATTACK_S, PendingAttack)
    #: The pending capture's move-in, or None.
    move = _Pending(engine.MOVE_S, PendingMove)

    S: np.ndarray
    #: The constant vector of the board and rules that the compiled steps read (shared; read-only).
    C: np.ndarray
    owner: np.ndarray
    armies: np.ndarray
    card_loc: np.ndarray
    pool: np.ndarray
    alive: np.ndarray
    eliminated_by: np.ndarray
    capitals: np.ndarray
    missions: np.ndarray

    def _bind(self, S: np.ndarray) -> None:
        """Adopt state vector ``S`` and point the array fields at it."""
        self.S = S
        spans = engine.layout(int(S[engine.N_TERRITORIES]), int(S[engine.N_CARDS]), int(S[engine.N_PLAYERS]))
        for name, (start, length) in spans.items():
            setattr(self, name, S[start : start + length])

    @property
    def phase(self) -> Phase:
        return _PHASES[self.S[engine.PHASE]]

    @phase.setter
    def phase(self, value: Phase) -> None:
        self.S[engine.PHASE] = int(value)

    @property
    def winner(self) -> int | None:
        w = int(self.S[engine.WINNER])
        return None if w < 0 else w

    @winner.setter
    def winner(self, value: int | None) -> None:
        self.S[engine.WINNER] = -1 if value is None else value

    @property
    def neutral(self) -> int | None:
        """The neutral force's player id in a 2-player game, else None."""
        return 2 if self.S[engine.N_PLAYERS] == 2 else None

    @property
    def rules(self) -> Rules:
        return self._rules

    @rules.setter
    def rules(self, rules: Rules) -> None:
        self._rules = rules
        # Games of a run share their board and rules objects: look the constant vector up by identity first.
        key = (id(self.board), id(rules))
        cached = _CONFIGS.get(key)
        if cached is None or cached[0] is not self.board or cached[1] is not rules:
            if len(_CONFIGS) >= 256:  # rules made per game (a cap per rollout) must not pile up
                _CONFIGS.clear()
            cached = _CONFIGS[key] = (self.board, rules, engine.config(self.board, rules))
        self.C = cached[2]
        self.S[engine.TURN_LIMIT] = -1 if rules.turn_limit is None else rules.turn_limit

    # ------------------------------------------------------------------ creation
    def __init__(
        self,
        n_players: int,
        rules: Rules | None = None,
        board: Board | None = None,
        *,
        first_player: int = 0,
        deal: list[int] | None = None,
        missions: list[int] | None = None,
    ) -> None:
        """Start a game before any setup move; prefer :meth:`new`.

        ``first_player`` won the starting roll. ``deal`` gives the owner of each
        territory when territories are dealt (2 players, or ``rules.setup ==
        "deal"``); in a 2-player game the neutral force is player ``2``.
        ``missions`` gives each player's mission card with ``rules.missions``.
        """
        self.board = board if board is not None else classic_board()
        starting = starting_armies(n_players)
        if not 0 <= first_player < n_players:
            raise PositionError(f"first player {first_player} is not a seat of this {n_players}-player game")
        self._bind(engine.new_state(self.board.n_territories, self.board.n_cards, n_players))
        self.rules = rules if rules is not None else Rules()
        self.pool[:] = starting
        if self.neutral is not None:
            self.pool[self.neutral] = NEUTRAL_ARMIES
        self.first_player = first_player
        self.player = first_player
        self.eliminations: list[Elimination] = []
        self.trades: list[SetTraded] = []
        self.history: list[Action] = []
        #: Free-form labels a front end keeps with the game (player names, colours): saved
        #: with it, never read by the rules.
        self.labels: dict[str, Any] = {}
        #: Cards held face down: their ids are placeholders (see :mod:`analyzer.game.face_down`).
        self.face_down: list[int] = []
        self.initial: dict[str, Any] = {
            "n_players": n_players,
            "first_player": first_player,
            "deal": list(deal) if deal is not None else None,
            "missions": list(missions) if missions is not None else None,
        }

        if self.rules.missions:
            if missions is None or len(missions) != n_players:
                raise PositionError(f"the missions option needs one mission per player, got {missions!r}")
            bad = [m for m in missions if not 0 <= m < len(missions_mod.MISSIONS)]
            if bad or len(set(missions)) != len(missions):
                raise PositionError(
                    f"missions {missions!r} must be distinct ids from 0 to {len(missions_mod.MISSIONS) - 1}"
                )
            self.missions[:] = missions
        if deal is not None:
            self._deal(deal)
        elif n_players == 2 or self.rules.setup == "deal":
            raise PositionError(f"a {n_players}-player game with setup={self.rules.setup!r} needs a deal")

    def _deal(self, deal: list[int]) -> None:
        n = self.board.n_territories
        forces = len(self.pool)
        if len(deal) != n or any(not (isinstance(p, int) and 0 <= p < forces) for p in deal):
            raise PositionError(f"a deal must give each of the {n} territories an owner from 0 to {forces - 1}")
        counts = np.bincount(np.asarray(deal), minlength=forces)
        if counts.max() - counts.min() > 1:
            raise PositionError(f"a deal must share the territories out evenly, got counts {counts.tolist()}")
        self.owner[:] = deal
        self.armies[:] = 1
        self.pool -= counts
        self.player = self.first_player
        self.phase = Phase.SETUP_PLACE
        self.setup_step = 0

    @classmethod
    def new(
        cls,
        n_players: int,
        rng: np.random.Generator,
        rules: Rules | None = None,
        board: Board | None = None,
    ) -> GameState:
        """A new game whose starting roll, deal and missions are drawn from ``rng``."""
        rules = rules if rules is not None else Rules()
        board = board if board is not None else classic_board()
        starting_armies(n_players)  # validates the count before drawing anything
        validation.check_board_for_game(board, n_players)
        first = int(rng.integers(n_players))
        deal = None
        if n_players == 2 or rules.setup == "deal":
            piles = 3 if n_players == 2 else n_players
            order = rng.permutation(board.n_territories)
            deal_arr = np.empty(board.n_territories, dtype=np.int64)
            # Dealt round the table from the first player, the neutral pile last.
            seats = [(first + i) % n_players for i in range(n_players)] + ([2] if n_players == 2 else [])
            for i, t in enumerate(order):
                deal_arr[t] = seats[i % piles]
            deal = [int(x) for x in deal_arr]
        mission_ids = None
        if rules.missions:
            mission_ids = [int(m) for m in rng.choice(len(missions_mod.MISSIONS), n_players, replace=False)]
        return cls(n_players, rules, board, first_player=first, deal=deal, missions=mission_ids)

    @classmethod
    def random_start(
        cls,
        n_players: int,
        rng: np.random.Generator,
        rules: Rules | None = None,
        board: Board | None = None,
    ) -> GameState:
        """A new game whose whole setup is played with uniformly random choices."""
        state = cls.new(n_players, rng, rules, board)
        while state.phase in (Phase.SETUP_CLAIM, Phase.SETUP_PLACE, Phase.CHOOSE_CAPITAL):
            actions = state.legal_actions()
            state.apply_unchecked(actions[int(rng.integers(len(actions)))])
        return state

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
        n_players = validation.read_int(n_players, "n_players", 2, 6)
        forces = n_players + (1 if n_players == 2 else 0)
        bad = np.flatnonzero((owner_arr < 0) | (owner_arr >= forces))
        if len(bad):
            t = int(bad[0])
            raise PositionError(
                f"{board.territories[t]} has owner {int(owner_arr[t])}; expected a player from 0 to {forces - 1}"
            )
        bad = np.flatnonzero((armies_arr < 1) | (armies_arr > MAX_ARMIES))
        if len(bad):
            t = int(bad[0])
            raise PositionError(
                f"{board.territories[t]} has {int(armies_arr[t])} armies; every territory holds 1 to {MAX_ARMIES} "
                "(analyzer.limits.MAX_ARMIES)"
            )
        player = validation.read_int(player, "player", -(2**62), 2**62)
        if not 0 <= player < n_players or not np.any(owner_arr == player):
            raise PositionError(f"player {player} to move must be a seat from 0 to {n_players - 1} that owns a territory")
        sets_traded = validation.read_int(sets_traded, "sets traded", 0, MAX_SETS_TRADED)
        if hands is not None and not isinstance(hands, Mapping):
            raise PositionError(f"hands must map seats to lists of cards, got {validation.quote(hands)}")
        hand_lists: dict[int, list[int | str]] = {}
        for p, cards in (hands or {}).items():
            seat = validation.read_int(p, "a hand's seat", -(2**62), 2**62)
            if not 0 <= seat < n_players:
                raise PositionError(f"hand given for player {p}; expected a player from 0 to {n_players - 1}")
            if not isinstance(cards, (list, tuple)) or len(cards) > board.n_cards:
                raise PositionError(f"hands[{p}] must be a list of card ids, got {validation.quote(cards)}")
            hand_lists[seat] = [c if c == face_down_mod.UNKNOWN else validation.read_int(c, f"hands[{p}]", -(2**62), 2**62)
                                for c in cards]
        known_hands, placeholders = face_down_mod.fill_unknown(hand_lists, board.n_cards)
        if isinstance(face_down, (str, bytes)) or not isinstance(face_down, Sequence) or len(face_down) > board.n_cards:
            raise PositionError(f"face_down must be a list of card ids, got {validation.quote(face_down)}")
        down = sorted(set(placeholders) | {validation.read_int(c, "face_down", 0, board.n_cards - 1) for c in face_down})
        rules = rules if rules is not None else Rules()
        if rules.missions or rules.capitals:
            raise PositionError("a position entered mid-game cannot carry missions or capitals yet")
        # Built as a dealt game whose deal the position then overwrites.
        state = cls(n_players, rules, board, first_player=player, deal=_even_deal(n, forces))
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
        validation.validate(state, replay=False)
        return state

    def copy(self) -> GameState:
        """An independent copy (the board and rules are shared: they are constant)."""
        new = object.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new._bind(self.S.copy())
        new.eliminations = list(self.eliminations)
        new.trades = list(self.trades)
        new.history = list(self.history)
        new.initial = dict(self.initial)
        new.labels = json.loads(json.dumps(self.labels))
        new.face_down = list(self.face_down)
        return new

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> int:
        """The player who must decide now, :data:`CHANCE` or :data:`TERMINAL`.

        While a defence is pending it is the defender, or for the neutral force
        the attacker's opponent.
        """
        return int(legality.deciding_seat(self.S))

    def is_terminal(self) -> bool:
        return bool(self.S[engine.PHASE] == engine.GAME_OVER)

    def is_chance(self) -> bool:
        phase = self.S[engine.PHASE]
        return bool(phase == engine.ROLL or phase == engine.DRAW)

    def hand(self, player: int) -> list[int]:
        """The cards a player holds, as card ids."""
        return [int(c) for c in np.flatnonzero(self.card_loc == player)]

    def territories_of(self, player: int) -> list[int]:
        return [int(t) for t in np.flatnonzero(self.owner == player)]

    def continents_held(self, player: int) -> list[int]:
        """Ids of the continents a player holds in full."""
        held = int(engine.held_continents(self.S, self.C, player))
        return [c for c in range(len(self.board.continents)) if held >> c & 1]

    def reinforcements(self, player: int) -> int:
        """Armies a player gets at the start of a turn from territories and continents (cards not included).

        ``max(3, territories // 3)`` plus the bonus of each continent held in full.
        """
        return int(engine.reinforcements(self.S, self.C, player))

    def next_set_value(self) -> int:
        """Armies the next set traded is worth under progressive values (the classic rule)."""
        return self.rules.set_value(self.sets_traded) if self.rules.card_values == "progressive" else 0

    def ranking(self) -> list[int]:
        """Players from first to last: the winner first, then by territories, then armies, then the later eliminated."""
        n = self.n_players
        eliminated = np.full(n, -1)
        for e in self.eliminations:
            eliminated[e.player] = e.turn
        territories = np.bincount(self.owner[self.owner >= 0], minlength=len(self.pool))[:n]
        armies = np.bincount(self.owner[self.owner >= 0], weights=self.armies[self.owner >= 0], minlength=len(self.pool))[:n]
        winner = -1 if self.winner is None else self.winner
        place = ranks(np.array([winner]), territories[None, :], armies[None, :], eliminated[None, :])[0]
        return [int(p) for p in np.argsort(place, kind="stable")]

    def continent_holders(self) -> list[int | None]:
        """The force (a player, or the neutral) holding each continent in full, or None."""
        holders: list[int | None] = [None] * len(self.board.continents)
        for force in range(len(self.pool)):
            for c in self.continents_held(force):
                holders[c] = force
        return holders

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """Every legal action of the player who must decide now ([] at chance or terminal nodes).

        The candidates of the phase filtered through the compiled legality check
        (:func:`analyzer.game.engine.legality.legal_rows`), the one that :meth:`apply` enforces.
        """
        make = _DECODE
        return [make[k](a, b, c, d) for k, a, b, c, d in legality.legal_rows(self.S, self.C).tolist()]

    def must_trade(self) -> bool:
        """Whether the player to move holds so many cards that it must trade a set before placing."""
        return bool(legality.must_trade(self.S))

    def attack_sources(self, min_armies: int = 2) -> np.ndarray:
        """Territories of the player to move with an enemy neighbour and at least ``min_armies`` armies.

        With the default of 2 these are the territories that can attack now.
        """
        mine = self.owner == self.player
        enemy_near = self.board.adjacency[:, ~mine].any(axis=1)
        return np.flatnonzero(mine & (self.armies >= min_armies) & enemy_near)

    def move_range(self) -> tuple[int, int]:
        """Fewest and most armies the pending capture may move in."""
        move = self.move
        if move is None:
            raise IllegalActionError(f"no capture is pending in phase {self.phase.name}")
        return move.fewest, move.most

    def _pending_attack(self) -> PendingAttack:
        attack = self.attack
        if attack is None:
            raise IllegalActionError(f"no attack is pending in phase {self.phase.name}")
        return attack

    def legal_trades(self) -> list[Trade]:
        """The sets the player to move may trade now, with each choice of bonus territory."""
        if self.phase != Phase.REINFORCE:
            return []
        rows = legality.legal_rows(self.S, self.C)
        return [cast(Trade, decode(row)) for row in rows[rows[:, 0] == engine.TRADE].tolist()]

    def _bonus_territories(self, cards: tuple[int, ...]) -> list[int]:
        """Owned territories shown on the cards that may take the once-a-turn bonus."""
        bits = int(legality.bonus_choices(self.S, self.C, *cards))
        terr = self.board.card_territory
        return sorted({int(terr[c]) for i, c in enumerate(cards) if bits >> i & 1})

    def max_defence_dice(self) -> int:
        """Most dice the defender of the pending attack may roll."""
        return self.rules.dice.defender_dice(int(self.armies[self._pending_attack().target]))

    def fortify_targets(self, source: int) -> list[int]:
        """Where armies on ``source`` may fortify to under the rules' fortify option."""
        return [int(t) for t in np.flatnonzero(engine.fortify_reach(self.S, self.C, source))]

    def _setup_force(self) -> int:
        """Whose armies go down on the current setup placement (the neutral's on a 2-player go's third army)."""
        return int(engine.setup_force(self.S))

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The outcomes of the pending chance event with their exact probabilities."""
        if self.phase == Phase.ROLL:
            attack = self._pending_attack()
            dist = roll_distribution(attack.dice, attack.defence, self.rules.dice)
            return [(Roll(a, d), float(p)) for (a, d), p in dist.items()]
        if self.phase == Phase.DRAW:
            deck = self._draw_pile()
            return [(Draw(int(c)), 1.0 / len(deck)) for c in deck]
        return []

    def _draw_pile(self) -> np.ndarray:
        # Once the deck is empty the discards are shuffled into a new one; a uniform draw from them is the same thing.
        return engine.draw_pile(self.S)

    def apply_chance(self, rng: np.random.Generator) -> Action:
        """Sample the pending chance event from ``rng``, apply it and return the outcome."""
        if self.phase == Phase.ROLL:
            attack = self._pending_attack()
            outcomes, cdf = roll_cdf(attack.dice, attack.defence, self.rules.dice)
            action: Action = outcomes[bisect.bisect_right(cdf, rng.random())]
        elif self.phase == Phase.DRAW:
            deck = self._draw_pile()
            action = Draw(int(deck[int(rng.integers(len(deck)))]))
        else:
            raise IllegalActionError(f"no chance event is pending in phase {self.phase.name}")
        self.apply_unchecked(action)
        return action

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: Action) -> None:
        """Check that ``action`` is legal, then apply it.

        Raises :class:`IllegalActionError` naming the action, the phase and the
        reason. Territory names are accepted wherever an id is.
        """
        try:  # before any number reaches numpy
            validation.check_action(action, "")
        except PositionError as exc:
            raise self._illegal(action, exc) from None
        action = self._normalize(action)
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
            validation.validate(trial, replay=False)
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

    def is_legal(self, action: Action) -> bool:
        try:
            action = self._normalize(action)
        except (IllegalActionError, BoardError):
            return False
        return self.illegal_reason(action) is None

    def _normalize(self, action: Action) -> Action:
        index = self.board.index
        try:
            if isinstance(action, (Claim, ChooseCapital)):
                return type(action)(index(action.territory))
            if isinstance(action, Place):
                return Place(index(action.territory), action.armies)
            if isinstance(action, Attack):
                return Attack(index(action.source), index(action.target), action.dice)
            if isinstance(action, Battle):
                return Battle(index(action.source), index(action.target), action.attacker_left, action.defender_left)
            if isinstance(action, Fortify):
                return Fortify(index(action.source), index(action.target), action.armies)
            if isinstance(action, Correct):
                return Correct(tuple(index(t) for t in action.territories), *(
                    tuple(int(v) for v in getattr(action, f)) for f in ("owners", "armies", "moved", "to", "seats", "hidden")))
            if isinstance(action, Trade):
                # As many cards as were given: illegal_reason tells the player a set is three.
                cards = cast("tuple[int, int, int]", tuple(int(c) for c in action.cards))
                bonus = None if action.bonus is None else index(action.bonus)
                return Trade(cards, bonus, action.face_down)
        except BoardError as exc:
            raise self._illegal(action, exc) from None
        except (TypeError, ValueError):
            raise self._illegal(action, "its numbers must be whole numbers") from None
        return action

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, or None if it is legal: the compiled check's reason, in words."""
        phase = self.phase
        kind = type(action)
        if kind not in _ENCODE or not legality.allowed(int(phase), _CODES[kind]):
            return wording.phase_words(self)
        for name in ("armies", "dice"):
            value = getattr(action, name, 1)
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
                return f"{name} must be a whole number, got {value!r}"
        if isinstance(action, Trade) and len(action.cards) != 3:
            return f"a set is three different cards, got {action.cards!r}"
        code = int(legality.reason(self.S, self.C, *_ENCODE[kind](action)))
        return None if code == legality.LEGAL else wording.reason(self, code, action)

    def _name(self, t: int) -> str:
        return self.board.territories[t]

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal (ids only, no checks).

        The rule steps are :mod:`analyzer.game.engine.steps`'s compiled functions; this
        records the history, the trades and the eliminations around them.
        """
        self.history.append(action)
        kind = type(action)
        if kind is Correct:
            correction.apply(self, cast(Correct, action))
            return
        encode = _ENCODE.get(kind)
        if encode is None:
            raise IllegalActionError(f"unknown action {action!r}")
        player, turn = self.player, self.turn
        result = int(engine.step(self.S, self.C, *encode(action)))
        if kind is Trade and self.face_down:
            # The cards traded are shown: none of them is face down any more.
            self.face_down = [c for c in self.face_down if self.card_loc[c] >= 0]
        if result >= 0:
            if kind is Trade:
                self.trades.append(SetTraded(player, turn, result))
            else:
                self.eliminations.append(Elimination(result, player, turn))

    def _begin_turn(self, player: int, new_round: bool) -> None:
        engine.begin_turn(self.S, self.C, player, new_round)

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
            "attack": _as_list(validation.pending_attack(self)),
            "move": _as_list(validation.pending_move(self)),
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
        """Inverse of :meth:`to_dict`, through :func:`analyzer.game.validation.validate`.

        Raises :class:`StateFormatError` for a malformed save and :class:`PositionError`
        naming the field for an impossible one. The history must replay to the stored
        state unless ``trusted`` (for a state this process saved itself, with or without
        its history).
        """
        fields = validation.read_fields(data, board, FORMAT, FORMAT_VERSION)
        board = fields["board"]
        state = object.__new__(cls)
        state.board = board
        state._bind(engine.new_state(board.n_territories, board.n_cards, fields["n_players"]))
        state.rules = fields["rules"]
        state.initial = fields["initial"]
        S = state.S
        for name, index in (("phase", engine.PHASE), ("player", engine.PLAYER), ("first_player", engine.FIRST_PLAYER),
                            ("turn", engine.TURN), ("round", engine.ROUND), ("pending", engine.PENDING),
                            ("sets_traded", engine.SETS_TRADED), ("setup_step", engine.SETUP_STEP),
                            ("captured", engine.CAPTURED), ("bonus_used", engine.BONUS_USED),
                            ("resume_attack", engine.RESUME_ATTACK), ("elimination_trade", engine.ELIMINATION_TRADE)):
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
        validation.validate(state, replay=not trusted)
        return state

    @classmethod
    def from_json(cls, text: str | bytes, board: Board | None = None, *, trusted: bool = False) -> GameState:
        """A saved game from its JSON text (see :meth:`from_dict`); size and nesting are checked before parsing."""
        return cls.from_dict(validation.loads(text, "saved game"), board, trusted=trusted)

    def _validate(self) -> None:
        """Reject a state that breaks the invariants the engine relies on (no replay; see :mod:`analyzer.game.validation`)."""
        validation.validate(self, replay=False)

    @classmethod
    def replay(cls, initial: dict[str, Any], history: list[Action], rules: Rules | None = None, board: Board | None = None) -> GameState:
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

    def __repr__(self) -> str:
        return (
            f"<GameState {self.n_players} players, turn {self.turn}, phase {self.phase.name}, "
            f"player {self.player}, winner {self.winner}>"
        )


def turn_number(state: GameState) -> int:
    """The table's turn number: the round, every player's n-th turn (0 during the setup).

    The one number the log, the recorder, the games list and the app's header
    show; :attr:`GameState.turn` counts player-turns, which a table never says.

    >>> import numpy as np
    >>> state = GameState.random_start(3, np.random.default_rng(1))
    >>> turn_number(state), state.turn
    (1, 1)
    """
    return int(state.round)


@lru_cache(maxsize=None)
def roll_cdf(attacker_dice: int, defender_dice: int, dice: DiceRules) -> tuple[list[Roll], list[float]]:
    """The outcomes of a roll and their cumulative probabilities, in the order both paths sample them.

    >>> from analyzer.game.dice import CLASSIC_DICE
    >>> outcomes, cdf = roll_cdf(1, 1, CLASSIC_DICE)
    >>> [(r.attacker_losses, r.defender_losses) for r in outcomes], [round(p, 4) for p in cdf]
    ([(0, 1), (1, 0)], [0.4167, 1.0])
    """
    dist = roll_distribution(attacker_dice, defender_dice, dice)
    outcomes = [Roll(a, d) for a, d in dist]
    cdf = list(itertools.accumulate(float(p) for p in dist.values()))
    cdf[-1] = 1.0  # so that bisect never runs past the last outcome through rounding
    return outcomes, cdf


def ranks(winner: np.ndarray, territories: np.ndarray, armies: np.ndarray, eliminated: np.ndarray) -> np.ndarray:
    """Each player's place (1 is first) in each of many games, shape ``(games, players)``: the winner
    (``winner[g]``, -1 for none) first, then more territories, more armies, a later elimination
    (``eliminated[g, p]``: the turn, -1 for never), and seat order last. :meth:`GameState.ranking`
    and the simulator's tables both rank this way.

    >>> ranks(np.array([-1]), np.array([[10, 20, 12]]), np.array([[30, 25, 40]]), np.array([[-1, -1, -1]])).tolist()
    [[3, 1, 2]]
    >>> ranks(np.array([2]), np.array([[0, 0, 42]]), np.array([[0, 0, 90]]), np.array([[5, 9, -1]])).tolist()
    [[3, 2, 1]]
    """
    games, n = territories.shape
    later = np.where(eliminated < 0, 10**9, eliminated)
    seats = np.arange(n)
    order = np.lexsort((
        np.tile(seats, games), -later.ravel(), -armies.ravel(), -territories.ravel(),
        (seats[None, :] != winner[:, None]).ravel(), np.repeat(np.arange(games), n),
    ))
    place = np.empty(games * n, dtype=np.int64)
    place[order] = np.tile(np.arange(1, n + 1), games)
    return place.reshape(games, n)


def _as_list(pending: tuple[int, int, int, int] | None) -> list[int] | None:
    return None if pending is None else list(pending)


def _even_deal(n_territories: int, forces: int) -> list[int]:
    """A placeholder deal that passes the constructor's checks; the caller overwrites it."""
    return [t % forces for t in range(n_territories)]


#: Each action type's code for :func:`analyzer.game.engine.steps.step`, in the order messages list them.
_CODES: dict[type, int] = {
    Claim: engine.CLAIM,
    ChooseCapital: engine.CAPITAL,
    Trade: engine.TRADE,
    Place: engine.PLACE,
    Attack: engine.ATTACK_ACTION,
    EndAttack: engine.END_ATTACK,
    Battle: engine.BATTLE,
    Defend: engine.DEFEND_ACTION,
    Roll: engine.ROLL_ACTION,
    MoveIn: engine.MOVE_IN_ACTION,
    Fortify: engine.FORTIFY_ACTION,
    EndTurn: engine.END_TURN,
    Draw: engine.DRAW_ACTION,
}
#: The fields of each action type that are its arguments a, b, c, d, in order.
_ARGS: dict[type, tuple[str, ...]] = {
    Claim: ("territory",),
    ChooseCapital: ("territory",),
    Place: ("territory", "armies"),
    Attack: ("source", "target", "dice"),
    EndAttack: (),
    Battle: ("source", "target", "attacker_left", "defender_left"),
    Defend: ("dice",),
    Roll: ("attacker_losses", "defender_losses"),
    MoveIn: ("armies",),
    Fortify: ("source", "target", "armies"),
    EndTurn: (),
    Draw: ("card",),
}


def _trade(a: Any) -> tuple[int, int, int, int, int]:
    c0, c1, c2 = a.cards
    return engine.TRADE, int(c0), int(c1), int(c2), -1 if a.bonus is None else int(a.bonus)


def _encoder(kind: type, names: tuple[str, ...]) -> Callable[[Any], tuple[int, int, int, int, int]]:
    code = _CODES[kind]

    def encode(a: Any) -> tuple[int, int, int, int, int]:
        args = [int(getattr(a, n)) for n in names] + [0] * (4 - len(names))
        return code, args[0], args[1], args[2], args[3]

    return encode


#: Each action type's code and arguments for :func:`analyzer.game.engine.steps.step`.
_ENCODE: dict[type, Callable[[Any], tuple[int, int, int, int, int]]] = {
    Trade: _trade,
    **{kind: _encoder(kind, names) for kind, names in _ARGS.items()},
}


#: Each action code's constructor from the arguments a, b, c, d (a legal listing makes many).
_DECODE: dict[int, Callable[[int, int, int, int], Action]] = {
    engine.CLAIM: lambda a, b, c, d: Claim(a),
    engine.CAPITAL: lambda a, b, c, d: ChooseCapital(a),
    engine.TRADE: lambda a, b, c, d: Trade((a, b, c), None if d < 0 else d),
    engine.PLACE: lambda a, b, c, d: Place(a, b),
    engine.ATTACK_ACTION: lambda a, b, c, d: Attack(a, b, c),
    engine.END_ATTACK: lambda a, b, c, d: EndAttack(),
    engine.BATTLE: lambda a, b, c, d: Battle(a, b, c, d),
    engine.DEFEND_ACTION: lambda a, b, c, d: Defend(a),
    engine.ROLL_ACTION: lambda a, b, c, d: Roll(a, b),
    engine.MOVE_IN_ACTION: lambda a, b, c, d: MoveIn(a),
    engine.FORTIFY_ACTION: lambda a, b, c, d: Fortify(a, b, c),
    engine.END_TURN: lambda a, b, c, d: EndTurn(),
    engine.DRAW_ACTION: lambda a, b, c, d: Draw(a),
}


def decode(row: Sequence[int]) -> Action:
    """The action of a row ``(code, a, b, c, d)`` of :func:`analyzer.game.engine.steps.step`'s arguments.

    >>> decode([engine.ATTACK_ACTION, 3, 4, 2, 0])
    Attack(source=3, target=4, dice=2)
    """
    kind, a, b, c, d = (int(x) for x in row)
    make = _DECODE.get(kind)
    if make is None:
        raise IllegalActionError(f"unknown action code {kind}")
    return make(a, b, c, d)
