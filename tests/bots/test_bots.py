"""The bots: parameters, the choices each knob promises, plugging in a user's bot, and strength."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.bots import CLASSIC_BOT, BattleOrder, Bot, HeuristicBot, RandomBot, make_bot
from analyzer.bots.heuristic import win_probability
from analyzer.errors import BotError
from analyzer.game.actions import EndAttack, EndTurn, Fortify, MoveIn, Place, Trade
from analyzer.game.board import classic_board
from analyzer.game.cards import find_sets
from analyzer.game.dice import DiceRules
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.sim.simulate import simulate
from analyzer.solver.battle import battle, battle_exact

BOARD = classic_board()
T = BOARD.index


def position(owner: dict[str, int], armies: dict[str, int], *, rest: int = 0, rest_armies: int = 1, **kw) -> GameState:
    """Player 0 to move; named territories as given, every other one owned by ``rest``."""
    own = [rest] * BOARD.n_territories
    arm = [rest_armies] * BOARD.n_territories
    for name, p in owner.items():
        own[T(name)] = p
    for name, a in armies.items():
        arm[T(name)] = a
    return GameState.from_position(own, arm, **kw)


def to_attack(state: GameState, where: str, armies: dict[str, int]) -> GameState:
    """Place the turn's reinforcements on ``where``, then set the armies given: the attack phase."""
    state.apply(Place(T(where), state.pending))
    for name, a in armies.items():
        state.armies[T(name)] = a
    assert state.phase == Phase.ATTACK
    return state


# ---------------------------------------------------------------------------------- parameters
@pytest.mark.parametrize(
    "kwargs",
    [
        {"attack_threshold": 1.5},
        {"card_threshold": -0.1},
        {"stop_at": 0},
        {"reinforce": "everywhere"},
        {"fortify": "sometimes"},
        {"cards": "never"},
        {"card_value": -1},
        {"continent_focus": -1.0},
    ],
)
def test_bad_parameters_are_value_errors_naming_the_parameter(kwargs):
    with pytest.raises(BotError, match=next(iter(kwargs))) as info:
        HeuristicBot(**kwargs)
    assert isinstance(info.value, ValueError)


def test_bots_by_name_and_by_module_path():
    assert make_bot("classic") is CLASSIC_BOT and make_bot("heuristic") is CLASSIC_BOT
    assert make_bot("default") is make_bot("strategist") and make_bot("planner") is not make_bot("default")
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("analyzer.bots:HeuristicBot"), HeuristicBot)
    with pytest.raises(BotError, match="unknown bot 'nope'"):
        make_bot("nope")
    with pytest.raises(BotError, match="cannot import"):
        make_bot("analyzer.bots:NoSuchBot")
    with pytest.raises(BotError, match="not a bot"):
        make_bot("analyzer.game.board:classic_board")


class NeverFortifies:
    """A user's bot in a few lines: the default bot, except that it never fortifies."""

    def choose(self, state, rng):
        return EndTurn() if state.phase == Phase.FORTIFY else CLASSIC_BOT.choose(state, rng)


def test_a_users_bot_plugs_in_and_plays_legal_games():
    assert isinstance(NeverFortifies(), Bot)
    result = simulate(3, [NeverFortifies(), "default", "random"], n_games=4, seed=3, check=True, progress=False)
    assert result.seats["bot"].tolist()[:3] == ["NeverFortifies", "default", "random"]
    assert len(result.games) == 4


# ---------------------------------------------------------------------------------- attacks
def test_win_table_is_the_solver():
    dice = DiceRules()
    a = np.array([2, 3, 5, 10, 25, 60])
    d = np.array([1, 2, 4, 5, 30, 20])
    expected = [battle(int(x), int(y)).p_win for x, y in zip(a, d)]
    assert np.allclose(win_probability(a, d, 1, dice), expected, atol=1e-12)
    # Against the separate exact-fraction implementation too.
    assert win_probability(np.array([5]), np.array([3]), 2, dice)[0] == pytest.approx(
        float(sum(p for (_, dl), p in battle_exact(5, 3, stop_at=2).items() if dl == 0))
    )


def test_attacks_only_above_the_threshold():
    # Ontario (ours, 6 armies) borders Quebec (3 armies) and four territories of 20; our other
    # territory, Alaska, holds 1 army and cannot attack.
    walls = {BOARD.territories[t]: 20 for t in BOARD.neighbors[T("Ontario")]}
    state = position(
        {"Ontario": 0, "Alaska": 0},
        walls | {"Ontario": 6, "Quebec": 3},
        rest=1,
    )
    state = to_attack(state, "Alaska", {"Alaska": 1})
    p_quebec = battle(6, 3).p_win
    assert 0.5 < p_quebec < 0.9
    strict = HeuristicBot(attack_threshold=0.9, card_threshold=0.9)
    assert strict.choose(state, np.random.default_rng(0)) == EndAttack()
    eager = HeuristicBot(attack_threshold=0.5, card_threshold=0.5)
    assert eager.choose(state, np.random.default_rng(0)) == BattleOrder(T("Ontario"), T("Quebec"), 1)


def test_the_first_capture_of_a_turn_uses_the_card_threshold():
    # Ontario (6) is our only attacker; each of its neighbours holds 3.
    walls = {BOARD.territories[t]: 3 for t in BOARD.neighbors[T("Ontario")]}
    state = position({"Ontario": 0}, walls, rest=1)
    state = to_attack(state, "Ontario", {"Ontario": 6})
    assert 0.5 < battle(6, 3).p_win < 0.9
    bot = HeuristicBot(attack_threshold=0.9, card_threshold=0.5)
    assert isinstance(bot.choose(state, np.random.default_rng(0)), BattleOrder)
    state.captured = True  # the card is earned: back to the plain threshold
    assert bot.choose(state, np.random.default_rng(0)) == EndAttack()


# ---------------------------------------------------------------------------------- reinforcement
def test_ratio_reinforcement_stacks_the_most_threatened_border():
    # Player 0 holds South America; Brazil faces North Africa's 12, Venezuela faces Central America's 2.
    sa = ["Brazil", "Venezuela", "Peru", "Argentina"]
    state = position(
        {n: 0 for n in sa} | {"North Africa": 1, "Central America": 1},
        {"Brazil": 3, "Venezuela": 3, "Peru": 2, "Argentina": 2, "North Africa": 12, "Central America": 2},
        rest=1,
    )
    action = HeuristicBot(reinforce="ratio").choose(state, np.random.default_rng(0))
    assert isinstance(action, Place) and action.territory == T("Brazil")


def test_attack_reinforcement_stacks_the_source_of_the_best_attack():
    # Player 0 holds all of Australia but Western Australia (1 army): taking it completes the continent.
    state = position(
        {"Eastern Australia": 0, "New Guinea": 0, "Indonesia": 0, "Western Australia": 1},
        {"Western Australia": 1, "Eastern Australia": 2, "New Guinea": 2, "Indonesia": 2},
        rest=1,
        rest_armies=5,
    )
    action = CLASSIC_BOT.choose(state, np.random.default_rng(0))
    assert isinstance(action, Place) and action.armies == state.pending
    assert T("Western Australia") in BOARD.neighbors[action.territory]


# ---------------------------------------------------------------------------------- cards
def _set_cards() -> list[int]:
    return list(find_sets(list(range(BOARD.n_territories)), BOARD.card_symbols)[0])


@pytest.mark.parametrize(
    ("policy", "card_value", "sets_traded", "trades"),
    [
        ("first", 0, 0, True),
        ("forced", 0, 5, False),  # the 6th set is worth 15, but it holds until forced
        ("value", 4, 0, True),  # the first set is worth 4 (classic progressive values)
        ("value", 5, 0, False),
        ("value", 8, 2, True),  # the third set is worth 8
        ("value", 9, 2, False),
    ],
)
def test_card_policies(policy, card_value, sets_traded, trades):
    cards = _set_cards()
    state = position({"Kamchatka": 1}, {}, rest=0, hands={0: cards}, sets_traded=sets_traded)  # someone to fight
    bot = HeuristicBot(cards=policy, card_value=card_value)
    action = bot.choose(state, np.random.default_rng(0))
    assert isinstance(action, Trade) is trades
    if trades:
        assert sorted(action.cards) == sorted(cards)


def test_every_policy_trades_when_forced_at_five_cards():
    first = _set_cards()
    hand = first + [c for c in range(BOARD.n_territories) if c not in first][:2]
    assert len(set(hand)) == 5
    state = position({"Kamchatka": 1}, {}, rest=0, hands={0: hand})
    bot = HeuristicBot(cards="forced")
    assert isinstance(bot.choose(state, np.random.default_rng(0)), Trade)


# ---------------------------------------------------------------------------------- after a capture, fortify
def test_fortify_moves_the_interior_stack_toward_the_front():
    # Player 0 holds Australia and Siam; Siam is the front. Eastern Australia (interior, 9) moves toward it.
    state = position(
        {"Eastern Australia": 0, "Western Australia": 0, "New Guinea": 0, "Indonesia": 0, "Siam": 0},
        {"Eastern Australia": 9},
        rest=1,
    )
    state.apply(Place(T("Siam"), state.pending))
    state.apply(EndAttack())
    action = HeuristicBot(fortify="border").choose(state, np.random.default_rng(0))
    assert isinstance(action, Fortify) and action.source == T("Eastern Australia") and action.armies == 8
    assert action.target in (T("New Guinea"), T("Western Australia"))
    assert HeuristicBot(fortify="none").choose(state, np.random.default_rng(0)) == EndTurn()


def test_move_in_keeps_armies_back_only_when_asked():
    state = position({"Ontario": 0, "Quebec": 1}, {"Ontario": 10, "Quebec": 1, "Eastern United States": 7}, rest=1)
    state = to_attack(state, "Ontario", {"Ontario": 10})
    from analyzer.game.actions import Battle

    state.apply(Battle(T("Ontario"), T("Quebec"), 10, 0))
    lo, hi = state.move_range()
    assert CLASSIC_BOT.choose(state, np.random.default_rng(0)) == MoveIn(hi)
    keeper = HeuristicBot(keep_ratio=0.5)
    kept = keeper.choose(state, np.random.default_rng(0))
    assert isinstance(kept, MoveIn) and lo <= kept.armies < hi


# ---------------------------------------------------------------------------------- strength
def test_default_bot_beats_random_in_two_player_games():
    result = simulate(2, ["default", "random"], n_games=200, seed=11, progress=False)
    rate = result.win_rates("bot").set_index("bot").loc["default"]
    assert rate["games"] == 200 and rate["ci_low"] > 0.9


def test_default_bot_beats_the_simpler_bots_in_four_player_games():
    result = simulate(4, ["default", "greedy", "cautious", "random"], n_games=160, seed=12, progress=False)
    rates = result.win_rates("bot").set_index("bot")
    # A fair share is 1/4; the default bot's whole interval is above it and above every other bot's rate.
    assert rates.loc["default", "ci_low"] > 0.25
    for other in ("greedy", "cautious", "random"):
        assert rates.loc["default", "ci_low"] > rates.loc[other, "win_rate"]
