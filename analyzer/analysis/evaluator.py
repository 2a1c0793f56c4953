"""Every win chance the project shows: one evaluator, one policy.

A position's win chances estimate one thing: each seat's chance to win when the default bot
(:data:`ROLLOUT_BOT`) plays every seat from the position on. Three methods measure it:

* ``"model"``: the learned model (:mod:`analyzer.value`), in a millisecond, with the band of its
  typical error against rollouts on held-out games (from its training card);
* ``"truncated"``: the position played on ``rollouts`` times (default :data:`CUT_ROLLOUTS`) by the default
  bot in every seat for ``rounds`` rounds (default :data:`CUT_ROUNDS`), where the model values each
  rollout's end (1 for a seat that has won by then), less what the rollouts' battle luck explains
  (:func:`truncated_chances`), with 95% intervals that hold the model's typical error there too. The model's
  error shrinks with the rounds the bots play before it: on held-out positions these are 1.0 point a seat
  from 2,000 whole rollouts, the model alone 6.4 and 200 whole rollouts 1.3, at 15 to 56 ms a position (2 to 6
  players), about the time of 200 whole rollouts of a 4-player position (``results/bench/bench_value.txt``);
* ``"rollouts"``: the position played on ``rollouts`` times by the default bot in every seat, in compiled
  code, with 95% Wilson intervals.

Position ``j``'s truncated rollouts draw every random number one after another from
``SeedSequence(seed, spawn_key=(j,))``, and its whole rollout ``r`` from ``SeedSequence(seed, spawn_key=(j, r))``,
so the same seed gives the same figures in any process.

Where the model cannot value a position (another map, a missing or damaged model file) the evaluator
says so in one line (:attr:`Chances.note`) and counts rollouts instead. The strip, the Win chances
view, the review, the suggestions, the search, the command line and the notebooks all read
:func:`chances`.

>>> import numpy as np
>>> from analyzer.game.state import GameState
>>> state = GameState.random_start(3, np.random.default_rng(2))
>>> fast = chances(state)
>>> fast.method, round(float(fast.p.sum()), 6), len(fast.players)
('model', 1.0, 3)
>>> counted = chances(state, method="rollouts", rollouts=40, seed=1)
>>> counted.method, int(counted.wins.sum()) + counted.capped
('rollouts', 40)
>>> cut = chances(state, method="truncated", rollouts=16, rounds=2, seed=1)
>>> cut.method, round(float(cut.p.sum()), 6), bool(np.all(cut.low <= cut.p) and np.all(cut.p <= cut.high))
('truncated', 1.0, True)
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

from analyzer.bots.strategist import STRATEGIST_BOT, StrategistBot
from analyzer.errors import ModelError, SimulationError
from analyzer.game import face_down
from analyzer.game.board import Board
from analyzer.game.dice import DiceRules
from analyzer.game.engine import steps as engine
from analyzer.game.engine.layout import N_FORCES, N_PLAYERS
from analyzer.game.labels import player_names
from analyzer.game.state import GameState
from analyzer.game.vocabulary import GAME_OVER, SETUP_PHASES
from analyzer.integers import whole_number
from analyzer.limits import MAX_ROUNDS
from analyzer.sim import playout
from analyzer.sim.intervals import Z95, chance_table, controlled_mean_interval, mean_interval
from analyzer.value.model import ValueModel, shipped

#: The one policy of every rollout and of the model's labels: the default bot, in every seat.
ROLLOUT_BOT: StrategistBot = STRATEGIST_BOT
#: How the captions name it.
BOT_NAME = "the strategist (the default bot)"
#: The methods, as :func:`chances` takes them.
METHODS = ("model", "truncated", "rollouts")
#: Rollouts per position when counting is asked for without a number.
ROLLOUTS = 400
#: Truncated rollouts per position, and the rounds each plays before the model values its end, when asked for
#: without numbers. Chosen on 384 tuning positions of games the benchmark does not use (seeds 103 and 104, four
#: seeds of rollouts each; ``bench/bench_cut.py``, ``results/bench/bench_cut.txt``): 256 rollouts of four rounds
#: are 1.00 point a seat from 2,000 whole rollouts [0.90, 1.11], where 200 whole rollouts are 1.32 [1.18, 1.47]
#: and 64 of three rounds 1.58; a fifth round gained 0.04 for a fifth more time. They take 15 to 58 ms of CPU a
#: position on average at 2 to 6 players (124 ms the slowest 6-player one), where 64 of three took 4 to 11.
CUT_ROLLOUTS = 256
CUT_ROUNDS = 4
#: The model's own error where truncated rollouts stop, which the spread of their values does not show: one
#: standard deviation as a share of a seat's sqrt(p (1 - p)), by players (5 takes 6's), added to the intervals.
#: Fitted on the tuning positions above at the default budget: the least error with which the 95% intervals hold
#: the 2,000-rollout figure for 95% of the seats, where the rollouts' noise alone held it for 63 to 78% of them
#: by players (``results/bench/bench_cut.txt``); the benchmark's own positions check it
#: (``results/bench/bench_value.txt``).
CUT_ERROR = {2: 0.044, 3: 0.039, 4: 0.043, 5: 0.052, 6: 0.052}
#: Rounds a rollout may last past its position before it counts as a win for nobody (a stalemate).
ROLLOUT_ROUNDS = 300


@dataclass(frozen=True)
class Chances:
    """Each seat's chance to win a position: ``p`` with ``low`` .. ``high`` per seat.

    ``method`` is ``"model"``, ``"truncated"`` or ``"rollouts"``; for rollouts, ``wins`` per seat of
    ``rollouts``, of which ``capped`` reached the round cap with no winner (a win for nobody), and the bands
    are 95% Wilson intervals; for truncated rollouts (``rounds`` rounds each) the bands are 95% intervals of
    the mean less what their luck explains, with the model's typical error where they stop; for the model, the
    band is its typical error on held-out positions. ``note`` says why the model was not used where it was
    asked for ("" otherwise); ``assumed`` what the figures assume of face-down cards; ``seconds`` the
    estimate's own time.
    """

    method: str
    players: list[str]
    p: np.ndarray
    low: np.ndarray
    high: np.ndarray
    seconds: float
    rollouts: int = 0
    wins: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    capped: int = 0
    rounds: int = 0
    note: str = ""
    assumed: str = ""
    #: Who has won, in words, where the game is over: the figures are then certain, whatever the method.
    over: str = ""

    @property
    def caption(self) -> str:
        """How the figures were made, in words, for a view's caption."""
        if self.over:
            return self.over
        if self.method == "model":
            text = f"Win chances by {self.how} (±{100 * self.band:.0f} points, its typical error against rollouts on held-out games)."
        elif self.method == "truncated":
            text = f"Win chances by {self.how}; 95% intervals, the model's typical error there included."
        else:
            text = (
                f"Win chances by {self.how}, with 95% intervals; a rollout still running after {ROLLOUT_ROUNDS} more "
                "rounds counts as a win for nobody."
            )
        return " ".join(t for t in (text, self.note, self.assumed) if t)

    @property
    def how(self) -> str:
        """The method and the bot, in words: what a figure or a chart of these chances names."""
        if self.method == "model":
            return f"the learned model of the play of {BOT_NAME}"
        if self.method == "truncated":
            return (
                f"{self.rollouts:,} rollouts of {BOT_NAME} in every seat, each cut {self.rounds} rounds on and valued "
                "there by the learned model"
            )
        return f"{self.rollouts:,} rollouts of {BOT_NAME} in every seat"

    @property
    def band(self) -> float:
        """The largest half-width of the seats' bands."""
        return float(np.max((self.high - self.low) / 2)) if len(self.p) else 0.0

    def table(self) -> pd.DataFrame:
        """One row per seat: ``player``, ``name``, ``p_win``, ``ci_low``, ``ci_high``."""
        return pd.DataFrame(
            {
                "player": range(len(self.p)),
                "name": self.players,
                "p_win": self.p,
                "ci_low": self.low,
                "ci_high": self.high,
            }
        )

    def to_dict(self) -> dict[str, Any]:
        """The figures as JSON-ready values (the command line's ``--json``)."""
        return {
            "method": self.method,
            "players": list(self.players),
            "chances": [float(x) for x in self.p],
            "low": [float(x) for x in self.low],
            "high": [float(x) for x in self.high],
            "seconds": float(self.seconds),
            **({"rollouts": self.rollouts} if self.method != "model" else {}),
            **({"rounds": self.rounds} if self.method == "truncated" else {}),
            **({"note": self.over or self.note} if self.over or self.note else {}),
        }


def face_down_assumption(state: GameState, names: Sequence[str] | None = None, method: str = "truncated") -> str:
    """What win chances by ``method`` assume of the face-down cards, in words ("" if none is face down): the model
    reads how many each player holds, rollouts draw them, truncated rollouts do both.

    ``names``: the players' names (default: those kept in ``state``); a position taken out of a game's history
    has none of its own, and its players are still called by their names.

    >>> owner = [0] * 14 + [1] * 14 + [2] * 14
    >>> state = GameState.from_position(owner, [3] * 42, hands={1: ["?", "?"], 2: ["?"]})
    >>> face_down_assumption(state)
    'Face-down cards (Player 2 2, Player 3 1): the model reads how many each player holds; rollouts draw them at random from the 44 cards not yet seen, afresh in each rollout.'
    >>> face_down_assumption(state, method="rollouts")
    'Face-down cards (Player 2 2, Player 3 1): rollouts draw them at random from the 44 cards not yet seen, afresh in each rollout.'
    """
    counts = face_down.counts(state)
    if not any(counts):
        return ""
    names = player_names(state) if names is None else names
    held = ", ".join(f"{names[p]} {k}" for p, k in enumerate(counts) if k)
    read = "the model reads how many each player holds"
    drawn = f"rollouts draw them at random from the {len(face_down.unseen(state))} cards not yet seen, afresh in each rollout"
    said = {"model": [read], "rollouts": [drawn]}.get(method, [read, drawn])
    return f"Face-down cards ({held}): {'; '.join(said)}."


# ---------------------------------------------------------------------------------- rollouts
def rollout_rng(seed: int, j: int, r: int) -> np.random.Generator:
    """The generator of rollout ``r`` of position ``j``."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(j, r)))


def position_rng(seed: int, j: int) -> np.random.Generator:
    """The generator of position ``j``'s truncated rollouts, drawn from one after another."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(j,)))


def limited(state: GameState) -> GameState:
    """A copy of ``state`` whose game ends with no winner :data:`ROLLOUT_ROUNDS` rounds from now."""
    s = state.copy()
    limit = min(state.rules.turn_limit or MAX_ROUNDS, state.round + ROLLOUT_ROUNDS, MAX_ROUNDS)
    s.rules = dataclasses.replace(state.rules, turn_limit=limit)
    return s


@lru_cache(maxsize=16)
def prepared(n_players: int, board: Board, dice: DiceRules, balanced_blitz: bool) -> playout.Prepared:
    """The rollout bot in every seat, made once for a game size, board and dice."""
    return playout.Prepared([ROLLOUT_BOT] * n_players, board, dice, balanced_blitz)


def prepared_for(state: GameState) -> playout.Prepared:
    return prepared(state.n_players, state.board, state.rules.dice, state.rules.balanced_blitz)


def play_on(s: GameState, rng: np.random.Generator, bots: playout.Prepared, luck: np.ndarray | None = None) -> int:
    """Play ``s`` to its end (its pending dice or draw first); the winner, or -1 for none. ``luck`` (one value
    per force) gains the battles' luck, as :func:`~analyzer.sim.playout.play_events` counts it."""
    while s.is_chance():
        s.apply_chance(rng)
    if not s.is_terminal():
        playout.play_events(s, bots, rng, luck=luck)
    return -1 if s.winner is None else int(s.winner)


def rollout_winners(state: GameState, rollouts: int, seed: int = 0, j: int = 0) -> np.ndarray:
    """The winner (-1 for none) of each of ``rollouts`` rollouts ``(j, r)`` of ``state`` by the rollout bot;
    face-down cards are drawn afresh in each."""
    start = limited(state)
    bots = prepared_for(start)
    out = np.empty(rollouts, dtype=np.int64)
    dealer = face_down.Dealer(start)
    for r in range(rollouts):
        rng = rollout_rng(seed, j, r)
        s = dealer.game(rng)
        out[r] = play_on(s, rng, bots)
    return out


def played_to(
    s: GameState, rng: np.random.Generator, bots: playout.Prepared, horizon: int, luck: np.ndarray | None = None
) -> GameState:
    """``s`` played on by ``bots`` (its pending dice or draw first) up to the start of player-turn ``horizon``
    or the game's end, whichever comes first; ``luck`` as :func:`play_on`'s."""
    while s.is_chance():
        s.apply_chance(rng)
    if not s.is_terminal() and s.turn < horizon:
        playout.play_events(s, bots, rng, until_turn=horizon, luck=luck)
    return s


def valued(ends: np.ndarray, C: np.ndarray, board: Board, model: ValueModel) -> np.ndarray:
    """Each seat's value at each of ``ends`` (state vectors, one a row, of one game size; ends x seats): 1 for
    the winner of a game won, 0 for all in a game ended with no winner, the model's chances (valued together)
    for a game going on."""
    out = np.zeros((len(ends), int(ends[0, N_PLAYERS]) if len(ends) else 0))
    over = ends[:, engine.PHASE] == GAME_OVER
    won = np.flatnonzero(over & (ends[:, engine.WINNER] >= 0))
    out[won, ends[won, engine.WINNER]] = 1.0
    if not over.all():
        out[~over] = model.batch(ends[~over], C, board)
    return out


def truncated_ends(
    state: GameState, rollouts: int, rounds: int, seed: int, j: int = 0
) -> tuple[GameState, np.ndarray, np.ndarray]:
    """The ends (state vectors, rollouts x state) of ``rollouts`` rollouts of ``state`` by the rollout bot, each
    cut ``rounds`` rounds on (a round: a turn of each seat still in the game), with the game they belong to
    (``state`` with the rollouts' round cap) and each rollout's luck (rollouts x seats): the armies each seat kept
    in its battles beyond their expectations, whose mean is 0. They draw one after another from
    :func:`position_rng` ``(seed, j)``, in one compiled call: a call from Python for each rollout would add
    about 0.1 ms to its 0.13 (15 ms a 4-player position at 64 rollouts of four rounds, against 9)."""
    start = limited(state)
    rng = position_rng(seed, j)
    if start.is_chance():
        # Each rollout its own guess at the face-down cards and its own pending roll or draw (the rules' steps).
        dealer = face_down.Dealer(start)
        games = [dealer.game(rng) for _ in range(rollouts)]
        for s in games:
            while s.is_chance():
                s.apply_chance(rng)
        ends = np.stack([s.S for s in games])
    elif start.face_down:
        ends = face_down.determinized_rows(start, rng, rollouts)
    else:
        ends = np.tile(start.S, (rollouts, 1))
    luck = np.zeros((rollouts, int(start.S[N_FORCES])))
    playout.play_each(start, ends, prepared_for(start), rng, until_turn=cut_horizon(start, rounds), luck=luck)
    return start, ends, luck[:, : start.n_players]


def truncated_values(
    state: GameState, rollouts: int, rounds: int, seed: int, model: ValueModel, j: int = 0
) -> np.ndarray:
    """Each seat's value (rollouts x seats) at the end of each of :func:`truncated_ends`, by :func:`valued`."""
    start, ends, _ = truncated_ends(state, rollouts, rounds, seed, j)
    return valued(ends, start.C, start.board, model)


def truncated_chances(
    state: GameState, rollouts: int, rounds: int, seed: int, model: ValueModel, j: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each seat's chance by truncated rollouts, with its 95% interval: the mean of their values corrected by
    their battles' luck (:func:`seat_chances`).

    The dice move a rollout's value, and the armies they left each seat beyond expectation say part of how:
    taking out the part that luck, whose mean is known to be 0, explains leaves the same estimate with less
    noise. On 96 held-out positions (12 seeds each, against 2,000 whole rollouts) it took 0.38 points a seat
    off the error at 2 players and 0.14 at 3, and nothing measurable at 4 and 6, where one seat's armies say
    less of who wins. The intervals add the model's typical error where the rollouts stop (:data:`CUT_ERROR`)."""
    start, ends, luck = truncated_ends(state, rollouts, rounds, seed, j)
    return seat_chances(valued(ends, start.C, start.board, model), luck, CUT_ERROR[state.n_players])


def seat_chances(
    values: np.ndarray, luck: np.ndarray | None = None, error: float = 0.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each seat's mean of ``values`` (rollouts x seats) with its 95% normal interval, within 0 to 1; with the
    rollouts' ``luck`` (rollouts x seats, mean 0), the mean less what the luck explains
    (:func:`~analyzer.sim.intervals.controlled_mean_interval`), still summing to what the values' mean sums to.
    ``error``: a systematic error of the values (one standard deviation, as a share of sqrt(p (1 - p))) that the
    interval adds to their noise.

    >>> values = np.array([[0.4, 0.6], [0.6, 0.4]] * 8)
    >>> [[round(float(x), 3) for x in band] for band in seat_chances(values)]
    [[0.5, 0.5], [0.449, 0.449], [0.551, 0.551]]
    >>> [[round(float(x), 3) for x in band] for band in seat_chances(values, error=0.1)]
    [[0.5, 0.5], [0.39, 0.39], [0.61, 0.61]]
    """
    if luck is None:
        p, low, high = mean_interval(values)
    else:
        p, low, high = controlled_mean_interval(values, luck)
        kept = np.clip(p, 0.0, 1.0)
        if kept.sum() > 0:
            p = kept * (values.mean(axis=0).sum() / kept.sum())
        low, high = np.minimum(low, p), np.maximum(high, p)
    if error:
        share = np.clip(p, 0.0, 1.0)
        half = np.sqrt(((high - low) / 2) ** 2 + (Z95 * error) ** 2 * share * (1 - share))
        low, high = p - half, p + half
    return p, np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0)


def cut_horizon(state: GameState, rounds: int = CUT_ROUNDS) -> int:
    """The player-turn at which truncated rollouts of ``state`` stop: ``rounds`` turns of each seat still in."""
    return int(state.turn) + rounds * int(np.sum(state.alive))


# ---------------------------------------------------------------------------------- the model
def model_for(state: GameState, model: ValueModel | None = None) -> tuple[ValueModel | None, str]:
    """The model that values ``state`` and "", or None and the one line that says why there is none."""
    try:
        m = model if model is not None else shipped()
        m.check(state.board)
    except ModelError as exc:
        return None, f"No learned model here ({exc}): rollouts instead."
    return m, ""


def model_band(model: ValueModel, n_players: int) -> float:
    """The model's typical error (95%) against rollouts at ``n_players``, from its training card."""
    bands = model.card.get("band", {})
    return float(bands.get(str(n_players), bands.get("all", 0.05)))


def chances(
    state: GameState,
    method: str = "model",
    *,
    rollouts: int | None = None,
    rounds: int = CUT_ROUNDS,
    seed: int = 0,
    model: ValueModel | None = None,
) -> Chances:
    """Each seat's chance to win ``state`` by ``method`` (see the module docstring). ``rollouts`` defaults to
    :data:`CUT_ROLLOUTS` for truncated rollouts and :data:`ROLLOUTS` for whole ones."""
    if method not in METHODS:
        raise SimulationError(f"method {method!r}: expected one of {', '.join(METHODS)}")
    if rollouts is None:
        rollouts = CUT_ROLLOUTS if method == "truncated" else ROLLOUTS
    rollouts = whole_number(rollouts, "rollouts", 2, SimulationError)  # two at least, for an interval
    rounds = whole_number(rounds, "rounds", 1, SimulationError)
    seed = whole_number(seed, "seed", 0, SimulationError)
    started = time.perf_counter()
    names = player_names(state, neutral=False)
    if state.winner is not None:
        p = np.zeros(state.n_players)
        p[state.winner] = 1.0
        over = f"The game is over: {names[state.winner]} has won."
        return Chances(method, names, p, p.copy(), p.copy(), time.perf_counter() - started, over=over)
    note = ""
    if int(state.phase) in SETUP_PHASES and method != "rollouts":
        # The model learned from positions past the setup, and the truncated rollouts count rounds from there.
        note = "The game is still in its setup, which the learned model does not read: rollouts instead."
    elif method in ("model", "truncated"):
        m, note = model_for(state, model)
        if m is not None and method == "truncated" and not state.is_terminal():
            p, low, high = truncated_chances(state, rollouts, rounds, seed, m)
            return Chances(
                "truncated",
                names,
                p,
                low,
                high,
                time.perf_counter() - started,
                rollouts=rollouts,
                rounds=rounds,
                assumed=face_down_assumption(state, method="truncated"),
            )
        if m is not None and not state.is_terminal():
            p = m.chances(state)
            band = model_band(m, state.n_players)
            alive = p > 0
            low = np.where(alive, np.clip(p - band, 0.0, 1.0), 0.0)
            high = np.where(alive, np.clip(p + band, 0.0, 1.0), 0.0)
            assumed = face_down_assumption(state, method="model")
            return Chances("model", names, p, low, high, time.perf_counter() - started, assumed=assumed)
        if m is not None:  # a game ended with no winner (the round cap): the rollouts say so
            note = ""
    winners = rollout_winners(state, rollouts, seed)
    wins = np.array([int((winners == p).sum()) for p in range(state.n_players)])
    table = chance_table(wins.tolist(), rollouts)
    return Chances(
        "rollouts",
        names,
        table["p_win"].to_numpy(),
        table["ci_low"].to_numpy(),
        table["ci_high"].to_numpy(),
        time.perf_counter() - started,
        rollouts=rollouts,
        wins=wins,
        capped=int((winners < 0).sum()),
        note=note,
        assumed=face_down_assumption(state, method="rollouts"),
    )


#: The front door's name for :func:`chances` (``analyzer.win_chances``).
win_chances = chances

__all__ = [
    "BOT_NAME",
    "CUT_ERROR",
    "CUT_ROLLOUTS",
    "CUT_ROUNDS",
    "Chances",
    "METHODS",
    "ROLLOUTS",
    "ROLLOUT_BOT",
    "chances",
    "rollout_winners",
    "truncated_chances",
    "truncated_values",
    "win_chances",
]
