"""The simulator: reproducibility across workers and backends, invariants of simulated games,
sampled battles against rolled dice, the turn cap, checkpoints and resuming, the CLI, and
position evaluation."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import chi2_contingency, chisquare, fisher_exact

from analyzer.bots import BattleOrder, make_bot
from analyzer.cli import main
from analyzer.commands.simulate import describe
from analyzer.errors import SimulationError
from analyzer.game.actions import Place
from analyzer.game.board import classic_board
from analyzer.game.rules import NEUTRAL_ARMIES, STARTING_ARMIES, Rules
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.sim.battles import sample_battle
from analyzer.sim.checkpoints import TABLES
from analyzer.sim.evaluate import evaluate
from analyzer.sim.play import roll_battle
from analyzer.sim.result import SimulationResult, table_path
from analyzer.sim.runs import game_rng
from analyzer.sim.simulate import simulate
from analyzer.sim.simulate import tqdm as sim_tqdm
from analyzer.solver.battle import battle

ROOT = Path(__file__).resolve().parents[2]
BOARD = classic_board()
T = BOARD.index


def assert_same(a: SimulationResult, b: SimulationResult) -> None:
    for name in TABLES:
        pd.testing.assert_frame_equal(a.tables()[name], b.tables()[name], obj=name)


# ---------------------------------------------------------------------------------- reproducibility
RUN = dict(
    n_players=3, bots="default,greedy,random", n_games=24, seed=5, batch_size=5, record_turns=True, progress=False
)


@pytest.fixture(scope="module")
def serial() -> SimulationResult:
    return simulate(**RUN)


def test_same_results_for_any_worker_count_and_batch_size(serial):
    assert_same(serial, simulate(**RUN, workers=2))
    assert_same(serial, simulate(**{**RUN, "batch_size": 24}))


def test_played_here_the_progress_bar_moves_game_by_game(serial, monkeypatch):
    # One worker plays its batches in this process: the bar ticks after every game, not once a batch.
    ticks: list[int] = []
    original = sim_tqdm.update

    def update(self, n=1):
        ticks.append(n)
        return original(self, n)

    monkeypatch.setattr(sim_tqdm, "update", update)
    assert_same(serial, simulate(**{**RUN, "progress": True}))
    assert ticks == [1] * RUN["n_games"]
    ticks.clear()
    simulate(**{**RUN, "progress": True, "workers": 2})  # from other processes, a batch at a time
    assert sorted(ticks) == [4, 5, 5, 5, 5]


def test_dask_gives_the_serial_results(serial, tmp_path, monkeypatch):
    # The caller's __main__ is a script that fails when re-run, as a Streamlit AppTest's or a notebook's
    # is: Dask's spawned workers must not re-run it (they died with it as they started).
    script = tmp_path / "main.py"
    script.write_text("raise SystemExit('re-ran the caller\\'s main')\n")
    main = types.ModuleType("__main__")
    main.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", main)
    assert_same(serial, simulate(**RUN, workers=2, dask=True))
    assert sys.modules["__main__"] is main
    # And on a scheduler given by address, as --scheduler does (its workers are threads of this process).
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        assert_same(serial, simulate(**RUN, scheduler=cluster.scheduler_address))


def test_each_game_has_its_own_seed_sequence_child(serial):
    # Game i does not depend on how many games the run has: the first 10 of 24 are a run of 10.
    short = simulate(**{**RUN, "n_games": 10})
    pd.testing.assert_frame_equal(short.games, serial.games.iloc[:10])
    other = simulate(**{**RUN, "seed": 6})
    assert not other.games.equals(serial.games)
    # And the generator of game i is SeedSequence(seed).spawn(n)[i]'s.
    children = np.random.SeedSequence(5).spawn(24)
    assert game_rng(5, 17).integers(1 << 62) == np.random.default_rng(children[17]).integers(1 << 62)


# ---------------------------------------------------------------------------------- invariants
@pytest.mark.parametrize(
    ("n_players", "bots"), [(2, "default,random"), (4, "default,greedy,cautious,random"), (6, "default")]
)
def test_invariants_of_simulated_games(n_players, bots):
    bots_list = bots.split(",") if "," in bots else [bots] * n_players
    r = simulate(n_players, bots_list, n_games=6, seed=n_players, check=True, record_turns=True, progress=False)
    games, seats = r.games.set_index("game"), r.seats
    n_terr = BOARD.n_territories
    assert games.index.tolist() == list(range(6))
    for g, game in games.iterrows():
        s = seats[seats.game == g].set_index("seat")
        assert sorted(s["rank"]) == list(range(1, n_players + 1))
        e = r.eliminations[r.eliminations.game == g]
        if not game.capped:
            # The winner is ranked first and is the one player never eliminated.
            assert s.loc[game.winner, "rank"] == 1
            assert sorted(e.player) == sorted(set(range(n_players)) - {game.winner})
            assert s["eliminated_turn"].isna().sum() == 1
        assert (e.player != e.by).all() and e.turn.is_monotonic_increasing and (e.turn <= game.turns).all()
        assert s.loc[s["eliminated_turn"].notna(), "final_territories"].eq(0).all()
        # Set values follow the classic progressive sequence, in the order traded.
        values = r.trades[r.trades.game == g].value.tolist()
        assert values == [Rules().set_value(i) for i in range(len(values))][: len(values)]
        assert values[:6] == [4, 6, 8, 10, 12, 15][: len(values)]
        # At the start every territory has an owner and the armies are the rules' starting armies.
        st = r.starts[r.starts.game == g]
        assert len(st) == n_terr and st.armies.min() >= 1
        expected_armies = STARTING_ARMIES[n_players] * n_players + (NEUTRAL_ARMIES if n_players == 2 else 0)
        assert st.armies.sum() == expected_armies
        assert st.owner.nunique() == n_players + (n_players == 2)
        assert s.start_territories.sum() + (st.owner == 2).sum() * (n_players == 2) == n_terr
        t = r.turns[r.turns.game == g]
        assert t.turn.max() == game.turns
        assert (t.groupby("turn").territories.sum() <= n_terr).all()
        assert ((t.territories == 0) == (t.armies == 0)).all()


@pytest.mark.parametrize(
    "rules",
    [
        Rules(fortify="connected"),
        Rules(card_values="fixed"),
        Rules(setup="deal"),
        Rules(capitals=True),
        Rules(missions=True),
        Rules(territory_bonus=0),
    ],
    ids=["connected", "fixed-cards", "deal", "capitals", "missions", "no-bonus"],
)
def test_the_bots_play_legal_games_under_every_rule_variant(rules):
    r = simulate(3, "default,greedy,random", n_games=2, seed=3, rules=rules, check=True, progress=False)
    assert r.games.winner.notna().all() and r.params["rules"] == rules.to_dict()


def test_capped_games_have_no_winner():
    r = simulate(4, "random,random,random,random", n_games=5, seed=1, max_rounds=3, progress=False)
    assert r.games.capped.all() and r.games.winner.isna().all()
    assert (r.games.rounds == 3).all() and (r.games.turns == 12).all()
    assert r.win_rates("seat").wins.sum() == 0
    summary = r.summary()
    assert summary["capped"] == 5
    # Ranked, each capped game counts once, for the seat holding most territories (then most armies) at the end.
    seats = r.seats.sort_values(["game", "final_territories", "final_armies"], ascending=[True, False, False])
    leaders = seats.groupby("game")["seat"].first().value_counts()
    firsts = r.win_rates("seat", ranked=True).set_index("seat")["wins"]
    assert firsts.sum() == 5 and firsts[firsts > 0].to_dict() == leaders.to_dict()
    assert sum(row["wins"] for row in summary["first_by_bot"]) == 5
    text = describe(summary | {"written": []})
    assert "first place by bot, capped games ranked by territories, then armies" in text
    # Four random seats a game, 20 seats, 5 first: Wilson by hand, centre 0.2903, half-width 0.1784.
    assert "random   25.0%  [ 11.2%,  46.9%]  5/20" in text


# ---------------------------------------------------------------------------------- battles
def _battle_position(a: int, d: int) -> GameState:
    owner = [0] * BOARD.n_territories
    owner[T("Quebec")] = 1
    state = GameState.from_position(owner, [1] * BOARD.n_territories, n_players=2)
    state.apply(Place(T("Alaska"), state.pending))
    state.armies[T("Ontario")] = a
    state.armies[T("Quebec")] = d
    assert state.phase == Phase.ATTACK
    return state


@pytest.mark.parametrize(("a", "d", "stop_at"), [(8, 5, 1), (12, 6, 4), (4, 3, 1)])
def test_sampled_battles_and_rolled_dice_agree(a, d, stop_at):
    n = 3000
    rng = np.random.default_rng(a * 100 + d)
    start = _battle_position(a, d)
    bots = [make_bot("default")] * 2
    order = BattleOrder(T("Ontario"), T("Quebec"), stop_at)
    rolled, sampled = [], []
    for _ in range(n):
        state = start.copy()
        roll_battle(state, order, bots, rng)
        captured = state.owner[order.target] == 0
        # After a capture the engine may already have moved armies in: what the source held is the sum.
        source = int(state.armies[order.source]) + (int(state.armies[order.target]) if captured else 0)
        rolled.append((source, 0 if captured else int(state.armies[order.target])))
        sampled.append(sample_battle(a, d, stop_at, start.rules.dice, rng))
    exact = battle(a, d, stop_at=stop_at)
    outcomes = list(zip(exact.attacker_left.tolist(), exact.defender_left.tolist()))
    counts_rolled = np.array([rolled.count(o) for o in outcomes])
    counts_sampled = np.array([sampled.count(o) for o in outcomes])
    assert counts_rolled.sum() == n and counts_sampled.sum() == n
    keep = exact.probability * n >= 5  # chi-square needs expected counts of at least ~5
    expected = exact.probability[keep] / exact.probability[keep].sum()
    for counts in (counts_rolled, counts_sampled):
        observed = counts[keep]
        assert chisquare(observed, expected * observed.sum()).pvalue > 1e-3
    table = np.vstack([counts_rolled[keep], counts_sampled[keep]])
    assert chi2_contingency(table).pvalue > 1e-3


def test_whole_games_agree_with_sampled_and_rolled_battles():
    kw = dict(n_players=2, bots="default,cautious", n_games=150, seed=21, progress=False)
    sampled = simulate(**kw).games
    rolled = simulate(**kw, sample_battles=False).games
    table = [[int((g.winner == 0).sum()), int((g.winner != 0).sum())] for g in (sampled, rolled)]
    assert fisher_exact(table).pvalue > 1e-3
    # The games differ draw by draw, so this is a comparison of two samples, not of equal games.
    assert not sampled.equals(rolled)


def test_bad_battle_orders_are_refused():
    class Reckless:
        def choose(self, state, rng):
            if state.phase == Phase.ATTACK:
                return BattleOrder(T("Ontario"), T("Quebec"), 50)
            return make_bot("default").choose(state, rng)

    from analyzer.errors import BotError
    from analyzer.sim.play import play_game

    state = _battle_position(5, 3)
    with pytest.raises(BotError, match="stop_at"):
        play_game(state, [Reckless(), Reckless()], np.random.default_rng(0))


# ---------------------------------------------------------------------------------- checkpoints
def test_rerun_resumes_from_the_checkpoint_and_refuses_other_parameters(tmp_path):
    ckpt = tmp_path / "run.checkpoint"
    full = simulate(**RUN, checkpoint=ckpt)
    assert full.games_played == 24
    # Forget two of the five batches, as if the run had been interrupted before they finished.
    for b in (1, 3):
        (ckpt / f"batch-{b:06d}.done").unlink()
    resumed = simulate(**RUN, checkpoint=ckpt)
    assert resumed.games_played == 10
    assert_same(full, resumed)
    with pytest.raises(SimulationError, match="different seed"):
        simulate(**{**RUN, "seed": 6}, checkpoint=ckpt)


def _cli(*args: str, **kw) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "analyzer", "simulate", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kw,
    )


def test_an_interrupted_cli_run_loses_no_finished_game(tmp_path):
    out = tmp_path / "results.parquet"
    args = [
        "--players",
        "4",
        "--bots",
        "default",
        "--games",
        "200",
        "--seed",
        "4",
        "--batch-size",
        "2",
        "--roll-dice",
        "--out",
        str(out),
        "--quiet",
        "--json",
    ]
    # A run of two games first compiles the kernels (or loads them): on a clean clone that takes minutes beside
    # the rest of the suite, and the interrupt below must fall among the batches, not in the compiler.
    warm = _cli(*args[:4], "--games", "2", "--out", str(tmp_path / "warm.parquet"), "--quiet")
    assert warm.wait(timeout=600) == 0
    proc = _cli(*args)
    ckpt = Path(f"{out}.checkpoint")
    started = time.monotonic()
    seen: list[tuple[float, int]] = []  # (seconds, batches checkpointed) each time the count moved
    while time.monotonic() < started + 120 and proc.poll() is None:
        done = len(list(ckpt.glob("*.done")))
        if not seen or seen[-1][1] != done:
            seen.append((round(time.monotonic() - started, 2), done))
        if done >= 3:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    if proc.returncode == 0:  # pragma: no cover - the whole run beat the interrupt
        pytest.skip(f"the run finished before it was interrupted; batches checkpointed as seen (s, n): {seen[-6:]}")
    finished = {p.name for p in ckpt.glob("*.done")}
    assert finished, "the run should have checkpointed some batches before the interrupt"
    assert not out.exists()
    rerun = _cli(*args)
    stdout, stderr = rerun.communicate(timeout=600)
    assert rerun.returncode == 0, stderr
    summary = json.loads(stdout)
    assert summary["resumed_games"] >= 2 * len(finished)
    assert summary["games"] == 200 and not ckpt.exists()
    reference = simulate(4, ["default"] * 4, 200, 4, sample_battles=False, progress=False)
    assert_same(reference, SimulationResult.load(out))


def test_win_rate_intervals_are_wilson_and_capped_games_count_for_nobody():
    # 100 games: seat 0 wins 50, seat 1 wins 40, 10 are capped (seat 0 ranked first in those).
    games = pd.DataFrame(
        {
            "game": range(100),
            "winner": pd.array([0] * 50 + [1] * 40 + [None] * 10, dtype="Int8"),
            "capped": [False] * 90 + [True] * 10,
        }
    )
    rank0 = [1] * 50 + [2] * 40 + [1] * 10
    seats = pd.DataFrame(
        {
            "game": list(range(100)) * 2,
            "seat": [0] * 100 + [1] * 100,
            "bot": ["a"] * 100 + ["b"] * 100,
            "rank": rank0 + [3 - r for r in rank0],
        }
    )
    empty = pd.DataFrame()
    r = SimulationResult(games, seats, empty, empty, empty, empty)
    rates = r.win_rates("seat").set_index("seat")
    assert rates.loc[0, "wins"] == 50 and rates.loc[1, "wins"] == 40
    # The Wilson 95% interval of 50/100 is 0.5 -+ 0.09617.
    assert rates.loc[0, "ci_low"] == pytest.approx(0.40383, abs=1e-5)
    assert rates.loc[0, "ci_high"] == pytest.approx(0.59617, abs=1e-5)


# ---------------------------------------------------------------------------------- saving, CLI
def test_save_and_load_round_trip(tmp_path, serial):
    written = serial.save(tmp_path / "r.parquet")
    assert [p.name for p in written] == ["r.parquet"] + [f"r.{t}.parquet" for t in TABLES[1:]] + ["r.run.json"]
    back = SimulationResult.load(tmp_path / "r.parquet")
    assert_same(serial, back)
    # The run's parameters come back with its tables: its seed, bots and rules.
    assert back.params == serial.params and back.params["seed"] == 5 and back.seconds == serial.seconds
    # The ending says the format: CSV, read back with the tables' column types.
    serial.save(tmp_path / "c.csv")
    assert (tmp_path / "c.csv").read_bytes()[:4] != b"PAR1"
    assert pd.read_csv(table_path(tmp_path / "c.csv", "seats")).shape == serial.seats.shape
    back = SimulationResult.load(tmp_path / "c.csv")
    assert_same(serial, back)
    assert back.params == serial.params


def test_a_saved_runs_file_name_must_say_its_format(tmp_path, serial):
    with pytest.raises(
        SimulationError, match=r"output file '.*r.csv' ends in .csv, but the format asked for is parquet"
    ):
        serial.save(tmp_path / "r.csv", "parquet")
    with pytest.raises(SimulationError, match=r"output file '.*r.txt': give a file ending in .csv or .parquet"):
        serial.save(tmp_path / "r.txt")
    assert not list(tmp_path.iterdir())
    serial.save(tmp_path / "r.csv")
    (tmp_path / "r.trades.csv").unlink()
    with pytest.raises(SimulationError, match=r"r.trades.csv': no such file; a saved run has its trades table there"):
        SimulationResult.load(tmp_path / "r.csv")


def test_cli_summary(capsys, tmp_path):
    code = main(
        [
            "simulate",
            "--players",
            "2",
            "--bots",
            "default,random",
            "--games",
            "20",
            "--seed",
            "1",
            "--quiet",
            "--out",
            str(tmp_path / "x.parquet"),
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    assert "win rate by seat" in text and "win rate by bot" in text and "games/s" in text and "median" in text
    assert (tmp_path / "x.parquet").exists() and not (tmp_path / "x.parquet.checkpoint").exists()
    assert main(["simulate", "--players", "2", "--bots", "default", "--games", "10", "--quiet", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 10 and {r["bot"] for r in summary["by_bot"]} == {"default"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "2", "--bots", "default,nope"], "unknown bot 'nope'"),
        (["--players", "3", "--bots", "default,random"], "3 players need 3 bots"),
        (["--players", "9"], "--players must be a whole number from 2 to 6, got 9"),
        (["--games", "0"], "games must be a whole number >= 1"),
        (["--workers", "0"], "workers must be a whole number >= 1"),
        (["--rules", "{bad"], "--rules is not valid JSON"),
        (["--rules", '{"fortify": "anywhere"}'], "fortify='anywhere'"),
    ],
)
def test_cli_errors_are_one_line(capsys, args, message):
    assert main(["simulate", "--quiet", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and err.startswith("risk-analyzer simulate: error:")


# ---------------------------------------------------------------------------------- position evaluation
def test_evaluation_of_a_lopsided_position_and_its_reproducibility():
    # Player 0 holds everything but Eastern Australia, with 10 armies a territory, against one army.
    owner = [0] * BOARD.n_territories
    owner[T("Eastern Australia")] = 1
    armies = [10] * BOARD.n_territories
    armies[T("Eastern Australia")] = 1
    state = GameState.from_json(GameState.from_position(owner, armies, n_players=3, player=1).to_json())
    ev = evaluate(state, "default", rollouts=30, seed=2, progress=False)
    row = ev.table.set_index("player")
    assert row.loc[0, "wins"] == 30 and row.loc[0, "ci_low"] > 0.85
    assert ev.table["win_rate"].sum() + ev.capped / ev.rollouts == pytest.approx(1.0)
    again = evaluate(state, "default", rollouts=30, seed=2, workers=2, batch_size=10, progress=False)
    pd.testing.assert_frame_equal(ev.table, again.table)


# ---------------------------------------------------------------------------------- damaged checkpoints, orphans
def test_a_damaged_checkpoint_is_named_set_aside_and_replayed(tmp_path):
    from analyzer.sim.checkpoints import CheckpointWarning

    ckpt = tmp_path / "run.checkpoint"
    run = dict(n_players=3, bots="random", n_games=6, seed=2, batch_size=2, progress=False)
    reference = simulate(**run)
    simulate(**run, checkpoint=ckpt)
    cut = ckpt / "batch-000001.seats.parquet"
    cut.write_bytes(cut.read_bytes()[:40])  # a copy cut short
    with pytest.warns(CheckpointWarning, match="batch-000001.seats.parquet is damaged"):
        again = simulate(**run, checkpoint=ckpt)
    assert (ckpt / "batch-000001.seats.parquet.damaged").exists()
    assert again.games_played == 2
    assert_same(reference, again)
    (ckpt / "run.json").write_text('{"n_players": 3, "bo')
    with pytest.warns(CheckpointWarning, match="run.json is damaged"):
        again = simulate(**run, checkpoint=ckpt)
    assert again.games_played == 6
    assert_same(reference, again)


def test_workers_die_with_their_parent(tmp_path):
    script = (
        "from analyzer.sim.simulate import simulate\n"
        "simulate(4, 'random', n_games=400, seed=1, workers=2, batch_size=1, progress=False)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})

    def children() -> list[int]:
        found = []
        for status in Path("/proc").glob("[0-9]*/status"):
            try:
                text = status.read_text()
            except OSError:
                continue
            if f"\nPPid:\t{parent.pid}\n" in text:
                found.append(int(status.parent.name))
        return found

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(children()) < 2:
        time.sleep(0.1)
    workers = children()
    assert len(workers) >= 2, "the pool should have started its workers"
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 60
    alive = workers
    while time.monotonic() < deadline and alive:
        time.sleep(0.1)
        alive = [
            w
            for w in workers
            if Path(f"/proc/{w}").exists() and "State:\tZ" not in Path(f"/proc/{w}/status").read_text()
        ]
    assert not alive, f"workers {alive} outlived their parent"
