"""Replaying the opening of simulated games, to read what the simulator does not record.

The simulator plays game ``i`` from its own generator,
:func:`analyzer.sim.runs.game_rng` ``(seed, i)``, and records the position
when the first turn begins and, with ``record_turns``, each seat's
territories and armies after every turn. The studies also need the order of
the claims in the draft and which continents each seat holds; they replay
each game's first moves with the same generator and bots, and check the
replay against the simulator's records, so that a replay that has drifted
from the real game is an error, never a silent mislabel.

>>> from analyzer.sim.simulate import simulate
>>> result = simulate(3, "default", n_games=2, seed=4, progress=False)
>>> replay = Replay.of(result, "default")
>>> picks = replay.draft(0)
>>> len(picks), picks[0][0] == int(result.games["first_player"][0])
(42, True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from analyzer.bots.base import Bot
from analyzer.errors import StudyError
from analyzer.game.board import Board, classic_board
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.sim.play import play_game
from analyzer.sim.result import SimulationResult
from analyzer.sim.runs import game_rng, resolve_bots


@dataclass(frozen=True)
class Snapshot:
    """The board at the end of a round: ``turn`` is the last player-turn of round ``round``."""

    round: int
    turn: int
    owner: np.ndarray
    armies: np.ndarray


@dataclass(frozen=True)
class Replay:
    """What it takes to replay the games of one simulated run."""

    n_players: int
    bots: tuple[Bot, ...]
    rules: Rules
    board: Board
    seed: int
    max_rounds: int
    sample_battles: bool

    @classmethod
    def of(cls, result: SimulationResult, bots: Sequence[Bot | str] | str) -> Replay:
        """The replay of ``result``, whose games ``bots`` played (the same objects or names as given
        to :func:`~analyzer.sim.simulate.simulate`)."""
        params = result.params
        if not params:
            raise StudyError(
                "this result carries no run parameters (was it loaded from files?); replay needs the run's own result"
            )
        if params.get("start") is not None:
            raise StudyError("the games of this run started from a saved position; they have no opening to replay")
        n = int(params["n_players"])
        # Other bots are caught where it matters: their replay drifts from the recorded game.
        objects, _ = resolve_bots(bots, n)
        board = classic_board() if params["board"] is None else Board.from_dict(params["board"], "the run's board")
        return cls(
            n_players=n,
            bots=objects,
            rules=Rules.from_dict(params["rules"]),
            board=board,
            seed=int(params["seed"]),
            max_rounds=int(params["max_rounds"]),
            sample_battles=bool(params["sample_battles"]),
        )

    def _new(self, game: int, turn_limit: int) -> tuple[GameState, np.random.Generator]:
        rng = game_rng(self.seed, game)
        limit = min(turn_limit, self.max_rounds, self.rules.turn_limit or turn_limit)
        return GameState.new(self.n_players, rng, dataclasses.replace(self.rules, turn_limit=limit), self.board), rng

    def draft(self, game: int) -> list[tuple[int, int]]:
        """The claims of game ``game``'s draft in order, as ``(seat, territory)``; empty for a dealt start."""
        state, rng = self._new(game, self.max_rounds)
        picks = []
        while state.phase == Phase.SETUP_CLAIM:
            action = self.bots[state.current_player].choose(state, rng)
            picks.append((state.player, int(action.territory)))  # type: ignore[union-attr]
            state.apply_unchecked(action)  # type: ignore[arg-type]
        return picks

    def rounds(self, game: int, last_round: int) -> list[Snapshot]:
        """The board at the end of each of game ``game``'s rounds up to ``last_round`` (fewer if it ended sooner)."""
        state, rng = self._new(game, last_round)
        snapshots: list[Snapshot] = []
        current = [1]

        def turn_done(s: GameState, turn: int) -> None:
            # The first turn of a new round has just begun: the round before it is complete.
            if s.round > current[0]:
                snapshots.append(Snapshot(current[0], turn, s.owner.copy(), s.armies.copy()))
                current[0] = s.round

        play_game(state, self.bots, rng, sample_battles=self.sample_battles, on_turn=turn_done)
        if state.winner is None and state.round == last_round and (not snapshots or snapshots[-1].round < last_round):
            snapshots.append(Snapshot(last_round, state.turn, state.owner.copy(), state.armies.copy()))
        return snapshots
