"""Training the win-chance model: positions from self-play, labelled by the default bot's play, and the fit.

The model estimates what the project's rollouts measure: each seat's chance to win when the default bot
plays every seat from the position on. So the positions come from several populations of bots (the
spread of positions real tables reach), and each is labelled by one game played on from it by the
default bot in every seat: the winner of that game (in a table of default bots, the game's own end).

Game ``g`` of a run with seed ``s`` draws every random number from ``SeedSequence(s, spawn_key=(g, k))``
(``k`` = 0 for the game, 1 for the choice of positions, 2 + ``i`` for the play-on from its ``i``-th
position), so a dataset is the same whatever the order it is made in, and games held out by seed
never share a random number with the training games.

The fit needs the ``train`` extra (scikit-learn): a multi-layer perceptron whose weights are written
to a file that :mod:`analyzer.value.model` reads with numpy alone.
"""

from __future__ import annotations

import json
import platform
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.bots.registry import make_bot
from analyzer.errors import SimulationError
from analyzer.extras import require
from analyzer.game.board import classic_board
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.game.vocabulary import PLAYER_COUNTS
from analyzer.integers import whole_number
from analyzer.sim import playout
from analyzer.sim.runs import DEFAULT_MAX_ROUNDS
from analyzer.value.features import columns, position_rows
from analyzer.value.model import MODEL_FORMAT, ValueModel

#: The populations of the training positions: a table's seats are drawn from the bots named (one name:
#: that bot in every seat).
POPULATIONS: dict[str, tuple[str, ...]] = {
    "default": ("default",),
    "planner": ("planner",),
    "classic": ("classic",),
    "hunter": ("hunter",),
    "mixed": ("default", "planner", "classic", "hunter"),
}
#: Tables the model never trains on, for its held-out checks: bots no training table has.
UNSEEN: dict[str, tuple[str, ...]] = {"unseen mix": ("greedy", "cautious", "default")}
#: The chance that a player-turn's start is kept as a position (about a dozen a game).
KEEP = 0.12
#: The bot whose play the model estimates.
LABEL_BOT = "default"


@dataclass(frozen=True)
class Positions:
    """Rows of positions (one per seat still in the game) with what became of them.

    ``rows`` (float32, one row per seat, columns :func:`analyzer.value.features.columns`), ``seat``,
    ``position`` (a number per position, shared by its rows), ``game``, ``players``, ``population``
    (index into ``populations``) and ``won`` (1 for the seat that won the default bot's play-on, 0
    else). Positions whose play-on reached the round cap with no winner are left out.
    """

    rows: np.ndarray
    seat: np.ndarray
    position: np.ndarray
    game: np.ndarray
    players: np.ndarray
    population: np.ndarray
    won: np.ndarray
    populations: tuple[str, ...]
    states: list[str] | None = None

    def __len__(self) -> int:
        return int(self.rows.shape[0])

    @property
    def n_positions(self) -> int:
        return int(np.unique(self.position).size)


def _rng(seed: int, game: int, k: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(game, k)))


@lru_cache(maxsize=64)
def _prepared(names: tuple[str, ...]) -> playout.Prepared:
    board = classic_board()
    bots = [make_bot(n) for n in names]
    return playout.Prepared(bots, board, Rules().dice)  # type: ignore[arg-type]  # the registry's compiled bots


def _table(
    game: int, populations: dict[str, tuple[str, ...]], counts: Sequence[int], seed: int
) -> tuple[str, int, tuple[str, ...]]:
    """Game ``game``'s population, player count and seats: the populations and counts in turn."""
    names = list(populations)
    population = names[game % len(names)]
    n = counts[(game // len(names)) % len(counts)]
    pool = populations[population]
    rng = _rng(seed, game, 1)
    seats = (
        tuple(pool[0] for _ in range(n))
        if len(pool) == 1
        else tuple(pool[int(i)] for i in rng.integers(len(pool), size=n))
    )
    return population, n, seats


def play_positions(
    games: range,
    seed: int,
    *,
    populations: dict[str, tuple[str, ...]] = POPULATIONS,
    counts: Sequence[int] = tuple(PLAYER_COUNTS),
    keep: float = KEEP,
    keep_states: bool = False,
    on_game: Callable[[], None] | None = None,
) -> Positions:
    """Play ``games`` (numbers of a run with ``seed``) and keep about ``keep`` of their turn starts,
    each labelled by the default bot's play-on (see the module docstring). With ``keep_states`` each
    position's state is kept too (JSON, without history), for checks against rollouts.

    >>> data = play_positions(range(0, 25, 6), seed=3, keep=0.2)  # one game of each population and count
    >>> sorted(set(data.players.tolist())), bool((np.bincount(data.position, data.won) <= 1).all())
    ([2, 3, 4, 5, 6], True)
    """
    board = classic_board()
    rules = Rules(turn_limit=DEFAULT_MAX_ROUNDS)
    width = len(columns(board))
    blocks: list[np.ndarray] = []
    meta: list[tuple[int, int, int, int, int, int]] = []  # seat, position, game, players, population, won
    states: list[str] = []
    names = tuple(populations)
    position = 0
    for g in games:
        population, n, seats = _table(g, populations, counts, seed)
        rng = _rng(seed, g, 0)
        pick = _rng(seed, g, 1)
        state = GameState.new(n, rng, rules, board)
        prepared = _prepared(seats)
        playout.play_compiled(state, prepared, rng, until_turn=1)
        own: list[int] = []  # positions whose label is this game's own end
        kept: list[tuple[int, np.ndarray, np.ndarray, int]] = []
        k = 0
        while not state.is_terminal():
            if pick.random() < keep:
                rows = np.empty((n, width))
                seat = np.empty(n, dtype=np.int64)
                end = position_rows(state.S, state.C, rows, seat, 0)
                if all(s == LABEL_BOT for s in seats):
                    winner = -2  # known at the game's end
                    own.append(len(kept))
                else:
                    on = state.copy()
                    playout.play_events(on, _prepared((LABEL_BOT,) * n), _rng(seed, g, 2 + k), until_turn=None)
                    winner = -1 if on.winner is None else int(on.winner)
                kept.append((winner, rows[:end], seat[:end], position))
                if keep_states:
                    states.append(state.to_json(history=False))
                position += 1
                k += 1
            playout.play_compiled(state, prepared, rng, until_turn=state.turn + 1)
        final = -1 if state.winner is None else int(state.winner)
        for i in own:
            kept[i] = (final, *kept[i][1:])
        for winner, rows, seat, pos in kept:
            if winner < 0:
                continue
            blocks.append(rows)
            meta.extend((int(s), pos, g, n, names.index(population), int(s == winner)) for s in seat)
        if on_game is not None:
            on_game()
    m = np.array(meta, dtype=np.int64).reshape(-1, 6)
    return Positions(
        rows=np.concatenate(blocks).astype(np.float32) if blocks else np.empty((0, width), np.float32),
        seat=m[:, 0],
        position=m[:, 1],
        game=m[:, 2],
        players=m[:, 3],
        population=m[:, 4],
        won=m[:, 5].astype(np.int8),
        populations=names,
        states=states if keep_states else None,
    )


# ---------------------------------------------------------------------------------- the fit
#: The network's hidden layers.
HIDDEN = (64, 32)
#: Passes over the training rows. A fixed count: scikit-learn's early stopping watches a held-out tenth's
#: accuracy, which barely moves while the chances sharpen, and it stopped the fit after 11 to 19 passes. On
#: the rows of 160,000 games (seed 1), 30 passes came nearer 2,000 rollouts on the benchmark's 384 positions
#: than early stopping (6.19 points a seat against 6.57); on those of 40,000 they did not (6.93 against
#: 6.67): the longer fit needs the larger set.
EPOCHS = 30


def fit(data: Positions, *, seed: int = 0, hidden: tuple[int, ...] = HIDDEN, epochs: int = EPOCHS) -> ValueModel:
    """Fit the network on ``data`` (scikit-learn's ``MLPClassifier``, one row per seat, the seat's win
    as the target) for ``epochs`` passes over the rows."""
    MLPClassifier = require("sklearn.neural_network").MLPClassifier
    StandardScaler = require("sklearn.preprocessing").StandardScaler
    ConvergenceWarning = require("sklearn.exceptions").ConvergenceWarning
    if len(data) == 0:
        raise SimulationError("no positions to train on: play more games")
    scaler = StandardScaler().fit(data.rows)
    net = MLPClassifier(
        hidden_layer_sizes=hidden,
        alpha=1e-4,
        batch_size=min(512, len(data)),
        learning_rate_init=1e-3,
        max_iter=epochs,
        tol=0.0,
        n_iter_no_change=epochs,
        random_state=seed,
    )
    with warnings.catch_warnings():
        # Every pass is run by design: scikit-learn warns that the last did not converge.
        warnings.simplefilter("ignore", ConvergenceWarning)
        net.fit(scaler.transform(data.rows), data.won)
    scale = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
    return ValueModel(
        board=classic_board().name,
        columns=tuple(columns(classic_board())),
        mean=scaler.mean_.astype(np.float32),
        scale=scale.astype(np.float32),
        weights=tuple(w.astype(np.float32) for w in net.coefs_),
        biases=tuple(b.astype(np.float32) for b in net.intercepts_),
        card={},
    )


def train_value(
    games: int,
    seed: int,
    out: str | Path,
    *,
    held_out: int = 0,
    band_positions: int = 0,
    band_rollouts: int = 500,
    on_game: Callable[[], None] | None = None,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Play ``games`` games with ``seed``, fit the model and write it to ``out``; returns its card (what
    it was trained on, how long it took, and its log loss and Brier score on ``held_out`` games played
    with seed ``seed + 1``, which no training game shares). With ``band_positions``, the card also gets
    the model's error band (:func:`error_band`) on games of seed ``seed + 2``."""
    seed = whole_number(seed, "seed", 0, SimulationError)
    started = time.perf_counter()
    data = play_positions(range(games), seed, on_game=on_game)
    played = time.perf_counter() - started
    log(f"{games} games, {data.n_positions} positions, {len(data)} rows in {played:.0f} s")
    model = fit(data, seed=seed)
    card: dict[str, Any] = {
        "format": MODEL_FORMAT,
        "command": " ".join(
            [f"risk-analyzer train-value --games {games} --seed {seed} --out {Path(out).name}"]
            + ([f"--held-out {held_out}"] if held_out else [])
            + ([f"--band-positions {band_positions} --band-rollouts {band_rollouts}"] if band_positions else [])
        ),
        "games": games,
        "positions": data.n_positions,
        "rows": len(data),
        "seed": seed,
        "populations": {k: list(v) for k, v in POPULATIONS.items()},
        "label_bot": LABEL_BOT,
        "hidden": list(HIDDEN),
        "epochs": EPOCHS,
        "seconds_playing": round(played, 1),
        "seconds_total": round(time.perf_counter() - started, 1),
        "machine": f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}",
    }
    if held_out:
        test = play_positions(range(held_out), seed + 1)
        card["held_out"] = {"games": held_out, "seed": seed + 1, **outcome_scores(model, test)}
    if band_positions:
        card["band"] = error_band(model, band_positions, band_rollouts, seed + 2)
        card["band_check"] = {"positions_per_count": band_positions, "rollouts": band_rollouts, "seed": seed + 2}
    model = model.with_card(card)
    model.save(out)
    return card


def error_band(model: ValueModel, per_count: int, rollouts: int, seed: int) -> dict[str, float]:
    """The model's typical error against ``rollouts`` rollouts of the default bot, per player count: on
    ``per_count`` positions of held-out games (``seed``) at each count, 1.96 times the root mean square of
    the model's error per seat, less the rollouts' own sampling variance. The evaluator shows it as the
    model's band."""
    from analyzer.analysis.evaluator import rollout_winners

    bands: dict[str, float] = {}
    squares: list[float] = []
    for n in PLAYER_COUNTS:
        data = play_positions(range(4 * per_count), seed, counts=(n,), keep=0.1, keep_states=True)
        assert data.states is not None
        errors: list[float] = []
        noise: list[float] = []
        for text in data.states[:: max(1, len(data.states) // per_count)][:per_count]:
            state = GameState.from_json(text, trusted=True)
            winners = rollout_winners(state, rollouts, seed)
            counted = np.array([(winners == p).mean() for p in range(n)])
            p = model.chances(state)
            alive = p > 0
            errors.extend(((p - counted) ** 2)[alive])
            noise.extend((counted * (1 - counted) / rollouts)[alive])
        rms = float(np.sqrt(max(float(np.mean(errors) - np.mean(noise)), 0.0)))
        bands[str(n)] = round(1.96 * rms, 4)
        squares.append(rms**2)
    bands["all"] = round(1.96 * float(np.sqrt(np.mean(squares))), 4)
    return bands


def outcome_scores(model: ValueModel, data: Positions) -> dict[str, float]:
    """The model's log loss and Brier score against the outcomes of ``data``, per row (seat)."""
    p = model.predict_rows(data.rows, data.position)
    y = data.won.astype(float)
    eps = 1e-6
    return {
        "positions": data.n_positions,
        "log_loss": float(-np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))),
        "brier": float(np.mean((p - y) ** 2)),
    }


def card_text(card: dict[str, Any]) -> str:
    """A training card as the JSON committed under ``results/``."""
    return json.dumps(card, indent=2) + "\n"
