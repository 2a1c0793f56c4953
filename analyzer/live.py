"""A game followed at a real table: entries in the table's own words, checked by the engine.

A :class:`LiveGame` wraps a :class:`~analyzer.game.state.GameState`. Each entry
(armies placed, a set traded, a whole battle, the move-in, the fortify, "end
turn") becomes one or more engine actions applied with
:meth:`GameState.apply`, so an entry the rules refuse raises the engine's own
:class:`~analyzer.errors.IllegalActionError` and leaves the game as it was.
What the table never says is derived by the engine (the forced move-in, the
eliminated player's cards changing hands, the next continent bonus, victory)
or by the recorder (the card drawn after a capture).

Face-down cards
---------------
At a table you see your own cards but only how many each opponent holds. The
engine needs a card id for every draw, so a card nobody has named is drawn at
random from the pile (a *placeholder*) and held face down
(:attr:`GameState.face_down`, see :mod:`analyzer.game.face_down`). Because no
face-down card has ever been seen, the placeholders are interchangeable with
each other and with the cards still in the deck: when a player trades cards
that were hidden, or names a card of their own, the recorder swaps the
placeholder's identity with the card shown (rewriting the one ``Draw`` in the
history that brought it, or a typed start's hand), so the engine's history
stays a real, replayable game in which every trade was a valid set. A trade of
unknown cards is accepted if the hidden cards could make a set.
:meth:`LiveGame.determinize` draws every hidden card afresh, for rollouts.

Undo and redo
-------------
Each entry remembers how many engine actions it added and which identities it
swapped; undo drops the last entries and replays ``initial`` plus the rest of
the history with :meth:`GameState.replay`, so an undone game is exactly the
game those entries make. The bookkeeping (entries, the redo list, the hidden
cards, the seed of the placeholder draws) is kept in ``state.labels["live"]``
and saved with the game, so a :class:`LiveGame` can be rebuilt from a saved
state with ``LiveGame(state)``.

>>> live = LiveGame.random(["Ann", "Bo", "Cy"], np.random.default_rng(1), me=0)
>>> live.state.phase.name, live.state.player
('REINFORCE', 1)
>>> t = live.state.territories_of(1)[0]
>>> live.place({t: live.state.pending})
[Place(territory=0, armies=4)]
>>> live.state.phase.name
'ATTACK'
>>> live.undo(); live.state.phase.name, live.can_redo
('REINFORCE', True)
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import numpy as np

from analyzer.analysis.editing import edit_position
from analyzer.errors import IllegalActionError, PositionError, StateFormatError
from analyzer.game import face_down, wording
from analyzer.game.actions import (
    Action,
    Attack,
    Battle,
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
    Territory,
    Trade,
    action_from_json,
    action_to_json,
)
from analyzer.game.board import Board
from analyzer.game.cards import is_valid_set
from analyzer.game.labels import PLAYER_COLORS, card_label, player_labels, player_name, with_player_labels
from analyzer.game.rules import Rules
from analyzer.game.state import GameState, turn_number
from analyzer.game.vocabulary import DECK, DISCARD, Phase
from analyzer.integers import is_whole, whole_number
from analyzer.limits import quote
from analyzer.text import counted

#: Key of the recorder's bookkeeping in :attr:`GameState.labels`.
LIVE_LABEL = "live"
_VERSION = 1


@dataclass(frozen=True)
class Entry:
    """One recorded entry: its kind ("place", "trade", "battle", ...) and the engine actions it added."""

    kind: str
    actions: tuple[Action, ...]


class LiveGame:
    """A game recorded entry by entry; build with :meth:`start`, :meth:`random` or ``LiveGame(state)``.

    ``LiveGame(state)`` adopts a copy of any game (a typed position, a saved
    live game): entries made before it are not undoable unless they were
    recorded by a :class:`LiveGame`. ``me`` is the seat whose cards the user
    sees (None: every card drawn is hidden until named).
    """

    def __init__(self, state: GameState, *, me: int | None = None, seed: int = 0) -> None:
        self._state = state.copy()
        saved = self._state.labels.get(LIVE_LABEL)
        if saved is None:
            if me is not None and (not is_whole(me) or not 0 <= me < state.n_players):
                raise IllegalActionError(f"me must be a seat from 0 to {state.n_players - 1} or None, got {quote(me)}")
            self._book = _Book(
                base=len(state.history),
                seed=whole_number(seed, "seed", 0, IllegalActionError),
                me=None if me is None else int(me),
                face_down=tuple(state.face_down),
            )
        else:
            self._book = _Book.from_json(saved, self._state)
        # A save from before GameState.face_down kept the face-down cards only here.
        self._state.face_down = self._book.hidden_at(len(self._book.entries))
        try:
            face_down.check(self._state)
        except PositionError as exc:
            raise StateFormatError(f"saved game's live-game record is malformed: {exc}") from None
        self._save()

    @staticmethod
    def check(state: GameState) -> None:
        """Raise :class:`~analyzer.errors.StateFormatError` unless ``state`` opens as a recorded game: its players'
        names and colours fit its seats, and its live-game record (the undo list, the face-down cards) fits its
        history. The one check of a game from a file before it is stored, whether the app opens it or ``games
        import`` adds it: a record that does not fit is refused there, not found broken when the game is opened."""
        player_labels(state)
        LiveGame(state)

    # ------------------------------------------------------------------ starts
    @classmethod
    def start(
        cls,
        names: Sequence[str],
        *,
        first: int = 0,
        colors: Sequence[str] | None = None,
        deal: Sequence[int] | None = None,
        rules: Rules | None = None,
        board: Board | None = None,
        me: int | None = None,
        seed: int = 0,
    ) -> LiveGame:
        """A new game at the table: the players in seat order, who goes first, and the deal if there is one.

        Without ``deal`` the territories are then claimed one at a time
        (:meth:`claim`); with it (one owner per territory, the neutral force
        of a 2-player game being seat 2) the starting armies come next.
        ``seed`` drives the placeholder draws of face-down cards.
        """
        state = GameState(len(names), rules, board, first_player=first, deal=None if deal is None else list(deal))
        _label_players(state, names, colors)
        return cls(state, me=me, seed=seed)

    @classmethod
    def random(
        cls,
        names: Sequence[str],
        rng: np.random.Generator,
        *,
        colors: Sequence[str] | None = None,
        rules: Rules | None = None,
        me: int | None = None,
        first: int | None = None,
    ) -> LiveGame:
        """A game whose territories and starting armies are all dealt at random from ``rng``, and its starting roll
        too unless ``first`` says who goes first."""
        state = GameState.random_start(len(names), rng, rules, first=first)
        _label_players(state, names, colors)
        return cls(state, me=me, seed=int(rng.integers(2**31)))

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> GameState:
        """A copy of the game now, its bookkeeping in its labels (what a caller stores)."""
        return self._state.copy()

    @property
    def turn(self) -> int:
        """The table's turn number now (:func:`analyzer.game.state.turn_number`)."""
        return turn_number(self._state)

    @property
    def me(self) -> int | None:
        return self._book.me

    @property
    def entries(self) -> list[Entry]:
        """The recorded entries, oldest first, with the engine actions each added."""
        out, i = [], self._book.base
        history = self._state.history
        for e in self._book.entries:
            out.append(Entry(e.kind, tuple(history[i : i + e.n])))
            i += e.n
        return out

    @property
    def can_undo(self) -> bool:
        return bool(self._book.entries)

    @property
    def can_redo(self) -> bool:
        return bool(self._book.redo)

    @property
    def hidden(self) -> list[int]:
        """Cards in players' hands whose identity nobody has named (placeholder ids): the game's face-down cards."""
        return list(self._state.face_down)

    def card_counts(self) -> list[int]:
        """How many cards each seat holds (what the table sees of an opponent's hand)."""
        return [len(self._state.hand(p)) for p in range(self._state.n_players)]

    def known_hand(self, player: int) -> list[int]:
        """The cards of ``player`` whose identity is known (named, or dealt in a typed position)."""
        hidden = set(self.hidden)
        return [c for c in self._state.hand(player) if c not in hidden]

    def board_at(self, n_entries: int) -> GameState:
        """The game as it was after the first ``n_entries`` entries (0: as adopted or started)."""
        count = len(self._book.entries)
        if not 0 <= n_entries <= count:
            raise IllegalActionError(f"entry {n_entries} does not exist; this game has entries 0 to {count}")
        _, initial, history = self._without(count - n_entries)
        return self._replay(initial, history, self._book.hidden_at(n_entries))

    # ------------------------------------------------------------------ setup entries
    def claim(self, territory: Territory) -> list[Action]:
        """The player to move claims ``territory`` (claimed setup, one at a time)."""
        return self._record("claim", lambda w: w.state.apply(Claim(territory)))

    def claim_all(self, territories: Sequence[Territory]) -> list[Action]:
        """``territories`` claimed in turn round the table, as one entry (the rest of a claimed setup dealt at
        once): one undo takes them all back."""

        def go(w: _Work) -> None:
            for t in territories:
                w.state.apply(Claim(t))

        return self._record("deal", go)

    def place_starting(self, armies: Mapping[int, Mapping[Territory, int]]) -> list[Action]:
        """Every force's starting armies at once: ``{seat: {territory: armies}}`` (the neutral is seat 2 of 2).

        The rules place one army at a time round the table; the recorder
        interleaves the counts into that order, so each force must place
        exactly the armies it has left.
        """

        def go(w: _Work) -> None:
            s = w.state
            if s.phase != Phase.SETUP_PLACE:
                raise IllegalActionError(f"the starting armies are all placed already: {wording.phase_words(s)}")
            left: dict[int, dict[int, int]] = {}
            for force, counts in armies.items():
                mine = left.setdefault(
                    whole_number(force, "a force placing starting armies", 0, IllegalActionError), {}
                )
                for t, k in counts.items():
                    tid = s.board.index(t)
                    where = f"the starting armies on {s.board.territories[tid]}"
                    mine[tid] = mine.get(tid, 0) + whole_number(k, where, 0, IllegalActionError)
            for force in range(len(s.pool)):
                want, given = int(s.pool[force]), sum(left.get(force, {}).values())
                if want != given:
                    raise IllegalActionError(
                        f"{player_name(s, force)} has {want} starting armies to place, got {given}"
                    )
            while s.phase == Phase.SETUP_PLACE:
                first = s.legal_actions()[0]
                assert isinstance(first, Place)
                force = int(s.owner[int(first.territory)])
                t = next(t for t, k in left[force].items() if k > 0)
                left[force][t] -= 1
                s.apply(Place(t, 1))

        return self._record("setup", go)

    # ------------------------------------------------------------------ turn entries
    def place(self, armies: Mapping[Territory, int]) -> list[Action]:
        """Reinforcements placed: ``{territory: armies}``, many at once."""

        def go(w: _Work) -> None:
            if not armies:
                raise IllegalActionError("place armies on at least one territory")
            for t, k in armies.items():
                w.state.apply(Place(t, k))

        return self._record("place", go)

    def trade(self, cards: Sequence[int] = (), bonus: Territory | None = None) -> list[Action]:
        """A set traded by the player to move: the cards shown (0 to 3 card ids), the rest hidden cards.

        ``bonus`` is the territory on a traded card that takes the extra
        armies, as the table says. Hidden cards are given identities that make
        a valid set with the cards shown (and show ``bonus``), if any can;
        else the trade is refused.
        """

        def go(w: _Work) -> None:
            shown = [whole_number(c, "a card shown", None, IllegalActionError) for c in cards]
            if len(shown) > 3 or len(set(shown)) != len(shown):
                raise IllegalActionError(
                    f"a set is three different cards; {len(shown)} were shown, {len(set(shown))} of them different"
                )
            b = None if bonus is None else w.state.board.index(bonus)
            if b is None:
                b = w.shown_bonus(w.state.player, shown)
            three = w.identify(w.state.player, shown, b, fill=True)
            # The cards filled in were face down: their identities are a guess the log must not tell as seen.
            w.state.apply(Trade((three[0], three[1], three[2]), b, 3 - len(shown)))

        return self._record("trade", go)

    def battle(self, source: Territory, target: Territory, attacker_left: int, defender_left: int) -> list[Action]:
        """A whole battle: from, to, and the armies left on both when it stopped (0 defenders: taken)."""
        return self._record("battle", lambda w: w.state.apply(Battle(source, target, attacker_left, defender_left)))

    def roll(
        self,
        source: Territory,
        target: Territory,
        attacker_dice: int,
        defender_dice: int,
        attacker_losses: int,
        defender_losses: int,
    ) -> list[Action]:
        """One roll, for those who record die by die: the dice each side rolled and the armies each lost."""

        def go(w: _Work) -> None:
            s = w.state
            s.apply(Attack(source, target, attacker_dice))
            if s.phase == Phase.DEFEND:
                s.apply(Defend(defender_dice))
            elif defender_dice != 1:
                raise IllegalActionError(f"the defender holds one army and rolls 1 die, got {defender_dice}")
            s.apply(Roll(attacker_losses, defender_losses))

        return self._record("roll", go)

    def move_in(self, armies: int) -> list[Action]:
        """The armies moved into the territory just taken."""
        return self._record("move", lambda w: w.state.apply(MoveIn(armies)))

    def fortify(self, source: Territory, target: Territory, armies: int, card: int | None = None) -> list[Action]:
        """The turn's fortify move, which ends the turn; ``card``: the card drawn, if it is known."""

        def go(w: _Work) -> None:
            if w.state.phase == Phase.ATTACK:
                w.state.apply(EndAttack())
            w.state.apply(Fortify(source, target, armies))
            w.draw(card)

        return self._record("fortify", go)

    def end_turn(self, card: int | None = None) -> list[Action]:
        """End the turn without fortifying; ``card``: the card drawn, if it is known."""

        def go(w: _Work) -> None:
            if w.state.phase == Phase.ATTACK:
                w.state.apply(EndAttack())
            w.state.apply(EndTurn())
            w.draw(card)

        return self._record("end", go)

    def name_cards(self, cards: Sequence[int]) -> list[Action]:
        """The user names hidden cards now in their own hand (a card drawn, or cards handed over)."""

        def go(w: _Work) -> None:
            if self.me is None:
                raise IllegalActionError("no seat is yours (me is None), so there are no cards of yours to name")
            if not cards:
                raise IllegalActionError("name at least one card")
            w.identify(
                self.me, [whole_number(c, "a card named", None, IllegalActionError) for c in cards], None, fill=False
            )

        return self._record("cards", go)

    # ------------------------------------------------------------------ corrections
    def correct(
        self,
        *,
        owners: Mapping[Territory, int] | None = None,
        armies: Mapping[Territory, int] | None = None,
        hands: Mapping[int, Sequence[int | str]] | None = None,
    ) -> list[Action]:
        """The table says the recorded position is wrong: record what it says, as a correction entry.

        ``owners`` and ``armies`` map territories (name or id) to a seat or a
        count; ``hands`` gives the whole hand of each seat it names, a card
        id for each card shown and ``"?"`` for each card held face down.
        Nothing entered before is dropped: the correction is one more entry
        (a :class:`~analyzer.game.actions.Correct` in the history), which the
        log tells and undo takes back. Values equal to the record's change
        nothing; when nothing changes at all, nothing is recorded and ``[]``
        is returned. An impossible position is refused with a
        :class:`~analyzer.errors.PositionError` in words.
        """

        def go(w: _Work) -> None:
            correction = w.correction(owners or {}, armies or {}, hands or {})
            if correction is not None:
                w.state.apply(correction)

        work = _Work(self)
        go(work)
        if not work.state.history[work.prefix :]:
            return []
        return self._record("correction", go)

    # ------------------------------------------------------------------ undo / redo
    def undo(self, n: int = 1) -> None:
        """Take back the last ``n`` entries (they can be redone until a new entry is made)."""
        count = len(self._book.entries)
        if count == 0:
            raise IllegalActionError("there is no entry to undo: none has been made yet, or all were undone")
        if not is_whole(n) or not 1 <= n <= count:
            raise IllegalActionError(
                f"cannot undo {quote(n)} {'entry' if is_whole(n) and n == 1 else 'entries'}; {counted(count, 'entry', 'entries')} "
                f"can be undone"
            )
        undone, initial, history = self._without(n)
        book = dataclasses.replace(
            self._book, entries=self._book.entries[: count - n], redo=(*self._book.redo, *undone)
        )
        self._commit(self._replay(initial, history, book.hidden_at(count - n)), book)

    def redo(self, n: int = 1) -> None:
        """Make again the last ``n`` entries undone."""
        entries, redo = list(self._book.entries), list(self._book.redo)
        if not is_whole(n) or not 1 <= n <= len(redo):
            raise IllegalActionError(f"cannot redo {quote(n)} entries; {len(redo)} can be redone")
        initial, history = self._state.initial, list(self._state.history)
        for _ in range(n):
            undone = redo.pop()
            initial, history = face_down.swapped(initial, history, undone.step.swaps)
            history += undone.actions
            entries.append(undone.step)
        book = dataclasses.replace(self._book, entries=tuple(entries), redo=tuple(redo))
        self._commit(self._replay(initial, history, book.hidden_at(len(entries))), book)

    # ------------------------------------------------------------------ rollouts
    def determinize(self, rng: np.random.Generator) -> GameState:
        """The game now with every hidden card drawn afresh from the cards nobody has seen, for a rollout.

        The unseen cards are the hidden ones and those still in the deck;
        each hand keeps its size and its known cards. The result's card
        placement no longer matches its history, so it carries none.
        """
        s = face_down.determinize(self._state, rng)
        s.labels.pop(LIVE_LABEL, None)
        return s

    # ------------------------------------------------------------------ internals
    def _record(self, kind: str, go: Callable[[_Work], Any]) -> list[Action]:
        """Apply an entry to a copy of the game; keep it only if the engine accepted every action."""
        w = _Work(self)
        go(w)
        added = w.state.history[w.prefix :]
        hidden = set(w.state.face_down)  # a traded card is shown: the engine takes it off
        if not added and not w.swaps and hidden == set(self.hidden):
            raise IllegalActionError(f"the {kind} entry changes nothing")
        step = _Step(kind, len(added), tuple((x, y) for x, y in w.swaps), tuple(sorted(hidden)))
        self._commit(w.state, dataclasses.replace(self._book, entries=(*self._book.entries, step), redo=()))
        return list(added)

    def _commit(self, state: GameState, book: _Book) -> None:
        self._state = state
        self._book = book
        self._save()

    def _save(self) -> None:
        self._state.labels[LIVE_LABEL] = self._book.to_json()

    def _without(self, n: int) -> tuple[list[_Undone], dict[str, Any], list[Action]]:
        """The last ``n`` entries taken back, newest first, each with the actions it added (in the card
        identities of its time: the swaps of the entries after it undone), and the game's first position and
        history without them."""
        initial, history = self._state.initial, list(self._state.history)
        undone: list[_Undone] = []
        for step in reversed(self._book.entries[len(self._book.entries) - n :]):
            cut = len(history) - step.n
            undone.append(_Undone(step, tuple(history[cut:])))
            initial, history = face_down.swapped(initial, history[:cut], step.swaps[::-1])
        return undone, initial, history

    def _replay(self, initial: dict[str, Any], history: list[Action], hidden: list[int]) -> GameState:
        s = GameState.replay(initial, history, self._state.rules, self._state.board)
        s.labels = json.loads(json.dumps(self._state.labels))  # a deep copy: the labels are plain JSON
        s.face_down = sorted(hidden)
        return s


def corrected(
    state: GameState,
    *,
    owners: Mapping[Territory, Any] | None = None,
    armies: Mapping[Territory, Any] | None = None,
    hands: Mapping[int, Sequence[int | str]] | None = None,
    player: int | None = None,
    sets_traded: int | None = None,
) -> GameState:
    """``state`` with what the table says changed, keeping everything recorded.

    A game with a history gets a correction entry (:meth:`LiveGame.correct`);
    its player to move and sets traded follow from its entries, so changing
    them is refused in words. A position typed in, with no history yet, is
    typed again (:func:`analyzer.analysis.position.edit_position`). ``state``
    itself is never changed; when nothing changes the result equals it.
    """
    if not state.history:
        return edit_position(state, owner=owners, armies=armies, hands=hands, player=player, sets_traded=sets_traded)
    if player is not None and whole_number(player, "player", None, PositionError) != state.player:
        raise PositionError(
            f"it is {player_name(state, state.player)}'s turn by the entries recorded; "
            "record the turns played, or undo entries, to change whose turn it is"
        )
    if sets_traded is not None and whole_number(sets_traded, "sets traded", None, PositionError) != state.sets_traded:
        raise PositionError(
            f"{state.sets_traded} sets have been traded by the entries recorded; "
            "record or undo the trades to change that count"
        )
    live = LiveGame(state)
    if not live.correct(owners=owners, armies=armies, hands=hands):
        return state.copy()
    return live.state


class _Draw(IntEnum):
    """Why the recorder picks a card at random: each reason draws from a stream of its own (the two for a
    hand stated in a correction, one per seat, at 20 + seat and 40 + seat)."""

    CARD_DRAWN = 0  # the placeholder of a card drawn face down
    NAMED_CARD_STOOD_IN = 1  # the deck card that takes the identity a named drawn card stood in for
    SET_FILLED = 2  # which hidden cards made up a set traded with cards unseen
    HAND_NAMED = 20  # the deck card that takes the identity a card named in a corrected hand stood in for
    HAND_FILLED = 40  # the face-down cards added to a corrected hand


class _Work:
    """An entry being applied: a copy of the game, the card identities swapped, and the hidden cards."""

    def __init__(self, live: LiveGame) -> None:
        self.live = live
        self.state = live._state.copy()
        self.prefix = len(self.state.history)
        self.swaps: list[list[int]] = []
        self.seed = live._book.seed

    @property
    def hidden(self) -> set[int]:
        return set(self.state.face_down)

    def show(self, card: int) -> None:
        """``card`` is named: it is no longer face down."""
        self.state.face_down = [c for c in self.state.face_down if c != card]

    def rng(self, why: _Draw, seat: int = 0) -> np.random.Generator:
        # Seeded by the game, the point in it and the reason (with the seat it is for), so a redo or a replay
        # makes the same placeholder, and two draws at one point never share a stream.
        return np.random.default_rng([self.seed, len(self.state.history), int(why) + seat])

    def draw(self, card: int | None) -> None:
        """The card drawn after a turn with a capture: ``card`` if named, else a hidden placeholder."""
        s = self.state
        if s.phase != Phase.DRAW:
            if card is not None:
                raise IllegalActionError("no card is drawn: this turn took no territory")
            return
        if card is None:
            outcomes = s.chance_outcomes()
            drawn = outcomes[int(self.rng(_Draw.CARD_DRAWN).integers(len(outcomes)))][0]
            assert isinstance(drawn, Draw)
            s.apply(drawn)
            s.face_down = sorted({*s.face_down, int(drawn.card)})
            return
        c = whole_number(card, "the card drawn", None, IllegalActionError)
        if c in self.hidden and self.swappable(c):
            # The card named was standing in for another hidden card: that one takes a deck card's place.
            deck = [d for d in face_down.unseen(s) if s.card_loc[d] == DECK]
            if deck:
                self.swap(c, deck[int(self.rng(_Draw.NAMED_CARD_STOOD_IN).integers(len(deck)))])
        self.state.apply(Draw(c))

    def correction(
        self, owners: Mapping[Territory, Any], armies: Mapping[Territory, Any], hands: Mapping[int, Sequence[Any]]
    ) -> Correct | None:
        """The :class:`Correct` that makes the game say what the table says, or None if it already does.

        A card named in a hand that is face down elsewhere was only standing
        in for an unseen card: it swaps identities with one from the deck.
        A hand's ``"?"`` cards keep the seat's face-down cards, as many as
        are wanted; more are drawn from the unseen cards in the deck.
        """
        s = self.state
        board = s.board
        new: dict[int, list[int]] = {}
        for what, changes, field in (("owner", owners, 0), ("armies", armies, 1)):
            if not isinstance(changes, Mapping):
                raise PositionError(f"the {what} to correct must map territories to numbers")
            for key, value in changes.items():
                t = board.index(key)
                v = whole_number(value, f"the {what} of {board.territories[t]}", None, PositionError)
                new.setdefault(t, [int(s.owner[t]), int(s.armies[t])])[field] = v
        changed = {t: ov for t, ov in sorted(new.items()) if ov != [int(s.owner[t]), int(s.armies[t])]}
        if not isinstance(hands, Mapping):
            raise PositionError("the hands to correct must map each seat to its cards")
        stated: dict[int, tuple[list[int], int]] = {}
        for p, cards in hands.items():
            seat = whole_number(p, "a hand's seat", None, PositionError)
            if not 0 <= seat < s.n_players:
                raise PositionError(f"there is no seat {p}; the seats are 0 to {s.n_players - 1}")
            if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence) or len(cards) > board.n_cards:
                raise PositionError(f'{player_name(s, seat)}\'s hand must be a list of cards, a card id or "?" each')
            known = [
                whole_number(c, f"a card of {player_name(s, seat)}'s hand", None, PositionError)
                for c in cards
                if c != face_down.UNKNOWN
            ]
            for c in known:
                if not 0 <= c < board.n_cards:
                    raise PositionError(f"there is no card {c}; cards are numbered 0 to {board.n_cards - 1}")
            stated[seat] = (known, len(cards) - len(known))
        named = [c for known, _ in stated.values() for c in known]
        if len(set(named)) != len(named):
            twice = next(c for c in named if named.count(c) > 1)
            raise PositionError(f"{card_label(board, twice)} is named in more than one hand; each card is in one place")
        # Cards named: a face-down stand-in elsewhere gives its identity up; a known card elsewhere must be let go.
        for p, (known, _) in stated.items():
            for c in known:
                s = self.state
                where = int(s.card_loc[c])
                if where == p:
                    continue
                if where == DISCARD:
                    raise PositionError(f"{card_label(board, c)} has been traded in; no hand holds it")
                if c in self.hidden and self.swappable(c):
                    spare = [d for d in face_down.unseen(s) if s.card_loc[d] == DECK and d not in named]
                    if not spare:
                        raise PositionError(
                            f"{card_label(board, c)} is face down in {player_name(s, where)}'s hand and "
                            "no unseen card is left to take its place"
                        )
                    self.swap(c, spare[int(self.rng(_Draw.HAND_NAMED, p).integers(len(spare)))])
                elif where >= 0 and where not in stated:
                    raise PositionError(
                        f"{card_label(board, c)} is in {player_name(s, where)}'s hand; "
                        f"correct {player_name(s, where)}'s hand too"
                    )
        s = self.state
        place = {int(c): int(s.card_loc[c]) for c in range(board.n_cards)}
        hidden_after: list[int] = []
        for p, (known, wanted) in sorted(stated.items()):
            down = [c for c in s.hand(p) if c in self.hidden and c not in named]
            keep = down[:wanted]
            for c in s.hand(p):
                if c not in known and c not in keep:
                    place[c] = DECK
            for c in known:
                place[c] = p
            if wanted > len(keep):
                spare = [d for d in face_down.unseen(s) if s.card_loc[d] == DECK and d not in named]
                if len(spare) < wanted - len(keep):
                    raise PositionError(
                        f"{player_name(s, p)} cannot hold {wanted} face-down cards: "
                        f"only {len(keep) + len(spare)} cards are unseen"
                    )
                order = self.rng(_Draw.HAND_FILLED, p).permutation(len(spare))
                extra = sorted(spare[i] for i in order[: wanted - len(keep)])
                for c in extra:
                    place[c] = p
                keep = keep + extra
            hidden_after += keep
        moved = [c for c in range(board.n_cards) if place[c] != int(s.card_loc[c])]
        before_down = {c for c in self.hidden if int(s.card_loc[c]) in stated}
        if not changed and not moved and set(hidden_after) == before_down:
            return None
        return Correct(
            tuple(changed),
            tuple(o for o, _ in changed.values()),
            tuple(k for _, k in changed.values()),
            tuple(moved),
            tuple(place[c] for c in moved),
            tuple(sorted(stated)),
            tuple(sorted(hidden_after)),
        )

    def swappable(self, card: int) -> bool:
        """Whether ``card``'s identity has never been seen (face down or in the deck, and never traded)."""
        return card in face_down.unseen(self.state)

    def swap(self, x: int, y: int) -> None:
        """Exchange the identities of unseen cards ``x`` and ``y`` throughout the game."""
        face_down.swap(self.state, x, y)
        self.swaps.append([x, y])

    def shown_bonus(self, player: int, shown: list[int]) -> int | None:
        """The territory that takes a trade's extra armies when the table named none: the one territory of
        ``player``'s on the cards ``shown`` (the rules put the armies there), None if there is none; several are
        the player's to choose, and refused."""
        s = self.state
        terr = s.board.card_territory
        valid = [c for c in shown if 0 <= c < s.board.n_cards]  # identify() names a card that does not exist
        own = sorted({int(terr[c]) for c in valid if terr[c] >= 0 and s.owner[terr[c]] == player})
        if not _bonus_open(s) or not own:
            return None
        if len(own) > 1:
            cards = " and ".join(card_label(s.board, c) for c in valid if int(terr[c]) in own)
            raise IllegalActionError(
                f"{cards} show territories of {player_name(s, player)}'s: say which one takes the extra armies"
            )
        return own[0]

    def identify(self, player: int, shown: list[int], bonus: int | None, fill: bool) -> list[int]:
        """Make the cards ``shown`` be in ``player``'s hand, filling a set from hidden cards if ``fill``.

        Returns the cards (shown first, then filled). A shown card not in the
        hand takes the place of one of the player's hidden cards; filled
        cards keep their identity when that already makes a set, else as few
        hidden cards as possible are swapped with unseen ones.
        """
        s = self.state
        board = s.board
        name = player_name(s, player)
        for c in shown:
            if not 0 <= c < board.n_cards:
                raise IllegalActionError(f"card {c} does not exist; cards are numbered 0 to {board.n_cards - 1}")
        for c in shown:
            hand = set(s.hand(player))
            if c not in hand:
                spare = [h for h in sorted(hand & self.hidden) if h not in shown and self.swappable(h)]
                if not spare:
                    raise IllegalActionError(
                        f"{card_label(board, c)} is not in {name}'s hand, and {name} has no hidden card it could be"
                    )
                if not self.swappable(c):
                    raise IllegalActionError(
                        f"{card_label(board, c)} has already been seen elsewhere; it cannot be in {name}'s hand"
                    )
                self.swap(spare[0], c)
                s = self.state
            self.show(c)
        if not fill or len(shown) == 3:
            return list(shown)
        r = 3 - len(shown)
        mine = [h for h in sorted(set(s.hand(player)) & self.hidden) if h not in shown]
        if len(mine) < r:
            held = len(s.hand(player))
            raise IllegalActionError(
                f"{name} holds {held} card(s), {len(mine)} of them hidden besides those shown: "
                f"too few for a set of three"
            )
        unseen = set(face_down.unseen(s))
        outside = [
            c
            for c in range(board.n_cards)
            if c not in mine and c not in shown and s.card_loc[c] != player and c in unseen
        ]
        movable = [h for h in mine if h in unseen]
        terr = board.card_territory
        symbols = board.card_symbols
        bonus_open = _bonus_open(s)

        def fits(extra: tuple[int, ...]) -> bool:
            three = shown + list(extra)
            if not is_valid_set([int(symbols[c]) for c in three]):
                return False
            if bonus is not None:
                return any(int(terr[c]) == bonus for c in three)
            # No bonus named: no filled card may show a territory of the player's (the table would have said).
            return not bonus_open or all(terr[c] < 0 or s.owner[terr[c]] != player for c in extra)

        for k in range(min(r, len(movable)) + 1):
            options = [
                own + new
                for own in itertools.combinations(mine, r - k)
                for new in itertools.combinations(outside, k)
                if len(set(mine) - set(own)) >= k and fits(own + new)
            ]
            if options:
                own_new = options[int(self.rng(_Draw.SET_FILLED).integers(len(options)))]
                own, new = list(own_new[: r - k]), list(own_new[r - k :])
                spare = [h for h in movable if h not in own]
                for x, y in zip(spare, new):
                    self.swap(x, y)
                for c in own + new:
                    self.show(c)
                return shown + own + new
        what = f"showing {board.territories[bonus]}" if bonus is not None else "without a territory of theirs"
        shown_words = ", ".join(card_label(board, c) for c in shown) or "no card shown"
        raise IllegalActionError(f"{name}'s hidden cards cannot make a set with {shown_words} {what}")


def _bonus_open(s: GameState) -> bool:
    """Whether a set traded now may still take the once-a-turn extra armies on a territory its cards show."""
    return not s.bonus_used and s.rules.territory_bonus != 0


def _label_players(state: GameState, names: Sequence[str], colors: Sequence[str] | None) -> None:
    chosen = list(colors) if colors is not None else list(PLAYER_COLORS[: len(names)])
    state.labels = with_player_labels(state, list(names), chosen).labels


@dataclass(frozen=True)
class _Step:
    """One entry of the recorder's undo stack: its ``kind``, the ``n`` engine actions it added, the card
    identities it ``swaps`` (undone in reverse order), and the cards face down after it."""

    kind: str
    n: int
    swaps: tuple[tuple[int, int], ...]
    hidden: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "n": self.n, "swaps": [list(p) for p in self.swaps], "hidden": list(self.hidden)}


@dataclass(frozen=True)
class _Undone:
    """An entry taken back, with the actions it had added: what a redo makes again."""

    step: _Step
    actions: tuple[Action, ...]


@dataclass(frozen=True)
class _Book:
    """The recorder's bookkeeping, saved in the game's labels: the history's length when recording began
    (``base``), the seed of the placeholder draws, the seat whose cards the user sees, the undo stack
    (``entries``), the redo stack and the cards face down when recording began. Immutable: every entry,
    undo and redo makes a new one."""

    base: int
    seed: int
    me: int | None
    entries: tuple[_Step, ...] = ()
    redo: tuple[_Undone, ...] = ()
    face_down: tuple[int, ...] = ()

    def hidden_at(self, n_entries: int) -> list[int]:
        """The face-down cards after the first ``n_entries`` entries."""
        return list(self.entries[n_entries - 1].hidden) if n_entries else list(self.face_down)

    def to_json(self) -> dict[str, Any]:
        """The saved form (the game's ``labels["live"]``)."""
        return {
            "version": _VERSION,
            "base": self.base,
            "seed": self.seed,
            "me": self.me,
            "entries": [e.to_json() for e in self.entries],
            "redo": [{**u.step.to_json(), "actions": [action_to_json(a) for a in u.actions]} for u in self.redo],
            "face_down": list(self.face_down),
        }

    @classmethod
    def from_json(cls, book: Any, state: GameState) -> _Book:
        """The bookkeeping of a saved game's labels, checked against its history."""

        def bad(why: str) -> StateFormatError:
            return StateFormatError(f"saved game's live-game record is malformed: {why}")

        if not isinstance(book, dict) or book.get("version") != _VERSION:
            raise bad(f"expected an object with version {_VERSION}")
        cards = state.board.n_cards - 1

        def whole(value: Any, what: str, hi: int | None = None) -> int:
            try:
                return whole_number(value, what, 0, StateFormatError, maximum=hi)
            except StateFormatError as exc:
                raise bad(str(exc)) from None

        def step(e: Any) -> _Step:
            if not isinstance(e["kind"], str):
                raise bad(f"entry {quote(e)}")
            swaps = []
            for pair in e["swaps"]:
                if len(pair) != 2:
                    raise bad(f"swap {quote(pair)}")
                x, y = (whole(c, "a swapped card", cards) for c in pair)
                swaps.append((x, y))
            hidden = tuple(whole(c, "a hidden card", cards) for c in e["hidden"])
            return _Step(e["kind"], whole(e["n"], "an entry's action count"), tuple(swaps), hidden)

        try:
            base, seed, me = whole(book["base"], "base"), whole(book["seed"], "seed"), book["me"]
            entries = tuple(step(e) for e in book["entries"])
            redo = tuple(_Undone(step(e), tuple(action_from_json(a) for a in e["actions"])) for e in book["redo"])
            # Optional: a record whose game started with no face-down cards may leave it out.
            down = tuple(whole(c, "a face-down card", cards) for c in book.get("face_down", []))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, StateFormatError):
                raise
            raise bad(f"{type(exc).__name__}: {exc}") from None
        if me is not None and (not is_whole(me) or not 0 <= me < state.n_players):
            raise bad(f"me is {quote(me)}; expected None or a seat from 0 to {state.n_players - 1}")
        covered = base + sum(e.n for e in entries)
        if covered != len(state.history):
            raise bad(f"its entries cover {covered} actions but the history has {len(state.history)}")
        return cls(base, seed, None if me is None else int(me), entries, redo, down)
