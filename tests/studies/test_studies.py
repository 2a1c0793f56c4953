"""The strategy studies: documented columns on small simulated batches, intervals that cover a known
truth in synthetic cases, replays checked against the simulator, and clear errors for bad parameters."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy.special import expit
from scipy.stats import chisquare

from analyzer.bots import CLASSIC_BOT, HeuristicBot
from analyzer.bots.planner import PLANNER_BOT, PlannerBot
from analyzer.bots.registry import BOTS, make_bot
from analyzer.bots.strategist import STRATEGIST_BOT
from analyzer.errors import StudyError
from analyzer.game.actions import Claim, Place, Trade
from analyzer.game.board import classic_board
from analyzer.game.dice import DiceRules, roll_distribution
from analyzer.game.state import GameState
from analyzer.sim.runs import after_draft
from analyzer.sim.simulate import simulate
from analyzer.solver.battle import battle
from analyzer.solver.chains import conquest
from analyzer.studies import (
    CARD_POLICIES,
    POPULATIONS,
    ContinentCardBot,
    ModelDraftBot,
    OpeningBot,
    calibration,
    card_policy,
    card_timing,
    concentration_win_rates,
    conquest_costs,
    continent_facts,
    continent_holdings,
    draft_picks,
    evaluate_draft,
    field_draft_bot,
    first_claim_by_field_draft,
    first_claim_win_rates,
    fit_draft_model,
    holding_value,
    play_continents,
    play_openings,
    policy_outcome,
    population_bot,
    population_name,
    recommend_pick,
    seat_features,
    seat_order_win_rates,
)
from analyzer.studies.openings import draft_arrays
from analyzer.studies.stats import fit_logistic, paired_difference, rate_difference, rate_table

BOARD = classic_board()
T = BOARD.index
RATE_COLUMNS = ["games", "wins", "win_rate", "ci_low", "ci_high"]


def covers(low: float, high: float, truth: float) -> bool:
    return low <= truth <= high


# ---------------------------------------------------------------------------------- shared statistics
def test_rate_table_intervals_cover_known_rates():
    rng = np.random.default_rng(11)
    truth = {"a": 0.1, "b": 0.5, "c": 0.83}
    frame = pd.DataFrame({"group": np.repeat(list(truth), 3000)})
    frame["won"] = rng.random(len(frame)) < frame["group"].map(truth)
    table = rate_table(frame, "group", confidence=0.999)
    assert table.columns.tolist() == ["group", *RATE_COLUMNS]
    for row in table.itertuples():
        assert covers(row.ci_low, row.ci_high, truth[row.group])
        assert row.ci_low <= row.win_rate <= row.ci_high


def test_rate_difference_resamples_games_and_adjusts_within_strata():
    # Two seats a game, exactly one winner: the holder wins 60% of its games, so the difference is 0.2.
    rng = np.random.default_rng(5)
    n = 3000
    game = np.repeat(np.arange(n), 2)
    held = np.tile([True, False], n)
    holder_wins = rng.random(n) < 0.6
    won = np.column_stack([holder_wins, ~holder_wins]).reshape(-1)
    d = rate_difference(game, won, held, confidence=0.99, rng=np.random.default_rng(1))
    assert covers(d.ci_low, d.ci_high, 0.2)
    assert d.estimate == pytest.approx(2 * holder_wins.mean() - 1)

    # Big seats win more and hold more; within a size band holding changes nothing.
    big = rng.random(2 * n) < 0.5
    held = rng.random(2 * n) < np.where(big, 0.6, 0.1)
    won = rng.random(2 * n) < np.where(big, 0.5, 0.1)
    raw = rate_difference(game, won, held, rng=np.random.default_rng(2))
    adjusted = rate_difference(game, won, held, strata=big.astype(int), confidence=0.99, rng=np.random.default_rng(3))
    assert raw.ci_low > 0.15
    assert covers(adjusted.ci_low, adjusted.ci_high, 0.0)


def test_paired_difference_covers_the_truth_of_correlated_pairs():
    # Pairs share most of their luck: b copies a, then flips to a win 10% of the time; truth -0.1 * P(a lost).
    rng = np.random.default_rng(9)
    a = rng.random(5000) < 0.4
    b = a | (rng.random(5000) < 0.1)
    d = paired_difference(a, b, confidence=0.99)
    assert covers(d.ci_low, d.ci_high, -0.1 * 0.6)
    assert d.ci_high - d.ci_low < 0.03  # far narrower than two independent 5000-trial rates would give
    with pytest.raises(StudyError, match="two equal-length series"):
        paired_difference(a, b[:10])


def test_logistic_fit_intervals_cover_the_true_coefficients():
    rng = np.random.default_rng(8)
    beta = np.array([0.8, -1.5, 0.0])
    X = rng.normal(size=(6000, 3))
    y = rng.random(6000) < expit(-0.3 + X @ beta)
    fit = fit_logistic(X, y, ["a", "b", "c"], l2=0.0)
    table = fit.table(confidence=0.999).set_index("feature")
    for name, value in zip(["intercept", "a", "b", "c"], [-0.3, *beta]):
        assert covers(table.loc[name, "ci_low"], table.loc[name, "ci_high"], value)


def test_statistics_reject_bad_parameters():
    frame = pd.DataFrame({"g": [1, 2], "won": [True, False]})
    with pytest.raises(StudyError, match="confidence must be a number between 0 and 1"):
        rate_table(frame, "g", confidence=95)
    with pytest.raises(StudyError, match="no column"):
        rate_table(frame, "seat")
    with pytest.raises(StudyError, match="l2 must be a number >= 0"):
        fit_logistic(np.zeros((2, 1)), [0, 1], ["x"], l2=-1)
    with pytest.raises(StudyError, match="both outcomes"):
        fit_logistic(np.zeros((2, 1)), [1, 1], ["x"])


# ---------------------------------------------------------------------------------- openings
@pytest.fixture(scope="module")
def openings():
    return play_openings(3, 60, seed=7, random_claims=1)


def test_opening_features_have_the_documented_columns(openings):
    f = openings.features
    continents = [f"in_{c}" for c in ("north_america", "south_america", "europe", "africa", "asia", "australia")]
    assert f.columns.tolist() == [
        "game",
        "n_players",
        "seat",
        "bot",
        "won",
        "capped",
        "order",
        "territories",
        "full_continents",
        "best_share",
        "adjacent_pairs",
        "enemy_neighbours",
        *continents,
        "first_claim",
        "first_claim_continent",
    ]
    assert len(f) == 60 * 3
    # Fourteen territories each in a three-player draft, spread over the six continents.
    assert (f["territories"] == 14).all()
    assert (f[continents].sum(axis=1) == 14).all()
    assert (f.groupby("game")["won"].sum() == ~openings.result.games.set_index("game")["capped"]).all()


def test_draft_replay_gives_the_recorded_start_and_first_claims(openings):
    picks = draft_picks(openings.result, [OpeningBot(random_claims=1)] * 3)
    assert picks.columns.tolist() == ["game", "pick", "seat", "territory"]
    first = openings.result.games.set_index("game")["first_player"]
    for game, claims in picks.groupby("game"):
        assert sorted(claims["territory"]) == list(range(42))
        assert claims["seat"].tolist() == [(first[game] + k) % 3 for k in range(42)]
    f = openings.features.set_index(["game", "seat"])
    firsts = picks[picks["pick"] <= 3].set_index(["game", "seat"])["territory"]
    assert [BOARD.territories[t] for t in firsts] == f.loc[firsts.index, "first_claim"].tolist()


def test_a_replay_with_other_bots_is_refused(openings):
    for other in ("random", [OpeningBot(random_claims=42)] * 3):
        with pytest.raises(StudyError, match="does not give the start the simulator recorded"):
            draft_picks(openings.result, other)


def test_opening_win_rate_tables(openings):
    f = openings.features
    decided = int((~openings.result.games["capped"]).sum())
    order = seat_order_win_rates(f)
    assert order.columns.tolist() == ["n_players", "order", *RATE_COLUMNS, "fair_share"]
    assert order["order"].tolist() == [1, 2, 3] and (order["games"] == 60).all()
    assert order["wins"].sum() == decided

    conc = concentration_win_rates(f)
    assert conc.columns.tolist() == ["n_players", "feature", "value", *RATE_COLUMNS, "fair_share"]
    assert (conc.groupby("feature")["games"].sum() == 180).all()
    assert {"in Australia", "full continents", "adjacent pairs", "largest continent share"} <= set(conc["feature"])
    assert ((conc["ci_low"] <= conc["win_rate"]) & (conc["win_rate"] <= conc["ci_high"])).all()

    for by, column in (("territory", "first_claim"), ("continent", "first_claim_continent")):
        table = first_claim_win_rates(f, by=by)
        assert table.columns.tolist() == ["n_players", column, *RATE_COLUMNS, "fair_share"]
        assert table["games"].sum() == 180 and table["win_rate"].is_monotonic_decreasing


def test_seat_win_rates_of_identical_bots_cover_an_even_share():
    # Two identical bots, the first player drawn at random: either seat wins half the decided games.
    result = simulate(2, "default", n_games=300, seed=3, progress=False)
    f = seat_features(result)
    assert not f["capped"].any()
    for row in rate_table(f, "seat", confidence=0.99).itertuples():
        assert covers(row.ci_low, row.ci_high, 0.5)
    assert (seat_order_win_rates(f)["games"] == 300).all()


def test_seat_order_intervals_cover_a_synthetic_truth():
    rng = np.random.default_rng(2)
    truth = {1: 0.4, 2: 0.35, 3: 0.25}
    f = pd.DataFrame({"n_players": 3, "order": np.tile([1, 2, 3], 2000)})
    f["won"] = rng.random(len(f)) < f["order"].map(truth)
    for row in seat_order_win_rates(f, confidence=0.99).itertuples():
        assert covers(row.ci_low, row.ci_high, truth[row.order])


def random_drafts(n_drafts: int, n_players: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    owner = np.array([rng.permutation(np.arange(42) % n_players) for _ in range(n_drafts)])
    return owner, rng.integers(n_players, size=n_drafts)


def synthetic_features(n_drafts: int, rng: np.random.Generator) -> tuple[pd.DataFrame, dict[str, float]]:
    """Random 3-player drafts whose wins follow a known logistic model in the draft model's terms."""
    truth = {"intercept": -1.0, "order 2": -0.4, "Australia 3": 1.5, "adjacent pairs": 0.1}
    owner, first = random_drafts(n_drafts, 3, rng)
    arrays = draft_arrays(owner, first, 3, BOARD)
    flat = {k: v.reshape(-1) for k, v in arrays.items()}
    logit = (
        truth["intercept"]
        + truth["order 2"] * (flat["order"] == 2)
        + truth["Australia 3"] * (flat["in_australia"] == 3)
        + truth["adjacent pairs"] * flat["adjacent_pairs"]
    )
    features = pd.DataFrame({"n_players": 3, **flat, "won": rng.random(len(logit)) < expit(logit)})
    return features, truth


def test_draft_model_recovers_known_weights_and_recommends_accordingly():
    rng = np.random.default_rng(21)
    features, truth = synthetic_features(8000, rng)
    model = fit_draft_model(features, l2=0.01)
    table = model.coefficients(confidence=0.999).set_index("feature")
    for name, value in truth.items():
        assert covers(table.loc[name, "ci_low"], table.loc[name, "ci_high"], value)
    for other in ("Europe 2", "Asia 4", "enemy neighbours"):
        assert covers(table.loc[other, "ci_low"], table.loc[other, "ci_high"], 0.0)

    calib = calibration(model, synthetic_features(4000, np.random.default_rng(22))[0], bins=5)
    assert calib.columns.tolist() == ["predicted", *RATE_COLUMNS]
    assert calib.apply(lambda r: covers(r.ci_low, r.ci_high, r.predicted), axis=1).all()

    # Seat 0 claims first and already holds two of Australia's four: a third is worth 1.5 in log-odds.
    owner = np.full(42, -1)
    owner[[T("Indonesia"), T("New Guinea")]] = 0
    owner[[T("Alaska"), T("Iceland")]] = 1
    owner[[T("Peru"), T("Egypt")]] = 2
    picks = recommend_pick(model, owner, 0, rollouts=50, rng=np.random.default_rng(0))
    assert picks.columns.tolist() == ["territory", "continent", "value", "std_error", "rank"]
    assert len(picks) == 36 and picks["rank"].tolist() == list(range(1, 37))
    assert picks["continent"].iloc[0] == "Australia" and picks["continent"].iloc[1] == "Australia"

    full = np.arange(42) % 3
    scores = evaluate_draft(model, full, first_player=0)
    assert scores.columns.tolist() == ["seat", "order", "territories", "p_win", "share"]
    assert scores["share"].sum() == pytest.approx(1.0)
    assert scores["order"].tolist() == [1, 2, 3]


def test_draft_model_rejects_bad_drafts_and_tables():
    features, _ = synthetic_features(300, np.random.default_rng(1))
    model = fit_draft_model(features)
    with pytest.raises(StudyError, match="one player count"):
        fit_draft_model(pd.concat([features, features.assign(n_players=4)]))
    with pytest.raises(StudyError, match="Alaska has owner 5"):
        evaluate_draft(model, np.r_[5, np.arange(41) % 3], 0)
    with pytest.raises(StudyError, match="expected 0 to 2"):
        evaluate_draft(model, np.r_[-1, np.arange(41) % 3], 0)
    uneven = np.full(42, -1)
    uneven[:3] = 0
    with pytest.raises(StudyError, match=r"seats hold \[3, 0, 0\] territories, but 3 claims"):
        recommend_pick(model, uneven, 0)
    with pytest.raises(StudyError, match="first_player must be a seat from 0 to 2"):
        recommend_pick(model, np.full(42, -1), 3)
    with pytest.raises(StudyError, match="every territory is claimed"):
        recommend_pick(model, np.arange(42) % 3, 0)
    with pytest.raises(StudyError, match="no column"):
        seat_order_win_rates(features.drop(columns="order"))
    with pytest.raises(StudyError, match="'territory' or 'continent'"):
        first_claim_win_rates(features, by="seat")
    with pytest.raises(StudyError, match="first_claim"):
        first_claim_win_rates(features)


def test_the_model_draft_bot_plays_legal_games():
    features, _ = synthetic_features(300, np.random.default_rng(3))
    bot = ModelDraftBot(model=fit_draft_model(features), rollouts=4)
    result = simulate(3, [bot, "default", "default"], n_games=2, seed=1, check=True, progress=False)
    assert len(result.games) == 2
    with pytest.raises(StudyError, match="needs a DraftModel"):
        ModelDraftBot()


# ---------------------------------------------------------------------------------- populations
TABLES = ("games", "seats", "starts", "trades", "eliminations")


@pytest.mark.parametrize("population", ["classic", "planner", "strategist", "default"])
def test_draft_only_bots_play_the_same_games_compiled_after_the_draft(population):
    # The claims are made in Python, the rest compiled as the bot they name; the Python loop, checking
    # every action, must play the very same games.
    bot = population_bot(population)
    bots = [OpeningBot(random_claims=1, bot=bot), OpeningBot(random_claims=42, bot=bot), bot]
    assert [after_draft(b) for b in bots] == [bot] * 3
    fast = simulate(3, bots, n_games=6, seed=5, progress=False)
    checked = simulate(3, bots, n_games=6, seed=5, check=True, progress=False)
    for name in TABLES:
        pd.testing.assert_frame_equal(getattr(fast, name), getattr(checked, name), obj=name)


def test_the_population_option_seats_its_bots():
    classic = play_openings(3, 6, seed=3, random_claims=1)
    planned = play_openings(3, 6, seed=3, random_claims=1, population="planner")
    assert classic.result.params["bots"] == [repr(OpeningBot(random_claims=1, bot=CLASSIC_BOT))] * 3
    assert planned.result.params["bots"] == [repr(OpeningBot(random_claims=1, bot=PLANNER_BOT))] * 3
    assert "bot=PlannerBot(" in planned.result.params["bots"][0]
    for run in (classic, planned):
        table = first_claim_win_rates(run.features, by="continent")
        assert table["games"].sum() == 18 and table["wins"].sum() == 6 - int(run.result.games["capped"].sum())
    # Same seeds: the same random first claims, then the two bots' own drafts, which differ.
    assert classic.features["first_claim"].equals(planned.features["first_claim"])
    assert not classic.result.starts["owner"].equals(planned.result.starts["owner"])
    rest = play_continents(3, 4, seed=2, rounds=2, population="strategist")
    assert rest.result.params["bots"] == [repr(STRATEGIST_BOT)] * 3
    assert set(rest.holdings["round"]) <= {1, 2}
    with pytest.raises(
        StudyError,
        match="unknown population 'hunter': expected one of classic, planner, strategist, early_strategist, default",
    ):
        play_openings(3, 2, population="hunter")


def test_the_default_population_is_the_registrys_default_bot(monkeypatch):
    # Each population is the registry's bot of that name, and "default" follows the registry's default.
    assert {name: make_bot(name) for name in ("classic", "planner", "strategist")} == {
        name: bot for name, bot in POPULATIONS.items() if name != "early_strategist"
    }
    assert population_bot("default") == make_bot("default")
    monkeypatch.setitem(BOTS, "default", lambda: STRATEGIST_BOT)
    assert population_name("default") == "strategist" and population_bot("Default") is POPULATIONS["strategist"]
    monkeypatch.setitem(BOTS, "default", lambda: PLANNER_BOT)
    assert population_name("default") == "planner"
    monkeypatch.setitem(BOTS, "default", lambda: dataclasses.replace(PLANNER_BOT, cards="first"))
    with pytest.raises(StudyError, match="none of the populations"):
        population_bot("default")


def test_card_policies_of_the_planner_population():
    assert card_policy("first", "planner") == dataclasses.replace(PLANNER_BOT, cards="first")
    assert card_policy("value:10", "planner") == PLANNER_BOT
    continent = card_policy("continent", "planner")
    assert isinstance(continent, ContinentCardBot) and continent.bot == dataclasses.replace(PLANNER_BOT, cards="forced")
    # The baseline seat is the planning bot in a field of planning bots: its games are the simulator's.
    table = card_timing([3], ["first"], n_games=40, seed=6, population="planner")
    direct = simulate(3, [PLANNER_BOT] * 3, n_games=40, seed=6, progress=False)
    base = table.set_index("policy").loc["value:10"]
    assert base["wins"] == int((direct.games["winner"] == 0).sum()) and base["games"] == 40
    assert (table["ci_low"] <= table["win_rate"]).all() and (table["win_rate"] <= table["ci_high"]).all()
    assert table.set_index("policy").loc["first", "sets_per_game"] > 0


def test_the_strategists_compiled_play_honours_the_card_policy():
    # The strategist trades at once for a kill or when exposed, but otherwise by its card policy: trading
    # at the first chance must trade sooner and more often than holding until forced, on the same seeds.
    assert card_policy("forced", "strategist") == dataclasses.replace(STRATEGIST_BOT, cards="forced")
    table = card_timing([4], ["first", "forced"], n_games=60, seed=3, population="strategist").set_index("policy")
    assert table.loc["first", "first_trade_turn"] < table.loc["forced", "first_trade_turn"]
    assert table.loc["first", "sets_per_game"] > table.loc["forced", "sets_per_game"]
    assert table.loc["value:10", "games"] == 60


def test_the_continent_card_bot_of_the_strategist_plays_legal_games():
    result = simulate(
        3,
        [card_policy("continent", "strategist"), "strategist", "strategist"],
        n_games=2,
        seed=2,
        check=True,
        progress=False,
    )
    assert len(result.games) == 2


def test_the_continent_card_bot_of_the_planner_plays_legal_games():
    bot = card_policy("continent", "planner")
    result = simulate(3, [bot, "planner", "planner"], n_games=3, seed=2, check=True, progress=False)
    assert len(result.games) == 3 and (result.trades["player"] == 0).any()


def test_field_drafts_differ_only_in_the_draft():
    # The classic rule in a planning bot drafts exactly as the classic bot does.
    classic_rule = field_draft_bot("classic")
    assert isinstance(classic_rule, PlannerBot)
    result = simulate(4, [classic_rule] * 4, n_games=3, seed=8, progress=False)
    assert draft_picks(result, [classic_rule] * 4).equals(
        draft_picks(simulate(4, [CLASSIC_BOT] * 4, n_games=3, seed=8, progress=False), [CLASSIC_BOT] * 4)
    )
    assert field_draft_bot("default") == PLANNER_BOT
    assert after_draft(field_draft_bot("random")) == PLANNER_BOT
    with pytest.raises(StudyError, match="unknown field draft 'skilled'"):
        field_draft_bot("skilled")


def test_first_claim_by_field_draft_table():
    table = first_claim_by_field_draft(3, 30, seed=4, drafts=["random", "default"])
    assert table.columns.tolist() == ["field_draft", "n_players", "first_claim_continent", *RATE_COLUMNS, "fair_share"]
    for _draft, part in table.groupby("field_draft"):
        overall = part[part["first_claim_continent"] == "any"].iloc[0]
        rest = part[part["first_claim_continent"] != "any"]
        assert overall["games"] == 30 == rest["games"].sum() and overall["wins"] == rest["wins"].sum()
    assert (table["ci_low"] <= table["win_rate"]).all() and (table["win_rate"] <= table["ci_high"]).all()
    with pytest.raises(StudyError, match="drafts must be a list"):
        first_claim_by_field_draft(3, 2, drafts="random")


# ---------------------------------------------------------------------------------- policies
def test_an_opening_bot_claims_its_first_territory_uniformly():
    bot = OpeningBot(random_claims=1)
    rng = np.random.default_rng(4)
    claims = [bot.choose(GameState.new(4, rng), rng) for _ in range(4200)]
    assert all(isinstance(c, Claim) for c in claims)
    counts = np.bincount([c.territory for c in claims], minlength=42)
    assert chisquare(counts).pvalue > 0.001
    # Past its random claims it drafts as the default bot does.
    state = GameState.new(4, np.random.default_rng(0))
    assert OpeningBot(random_claims=0).choose(state, np.random.default_rng(1)) == CLASSIC_BOT.choose(
        state, np.random.default_rng(1)
    )
    with pytest.raises(StudyError, match="random_claims must be a whole number >= 0"):
        OpeningBot(random_claims=-1)


def test_card_policies_by_name():
    assert card_policy("first") == dataclasses.replace(CLASSIC_BOT, cards="first")
    assert card_policy("forced").cards == "forced"
    assert card_policy(" value:12 ") == dataclasses.replace(CLASSIC_BOT, cards="value", card_value=12)
    assert card_policy("value:10") == CLASSIC_BOT
    assert isinstance(card_policy("continent"), ContinentCardBot)
    for bad in ("value:", "value:x", "sometimes", 3):
        with pytest.raises(StudyError, match="unknown card policy"):
            card_policy(bad)  # type: ignore[arg-type]
    with pytest.raises(StudyError, match="save_below must be a probability"):
        ContinentCardBot(save_below=0)


def australia_position(stack: int, defenders: int) -> GameState:
    """Player 0 holds three of Australia and Siam (``stack`` armies); Indonesia holds ``defenders``."""
    owner = [1] * 42
    armies = [1] * 42
    for name in ("New Guinea", "Western Australia", "Eastern Australia", "Siam"):
        owner[T(name)] = 0
    armies[T("Siam")] = stack
    armies[T("Indonesia")] = defenders
    return GameState.from_position(owner, armies, n_players=2, hands={0: [0, 1, 2]})


def test_the_continent_card_bot_trades_when_the_set_completes_a_continent():
    # 3 armies to place; the first set is worth 4. Find an Indonesia the set tips over the bot's threshold.
    stack, threshold = 4, CLASSIC_BOT.attack_threshold
    d = next(d for d in range(1, 30) if battle(stack + 3, d).p_win < threshold <= battle(stack + 7, d).p_win)
    state = australia_position(stack, d)
    bot = ContinentCardBot()
    trade = bot.choose(state, np.random.default_rng(0))
    assert isinstance(trade, Trade)
    state.apply(trade)
    assert bot.choose(state, np.random.default_rng(0)) == Place(T("Siam"), 7)
    # Without the set's help, or with no need of it, it holds its cards as the "forced" policy does.
    for easy_or_hard in (d + 8, 1):
        assert not isinstance(bot.choose(australia_position(stack, easy_or_hard), np.random.default_rng(0)), Trade)


# ---------------------------------------------------------------------------------- card timing
def test_card_timing_table_and_a_policy_identical_to_the_field():
    table = card_timing([3], ["first"], n_games=240, seed=2)
    assert table.columns.tolist() == [
        "n_players",
        "policy",
        *RATE_COLUMNS,
        "fair_share",
        "vs_baseline",
        "vs_baseline_low",
        "vs_baseline_high",
        "capped",
        "sets_per_game",
        "mean_set_value",
        "first_trade_turn",
    ]
    assert table["policy"].tolist() == ["value:10", "first"] and (table["games"] == 240).all()
    same = table.iloc[0]
    # The default bot against two copies of itself, seats randomised: a third of the wins.
    assert same["capped"] == 0 and covers(same["ci_low"], same["ci_high"], 1 / 3)
    # The baseline against itself on the same seeds plays the very same games.
    assert (same["vs_baseline"], same["vs_baseline_low"], same["vs_baseline_high"]) == (0, 0, 0)
    first = table.iloc[1]
    assert first["vs_baseline"] == pytest.approx(first["win_rate"] - same["win_rate"])
    assert first["vs_baseline_low"] < first["vs_baseline"] < first["vs_baseline_high"]
    # Trading at the first chance trades earlier and cheaper sets than holding out for 10.
    assert first["first_trade_turn"] < same["first_trade_turn"] and first["mean_set_value"] < same["mean_set_value"]


def test_policy_outcome_matches_the_simulators_win_rates():
    result = simulate(3, [card_policy("forced"), "default", "default"], n_games=30, seed=4, progress=False)
    outcome = policy_outcome(result, seat=0)
    by_seat = result.win_rates("seat").set_index("seat").loc[0]
    assert (outcome["wins"], outcome["games"]) == (by_seat["wins"], by_seat["games"])
    assert outcome["ci_low"] == pytest.approx(by_seat["ci_low"])
    assert outcome["sets_per_game"] == pytest.approx((result.trades["player"] == 0).sum() / 30)
    with pytest.raises(StudyError, match="seat must be from 0 to 2"):
        policy_outcome(result, seat=3)


def test_card_timing_rejects_bad_parameters():
    with pytest.raises(StudyError, match=r"player_counts\[0\] must be a whole number from 2 to 6, got 7"):
        card_timing([7], n_games=1)
    with pytest.raises(StudyError, match="n_games must be a whole number >= 1"):
        card_timing([3], n_games=0)
    with pytest.raises(StudyError, match="policies must be a list"):
        card_timing([3], "first", n_games=1)
    with pytest.raises(StudyError, match="unknown card policy 'hoard'"):
        card_timing([3], ["hoard"], n_games=1)
    with pytest.raises(StudyError, match="unknown card policy 'value:ten'"):
        card_timing([3], ["first"], n_games=1, baseline="value:ten")
    assert set(CARD_POLICIES) >= {"first", "forced", "continent"}


# ---------------------------------------------------------------------------------- continents
def test_continent_facts_of_the_classic_map():
    facts = continent_facts().set_index("continent")
    # The classic map: bonus, territories and territories with a neighbour outside the continent.
    known = {
        "North America": (5, 9, 3),
        "South America": (2, 4, 2),
        "Europe": (5, 7, 4),
        "Africa": (3, 6, 3),
        "Asia": (7, 12, 5),
        "Australia": (2, 4, 1),
    }
    for name, (bonus, size, borders) in known.items():
        assert tuple(facts.loc[name, ["bonus", "territories", "border_territories"]]) == (bonus, size, borders)
        assert facts.loc[name, "bonus_per_border"] == pytest.approx(bonus / borders)


def overwhelming_losses(d: int) -> Fraction:
    """Expected attacker losses taking ``d`` defenders when the attacker always rolls three dice."""
    dice = DiceRules()
    one = roll_distribution(3, 1, dice)
    two = roll_distribution(3, 2, dice)
    e = [Fraction(0), one[(1, 0)] / one[(0, 1)]]
    for k in range(2, d + 1):
        # Losing both dice leaves the defender where it was: E = (2 p20 + p11 (1 + E[k-1]) + p02 E[k-2]) / (1 - p20).
        p20, p11, p02 = two[(2, 0)], two[(1, 1)], two[(0, 2)]
        e.append((2 * p20 + p11 * (1 + e[k - 1]) + p02 * e[k - 2]) / (1 - p20))
    return e[d]


def test_conquest_costs_match_the_dice_and_the_solver():
    costs = conquest_costs([1, 3], [0.5, 0.9])
    assert costs.columns.tolist() == [
        "continent",
        "bonus",
        "territories",
        "defenders",
        "expected_losses",
        "expected_cost",
        "rounds_to_repay",
        "target_p",
        "armies_needed",
        "entry",
    ]
    assert len(costs) == 6 * 2 * 2
    for row in costs.itertuples():
        assert row.expected_losses == pytest.approx(
            float(row.territories * overwhelming_losses(row.defenders)), rel=1e-9
        )
        assert row.expected_cost == pytest.approx(row.expected_losses + row.territories)
    aus = costs[(costs["continent"] == "Australia") & (costs["defenders"] == 3)].set_index("target_p")
    assert aus.loc[0.5, "entry"] == "Siam" and aus.loc[0.5, "armies_needed"] < aus.loc[0.9, "armies_needed"]
    # The fewest armies: one fewer falls short of the target.
    names = [n for n in BOARD.territories if BOARD.continents[BOARD.continent_of[T(n)]].name == "Australia"]
    borders = [(BOARD.territories[b.a], BOARD.territories[b.b]) for b in BOARD.borders]
    needed = int(aus.loc[0.9, "armies_needed"])
    assert conquest({"Siam": needed}, dict.fromkeys(names, 3), borders).p_all >= 0.9
    assert conquest({"Siam": needed - 1}, dict.fromkeys(names, 3), borders).p_all < 0.9
    with pytest.raises(StudyError, match="probabilities strictly between 0 and 1"):
        conquest_costs([1], [1.0])
    with pytest.raises(StudyError, match="defenders per territory must be a whole number >= 1"):
        conquest_costs([0], [0.5])


@pytest.fixture(scope="module")
def continents():
    return play_continents(3, 40, seed=9, rounds=3)


def test_continent_holdings_replay_checks_against_the_recorded_turns(continents):
    h = continents.holdings
    holds = [c for c in h.columns if c.startswith("holds_")]
    assert h.columns.tolist()[:7] == ["game", "n_players", "round", "seat", "territories", "armies", "won"]
    assert len(holds) == 6 and set(h["round"]) <= {1, 2, 3}
    # A continent has at most one holder; a seat in the table owns something.
    assert (h.groupby(["game", "round"])[holds].sum() <= 1).all().all()
    assert (h["territories"] >= 1).all()
    with pytest.raises(StudyError, match="do not match the turns the simulator recorded"):
        continent_holdings(continents.result, [HeuristicBot(attack_threshold=0.9)] * 3, rounds=3)
    with pytest.raises(StudyError, match="record_turns=True"):
        continent_holdings(simulate(3, "default", 2, progress=False), "default")


def test_holding_value_table(continents):
    table = holding_value(continents.holdings, n_resamples=50)
    assert table.columns.tolist() == [
        "n_players",
        "round",
        "continent",
        *(f"{who}_{column}" for who in ("holder", "other") for column in RATE_COLUMNS),
        "difference",
        "difference_low",
        "difference_high",
        "adjusted",
        "adjusted_low",
        "adjusted_high",
    ]
    per_round = continents.holdings.groupby("round").size()
    assert (table["holder_games"] + table["other_games"] == table["round"].map(per_round)).all()
    # Every seat still in a game is a holder or not; the wins are the holdings table's own.
    wins = continents.holdings.groupby("round")["won"].sum()
    assert (table["holder_wins"] + table["other_wins"] == table["round"].map(wins)).all()
    with pytest.raises(StudyError, match="n_resamples must be a whole number >= 2"):
        holding_value(continents.holdings, n_resamples=1)


def test_holding_value_covers_no_effect_in_a_synthetic_case():
    rng = np.random.default_rng(6)
    n = 2000
    h = pd.DataFrame({"game": np.repeat(np.arange(n), 3), "n_players": 3, "round": 2, "seat": np.tile([0, 1, 2], n)})
    h["territories"] = rng.integers(8, 20, size=len(h))
    winner = rng.integers(3, size=n)
    h["won"] = h["seat"] == np.repeat(winner, 3)
    # Each game's Australia goes to a random seat, whatever happens later.
    h["holds_australia"] = h["seat"] == np.repeat(rng.integers(3, size=n), 3)
    row = holding_value(h, confidence=0.99, n_resamples=400).iloc[0]
    assert row["continent"] == "Australia" and row["holder_games"] == n
    assert covers(row["difference_low"], row["difference_high"], 0.0)
    assert covers(row["adjusted_low"], row["adjusted_high"], 0.0)
    assert covers(row["holder_ci_low"], row["holder_ci_high"], 1 / 3)


# ---------------------------------------------------------------------------------- the notebook runner
def test_the_notebook_runner_sets_the_population_and_saves_elsewhere(tmp_path, monkeypatch):
    import nbformat

    from analyzer.studies.__main__ import main

    for name in ("GAMES", "WORKERS", "SCHEDULER", "SEED", "POPULATION"):
        monkeypatch.delenv(f"RISK_NB_{name}", raising=False)  # restored after the test
    path = tmp_path / "probe.ipynb"
    source = 'import os\nprint(os.environ.get("RISK_NB_POPULATION", "classic"), os.environ["RISK_NB_GAMES"])'
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)]), path)
    assert main([str(path), "--population", "strategist", "--games", "7", "--out", str(tmp_path / "out")]) == 0
    ran = nbformat.read(tmp_path / "out" / "probe.ipynb", as_version=4)
    assert ran.cells[0].outputs[0]["text"] == "strategist 7\n"
    assert nbformat.read(path, as_version=4).cells[0].outputs == []  # the original is left as it was
    with pytest.raises(SystemExit):
        main([str(path), "--population", "hunter"])
