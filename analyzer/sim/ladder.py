"""A ladder: every bot against every other, on the same seeds, rated on the Elo scale.

Each pairing of two bots plays ``games`` games per seating on the same seeds
(game ``i`` of every pairing and seating draws from the same generator, see
:func:`analyzer.sim.runs.game_rng`), with the seats rotated: in an
``n``-player game the two bots alternate round the table (A, B, A, B, ...;
A, B, A for three), and every distinct rotation of that seating is played,
with the mirror image of each (B, A, B for three), so each bot sits in each seat equally
often, on the same deals. A game counts
as a win for the bot whose seat won it, and as half a win each way if it was
capped with no winner: pairwise win/loss, the one result every player count
has.

The ratings are a Bradley–Terry fit (:func:`fit_ratings`): the probability
that ``i`` beats ``j`` is ``1 / (1 + 10 ** ((r_j - r_i) / 400))``, so a 76%
score is a gap of about 200 points, as in Elo's scale. The ratings are
anchored at a mean of 0, and each pairing carries one virtual drawn game (a
half win each way) so that a bot that never loses still has a finite rating.
The intervals are percentiles of the ratings refitted to bootstrap resamples
of each pairing's games (seeded, so the whole table is reproducible). The
virtual drawn game is one of the games resampled: a pairing whose few games all
went one way would otherwise give the same games in every resample, and an
interval of no width.

>>> table = fit_ratings(["a", "b"], np.array([[0.0, 760.0], [240.0, 0.0]]))
>>> round(float(table.loc["a", "rating"] - table.loc["b", "rating"]))
200
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analyzer.bots.base import Bot
from analyzer.bots.registry import BOTS, make_bot
from analyzer.errors import SimulationError
from analyzer.game.rules import Rules
from analyzer.sim.checkpoints import TABLES
from analyzer.sim.intervals import wilson_interval
from analyzer.sim.result import SimulationResult
from analyzer.sim.simulate import simulate

#: Elo's scale: a gap of 400 points is odds of 10 to 1.
ELO_SCALE = 400.0 / np.log(10.0)
#: Bootstrap resamples for the rating intervals.
BOOTSTRAP = 1000


# ---------------------------------------------------------------------------------- the fit
def _bradley_terry(wins: np.ndarray, prior: float = 0.5, iterations: int = 10_000, tol: float = 1e-12) -> np.ndarray:
    """Strengths (natural-log scale, mean 0) maximising the Bradley–Terry likelihood of ``wins[i, j]``
    (i's wins over j), with ``prior`` virtual wins each way for every pair that played; Hunter's (2004)
    minorisation-maximisation iteration, which converges for any connected set of pairings."""
    w = np.asarray(wins, dtype=float)
    played = (w + w.T) > 0
    w = w + prior * played
    games = w + w.T
    total = w.sum(axis=1)
    p = np.ones(len(w))
    for _ in range(iterations):
        denom = (games / (p[:, None] + p[None, :])).sum(axis=1)
        new = total / denom
        new /= np.exp(np.log(new).mean())
        if np.max(np.abs(new - p)) < tol:
            p = new
            break
        p = new
    r = np.log(p)
    return r - r.mean()


def fit_ratings(
    names: Sequence[str],
    wins: np.ndarray,
    *,
    outcomes: Mapping[tuple[int, int], np.ndarray] | None = None,
    bootstrap: int = BOOTSTRAP,
    seed: int = 0,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Elo-scale ratings of ``names`` from ``wins[i, j]``, i's wins (halves for draws) over j.

    With ``outcomes`` (each pairing's per-game scores for the first bot: 1, 0.5 or 0), the
    ``ci_low``/``ci_high`` columns are bootstrap percentile intervals; without, they are NaN.
    Returns one row per bot, indexed by name: ``rating``, ``ci_low``, ``ci_high``, ``games``,
    ``score`` (its share of the points of its games).

    >>> t = fit_ratings(["x", "y", "z"], np.array([[0, 50, 50], [50, 0, 50], [50, 50, 0]]))
    >>> t["rating"].round(6).tolist()
    [0.0, 0.0, 0.0]
    """
    wins = np.asarray(wins, dtype=float)
    k = len(names)
    if wins.shape != (k, k):
        raise SimulationError(f"wins must be a {k} x {k} table for {k} bots, got shape {wins.shape}")
    rating = ELO_SCALE * _bradley_terry(wins)
    low = np.full(k, np.nan)
    high = np.full(k, np.nan)
    if outcomes is not None and bootstrap > 0:
        rng = np.random.default_rng(seed)
        draws = np.empty((bootstrap, k))
        pairs = sorted(outcomes)
        played = {pair: np.append(np.asarray(outcomes[pair], dtype=float), 0.5) for pair in pairs}
        for b in range(bootstrap):
            resampled = np.zeros((k, k))
            for i, j in pairs:
                scores = played[(i, j)]
                s = scores[rng.integers(0, len(scores), len(scores))].sum()
                resampled[i, j] += s
                resampled[j, i] += len(scores) - s
            draws[b] = ELO_SCALE * _bradley_terry(resampled)
        tail = (1 - confidence) / 2
        low, high = np.quantile(draws, [tail, 1 - tail], axis=0)
    games = wins + wins.T
    return pd.DataFrame(
        {
            "rating": rating,
            "ci_low": low,
            "ci_high": high,
            "games": games.sum(axis=1).round().astype(int),
            "score": wins.sum(axis=1) / np.maximum(games.sum(axis=1), 1),
        },
        index=pd.Index(list(names), name="bot"),
    )


# ---------------------------------------------------------------------------------- the games
def seatings(n_players: int) -> list[tuple[int, ...]]:
    """The distinct rotations of the alternating seating and of its mirror image (0 = the pairing's
    first bot, 1 = its second): every bot sits in every seat equally often, also round an odd table.

    >>> seatings(2)
    [(0, 1), (1, 0)]
    >>> seatings(3)
    [(0, 1, 0), (1, 0, 0), (0, 0, 1), (1, 0, 1), (0, 1, 1), (1, 1, 0)]
    """
    base = tuple(i % 2 for i in range(n_players))
    out: list[tuple[int, ...]] = []
    for seating in (base, tuple(1 - s for s in base)):
        for r in range(n_players):
            rotated = seating[r:] + seating[:r]
            if rotated not in out:
                out.append(rotated)
    return out


@dataclass(frozen=True)
class Ladder:
    """A ladder's results: ``ratings`` (see :func:`fit_ratings`, best first), ``pairings`` (one row per
    pair: ``bot``, ``opponent``, ``games``, ``score`` with a Wilson ``ci_low``/``ci_high`` and the
    Elo gap it implies) and the games of every pairing as one :class:`SimulationResult` (game ids
    numbered on across pairings and seatings; ``seats.bot`` names each seat's bot)."""

    ratings: pd.DataFrame
    pairings: pd.DataFrame
    result: SimulationResult
    params: dict[str, Any]


def ladder(
    bots: Sequence[str] | Mapping[str, Bot | str] | None = None,
    *,
    n_players: int = 2,
    games: int = 200,
    seed: int = 0,
    rules: Rules | None = None,
    max_rounds: int | None = None,
    workers: int = 1,
    bootstrap: int = BOOTSTRAP,
    confidence: float = 0.95,
    progress: bool = False,
    make: Callable[[str], Bot] = make_bot,
) -> Ladder:
    """Play every pairing of ``bots`` (names of :data:`~analyzer.bots.BOTS` or ``module:Class``, or a
    mapping of labels to bots or names; by default every registered bot, aliases once) and rate them.

    ``games`` games per seating of each pairing (see :func:`seatings`), all pairings on the same
    ``seed``; the other options are :func:`~analyzer.sim.simulate.simulate`'s. ``make`` turns a name
    into its bot: a registry that knows more players than the bots' own, such as
    :func:`analyzer.analysis.players.make_player` (which names the searching player ``search``).
    """
    labelled = _labelled(bots, make)
    if len(labelled) < 2:
        raise SimulationError(f"a ladder needs at least two bots, got {list(labelled)}")
    names = list(labelled)
    k = len(names)
    wins = np.zeros((k, k))
    outcomes: dict[tuple[int, int], np.ndarray] = {}
    parts: list[SimulationResult] = []
    offset = 0
    extra: dict[str, Any] = {} if max_rounds is None else {"max_rounds": max_rounds}
    for i, j in itertools.combinations(range(k), 2):
        scores = []
        for seating in seatings(n_players):
            seats = [labelled[names[i] if s == 0 else names[j]] for s in seating]
            r = simulate(n_players, seats, games, seed, rules=rules, workers=workers, progress=progress, **extra)
            r = _relabel(r, [names[i] if s == 0 else names[j] for s in seating], offset)
            offset += games
            parts.append(r)
            winner = r.games["winner"].to_numpy(dtype=float, na_value=-1.0)
            seat_of_first = np.array([s == 0 for s in seating])
            score = np.where(winner < 0, 0.5, seat_of_first[np.maximum(winner, 0).astype(int)].astype(float))
            scores.append(score)
        s = np.concatenate(scores)
        outcomes[(i, j)] = s
        wins[i, j] += s.sum()
        wins[j, i] += len(s) - s.sum()
    ratings = fit_ratings(names, wins, outcomes=outcomes, bootstrap=bootstrap, seed=seed, confidence=confidence)
    result = SimulationResult(
        **{name: pd.concat([getattr(p, name) for p in parts], ignore_index=True) for name in TABLES}
    )
    params = {"bots": names, "n_players": n_players, "games": games, "seed": seed, "seatings": len(seatings(n_players))}
    result = replace(result, params=parts[0].params | {"ladder": params})
    return Ladder(
        ratings.sort_values("rating", ascending=False), _pairings(names, outcomes, confidence), result, params
    )


def _labelled(
    bots: Sequence[str] | Mapping[str, Bot | str] | None, make: Callable[[str], Bot] = make_bot
) -> dict[str, Bot | str]:
    if bots is None:
        # Aliases (``heuristic`` is ``default``) would play themselves: keep the first name of each bot.
        seen: dict[str, Bot | str] = {}
        made: list[object] = []
        for name in BOTS:
            bot = make_bot(name)
            if not any(bot is m or bot == m for m in made):
                made.append(bot)
                seen[name] = name
        return seen
    if isinstance(bots, Mapping):
        return {label: make(bot) if isinstance(bot, str) else bot for label, bot in bots.items()}
    if isinstance(bots, str):
        bots = bots.split(",")
    names = [b.strip() for b in bots]
    if len(set(names)) != len(names):
        raise SimulationError(f"each bot plays the ladder once; {names} names one twice")
    # An unknown name fails here, before any game is played.
    return {name: make(name) for name in names}


def _relabel(r: SimulationResult, labels: list[str], offset: int) -> SimulationResult:
    """The run's tables with each seat's bot label and the game ids moved on by ``offset``."""
    frames = {}
    for name in TABLES:
        frame = getattr(r, name).copy()
        frame["game"] = frame["game"] + offset
        frames[name] = frame
    frames["seats"]["bot"] = frames["seats"]["seat"].map(dict(enumerate(labels))).astype(str)
    return SimulationResult(
        **frames, params=r.params, seconds=r.seconds, games_played=r.games_played, turns_played=r.turns_played
    )


def _pairings(names: list[str], outcomes: Mapping[tuple[int, int], np.ndarray], confidence: float) -> pd.DataFrame:
    rows = []
    for (i, j), s in sorted(outcomes.items()):
        n = len(s)
        points = float(s.sum())
        # Wilson's interval on the points (a draw is half a win, so round to whole wins for the test).
        low, high = wilson_interval(int(round(points)), n, confidence)
        share = points / n
        rows.append(
            {
                "bot": names[i],
                "opponent": names[j],
                "games": n,
                "score": share,
                "ci_low": low,
                "ci_high": high,
                "elo_gap": _gap(share),
            }
        )
    return pd.DataFrame(rows)


def _gap(score: float) -> float:
    """The Elo gap a score implies (infinite at 0 or 1).

    >>> round(_gap(0.76))
    200
    """
    if score <= 0 or score >= 1:
        return float(np.copysign(np.inf, score - 0.5))
    return float(ELO_SCALE * np.log(score / (1 - score)))


def describe(result: Ladder) -> str:
    """The ladder as printed by ``risk-analyzer ladder``."""
    p = result.params
    lines = [
        f"ladder: {len(p['bots'])} bots, {p['n_players']}-player games, {p['games']} games per seating x "
        f"{p['seatings']} seatings per pairing, seed {p['seed']}",
        "",
        "rating (Elo scale, mean 0; 95% bootstrap interval):",
    ]
    width = max(len(n) for n in result.ratings.index)
    for name, row in result.ratings.iterrows():
        # No resamples (bootstrap=0), no interval: said so rather than "[+nan, +nan]".
        known = math.isfinite(row["ci_low"]) and math.isfinite(row["ci_high"])
        interval = f"[{row['ci_low']:+6.0f}, {row['ci_high']:+6.0f}]" if known else "[  no interval ]"
        lines.append(
            f"  {name:<{width}}  {row['rating']:+7.0f}  {interval}  score {100 * row['score']:5.1f}% of "
            f"{int(row['games'])} games"
        )
    lines += ["", "pairings (first bot's score, 95% Wilson interval, implied Elo gap):"]
    for _, row in result.pairings.iterrows():
        lines.append(
            f"  {row['bot']:<{width}} vs {row['opponent']:<{width}}  {100 * row['score']:5.1f}% "
            f"[{100 * row['ci_low']:5.1f}, {100 * row['ci_high']:5.1f}]  {row['elo_gap']:+5.0f}  ({row['games']} games)"
        )
    return "\n".join(lines)


def save(result: Ladder, path: str | Path, fmt: str = "parquet") -> list[Path]:
    """Write the ladder's games as :meth:`SimulationResult.save` does, and the ratings and pairings beside
    them (``STEM.ratings.EXT``, ``STEM.pairings.EXT``). Returns the paths written."""
    path = Path(path)
    written = result.result.save(path, fmt)  # refuses Parquet without pyarrow before anything is written
    for name, frame in (("ratings", result.ratings.reset_index()), ("pairings", result.pairings)):
        target = path.with_name(f"{path.stem}.{name}{path.suffix}")
        if fmt == "parquet":
            frame.to_parquet(target, index=False)
        else:
            frame.to_csv(target, index=False)
        written.append(target)
    return written
