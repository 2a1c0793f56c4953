"""The search player: legal under the rule variants, the same games from a seed whatever the workers,
the default bot's games exactly at a budget of 0, and the plan the turn search picks."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pandas as pd
import pytest

from analyzer.analysis.players import PLAYERS, make_player
from analyzer.analysis.search import plans_of, suggest_turn
from analyzer.analysis.search_bot import SearchBot, turn_start
from analyzer.bots.base import BattleOrder
from analyzer.bots.planner import PLANNER_BOT
from analyzer.bots.registry import BOTS, make_bot
from analyzer.cli import main
from analyzer.errors import BotError
from analyzer.game.actions import Trade
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.game.vocabulary import SETUP_PHASES, Phase
from analyzer.sim.battles import resolve_order
from analyzer.sim.checkpoints import TABLES
from analyzer.sim.play import play_game
from analyzer.sim.runs import game_rng
from analyzer.sim.simulate import simulate

#: A small budget keeps the games quick; the code path is the same at any budget.
FAST = SearchBot(rollouts=2, base=PLANNER_BOT)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(turn_limit=6),
        Rules(fortify="connected", card_values="fixed", turn_limit=6),
        Rules(missions=True, turn_limit=6),
        Rules(capitals=True, setup="deal", turn_limit=6),
    ],
    ids=["classic", "connected-fixed", "missions", "capitals"],
)
def test_the_search_player_plays_only_legal_moves(rules):
    # check=True applies every action through the engine's legality check, which raises on an illegal one.
    for n, seat in ((4, 1), (6, 4)):
        rng = game_rng(11, n)
        state = GameState.new(n, rng, rules)
        bots = [PLANNER_BOT] * n
        bots[seat] = FAST
        play_game(state, bots, rng, check=True)
        assert state.is_terminal()


def test_a_seed_gives_the_same_games_whatever_the_workers():
    bots = [FAST, "planner", "planner"]
    kw = dict(n_games=2, seed=5, max_rounds=8, progress=False)
    one = simulate(3, bots, workers=1, **kw)
    again = simulate(3, bots, workers=1, **kw)
    two = simulate(3, bots, workers=2, batch_size=1, **kw)  # each game on a process of its own, the bot pickled
    for name in TABLES:
        pd.testing.assert_frame_equal(getattr(one, name), getattr(again, name))
        pd.testing.assert_frame_equal(getattr(one, name), getattr(two, name))
    assert one.params["check"]  # the search player is not one of the compiled bots: every action is checked


def test_with_no_rollouts_it_plays_the_default_bots_games_exactly():
    # The same deals played compiled with the planner in every seat, and through the checked Python loop
    # with the search player (budget 0) in one seat: the tables must be identical, game for game.
    for n in (4, 6):
        bots = [PLANNER_BOT] * n
        compiled = simulate(n, bots, 6, seed=2, progress=False)
        bots[n - 1] = SearchBot(rollouts=0, base=PLANNER_BOT)
        searched = simulate(n, bots, 6, seed=2, progress=False)
        assert not compiled.params["check"] and searched.params["check"]
        for name in TABLES:
            frame = getattr(searched, name)
            if name == "seats":
                frame = frame.assign(bot=getattr(compiled, name)["bot"])
            pd.testing.assert_frame_equal(frame, getattr(compiled, name))


def test_each_turn_plays_the_plan_the_turn_search_picked():
    """At a turn's start, ``plan`` runs the turn search with a seed drawn from the game's generator and
    plays its best plan: when the plan's paired interval is above 0 (``confident``), or when it merely
    wins more rollouts than the default's own turn. Recomputed here from the same seed."""
    plans = plans_of(PLANNER_BOT)
    bold = SearchBot(rollouts=3, base=PLANNER_BOT, confident=False)
    sure = SearchBot(rollouts=3, base=PLANNER_BOT)
    switched = 0
    for g in range(4):
        rng = game_rng(3, g)
        state = GameState.new(4, rng)
        while state.phase in SETUP_PHASES:
            state.apply(PLANNER_BOT.choose(state, rng))  # type: ignore[arg-type]  # setup decisions are actions
        for _ in range(3):  # the game's first turns, each searched from its start
            assert turn_start(state)
            twin = np.random.default_rng()
            twin.bit_generator.state = rng.bit_generator.state
            tip = suggest_turn(state, rollouts=3, seed=int(twin.integers(2**63)), plans=plans, base=PLANNER_BOT)
            twin.bit_generator.state = rng.bit_generator.state
            assert sure.plan(state, twin) == (plans[tip.plan] if tip.gain_low > 0 else PLANNER_BOT)
            chosen = bold.plan(state, rng)
            assert chosen == (plans[tip.plan] if tip.win_chance > tip.default_win_chance else PLANNER_BOT)
            switched += chosen != PLANNER_BOT
            turn = state.turn
            while state.turn == turn and not state.is_terminal():
                if state.is_chance():
                    state.apply_chance(rng)
                else:
                    decision = chosen.choose(state, rng)
                    state.apply(resolve_order(state, decision, rng) if type(decision) is BattleOrder else decision)
    assert switched > 0  # the search does pick other plans than the default's own turn


def test_turn_start_holds_at_every_turns_first_decision_and_not_after_it():
    """After the first decision of a turn the pending armies only fall, unless a trade raised them: the
    test holds again only then (the documented case where the bot searches once more)."""
    firsts = later = 0
    for g in range(6):
        rng = game_rng(8, g)
        state = GameState.new(3 + g % 4, rng)
        last_turn, traded = -1, False
        while not state.is_terminal():
            if state.is_chance():
                state.apply_chance(rng)
                continue
            if state.phase not in SETUP_PHASES and state.phase != Phase.DEFEND:
                if state.turn != last_turn:
                    assert turn_start(state), (g, state.turn)
                    firsts += 1
                    last_turn, traded = state.turn, False
                else:
                    assert not turn_start(state) or traded, (g, state.turn)
                    later += 1
            decision = PLANNER_BOT.choose(state, rng)
            traded |= type(decision) is Trade
            state.apply(resolve_order(state, decision, rng) if type(decision) is BattleOrder else decision)
    assert firsts > 50 and later > 200


def test_the_registry_names_the_search_player_and_the_bots_keep_theirs():
    assert set(PLAYERS) == set(BOTS) | {"search"} and "search" not in BOTS
    bot = make_player("search")
    assert isinstance(bot, SearchBot) and bot.base == make_bot("default")
    assert make_player("greedy") == make_bot("greedy")
    with pytest.raises(BotError, match="unknown bot 'serch'.*search"):
        make_player("serch")
    with pytest.raises(BotError, match="rollouts must be 0"):
        SearchBot(rollouts=1)
    copy = pickle.loads(pickle.dumps(bot))
    assert copy == bot and copy._memo == {}


def test_the_command_line_plays_the_search_player_by_name(capsys):
    assert (
        main(
            [
                "simulate",
                "--players",
                "3",
                "--bots",
                "search,planner,planner",
                "--games",
                "2",
                "--max-rounds",
                "4",
                "--quiet",
                "--json",
            ]
        )
        == 0
    )
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 2
    assert main(["simulate", "--bots", "serch", "--games", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "unknown bot 'serch'" in err and "search" in err and err.count("\n") == 1
