"""A batch of games played and tabulated: the unit of work of every backend and of the checkpoint.

:func:`run_batch` plays the games of one batch of a :class:`~analyzer.sim.runs.RunSpec`, in the
compiled playout when every seat compiles, else through :func:`analyzer.sim.play.play_game`, and
tabulates them all at once, with the column types of :data:`SCHEMA`.

Tables
------
``games``
    ``game``, ``winner`` (seat, <NA> if capped), ``capped``, ``turns``
    (player-turns played), ``rounds``, ``first_player``.
``seats``
    one row per game and seat: ``game``, ``seat``, ``bot``, ``rank`` (1 is
    the winner, then by territories, armies, later elimination),
    ``start_territories``, ``start_armies`` (when the first turn begins),
    ``final_territories``, ``final_armies``, ``eliminated_turn`` and
    ``eliminated_by`` (<NA> if not eliminated).
``eliminations``
    ``game``, ``player``, ``by``, ``turn``.
``trades``
    ``game``, ``player``, ``turn``, ``value`` (armies).
``starts``
    each territory's ``owner`` and ``armies`` when the first turn begins
    (owner 2 is the neutral force in 2-player games).
``turns`` (with ``record_turns``)
    after each player-turn ``turn`` (and once more at the end of the game),
    each ``seat``'s ``territories``, ``armies`` and ``continents`` held.
"""

from __future__ import annotations

import dataclasses
import gc
from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np
import pandas as pd

from analyzer import limits
from analyzer.bots.heuristic import HeuristicBot
from analyzer.game import face_down
from analyzer.game.actions import Action
from analyzer.game.engine import steps as engine
from analyzer.game.ranking import ranks
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.sim import playout
from analyzer.sim.checkpoints import TABLES
from analyzer.sim.play import play_game
from analyzer.sim.runs import RunSpec, game_rng


class _Recorder:
    """Collects one batch's rows as plain column lists (cheaper than a DataFrame per game)."""

    def __init__(self, spec: RunSpec) -> None:
        self.spec = spec
        self.start: GameState | None = None  # spec.start parsed once per batch
        self.dealer: face_down.Dealer[GameState] | None = None  # and its face-down cards' unseen cards listed once
        # Finished games, tabulated together in frames(): (game, final state vector, start position,
        # event rows as playout.play_events gives them, without a start position's earlier records).
        self.finished: list[tuple[int, np.ndarray, np.ndarray, np.ndarray]] = []
        self.prepared: playout.Prepared | None = None
        self.rules = dataclasses.replace(spec.rules, turn_limit=_cap(spec.rules.turn_limit, spec.max_rounds))
        # Decided once per batch: the bots' protocol checks cost more than a compiled turn.
        self.later = spec.playing_bots
        self.compiled = spec.runs_compiled
        self.drafting = any(a is not b for a, b in zip(self.later, spec.bots))

    def game(self, game: int, rng: np.random.Generator) -> None:
        spec = self.spec
        if spec.start is None:
            state = GameState.new(spec.n_players, rng, self.rules, spec.board)
        else:
            if self.dealer is None:
                # simulate() validated the position before writing it: trusted, and saved without history.
                self.start = GameState.from_json(spec.start, spec.board, trusted=True)
                self.dealer = face_down.Dealer(self.start)
            # Cards held face down are drawn afresh for each game, from its own generator, so that
            # no game takes the placeholders' ids for the cards.
            state = self.dealer.game(rng)
            state.rules = dataclasses.replace(
                state.rules,
                turn_limit=_cap(state.rules.turn_limit, min(state.round + spec.max_rounds, limits.MAX_ROUNDS)),
            )
        if self.compiled:
            if self.drafting:
                # Seats that change only the draft claim here; every later decision is the compiled bot's.
                while state.phase == Phase.SETUP_CLAIM:
                    state.apply_unchecked(cast(Action, spec.bots[state.current_player].choose(state, rng)))
            if self.prepared is None:
                self.prepared = playout.Prepared(
                    cast("Sequence[HeuristicBot]", self.later),
                    state.board,
                    state.rules.dice,
                    state.rules.balanced_blitz,
                )
            start_pos, events = playout.play_events(
                state, self.prepared, rng, sample_battles=spec.sample_battles, record_turns=spec.record_turns
            )
            self.finished.append((game, state.S, start_pos, events))
            return
        n = spec.n_players
        start = np.empty((2, state.board.n_territories), dtype=np.int64)
        rows: list[list[int]] = []

        def setup_done(s: GameState) -> None:
            start[0], start[1] = s.owner, s.armies

        def turn_done(s: GameState, turn: int) -> None:
            owner = s.owner.astype(np.int64)
            forces = len(s.pool)
            held = [len(s.continents_held(p)) for p in range(n)]
            territories = np.bincount(owner, minlength=forces)[:n]
            armies = np.bincount(owner, weights=s.armies, minlength=forces)[:n].astype(np.int64)
            rows.extend([playout.EV_TURN, turn, p, territories[p], armies[p], held[p]] for p in range(n))

        play_game(
            state,
            spec.bots,
            rng,
            sample_battles=spec.sample_battles,
            check=spec.check,
            on_turn=turn_done if spec.record_turns else None,
            on_setup_done=setup_done,
        )
        earlier = self.start if spec.start is not None else None
        new_elims = state.eliminations[len(earlier.eliminations) :] if earlier is not None else state.eliminations
        new_trades = state.trades[len(earlier.trades) :] if earlier is not None else state.trades
        rows.extend([playout.EV_ELIMINATION, e.player, e.by, e.turn, 0, 0] for e in new_elims)
        rows.extend([playout.EV_TRADE, t.player, t.turn, t.value, 0, 0] for t in new_trades)
        self.finished.append((game, state.S, start, np.array(rows, dtype=np.int64).reshape(-1, 6)))

    def frames(self) -> dict[str, pd.DataFrame]:
        """The batch's tables, computed for all its games at once (ranks in :meth:`GameState.ranking`'s
        order)."""
        if not self.finished:
            return {name: empty_table(name) for name in TABLES}
        spec = self.spec
        n = spec.n_players
        done = self.finished
        G = len(done)
        game = np.array([d[0] for d in done], dtype=np.int64)
        Sx = np.stack([d[1] for d in done])
        spans = engine.layout(int(Sx[0, engine.N_TERRITORIES]), int(Sx[0, engine.N_CARDS]), n)
        (o, T), (a, _) = spans["owner"], spans["armies"]
        owner, armies = Sx[:, o : o + T], Sx[:, a : a + T]
        start = np.stack([d[2] for d in done])
        winner = Sx[:, engine.WINNER]
        # Events of every game with the game's index in front; a start position's earlier records first.
        prior: list[np.ndarray] = []
        if self.start is not None:
            prior = [np.array([playout.EV_ELIMINATION, e.player, e.by, e.turn, 0, 0]) for e in self.start.eliminations]
            prior += [np.array([playout.EV_TRADE, t.player, t.turn, t.value, 0, 0]) for t in self.start.trades]
        parts = []
        for i, (_, _, _, events) in enumerate(done):
            rows = np.concatenate([np.array(prior, dtype=np.int64).reshape(-1, 6), events]) if prior else events
            parts.append(np.column_stack([np.full(len(rows), i, dtype=np.int64), rows]))
        ev = np.concatenate(parts) if parts else np.zeros((0, 7), dtype=np.int64)
        kind = ev[:, 1]
        elim = ev[kind == playout.EV_ELIMINATION]
        trades = ev[kind == playout.EV_TRADE]
        elim_turn = np.full((G, n), -1, dtype=np.int64)
        elim_by = np.full((G, n), -1, dtype=np.int64)
        elim_turn[elim[:, 0], elim[:, 2]] = elim[:, 4]
        elim_by[elim[:, 0], elim[:, 2]] = elim[:, 3]
        seats = np.arange(n)
        mine = owner[:, None, :] == seats[None, :, None]
        mine0 = start[:, 0][:, None, :] == seats[None, :, None]
        final_t = mine.sum(axis=2)
        final_a = (mine * armies[:, None, :]).sum(axis=2)
        rank = ranks(winner, final_t, final_a, elim_turn).ravel()
        turns = ev[kind == playout.EV_TURN]
        columns: dict[str, dict[str, Any]] = {
            "games": {
                "game": game,
                "winner": _nullable(winner),
                "capped": winner < 0,
                "turns": Sx[:, engine.TURN],
                "rounds": Sx[:, engine.ROUND],
                "first_player": Sx[:, engine.FIRST_PLAYER],
            },
            "seats": {
                "game": np.repeat(game, n),
                "seat": np.tile(seats, G),
                "bot": list(spec.bot_names) * G,
                "rank": rank,
                "start_territories": mine0.sum(axis=2).ravel(),
                "start_armies": (mine0 * start[:, 1][:, None, :]).sum(axis=2).ravel(),
                "final_territories": final_t.ravel(),
                "final_armies": final_a.ravel(),
                "eliminated_turn": _nullable(elim_turn.ravel()),
                "eliminated_by": _nullable(elim_by.ravel()),
            },
            "eliminations": {"game": game[elim[:, 0]], "player": elim[:, 2], "by": elim[:, 3], "turn": elim[:, 4]},
            "trades": {"game": game[trades[:, 0]], "player": trades[:, 2], "turn": trades[:, 3], "value": trades[:, 4]},
            "starts": {
                "game": np.repeat(game, T),
                "territory": np.tile(np.arange(T), G),
                "owner": start[:, 0].ravel(),
                "armies": start[:, 1].ravel(),
            },
            "turns": {
                "game": game[turns[:, 0]],
                "turn": turns[:, 2],
                "seat": turns[:, 3],
                "territories": turns[:, 4],
                "armies": turns[:, 5],
                "continents": turns[:, 6],
            },
        }
        self.finished = []
        return {
            name: pd.DataFrame({c: pd.array(columns[name][c], dtype=t) for c, t in SCHEMA[name].items()})
            for name in TABLES
        }


def _nullable(values: np.ndarray) -> np.ndarray:
    """Whole numbers with -1 for missing, as a float array with NaN (pandas' nullable types read it)."""
    return np.where(values < 0, np.nan, values)


def _cap(limit: int | None, cap: int) -> int:
    return cap if limit is None else min(limit, cap)


#: Column types of each table, so that empty tables and every batch agree.
SCHEMA: dict[str, dict[str, str]] = {
    "games": {
        "game": "int64",
        "winner": "Int8",
        "capped": "bool",
        "turns": "int32",
        "rounds": "int32",
        "first_player": "int8",
    },
    "seats": {
        "game": "int64",
        "seat": "int8",
        "bot": "string",
        "rank": "int8",
        "start_territories": "int16",
        "start_armies": "int32",
        "final_territories": "int16",
        "final_armies": "int32",
        "eliminated_turn": "Int32",
        "eliminated_by": "Int8",
    },
    "eliminations": {"game": "int64", "player": "int8", "by": "int8", "turn": "int32"},
    "trades": {"game": "int64", "player": "int8", "turn": "int32", "value": "int32"},
    "starts": {"game": "int64", "territory": "int16", "owner": "int8", "armies": "int32"},
    "turns": {
        "game": "int64",
        "turn": "int32",
        "seat": "int8",
        "territories": "int16",
        "armies": "int32",
        "continents": "int8",
    },
}


def empty_table(name: str) -> pd.DataFrame:
    """Table ``name`` with no rows and its columns' types."""
    return pd.DataFrame({c: pd.array([], dtype=t) for c, t in SCHEMA[name].items()})


def run_batch(spec: RunSpec, batch: int, on_game: Callable[[], object] | None = None) -> dict[str, pd.DataFrame]:
    """Play the games of one batch; the unit of work of every backend and of the checkpoint. ``on_game`` is called
    after each game (a progress bar's tick, where the batch is played in this process)."""
    recorder = _Recorder(spec)
    # A game allocates an action object per move and makes no reference cycles; the cyclic
    # collector's passes over the growing histories cost about a tenth of the run.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for game in spec.batch_games(batch):
            recorder.game(game, game_rng(spec.seed, game))
            if on_game is not None:
                on_game()
    finally:
        if was_enabled:
            gc.enable()
    return recorder.frames()
