"""Command-line start-up: ``risk-analyzer odds 12 7`` against ``python -c pass``. Prints figures; asserts nothing.

Each command runs as a fresh process, as a user runs it (the compiled kernels already in numba's
cache: one untimed run first). The figures are the best of a few runs, wall clock, so that other
load on the machine does not inflate them; the ratio and the difference are against the bare
interpreter's start-up measured in the same run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

RUNS = 5
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "risk-analyzer board": [sys.executable, "-m", "analyzer", "board"],
    "risk-analyzer odds 12 7": [sys.executable, "-m", "analyzer", "odds", "12", "7"],
    "the same, kernels compiled": [sys.executable, "-m", "analyzer", "odds", "12", "7"],
}
#: The environment of each command: a small ``odds`` runs its kernels as plain Python unless told otherwise.
ENV = {"the same, kernels compiled": {**os.environ, "RISK_ANALYZER_KERNELS": "numba"}}


def best_of(cmd: list[str], env: dict[str, str] | None) -> float:
    subprocess.run(cmd, check=True, capture_output=True, env=env)  # warm: the kernels' cache, the disk cache
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, env=env)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    print(f"command-line start-up, best of {RUNS} runs (wall clock)")
    base = None
    for label, cmd in COMMANDS.items():
        t = best_of(cmd, ENV.get(label))
        base = base if base is not None else t
        print(f"  {label:<26} {t:6.3f} s  {t / base:5.1f}x python -c pass  (+{t - base:.3f} s)")


if __name__ == "__main__":
    main()
