"""The compiled playout plays the same games as the checked Python engine, and keeps the rules."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.bots import CLASSIC_BOT, HeuristicBot
from analyzer.bots.strategist import STRATEGIST_BOT
from analyzer.errors import SimulationError
from analyzer.game.dice import DiceRules
from analyzer.game.engine import steps as engine
from analyzer.game.rules import PROGRESSIVE_SET_VALUES, Rules
from analyzer.game.state import GameState
from analyzer.game.vocabulary import DRAW, GAME_OVER, REINFORCE, Phase
from analyzer.sim import playout
from analyzer.sim.battles import battle_means
from analyzer.sim.play import play_game
from analyzer.sim.runs import game_rng
from analyzer.sim.simulate import simulate
from analyzer.solver.battle import BattleOptions, battle, kernel_args, outcome_arrays, outcome_cdf

VARIANTS = [
    Rules(),
    Rules(fortify="connected", card_values="fixed", territory_bonus=0),
    Rules(missions=True),
    Rules(capitals=True, setup="deal"),
    Rules(dice=DiceRules(ties_to_attacker=True)),
]


def test_phase_codes_are_the_engines():
    assert [p.value for p in Phase] == list(range(11))
    assert (Phase.REINFORCE, Phase.DRAW, Phase.GAME_OVER) == (REINFORCE, DRAW, GAME_OVER)


@pytest.mark.parametrize(
    "rules",
    VARIANTS,
    ids=lambda r: f"{r.fortify}-{r.card_values}-m{int(r.missions)}-c{int(r.capitals)}-t{int(r.dice.ties_to_attacker)}",
)
@pytest.mark.parametrize("n_players", [2, 3, 4, 6])
@pytest.mark.parametrize("sample", [True, False], ids=["sampled", "rolled"])
def test_compiled_games_equal_checked_games(rules, n_players, sample):
    """Each action of the Python loop goes through GameState.apply (every legality check); the compiled
    game, from the same generator, must end in the very same state with the same records."""
    bots = [HeuristicBot(cards="first", reinforce="ratio"), CLASSIC_BOT] * 3
    bots = bots[:n_players]
    for game in range(2):
        r1, r2 = game_rng(11, game), game_rng(11, game)
        checked, fast = GameState.new(n_players, r1, rules), GameState.new(n_players, r2, rules)
        play_game(checked, bots, r1, sample_battles=sample, check=True)
        record = playout.play_compiled(fast, bots, r2, sample_battles=sample)
        assert fast.to_dict(history=False) == checked.to_dict(history=False)
        assert record.trades == checked.trades and record.eliminations == checked.eliminations
        assert r1.random() == r2.random()  # the same random numbers were drawn


@pytest.mark.parametrize("n_players", [2, 4, 6])
def test_simulated_tables_are_the_same_either_way(n_players):
    """The compiled batch tabulates its games at once; the rows must be those of the per-game path."""
    bots = (["default", "greedy", "cautious"] * 2)[:n_players]
    kw = dict(n_games=30, seed=5, progress=False, record_turns=True, batch_size=7, max_rounds=40)
    fast = simulate(n_players, bots, **kw)
    slow = simulate(n_players, bots, compiled=False, **kw)
    for name in ("games", "seats", "eliminations", "trades", "starts", "turns"):
        assert getattr(fast, name).equals(getattr(slow, name)), name


def test_games_from_a_position_keep_its_records():
    """Rollouts from a saved mid-game position carry its earlier eliminations and trades in both paths."""
    rng = game_rng(8, 0)
    state = GameState.new(4, rng)
    play_game(state, [CLASSIC_BOT] * 4, rng)
    mid = GameState.replay(state.initial, state.history[: len(state.history) * 2 // 3])
    while mid.is_chance():
        mid.apply_chance(rng)
    assert mid.trades and not mid.is_terminal()
    kw = dict(n_games=12, seed=2, progress=False, start=mid)
    fast = simulate(4, "default", **kw)
    slow = simulate(4, "default", compiled=False, **kw)
    for name in ("games", "seats", "eliminations", "trades", "starts"):
        assert getattr(fast, name).equals(getattr(slow, name)), name
    assert len(fast.trades) >= 12 * len(mid.trades)


def test_only_plain_heuristic_bots_are_compiled():
    from analyzer.bots import RandomBot
    from analyzer.studies.policies import ContinentCardBot

    assert playout.compiled([CLASSIC_BOT, HeuristicBot(stop_at=3)])
    assert not playout.compiled([CLASSIC_BOT, RandomBot()])
    assert not playout.compiled([ContinentCardBot(), CLASSIC_BOT])
    with pytest.raises(
        SimulationError,
        match="runs HeuristicBot, PlannerBot, HunterBot, StrategistBot, ClusterBot, PixieBot seats only",
    ):
        playout.play_compiled(
            GameState.new(2, np.random.default_rng(0)), [CLASSIC_BOT, RandomBot()], np.random.default_rng(0)
        )


def test_invariants_over_thousands_of_compiled_games():
    """2,000 4-player games: one winner holding the whole map, every card somewhere, eliminations
    by the winner's rivals in turn order, and the classic set values 4, 6, 8, 10, 12, 15, 20, ..."""
    result = simulate(4, "default", n_games=2000, seed=21, progress=False)
    games, seats, trades, elims = result.games, result.seats, result.trades, result.eliminations
    assert not games["capped"].any()
    finals = seats.merge(games[["game", "winner"]], on="game")
    winners = finals[finals["seat"] == finals["winner"]]
    assert (winners["final_territories"] == 42).all() and (winners["rank"] == 1).all()
    assert (finals[finals["seat"] != finals["winner"]]["final_territories"] == 0).all()
    assert (elims.groupby("game").size() == 3).all()
    assert (elims.groupby("game")["turn"].apply(lambda t: t.is_monotonic_increasing)).all()
    # The k-th set traded in a game is worth the k-th classic value.
    expected = list(PROGRESSIVE_SET_VALUES) + [15 + 5 * k for k in range(1, 200)]
    for _, part in trades.groupby("game"):
        assert part["value"].tolist() == expected[: len(part)]
    assert (trades.groupby("game")["turn"].apply(lambda t: t.is_monotonic_increasing)).all()
    assert (games["turns"] >= 4).all()  # nobody is knocked out in the first round


def test_compiled_states_keep_armies_and_cards():
    for game in range(200):
        rng = game_rng(3, game)
        state = GameState.new(3, rng)
        playout.play_compiled(state, [CLASSIC_BOT] * 3, rng)
        assert state.is_terminal() and state.winner is not None
        assert (state.armies >= 1).all() and (state.owner == state.winner).all()
        held = state.card_loc >= 0
        assert set(state.card_loc[held].tolist()) <= {state.winner}
        assert len(state.card_loc) == 44


def test_a_battle_cache_that_grows_and_then_fills_plays_the_same_games(monkeypatch):
    """The pool doubles between games up to its cap, then battles are solved each time: neither may
    change a game (compared with the per-game Python path, which solves every battle afresh)."""
    monkeypatch.setattr(playout.BattleCache, "POOL", 1 << 10)
    monkeypatch.setattr(playout.BattleCache, "MAX_POOL", 1 << 13)
    playout.battle_cache.cache_clear()
    try:
        kw = dict(n_games=12, seed=8, progress=False, max_rounds=40)
        fast = simulate(3, "default", **kw)
        cache = playout.battle_cache(Rules().dice, False)
        assert cache.pool.shape[0] == 1 << 13  # grew three times, and no further
        # Every cached battle, including those stored before the pool moved, is still the solver's.
        kernel = playout._kernel(Rules().dice, False)
        for h in np.flatnonzero(cache.keys >= 0):
            key, at = int(cache.keys[h]), int(cache.where[h])
            a, d, stop = key >> 32, (key >> 10) & ((1 << 22) - 1), key & 1023
            a_left, d_left, cdf = outcome_cdf(a, d, *kernel[:3], stop, *kernel[3:])
            stored = cache.pool[(at >> 20) : (at >> 20) + 3 * (at & ((1 << 20) - 1))].reshape(-1, 3)
            assert stored.tolist() == np.column_stack([a_left, d_left, cdf]).tolist()
        slow = simulate(3, "default", compiled=False, **kw)
        for name in ("games", "seats", "eliminations", "trades"):
            assert getattr(fast, name).equals(getattr(slow, name)), name
    finally:
        playout.battle_cache.cache_clear()


@pytest.mark.parametrize(
    ("attackers", "defenders", "stop_at", "dice"),
    [
        (2, 1, 1, DiceRules()),
        (5, 2, 3, DiceRules()),
        (30, 12, 1, DiceRules()),
        (50, 40, 4, DiceRules()),
        (12, 9, 2, DiceRules(ties_to_attacker=True)),
        (9, 6, 1, DiceRules(defender_max=3)),
    ],
)
def test_simulator_battle_outcomes_are_the_solvers(attackers, defenders, stop_at, dice):
    options = BattleOptions(dice=dice)
    exact = battle(attackers, defenders, stop_at=stop_at, options=options)
    a_left, d_left, prob = outcome_arrays(attackers, defenders, *kernel_args(options, stop_at))
    assert a_left.tolist() == exact.attacker_left.tolist() and d_left.tolist() == exact.defender_left.tolist()
    np.testing.assert_allclose(prob, exact.probability, rtol=0, atol=1e-13)


@pytest.mark.parametrize(("attackers", "defenders", "stop_at"), [(2, 1, 1), (5, 2, 3), (30, 12, 1), (14, 20, 4)])
def test_a_battles_expected_armies_left_are_the_solvers(attackers, defenders, stop_at):
    """The luck's baseline: from a battle's cache entry, and from the solver's distribution where the cache has
    none, the armies each side keeps on average are the exact solver's."""
    exact = battle(attackers, defenders, stop_at=stop_at)
    expected = (attackers - exact.expected_attacker_losses, defenders - exact.expected_defender_losses)
    kernel = playout._kernel(DiceRules(), False)
    cache = playout.BattleCache()
    full = playout.BattleCache()
    full.used[1] = full.SLOTS  # no room: the battle is solved afresh each time
    for arrays in (cache.arrays(), cache.arrays(), full.arrays()):  # stored, read back, and solved afresh
        *_, kept_a, kept_d = playout._draw_battle(*arrays, attackers, defenders, stop_at, kernel, 0.5)
        assert (kept_a, kept_d) == pytest.approx(expected, rel=0, abs=1e-9)
    assert len(cache) == 1 and full.used[2] == 1
    # The Python paths (the review's replayed turns) measure a battle's luck from the same baseline.
    assert battle_means(attackers, defenders, stop_at, DiceRules()) == pytest.approx(expected, rel=0, abs=1e-9)


def test_the_luck_play_each_keeps_is_each_forces_armies_beyond_expectation():
    """Over many play-ons the luck averages 0 for every force (within 4.5 standard errors), while single
    play-ons are lucky or not by several armies; keeping it changes no game."""
    state = GameState.random_start(3, game_rng(5, 0))
    bots = playout.Prepared([STRATEGIST_BOT] * 3, state.board, DiceRules())
    horizon = int(state.turn) + 2 * 3
    rows = np.tile(state.S, (3000, 1))
    luck = np.zeros((3000, 3))
    playout.play_each(state, rows, bots, game_rng(6, 0), until_turn=horizon, luck=luck)
    error = luck.std(axis=0, ddof=1) / np.sqrt(len(luck))
    assert np.all(np.abs(luck.mean(axis=0)) <= 4.5 * error), (luck.mean(axis=0), error)
    assert np.all(luck.std(axis=0) > 1.0)
    plain = playout.play_each(state, np.tile(state.S, (3000, 1)), bots, game_rng(6, 0), until_turn=horizon)
    assert np.array_equal(plain, rows)
    with pytest.raises(SimulationError, match="one value per force"):
        playout.play_each(state, np.tile(state.S, (4, 1)), bots, game_rng(6, 0), luck=np.zeros((4, 2)))


def test_play_events_keeps_the_luck_play_each_keeps_in_the_same_game():
    """One game played on by play_events and by play_each from the same position on the same random numbers:
    the same game, with the same luck for each force; a luck array of the wrong shape is refused."""
    state = GameState.random_start(4, game_rng(7, 0))
    bots = playout.Prepared([STRATEGIST_BOT] * 4, state.board, DiceRules())
    horizon = int(state.turn) + 3 * 4
    for seed in range(5):
        single = state.copy()
        luck = np.zeros(int(state.S[engine.N_FORCES]))
        playout.play_events(single, bots, game_rng(8, seed), until_turn=horizon, luck=luck)
        rows = np.tile(state.S, (1, 1))
        each = np.zeros((1, int(state.S[engine.N_FORCES])))
        playout.play_each(state, rows, bots, game_rng(8, seed), until_turn=horizon, luck=each)
        assert np.array_equal(single.S, rows[0])
        assert luck.tolist() == each[0].tolist() and np.abs(luck).sum() > 0
    with pytest.raises(SimulationError, match="one value per force"):
        playout.play_events(state.copy(), bots, game_rng(8, 0), luck=np.zeros(2))


def test_engine_set_values_follow_the_rules():
    board_rules = Rules()
    state = GameState.new(4, np.random.default_rng(0), board_rules)
    for k in range(40):
        state.sets_traded = k
        assert engine.set_value(state.S, state.C, 0, 1, 2) == board_rules.set_value(k)
    fixed = GameState.new(4, np.random.default_rng(0), Rules(card_values="fixed"))
    symbols = fixed.board.card_symbols
    for cards in [(0, 1, 2), (0, 3, 6), (42, 0, 1), (42, 43, 5)]:
        expected = Rules(card_values="fixed").set_value(0, tuple(int(symbols[c]) for c in cards))
        assert engine.set_value(fixed.S, fixed.C, *cards) == expected


@pytest.mark.parametrize("n_players", [2, 3, 4, 6])
def test_play_each_plays_its_rows_as_play_events_does_one_after_another(n_players):
    """Many play-ons of one position in one compiled call: each row ends where the legality-checked
    per-game path, drawing from the same generator row after row, ends it; each at the cut or the game's end."""
    bots = playout.Prepared([STRATEGIST_BOT] * n_players, GameState.new(n_players, game_rng(3, 0)).board, DiceRules())
    rng = game_rng(3, n_players)
    state = GameState.random_start(n_players, rng)
    playout.play_events(state, bots, rng, until_turn=3 * n_players)
    assert not state.is_terminal()
    horizon = int(state.turn) + 2 * int(np.sum(state.alive))
    rows = np.tile(state.S, (12, 1))
    each = game_rng(4, 0)
    ends = playout.play_each(state, rows, bots, each, until_turn=horizon)
    assert ends is rows
    one_by_one = game_rng(4, 0)
    for row in ends:
        s = state.copy()
        playout.play_events(s, bots, one_by_one, until_turn=horizon, check=True)
        assert np.array_equal(row, s.S)
        assert s.is_terminal() or s.turn == horizon
    assert len({row.tobytes() for row in ends}) > 1  # the rows played on other dice
    assert each.random() == one_by_one.random()  # and they drew the same random numbers, no more


def test_play_each_refuses_rows_it_cannot_play():
    state = GameState.random_start(3, game_rng(3, 1))
    bots = playout.Prepared([STRATEGIST_BOT] * 3, state.board, DiceRules())
    with pytest.raises(SimulationError, match="rows of"):
        playout.play_each(state, state.S.copy(), bots, game_rng(0, 0))
    with pytest.raises(SimulationError, match="rows of"):
        playout.play_each(state, np.asfortranarray(np.tile(state.S, (4, 1))), bots, game_rng(0, 0))
    in_setup = GameState.new(3, game_rng(3, 1))
    with pytest.raises(SimulationError, match="past the setup"):
        playout.play_each(in_setup, np.tile(in_setup.S, (2, 1)), bots, game_rng(0, 0))
