"""The game review (analyzer.analysis.review) and its command: a blunder is charged to the decisions, a
freak battle to the dice, a finished game ends at 1 for the winner, a turn's own decisions replayed on
its own dice give back the recorded position, and the CLI keeps its JSON contract."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from analyzer.analysis.evaluator import CUT_ROLLOUTS, CUT_ROUNDS, ROLLOUT_BOT, chances
from analyzer.analysis.review import (
    AFRESH_STREAM,
    DECISION_ERROR,
    LATER_STREAM,
    MIN_BATTLE_ROLLOUTS,
    TURN_STREAM,
    RolloutStreams,
    _values,
    decision_error,
    is_bots_own_turn,
    player_turns,
    replay_turn,
    review_chart,
    review_figure,
    review_game,
    turn_positions,
)
from analyzer.analysis.search import PLANS, play_setup
from analyzer.bots.base import BattleOrder
from analyzer.bots.registry import make_bot
from analyzer.cli import main
from analyzer.game.actions import Attack, Battle, EndAttack, EndTurn, Place, Roll
from analyzer.game.engine.layout import N_FORCES
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.sim.battles import sample_battle
from analyzer.sim.intervals import Z95
from analyzer.solver.battle import battle
from analyzer.store import GameStore

ROOT = Path(__file__).resolve().parents[2]
#: Enough rollouts that the figures asserted below sit far from their thresholds (see the report of each test).
ROLLOUTS = 120


def bot_turns(state: GameState, turns: int, rng: np.random.Generator) -> GameState:
    """``turns`` player-turns of the default bot, recorded action by action (or fewer if the game ends)."""
    for _ in range(turns):
        if state.is_terminal():
            break
        replay_turn(state, (), rng)
    return state


def fresh_start(state: GameState) -> GameState:
    """``state`` (at the start of a turn) as a new game with no history, so that a review starts there."""
    return GameState.from_position(
        state.owner,
        state.armies,
        n_players=state.n_players,
        player=state.player,
        hands={p: state.hand(p) for p in range(state.n_players)},
        sets_traded=state.sets_traded,
    )


def interior(state: GameState) -> list[int]:
    me = state.player
    return [t for t in state.territories_of(me) if all(state.owner[u] == me for u in state.board.neighbors[t])]


def blunder_position(seed: int = 2) -> GameState:
    """The first position of a seeded 2-player game of default bots (the neutral third), from its 6th
    turn on, where the player to move has 6 armies or more to place and a territory with no enemy
    neighbour. (Two players: in a game of three the default bots' rollouts often reward a passive turn,
    since the other two then fight each other.)"""
    rng = np.random.default_rng(seed)
    state = GameState.random_start(2, rng)
    for j in range(40):
        if j >= 5 and state.pending >= 6 and interior(state):
            return fresh_start(state)
        replay_turn(state, (), rng)
    raise AssertionError("no such position in 40 turns")


def test_a_battle_rolled_die_by_die_is_read_as_its_order_and_its_result_before_the_move_in() -> None:
    # A neighbour of the last territory (3 armies) takes it (1 army; its owner keeps one more) in two rolls: two dice that lose one army,
    # then one die that takes it with 2 armies left, one of which must move in (the rules leave no choice).
    game = GameState.from_position([0] * 40 + [1, 1], [3] * 40 + [1, 1], n_players=2)
    target = 41
    source = next(t for t in game.board.neighbors[target] if t < 40)
    game.apply(Place(next(t for t in range(40) if t != source), game.pending))
    # One army on the defending territory: one die, without the defender's choice.
    game.apply(Attack(source, target, 2))
    game.apply(Roll(1, 0))
    game.apply(Attack(source, target, 1))
    game.apply(Roll(0, 1))
    assert game.phase == Phase.ATTACK and (int(game.armies[source]), int(game.armies[target])) == (1, 1)
    game.apply(EndAttack())
    game.apply(EndTurn())
    while game.is_chance():  # the card the capture earned
        game.apply_chance(np.random.default_rng(0))
    (turn,) = player_turns(game)
    ((before, order, left),) = turn.battles
    # The result is the armies on the source after the last roll, before the move-in.
    assert order == BattleOrder(source, target, 1) and left == (2, 0)
    assert (int(before.armies[source]), int(before.armies[target])) == (3, 1)


def test_replaying_a_turn_on_its_own_dice_gives_back_the_recorded_position() -> None:
    # Over many bot turns: the decisions read from the log, replayed with the generator the turn was
    # played with, draw the same battles and cards, so they stay on the table's track to the same position.
    rng = np.random.default_rng(7)
    game = GameState.random_start(4, rng)
    seeds = []
    for _j in range(24):
        seeds.append(int(rng.integers(2**32)))
        replay_turn(game, (), np.random.default_rng(seeds[-1]))
    turns = player_turns(game)
    assert len(turns) == 24
    battles = 0
    for t, seed in zip(turns, seeds):
        replay = replay_turn(t.before.copy(), t.decisions, np.random.default_rng(seed), outcomes=t.outcomes)
        assert replay.to_dict(history=False) == t.after.to_dict(history=False)
        battles += sum(type(d) is BattleOrder for d in t.decisions)
    assert battles > 20


def same_games(replayed: np.ndarray, played: np.ndarray) -> None:
    """Rollouts (values, then luck) of the same games: the same values, and the same battles' luck, which the
    replay sums in Python and the compiled playout in its own order (so to the last bits of a float)."""
    n = replayed.shape[1] // 2
    assert replayed[:, :n].tolist() == played[:, :n].tolist()
    assert np.allclose(replayed[:, n:], played[:, n:], rtol=0, atol=1e-9)
    assert np.abs(played[:, n:]).sum() > 0  # battles were fought


def test_a_turn_the_rollout_bot_played_replays_as_the_same_games() -> None:
    # The review reuses the rollout bot's own turn's rollouts as the replays of a turn it would have played
    # itself: played out, the replays must be those very games, rollout by rollout, to the same values.
    rng = np.random.default_rng(5)
    game = bot_turns(GameState.random_start(4, rng), 8, rng)
    turns = player_turns(game)
    assert all(is_bots_own_turn(t) for t in turns)
    for t in turns[::3]:
        text = t.before.to_json(history=False)
        same_games(
            _values(text, t.decisions, t.outcomes, None, 3, t.index, 12, t.before.turn + 4),
            _values(text, None, None, None, 3, t.index, 12, t.before.turn + 4),
        )
    # Turns of other bots: those it flags as the rollout bot's own replay as the same games too, and some
    # are not flagged (their replays are played).
    rng = np.random.default_rng(6)
    others = [make_bot(name) for name in ("classic", "greedy", "cautious")]
    game = GameState.random_start(3, rng)
    for _ in range(9):
        replay_turn(game, (), rng, others[game.player])
    flags = [is_bots_own_turn(t) for t in player_turns(game)]
    assert any(flags) and not all(flags)
    for t, own in zip(player_turns(game), flags):
        if own:
            text = t.before.to_json(history=False)
            same_games(
                _values(text, t.decisions, t.outcomes, None, 3, t.index, 12, t.before.turn + 4),
                _values(text, None, None, None, 3, t.index, 12, t.before.turn + 4),
            )
    # A turn the bot would not have played is replayed: the blunder below.
    start = blunder_position()
    blunder = start.copy()
    replay_turn(blunder, [Place(interior(blunder)[0], 10**6), EndAttack(), EndTurn()], np.random.default_rng(1))
    assert not is_bots_own_turn(player_turns(blunder)[0])


def test_a_turn_handed_to_compiled_code_plays_the_same_games_as_in_python() -> None:
    # The review's rollouts play a turn in compiled code once the record has no decision left: every plan of
    # the search, and a recorded turn of other bots, must come out as deciding in Python gives, on the same
    # random numbers (the position, and each force's battle luck).
    rng = np.random.default_rng(8)
    others = [make_bot(name) for name in ("classic", "greedy", "cautious", "hunter")]
    game = GameState.random_start(4, rng)
    for _ in range(12):
        replay_turn(game, (), rng, others[game.player])
    compared = 0
    for t in player_turns(game)[::2]:
        for name, bot in PLANS.items():
            for decisions, outcomes in (((), None), (t.decisions, t.outcomes)):
                ends, luck = [], []
                for compiled in (False, True):
                    s = t.before.copy()
                    s.history = []
                    kept = np.zeros(int(s.S[N_FORCES]))
                    replay_turn(s, decisions, np.random.default_rng(t.index), bot, outcomes, kept, compiled=compiled)
                    ends.append(s.S.copy())
                    luck.append(kept)
                assert np.array_equal(ends[0], ends[1]), (t.index, name)
                assert np.allclose(luck[0], luck[1]), (t.index, name)
                compared += 1
    assert compared >= 6 * len(PLANS) * 2


def test_a_blunder_is_charged_to_the_decisions() -> None:
    start = blunder_position()
    me = start.player
    played = {}
    for blunder in (True, False):
        rng = np.random.default_rng(11)
        game = start.copy()
        if blunder:
            # All the reinforcements onto a territory with no enemy next to it, no attack, no fortify.
            replay_turn(game, [Place(interior(game)[0], 10**6), EndAttack(), EndTurn()], rng)
        else:
            replay_turn(game, (), rng)
        bot_turns(game, 1, rng)
        review = review_game(game, rollouts=ROLLOUTS, seed=3, turning_points=1)
        row = review.turns.iloc[0]
        assert row["player"] == me
        played[blunder] = row
    bad, good = played[True], played[False]
    print(
        f"blunder: decisions {bad['decisions']:+.3f} [{bad['decisions_low']:+.3f}, {bad['decisions_high']:+.3f}] "
        f"against {bad['best_plan']}; the bot's turn: {good['decisions']:+.3f} [{good['decisions_low']:+.3f}, "
        f"{good['decisions_high']:+.3f}] against {good['best_plan']}"
    )
    assert bad["decisions_high"] < 0 and bad["decisions"] < good["decisions"] - 0.01
    # The bot's own turn costs exactly 0, its replays being its own games; the blunder's interval holds the
    # model's error where the rollouts stop as well as their noise.
    assert good["bots_own_turn"] and good["decisions"] == good["decisions_low"] == good["decisions_high"] == 0
    added = Z95 * float(decision_error(bad["decisions"]))
    assert (bad["decisions_high"] - bad["decisions_low"]) / 2 >= added > Z95 * DECISION_ERROR


def test_the_bots_own_turn_beaten_by_a_plan_has_the_models_error_in_its_interval() -> None:
    # A 4-player game of the default bot whose first turn (Player 4's) one of the search's plans beats by about 27
    # points a round on: two turns compared, so the model's error where the rollouts stop is in the interval, as it
    # is for any other turn, and not only the rollouts' noise.
    rng = np.random.default_rng(np.random.SeedSequence(0, spawn_key=(0,)))
    game = bot_turns(play_setup(GameState.new(4, rng), rng), 2, rng)
    review = review_game(game, rollouts=200, seed=0, turning_points=2)
    beaten = review.turns[review.turns["bots_own_turn"] & (review.turns["best_plan"] != "default")]
    assert len(beaten) >= 1
    for row in beaten.itertuples():
        half = (row.decisions_high - row.decisions_low) / 2
        assert row.decisions_high < 0 and half >= Z95 * float(decision_error(row.decisions)), row


def test_the_bots_own_turns_play_no_rollouts_of_their_own_away_from_the_turning_points() -> None:
    # Every turn of a game of the default bot is its own: each costs exactly 0 against itself, so with no turning
    # point the review plays only each battle's two sides and each position's win chances.
    rng = np.random.default_rng(np.random.SeedSequence(0, spawn_key=(0,)))
    game = bot_turns(play_setup(GameState.new(4, rng), rng), 4, rng)
    turns = player_turns(game)
    assert all(is_bots_own_turn(t) for t in turns)
    review = review_game(game, rollouts=40, seed=0, turning_points=0)
    assert (review.turns[["decisions", "decisions_low", "decisions_high"]] == 0).all().all()
    battles = sum(len(t.battles) for t in turns)
    assert battles > 0
    # 40 rollouts would give each battle 2 a side (40 // 18): it gets the fewest there are, 8.
    assert review.played == battles * 2 * MIN_BATTLE_ROLLOUTS + (len(turns) + 1) * CUT_ROLLOUTS


def test_a_small_budget_still_gives_each_battle_enough_rollouts_for_its_interval() -> None:
    # A 2-player game's first turn, played by the random bot: its battles lost it most of its chance. At 50
    # rollouts, 2 a side of each battle agreed and gave its dice part -101.4 points [-109.5, -93.3], an interval
    # that excluded the 900 rollouts' -10.9 [-30.3, +8.4]; with 8 a side it holds it.
    rng = np.random.default_rng(5)
    game = GameState.random_start(2, rng)
    bot = make_bot("random")
    while game.turn < 2:
        game.apply_chance(rng) if game.phase in (Phase.ROLL, Phase.DRAW) else game.apply(bot.choose(game, rng))
    reference = review_game(game, rollouts=900, seed=0).turns.iloc[0]
    small = review_game(game, rollouts=50, seed=0).turns.iloc[0]
    assert -0.35 < reference.dice < 0.15 and reference.dice_high - reference.dice_low < 0.5
    assert small.dice_low <= reference.dice <= small.dice_high


def freak_turn(game: GameState, rng: np.random.Generator) -> tuple[int, int] | None:
    """The default bot's turn, except that its first battle of 12 armies or more against 3 or fewer ends
    as badly as it can: the attacker down to one army, the defender untouched. The rest of the turn is the bot's answer to it. Returns that battle's armies (None if none)."""
    turn, freak = game.turn, None
    while game.turn == turn and not game.is_terminal():
        if game.is_chance():
            game.apply_chance(rng)
            continue
        decision = ROLLOUT_BOT.choose(game, rng)
        if type(decision) is BattleOrder:
            s, t = decision.source, decision.target
            a, d = int(game.armies[s]), int(game.armies[t])
            if freak is None and a >= 12 and d <= 3:
                game.apply(Battle(s, t, 1, d))
                freak = (a, d)
                continue
            a_left, d_left = sample_battle(a, d, decision.stop_at, game.rules.dice, rng)
            game.apply(Battle(s, t, a_left, d_left))
        else:
            game.apply(decision)  # type: ignore[arg-type]  # anything but an order is an action
    return freak


def test_a_freak_battle_is_charged_to_the_dice() -> None:
    # The first turn of a seeded 2-player game, from its 6th on, with such a battle.
    rng = np.random.default_rng(7)
    state = GameState.random_start(2, rng)
    for j in range(60):
        game = fresh_start(state)
        me = game.player
        freak = freak_turn(game, np.random.default_rng(j)) if j >= 5 else None
        if freak is not None:
            break
        replay_turn(state, (), rng)
    assert freak is not None, "no battle of 12 or more against 3 or fewer in 60 turns"
    bot_turns(game, 1, rng)
    review = review_game(game, rollouts=ROLLOUTS, seed=3, turning_points=1)
    row = review.turns.iloc[0]
    print(
        f"freak battle {freak[0]} against {freak[1]} lost: change {row['change']:+.3f}, dice {row['dice']:+.3f} "
        f"[{row['dice_low']:+.3f}, {row['dice_high']:+.3f}], decisions {row['decisions']:+.3f} "
        f"[{row['decisions_low']:+.3f}, {row['decisions_high']:+.3f}]"
    )
    p = battle(*freak).joint()[1, freak[1]]
    print(f"(that result's probability: {p:.1e})")
    assert p < 1e-3
    assert row["player"] == me and row["change"] < 0
    assert row["dice_high"] < -0.1
    assert abs(row["decisions"]) < abs(row["dice"]) / 2


def test_a_finished_game_ends_at_one_for_the_winner() -> None:
    rng = np.random.default_rng(2)
    state = GameState.from_position([0] * 40 + [1, 1], [5] * 40 + [1, 1], n_players=2)
    game = bot_turns(state, 6, rng)
    assert game.is_terminal()
    review = review_game(game, rollouts=10)
    last = review.turns.iloc[-1]
    assert last[f"after_{game.winner}"] == 1.0
    assert sum(last[f"after_{p}"] for p in range(2)) == 1.0
    assert review.summary.loc[game.winner, "end"] == 1.0


def test_the_review_is_the_same_whatever_the_workers() -> None:
    rng = np.random.default_rng(4)
    game = bot_turns(GameState.random_start(3, rng), 3, rng)
    one = review_game(game, rollouts=8, seed=9, turning_points=1)
    two = review_game(game, rollouts=8, seed=9, turning_points=1, workers=2)
    assert one.turns.equals(two.turns) and one.chances.equals(two.chances)


def test_a_rollouts_streams_are_its_own_whatever_was_drawn_before() -> None:
    # Worker processes take a turn's rollouts in any order, and one generator serves each stream in turn: a stream
    # must depend on (seed, turn, rollout, stream) alone, and differ in each of them.
    streams = [TURN_STREAM, LATER_STREAM, AFRESH_STREAM]
    fresh = {(r, i): RolloutStreams(3, 7)(r, i).random(5) for r in range(4) for i in streams}
    shared = RolloutStreams(3, 7)
    for r in (3, 1, 0, 2):
        for i in reversed(streams):
            shared(r, i).random(1000)  # a long draw first, and the stream asked again
            assert np.array_equal(shared(r, i).random(5), fresh[(r, i)])
    others = [RolloutStreams(4, 7)(0, TURN_STREAM).random(5), RolloutStreams(3, 8)(0, TURN_STREAM).random(5)]
    draws = list(fresh.values()) + others
    assert len({d.tobytes() for d in draws}) == len(draws)


def test_the_reviews_win_chances_are_the_figures_every_view_shows() -> None:
    """Each position's chances are the evaluator's truncated rollouts on seed 0, whatever the review's seed, so the
    strip beside a live game shows the same figures for the same position."""
    rng = np.random.default_rng(4)
    game = bot_turns(GameState.random_start(3, rng), 4, rng)
    review = review_game(game, rollouts=4, seed=9, turning_points=0)
    positions = turn_positions(game)
    for j in (0, len(positions) - 1):
        cut = chances(positions[j], "truncated", seed=0)
        mine = review.chances[review.chances["position"] == j]
        assert np.array_equal(mine["p_win"].to_numpy(), cut.p)
        assert np.array_equal(mine["ci_low"].to_numpy(), cut.low) and np.array_equal(
            mine["ci_high"].to_numpy(), cut.high
        )
    assert (
        f"{CUT_ROLLOUTS} rollouts of the strategist (the default bot) in every seat, each cut {CUT_ROUNDS} rounds on"
        in review.assumed
    )


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "analyzer", "review", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )


def test_the_command_prints_the_json_contract_and_writes_the_table(tmp_path: Path) -> None:
    rng = np.random.default_rng(6)
    game = bot_turns(GameState.random_start(3, rng), 4, rng)
    game.labels["names"] = ["Ann", "Bo", "Cy"]
    path = tmp_path / "game.json"
    path.write_text(game.to_json())
    out = tmp_path / "review.csv"
    done = _cli(str(path), "--rollouts", "6", "--seed", "2", "--json", "--out", str(out))
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["players"] == ["Ann", "Bo", "Cy"]
    turns = player_turns(game)
    assert [t["player"] for t in data["turns"]] == [t.player for t in turns]
    # The table's turn numbers: every player's n-th turn is turn n.
    assert [t["turn"] for t in data["turns"]] == [t.round for t in turns]
    assert [t["player_turn"] for t in data["turns"]] == list(range(1, len(turns) + 1))
    for t in data["turns"]:
        assert len(t["win_chances"]) == 3 and sum(t["win_chances"]) <= 1 + 1e-9
        assert isinstance(t["dice"], float) and isinstance(t["decisions"], float)
    assert out.read_text().splitlines()[0].startswith("turn,player_turn,player,name")


@pytest.mark.parametrize(
    "content, says",
    [
        (None, "cannot read"),
        ("{not json", "is not a recorded game"),
        ('{"format": "risk-analyzer/state", "version": 1}', "is not a recorded game"),
    ],
)
def test_bad_files_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, says: str
) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content)
    assert main(["review", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and says in err


def test_an_impossible_log_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(6)
    game = bot_turns(GameState.random_start(3, rng), 2, rng)
    data = json.loads(game.to_json())
    battles = [entry for entry in data["history"] if entry[0] == "Battle"]
    assert battles, "no battle in the first two turns"
    battles[0][3] = 10**5  # a battle the log says left more attackers than there were
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    assert main(["review", str(path), "--quiet"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "is not a recorded game" in err, err


def _reviewed(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["review", *argv, "--rollouts", "4", "--json", "--quiet"]) == 0
    out, _ = capsys.readouterr()
    return dict(json.loads(out))


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["review", *argv, "--quiet"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, err
    return err


def test_the_command_reads_a_games_export_and_the_apps_saved_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A game stored as the app stores it, a version per turn, and another game beside it.
    rng = np.random.default_rng(6)
    game = GameState.random_start(3, rng)
    game.labels["names"] = ["Ann", "Bo", "Cy"]
    db = tmp_path / "games.sqlite3"
    store = GameStore(db)
    stored = store.create(game, "Friday")
    for _ in range(3):
        replay_turn(game, (), rng)
        stored = store.save(stored.id, game, expected_version=stored.version)
    assert stored.version == 4
    export = tmp_path / "games.jsonl"
    assert main(["games", "export", "--db", str(db), str(export)]) == 0
    capsys.readouterr()
    # One game: its latest version, unless --version names another.
    latest = _reviewed(capsys, str(export))
    assert latest["players"] == ["Ann", "Bo", "Cy"]
    assert [t["player"] for t in latest["turns"]] == [t.player for t in player_turns(game)]
    assert len(latest["turns"]) == 3
    assert len(_reviewed(capsys, str(export), "--version", "3")["turns"]) == 2
    assert "game " + stored.id + " ('Friday') has versions 1 to 4" in _refused(capsys, str(export), "--version", "9")

    other = GameState.random_start(4, rng)
    replay_turn(other, (), rng)
    second = store.create(other, "Saturday")
    assert main(["games", "export", "--db", str(db), str(export)]) == 0
    capsys.readouterr()
    assert "holds 2 games: choose one with --game ID" in _refused(capsys, str(export))
    picked = _reviewed(capsys, str(export), "--game", second.id)
    assert picked["players"] == ["Player 1", "Player 2", "Player 3", "Player 4"] and len(picked["turns"]) == 1
    assert "holds no game 'nope'" in _refused(capsys, str(export), "--game", "nope")

    # The app's saved file is the game's JSON: read as it is, and --version names nothing in it.
    saved = tmp_path / "risk-game.json"
    saved.write_text(store.load(stored.id).state.to_json(), encoding="utf-8")
    assert _reviewed(capsys, str(saved))["turns"] == latest["turns"]
    assert "is a saved game, not a games export" in _refused(capsys, str(saved), "--version", "2")


def test_the_turning_points_labels_do_not_run_into_each_other() -> None:
    # Turning points on six player-turns in a row of a game of 24: side by side, a label is wider than the gap.
    rng = np.random.default_rng(4)
    game = bot_turns(GameState.random_start(3, rng), 24, rng)
    review = review_game(game, rollouts=4, seed=9, turning_points=0)
    marked = review.turns.assign(turning_point=review.turns.index.isin(range(8, 14)))
    fig = review_figure(dataclasses.replace(review, turns=marked))
    renderer = FigureCanvasAgg(fig).get_renderer()
    labels = [text.get_window_extent(renderer) for text in fig.axes[0].texts]
    assert len(labels) == 6
    for k, a in enumerate(labels):
        assert fig.bbox.contains(a.x0, a.y0) and fig.bbox.contains(a.x1, a.y1), a  # none cut off by the figure
        assert not any(a.overlaps(b) for b in labels[k + 1 :]), a


def test_the_review_chart_draws_each_chance_in_per_cent_by_name_with_the_turning_points() -> None:
    rng = np.random.default_rng(4)
    game = bot_turns(GameState.random_start(3, rng), 9, rng)
    review = review_game(game, rollouts=4, seed=9, turning_points=2)
    spec = review_chart(review, ["#111111", "#222222", "#333333"]).to_dict()
    rows = [row for data in spec["datasets"].values() for row in data]
    drawn = {(r["position"], r["player"]): (r["chance"], r["low"], r["high"]) for r in rows if "chance" in r}
    names = review.players
    expected = {
        (int(r.position), names[int(r.player)]): (100 * r.p_win, 100 * r.ci_low, 100 * r.ci_high)
        for r in review.chances.itertuples()
    }
    assert drawn.keys() == expected.keys() and len(drawn) == 3 * (len(review.turns) + 1)
    for key, figures in expected.items():
        assert drawn[key] == pytest.approx(figures), key
    # Each player's line in its own colour, named as the review names them.
    lines = spec["layer"][1]["encoding"]["color"]["scale"]
    assert lines == {"domain": names, "range": ["#111111", "#222222", "#333333"]}
    # A dashed rule in the middle of each turning point's player-turn, which its tooltip names.
    marked = review.turns[review.turns["turning_point"]]
    rules = sorted(r["at"] for r in rows if "at" in r)
    assert len(marked) == 2 and rules == sorted(marked["player_turn"] - 0.5)
    # A tick at the first player-turn of each turn (3 players: positions 0, 3 and 6), named by the turn.
    axis = spec["layer"][0]["encoding"]["x"]["axis"]
    assert axis["values"] == [0, 3, 6] and axis["labelExpr"] == "['1', '2', '3'][indexof([0, 3, 6], datum.value)]"
