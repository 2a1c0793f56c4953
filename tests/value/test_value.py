"""The win-chance model: its columns on hand-made positions, its file and its fallbacks, and its
agreement with rollouts of the strategist (the default bot) on seeded positions."""

from __future__ import annotations

import dataclasses
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from threadpoolctl import threadpool_info

from analyzer.analysis.evaluator import (
    CUT_ROLLOUTS,
    CUT_ROUNDS,
    METHODS,
    chances,
    cut_horizon,
    limited,
    position_rng,
    prepared,
    prepared_for,
    truncated_ends,
    truncated_values,
    valued,
)
from analyzer.analysis.review import replay_turn
from analyzer.cli import main
from analyzer.errors import ModelError, SimulationError
from analyzer.game.actions import Attack, Place
from analyzer.game.board import classic_board
from analyzer.game.engine import steps as engine
from analyzer.game.state import GameState
from analyzer.game.vocabulary import GAME_OVER, Phase
from analyzer.sim import playout
from analyzer.value.features import batch_rows, columns, rows_of
from analyzer.value.model import SHIPPED, ValueModel, shipped

# South America (9-12) and Australia (38-41) with the first six of North America for seat 0; the rest of
# North America, Europe and Africa for seat 1; Asia (26-37) for seat 2.
OWNER = [0] * 6 + [1] * 3 + [0] * 4 + [1] * 13 + [2] * 12 + [0] * 4
ARMIES = [2] * 42


def hand_made() -> GameState:
    # Cards 0, 1, 2 are an infantry, an artillery and a cavalry (one of each: a set); 3 and 4 two more.
    return GameState.from_position(OWNER, ARMIES, n_players=3, player=1, hands={0: [0, 1, 2], 1: [3, 4]})


def column(rows: np.ndarray, seats: np.ndarray, seat: int, name: str) -> float:
    return float(rows[list(seats).index(seat), columns(classic_board()).index(name)])


def test_the_columns_of_a_hand_made_position() -> None:
    rows, seats = rows_of(hand_made())
    assert seats.tolist() == [0, 1, 2]
    # Territories: 14, 16 and 12 of 42; income 14 // 3 + 2 + 2 = 8, 16 // 3 + 5 + 3 = 13, 12 // 3 + 7 = 11.
    assert [column(rows, seats, p, "seat.territories") for p in range(3)] == pytest.approx([14 / 42, 16 / 42, 12 / 42])
    assert [column(rows, seats, p, "seat.income") for p in range(3)] == [8, 13, 11]
    assert column(rows, seats, 0, "seat.income_share") == pytest.approx(8 / 32)
    assert [column(rows, seats, p, "seat.bonus_held") for p in range(3)] == [4, 8, 7]
    assert [column(rows, seats, p, "seat.army_share") for p in range(3)] == pytest.approx([28 / 84, 32 / 84, 24 / 84])
    assert [column(rows, seats, p, "seat.cards") for p in range(3)] == [3, 2, 0]
    assert [column(rows, seats, p, "seat.has_set") for p in range(3)] == [1, 0, 0]
    # Seat 1 moves: it is place 0 from the mover, seat 2 place 1, seat 0 place 2.
    assert [column(rows, seats, p, "from_mover.0") for p in range(3)] == [0, 1, 0]
    assert column(rows, seats, 0, "from_mover.2") == 1
    assert column(rows, seats, 1, "seat.pending") == 13  # the mover's reinforcements, still to place
    assert column(rows, seats, 2, "seat.holds.Asia") == 1 and column(rows, seats, 0, "others.hold.Asia") == 1
    # Seat 0's next seats are 1 then 2; a 3-player game leaves places 3 to 5 empty.
    assert column(rows, seats, 0, "next1.cards") == 2 and column(rows, seats, 0, "next2.territories") == pytest.approx(
        12 / 42
    )
    assert column(rows, seats, 0, "next3.alive") == 0
    assert column(rows, seats, 0, "game.next_set") == 4  # the first set of the classic progression


def test_a_seat_out_of_the_game_has_no_row_and_no_chance() -> None:
    owner = [0] * 20 + [2] * 22
    state = GameState.from_position(owner, [3] * 42, n_players=3)
    rows, seats = rows_of(state)
    assert seats.tolist() == [0, 2]
    p = shipped().chances(state)
    assert p[1] == 0 and p.sum() == pytest.approx(1.0)


def test_batch_rows_equal_the_rows_of_each_position() -> None:
    rng = np.random.default_rng(4)
    states = [GameState.random_start(4, rng) for _ in range(5)]
    model = shipped()
    batch = model.batch(np.stack([s.S for s in states]), states[0].C, states[0].board)
    single = np.stack([model.chances(s) for s in states])
    assert np.allclose(batch, single)
    rows, seats, position = batch_rows(np.stack([s.S for s in states]), states[0].C, len(model.columns))
    assert position.tolist() == [i for i in range(5) for _ in range(4)] and seats.tolist() == [0, 1, 2, 3] * 5


def blas_threads() -> list[int]:
    return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]


class ProductSpy(np.ndarray):
    """A layer's weights that note the BLAS threads at each product they take part in."""

    seen: list[list[int]] = []

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if ufunc is np.matmul:
            ProductSpy.seen.append(blas_threads())
        plain = [np.asarray(x) if isinstance(x, ProductSpy) else x for x in inputs]
        return getattr(ufunc, method)(*plain, **kwargs)


def test_the_model_multiplies_on_one_blas_thread_and_leaves_the_process_as_it_was() -> None:
    model = shipped()
    spied = dataclasses.replace(model, weights=tuple(w.view(ProductSpy) for w in model.weights))
    games = [GameState.random_start(6, np.random.default_rng(i)) for i in range(64)]
    states, C, board = np.stack([g.S for g in games]), games[0].C, games[0].board
    before = blas_threads()
    assert before, "numpy's BLAS is found"
    ProductSpy.seen.clear()
    assert np.array_equal(spied.batch(states, C, board), model.batch(states, C, board))
    assert ProductSpy.seen and all(threads == [1] * len(before) for threads in ProductSpy.seen)
    assert blas_threads() == before


def test_the_shipped_model_agrees_with_rollouts_on_seeded_positions() -> None:
    """The model's chance lies within the rollouts' 95% interval widened by the model's own stated band."""
    rng = np.random.default_rng(11)
    for n in (2, 3, 4):
        state = GameState.random_start(n, rng)
        fast = chances(state)
        counted = chances(state, method="rollouts", rollouts=300, seed=5)
        assert fast.method == "model" and counted.method == "rollouts"
        band = (fast.high - fast.low) / 2
        assert np.all(fast.p >= counted.low - band - 0.02) and np.all(fast.p <= counted.high + band + 0.02), (
            n,
            fast.p,
            counted.p,
        )


def midgame(n: int, seed: int) -> GameState:
    """A position five rounds into a game of default bots, where the seats' chances have spread apart."""
    rng = np.random.default_rng(seed)
    state = GameState.random_start(n, rng)
    playout.play_compiled(
        state, prepared(n, state.board, state.rules.dice, state.rules.balanced_blitz), rng, until_turn=5 * n
    )
    assert not state.is_terminal()
    return state


@pytest.mark.parametrize(("n", "seed"), [(3, 0), (4, 1), (4, 4)])
def test_truncated_rollouts_agree_with_whole_rollouts_on_seeded_positions(n: int, seed: int) -> None:
    """Each seat's truncated chance lies within the two methods' 95% intervals together: the truncated interval
    holds the model's typical error where the rollouts stop, and needs no slack of its own."""
    state = midgame(n, seed)
    counted = chances(state, method="rollouts", rollouts=400, seed=5)
    cut = chances(state, method="truncated", seed=5)
    assert cut.method == "truncated" and (cut.rollouts, cut.rounds) == (CUT_ROLLOUTS, CUT_ROUNDS)
    assert float(cut.p.sum()) == pytest.approx(1.0)
    assert np.ptp(counted.p) > 0.15  # the seats' chances are apart: a seat's figures taken for another's show
    slack = (counted.high - counted.low) / 2 + (cut.high - cut.low) / 2
    assert np.all(np.abs(cut.p - counted.p) <= slack), (cut.p, counted.p, slack)
    assert np.all(cut.low <= cut.p) and np.all(cut.p <= cut.high)


def test_truncated_rollouts_count_a_game_won_before_their_cut_as_its_winner() -> None:
    # Player 1 holds 41 territories with 5 armies against a lone army: it takes it in its first turn.
    won = GameState.from_position([0] * 41 + [1], [5] * 41 + [1], n_players=2)
    cut = chances(won, method="truncated", rollouts=20, rounds=1)
    assert cut.p.tolist() == [1.0, 0.0] and cut.low.tolist() == [1.0, 0.0] and cut.high.tolist() == [1.0, 0.0]


def test_truncated_rollouts_are_reproducible_from_the_seed_and_cut_where_asked() -> None:
    state = midgame(3, 0)
    first = chances(state, method="truncated", rollouts=12, rounds=1, seed=9)
    assert np.array_equal(first.p, chances(state, method="truncated", rollouts=12, rounds=1, seed=9).p)
    assert not np.array_equal(first.p, chances(state, method="truncated", rollouts=12, rounds=1, seed=10).p)
    # The rollouts are cut one round on, a turn of each seat still in: at the mover's next turn.
    alive = int(np.sum(state.alive))
    start = limited(state)
    ends = np.tile(start.S, (12, 1))
    playout.play_each(start, ends, prepared_for(start), position_rng(9, 0), until_turn=cut_horizon(start, 1))
    for end in ends:
        assert end[engine.PHASE] == GAME_OVER or (
            end[engine.TURN] == state.turn + alive and end[engine.PLAYER] == state.player
        )
    assert np.array_equal(truncated_values(state, 12, 1, 9, shipped()), valued(ends, start.C, start.board, shipped()))
    with pytest.raises(SimulationError, match="rounds"):
        chances(state, method="truncated", rounds=0)


def test_a_nearly_won_game_is_nearly_certain_for_the_model() -> None:
    owner = [0] * 40 + [1] * 2
    state = GameState.from_position(owner, [10] * 40 + [1, 1], n_players=2)
    assert shipped().chances(state)[0] > 0.95


def test_a_missing_or_damaged_model_file_says_so_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="no win-chance model at"):
        ValueModel.load(tmp_path / "none.npz")
    broken = tmp_path / "broken.npz"
    broken.write_bytes(SHIPPED.read_bytes()[:200])
    with pytest.raises(ModelError, match="damaged") as caught:
        ValueModel.load(broken)
    assert "\n" not in str(caught.value)


def test_a_model_file_holding_a_pickle_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "pickled.npz"
    np.savez(path, meta=np.array([{"format": "x"}], dtype=object))
    with pytest.raises(ModelError, match="damaged"):
        ValueModel.load(path)


def test_a_model_of_another_format_or_shape_is_refused(tmp_path: Path) -> None:
    model = shipped()
    path = tmp_path / "other.npz"
    with zipfile.ZipFile(SHIPPED) as zin, zipfile.ZipFile(path, "w") as zout:
        for item in zin.namelist():
            data = zin.read(item)
            if item == "meta.npy":
                meta = json.loads(str(np.load(SHIPPED)["meta"]))
                meta["format"] = "something else"
                buffer = tmp_path / "meta.npy"
                np.save(buffer, np.array(json.dumps(meta)))
                data = buffer.read_bytes()
            zout.writestr(item, data)
    with pytest.raises(ModelError, match="is not a"):
        ValueModel.load(path)
    cut = tmp_path / "cut.npz"
    short = ValueModel(model.board, model.columns[:-1], model.mean[:-1], model.scale[:-1], model.weights, model.biases)
    short.save(cut)
    with pytest.raises(ModelError, match="do not fit"):
        ValueModel.load(cut)


def test_another_map_falls_back_to_rollouts_and_says_why() -> None:
    model = shipped()
    other = ValueModel("another map", model.columns, model.mean, model.scale, model.weights, model.biases)
    state = GameState.random_start(3, np.random.default_rng(1))
    result = chances(state, model=other, rollouts=20)
    assert result.method == "rollouts" and "made for the 'another map' map" in result.note
    assert result.note in result.caption and "\n" not in result.note
    # Truncated rollouts need the model where they stop: whole rollouts instead, and the same line says why.
    cut = chances(state, "truncated", model=other, rollouts=20)
    assert (cut.method, cut.rollouts, cut.note) == ("rollouts", 20, result.note)


def test_a_game_won_is_certain_by_every_method_and_says_who_won(capsys: pytest.CaptureFixture[str]) -> None:
    # Player 1 holds 41 territories with 5 armies against a lone army, and the default bot takes it.
    state = GameState.from_position([0] * 41 + [1], [5] * 41 + [1], n_players=2)
    replay_turn(state, (), np.random.default_rng(0))  # the default bot's turn, recorded action by action
    assert state.phase == Phase.GAME_OVER and state.winner == 0
    for method in METHODS:
        result = chances(state, method)
        assert result.method == method and result.p.tolist() == [1.0, 0.0]
        assert result.low.tolist() == result.high.tolist() == [1.0, 0.0]  # certain: no band
        assert result.caption == "The game is over: Player 1 has won."


def test_a_game_in_its_setup_is_counted_by_rollouts_and_says_why() -> None:
    state = GameState.new(4, np.random.default_rng(3))  # no territory claimed yet
    for method in ("model", "truncated"):
        result = chances(state, method, rollouts=20, seed=1)
        assert (result.method, result.rollouts) == ("rollouts", 20)
        assert int(result.wins.sum()) + result.capped == 20
        assert "still in its setup" in result.note and result.note in result.caption


def test_a_negative_seed_is_refused_by_every_method() -> None:
    state = GameState.random_start(3, np.random.default_rng(1))
    for method in METHODS:
        with pytest.raises(SimulationError, match="seed must be a whole number >= 0, got -1"):
            chances(state, method, seed=-1)


def test_the_caption_names_the_method_and_the_bot() -> None:
    state = GameState.random_start(3, np.random.default_rng(1))
    assert "learned model of the play of the strategist (the default bot)" in chances(state).caption
    assert (
        "rollouts of the strategist (the default bot) in every seat"
        in chances(state, method="rollouts", rollouts=10).caption
    )


def test_chances_command_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = GameState.random_start(3, np.random.default_rng(2))
    path = tmp_path / "game.json"
    path.write_text(state.to_json())
    assert main(["chances", str(path), "--method", "model", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"method", "players", "chances", "low", "high", "seconds"}
    assert out["method"] == "model" and sum(out["chances"]) == pytest.approx(1.0) and len(out["players"]) == 3
    # By default, the figures every view shows for the position: truncated rollouts on seed 0.
    assert main(["chances", str(path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["method"] == "truncated" and shown["chances"] == chances(state, "truncated", seed=0).p.tolist()
    assert main(["chances", str(path), "--method", "rollouts", "--rollouts", "12", "--seed", "3", "--json"]) == 0
    counted = json.loads(capsys.readouterr().out)
    assert counted["method"] == "rollouts" and all(
        lo <= p <= hi for lo, p, hi in zip(counted["low"], counted["chances"], counted["high"])
    )
    args = ["chances", str(path), "--method", "truncated", "--rollouts", "8", "--rounds", "1", "--json"]
    assert main(args) == 0
    cut = json.loads(capsys.readouterr().out)
    assert (cut["method"], cut["rollouts"], cut["rounds"]) == ("truncated", 8, 1)
    assert sum(cut["chances"]) == pytest.approx(1.0)
    assert main(["chances", str(path), "--method", "truncated", "--rounds", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rounds" in err and "0" in err


def test_chances_command_refuses_a_damaged_file_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text('{"not": "a game"')
    assert main(["chances", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "game.json" in err


def test_train_value_writes_a_model_that_loads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "model.npz"
    args = ["train-value", "--games", "30", "--seed", "2", "--out", str(out), "--quiet"]
    assert main([*args, "--band-positions", "1", "--band-rollouts", "4"]) == 0
    card = json.loads(capsys.readouterr().out)
    assert card["games"] == 30 and card["positions"] > 0 and card["seed"] == 2
    # The band the views show with the model's figures, one a player count, measured as asked.
    assert set(card["band"]) == {"2", "3", "4", "5", "6", "all"}
    assert card["band_check"] == {"positions_per_count": 1, "rollouts": 4, "seed": 4}
    # The card names the command that made it, options included.
    assert (
        card["command"]
        == "risk-analyzer train-value --games 30 --seed 2 --out model.npz --band-positions 1 --band-rollouts 4"
    )
    state = GameState.random_start(4, np.random.default_rng(3))
    assert ValueModel.load(out).chances(state).sum() == pytest.approx(1.0)
    assert main(["train-value", "--games", "0", "--out", str(out)]) == 2
    assert "--games must be a whole number >= 1, got 0" in capsys.readouterr().err
    assert main(["train-value", "--games", "3", "--out", str(tmp_path / "model.pkl")]) == 2
    assert ".npz" in capsys.readouterr().err


def test_truncated_rollouts_each_roll_a_pending_attack_afresh() -> None:
    """Player 1's last territory, Argentina (1 army), under attack by Peru's one die (2 armies), the roll pending;
    player 0's other armies are ones, or far away in Alaska. Player 0 wins within the cut exactly when the attack
    wins its 1-against-1 roll, 15/36 = 41.7%: each rollout must roll it for itself (400 rollouts: sd 2.5 points)."""
    board = classic_board()
    owner = [0] * 42
    owner[board.index("Argentina")] = 1
    armies = [1] * 42
    armies[board.index("Peru")] = 2
    state = GameState.from_position(owner, armies, n_players=2)
    state.apply(Place("Alaska", state.pending))
    state.apply(Attack("Peru", "Argentina", 1))
    assert state.phase == Phase.ROLL
    _, ends, _ = truncated_ends(state, 400, 1, seed=3)
    won = (ends[:, engine.PHASE] == GAME_OVER) & (ends[:, engine.WINNER] == 0)
    assert 0.33 <= won.mean() <= 0.50, won.mean()
