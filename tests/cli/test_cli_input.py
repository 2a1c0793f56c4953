"""Careless and hostile command lines and bots: one line on stderr and exit 2, never a traceback or a hang."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from analyzer.cli import main
from analyzer.errors import BotError
from analyzer.game.actions import Place
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.sim.simulate import simulate

DEEP = '{"a":' * 30_000 + "1" + "}" * 30_000


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--games", str(10**15)], "games 1000000000000000 is past the limit of 100000000"),
        (["simulate", "--workers", "1000", "--games", "2"], "workers"),
        (["simulate", "--max-rounds", str(10**20)], "analyzer.limits.MAX_ROUNDS"),
        (["simulate", "--batch-size", str(10**9)], "MAX_BATCH_SIZE"),
        (["simulate", "--rules", '{"territory_bonus": 100000000000000000000}'], "MAX_BONUS"),
        (["simulate", "--rules", '{"dice": {"foo": 1}}'], "unknown dice option"),
        (["simulate", "--rules", '{"missions": "no"}'], "missions must be true or false"),
        (["simulate", "--rules", DEEP], "nests 30000 levels deep"),
        (["simulate", "--bots", ":Bot"], "cannot import"),
        (["simulate", "--bots", ".x:Bot"], "cannot import"),
        (["simulate", "--games", "2", "--out", os.fsdecode(b"\xff.parquet")], "is not UTF-8"),
        (["simulate", "--games", "2", "--out", "runs.parquet", "--csv"], "ends in .parquet, but --csv asks for CSV"),
        (["simulate", "--games", "2", "--out", "runs"], "'runs': give a file ending in .csv or .parquet"),
        (["ladder", "--bots", "default,random", "--games", "2", "--out", "l.txt"], "give a file ending in .csv"),
        (["odds-table", "--max", "100000", "--out", "t.csv"], "MAX_TABLE_ARMIES"),
        (["odds-table", "--max", "5", "--out", "t.csv", "--plot", "t.xyz"], "cannot write a 'xyz'"),
        (["odds", "10", "--chain", *["3"] * 1001], "MAX_CHAIN_LENGTH"),
        # Checked before the work: the table was written, then the heatmap's missing folder refused.
        (["odds-table", "--max", "5", "--out", "t.csv", "--plot", "/no-such-folder/t.png"], "/no-such-folder does not"),
        (["odds", "12", "7", "--garrison", "2"], "--garrison 2: a garrison is left in the territories of a chain"),
        # Checked before the games are played: the card's folder was found missing only once the model was trained.
        (["train-value", "--games", "2", "--out", "m.npz", "--card", "/no-such-folder/c.json"], "/no-such-folder does"),
        # In the options' names, as typed: the solver's names ("attacker_dice must be None or...") were printed.
        (
            ["odds", "12", "7", "--attacker-dice", "0"],
            "error: --attacker-dice must be a whole number from 1 to 3, got 0",
        ),
        (["odds", "12", "7", "--stop-at", "12"], "error: --stop-at must be below the attacking armies (12), got 12"),
        (["odds-table", "--max", "0", "--out", "t.csv"], "error: --max must be a whole number >= 2, got 0"),
        (
            ["games", "import", "--db", "/no-such-folder/g.sqlite3", "/no-such-file.jsonl"],
            "'/no-such-file.jsonl': no such",
        ),
    ],
)
def test_bad_command_lines_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: object, argv: list[str], message: str
) -> None:
    assert main([*argv, "--quiet"] if argv[0] == "simulate" else argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err, err


class GreedyPlacer:
    """A user's bot that places far more armies than it has, on an enemy territory."""

    def choose(self, state: GameState, rng: np.random.Generator) -> object:
        if state.phase == Phase.REINFORCE:
            enemy = int(np.flatnonzero(state.owner != state.player)[0])
            return Place(enemy, state.pending + 1000)
        return state.legal_actions()[-1]


def test_a_user_bot_s_illegal_action_is_an_error_naming_the_bot_the_action_and_the_reason() -> None:
    for check in (False, True):  # a bot from outside the package always plays through the checked path
        with pytest.raises(
            BotError,
            match=r"bot 'test_cli_input.GreedyPlacer' of seat \d chose Place\(territory=\d+, armies=\d+\): .*is not Player \d's",
        ):
            simulate(3, [GreedyPlacer(), "random", "random"], n_games=1, seed=1, check=check, progress=False)


def test_the_tables_are_written_in_the_format_their_file_name_ends_in(tmp_path: Path) -> None:
    # The format followed --csv alone: "--out runs.csv" wrote Parquet under that name.
    assert main(["simulate", "--games", "2", "--quiet", "--out", str(tmp_path / "runs.csv")]) == 0
    assert (tmp_path / "runs.csv").read_text().startswith("game,winner,")
    assert (tmp_path / "runs.seats.csv").read_text().startswith("game,")
    assert main(["simulate", "--games", "2", "--quiet", "--out", str(tmp_path / "runs.parquet")]) == 0
    assert (tmp_path / "runs.parquet").read_bytes()[:4] == b"PAR1"


def test_a_negative_seed_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    game.write_text(GameState.random_start(3, np.random.default_rng(1)).to_json())
    for argv in (
        ["chances", str(game), "--seed", "-1"],
        ["chances", str(game), "--method", "rollouts", "--rollouts", "10", "--seed", "-1"],
        ["review", str(game), "--seed", "-1"],
        ["train-value", "--games", "2", "--seed", "-1", "--out", str(tmp_path / "m.npz")],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "seed must be a whole number >= 0, got -1" in err, (argv, err)
