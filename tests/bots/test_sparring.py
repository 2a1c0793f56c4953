"""The sparring bots (cluster and pixie): legal moves under every rule variant and over thousands of
compiled games, the same games compiled and in Python, and their rules checked against the position,
each worked out here from the board with no code of the bots'."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
from support.playouts import assert_same_games

from analyzer.bots import BattleOrder, make_bot
from analyzer.bots.heuristic import win_probability
from analyzer.bots.hunter import HUNTER_BOT
from analyzer.bots.sparring import CLUSTER_BOT, PIXIE_BOT, ClusterBot, PixieBot
from analyzer.bots.strategist import STRATEGIST_BOT
from analyzer.errors import BotError
from analyzer.game.actions import Claim, Fortify, Place
from analyzer.game.board import classic_board
from analyzer.game.dice import DiceRules
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.sim import playout
from analyzer.sim.play import play_game
from analyzer.sim.runs import game_rng
from analyzer.sim.simulate import simulate

BOARD = classic_board()
N = BOARD.n_territories
ADJ = np.asarray(BOARD.adjacency)
CONTINENT = np.asarray(BOARD.continent_of)
SIZES = np.bincount(CONTINENT)
# Border territories of each continent: those with a neighbour in another continent.
BORDERS = np.array(
    [sum(1 for t in range(N) if CONTINENT[t] == c and (ADJ[t] & (CONTINENT != c)).any()) for c in range(len(SIZES))]
)
VARIANTS = [
    Rules(),
    Rules(fortify="connected", card_values="fixed", territory_bonus=0),
    Rules(missions=True),
    Rules(capitals=True, setup="deal"),
    Rules(dice=DiceRules(ties_to_attacker=True)),
]


def test_the_classic_board_figures_the_rules_read():
    # North America, South America, Europe, Africa, Asia, Australia.
    assert SIZES.tolist() == [9, 4, 7, 6, 12, 4]
    assert BORDERS.tolist() == [3, 2, 4, 3, 5, 1]


@pytest.mark.parametrize(
    "rules",
    VARIANTS,
    ids=lambda r: f"{r.fortify}-{r.card_values}-m{int(r.missions)}-c{int(r.capitals)}-t{int(r.dice.ties_to_attacker)}",
)
@pytest.mark.parametrize("n_players", [2, 3, 4, 6])
@pytest.mark.parametrize("sample", [True, False], ids=["sampled", "rolled"])
def test_legal_games_the_same_compiled_and_checked(rules, n_players, sample):
    """Every action of the Python loop goes through GameState.apply (every legality check); the
    compiled game from the same generator must end in the very same state, and the compiled game
    checked action by action must find nothing illegal."""
    bots = [
        CLUSTER_BOT,
        PIXIE_BOT,
        STRATEGIST_BOT,
        ClusterBot(reckless=0.7, medium=4),
        PixieBot(border_force=5),
        HUNTER_BOT,
    ]
    assert_same_games(bots[:n_players], rules, sample, seed=23)


@pytest.mark.parametrize("n_players", [3, 4, 6])
def test_thousands_of_compiled_games_are_legal(n_players):
    """The compiled playout with ``check`` puts every action through the engine's legality check and
    raises on the first illegal one; every game must also end with a winner."""
    bots = ["cluster", "pixie", "default", "hunter", "cluster", "pixie"][:n_players]
    result = simulate(n_players, bots, n_games=1000, seed=32, check=True, progress=False)
    assert len(result.games) == 1000 and (result.games["winner"] >= 0).all()


# ---------------------------------------------------------------------------------- the rules, checked
def _mine(state: GameState, p: int) -> np.ndarray:
    return np.asarray(state.owner) == p


def _faces_enemy(state: GameState, p: int) -> np.ndarray:
    owner = np.asarray(state.owner)
    return _mine(state, p) & (ADJ & (owner[None, :] != p)).any(axis=1)


def _components(state: GameState, p: int) -> list[list[int]]:
    mine = _mine(state, p)
    seen: set[int] = set()
    groups = []
    for root in range(N):
        if not mine[root] or root in seen:
            continue
        group, queue = [], deque([root])
        seen.add(root)
        while queue:
            u = queue.popleft()
            group.append(u)
            for v in np.flatnonzero(ADJ[u] & mine):
                if int(v) not in seen:
                    seen.add(int(v))
                    queue.append(int(v))
        groups.append(group)
    return groups


def _biggest_cluster(state: GameState, p: int) -> set[int]:
    armies = np.asarray(state.armies)
    return set(max(_components(state, p), key=lambda g: (len(g), int(armies[g].sum()))))


def _distance(state: GameState, p: int, goal: np.ndarray) -> np.ndarray:
    """Steps through ``p``'s territories from each to the nearest of ``goal``."""
    mine = _mine(state, p)
    far = 10**6
    dist = np.where(goal, 0, far)
    queue = deque(int(t) for t in np.flatnonzero(goal))
    while queue:
        u = queue.popleft()
        for v in np.flatnonzero(ADJ[u] & mine):
            if dist[v] == far:
                dist[v] = dist[u] + 1
                queue.append(int(v))
    return dist


class Watched:
    """A bot whose every decision is handed, with the position it was made in, to ``watch``."""

    def __init__(self, bot, watch):
        self.bot, self.watch, self.seen = bot, watch, 0

    def choose(self, state, rng):
        decision = self.bot.choose(state, rng)
        self.seen += self.watch(state, decision)
        return decision


def _play(watched: Watched, others, n_players: int, games: int) -> int:
    for game in range(games):
        rng = game_rng(41, game)
        seat = game % n_players
        bots = [make_bot(name) for name in others[: n_players - 1]]
        bots.insert(seat, watched)
        play_game(GameState.new(n_players, rng), bots, rng)
    return watched.seen


def test_cluster_claims_a_whole_unowned_continent_of_medium_size_first():
    def watch(state, decision):
        if state.phase != Phase.SETUP_CLAIM:
            return 0
        assert isinstance(decision, Claim)
        owner = np.asarray(state.owner)
        free = [c for c in range(len(SIZES)) if (owner[CONTINENT == c] == -1).all()]
        if not free:
            return 0
        c = CONTINENT[decision.territory]
        assert c in free
        # Of the whole unowned continents, one of size nearest 6 (Africa, then Europe).
        assert abs(SIZES[c] - 6) == min(abs(SIZES[f] - 6) for f in free)
        return 1

    seen = _play(Watched(CLUSTER_BOT, watch), ["pixie", "default", "hunter", "cluster", "planner"], 6, 40)
    seen += _play(Watched(CLUSTER_BOT, watch), ["pixie", "default", "hunter"], 4, 40)
    assert seen >= 80


def test_pixie_claims_in_the_continent_with_the_fewest_borders_left():
    def watch(state, decision):
        if state.phase != Phase.SETUP_CLAIM:
            return 0
        owner = np.asarray(state.owner)
        t = decision.territory
        assert owner[t] == -1
        open_borders = [BORDERS[c] for c in range(len(SIZES)) if (owner[CONTINENT == c] == -1).any()]
        assert BORDERS[CONTINENT[t]] == min(open_borders)
        return 1

    assert _play(Watched(PIXIE_BOT, watch), ["cluster", "default", "hunter"], 4, 30) >= 30 * 10


def test_cluster_reinforces_the_weakest_border_of_its_biggest_cluster():
    def watch(state, decision):
        if state.phase != Phase.REINFORCE or not isinstance(decision, Place):
            return 0
        p = state.current_player
        cluster = _biggest_cluster(state, p)
        border = [t for t in cluster if _faces_enemy(state, p)[t]]
        assert decision.territory in border
        armies = np.asarray(state.armies)
        assert armies[decision.territory] == min(armies[t] for t in border)
        assert 1 <= decision.armies <= state.pending
        return 1

    assert _play(Watched(CLUSTER_BOT, watch), ["pixie", "default", "hunter"], 4, 30) >= 500


def test_cluster_attacks_from_its_cluster_at_its_odds_unless_it_outnumbers_everyone():
    reckless = CLUSTER_BOT.reckless

    def watch(state, decision):
        if not isinstance(decision, BattleOrder):
            return 0
        p = state.current_player
        armies, owner = np.asarray(state.armies), np.asarray(state.owner)
        odds = win_probability(np.array([armies[decision.source]]), np.array([armies[decision.target]]), 1, DiceRules())
        assert odds[0] >= reckless - 1e-12
        assert owner[decision.target] != p and ADJ[decision.source, decision.target]
        others = [armies[owner == f].sum() for f in range(state.n_players) if f != p]
        if armies[owner == p].sum() <= max(others):
            assert decision.source in _biggest_cluster(state, p)
            return 1
        return 0

    assert _play(Watched(CLUSTER_BOT, watch), ["pixie", "default", "hunter"], 4, 30) >= 300


def test_pixie_fortifies_toward_the_borders_of_the_continents_it_holds():
    """Adjacent fortifying: from a territory facing no enemy, one step nearer the front, the
    territories facing an enemy in a continent pixie holds whole (any facing an enemy with none)."""

    def watch(state, decision):
        if not isinstance(decision, Fortify):
            return 0
        p = state.current_player
        owner = np.asarray(state.owner)
        facing = _faces_enemy(state, p)
        held = np.array([(owner[CONTINENT == c] == p).all() for c in range(len(SIZES))])
        front = facing & held[CONTINENT]
        if not front.any():
            front = facing
        dist = _distance(state, p, front)
        assert not facing[decision.source]
        assert dist[decision.target] < dist[decision.source]
        assert decision.armies == state.armies[decision.source] - 1
        return int(front is not facing)

    seen = _play(Watched(PIXIE_BOT, watch), ["cluster", "default", "hunter"], 4, 60)
    assert seen >= 20


def test_pixie_attacks_where_it_outnumbers_or_for_its_card():
    def watch(state, decision):
        if not isinstance(decision, BattleOrder):
            return 0
        armies = np.asarray(state.armies)
        a, d = armies[decision.source], armies[decision.target]
        if a - 1 > d:
            return 1
        # Not outnumbering: only the turn's first capture, for the card, at odds of 0.5 or more.
        assert not state.captured
        assert win_probability(np.array([a]), np.array([d]), 1, DiceRules())[0] >= PIXIE_BOT.card_odds
        return 0

    assert _play(Watched(PIXIE_BOT, watch), ["cluster", "default", "hunter"], 4, 30) >= 300


def test_registered_compiled_and_checked():
    assert make_bot("cluster") is CLUSTER_BOT and make_bot("pixie") is PIXIE_BOT
    assert playout.compiled([CLUSTER_BOT, PIXIE_BOT, STRATEGIST_BOT])
    with pytest.raises(BotError, match="reckless must be a probability"):
        ClusterBot(reckless=1.5)
    with pytest.raises(BotError, match="border_force must be a number >= 0"):
        PixieBot(border_force=-1)
    with pytest.raises(BotError, match="draft must stay 'ease'"):
        PixieBot(draft="model")
