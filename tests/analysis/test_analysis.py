"""Position analysis: odds against hand-computed and published values, continents, reinforcements, suggestions."""

from __future__ import annotations

from fractions import Fraction

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from analyzer.analysis.position import (
    TERRITORY_VALUE,
    attack_odds,
    attack_sources,
    attack_suggestions,
    attack_targets,
    blank_position,
    chain_odds,
    continent_status,
    continent_table,
    edit_position,
    new_game_from_position,
    player_labels,
    reinforcement_forecast,
    win_chances,
    with_player_labels,
)
from analyzer.errors import BoardError, IllegalActionError, PositionError, StateFormatError
from analyzer.game.actions import Attack, Place
from analyzer.game.board import classic_board
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.plot import plot_survivors
from analyzer.solver.battle import battle, battle_exact
from analyzer.solver.chains import chain

BOARD = classic_board()
N = BOARD.n_territories
T = BOARD.index

#: One roll, one die each: the attacker needs a strictly higher die, 15 of the 36 pairs.
ONE_ON_ONE = Fraction(15, 36)
#: One roll, two dice against one: the defender's die must beat the higher of two, 1 - sum(k^2 - (k-1)^2 ...) = 125/216.
TWO_ON_ONE = Fraction(125, 216)


def position(
    changes: dict[str, tuple[int, int]], *, n_players: int = 3, default: tuple[int, int] = (2, 1), **kwargs: object
) -> GameState:
    """Every territory ``default`` (owner, armies) except those named in ``changes``."""
    owner = [default[0]] * N
    armies = [default[1]] * N
    for name, (o, a) in changes.items():
        owner[T(name)], armies[T(name)] = o, a
    return GameState.from_position(owner, armies, n_players=n_players, **kwargs)


# ---------------------------------------------------------------------------------- odds
def test_one_rolling_army_against_one_defender_wins_5_in_12() -> None:
    state = position({"Alaska": (0, 2), "Kamchatka": (1, 1)})
    r = attack_odds(state, "alaska", "Kamchatka")
    assert r.p_win == pytest.approx(5 / 12, abs=1e-12)
    assert battle_exact(2, 1)[(2, 0)] == ONE_ON_ONE == Fraction(5, 12)
    # The attacker loses its one rolling army exactly when it does not win.
    assert r.expected_attacker_losses == pytest.approx(7 / 12, abs=1e-12)


def test_three_armies_against_one_by_hand() -> None:
    # Two dice: win at once with 125/216; otherwise one die against one from 2 armies.
    state = position({"Siam": (0, 3), "Indonesia": (1, 1)})
    expected = TWO_ON_ONE + (1 - TWO_ON_ONE) * ONE_ON_ONE
    assert attack_odds(state, "Siam", "Indonesia").p_win == pytest.approx(float(expected), abs=1e-12)


#: Published P(attacker conquers) by armies that can roll (one fewer than on the territory) and defenders, to 3 places
#: (Osborne, "Markov chains for the RISK board game revisited", Mathematics Magazine 76, 2003, table 3).
PUBLISHED = {
    (1, 1): 0.417,
    (2, 1): 0.754,
    (3, 1): 0.916,
    (1, 2): 0.106,
    (2, 2): 0.363,
    (3, 2): 0.656,
    (3, 3): 0.470,
    (4, 2): 0.785,
    (4, 3): 0.642,
    (4, 4): 0.477,
    (5, 5): 0.506,
}


@pytest.mark.parametrize(("rolling", "defenders"), sorted(PUBLISHED))
def test_published_odds(rolling: int, defenders: int) -> None:
    state = position({"Ukraine": (0, rolling + 1), "Ural": (1, defenders)})
    assert attack_odds(state, "Ukraine", "Ural").p_win == pytest.approx(PUBLISHED[rolling, defenders], abs=5e-4)


def test_stop_at_is_passed_to_the_solver() -> None:
    state = position({"Ukraine": (0, 8), "Ural": (1, 4)})
    r = attack_odds(state, "Ukraine", "Ural", stop_at=3)
    assert r.stop_at == 3
    assert r.p_win == pytest.approx(battle(8, 4, stop_at=3).p_win)
    assert r.p_win < attack_odds(state, "Ukraine", "Ural").p_win


@pytest.mark.parametrize(
    ("source", "target", "message"),
    [
        ("Alaska", "Iceland", "Alaska does not border Iceland"),
        ("Alaska", "Alberta", "same owner"),
    ],
)
def test_illegal_attacks_are_refused_with_their_names(source: str, target: str, message: str) -> None:
    state = position({"Alaska": (0, 5), "Alberta": (0, 2), "Iceland": (1, 1)})
    with pytest.raises(IllegalActionError, match=message):
        attack_odds(state, source, target)


def test_an_unknown_territory_is_named() -> None:
    state = position({"Alaska": (0, 5)})
    with pytest.raises(BoardError, match="unknown territory 'Alaskaa'.*Alaska"):
        attack_odds(state, "Alaskaa", "Kamchatka")


def test_attack_pairs_match_the_engines_legal_attacks() -> None:
    state = GameState.random_start(4, np.random.default_rng(3))
    p = state.player
    # Place every reinforcement on one territory so that the engine reaches its attack phase.
    state.apply(Place(state.territories_of(p)[0], state.pending))
    assert state.phase == Phase.ATTACK
    engine = {(a.source, a.target) for a in state.legal_actions() if isinstance(a, Attack)}
    ours = {(s, t) for s in attack_sources(state, p) for t in attack_targets(state, s)}
    assert ours == engine


def test_a_chain_of_one_is_a_battle_and_a_longer_one_matches_the_chain_solver() -> None:
    state = position({"Siam": (0, 3), "Indonesia": (1, 1), "New Guinea": (1, 2), "Eastern Australia": (2, 1)})
    assert chain_odds(state, ["Siam", "Indonesia"]).p_win == pytest.approx(
        float(TWO_ON_ONE + (1 - TWO_ON_ONE) * ONE_ON_ONE)
    )
    r = chain_odds(state, ["Siam", "Indonesia", "New Guinea", "Eastern Australia"])
    assert r.p_win == pytest.approx(chain(3, [1, 2, 1]).p_win)
    assert r.p_conquer[0] == pytest.approx(float(TWO_ON_ONE + (1 - TWO_ON_ONE) * ONE_ON_ONE))


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (["Siam"], "at least one target"),
        (["Siam", "New Guinea"], "Siam does not border New Guinea"),
        (["Siam", "Indonesia", "Siam"], "Siam appears twice"),
        (["Siam", "India"], "same owner"),
    ],
)
def test_bad_chains_are_refused(path: list[str], message: str) -> None:
    state = position({"Siam": (0, 5), "India": (0, 1), "Indonesia": (1, 1)})
    with pytest.raises(IllegalActionError, match=message):
        chain_odds(state, path)


# ---------------------------------------------------------------------------------- editing a position
def test_edits_make_a_new_game_and_leave_the_old_one_alone() -> None:
    state = GameState.random_start(3, np.random.default_rng(1))
    before = state.to_json()
    edited = new_game_from_position(state, owner={"Alaska": 2}, armies={"alaska": np.int64(9), 5: 4}, sets_traded=2)
    assert state.to_json() == before
    assert (int(edited.owner[0]), int(edited.armies[0]), int(edited.armies[5])) == (2, 9, 4)
    assert edited.sets_traded == 2
    assert edited.player == state.player and edited.phase == Phase.REINFORCE
    assert [edited.hand(p) for p in range(3)] == [state.hand(p) for p in range(3)]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (
            {"armies": {"Alaska": -3}},
            PositionError,
            r"Alaska has -3 armies; every territory holds 1 to 1000000 \(analyzer.limits.MAX_ARMIES\)",
        ),
        ({"armies": {"Alaska": None}}, PositionError, "armies of Alaska is empty; expected a whole number"),
        ({"armies": {"Alaska": float("nan")}}, PositionError, "armies of Alaska must be a whole number, got nan"),
        ({"armies": {"Alaska": 2.5}}, PositionError, "armies of Alaska must be a whole number, got 2.5"),
        ({"armies": {"Alaska": 3.0}}, PositionError, r"armies of Alaska must be a whole number, got 3\.0"),
        ({"armies": {"Alaska": True}}, PositionError, "armies of Alaska must be a whole number, got True"),
        ({"hands": {0: [1.0]}}, PositionError, r"a card of hand 0 must be a whole number, got 1\.0"),
        ({"owner": {"Peru": 7}}, PositionError, "Peru has owner 7; expected a player from 0 to 2"),
        ({"owner": {"Atlantis": 1}}, BoardError, "unknown territory 'Atlantis'"),
        ({"hands": {0: [99]}}, PositionError, "card 99 does not exist"),
        ({"sets_traded": -1}, PositionError, "sets traded must be a whole number from 0 to 10000, got -1"),
    ],
)
def test_bad_edits_name_the_value(kwargs: dict[str, object], error: type[Exception], message: str) -> None:
    state = GameState.random_start(3, np.random.default_rng(1))
    with pytest.raises(error, match=message):
        new_game_from_position(state, **kwargs)  # type: ignore[arg-type]


def test_editing_a_game_with_a_history_is_refused_unless_starting_over() -> None:
    state = GameState.random_start(3, np.random.default_rng(1))
    with pytest.raises(PositionError, match=f"recorded history of {len(state.history)} actions"):
        edit_position(state, armies={"Alaska": 9})
    fresh = edit_position(state, armies={"Alaska": 9}, start_over=True)
    assert fresh.history == [] and int(fresh.armies[0]) == 9
    # A typed position has no history: editing it types it again.
    assert int(edit_position(fresh, armies={"Alaska": 4}).armies[0]) == 4


# ---------------------------------------------------------------------------------- player names and colours
NAMES = ["Ann", "Bo", "Cy"]
COLORS = ["#d62728", "#00aa00", "#1F5FBF"]


def test_names_and_colours_are_saved_with_the_game_and_read_back() -> None:
    state = GameState.random_start(3, np.random.default_rng(1))
    state.labels["zoom"] = 2  # another front end's label
    labelled = with_player_labels(state, NAMES, COLORS)
    assert state.labels == {"zoom": 2}
    loaded = GameState.from_json(labelled.to_json())
    assert loaded.labels == {"zoom": 2, "names": NAMES, "colors": COLORS}
    assert player_labels(loaded) == (NAMES, COLORS)
    assert player_labels(state) == (None, None)


def test_edits_keep_the_names_and_colours() -> None:
    labelled = with_player_labels(GameState.random_start(3, np.random.default_rng(1)), NAMES, COLORS)
    edited = new_game_from_position(labelled, armies={"Alaska": 9}, sets_traded=1)
    assert player_labels(edited) == (NAMES, COLORS)
    edited.labels["names"][0] = "Dee"
    assert player_labels(labelled)[0] == NAMES


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        ({"names": ["Ann", "Bo"]}, r"the player names must be a list of 3, one per seat, got \['Ann', 'Bo'\]"),
        ({"names": "Ann"}, "the player names must be a list of 3"),
        ({"names": ["Ann", 7, "Cy"]}, "the player names must be text; seat 2 has 7"),
        ({"colors": ["#d62728", "red", "#1f5fbf"]}, "seat 2's colour 'red' is not a colour like #1f5fbf"),
    ],
)
def test_malformed_labels_in_a_file_are_named(labels: dict[str, object], message: str) -> None:
    state = GameState.random_start(3, np.random.default_rng(1))
    state.labels = labels
    loaded = GameState.from_json(state.to_json())
    with pytest.raises(StateFormatError, match=message):
        player_labels(loaded)


def test_labels_for_the_wrong_number_of_seats_are_refused() -> None:
    state = GameState.random_start(3, np.random.default_rng(1))
    with pytest.raises(PositionError, match="the player colours must be a list of 3"):
        with_player_labels(state, NAMES, COLORS[:2])


def test_a_blank_position_deals_round_the_table() -> None:
    two = blank_position(2)
    assert np.bincount(two.owner).tolist() == [14, 14, 14]  # the neutral force is the third pile
    assert two.neutral == 2 and (two.armies == 1).all()
    assert np.bincount(blank_position(6).owner).tolist() == [7] * 6


# ---------------------------------------------------------------------------------- continents
def test_border_territories_of_the_classic_continents() -> None:
    state = blank_position(3)
    borders = {s.continent: set(s.borders) for s in continent_status(state, 0)}
    assert borders == {
        "North America": {"Alaska", "Greenland", "Central America"},
        "South America": {"Venezuela", "Brazil"},
        "Europe": {"Iceland", "Western Europe", "Southern Europe", "Ukraine"},
        "Africa": {"North Africa", "Egypt", "East Africa"},
        "Asia": {"Kamchatka", "Ural", "Afghanistan", "Middle East", "Siam"},
        "Australia": {"Indonesia"},
    }


def test_a_held_continent_is_complete_and_worth_its_bonus() -> None:
    state = position({t: (0, 2) for t in ("Indonesia", "New Guinea", "Western Australia", "Eastern Australia")})
    (australia,) = [s for s in continent_status(state, 0) if s.continent == "Australia"]
    assert australia.holder == 0 and australia.missing == ()
    assert australia.p_complete == 1.0 and australia.expected_cost == 0.0
    assert australia.border_threat == {"Indonesia": 1}  # Siam's one army
    others = {s.continent: s for s in continent_status(state, 1)}
    assert others["Australia"].holder == 0
    assert len(others["Australia"].missing) == 4


def test_one_missing_territory_from_one_stack_is_one_battle() -> None:
    # Western Australia has one army and cannot attack: only New Guinea's 2 armies can.
    state = position(
        {"Indonesia": (0, 1), "New Guinea": (0, 2), "Western Australia": (0, 1), "Eastern Australia": (1, 1)}
    )
    (australia,) = [s for s in continent_status(state, 0) if s.continent == "Australia"]
    assert australia.missing == ("Eastern Australia",)
    assert australia.staging == {"New Guinea": 2}
    assert australia.p_complete == pytest.approx(5 / 12)
    assert australia.expected_cost == pytest.approx(7 / 12)
    assert australia.cost_exact
    # Player 0 holds 4 territories (3 reinforcements) before and 5 after: only the bonus counts.
    assert australia.value_per_turn == 2


def test_a_path_of_missing_territories_is_the_chain_solver_exactly() -> None:
    state = position(
        {"Indonesia": (0, 8), "Western Australia": (0, 1), "New Guinea": (1, 2), "Eastern Australia": (1, 1)}
    )
    (australia,) = [s for s in continent_status(state, 0) if s.continent == "Australia"]
    reference = chain(8, [2, 1])
    assert australia.plan == (("Indonesia", "New Guinea"), ("New Guinea", "Eastern Australia"))
    assert australia.p_complete == pytest.approx(reference.p_win)
    assert australia.expected_cost == pytest.approx(reference.expected_attacker_losses)
    assert australia.cost_exact
    assert 0 < australia.p_complete < 1


def test_a_branching_plan_is_marked_as_an_estimated_cost() -> None:
    state = position(
        {
            "Siam": (0, 20),
            "Indonesia": (1, 1),
            "New Guinea": (1, 1),
            "Western Australia": (1, 1),
            "Eastern Australia": (1, 1),
        }
    )
    (australia,) = [s for s in continent_status(state, 0) if s.continent == "Australia"]
    assert len(australia.missing) == 4
    assert not australia.cost_exact
    # 19 rolling armies against four single defenders: near certain, and at least as likely as winning the first.
    assert 0.9 < australia.p_complete < attack_odds(state, "Siam", "Indonesia").p_win


def test_a_continent_no_stack_can_reach_has_no_chance_this_turn() -> None:
    state = position(
        {"Indonesia": (0, 1), "Western Australia": (0, 1), "New Guinea": (0, 1), "Eastern Australia": (1, 1)}
    )
    (australia,) = [s for s in continent_status(state, 0) if s.continent == "Australia"]
    assert australia.p_complete == 0.0
    assert "Eastern Australia" in australia.notes


def test_the_continent_table_has_a_row_per_continent() -> None:
    table = continent_table(blank_position(3), 0)
    assert list(table["continent"]) == [c.name for c in BOARD.continents]
    assert list(table["bonus"]) == [5, 2, 5, 3, 7, 2]
    assert table["holder"].isna().all()


# ---------------------------------------------------------------------------------- reinforcements
def test_reinforcements_by_hand() -> None:
    infantry = [int(c) for c in np.flatnonzero(BOARD.card_symbols == 0)[:3]]
    # Player 0: South America (2) and 10 more territories; player 2: two in Africa; player 1: the rest, with Australia.
    owner = [1] * N
    for t in (
        "Venezuela",
        "Peru",
        "Brazil",
        "Argentina",
        "Alaska",
        "Alberta",
        "Ontario",
        "Quebec",
        "Greenland",
        "Iceland",
        "Japan",
        "Siam",
        "India",
        "China",
    ):
        owner[T(t)] = 0
    owner[T("Egypt")] = owner[T("Congo")] = 2
    state = GameState.from_position(owner, [1] * N, n_players=3, hands={1: infantry}, sets_traded=3)
    forecast = reinforcement_forecast(state).set_index("player")
    assert forecast.loc[0, ["territories", "from_territories", "from_continents", "base"]].tolist() == [14, 4, 2, 6]
    assert forecast.loc[1, ["territories", "from_territories", "from_continents", "base"]].tolist() == [26, 8, 2, 10]
    assert forecast.loc[2, ["territories", "from_territories", "base"]].tolist() == [2, 3, 3]
    # Three sets traded: the fourth is worth 10 under the classic progressive values.
    assert forecast.loc[1, ["cards", "has_set", "set_value", "with_set"]].tolist() == [3, True, 10, 20]
    assert forecast.loc[0, ["has_set", "set_value", "with_set"]].tolist() == [False, 0, 6]
    assert forecast.loc[0, "continents"] == "South America"


def test_eliminated_players_and_the_neutral_force_are_left_out() -> None:
    # A 2-player game is over once a player holds nothing, so the neutral (force 2) is checked at
    # two players and an eliminated seat at three.
    two = GameState.from_position([0] * 40 + [1, 2], [1] * N, n_players=2)
    assert reinforcement_forecast(two)["player"].tolist() == [0, 1]
    three = GameState.from_position([0] * 41 + [2], [1] * N, n_players=3)
    assert reinforcement_forecast(three)["player"].tolist() == [0, 2]


# ---------------------------------------------------------------------------------- suggestions
def test_suggestions_value_completing_a_continent() -> None:
    state = position(
        {
            "Indonesia": (0, 1),
            "New Guinea": (0, 2),
            "Western Australia": (0, 1),
            "Eastern Australia": (1, 1),
            "Kamchatka": (0, 2),
            "Alaska": (1, 1),
        }
    )
    table = attack_suggestions(state, 0)
    pairs = set(zip(table["source"], table["target"]))
    assert pairs == {
        ("New Guinea", "Eastern Australia"),
        ("Kamchatka", "Alaska"),
        ("Kamchatka", "Yakutsk"),
        ("Kamchatka", "Irkutsk"),
        ("Kamchatka", "Mongolia"),
        ("Kamchatka", "Japan"),
    }
    top = table.iloc[0]
    assert (top["source"], top["target"], top["completes"]) == ("New Guinea", "Eastern Australia", "Australia")
    # 5/12 * (one territory + Australia's 2) - 7/12 armies lost.
    assert top["expected_gain"] == pytest.approx(5 / 12 * (TERRITORY_VALUE + 2) - 7 / 12)
    plain = table[table["completes"] == ""]
    assert plain["expected_gain"].to_numpy() == pytest.approx(5 / 12 * TERRITORY_VALUE - 7 / 12)
    assert list(table["expected_gain"]) == sorted(table["expected_gain"], reverse=True)


def test_suggestions_value_breaking_a_continent() -> None:
    australia = {t: (1, 1) for t in ("Indonesia", "New Guinea", "Western Australia", "Eastern Australia")}
    state = position({**australia, "Siam": (0, 2)}, default=(2, 1))
    row = attack_suggestions(state, 0).set_index("target").loc["Indonesia"]
    assert row["breaks"] == "Australia" and row["completes"] == ""
    assert row["expected_gain"] == pytest.approx(5 / 12 * (TERRITORY_VALUE + 2) - 7 / 12)


def test_suggestions_default_to_the_player_to_move() -> None:
    state = GameState.random_start(3, np.random.default_rng(8))
    table = attack_suggestions(state)
    mine = set(BOARD.territories[t] for t in state.territories_of(state.player))
    assert set(table["source"]) <= mine and not set(table["target"]) & mine
    assert ((table["p_win"] >= 0) & (table["p_win"] <= 1)).all()


# ---------------------------------------------------------------------------------- the survivors' chart
def test_plot_survivors_draws_the_solvers_distributions() -> None:
    r = battle(2, 1)
    fig = plot_survivors(r)
    attacker_ax, defender_ax = fig.axes[:2]
    conquered = [b.get_height() for b in attacker_ax.patches if b.get_gid() == "conquered"]
    stopped = [b.get_height() for b in attacker_ax.patches if b.get_gid() == "stopped"]
    # Armies left 0, 1, 2: a stop leaves 1 (7/12), a conquest leaves both (5/12).
    assert stopped == pytest.approx([0, 7 / 12, 0])
    assert conquered == pytest.approx([0, 0, 5 / 12])
    assert [b.get_height() for b in defender_ax.patches] == pytest.approx([5 / 12, 7 / 12])


# ---------------------------------------------------------------------------------- chances to win
def test_a_won_position_is_won_in_every_rollout() -> None:
    # Player 0 holds 41 territories with 5 armies each against one lone army.
    state = GameState.from_position([0] * 41 + [1], [5] * 41 + [1], n_players=3)
    chances = win_chances(state, "rollouts", rollouts=3, seed=4)
    assert chances.rollouts == 3 and chances.capped == 0
    assert chances.wins.tolist() == [3, 0, 0]
    assert chances.low[0] < 1 <= chances.high[0] + 1e-12


def test_rollouts_are_reproducible_from_the_seed() -> None:
    state = GameState.random_start(3, np.random.default_rng(2))
    first = win_chances(state, "rollouts", rollouts=5, seed=9)
    again = win_chances(state, "rollouts", rollouts=5, seed=9)
    assert first.wins.tolist() == again.wins.tolist() and int(first.wins.sum()) + first.capped == 5
