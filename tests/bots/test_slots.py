"""The compiled vectors' offsets: each derived from one declaration, and each entry where the kernels
read it (checked against values known from the rules, the board and the bots' knobs)."""

from __future__ import annotations

import pytest

from analyzer.bots import heuristic, planner
from analyzer.bots.heuristic import HeuristicBot, board_data
from analyzer.bots.planner import PlannerBot
from analyzer.game import missions
from analyzer.game.board import classic_board
from analyzer.game.engine import steps
from analyzer.game.rules import Rules
from analyzer.slots import slots

BOARD = classic_board()


def constants(module: object, prefix: str, besides: tuple[str, ...] = ()) -> dict[str, int]:
    """The module's ``PREFIX_*`` integer constants, keyed by the rest of their name in lower case."""
    return {
        k[len(prefix) :].lower(): v
        for k, v in vars(module).items()
        if k.startswith(prefix) and k.isupper() and isinstance(v, int) and k not in besides
    }


@pytest.mark.parametrize(
    ("module", "prefix", "declared", "besides"),
    [
        (heuristic, "P_", heuristic.P, ("P_WEIGHTS",)),
        (planner, "Q_", planner.Q, ("Q_DRAFT",)),
        (steps, "R_", steps.R, ()),
        (steps, "O_", steps.O, ()),
        (steps, "M_", steps.M, ("M_COLUMNS",)),
    ],
)
def test_every_offset_constant_is_its_declared_slot(module, prefix, declared, besides) -> None:
    # Every constant is read off the declaration, and every declared entry has its constant.
    assert constants(module, prefix, besides) == declared
    assert sorted(declared.values()) == list(range(min(declared.values()), min(declared.values()) + len(declared)))


def test_the_header_of_C_is_the_numbers_then_the_starts_of_the_parts() -> None:
    assert set(steps.R.values()).isdisjoint(steps.O.values())
    assert sorted([*steps.R.values(), *steps.O.values()]) == list(range(steps.C_HEADER))


def test_the_heuristic_knobs_sit_where_the_kernels_read_them() -> None:
    bot = HeuristicBot(
        attack_threshold=0.61,
        card_threshold=0.42,
        stop_at=3,
        continent_focus=1.7,
        reinforce="ratio",
        fortify="none",
        cards="forced",
        card_value=12,
        eliminate=2.5,
        keep_ratio=0.3,
    )
    data = board_data(BOARD)
    bp = bot.params(data)
    H = heuristic
    assert (bp[H.P_ATTACK], bp[H.P_CARD], bp[H.P_STOP], bp[H.P_FOCUS]) == (0.61, 0.42, 3, 1.7)
    assert (bp[H.P_RATIO], bp[H.P_NO_FORTIFY], bp[H.P_CARDS], bp[H.P_CARD_VALUE]) == (
        1,
        1,
        1,
        12,
    )  # "forced" is policy 1
    assert (bp[H.P_ELIMINATE], bp[H.P_KEEP]) == (2.5, 0.3)
    nc = len(BOARD.continents)
    assert len(bp) == H.P_WEIGHTS + 3 * nc
    assert (bp[H.P_WEIGHTS : H.P_WEIGHTS + nc] == data.auto_weights).all()
    assert list(bp[H.P_WEIGHTS + nc : H.P_WEIGHTS + 2 * nc]) == [9, 4, 7, 6, 12, 4]  # North America's 9 territories ...
    assert list(bp[H.P_WEIGHTS + 2 * nc :]) == [5, 2, 5, 3, 7, 2]  # ... and the continents' bonuses


def test_the_planner_knobs_and_its_draft_copy_sit_where_the_kernels_read_them() -> None:
    bot = PlannerBot(
        plan_threshold=0.45, bonus_turns=2.5, break_turns=7.0, kill=0.3, kill_from=25, draft_weights=(1, 2, 3, 4, 5, 6)
    )
    data = board_data(BOARD)
    bp = bot.params(data)
    base = HeuristicBot.params(bot, data)
    q = len(base)
    assert q == heuristic.P_WEIGHTS + 3 * len(BOARD.continents)
    Q = planner
    assert (
        bp[q + Q.Q_THRESHOLD],
        bp[q + Q.Q_BONUS_TURNS],
        bp[q + Q.Q_BREAK_TURNS],
        bp[q + Q.Q_KILL],
        bp[q + Q.Q_KILL_FROM],
    ) == (0.45, 2.5, 7.0, 0.3, 25)
    draft = bp[q + Q.Q_DRAFT : 2 * q + Q.Q_DRAFT]
    assert list(draft[heuristic.P_WEIGHTS : heuristic.P_WEIGHTS + 6]) == [1, 2, 3, 4, 5, 6]
    assert (
        draft[heuristic.P_ATTACK] == bot.attack_threshold
        and (draft[heuristic.P_WEIGHTS + 6 :] == base[heuristic.P_WEIGHTS + 6 :]).all()
    )
    assert len(bp) == 2 * q + Q.Q_DRAFT + 1 and bp[-1] == 0  # the "ease" draft: the model block's flag is off


@pytest.mark.parametrize(
    "rules", [Rules(), Rules(fortify="connected", card_values="fixed", territory_bonus=3, missions=True)]
)
def test_the_constant_vector_holds_each_number_and_part_where_the_steps_read_it(rules: Rules) -> None:
    C = steps.config(BOARD, rules)
    S = steps
    assert C[S.R_CONNECTED] == (rules.fortify == "connected") and C[S.R_FIXED_VALUES] == (rules.card_values == "fixed")
    assert (
        C[S.R_TERRITORY_BONUS] == rules.territory_bonus and C[S.R_MISSIONS] == rules.missions and C[S.R_CAPITALS] == 0
    )
    assert (C[S.R_ATTACKER_MAX], C[S.R_DEFENDER_MAX], C[S.R_CONTINENTS]) == (3, 2, 6)
    assert C[S.R_EDGES] == 2 * 83 and C[S.R_WIDTH] == BOARD.neighbor_table.shape[1]  # the classic board's 83 borders
    assert missions.MISSIONS[C[S.R_FALLBACK_MISSION]].territories == 24
    # The parts follow the header back to back, in their declared order, to the end of C.
    starts = [int(C[S.O[name]]) for name, _ in S.PARTS]
    assert starts[0] == S.C_HEADER and starts == sorted(starts)

    def part(slot: int, length: int) -> list[int]:
        return C[C[slot] : C[slot] + length].tolist()

    width, alaska = int(C[S.R_WIDTH]), BOARD.index("Alaska")
    row = C[C[S.O_NEIGHBORS] + width * alaska : C[S.O_NEIGHBORS] + width * (alaska + 1)]
    assert sorted(t for t in row.tolist() if t >= 0) == sorted(
        BOARD.index(n) for n in ("Alberta", "Northwest Territory", "Kamchatka")
    )
    assert part(S.O_CONTINENT_OF, 42) == list(BOARD.continent_of) and part(S.O_CONTINENT_BONUS, 6) == [5, 2, 5, 3, 7, 2]
    assert part(S.O_SET_VALUES, 7) == [4, 6, 8, 10, 12, 15, 20]  # the classic progressive values
    assert (
        part(S.O_FIXED_VALUES, 1) == [4] and C[C[S.O_FIXED_VALUES] + 16 * 2 + 4 * 2 + 2] == 8
    )  # three infantry; three artillery
    assert C[C[S.O_TERRITORY_ARMIES] + 11] == 3 and C[C[S.O_TERRITORY_ARMIES] + 42] == 14
    edges = C[S.R_EDGES]
    src, dst = part(S.O_SRC, edges), part(S.O_DST, edges)
    assert all(BOARD.adjacency[s, t] for s, t in zip(src, dst))
    assert part(S.O_CONTINENT_START, 7) == [0, 9, 13, 20, 26, 38, 42]
    assert [BOARD.continent_of[t] for t in part(S.O_BY_CONTINENT, 42)] == sorted(BOARD.continent_of)
    n_missions = len(missions.MISSIONS) * S.M_COLUMNS if rules.missions else 0
    assert C[S.O_SRC] - C[S.O_MISSIONS] == n_missions
    assert C[S.O_CONTINENT_START] + 7 == len(C)


def test_the_mission_table_columns_are_the_declared_ones() -> None:
    table = steps.mission_table(BOARD)
    assert table.shape == (len(missions.MISSIONS), steps.M_COLUMNS)
    for row, m in zip(table, missions.MISSIONS):
        assert row[steps.M_TERRITORIES] == m.territories and row[steps.M_MIN_ARMIES] == m.min_armies
        assert row[steps.M_TARGET] == m.target and row[steps.M_EXTRA] == m.extra_continents
        assert row[steps.M_CONTINENTS] == sum(1 << BOARD.continent_index(c) for c in m.continents)
    assert table[missions.FALLBACK, steps.M_KIND] == steps.KIND_TERRITORIES


def test_a_slot_declared_twice_is_refused() -> None:
    assert slots(["a", "b"], start=3) == {"a": 3, "b": 4}
    with pytest.raises(ValueError, match="declared twice"):
        slots(["a", "b", "a"])
