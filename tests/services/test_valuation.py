"""The chances beside a live game are the evaluator's, at the start of each complete turn and now."""

from __future__ import annotations

import numpy as np
from support.live_script import play_script

from analyzer.analysis.evaluator import CUT_ROLLOUTS, CUT_ROUNDS, chances
from analyzer.game.state import turn_number
from analyzer.game.timeline import timeline
from analyzer.services.valuation import chance_series, position_key


def test_the_series_values_each_turn_start_and_the_game_now_as_every_view_does() -> None:
    live, _ = play_script(60, seed=5)
    game = live.state
    complete = [t for t in timeline(game).turns if t.complete]
    assert len(complete) >= 3
    series = chance_series(game)
    # The start of each complete turn, the end of the last one, then the game now (in place of that end if no
    # entry came since).
    end = complete[-1].after
    now_is_the_end = (game.turn, game.phase, game.pending) == (end.turn, end.phase, end.pending)
    assert len(series.chances) == len(complete) + (1 if now_is_the_end else 2)
    # The last point is the game as it stands, valued as the evaluator values it anywhere else: truncated rollouts
    # of the default bot on seed 0.
    cut = chances(game, "truncated", rollouts=CUT_ROLLOUTS, rounds=CUT_ROUNDS, seed=0)
    assert np.array_equal(series.now.p, cut.p) and series.now.method == "truncated"
    assert (series.now.rollouts, series.now.rounds) == (CUT_ROLLOUTS, CUT_ROUNDS)
    # A turn's start is valued the same way, and kept: valuing the game again makes none of them afresh.
    assert np.array_equal(series.chances[0].p, chances(complete[0].before, "truncated", seed=0).p)
    assert chance_series(game).chances[0] is series.chances[0]
    assert series.turns[-1] == turn_number(game) and list(series.turns) == sorted(series.turns)
    for c in series.chances:
        assert abs(float(c.p.sum()) - 1.0) < 1e-9 and (c.low <= c.p).all() and (c.p <= c.high).all()
    assert series.key == position_key(game)
    # A position's key leaves its history out: the same board reached by a copy keeps it; an entry changes it.
    assert position_key(game.copy()) == series.key
    assert position_key(live.board_at(len(live.entries) - 1)) != series.key


def test_a_series_short_of_time_gives_its_first_turn_and_the_next_call_goes_on_from_the_kept_ones() -> None:
    live, _ = play_script(60, seed=5)
    game = live.state
    # No time at all: the first position is valued still, so a view always has the start to draw.
    cut = chance_series(game, seconds=0.0)
    assert len(cut.chances) == len(cut.turns) == 1 and cut.positions > 1 and not cut.complete
    whole = chance_series(game)
    assert whole.complete and len(whole.chances) == whole.positions == cut.positions
    # The first turn was kept, not valued again, and the whole series ends with the game now.
    assert whole.chances[0] is cut.chances[0] and whole.turns[0] == cut.turns[0]
    assert np.array_equal(whole.now.p, chances(game, "truncated", rollouts=CUT_ROLLOUTS, rounds=CUT_ROUNDS, seed=0).p)
