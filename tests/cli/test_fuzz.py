"""Seeded fuzzing of saved games, map files and command lines.

Each batch of cases runs in one subprocess under a memory limit (RLIMIT_AS), so
that an interpreter crash or a runaway allocation fails the test, naming the
case, instead of killing the run. Every input must either load a state that
passes the invariants (validation, a JSON round trip, and a few engine steps on
it) or be refused with a ValueError subclass carrying a short message.

``FUZZ_CASES=5000 pytest tests/cli/test_fuzz.py -s`` runs a larger count and prints
the counts (tried, rejected, accepted valid, defects).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEED = 20261201
#: Cases per kind; a subprocess runs a batch of them so that start-up does not dominate.
CASES = int(os.environ.get("FUZZ_CASES", "200"))
BATCH = 400
MEMORY = 4 << 30  # bytes of address space per batch: far above any legitimate case


# ---------------------------------------------------------------------------------- the worker
WORKER = r'''
import json, sys, traceback
import numpy as np

kind, seed, start, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])

from analyzer.errors import RiskAnalyzerError
from analyzer.game.board import Board, classic_board
from analyzer.game.rules import Rules
from analyzer.game.state import GameState, validate
from analyzer.bots import RandomBot
from analyzer.limits import MAX_MESSAGE

NASTY = [-1, 0, 1, 2, 3, 7, 41, 42, 43, 44, 99, -5, 2**31 - 1, 2**31, 2**63, 10**20, 10**400, 1.5, float("inf"), "",
         "x", "Alaska", None, True, False, [], {}, [0, 1, 9, 9], [10**11, 1, 3, 2], {"a": 1}]


def nasty(rng):
    k = rng.integers(len(NASTY) + 2)
    if k == len(NASTY):
        depth = int(rng.choice([40, 900]))  # json.dumps itself recurses; test_validation covers 100,000
        v = 1
        for _ in range(depth):
            v = [v]
        return v
    if k == len(NASTY) + 1:
        return "y" * int(rng.choice([100, 100_000]))
    return NASTY[k]


def paths(obj, prefix=()):
    yield prefix
    if len(prefix) > 6:
        return
    if isinstance(obj, dict):
        for key, v in obj.items():
            yield from paths(v, prefix + (key,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:60]):
            yield from paths(v, prefix + (i,))


def mutate(data, rng):
    data = json.loads(json.dumps(data))
    for _ in range(int(rng.integers(1, 4))):
        all_paths = [p for p in paths(data) if p]
        path = all_paths[int(rng.integers(len(all_paths)))]
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        op = rng.integers(6)
        if op == 0 and isinstance(parent, dict):
            del parent[key]
        elif op == 1 and isinstance(parent, list):
            parent.insert(key, parent[key])
        elif op == 2 and isinstance(parent, list) and len(parent) > 1:
            del parent[key]
        elif op == 3 and isinstance(parent[key], int) and not isinstance(parent[key], bool):
            parent[key] += int(rng.choice([-1, 1, -2, 2]))
        elif op == 4 and isinstance(parent, list) and len(parent) > 1:
            j = int(rng.integers(len(parent)))
            parent[key], parent[j] = parent[j], parent[key]
        else:
            parent[key] = nasty(rng)
    return data


def dumps(data):
    try:
        return json.dumps(data)
    except (RecursionError, ValueError):
        return json.dumps(None)


def as_text(data, rng):
    text = dumps(data)
    r = rng.random()
    if r < 0.05:
        return text[: int(rng.integers(len(text)))]
    if r < 0.08:
        raw = bytearray(text.encode())
        raw[int(rng.integers(len(raw)))] = int(rng.integers(256))
        return bytes(raw)
    return text


def play_a_little(state, rng):
    """A few engine steps on an accepted state: the compiled code must take it."""
    bot = RandomBot()
    for _ in range(30):
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply_chance(rng)
        else:
            state.apply(bot.choose(state, rng))
    validate(state, replay=False)


def bases(rng):
    out = []
    variants = [Rules(), Rules(setup="deal"), Rules(missions=True), Rules(capitals=True), Rules(turn_limit=3)]
    for i, n in enumerate((2, 3, 4, 5, 6)):
        g = np.random.default_rng(i)
        state = GameState.new(n, g, variants[i])
        out.append(state.to_dict())
        while state.phase.name.startswith("SETUP") or state.phase.name == "CHOOSE_CAPITAL":
            acts = state.legal_actions()
            state.apply(acts[int(g.integers(len(acts)))])
        out.append(state.to_dict())
        bot = RandomBot()
        for _ in range(150):
            if state.is_terminal():
                break
            if state.is_chance():
                state.apply_chance(g)
            else:
                state.apply(bot.choose(state, g))
            if state.phase.name in ("DEFEND", "ROLL", "MOVE_IN", "DRAW") and len(out) < 40:
                out.append(state.to_dict())
        out.append(state.to_dict())
    return out


def run_save(data, rng):
    text = as_text(data, rng)
    trusted = bool(rng.random() < 0.3)
    state = GameState.from_json(text, trusted=trusted)
    again = GameState.from_json(state.to_json(), trusted=True)
    assert again == state, "a loaded state must round-trip"
    play_a_little(state, rng)


def run_map(data, rng):
    text = as_text(data, rng)
    from analyzer.game.reader import loads
    board = Board.from_dict(loads(text, "map", __import__("analyzer.errors").errors.BoardError), "fuzzed map")
    n = int(rng.integers(2, 7))
    state = GameState.random_start(n, rng, board=board)
    play_a_little(state, rng)


def run_cli(argv, rng):
    import contextlib, io
    from analyzer.cli import main
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's own usage errors
            code = exc.code
    if code not in (0, 2):
        raise AssertionError(f"exit code {code}")
    lines = err.getvalue().strip().splitlines()
    if code == 2:
        if len(lines) != 1 or "Traceback" in err.getvalue():
            raise AssertionError(f"exit 2 without a one-line message: {err.getvalue()[-500:]}")
        raise RiskAnalyzerError(lines[-1][:MAX_MESSAGE])


CLI_NUMBERS = ["-1", "0", "1", "2", "3", "7", "1000001", "1000000000", str(10**20), "x", "1.5", ""]


def cli_case(rng):
    pick = lambda: CLI_NUMBERS[int(rng.integers(len(CLI_NUMBERS)))]
    which = rng.integers(3)
    if which == 0:
        argv = ["odds", pick(), pick()]
        for opt in ("--stop-at", "--sides", "--attacker-dice", "--defender-dice", "--need"):
            if rng.random() < 0.3:
                argv += [opt, pick()]
        if rng.random() < 0.2:
            argv = ["odds", pick(), "--chain", *[pick() for _ in range(int(rng.integers(1, 4)))]]
    elif which == 1:
        argv = ["odds-table", "--max", pick(), "--out", "/dev/null"]
        if rng.random() < 0.3:
            argv += ["--plot", str(rng.choice(["/dev/null.png", "t.xyz", "t"]))]
    else:
        games = pick() if rng.random() < 0.5 else "1"
        argv = ["simulate", "--quiet", "--games", games, "--max-rounds", str(rng.choice(["3", pick()])),
                "--players", str(rng.choice(["2", "4", pick()]))]
        if rng.random() < 0.3:
            argv += ["--workers", pick()]
        if rng.random() < 0.3:
            argv += ["--batch-size", pick()]
        if rng.random() < 0.4:
            rules = mutate({"fortify": "connected", "territory_bonus": 2, "dice": {"sides": 6}}, rng)
            argv += ["--rules", dumps(rules)[:5000]]
        if rng.random() < 0.2:
            argv += ["--bots", str(rng.choice([":Bot", ".x:Bot", "nosuch", "random", "os:path", "analyzer.bots:RandomBot"]))]
    return argv


rng = np.random.default_rng([seed, start])
if kind == "save":
    base = bases(np.random.default_rng(seed))
elif kind == "map":
    base = [classic_board().to_dict()]
for i in range(start, start + count):
    case_rng = np.random.default_rng([seed, i])
    print(json.dumps({"start": i}), flush=True)
    try:
        if kind == "cli":
            payload = cli_case(case_rng)
            run_cli(payload, case_rng)
        else:
            data = mutate(base[int(case_rng.integers(len(base)))], case_rng)
            (run_save if kind == "save" else run_map)(data, case_rng)
        outcome, detail = "valid", ""
    except RiskAnalyzerError as exc:
        message = str(exc)
        ok = bool(message) and len(message) <= 4 * MAX_MESSAGE
        outcome, detail = ("rejected" if ok else "defect"), message[:300]
    except BaseException as exc:
        outcome, detail = "defect", "".join(traceback.format_exception(exc))[-1500:]
    print(json.dumps({"case": i, "outcome": outcome, "detail": detail}), flush=True)
'''


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run_batch(kind: str, start: int, count: int, tmp: Path) -> list[dict[str, Any]]:
    """Run cases ``start .. start + count`` of ``kind`` in one memory-limited subprocess."""
    result = subprocess.run(
        [sys.executable, "-c", WORKER, kind, str(SEED), str(start), str(count)],
        cwd=tmp,
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=_limit_memory,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    done = [line for line in lines if "case" in line]
    if result.returncode != 0 or len(done) != count:
        last = max((line["start"] for line in lines if "start" in line), default=start)
        pytest.fail(f"{kind} case {last} killed the worker (exit {result.returncode}):\n{result.stderr[-3000:]}")
    return done


@pytest.mark.parametrize("kind", ["save", "map", "cli"])
def test_fuzzed_inputs_load_valid_or_are_cleanly_rejected(kind: str, tmp_path: Path) -> None:
    count = CASES if kind != "cli" else max(40, CASES // 4)
    outcomes: list[dict[str, Any]] = []
    for start in range(0, count, BATCH):
        outcomes += run_batch(kind, start, min(BATCH, count - start), tmp_path)
    tally = {k: sum(o["outcome"] == k for o in outcomes) for k in ("valid", "rejected", "defect")}
    print(
        f"\n{kind}: tried {len(outcomes)}, rejected {tally['rejected']}, accepted valid {tally['valid']}, "
        f"defects {tally['defect']}"
    )
    defects = [o for o in outcomes if o["outcome"] == "defect"]
    assert not defects, f"{len(defects)} defects; first, case {defects[0]['case']}:\n{defects[0]['detail']}"
    # The mutator must reach both sides, or it tests nothing.
    assert tally["rejected"] > 0 and (kind == "cli" or tally["valid"] > 0), tally
