"""``risk-analyzer games``: every game with every version moves from SQLite to PostgreSQL and back unchanged;
a bad file or a game already there is refused with one line, and nothing is imported."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from support.postgres import postgres_server, postgres_url  # noqa: F401 - fixtures

from analyzer.bots.random_bot import RandomBot
from analyzer.cli import main
from analyzer.errors import StateFormatError
from analyzer.game.labels import with_player_labels
from analyzer.game.state import GameState
from analyzer.live import LIVE_LABEL, LiveGame
from analyzer.store import GameRecord, GameStore

pytestmark = pytest.mark.xdist_group("postgres")


def played_store(path: Path) -> list[GameRecord]:
    """Three games in an SQLite file, each played forward and saved entry by entry, one renamed."""
    store = GameStore(path)
    rng = np.random.default_rng(7)
    for g, entries in enumerate((1, 12, 30)):
        state = GameState.random_start(3 + g % 2, rng)
        stored = store.create(state, f"table {g}")
        for _ in range(entries - 1):
            state.apply_chance(rng) if state.is_chance() else state.apply(RandomBot().choose(state, rng))
            stored = store.save(stored.id, state, expected_version=stored.version)
    store.rename(stored.id, "renamed after play")
    return list(store.export_games())


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["games", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_games_go_to_postgresql_and_back_with_every_version(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    original = played_store(tmp_path / "home.sqlite3")
    assert [len(r.versions) for r in original] == [1, 12, 30]
    code, out, _ = run(capsys, "export", "--db", str(tmp_path / "home.sqlite3"), str(tmp_path / "games.jsonl"))
    assert (code, out.split()[:2]) == (0, ["exported", "3"])
    code, out, _ = run(capsys, "import", "--db", postgres_url, str(tmp_path / "games.jsonl"))
    assert code == 0 and "imported 3 games" in out and "***" in out and "scratch-secret" not in out
    assert list(GameStore(postgres_url).export_games()) == original
    # And back, into a new file, through standard output and input.
    code, _, _ = run(capsys, "export", "--db", postgres_url, str(tmp_path / "back.jsonl"))
    code, out, _ = run(capsys, "import", "--db", f"sqlite:///{tmp_path}/back.sqlite3", str(tmp_path / "back.jsonl"))
    assert code == 0
    back = GameStore(tmp_path / "back.sqlite3")
    assert list(back.export_games()) == original
    # The imported games are live: their summaries, and a new version on top of the last.
    assert [(g.name, g.version) for g in back.list()] == [
        (g.name, g.version) for g in GameStore(tmp_path / "home.sqlite3").list()
    ]
    last = back.load(original[2].id)
    assert back.save(last.id, last.state, expected_version=30).version == 31
    code, out, _ = run(capsys, "list", "--db", postgres_url)
    assert code == 0 and "renamed after play" in out and len(out.splitlines()) == 3


def test_a_game_already_there_is_refused_and_nothing_is_imported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played_store(tmp_path / "home.sqlite3")
    run(capsys, "export", "--db", str(tmp_path / "home.sqlite3"), str(tmp_path / "games.jsonl"))
    target = GameStore(tmp_path / "club.sqlite3")
    target.import_games(list(GameStore(tmp_path / "home.sqlite3").export_games())[2:])  # the last game only
    code, _, err = run(capsys, "import", "--db", str(tmp_path / "club.sqlite3"), str(tmp_path / "games.jsonl"))
    assert code == 2 and "already in" in err and len(err.splitlines()) == 1
    assert len(target.list()) == 1


def test_a_deleted_game_moves_as_deleted_and_can_be_restored_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = GameStore(tmp_path / "home.sqlite3")
    kept = home.create(GameState.random_start(3, np.random.default_rng(1)), "kept")
    gone = home.create(GameState.random_start(3, np.random.default_rng(2)), "deleted")
    home.delete(gone.id)
    run(capsys, "export", "--db", str(tmp_path / "home.sqlite3"), str(tmp_path / "games.jsonl"))
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    assert [('"deleted":' in line) for line in lines] == [False, False, False, True, False]
    code, out, _ = run(capsys, "import", "--db", str(tmp_path / "club.sqlite3"), str(tmp_path / "games.jsonl"))
    assert code == 0 and "imported 2 games" in out
    club = GameStore(tmp_path / "club.sqlite3")
    assert [g.id for g in club.list()] == [kept.id] and [g.id for g in club.deleted_games()] == [gone.id]
    # games list names the listed games, and says the deleted one is there.
    code, out, err = run(capsys, "list", "--db", str(tmp_path / "club.sqlite3"))
    assert code == 0 and names(out) == ["kept"]
    assert err == "1 deleted game not listed, which the app's start page restores or deletes for good\n"
    club.restore(gone.id)
    assert club.load(gone.id).state == gone.state


def lines_of(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    played_store(tmp_path / "home.sqlite3")
    run(capsys, "export", "--db", str(tmp_path / "home.sqlite3"), str(tmp_path / "games.jsonl"))
    return (tmp_path / "games.jsonl").read_text().splitlines()


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda lines: ["{}"] + lines[1:], "not a file of games exported"),
        (lambda lines: lines[:-1], "cut short"),
        (lambda lines: lines[:3] + ["not json"] + lines[4:], "line 4"),
        (
            lambda lines: [lines[0], lines[1].replace('"versions":1', '"versions":"1"')] + lines[2:],
            "versions has the wrong type",
        ),
        # Two versions swapped: numbered 1, 3, 2...
        (lambda lines: lines[:4] + [lines[5], lines[4]] + lines[6:], "numbered 1, 2, 3"),
        # A game whose saved history does not replay to its position.
        (
            lambda lines: lines[:4] + [lines[4].replace('\\"armies\\":[', '\\"armies\\":[9', 1)] + lines[5:],
            "does not load",
        ),
    ],
)
def test_a_damaged_file_is_refused_with_one_line_and_nothing_is_imported(
    tmp_path: Path, capsys, damage, message: str
) -> None:
    lines = lines_of(tmp_path, capsys)
    (tmp_path / "damaged.jsonl").write_text("\n".join(damage(lines)) + "\n")
    code, _, err = run(capsys, "import", "--db", str(tmp_path / "club.sqlite3"), str(tmp_path / "damaged.jsonl"))
    assert code == 2 and message in err and len(err.splitlines()) == 1, err
    assert GameStore(tmp_path / "club.sqlite3").list() == []


def test_a_recorded_game_whose_undo_list_does_not_fit_its_history_is_refused_as_the_app_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game recorded entry by entry keeps its undo list beside its history: an exported file where the two do
    not fit (its first entry made to cover 99 actions, where the game has a few) is refused by ``games import``, in
    one line naming the game and its version, as the app refuses to open it from a file."""
    live = LiveGame.random(["Ann", "Bo", "Cy"], np.random.default_rng(5))
    s = live.state
    live.place({s.territories_of(s.player)[0]: s.pending})
    live.end_turn()
    home = GameStore(tmp_path / "home.sqlite3")
    home.create(live.state, "Friday")
    run(capsys, "export", "--db", str(tmp_path / "home.sqlite3"), str(tmp_path / "games.jsonl"))
    header, game, version = (tmp_path / "games.jsonl").read_text().splitlines()
    kept = json.loads(version)
    state = json.loads(kept["state"])
    assert state["labels"][LIVE_LABEL]["entries"][0]["n"] == 1
    state["labels"][LIVE_LABEL]["entries"][0]["n"] = 99
    kept["state"] = json.dumps(state)
    (tmp_path / "damaged.jsonl").write_text("\n".join([header, game, json.dumps(kept)]) + "\n")
    code, _, err = run(capsys, "import", "--db", str(tmp_path / "club.sqlite3"), str(tmp_path / "damaged.jsonl"))
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "game 'Friday', version 1, does not load: saved game's live-game record is malformed" in err
    assert GameStore(tmp_path / "club.sqlite3").list() == []
    with pytest.raises(StateFormatError, match="live-game record is malformed"):
        LiveGame.check(GameState.from_json(kept["state"]))
    # The same file as exported, undamaged, is imported.
    code, _, err = run(capsys, "import", "--db", str(tmp_path / "club.sqlite3"), str(tmp_path / "games.jsonl"))
    assert code == 0 and [g.name for g in GameStore(tmp_path / "club.sqlite3").list()] == ["Friday"], err


def test_a_missing_file_or_bad_url_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "import", "--db", str(tmp_path / "club.sqlite3"), str(tmp_path / "missing.jsonl"))
    assert code == 2 and "missing.jsonl" in err and len(err.splitlines()) == 1
    code, _, err = run(capsys, "list", "--db", "mysql://u@h/db")
    assert code == 2 and "error: --db must be a file path" in err and len(err.splitlines()) == 1


def names(listed: str) -> list[str]:
    """The games' names in the lines of ``games list``: id, version, date and time, name, (players)."""
    return [re.fullmatch(r"\S+  v\d+ +\S+ \S+  (.+)  \(.*\)", line).group(1) for line in listed.splitlines()]


def test_list_finds_games_by_their_name_or_a_players_as_the_start_page_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "club.sqlite3")
    code, out, err = run(capsys, "list", "--db", db)
    assert (code, out) == (0, "") and err == f"no games stored in {db}\n"
    store = GameStore(db)
    rng = np.random.default_rng(3)
    for name, players in (("Friday", ("Søren", "Ann")), ("Tuesday club", ("Bo", "Cy")), ("Sunday", ("Ann", "Di"))):
        store.create(with_player_labels(GameState.random_start(2, rng), players, ["#111111", "#222222"]), name)
    code, out, _ = run(capsys, "list", "--db", db)
    assert code == 0 and names(out) == ["Sunday", "Tuesday club", "Friday"]
    code, out, _ = run(capsys, "list", "--db", db, "--find", "ANN")  # a player's name, in capitals
    assert code == 0 and names(out) == ["Sunday", "Friday"]
    assert "(Søren, Ann)" in out.splitlines()[1]
    code, out, _ = run(capsys, "list", "--db", db, "--find", " tuesday   CLUB")
    assert names(out) == ["Tuesday club"]
    code, out, err = run(capsys, "list", "--db", db, "--find", "  Friday  Søren ")  # a name and a player are apart
    assert (code, out) == (0, "")
    assert err == f"none of the 3 games in {db} has 'Friday Søren' in its name or its players' names\n"
