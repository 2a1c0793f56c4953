"""Openings: seat order, concentrated starts, the first claim, and a draft evaluator.

Everything starts from simulated games (:func:`play_openings`, or any
:func:`~analyzer.sim.simulate.simulate` run and its bots) turned into one row per
game and seat by :func:`seat_features`: the seat's place in the turn order,
what it held when the first turn began, the first territory it claimed, and
whether it won. The studies are win-rate tables over that frame, each rate
with a Wilson interval:

* :func:`seat_order_win_rates`: by place in the turn order;
* :func:`concentration_win_rates`: by territories held in each continent, full
  continents held at the start, adjacent pairs owned, and the largest share of
  one continent;
* :func:`first_claim_win_rates`: by the first territory claimed (or its continent).

:func:`fit_draft_model` fits the win probability from the draft's features as
Gibson, Desai & Zhao (2010, "An Automated Technique for Drafting Territories
in the Board Game Risk", AIIDE) did for Lux Delux: per seat, the number of
territories held in each continent (one weight for each count, so the model
can learn that the last territory of a continent is worth more than the
first), the place in the turn order, the number of distinct enemy territories
bordering the seat's own, and the number of adjacent pairs it owns. They fitted
a linear regression to win counts; this is a logistic regression of each
seat's win, with a light L2 penalty. :func:`evaluate_draft` scores a finished
draft as they did, each seat's share ``p_i / sum(p_j)`` of the fitted win
probabilities, and :func:`recommend_pick` ranks the free territories of a
draft in progress by that share, averaged over random completions of the
draft (flat Monte Carlo, where they used UCT).

>>> run = play_openings(3, 30, seed=2)
>>> features = run.features
>>> len(features), sorted(features["order"].unique().tolist())
(90, [1, 2, 3])
>>> seat_order_win_rates(features)["games"].tolist()
[30, 30, 30]
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analyzer.bots.base import Bot, Decision
from analyzer.bots.heuristic import CLASSIC_BOT, HeuristicBot, board_data
from analyzer.bots.planner import PLANNER_BOT
from analyzer.errors import StudyError
from analyzer.game.actions import Claim
from analyzer.game.board import Board, classic_board
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.sim.result import SimulationResult
from analyzer.sim.runs import BATCH_SIZE
from analyzer.sim.simulate import simulate
from analyzer.studies.policies import DraftsThenPlays, OpeningBot, population_bot
from analyzer.studies.replay import Replay
from analyzer.studies.stats import LogisticFit, check_confidence, check_count, fit_logistic, rate_table

#: Rollouts per candidate in :func:`recommend_pick`: the standard error of a candidate's value is then well below 1%.
ROLLOUTS = 200


def slug(name: str) -> str:
    """A continent name as a column-name fragment.

    >>> slug("North America")
    'north_america'
    """
    return re.sub(r"\W+", "_", name.strip().lower()).strip("_")


# ---------------------------------------------------------------------------------- features
def draft_arrays(owner: np.ndarray, first_player: np.ndarray, n_players: int, board: Board) -> dict[str, np.ndarray]:
    """Per-seat features of ``D`` starts at once: ``owner`` is ``(D, territories)``, ``first_player`` ``(D,)``.

    Returns arrays of shape ``(D, n_players)``: ``order`` (1 moves first),
    ``territories``, ``in_<continent>`` (territories held there),
    ``full_continents``, ``best_share`` (largest fraction of one continent
    held), ``adjacent_pairs`` (borders with both ends owned) and
    ``enemy_neighbours`` (distinct territories of others, the neutral
    included, bordering the seat's own).
    """
    owner = np.asarray(owner)
    first = np.asarray(first_player).reshape(-1, 1)
    seats = np.arange(n_players)
    own = owner[:, None, :] == seats[None, :, None]  # (D, seats, territories)
    masks = np.asarray(board.continent_masks, dtype=np.int64)
    per_continent = own.astype(np.int64) @ masks.T  # (D, seats, continents)
    sizes = masks.sum(axis=1)
    a = np.array([b.a for b in board.borders])
    b = np.array([b.b for b in board.borders])
    adjacency = np.asarray(board.adjacency, dtype=np.int64)
    touching = (own.astype(np.int64) @ adjacency) > 0
    out = {
        "order": (seats[None, :] - first) % n_players + 1,
        "territories": own.sum(axis=2),
        "full_continents": (per_continent == sizes).sum(axis=2),
        "best_share": (per_continent / sizes).max(axis=2),
        "adjacent_pairs": (own[:, :, a] & own[:, :, b]).sum(axis=2),
        "enemy_neighbours": (touching & ~own).sum(axis=2),
    }
    for c, continent in enumerate(board.continents):
        out[f"in_{slug(continent.name)}"] = per_continent[:, :, c]
    return out


def seat_features(result: SimulationResult, bots: Sequence[Bot | str] | str | None = None) -> pd.DataFrame:
    """One row per game and seat of a simulated run.

    Columns: ``game``, ``n_players``, ``seat``, ``bot``, ``order`` (1 moves
    first), ``won``, ``capped``, the start features of :func:`draft_arrays`
    and, when ``bots`` (those that played the run) is given and the run
    opened with a claiming draft, ``first_claim`` (a territory name) and
    ``first_claim_continent``, read from a replay of the draft that is checked
    against the start the simulator recorded.
    """
    games = result.games.set_index("game")
    n = int(result.params.get("n_players", result.seats["seat"].max() + 1)) if len(result.seats) else 0
    if n == 0:
        raise StudyError("the run has no games")
    board = _board(result)
    starts = result.starts.sort_values(["game", "territory"])
    ids = games.index.to_numpy()
    owner = starts["owner"].to_numpy().reshape(len(ids), board.n_territories)
    first = games["first_player"].to_numpy()
    arrays = draft_arrays(owner, first, n, board)
    frame = pd.DataFrame({"game": np.repeat(ids, n), "n_players": n, "seat": np.tile(np.arange(n), len(ids))})
    seats = result.seats.sort_values(["game", "seat"])
    frame["bot"] = seats["bot"].to_numpy()
    winner = games["winner"].to_numpy(dtype=float, na_value=-1.0)
    frame["won"] = np.repeat(winner, n) == frame["seat"].to_numpy()
    frame["capped"] = np.repeat(games["capped"].to_numpy(), n)
    for name, values in arrays.items():
        frame[name] = values.reshape(-1)
    if bots is not None and n >= 3 and result.params["rules"]["setup"] == "claim":
        picks = draft_picks(result, bots)
        firsts = picks.sort_values("pick").groupby(["game", "seat"]).first()["territory"]
        index = pd.MultiIndex.from_arrays([frame["game"], frame["seat"]])
        first_claim = firsts.reindex(index).to_numpy()
        frame["first_claim"] = [board.territories[t] for t in first_claim]
        frame["first_claim_continent"] = [board.continents[int(board.continent_of[t])].name for t in first_claim]
    return frame


def draft_picks(result: SimulationResult, bots: Sequence[Bot | str] | str) -> pd.DataFrame:
    """Every claim of every game's draft: ``game``, ``pick`` (1 to 42), ``seat``, ``territory`` (id).

    The simulator records who held what when the first turn began, not the
    order of the claims, so the draft is replayed (:class:`Replay`); a replay
    whose claims do not give the recorded start raises :class:`StudyError`.
    """
    replay = Replay.of(result, bots)
    if replay.rules.deals(replay.n_players):
        raise StudyError("the run's territories were dealt, not drafted: there are no claims to read")
    starts = result.starts.sort_values(["game", "territory"])
    recorded = starts["owner"].to_numpy().reshape(-1, replay.board.n_territories)
    rows: dict[str, list[int]] = {"game": [], "pick": [], "seat": [], "territory": []}
    for i, game in enumerate(result.games["game"]):
        picks = replay.draft(int(game))
        owner = np.full(replay.board.n_territories, -1)
        for k, (seat, territory) in enumerate(picks):
            owner[territory] = seat
            rows["game"].append(int(game))
            rows["pick"].append(k + 1)
            rows["seat"].append(seat)
            rows["territory"].append(territory)
        if not np.array_equal(owner, recorded[i]):
            raise StudyError(f"the replayed draft of game {game} does not give the start the simulator recorded")
    return pd.DataFrame(rows)


def _board(result: SimulationResult) -> Board:
    data = result.params.get("board")
    return classic_board() if data is None else Board.from_dict(data, "the run's board")


# ---------------------------------------------------------------------------------- runs
@dataclass(frozen=True)
class OpeningRun:
    """A run of :func:`play_openings`: the simulator's tables and the per-seat :func:`seat_features`."""

    result: SimulationResult
    features: pd.DataFrame


def play_openings(
    n_players: int,
    n_games: int,
    seed: int = 0,
    *,
    random_claims: int = 42,
    population: str = "classic",
    bots: Sequence[Bot | str] | None = None,
    rules: Rules | None = None,
    workers: int = 1,
    dask: bool = False,
    scheduler: str | None = None,
    batch_size: int = BATCH_SIZE,
    progress: bool = False,
) -> OpeningRun:
    """Simulate ``n_games`` games from a claiming draft and read their openings.

    By default every seat is an :class:`~analyzer.studies.policies.OpeningBot`
    that makes its first ``random_claims`` claims at random (all 42: random
    drafts, the data a draft model needs; 1: only the opening pick is random)
    and drafts and plays on as the ``population``'s bot
    (:data:`~analyzer.studies.policies.POPULATIONS`: ``"classic"``, ``"planner"``,
    ``"strategist"``, or ``"default"``, the registry's default bot); ``bots`` replaces them. The first player
    is drawn at random in each game, so every seat is equally likely to move
    first. ``rules`` (classic by default) must keep the claiming setup. The other options are
    :func:`~analyzer.sim.simulate.simulate`'s.
    """
    n_players = check_count(n_players, "players", 2)
    playing = rules if rules is not None else Rules()
    if playing.deals(n_players):
        raise StudyError(
            f"the openings study reads the claims of a claiming draft, and a {n_players}-player game under "
            f"setup={playing.setup!r} deals its territories: keep setup='claim' (the default), at 3 to 6 players"
        )
    if bots is not None:
        chosen = list(bots)
    else:
        chosen = [
            OpeningBot(random_claims=check_count(random_claims, "random_claims", 0), bot=population_bot(population))
        ] * n_players
    result = simulate(
        n_players,
        chosen,
        n_games,
        seed,
        rules=rules,
        workers=workers,
        dask=dask,
        scheduler=scheduler,
        batch_size=batch_size,
        progress=progress,
    )
    return OpeningRun(result, seat_features(result, chosen))


# ---------------------------------------------------------------------------------- win rates
def _with_fair_share(table: pd.DataFrame) -> pd.DataFrame:
    table["fair_share"] = 1.0 / table["n_players"]
    return table


def _check_features(features: pd.DataFrame, columns: Sequence[str]) -> None:
    missing = [c for c in columns if c not in features.columns]
    if missing:
        raise StudyError(
            f"the features table has no column(s) {', '.join(missing)}: build it with seat_features()"
            + (" and the run's bots, for the first claims" if "first_claim" in missing else "")
        )


def seat_order_win_rates(features: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Win rate by place in the turn order: ``n_players``, ``order``, ``games``, ``wins``, ``win_rate``,
    ``ci_low``, ``ci_high``, ``fair_share`` (``1 / n_players``)."""
    _check_features(features, ["n_players", "order", "won"])
    return _with_fair_share(rate_table(features, ["n_players", "order"], confidence=confidence))


def concentration_win_rates(features: pd.DataFrame, confidence: float = 0.95, bins: int = 5) -> pd.DataFrame:
    """Win rate by how concentrated a seat's start is, one block of rows per ``feature``:

    * ``"in <continent>"``: territories held in that continent (``value`` the count);
    * ``"full continents"``: continents held in full when the first turn begins;
    * ``"adjacent pairs"`` and ``"largest continent share"``: in up to ``bins``
      bands of about equal counts of seats, cut for each player count
      (``value`` the band, e.g. ``"4-6"`` or ``"(42%, 50%]"``).

    Columns: ``n_players``, ``feature``, ``value``, ``games``, ``wins``,
    ``win_rate``, ``ci_low``, ``ci_high``, ``fair_share``.
    """
    bins = check_count(bins, "bins", 1)
    continents = [c for c in features.columns if c.startswith("in_")]
    _check_features(features, ["n_players", "won", "full_continents", "adjacent_pairs", "best_share"])
    if not continents:
        raise StudyError("the features table has no in_<continent> columns: build it with seat_features()")
    check_confidence(confidence)
    blocks = []
    for column in continents:
        label = "in " + column[3:].replace("_", " ").title()
        blocks.append(_rates(features, column, label, features[column].astype(str), confidence))
    blocks.append(
        _rates(features, "full_continents", "full continents", features["full_continents"].astype(str), confidence)
    )
    # Bands are cut within each player count: three players hold twice the territories six do.
    for column, label, integers in (
        ("adjacent_pairs", "adjacent pairs", True),
        ("best_share", "largest continent share", False),
    ):
        bands = features.groupby("n_players")[column].transform(lambda v: _bands(v, bins, integers))
        blocks.append(_rates(features, column, label, bands, confidence))
    return _with_fair_share(pd.concat(blocks, ignore_index=True))


def _bands(values: pd.Series, bins: int, integers: bool) -> pd.Series:
    """``values`` cut into up to ``bins`` bands of about equal counts, labelled ``"4-6"`` (whole
    numbers, both ends included) or ``"(42%, 50%]"`` (shares)."""
    codes, edges = pd.qcut(values, bins, retbins=True, duplicates="drop", labels=False)
    labels = []
    for i, (lo, hi) in enumerate(zip(edges[:-1], edges[1:])):
        if integers:
            first = int(np.ceil(lo)) if i == 0 else int(np.floor(lo)) + 1
            labels.append(str(first) if first == int(hi) else f"{first}-{int(hi)}")
        else:
            labels.append(f"{'[' if i == 0 else '('}{lo:.0%}, {hi:.0%}]")
    return pd.Series(np.asarray(labels)[codes.astype(int)], index=values.index)


def _rates(features: pd.DataFrame, column: str, label: str, value: pd.Series, confidence: float) -> pd.DataFrame:
    frame = pd.DataFrame(
        {"n_players": features["n_players"], "value": value, "sort": features[column], "won": features["won"]}
    )
    table = rate_table(frame, ["n_players", "value"], confidence=confidence)
    order = (
        frame.groupby(["n_players", "value"], observed=True)["sort"]
        .min()
        .reindex(pd.MultiIndex.from_frame(table[["n_players", "value"]]))
    )
    table = table.assign(sort=order.to_numpy()).sort_values(["n_players", "sort"]).drop(columns="sort")
    table.insert(1, "feature", label)
    table["value"] = table["value"].astype(str)
    return table


def first_claim_win_rates(features: pd.DataFrame, by: str = "territory", confidence: float = 0.95) -> pd.DataFrame:
    """Win rate by the first territory each seat claimed (``by="territory"``) or its continent
    (``by="continent"``): ``n_players``, ``first_claim`` or ``first_claim_continent``, ``games``,
    ``wins``, ``win_rate``, ``ci_low``, ``ci_high``, ``fair_share``; best first."""
    columns = {"territory": "first_claim", "continent": "first_claim_continent"}
    if by not in columns:
        raise StudyError(f"first claims are grouped by 'territory' or 'continent', got {by!r}")
    _check_features(features, ["n_players", "won", columns[by]])
    table = rate_table(features, ["n_players", columns[by]], confidence=confidence)
    return _with_fair_share(table.sort_values(["n_players", "win_rate"], ascending=[True, False], ignore_index=True))


#: How the other seats draft in :func:`first_claim_by_field_draft`: every claim at random, by the
#: classic bot's continent weights, or by the planning bot's ease of holding.
FIELD_DRAFTS = ("random", "classic", "default")


def field_draft_bot(draft: str, board: Board | None = None) -> Bot:
    """A planning bot (:data:`~analyzer.bots.planner.PLANNER_BOT`) that drafts by ``draft`` (one of
    :data:`FIELD_DRAFTS`) and plays every later decision as the planning bot.

    ``"classic"`` drafts with the classic bot's claim weights (each continent's bonus over its
    territories plus border territories), ``"default"`` is the planning bot itself.

    >>> [round(w, 2) for w in field_draft_bot("classic").draft_weights]
    [0.92, 0.73, 1.0, 0.73, 0.91, 0.88]
    """
    board = board if board is not None else classic_board()
    if draft == "random":
        return OpeningBot(random_claims=board.n_territories, bot=PLANNER_BOT)
    if draft == "classic":
        return dataclasses.replace(PLANNER_BOT, draft_weights=tuple(float(w) for w in board_data(board).auto_weights))
    if draft == "default":
        return PLANNER_BOT
    raise StudyError(f"unknown field draft {draft!r}: expected one of {', '.join(FIELD_DRAFTS)}")


def first_claim_by_field_draft(
    n_players: int,
    n_games: int,
    seed: int = 0,
    *,
    drafts: Sequence[str] = FIELD_DRAFTS,
    by: str = "continent",
    confidence: float = 0.95,
    workers: int = 1,
    dask: bool = False,
    scheduler: str | None = None,
    batch_size: int = BATCH_SIZE,
    progress: bool = False,
) -> pd.DataFrame:
    """How the first claim's worth depends on how well the other seats draft.

    Seat 0 makes its first claim at random, then drafts and plays as the
    planning bot; every other seat plays as the planning bot too, but drafts as
    :func:`field_draft_bot` ``(draft)`` does. Each draft in ``drafts`` plays
    ``n_games`` games from the same seeds (the first player drawn at random in
    each). Returns seat 0's :func:`first_claim_win_rates` (by ``"continent"``
    or ``"territory"``) with a ``field_draft`` column first, then one row per
    draft with ``first_claim_continent`` (or ``first_claim``) ``"any"``: seat
    0's win rate over all its games.

    >>> table = first_claim_by_field_draft(3, 12, seed=1, drafts=["random"])
    >>> table.columns.tolist()[:3], table["games"].iloc[-1]
    (['field_draft', 'n_players', 'first_claim_continent'], np.int64(12))
    """
    n_players = check_count(n_players, "players", 3)
    if isinstance(drafts, str) or not drafts:
        raise StudyError(f"drafts must be a list of field drafts ({', '.join(FIELD_DRAFTS)}), got {drafts!r}")
    column = {"territory": "first_claim", "continent": "first_claim_continent"}.get(by)
    if column is None:
        raise StudyError(f"first claims are grouped by 'territory' or 'continent', got {by!r}")
    studied = OpeningBot(random_claims=1, bot=PLANNER_BOT)
    blocks = []
    for draft in drafts:
        others = field_draft_bot(draft)
        run = play_openings(
            n_players,
            n_games,
            seed,
            bots=[studied] + [others] * (n_players - 1),
            workers=workers,
            dask=dask,
            scheduler=scheduler,
            batch_size=batch_size,
            progress=progress,
        )
        seat0 = run.features[run.features["seat"] == 0]
        table = first_claim_win_rates(seat0, by=by, confidence=confidence)
        overall = _with_fair_share(
            rate_table(seat0.assign(**{column: "any"}), ["n_players", column], confidence=confidence)
        )
        blocks.append(pd.concat([table, overall], ignore_index=True).assign(field_draft=draft))
    out = pd.concat(blocks, ignore_index=True)
    return out[["field_draft", *[c for c in out.columns if c != "field_draft"]]]


# ---------------------------------------------------------------------------------- the draft model
@dataclass(frozen=True)
class DraftModel:
    """A fitted model of each seat's chance to win from its start (see the module docstring).

    ``names`` are the model's terms: ``order k`` (k = 2 .. n; moving first is
    the baseline), ``<continent> k`` (holding k territories there; none is the
    baseline), ``enemy neighbours`` and ``adjacent pairs``.
    """

    n_players: int
    fit: LogisticFit
    board: Board = field(default_factory=classic_board, repr=False)

    def __repr__(self) -> str:
        return f"DraftModel(n_players={self.n_players}, terms={len(self.fit.names)}, seats={self.fit.n}, log_loss={self.fit.log_loss:.4f})"

    def design(self, arrays: dict[str, np.ndarray]) -> np.ndarray:
        """The model's terms for per-seat feature arrays of :func:`draft_arrays`: shape ``(rows, terms)``."""
        return _design(arrays, self.n_players, self.board)[0]

    def coefficients(self, confidence: float = 0.95) -> pd.DataFrame:
        """The fitted weights (log-odds) with intervals: ``feature``, ``coef``, ``std_error``, ``ci_low``, ``ci_high``."""
        return self.fit.table(confidence)

    def predict(self, owner: np.ndarray, first_player: np.ndarray) -> np.ndarray:
        """``(D, n_players)`` fitted win probabilities of ``D`` finished drafts."""
        arrays = draft_arrays(owner, first_player, self.n_players, self.board)
        p = self.fit.predict(self.design({k: v.reshape(-1) for k, v in arrays.items()}))
        return p.reshape(-1, self.n_players)


def _design(arrays: dict[str, np.ndarray], n_players: int, board: Board) -> tuple[np.ndarray, list[str]]:
    columns, names = [], []
    for k in range(2, n_players + 1):
        columns.append(arrays["order"] == k)
        names.append(f"order {k}")
    for continent in board.continents:
        held = arrays[f"in_{slug(continent.name)}"]
        for k in range(1, len(continent.territories) + 1):
            columns.append(held == k)
            names.append(f"{continent.name} {k}")
    for name in ("enemy_neighbours", "adjacent_pairs"):
        columns.append(arrays[name])
        names.append(name.replace("_", " "))
    return np.column_stack(columns).astype(float), names


def fit_draft_model(features: pd.DataFrame, *, l2: float = 1.0, board: Board | None = None) -> DraftModel:
    """Fit :class:`DraftModel` to a :func:`seat_features` table of one player count.

    Capped games count as losses for every seat. Train on varied drafts
    (random ones, as Gibson et al. did): a model fitted to drafts that always
    look alike cannot tell their features apart.
    """
    board = board if board is not None else classic_board()
    counts = features["n_players"].unique() if "n_players" in features.columns else []
    if len(counts) != 1:
        raise StudyError(f"a draft model is for one player count; the table has {sorted(map(int, counts)) or 'none'}")
    n = int(counts[0])
    needed = ["order", "won", "enemy_neighbours", "adjacent_pairs"] + [f"in_{slug(c.name)}" for c in board.continents]
    _check_features(features, needed)
    X, names = _design({c: features[c].to_numpy() for c in needed}, n, board)
    return DraftModel(n, fit_logistic(X, features["won"].to_numpy(), names, l2=l2), board)


def _check_draft(model: DraftModel, owner: object, first_player: object, *, complete: bool) -> tuple[np.ndarray, int]:
    n = model.n_players
    board = model.board
    first = check_count(first_player, "first_player", 0)
    if first >= n:
        raise StudyError(f"first_player must be a seat from 0 to {n - 1}, got {first}")
    arr = np.asarray(owner)
    if arr.shape != (board.n_territories,) or not np.issubdtype(arr.dtype, np.integer):
        raise StudyError(
            f"a draft gives one owner (a whole number) for each of the {board.n_territories} territories, got {arr.shape} of {arr.dtype}"
        )
    low = 0 if complete else -1
    bad = np.flatnonzero((arr < low) | (arr >= n))
    if len(bad):
        t = int(bad[0])
        expected = f"0 to {n - 1}" if complete else f"-1 (unclaimed) or 0 to {n - 1}"
        raise StudyError(f"{board.territories[t]} has owner {int(arr[t])}; expected {expected}")
    claimed = int(np.count_nonzero(arr >= 0))
    # Claims go round the table from the first player, so the counts are fixed by how many were made.
    expected_counts = [(claimed - (s - first) % n + n - 1) // n for s in range(n)]
    counts = np.bincount(arr[arr >= 0], minlength=n).tolist()
    if counts != expected_counts:
        raise StudyError(
            f"seats hold {counts} territories, but {claimed} claims made in turn from seat {first} give {expected_counts}"
        )
    return arr.astype(np.int64), first


def evaluate_draft(model: DraftModel, owner: Sequence[int] | np.ndarray, first_player: int) -> pd.DataFrame:
    """Score a finished draft: one row per seat with ``seat``, ``order``, ``territories``, ``p_win``
    (the model's probability for that seat alone) and ``share`` (``p_win`` over the seats' sum, as
    Gibson et al. scored a draft's outcome).

    >>> import numpy as np
    >>> model = fit_draft_model(play_openings(3, 40, seed=1).features)
    >>> owner = np.arange(42) % 3                       # claims in turn from seat 0
    >>> table = evaluate_draft(model, owner, first_player=0)
    >>> table.columns.tolist(), round(float(table["share"].sum()), 6)
    (['seat', 'order', 'territories', 'p_win', 'share'], 1.0)
    """
    arr, first = _check_draft(model, owner, first_player, complete=True)
    p = model.predict(arr[None, :], np.array([first]))[0]
    n = model.n_players
    return pd.DataFrame(
        {
            "seat": np.arange(n),
            "order": (np.arange(n) - first) % n + 1,
            "territories": np.bincount(arr, minlength=n),
            "p_win": p,
            "share": p / p.sum(),
        }
    )


def recommend_pick(
    model: DraftModel,
    owner: Sequence[int] | np.ndarray,
    first_player: int,
    *,
    rollouts: int = ROLLOUTS,
    rng: np.random.Generator | None = None,
) -> pd.DataFrame:
    """Rank the free territories for the seat to claim next in a draft in progress.

    ``owner`` gives each territory's seat, -1 if unclaimed; the seat to claim
    is fixed by the number of claims made. Each candidate is scored by the
    seat's :func:`evaluate_draft` share, averaged over ``rollouts`` random
    completions of the rest of the draft (the same completions for every
    candidate, so that their differences are sharper than their values).
    Returns ``territory``, ``continent``, ``value``, ``std_error`` and
    ``rank`` (1 best), best first.

    >>> import numpy as np
    >>> model = fit_draft_model(play_openings(3, 40, seed=1).features)
    >>> table = recommend_pick(model, np.full(42, -1), 0, rollouts=20, rng=np.random.default_rng(0))
    >>> len(table), table["rank"].tolist()[:3]
    (42, [1, 2, 3])
    """
    arr, first = _check_draft(model, owner, first_player, complete=False)
    rollouts = check_count(rollouts, "rollouts", 1)
    rng = rng if rng is not None else np.random.default_rng()
    board = model.board
    n = model.n_players
    free = np.flatnonzero(arr < 0)
    if len(free) == 0:
        raise StudyError("the draft is finished: every territory is claimed")
    claimed = board.n_territories - len(free)
    seat = (first + claimed) % n
    # Later claims go round the table from the next seat; a random priority per territory orders them.
    priority = rng.random((rollouts, board.n_territories))
    owners = np.repeat(arr[None, None, :], len(free), axis=0).repeat(rollouts, axis=1)  # (candidates, rollouts, T)
    later = (seat + 1 + np.arange(len(free) - 1)) % n
    for i, candidate in enumerate(free):
        rest = free[free != candidate]
        order = rest[np.argsort(priority[:, rest], axis=1)]  # (rollouts, rest)
        owners[i, :, candidate] = seat
        np.put_along_axis(owners[i], order, np.broadcast_to(later, order.shape), axis=1)
    p = model.predict(owners.reshape(-1, board.n_territories), np.full(len(free) * rollouts, first))
    share = (p[:, seat] / p.sum(axis=1)).reshape(len(free), rollouts)
    value = share.mean(axis=1)
    std_error = share.std(axis=1, ddof=1) / np.sqrt(rollouts) if rollouts > 1 else np.full(len(free), np.nan)
    table = pd.DataFrame(
        {
            "territory": [board.territories[t] for t in free],
            "continent": [board.continents[int(board.continent_of[t])].name for t in free],
            "value": value,
            "std_error": std_error,
        }
    ).sort_values("value", ascending=False, ignore_index=True)
    table["rank"] = np.arange(1, len(table) + 1)
    return table


@dataclass(frozen=True)
class ModelDraftBot(DraftsThenPlays):
    """``bot`` (by default the classic bot), except that it drafts with :func:`recommend_pick`
    (``rollouts`` completions per candidate) on ``model``; a way to check the draft model in play.
    After the draft it plays as ``bot`` (:attr:`after_draft`, so those games run compiled)."""

    model: DraftModel | None = None
    rollouts: int = 32
    bot: HeuristicBot = CLASSIC_BOT

    def __post_init__(self) -> None:
        if not isinstance(self.model, DraftModel):
            raise StudyError(f"ModelDraftBot needs a DraftModel, got {type(self.model).__name__}")
        check_count(self.rollouts, "rollouts", 1)
        self._check_bot()

    def choose(self, state: GameState, rng: np.random.Generator) -> Decision:
        if state.phase == Phase.SETUP_CLAIM and state.n_players == self.model.n_players:  # type: ignore[union-attr]
            model = self.model
            assert model is not None  # the condition above read its player count
            table = recommend_pick(
                model, state.owner.astype(np.int64), state.first_player, rollouts=self.rollouts, rng=rng
            )
            return Claim(state.board.index(table["territory"].iloc[0]))
        return self.bot.choose(state, rng)


def calibration(model: DraftModel, features: pd.DataFrame, bins: int = 10, confidence: float = 0.95) -> pd.DataFrame:
    """How well the model's probabilities match the wins in ``features`` (best: games the model was
    not fitted on): seats in ``bins`` bands of equal size by predicted ``p_win``, with ``predicted``
    (the band's mean), ``games``, ``wins``, ``win_rate``, ``ci_low``, ``ci_high``."""
    bins = check_count(bins, "bins", 1)
    needed = ["order", "won", "enemy_neighbours", "adjacent_pairs"] + [
        f"in_{slug(c.name)}" for c in model.board.continents
    ]
    _check_features(features, needed)
    if set(features["n_players"].unique()) != {model.n_players}:
        raise StudyError(
            f"the model is for {model.n_players} players; the table has {sorted(features['n_players'].unique().tolist())}"
        )
    p = model.fit.predict(model.design({c: features[c].to_numpy() for c in needed}))
    band = pd.qcut(p, bins, labels=False, duplicates="drop")
    frame = pd.DataFrame({"band": band, "p": p, "won": features["won"].to_numpy()})
    table = rate_table(frame, "band", confidence=confidence)
    table.insert(1, "predicted", frame.groupby("band")["p"].mean().to_numpy())
    return table.drop(columns="band")
