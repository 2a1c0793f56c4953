"""The ladder: a hand-checkable rating fit, reproducible ratings, seats rotated on the same seeds."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analyzer.analysis.players import make_player
from analyzer.bots import CLASSIC_BOT
from analyzer.cli import main
from analyzer.errors import BotError
from analyzer.sim.ladder import ELO_SCALE, describe, fit_ratings, ladder, seatings


def test_a_76_percent_score_is_about_200_elo():
    # Elo's expected score at +200 is 1 / (1 + 10 ** -0.5) = 0.7597; the virtual draw moves it by 0.1 point.
    table = fit_ratings(["a", "b"], np.array([[0.0, 7600.0], [2400.0, 0.0]]))
    gap = table.loc["a", "rating"] - table.loc["b", "rating"]
    assert gap == pytest.approx(400 * np.log10(7600.5 / 2400.5), abs=1e-6)
    assert gap == pytest.approx(200, abs=0.5)
    assert table["rating"].sum() == pytest.approx(0, abs=1e-9)


def test_consistent_pairwise_scores_give_additive_ratings():
    # a beats b and b beats c by 200 points each; a beats c at the score a 400-point gap predicts.
    p200 = 1 / (1 + 10**-0.5)
    p400 = 1 / (1 + 10**-1)
    n = 1_000_000
    wins = np.array([[0, p200, p400], [1 - p200, 0, p200], [1 - p400, 1 - p200, 0]]) * n
    r = fit_ratings(["a", "b", "c"], wins)["rating"]
    assert r.tolist() == pytest.approx([200, 0, -200], abs=0.01)


def test_a_bot_against_itself_rates_equal_within_its_interval():
    # Synthetic: 600 fair coin flips between two copies of one bot.
    rng = np.random.default_rng(7)
    scores = rng.integers(0, 2, 600).astype(float)
    wins = np.array([[0, scores.sum()], [600 - scores.sum(), 0]])
    t = fit_ratings(["a", "b"], wins, outcomes={(0, 1): scores}, bootstrap=500, seed=3)
    for name in "ab":
        assert t.loc[name, "ci_low"] < 0 < t.loc[name, "ci_high"]
    assert t.loc["a", "ci_low"] < t.loc["b", "ci_high"] and t.loc["b", "ci_low"] < t.loc["a", "ci_high"]
    # The width binomial noise gives: each rating is half the gap, ELO_SCALE * logit(score), whose slope at
    # a score of 1/2 is 4 * ELO_SCALE; the score's sd is sqrt(1/4 / 600). So about +-14 points.
    width = t.loc["a", "ci_high"] - t.loc["a", "ci_low"]
    assert width == pytest.approx(2 * 1.96 * np.sqrt(0.25 / 600) * 4 * ELO_SCALE / 2, rel=0.2)


def test_a_pairing_whose_few_games_all_went_one_way_still_has_an_interval():
    # Six games, all won by a: the rating gap is 400 log10(6.5 / 0.5) = 446 with the virtual draw. Resampling
    # the six alone gives six wins every time, an interval of no width; six wins in six fit a score as low as
    # 61% (Wilson, 95%), a gap of 77 points, so the interval must reach well below the estimate.
    wins = np.array([[0.0, 6.0], [0.0, 0.0]])
    t = fit_ratings(["a", "b"], wins, outcomes={(0, 1): np.ones(6)}, bootstrap=2000, seed=1)
    gap = 2 * t.loc["a", "rating"]
    assert gap == pytest.approx(400 * np.log10(13), abs=1e-6)
    assert t.loc["a", "ci_low"] < t.loc["a", "rating"] - 50 and t.loc["a", "rating"] <= t.loc["a", "ci_high"]
    assert t.loc["b", "ci_low"] <= t.loc["b", "rating"] < t.loc["b", "ci_high"] - 50


def test_seatings_put_each_bot_in_each_seat_equally_often():
    for n in range(2, 7):
        rows = np.array(seatings(n))
        assert (rows.sum(axis=0) == rows.shape[0] / 2).all(), n
        assert len(set(map(tuple, rows))) == len(rows)


def test_the_same_bot_in_both_chairs_scores_exactly_half():
    """Every deal is played with the seats rotated on the same seed, so a bot playing itself wins
    each game once in each chair: the score is exactly a half, not merely close to it."""
    result = ladder({"a": CLASSIC_BOT, "b": CLASSIC_BOT}, n_players=3, games=10, seed=4, bootstrap=50)
    assert result.pairings["score"].tolist() == [0.5]
    assert result.ratings["rating"].abs().max() < 1e-9
    seats = result.result.seats
    assert seats.groupby(["seat", "bot"]).size().tolist() == [30] * 6


def test_a_ladder_with_no_resamples_says_it_has_no_interval():
    result = ladder({"a": CLASSIC_BOT, "b": CLASSIC_BOT}, n_players=2, games=2, seed=4, bootstrap=0)
    text = describe(result)
    assert result.ratings["ci_low"].isna().all() and "nan" not in text
    assert text.count("[  no interval ]") == 2


def test_ratings_are_reproducible_from_a_seed_and_the_games_are_saved(tmp_path):
    kw = dict(n_players=2, games=15, seed=9, bootstrap=200)
    one = ladder(["default", "greedy", "cautious"], **kw)
    two = ladder(["default", "greedy", "cautious"], **kw)
    pd.testing.assert_frame_equal(one.ratings, two.ratings)
    pd.testing.assert_frame_equal(one.pairings, two.pairings)
    assert len(one.result.games) == 3 * 2 * 15 and one.result.games["game"].is_unique
    code = main(
        [
            "ladder",
            "--bots",
            "default,greedy",
            "--games",
            "5",
            "--seed",
            "9",
            "--bootstrap",
            "20",
            "--out",
            str(tmp_path / "l.parquet"),
        ]
    )
    assert code == 0
    assert (tmp_path / "l.ratings.parquet").exists() and (tmp_path / "l.seats.parquet").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bots", "default,nobody"], "unknown bot 'nobody'"),
        (["--bots", "default"], "at least two bots"),
        (["--players", "9"], "--players must be a whole number from 2 to 6, got 9"),
        (["--bots", "default,default"], "names one twice"),
    ],
)
def test_cli_errors_are_one_line(capsys, args, message):
    assert main(["ladder", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_the_ladder_rates_the_search_player_by_name(capsys):
    """``search`` lives above the bots' layer: the ladder knows it through the players' registry, and the
    bots' own registry does not."""
    result = ladder(["search", "planner"], n_players=2, games=1, seed=3, max_rounds=4, bootstrap=10, make=make_player)
    assert sorted(result.ratings.index) == ["planner", "search"]
    seats = result.result.seats
    assert len(result.result.games) == 2 and sorted(seats.groupby("bot").size().tolist()) == [2, 2]
    assert result.result.params["check"]  # the search player's actions went through the engine's checks
    with pytest.raises(BotError, match="unknown bot 'search'"):
        ladder(["search", "planner"], games=1)
    assert main(["ladder", "--bots", "search,planner", "--games", "1", "--max-rounds", "4", "--bootstrap", "10"]) == 0
    out = capsys.readouterr().out
    assert "search" in out and "planner" in out and "(2 games)" in out
