"""The game's state and the rule steps on it, without the checks of a player's input.

:class:`StateCore` holds everything that changes in a game in one ``int64``
vector (laid out by :mod:`analyzer.game.engine.layout`), with the board and the
rules; it builds a game, answers the queries about it (whose decision, which
actions are legal, the reinforcements), samples the chance events and applies
actions known to be legal through the compiled steps. The game a user plays,
with its checked :meth:`~analyzer.game.state.GameState.apply` and its saved
form, is :class:`analyzer.game.state.GameState`, built on it.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Sequence
from typing import Any, Generic, Self, TypeVar, cast

import numpy as np

from analyzer.errors import IllegalActionError, PositionError
from analyzer.game import missions as missions_mod
from analyzer.game.actions import Action, Draw, Roll, Trade
from analyzer.game.board import Board, classic_board
from analyzer.game.chance import roll_cdf
from analyzer.game.codec import DECODE, ENCODE, decode
from analyzer.game.dice import roll_distribution
from analyzer.game.engine import legality
from analyzer.game.engine import steps as engine
from analyzer.game.ranking import ranks
from analyzer.game.records import Elimination, PendingAttack, PendingMove, SetTraded
from analyzer.game.rules import NEUTRAL_ARMIES, Rules, check_board_for_game, starting_armies
from analyzer.game.vocabulary import DRAW, GAME_OVER, ROLL, TRADE, Phase, forces, has_neutral, neutral
from analyzer.generators import check_generator
from analyzer.integers import is_whole


class _Int:
    """A whole-number field of the game, stored in the state vector (see :mod:`analyzer.game.engine.steps`)."""

    def __init__(self, index: int) -> None:
        self.index = index

    def __get__(self, state: StateCore, owner: type | None = None) -> int:
        return int(state.S[self.index])

    def __set__(self, state: StateCore, value: int) -> None:
        state.S[self.index] = value


class _Flag(_Int):
    """A yes/no field of the game, stored in the state vector."""

    def __get__(self, state: StateCore, owner: type | None = None) -> bool:
        return bool(state.S[self.index])


_P = TypeVar("_P", PendingAttack, PendingMove)


class _Pending(Generic[_P]):
    """A pending attack or move-in stored in the state vector from ``index``; None while its source is -1.

    A plain 4-tuple is accepted on assignment (a saved game keeps them as lists).
    """

    def __init__(self, index: int, kind: type[_P]) -> None:
        self.index = index
        self.kind: type[_P] = kind

    def __get__(self, state: StateCore, owner: type | None = None) -> _P | None:
        S, i = state.S, self.index
        if S[i] < 0:
            return None
        return self.kind(int(S[i]), int(S[i + 1]), int(S[i + 2]), int(S[i + 3]))

    def __set__(self, state: StateCore, value: tuple[int, int, int, int] | None) -> None:
        state.S[self.index : self.index + 4] = (-1, 0, 0, 0) if value is None else value


#: Phases by value, for a fast lookup from the state vector.
_PHASES = tuple(Phase)


#: Constant vectors by (id(board), id(rules)), holding the objects so that the ids stay theirs.
_CONFIGS: dict[tuple[int, int], tuple[Board, Rules, np.ndarray]] = {}


class StateCore:
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
        at = neutral(int(self.S[engine.N_PLAYERS]))
        return None if at < 0 else at

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
        elif self.rules.deals(n_players):
            raise PositionError(f"a {n_players}-player game with setup={self.rules.setup!r} needs a deal")

    def _deal(self, deal: list[int]) -> None:
        n = self.board.n_territories
        n_forces = len(self.pool)
        if len(deal) != n or any(not (is_whole(p) and 0 <= p < n_forces) for p in deal):
            raise PositionError(f"a deal must give each of the {n} territories an owner from 0 to {n_forces - 1}")
        counts = np.bincount(np.asarray(deal), minlength=n_forces)
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
        first: int | None = None,
    ) -> Self:
        """A new game whose starting roll (unless ``first`` says who goes first), deal and missions are drawn
        from ``rng``."""
        check_generator(rng, error=PositionError)
        rules = rules if rules is not None else Rules()
        board = board if board is not None else classic_board()
        starting_armies(n_players)  # validates the count before drawing anything
        check_board_for_game(board, n_players)
        if first is None:
            first = int(rng.integers(n_players))
        deal = None
        if rules.deals(n_players):
            piles = forces(n_players)
            order = rng.permutation(board.n_territories)
            deal_arr = np.empty(board.n_territories, dtype=np.int64)
            # Dealt round the table from the first player, the neutral pile last.
            seats = [(first + i) % n_players for i in range(n_players)] + (
                [neutral(n_players)] if has_neutral(n_players) else []
            )
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
        first: int | None = None,
    ) -> Self:
        """A new game whose whole setup is played with uniformly random choices (:meth:`new`)."""
        state = cls.new(n_players, rng, rules, board, first)
        while state.phase in (Phase.SETUP_CLAIM, Phase.SETUP_PLACE, Phase.CHOOSE_CAPITAL):
            actions = state.legal_actions()
            state.apply_unchecked(actions[int(rng.integers(len(actions)))])
        return state

    def copy(self) -> Self:
        """An independent copy (the board and rules are shared: they are constant)."""
        new = object.__new__(type(self))
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
        """The player who must decide now, :data:`~analyzer.game.vocabulary.CHANCE` or :data:`~analyzer.game.vocabulary.TERMINAL`.

        While a defence is pending it is the defender, or for the neutral force
        the attacker's opponent.
        """
        return int(legality.deciding_seat(self.S))

    def is_terminal(self) -> bool:
        return bool(self.S[engine.PHASE] == GAME_OVER)

    def is_chance(self) -> bool:
        phase = self.S[engine.PHASE]
        return bool(phase == ROLL or phase == DRAW)

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
        armies = np.bincount(
            self.owner[self.owner >= 0], weights=self.armies[self.owner >= 0], minlength=len(self.pool)
        )[:n]
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
        make = DECODE
        return [make[k](a, b, c, d) for k, a, b, c, d in legality.legal_rows(self.S, self.C).tolist()]

    def must_trade(self) -> bool:
        """Whether the player to move holds so many cards that it must trade a set before placing."""
        return bool(legality.must_trade(self.S))

    def attack_sources(self, min_armies: int = 2, players: Sequence[int] | None = None) -> np.ndarray:
        """Territories with a neighbour held by another force and at least ``min_armies`` armies,
        of ``players`` (the player to move by default).

        With the defaults these are the territories that can attack now.
        """
        owner = self.owner
        border = (self.board.adjacency & (owner[:, None] != owner[None, :])).any(axis=1)
        held = np.isin(owner, [self.player] if players is None else list(players))
        return np.flatnonzero(held & (self.armies >= min_armies) & border)

    def attack_targets(self, source: int) -> list[int]:
        """The neighbours of ``source`` held by a force other than its owner: what an attack from it may take."""
        owner = self.owner
        return [int(t) for t in np.flatnonzero(self.board.adjacency[source] & (owner != owner[source]))]

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
        return [cast(Trade, decode(row)) for row in rows[rows[:, 0] == TRADE].tolist()]

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

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal (ids only, no checks).

        The rule steps are :mod:`analyzer.game.engine.steps`'s compiled functions; this
        records the history, the trades and the eliminations around them.
        """
        self.history.append(action)
        kind = type(action)
        encode = ENCODE.get(kind)
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

    def __repr__(self) -> str:
        return (
            f"<GameState {self.n_players} players, turn {self.turn}, phase {self.phase.name}, "
            f"player {self.player}, winner {self.winner}>"
        )
