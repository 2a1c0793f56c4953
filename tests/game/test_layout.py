"""The state vector's layout: one declaration, and every view of it agrees."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.game import missions
from analyzer.game.board import classic_board
from analyzer.game.engine import layout as L
from analyzer.game.engine import steps as engine
from analyzer.game.rules import Rules
from analyzer.game.state import GameState


def test_header_slots_are_distinct_and_inside_the_header() -> None:
    scalars = [
        v for k, v in vars(L).items() if k.isupper() and isinstance(v, int) and k not in ("HEADER", "DECK", "DISCARD")
    ]
    assert len(set(scalars)) == len(scalars)
    assert max(scalars) < L.HEADER
    assert sorted(L.AT.values()) == list(range(min(L.AT.values()), L.HEADER))


@pytest.mark.parametrize("n_players", [2, 3, 4, 5, 6])
def test_python_and_compiled_views_agree(n_players: int) -> None:
    S = L.new_state(42, 44, n_players)
    spans = L.layout(42, 44, n_players)
    assert [name for name in spans] == list(L.FIELDS)
    # Contiguous after the header, in declaration order, to the end of the vector.
    end = L.HEADER
    for name, length_slot, blank in L.ARRAYS:
        start, length = spans[name]
        assert (start, length) == (end, S[length_slot])
        assert S[L.AT[name]] == start
        assert (L.view(S, name) == blank).all()
        end = start + length
    assert end == len(S)
    assert spans["pool"][1] == n_players + (n_players == 2)
    # Distinct values everywhere, then each compiled accessor must read what the Python view reads.
    header = S[: L.HEADER].copy()
    S[L.HEADER :] = np.arange(L.HEADER, len(S))
    assert (L.owner_view(S) == L.view(S, "owner")).all()
    assert (L.armies_view(S) == L.view(S, "armies")).all()
    assert (L.card_view(S) == L.view(S, "card_loc")).all()
    assert (S[: L.HEADER] == header).all()
    for name, length_slot, _ in L.ARRAYS:
        x = int(L.view(S, name)[-1])
        assert L.count_at(S, L.AT[name], length_slot, x) == 1


def test_game_state_fields_are_the_declared_views() -> None:
    state = GameState.random_start(2, np.random.default_rng(5))
    base = state.S.__array_interface__["data"][0]
    spans = L.layout(42, 44, 2)
    for name in L.FIELDS:
        arr = getattr(state, name)
        assert arr.__array_interface__["data"][0] - base == 8 * spans[name][0], name
        assert arr.shape == (spans[name][1],)
    assert set(L.FIELDS) <= set(state.to_dict())


def test_the_fallback_mission_is_the_missions_module_s() -> None:
    C = engine.config(classic_board(), Rules(missions=True))
    assert C[engine.R_FALLBACK_MISSION] == missions.FALLBACK
    row = C[C[engine.O_MISSIONS] + engine.M_COLUMNS * missions.FALLBACK :][: engine.M_COLUMNS]
    fallback = missions.MISSIONS[missions.FALLBACK]
    assert (row[engine.M_KIND], row[engine.M_TERRITORIES]) == (engine.KIND_TERRITORIES, fallback.territories)
