"""The invariant checker: what the compiled rule steps (:mod:`analyzer.game.engine.steps`) take on trust.

A state reaches the engine from a saved game (:meth:`GameState.from_json
<analyzer.game.state.GameState.from_json>`, :meth:`~analyzer.game.state.GameState.from_dict`),
a position typed in (:meth:`~analyzer.game.state.GameState.from_position`), the
app's edits and its store. All of them end in :func:`analyzer.game.state.validate`,
which runs :func:`check_invariants`:

* every field's type and range (ids on the board, armies within
  :data:`analyzer.limits.MAX_ARMIES`, counters within their limits);
* the fields agree with each other: owners and ``alive`` (an alive seat owns a
  territory once the setup is over, a dead one owns none and holds no cards),
  hand sizes, the phase and the pending attack or move-in, the winner and
  ``GAME_OVER``, missions and capitals only under their rule, the setup's
  armies and claims;

and then, by default, checks that the history replays through the checked
:meth:`~analyzer.game.state.GameState.apply` (:func:`analyzer.game.state.check_replay`;
:func:`check_initial` checks where it starts). Reading the raw input (JSON,
whole numbers) is :mod:`analyzer.game.reader`'s.

Failures raise :class:`~analyzer.errors.PositionError` naming the field
(``armies[12] (Alaska)``, ``phase``, ``history``). A bad value is quoted back in at
most :data:`analyzer.limits.MAX_MESSAGE` characters.

>>> import numpy as np
>>> from analyzer.game.state import GameState
>>> state = GameState.random_start(3, np.random.default_rng(1))
>>> check_invariants(state)
>>> state.armies[5] = 0
>>> check_invariants(state)
Traceback (most recent call last):
...
analyzer.errors.PositionError: armies[5] (Quebec) is 0 in phase REINFORCE; every territory in play holds at least 1
"""

from __future__ import annotations

import json

import numpy as np

from analyzer import limits
from analyzer.errors import PositionError
from analyzer.game import face_down
from analyzer.game import missions as missions_mod
from analyzer.game.board import Board
from analyzer.game.core import StateCore
from analyzer.game.engine import steps as engine
from analyzer.game.engine.layout import AT, HEADER
from analyzer.game.reader import check_depth, fail, read_int, read_ints
from analyzer.game.rules import ELIMINATION_TRADE_HAND, FORCED_TRADE_HAND, NEUTRAL_ARMIES, STARTING_ARMIES, Rules
from analyzer.game.vocabulary import (
    CHOOSE_CAPITAL,
    DECK,
    DEFEND,
    DISCARD,
    DRAW,
    GAME_OVER,
    MOVE_IN,
    PHASE_NAMES,
    REINFORCE,
    ROLL,
    SETUP_CLAIM,
    SETUP_PHASES,
    has_neutral,
    neutral,
    player_count,
)
from analyzer.limits import quote

__all__ = ["check_invariants", "check_initial", "MAX_HAND_TO_MOVE", "MAX_HAND_WAITING"]

#: Most cards a seat holds while another plays: 4 kept past its trades, one more kept after an
#: elimination (fewer than 6), and the turn's card.
MAX_HAND_WAITING = FORCED_TRADE_HAND + 1
#: Most cards the player to move holds: 5 in hand and a victim's 6 just taken, before trading down.
MAX_HAND_TO_MOVE = FORCED_TRADE_HAND + ELIMINATION_TRADE_HAND


# ---------------------------------------------------------------------------------- the state
def _pending(S: np.ndarray, start: int) -> tuple[int, int, int, int] | None:
    """The pending attack (``start=ATTACK_S``) or move-in (``MOVE_S``) as the state vector holds it."""
    if S[start] < 0:
        return None
    return int(S[start]), int(S[start + 1]), int(S[start + 2]), int(S[start + 3])


def pending_attack(state: StateCore) -> tuple[int, int, int, int] | None:
    """Source, target, attack dice and defence dice (0 until chosen) of the pending attack, or None."""
    return _pending(state.S, engine.ATTACK_S)


def pending_move(state: StateCore) -> tuple[int, int, int, int] | None:
    """Source, target, fewest and most armies of the pending capture's move-in, or None."""
    return _pending(state.S, engine.MOVE_S)


def check_invariants(state: StateCore) -> None:
    """Check every field of ``state`` and their agreement (not its history: see
    :func:`analyzer.game.state.validate`); raises :class:`PositionError` naming the first field found wrong."""
    _Checker(state).run()


class _Checker:
    """The checks of :func:`check_invariants`, one method per group of fields."""

    def __init__(self, state: StateCore) -> None:
        self.state = state

    def fail(self, message: str) -> PositionError:
        return PositionError(message)

    def name(self, t: int) -> str:
        return f"[{t}] ({self.state.board.territories[t]})"

    def run(self) -> None:
        st = self.state
        if not isinstance(getattr(st, "board", None), Board) or not isinstance(getattr(st, "rules", None), Rules):
            raise self.fail("board and rules must be a Board and a Rules")
        S = st.S
        if not isinstance(S, np.ndarray) or S.dtype != np.int64 or S.ndim != 1 or len(S) < HEADER:
            raise self.fail("the state vector must be a 1-d int64 array")
        n = player_count(int(S[engine.N_PLAYERS]), "n_players", PositionError)
        board = st.board
        T, M = board.n_territories, board.n_cards
        spans = engine.layout(T, M, n)
        expected = {
            engine.N_TERRITORIES: T,
            engine.N_CARDS: M,
            engine.NEUTRAL: neutral(n),
            engine.N_FORCES: spans["pool"][1],
            engine.TURN_LIMIT: -1 if st.rules.turn_limit is None else st.rules.turn_limit,
        }
        # Compiled code finds every array through these header slots: a wrong one would read out of bounds.
        expected.update({AT[name]: start for name, (start, _) in spans.items()})
        for index, value in expected.items():
            if S[index] != value:
                raise self.fail(
                    f"state vector header [{index}] is {int(S[index])}, expected {value} for this board and rules"
                )
        if len(S) != sum(spans["missions"]):
            raise self.fail(f"the state vector has {len(S)} entries, expected {sum(spans['missions'])}")
        self.n, self.T, self.M, self.forces = n, T, M, spans["pool"][1]
        self.phase = int(S[engine.PHASE])
        if not 0 <= self.phase <= GAME_OVER:
            raise fail("phase", f"a phase from 0 to {GAME_OVER}", self.phase)
        self.phase_name = PHASE_NAMES[self.phase]
        self.ranges()
        self.players()
        self.cards()
        self.rules_options()
        if self.phase in SETUP_PHASES:
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
            ("player", engine.PLAYER, 0, n - 1),
            ("first_player", engine.FIRST_PLAYER, 0, n - 1),
            ("turn", engine.TURN, 0, limits.MAX_TURNS),
            ("round", engine.ROUND, 0, limits.MAX_ROUNDS),
            ("pending", engine.PENDING, 0, limits.MAX_ARMIES),
            ("sets_traded", engine.SETS_TRADED, 0, limits.MAX_SETS_TRADED),
            ("setup_step", engine.SETUP_STEP, 0, 2 if has_neutral(n) else 0),
            ("winner", engine.WINNER, -1, n - 1),
            ("captured", engine.CAPTURED, 0, 1),
            ("bonus_used", engine.BONUS_USED, 0, 1),
            ("resume_attack", engine.RESUME_ATTACK, 0, 1),
            ("elimination_trade", engine.ELIMINATION_TRADE, 0, 1),
        )
        for name, index, lo, hi in scalars:
            read_int(int(S[index]), name, lo, hi)
        arrays = (
            ("owner", st.owner, -1, self.forces - 1),
            ("armies", st.armies, 0, limits.MAX_ARMIES),
            ("card_loc", st.card_loc, DISCARD, n - 1),
            ("pool", st.pool, 0, max(STARTING_ARMIES[n], NEUTRAL_ARMIES)),
            ("alive", st.alive, 0, 1),
            ("eliminated_by", st.eliminated_by, -1, n - 1),
            ("capitals", st.capitals, -1, T - 1),
            ("missions", st.missions, -1, len(missions_mod.MISSIONS) - 1),
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
                raise self.fail(
                    f"card_loc: seat {p} holds {int(hands[p])} cards; at most {most} can be held "
                    + ("by the player to move" if p == st.player else "while another seat plays")
                )
        self.hands = hands
        face_down.check(st)

    def rules_options(self) -> None:
        st, n = self.state, self.n
        rules = st.rules
        if rules.missions:
            if (st.missions < 0).any() or len(set(st.missions.tolist())) != n:
                raise self.fail(
                    f"missions {st.missions.tolist()} must be distinct mission ids, one per seat, under the missions rule"
                )
        elif (st.missions >= 0).any():
            raise self.fail(f"missions {st.missions.tolist()} are set but the missions rule is off")
        chosen = st.capitals[st.capitals >= 0]
        if not rules.capitals and len(chosen):
            raise self.fail(f"capitals {st.capitals.tolist()} are set but the capitals rule is off")
        if len(set(chosen.tolist())) != len(chosen):
            raise self.fail(f"capitals {st.capitals.tolist()} must be distinct territories")
        if rules.capitals and self.phase not in SETUP_PHASES and len(chosen) != n:
            raise self.fail(f"capitals {st.capitals.tolist()}: every seat has a capital once the setup is over")
        limit = rules.turn_limit
        if limit is not None and st.round > limit:
            raise self.fail(f"round {st.round} is past the rules' turn_limit of {limit}")

    # -- setup
    def setup(self) -> None:
        st, n = self.state, self.n
        S = st.S
        for name, index in (
            ("turn", engine.TURN),
            ("round", engine.ROUND),
            ("pending", engine.PENDING),
            ("sets_traded", engine.SETS_TRADED),
            ("captured", engine.CAPTURED),
            ("bonus_used", engine.BONUS_USED),
            ("resume_attack", engine.RESUME_ATTACK),
            ("elimination_trade", engine.ELIMINATION_TRADE),
        ):
            if S[index] != 0:
                raise self.fail(f"{name} is {int(S[index])} in phase {self.phase_name}; the setup has none")
        if S[engine.WINNER] >= 0:
            raise self.fail(f"winner is {int(S[engine.WINNER])} in phase {self.phase_name}")
        if not st.alive.all():
            raise self.fail(f"alive {st.alive.astype(bool).tolist()}: nobody is eliminated during the setup")
        if (st.card_loc != DECK).any():
            raise self.fail("card_loc: every card is in the deck during the setup")
        unowned = st.owner < 0
        if ((st.armies == 0) != unowned).any():
            t = int(np.flatnonzero((st.armies == 0) != unowned)[0])
            raise self.fail(
                f"armies{self.name(t)} is {int(st.armies[t])} with owner {int(st.owner[t])}: "
                "a claimed territory holds armies, an unclaimed one none"
            )
        starting = STARTING_ARMIES[n]
        for f in range(self.forces):
            total = starting if f < n else NEUTRAL_ARMIES
            placed = int(st.armies[st.owner == f].sum())
            if placed + int(st.pool[f]) != total:
                raise self.fail(f"pool[{f}] is {int(st.pool[f])} with {placed} armies placed; they add up to {total}")
        if self.phase == SETUP_CLAIM:
            if not unowned.any():
                raise self.fail("phase is SETUP_CLAIM but every territory is claimed")
            if st.rules.deals(n):
                raise self.fail(
                    f"phase is SETUP_CLAIM but territories are dealt in a {n}-player game with setup={st.rules.setup!r}"
                )
            claimed = int((~unowned).sum())
            if st.player != (st.first_player + claimed) % n:
                raise self.fail(
                    f"player is {st.player}, but after {claimed} claims from seat {st.first_player} "
                    f"it is seat {(st.first_player + claimed) % n}'s claim"
                )
        elif unowned.any():
            raise self.fail(
                f"owner{self.name(int(np.flatnonzero(unowned)[0]))} is unclaimed in phase {self.phase_name}"
            )
        if self.phase != CHOOSE_CAPITAL:
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
                    raise self.fail(
                        f"capitals[{p}] is {cap}: seats choose in turn from seat {st.first_player}, "
                        f"and seat {st.player} is choosing"
                    )
                if cap >= 0 and st.owner[cap] != p:
                    raise self.fail(f"capitals[{p}] is territory{self.name(cap)}, which seat {p} does not own")

    # -- in play
    def in_play(self) -> None:
        st, n = self.state, self.n
        if st.pool.any():
            raise self.fail(
                f"pool {st.pool.tolist()} holds armies in phase {self.phase_name}; the setup placed them all"
            )
        if (st.owner < 0).any():
            raise self.fail(
                f"owner{self.name(int(np.flatnonzero(st.owner < 0)[0]))} is unclaimed in phase {self.phase_name}"
            )
        if st.turn < 1:
            raise self.fail(f"turn is {st.turn} in phase {self.phase_name}; play starts at turn 1")
        move = pending_move(st)
        empty = st.armies < 1
        if self.phase == MOVE_IN and move is not None and 0 <= move[1] < self.T:
            empty[move[1]] = False  # the captured territory waits for the move-in
        if empty.any():
            t = int(np.flatnonzero(empty)[0])
            raise self.fail(
                f"armies{self.name(t)} is {int(st.armies[t])} in phase {self.phase_name}; "
                "every territory in play holds at least 1"
            )
        alive = st.alive.astype(bool)
        for p in range(n):
            if alive[p] and not self.counts[p]:
                raise self.fail(f"seat {p} is alive but owns no territory")
        winner = int(st.S[engine.WINNER])
        if self.phase != GAME_OVER:
            if alive.sum() < 2 and self.phase != MOVE_IN:  # the winning capture's move-in is still to come
                raise self.fail(
                    f"only seat {int(np.flatnonzero(alive)[0])} is alive, but phase is {self.phase_name}, not GAME_OVER"
                )
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
            raise self.fail(
                f"winner is {winner} while seats {np.flatnonzero(alive).tolist()} are alive; "
                "without missions or capitals the winner is the last seat standing"
            )

    # -- the phase's pending fields
    def pending_fields(self) -> None:
        st, phase = self.state, self.phase
        S = st.S
        attack, move = pending_attack(st), pending_move(st)
        dice = st.rules.dice
        if (attack is not None) != (phase in (DEFEND, ROLL)):
            raise self.fail(
                f"attack is {attack} in phase {self.phase_name}; an attack is pending in DEFEND and ROLL only"
            )
        if (move is not None) != (phase == MOVE_IN):
            raise self.fail(f"move is {move} in phase {self.phase_name}; a move-in is pending in MOVE_IN only")
        # A mission or capital can be won while armies wait to be placed: GAME_OVER keeps them.
        placing = (REINFORCE, GAME_OVER)
        if S[engine.PENDING] and phase not in placing:
            raise self.fail(
                f"pending is {int(S[engine.PENDING])} in phase {self.phase_name}; armies wait to be placed in REINFORCE only"
            )
        if S[engine.RESUME_ATTACK] and phase not in placing:
            raise self.fail(f"resume_attack is set in phase {self.phase_name}; it marks trading after an elimination")
        if S[engine.ELIMINATION_TRADE] and phase not in (MOVE_IN, GAME_OVER):
            raise self.fail(f"elimination_trade is set in phase {self.phase_name}; it waits for the move-in")
        p = st.player
        if phase == REINFORCE:
            if S[engine.RESUME_ATTACK]:
                if not S[engine.CAPTURED]:
                    raise self.fail("resume_attack is set but nothing was captured this turn")
                if S[engine.PENDING] == 0 and self.hands[p] < FORCED_TRADE_HAND:
                    raise self.fail(
                        f"nothing to place and {int(self.hands[p])} cards after an elimination: the attack would have resumed"
                    )
            else:
                if S[engine.CAPTURED]:
                    raise self.fail("captured is set at the start of a turn")
                if S[engine.PENDING] == 0:
                    raise self.fail("pending is 0 in REINFORCE; a turn brings at least 3 armies")
        if phase == DRAW and not S[engine.CAPTURED]:
            raise self.fail("phase is DRAW but nothing was captured this turn")
        if phase == DRAW and not (st.card_loc < 0).any():
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
            if phase == DEFEND and (d_dice != 0 or most < 2):
                raise self.fail(
                    f"attack: defence dice are {d_dice} in DEFEND against {int(st.armies[t])} armies; "
                    "expected 0 (to choose) with at least 2 defenders"
                )
            if phase == ROLL and not 1 <= d_dice <= most:
                raise self.fail(f"attack: {d_dice} defence dice with {int(st.armies[t])} armies; expected 1 to {most}")
        if move is not None:
            s, t, lo, hi = move
            self.border(s, t, "move")
            if st.owner[t] != p or st.armies[t] != 0:
                raise self.fail(
                    f"move: the captured territory{self.name(t)} must be the mover's with 0 armies until the move-in"
                )
            if not 1 <= lo <= dice.attacker_max or hi != int(st.armies[s]) - 1 or lo >= hi:
                raise self.fail(
                    f"move: from {lo} to {hi} armies with {int(st.armies[s])} on the source; "
                    f"expected the dice rolled (1 to {dice.attacker_max}) up to all but one, fewest below most"
                )
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
            if (
                e.player in seen
                or e.player not in dead
                or e.by != int(st.eliminated_by[e.player])
                or not 1 <= e.turn <= st.turn
            ):
                raise self.fail(
                    f"eliminations[{i}] {[e.player, e.by, e.turn]} does not match eliminated_by "
                    f"{st.eliminated_by.tolist()} at turn {st.turn}"
                )
            seen.add(e.player)
        if seen != dead:
            raise self.fail(f"eliminations list seats {sorted(seen)}, but seats {sorted(dead)} are eliminated")
        if len(st.trades) > st.sets_traded:
            raise self.fail(f"trades lists {len(st.trades)} sets, more than sets_traded {st.sets_traded}")
        for i, r in enumerate(st.trades):
            if not 0 <= r.player < n or not 1 <= r.turn <= st.turn or not 0 <= r.value <= limits.MAX_ARMIES:
                raise self.fail(
                    f"trades[{i}] {[r.player, r.turn, r.value]}: expected a seat, a turn so far and a value"
                )
        if not isinstance(st.labels, dict):
            raise fail("labels", "an object", st.labels)
        check_depth(st.labels, "labels")
        try:
            json.dumps(st.labels)
        except (TypeError, ValueError) as exc:
            raise PositionError(f"labels must be plain JSON: {quote(str(exc))}") from None


# ---------------------------------------------------------------------------------- the history
def check_initial(state: StateCore) -> None:
    initial, n = state.initial, state.n_players
    if not isinstance(initial, dict) or initial.get("n_players") != n or isinstance(initial.get("n_players"), bool):
        raise PositionError(f"initial must be an object with n_players {n}, got {quote(initial)}")
    T, M = state.board.n_territories, state.board.n_cards
    if "position" in initial:
        if set(initial) != {"n_players", "position"}:
            raise PositionError(
                f"initial: a position's start has keys n_players and position, got {quote(sorted(initial))}"
            )
        pos = initial["position"]
        if not isinstance(pos, dict) or set(pos) - {"face_down"} != {
            "owner",
            "armies",
            "player",
            "hands",
            "sets_traded",
        }:
            raise PositionError(
                f"initial.position must have owner, armies, player, hands and sets_traded "
                f"(and face_down, optional), got {quote(pos)}"
            )
        if "face_down" in pos:
            read_ints(
                pos["face_down"],
                "initial.position.face_down",
                len(pos["face_down"]) if isinstance(pos["face_down"], list) else -1,
                0,
                M - 1,
            )
        read_ints(pos["owner"], "initial.position.owner", T, 0, n)
        read_ints(pos["armies"], "initial.position.armies", T, 1, limits.MAX_ARMIES)
        read_int(pos["player"], "initial.position.player", 0, n - 1)
        read_int(pos["sets_traded"], "initial.position.sets_traded", 0, limits.MAX_SETS_TRADED)
        hands = pos["hands"]
        if not isinstance(hands, dict) or len(hands) > n:
            raise fail("initial.position.hands", "an object of hands by seat", hands)
        for p, cards in hands.items():
            if not isinstance(p, str) or not p.isdigit() or int(p) >= n:
                raise fail("initial.position.hands", "keyed by seat numbers", p)
            if not isinstance(cards, list) or len(cards) > MAX_HAND_TO_MOVE:
                raise fail(f"initial.position.hands[{p}]", f"a list of at most {MAX_HAND_TO_MOVE} cards", cards)
            read_ints(cards, f"initial.position.hands[{p}]", len(cards), 0, M - 1)
        return
    if set(initial) != {"n_players", "first_player", "deal", "missions"}:
        raise PositionError(
            f"initial must have n_players, first_player, deal and missions, got {quote(sorted(initial))}"
        )
    read_int(initial["first_player"], "initial.first_player", 0, n - 1)
    if initial["deal"] is not None:
        read_ints(initial["deal"], "initial.deal", T, 0, n)
    if initial["missions"] is not None:
        read_ints(initial["missions"], "initial.missions", n, 0, len(missions_mod.MISSIONS) - 1)
