"""The planning bot: legal moves under every rule variant, the same games compiled and in Python,
and plans that follow the exact solver."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.bots import CLASSIC_BOT, make_bot
from analyzer.bots.heuristic import board_data
from analyzer.bots.planner import PLANNER_BOT, PlannerBot, ease_weights
from analyzer.errors import BotError
from analyzer.game.actions import Place
from analyzer.game.board import classic_board
from analyzer.game.dice import DiceRules
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.sim import playout
from analyzer.sim.play import play_game
from analyzer.sim.runs import game_rng
from analyzer.sim.simulate import simulate
from analyzer.solver.chains import conquest

BOARD = classic_board()
VARIANTS = [
    Rules(),
    Rules(fortify="connected", card_values="fixed", territory_bonus=0),
    Rules(missions=True),
    Rules(capitals=True, setup="deal"),
    Rules(dice=DiceRules(ties_to_attacker=True)),
]


@pytest.mark.parametrize(
    "rules",
    VARIANTS,
    ids=lambda r: f"{r.fortify}-{r.card_values}-m{int(r.missions)}-c{int(r.capitals)}-t{int(r.dice.ties_to_attacker)}",
)
@pytest.mark.parametrize("n_players", [2, 3, 4, 6])
@pytest.mark.parametrize("sample", [True, False], ids=["sampled", "rolled"])
def test_planner_plays_legal_games_the_same_compiled_and_checked(rules, n_players, sample):
    """Every action of the Python loop goes through GameState.apply (every legality check); the
    compiled game from the same generator must end in the very same state with the same records."""
    bots = [PLANNER_BOT, CLASSIC_BOT, PlannerBot(plan_threshold=0.3, cards="first", draft="model")] * 2
    bots = bots[:n_players]
    for game in range(2):
        r1, r2 = game_rng(13, game), game_rng(13, game)
        checked, fast = GameState.new(n_players, r1, rules), GameState.new(n_players, r2, rules)
        play_game(checked, bots, r1, sample_battles=sample, check=True)
        record = playout.play_compiled(fast, bots, r2, sample_battles=sample)
        assert checked.is_terminal()
        assert fast.to_dict(history=False) == checked.to_dict(history=False)
        assert record.trades == checked.trades and record.eliminations == checked.eliminations
        assert r1.random() == r2.random()


def test_simulated_tables_are_the_same_either_way():
    bots = ["planner", "default", "greedy", "planner"]
    kw = dict(n_games=20, seed=5, progress=False, record_turns=True, batch_size=7, max_rounds=40)
    fast = simulate(4, bots, **kw)
    slow = simulate(4, bots, compiled=False, **kw)
    for name in ("games", "seats", "eliminations", "trades", "starts", "turns"):
        assert getattr(fast, name).equals(getattr(slow, name)), name


def test_registered_and_compiled():
    assert make_bot("planner") is PLANNER_BOT
    assert playout.compiled([PLANNER_BOT, CLASSIC_BOT])
    with pytest.raises(BotError, match="plan_threshold"):
        PlannerBot(plan_threshold=1.5)
    with pytest.raises(BotError, match="bonus_turns"):
        PlannerBot(bonus_turns=-1)
    with pytest.raises(BotError, match="draft_weights has 2 entries"):
        PlannerBot(draft_weights=(1.0, 2.0)).params(board_data(BOARD))


def test_ease_weights_rank_the_continents_by_size_and_borders():
    # 1 / (territories + border territories): Australia 1/5, South America 1/6, Africa 1/9, Europe 1/11,
    # North America 1/12, Asia 1/17; scaled to Australia's.
    names = [c.name for c in BOARD.continents]
    w = dict(zip(names, ease_weights(board_data(BOARD))))
    expected = {"Australia": 5, "South America": 6, "Africa": 9, "Europe": 11, "North America": 12, "Asia": 17}
    for name, k in expected.items():
        assert w[name] == pytest.approx(5 / k)


def _australia_position(siam: int, indonesia: int) -> GameState:
    """Player 0 holds Siam and everything but Australia; player 1 holds Australia."""
    australia = [t for t in range(42) if BOARD.continent_of[t] == [c.name for c in BOARD.continents].index("Australia")]
    owner = [1 if t in australia else 0 for t in range(42)]
    armies = [1] * 42
    armies[BOARD.index("Siam")] = siam
    armies[BOARD.index("Indonesia")] = indonesia
    return GameState.from_position(owner, armies, n_players=2)


def test_reinforces_the_stack_of_the_plan_and_attacks_along_it():
    """All reinforcements go to Siam, the one way into Australia; then the first battle is Indonesia."""
    state = _australia_position(siam=6, indonesia=1)
    assert state.phase == Phase.REINFORCE
    rng = np.random.default_rng(0)
    decision = PLANNER_BOT.choose(state, rng)
    assert decision == Place(BOARD.index("Siam"), int(state.pending))
    state.apply(decision)
    order = PLANNER_BOT.choose(state, rng)
    assert (order.source, order.target) == (BOARD.index("Siam"), BOARD.index("Indonesia"))


def test_the_plans_odds_are_close_to_the_exact_whole_region_conquest():
    """The planner scores taking Australia as one battle against its armies plus the garrisons; the
    exact whole-region odds (chains.conquest) of the same attack must be close, for stacks big enough to
    leave an army in every territory (0.517 against 0.536 from 8 armies, 0.869 against 0.800 from 11)."""
    from analyzer.bots.heuristic import win_probability

    borders = [(BOARD.territories[b.a], BOARD.territories[b.b]) for b in BOARD.borders]
    targets = {"Indonesia": 1, "New Guinea": 1, "Western Australia": 1, "Eastern Australia": 1}
    for siam in (8, 11, 15, 20):
        exact = conquest({"Siam": siam}, targets, borders).p_all
        approx = float(win_probability(np.array([siam]), np.array([4 + 3]), 1, DiceRules())[0])
        assert approx == pytest.approx(exact, abs=0.08), siam


MODEL_DRAFT = PlannerBot(draft="model")


def test_the_model_draft_claims_what_raises_its_fitted_odds_most():
    """A second implementation: the studies' draft features (draft_arrays) of every claim open, scored
    with the model's coefficients; the compiled claim must be one of the best (the tie-break is 1e-6)."""
    from analyzer.bots.draft_model import COEFFICIENTS
    from analyzer.game.actions import Claim
    from analyzer.studies.openings import draft_arrays, slug

    for n in (3, 4, 5, 6):
        rng = np.random.default_rng(n)
        terms = COEFFICIENTS[n]
        for _ in range(15):
            state = GameState.new(n, rng)
            for _ in range(int(rng.integers(0, 41))):
                free = np.flatnonzero(state.owner == -1)
                state.apply(Claim(int(free[rng.integers(len(free))])))
            p, free = state.player, np.flatnonzero(state.owner == -1)
            candidates = np.repeat(state.owner[None, :].astype(np.int64), len(free), axis=0)
            candidates[np.arange(len(free)), free] = p
            arrays = draft_arrays(candidates, np.full(len(free), state.first_player), n, BOARD)
            logit = (
                terms["enemy neighbours"] * arrays["enemy_neighbours"][:, p]
                + terms["adjacent pairs"] * arrays["adjacent_pairs"][:, p]
            )
            for continent in BOARD.continents:
                held = arrays[f"in_{slug(continent.name)}"][:, p]
                logit = logit + np.array([terms[f"{continent.name} {k}"] if k else 0.0 for k in held])
            claim = MODEL_DRAFT.choose(state, rng)
            assert logit[list(free).index(claim.territory)] >= logit.max() - 1e-5
    # The ease-of-holding draft (the default) reads no model.
    assert PLANNER_BOT.params(board_data(BOARD))[-1] == 0 and PLANNER_BOT.draft == "ease"
    with pytest.raises(BotError, match="draft='x'"):
        PlannerBot(draft="x")


def test_the_draft_fit_gives_every_term_the_compiled_claim_reads():
    """The study that makes the bot's coefficients (analyzer.studies.draft_fit) fits the same terms the
    compiled claim reads (model_block would raise a KeyError on a missing one), reproducibly."""
    from analyzer.bots.draft_model import COEFFICIENTS, model_block
    from analyzer.studies.draft_fit import fit_coefficients

    fitted = fit_coefficients(3, games=40, seed=5)
    assert set(fitted) == set(COEFFICIENTS[3])
    assert fitted == fit_coefficients(3, games=40, seed=5)
    assert all(np.isfinite(v) for v in fitted.values())
    block = model_block(np.asarray(BOARD.continent_of))
    assert block[0] == 1.0


# ---------------------------------------------------------------------------------- the turn search
def test_turn_search_is_reproducible_and_its_turn_is_legal():
    from analyzer.analysis.search import PLANS, play_setup, suggest_turn

    state = play_setup(GameState.new(3, np.random.default_rng(4)), np.random.default_rng(4))
    plans = {
        name: PLANS[name] for name in ("default", "bold: attack any fight at 50%", "careful: only near-certain fights")
    }
    one = suggest_turn(state, rollouts=6, seed=2, plans=plans)
    two = suggest_turn(state, rollouts=6, seed=2, plans=plans)
    assert one.table.equals(two.table) and one.actions == two.actions
    assert one.rollouts == 6 and set(one.table["plan"]) == set(plans)
    base = one.table.set_index("plan").loc["default"]
    assert base["gain"] == 0 and base["gain_low"] == 0 == base["gain_high"]
    # The gain is the paired difference of win chances on the same rollouts.
    for _, row in one.table.iterrows():
        assert row["gain"] == pytest.approx(row["win_chance"] - base["win_chance"])
        assert row["gain_low"] <= row["gain"] <= row["gain_high"]
    # The recommended turn replays legally through the checked engine on the first rollout's dice.
    from analyzer.analysis.search import _play_turn

    s = state.copy()
    record: list = []
    _play_turn(s, state.current_player, PLANS[one.plan], game_rng(2, 0), record)
    assert tuple(d for d, _ in record) == one.actions and tuple(a for _, a in record) == one.line
    assert s.turn == state.turn + 1 or s.is_terminal()
    # The line is the engine's own actions: it replays through every legality check, ending the turn.
    replay, rng = state.copy(), np.random.default_rng(0)
    for action in one.line:
        while replay.is_chance():
            replay.apply_chance(rng)
        replay.apply(action)
    while replay.is_chance():
        replay.apply_chance(rng)
    assert replay.turn == state.turn + 1 or replay.is_terminal()
    assert one.default_win_chance == base["win_chance"]
    with pytest.raises(BotError, match="rollouts must be at least 2"):
        suggest_turn(state, rollouts=1)


@pytest.mark.parametrize("rules", [Rules(), Rules(balanced_blitz=True)], ids=["classic", "balanced blitz"])
def test_turn_search_plays_its_unrecorded_turns_in_compiled_code_as_the_checked_engine_does(rules):
    # Only the first rollout's turn is recorded; the others are played in compiled code, which must give the same
    # games on the same random numbers as the checked engine does, for every plan, so that the search's figures do
    # not depend on which path played them.
    from analyzer.analysis.search import PLANS, _play_turn, play_setup

    rng = np.random.default_rng(9)
    state = play_setup(GameState.new(4, rng, rules=rules), rng)
    compared = 0
    for turn in range(10):
        if state.is_terminal():
            break
        me = state.current_player
        for k, (name, bot) in enumerate(PLANS.items()):
            checked, compiled = state.copy(), state.copy()
            _play_turn(checked, me, bot, game_rng(turn, k), [])
            _play_turn(compiled, me, bot, game_rng(turn, k), None)
            assert np.array_equal(checked.S, compiled.S), (turn, name)
            compared += 1
        _play_turn(state, me, PLANS["default"], rng, [])
    assert compared >= 5 * len(PLANS)


def test_turn_search_draws_the_face_down_cards_afresh_after_the_first_rollout(monkeypatch):
    from analyzer.analysis.position import new_game_from_position
    from analyzer.analysis.search import play_setup, suggest_turn
    from analyzer.game import face_down

    dealt = play_setup(GameState.new(3, np.random.default_rng(4)), np.random.default_rng(4))
    me, second, third = [(dealt.player + i) % 3 for i in range(3)]
    state = new_game_from_position(dealt, hands={me: [7, 8], second: ["?", "?", "?", "?"], third: ["?"]})
    draws = []
    real = face_down.Dealer.game
    monkeypatch.setattr(face_down.Dealer, "game", lambda dealer, rng: draws.append(real(dealer, rng)) or draws[-1])
    tip = suggest_turn(state, rollouts=5, seed=3, plans={"default": PLANNER_BOT})
    assert len(draws) == 4  # every rollout but the first, which keeps the position's own cards
    assert all(d.face_down == [] and d.hand(me) == [7, 8] for d in draws)
    assert len({tuple(d.hand(second)) for d in draws}) == 4
    replay, rng = state.copy(), np.random.default_rng(0)
    for action in tip.line:  # the turn shown is one the position itself can play
        while replay.is_chance():
            replay.apply_chance(rng)
        replay.apply(action)


def test_turn_search_draws_its_battles_from_balanced_blitz_under_that_rule():
    """Under Balanced Blitz the turn the search suggests is played on Balanced Blitz's odds, as its
    rollouts are: the search resolves a battle order through the simulator's one resolver.

    Player 0 holds Eastern Australia alone, so its 3 new armies go there and its first battle is
    always 6 against 4 (both neighbours hold 4). Balanced Blitz cuts a tenth of the probability off
    each end of the line of outcomes, so some of the classic outcomes (a conquest losing almost
    nothing) never happen under it: a draw from the classic odds lands there about one time in ten."""
    from analyzer.analysis.search import _play_turn
    from analyzer.sim.battles import battle_sampler

    board = classic_board()
    home = board.index("Eastern Australia")
    owner = [1 + t % 2 for t in range(board.n_territories)]
    owner[home] = 0
    armies = [4] * board.n_territories
    armies[home] = 3
    rules = Rules(balanced_blitz=True)
    state = GameState.from_position(owner, armies, n_players=3, rules=rules)
    bold = PlannerBot(attack_threshold=0.0, card_threshold=0.0, plan_threshold=0.0)
    first: list[tuple[int, int]] = []
    for seed in range(400):
        s, record = state.copy(), []
        _play_turn(s, 0, bold, np.random.default_rng(seed), record)
        battle = next(action for _, action in record if type(action).__name__ == "Battle")
        assert battle.source == home
        first.append((battle.attacker_left, battle.defender_left))
    cdf, outcomes = battle_sampler(6, 4, bold.stop_at, rules.dice, balanced_blitz=True)
    p = dict(zip(outcomes, np.diff([0.0, *cdf])))
    classic_cdf, classic_outcomes = battle_sampler(6, 4, bold.stop_at, rules.dice)
    cut = {o for o, q in zip(classic_outcomes, np.diff([0.0, *classic_cdf])) if p.get(o, 0.0) == 0.0}
    assert sum(np.diff([0.0, *classic_cdf])[classic_outcomes.index(o)] for o in cut) > 0.05  # the test can tell
    assert not [o for o in first if o in cut]
    # And each outcome's share is Balanced Blitz's (a binomial 4-sigma band per outcome).
    for o, q in p.items():
        share = sum(x == o for x in first) / len(first)
        assert abs(share - q) <= 4 * np.sqrt(q * (1 - q) / len(first)) + 1e-9, (o, share, q)
