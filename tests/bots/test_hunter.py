"""The hunter and the strategist: victims and routes on hand-built positions (routes checked against
the exact chain solver), legal moves under every rule variant, and the same games compiled and in Python."""

from __future__ import annotations

import heapq

import numpy as np
import pytest
from support.playouts import assert_same_games

from analyzer.bots import BattleOrder, kills, make_bot
from analyzer.bots.heuristic import win_probability
from analyzer.bots.hunter import HUNTER_BOT, HunterBot
from analyzer.bots.planner import PLANNER_BOT
from analyzer.bots.strategist import STRATEGIST_BOT, StrategistBot
from analyzer.errors import BotError
from analyzer.game.actions import Place
from analyzer.game.board import classic_board
from analyzer.game.dice import DiceRules
from analyzer.game.rules import PROGRESSIVE_SET_VALUES, Rules
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.sim import playout
from analyzer.sim.play import play_game
from analyzer.sim.runs import game_rng
from analyzer.solver.chains import chain

BOARD = classic_board()
T = BOARD.index
VARIANTS = [
    Rules(),
    Rules(fortify="connected", card_values="fixed", territory_bonus=0),
    Rules(missions=True),
    Rules(capitals=True, setup="deal"),
    Rules(dice=DiceRules(ties_to_attacker=True)),
]


def position(owner: dict[str, int], armies: dict[str, int], *, rest: int = 0, rest_armies: int = 1, **kw) -> GameState:
    """Player 0 to move; named territories as given, every other one owned by ``rest``."""
    own = [rest] * BOARD.n_territories
    arm = [rest_armies] * BOARD.n_territories
    for name, p in owner.items():
        own[T(name)] = p
    for name, a in armies.items():
        arm[T(name)] = a
    return GameState.from_position(own, arm, **kw)


def scratch(state: GameState) -> np.ndarray:
    work = np.empty(kills.scratch_size(BOARD.n_territories, len(BOARD.continents)))
    kills.tally(state.S, state.C, work)
    kills.tally_cards(state.S, state.C, work)
    return work


# ---------------------------------------------------------------------------------- the victim
def _three_rivals(hands: dict[int, list[int]], sets_traded: int) -> GameState:
    """Player 0 holds most of the map (1 army each) with 20 on Ukraine; player 1 holds Iceland and
    Great Britain (6 armies), player 2 Egypt and East Africa (7), player 3 Argentina (5)."""
    owner = {"Iceland": 1, "Great Britain": 1, "Egypt": 2, "East Africa": 2, "Argentina": 3}
    armies = {"Iceland": 3, "Great Britain": 3, "Egypt": 4, "East Africa": 3, "Argentina": 5, "Ukraine": 20}
    return position(owner, armies, hands=hands, sets_traded=sets_traded, n_players=4)


def test_the_victim_is_the_weakest_counting_its_cards_against_it():
    # No cards: the fewest armies, player 3 (5).
    state = _three_rivals({}, 0)
    assert kills.weakest(state.S, state.C, 0, 2.0, scratch(state)) == 3
    # Player 2 holds 4 cards at a next set worth 15 (the 6th): 7 - 15 * 4 / 3 = -13 < 5 - 0.
    state = _three_rivals({2: [0, 1, 2, 3]}, 5)
    assert PROGRESSIVE_SET_VALUES[5] == 15
    assert kills.weakest(state.S, state.C, 0, 2.0, scratch(state)) == 2
    # The same 4 cards at a first set worth 4: 7 - 4 * 4 / 3 = 1.67 is still fewer than 5.
    state = _three_rivals({2: [0, 1, 2, 3]}, 0)
    assert kills.weakest(state.S, state.C, 0, 2.0, scratch(state)) == 2
    # One card at 4: 7 - 1.33 = 5.67 > 5, so player 3 again.
    state = _three_rivals({2: [0]}, 0)
    assert kills.weakest(state.S, state.C, 0, 2.0, scratch(state)) == 3


def test_a_victim_must_be_outnumbered_more_than_the_ratio():
    state = _three_rivals({}, 0)
    mine = int(state.armies[state.owner == 0].sum())
    # Player 3's 5 armies: a ratio just under mine / 5 keeps it the victim, one just over rules everyone out.
    assert kills.weakest(state.S, state.C, 0, mine / 5 - 0.1, scratch(state)) == 3
    assert kills.weakest(state.S, state.C, 0, mine / 5 + 0.1, scratch(state)) == -1


# ---------------------------------------------------------------------------------- the route
def _australian_victim() -> GameState:
    """Player 1 holds New Guinea (2) and Eastern Australia (3); player 2 holds Indonesia (2) and
    Western Australia (4); player 0 has 12 on Siam and the rest of the board at 1."""
    owner = {"New Guinea": 1, "Eastern Australia": 1, "Indonesia": 2, "Western Australia": 2}
    armies = {"New Guinea": 2, "Eastern Australia": 3, "Indonesia": 2, "Western Australia": 4, "Siam": 12}
    return position(owner, armies, n_players=3)


def test_the_route_runs_from_the_nearest_stack_through_the_cheapest_way_in():
    state = _australian_victim()
    work = scratch(state)
    assert kills.route_costs(state.S, state.C, 1, 0, 1e6, 0, work) == 1  # one connected group
    D = kills.region(BOARD.n_territories, len(BOARD.continents), kills.R_COST)
    # Into New Guinea from Indonesia: its 2 armies and the army left there; from Western Australia, 4 + 1.
    assert work[D + T("New Guinea")] == 0 and work[D + T("Eastern Australia")] == 0
    assert work[D + T("Indonesia")] == 3
    assert work[D + T("Western Australia")] == 5
    stack, cost = kills.best_stack(state.S, state.C, 0, 0, work)
    assert (stack, cost) == (T("Siam"), 3)
    assert kills.next_battle(state.S, state.C, stack, 1, work) == T("Indonesia")


def _full_costs(state: GameState, victim: int, player: int) -> list[float]:
    """The route costs by a plain Dijkstra over the whole board (no budget, no early stop)."""
    cost = [kills.FAR] * BOARD.n_territories
    heap = [(0.0, u) for u in range(BOARD.n_territories) if state.owner[u] == victim]
    for _, u in heap:
        cost[u] = 0.0
    while heap:
        d, u = heapq.heappop(heap)
        if d > cost[u]:
            continue
        for w in BOARD.neighbors[u]:
            c = d + state.armies[w] + 1.0
            if state.owner[w] != player and c < cost[w]:
                cost[w] = c
                heapq.heappush(heap, (c, w))
    return cost


def _stack_and_next(
    state: GameState, cost: list[float], player: int, victim: int, extra: int
) -> tuple[int, float, int]:
    """best_stack and next_battle's rules, written out over the full costs."""
    best, best_cost, best_left = -1, kills.FAR, -kills.FAR
    for s in range(BOARD.n_territories):
        if state.owner[s] != player or state.armies[s] + extra < 2:
            continue
        c = min((cost[w] for w in BOARD.neighbors[s] if state.owner[w] != player), default=kills.FAR)
        if c < kills.FAR and state.armies[s] + extra - c > best_left:
            best, best_cost, best_left = s, c, state.armies[s] + extra - c
    if best < 0:
        return best, best_cost, -1
    keys = [
        (
            -1000.0 + sum(state.owner[x] == victim for x in BOARD.neighbors[w])
            if state.owner[w] == victim
            else cost[w],
            state.armies[w],
            w,
        )
        for w in BOARD.neighbors[best]
        if state.owner[w] != player and cost[w] < kills.FAR
    ]
    return best, best_cost, min(keys)[2] if keys else -1


def test_the_route_search_stops_early_without_changing_the_stack_or_the_next_battle():
    """route_costs stops once no stack could keep more after its cost than the best found; at the
    attack decisions of played games, for every victim and armies to place, the stack, its cost and
    the next battle must be those a full search of the board gives."""
    checked = []

    class Checking:
        def choose(self, state: GameState, rng: np.random.Generator):
            if state.phase == Phase.ATTACK:
                player = state.player
                for victim in sorted({int(o) for o in state.owner} - {player}):
                    for extra in (0, 7):
                        work = scratch(state)
                        if kills.route_costs(state.S, state.C, victim, player, 1e6, extra, work) != 1:
                            continue
                        stack, cost = kills.best_stack(state.S, state.C, player, extra, work)
                        battle = kills.next_battle(state.S, state.C, stack, victim, work) if stack >= 0 else -1
                        full = _stack_and_next(state, _full_costs(state, victim, player), player, victim, extra)
                        assert (stack, cost, battle) == full
                        checked.append(full)
            return STRATEGIST_BOT.choose(state, rng)

    for game in range(2):
        play_game(GameState.new(4, game_rng(23, game)), [Checking()] * 4, game_rng(23, game))
    assert len(checked) >= 300 and len({c[0] for c in checked}) > 10


def test_the_routes_odds_follow_the_exact_chain_solver():
    """The kill is scored as one battle against every army on the way plus the garrisons; the exact
    odds of the same chain (Indonesia 2, New Guinea 2, Eastern Australia 3, an army left in each
    territory moved on from) must be close (as the planner's whole-region figure, test_planner)."""
    state = _australian_victim()
    work = scratch(state)
    kills.route_costs(state.S, state.C, 1, 0, 1e6, 0, work)
    _, cost = kills.best_stack(state.S, state.C, 0, 0, work)
    need = kills.defenders_to_beat(state.C, 5, 2, cost)
    assert need == 2 + 1 + (2 + 3) + 1  # Indonesia and its garrison, the victim's armies, one more garrison
    for stack in (10, 12, 16, 22):
        exact = chain(stack, [2, 2, 3]).p_win
        approx = float(win_probability(np.array([stack]), np.array([need]), 1, DiceRules())[0])
        assert approx == pytest.approx(exact, abs=0.08), stack


def test_the_hunter_stacks_and_attacks_along_the_route_only_when_it_is_affordable():
    state = _australian_victim()
    # 12 on Siam plus this turn's armies against 9 to beat: the hunt is on.
    rng = np.random.default_rng(0)
    decision = HUNTER_BOT.choose(state, rng)
    assert decision == Place(T("Siam"), int(state.pending))
    state.apply(decision)
    order = HUNTER_BOT.choose(state, rng)
    assert isinstance(order, BattleOrder) and (order.source, order.target) == (T("Siam"), T("Indonesia"))
    # The rule itself: the stack plus the armies still to place must exceed the 9 to beat.
    from analyzer.bots.hunter import _hunt
    from analyzer.bots.planner import planner_args

    bp, table = planner_args(HUNTER_BOT, BOARD, DiceRules())
    poor = _australian_victim()
    poor.armies[T("Siam")] = 2
    work = scratch(poor)
    assert _hunt(poor.S, poor.C, bp, table, 7, work)[0] == -1  # 2 + 7 = 9 does not exceed 9
    assert _hunt(poor.S, poor.C, bp, table, 8, work)[:3] == (T("Siam"), T("Indonesia"), 1)
    # During the attack (nothing left to place) it goes on while the stack holds go_on (0.8) of the 9.
    poor.armies[T("Siam")] = 7
    assert _hunt(poor.S, poor.C, bp, table, 0, work)[0] == -1  # 7 <= 7.2
    poor.armies[T("Siam")] = 8
    assert _hunt(poor.S, poor.C, bp, table, 0, work)[0] == T("Siam")


def test_cards_taken_are_worth_the_sets_traded_at_once():
    state = _three_rivals({}, 0)  # next sets worth 4, 6, 8, ...
    S, C = state.S, state.C
    # 3 + 3 = 6 cards: one set traded at once (4) down to 3, no more than it held before the kill.
    assert kills.cards_worth(S, C, 3.0, 3.0, 0.5) == pytest.approx(4.0)
    # 4 + 4 = 8: two sets (4 and 6) down to 2.
    assert kills.cards_worth(S, C, 4.0, 4.0, 0.5) == pytest.approx(10.0)
    # 1 + 2 = 3: no trade; the 2 cards taken are worth half a third of the next set (4) each.
    assert kills.cards_worth(S, C, 1.0, 2.0, 0.5) == pytest.approx(2 * 0.5 * 4 / 3)


def test_the_strategist_stacks_for_a_kill_worth_its_cards():
    """Player 1 (New Guinea, Eastern Australia: 5 armies) holds 4 cards with the 7th set next (20
    armies); player 0 holds 2, so the kill hands it 6 and a set traded at once: it puts every army on
    Siam and attacks along the route. Without the cards, and with the territories the only prize, the
    kill is not worth the armies it costs with kill_worth raised to 10."""
    hands = {1: [0, 1, 2, 3], 0: [4, 5]}
    owner = {"New Guinea": 1, "Eastern Australia": 1, "Indonesia": 2, "Western Australia": 2}
    armies = {"New Guinea": 2, "Eastern Australia": 3, "Indonesia": 2, "Western Australia": 4, "Siam": 12, "China": 12}
    state = position(owner, armies, n_players=3, hands=hands, sets_traded=6)
    rng = np.random.default_rng(0)
    decision = STRATEGIST_BOT.choose(state, rng)
    assert decision == Place(T("Siam"), int(state.pending))
    state.apply(decision)
    order = STRATEGIST_BOT.choose(state, rng)
    assert isinstance(order, BattleOrder) and (order.source, order.target) == (T("Siam"), T("Indonesia"))
    from analyzer.bots.planner import planner_args
    from analyzer.bots.strategist import _kill

    plain = position(owner, armies, n_players=3)
    work = scratch(plain)
    bp, table = planner_args(StrategistBot(kill_worth=10.0), BOARD, DiceRules())
    assert _kill(plain.S, plain.C, bp, table, int(plain.pending), work)[0] == -1
    bp, table = planner_args(StrategistBot(kill_worth=10.0), BOARD, DiceRules())
    assert _kill(state.S, state.C, bp, table, 0, scratch(state))[2] == 1


# ---------------------------------------------------------------------------------- whole games
@pytest.mark.parametrize(
    "rules",
    VARIANTS,
    ids=lambda r: f"{r.fortify}-{r.card_values}-m{int(r.missions)}-c{int(r.capitals)}-t{int(r.dice.ties_to_attacker)}",
)
@pytest.mark.parametrize("n_players", [2, 3, 4, 6])
@pytest.mark.parametrize("sample", [True, False], ids=["sampled", "rolled"])
def test_legal_games_the_same_compiled_and_checked(rules, n_players, sample):
    """Every action of the Python loop goes through GameState.apply (every legality check); the
    compiled game from the same generator must end in the very same state with the same records,
    and the compiled game checked action by action (check=True) must find nothing illegal."""
    bots = [
        STRATEGIST_BOT,
        HUNTER_BOT,
        PLANNER_BOT,
        HunterBot(victim_ratio=1.0, go_on=0.5),
        StrategistBot(kill_worth=0.0),
        HUNTER_BOT,
    ]
    assert_same_games(bots[:n_players], rules, sample, seed=17)


def test_registered_and_compiled():
    assert make_bot("hunter") is HUNTER_BOT and make_bot("strategist") is STRATEGIST_BOT
    assert playout.compiled([HUNTER_BOT, STRATEGIST_BOT, PLANNER_BOT])
    with pytest.raises(BotError, match="victim_ratio"):
        HunterBot(victim_ratio=-1)
    with pytest.raises(BotError, match="kill_odds must be 5 probabilities"):
        StrategistBot(kill_odds=(0.5,))
    with pytest.raises(BotError, match="drafts by ease"):
        StrategistBot(draft="model")
    with pytest.raises(BotError, match="exposure must be 5 probabilities"):
        StrategistBot(exposure=0.5)
    assert Phase.REINFORCE == _three_rivals({}, 0).phase


def _after_a_capture(n_players: int) -> GameState:
    """Player 0 in its attack phase after the turn's first capture, with Ukraine's 7 armies facing
    3 on each neighbour (P(win) 0.857, from the exact solver); players 1 to ``n_players - 1`` alive."""
    owner = {"Ukraine": 0} | {name: p for p, name in enumerate(("Argentina", "Madagascar", "Alaska", "Japan"), 2)}
    owner = {name: p for name, p in owner.items() if p < n_players}
    state = position(owner, {"Ukraine": 7}, rest=1, rest_armies=3, n_players=n_players)
    state.pending = 0
    state.phase = Phase.ATTACK
    state.captured = True
    return state


@pytest.mark.parametrize(
    ("n_players", "caution", "fights"),
    [(3, None, True), (4, None, False), (6, None, False), (6, (0.0,) * 5, True), (4, (0.0, 0.0, 0.25, 0.4, 0.4), True)],
)
def test_caution_holds_the_strategist_back_from_fights_outside_its_plans_with_many_players_left(
    n_players, caution, fights
):
    """Outside a plan (none reaches odds of 1) and a kill (none is worth 1e9), the strategist fights at
    the attack threshold (0.6) raised by ``caution`` for the players left: by default nothing with
    three, +0.3 with four and +0.4 with six, so a fight at 0.857 is taken only with three left."""
    assert 0.6 < win_probability(np.array([7]), np.array([3]), 1, DiceRules())[0] < 0.9
    knobs = {"plan_threshold": 1.0, "kill_worth": 1e9} | ({} if caution is None else {"caution": caution})
    decision = StrategistBot(**knobs).choose(_after_a_capture(n_players), np.random.default_rng(0))
    assert isinstance(decision, BattleOrder) == fights
    if fights:
        assert decision.source == T("Ukraine")
