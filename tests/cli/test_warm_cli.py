"""``risk-analyzer warm``: the kernels the app's views run are compiled once for an install, then only noted."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer import kernels
from analyzer.cli import main
from analyzer.commands import warm


def test_warm_runs_the_views_kernels_once_then_only_says_they_are_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The mark in a folder of the test's own (the kernels stay in the real cache): the checkout's mark is its own.
    monkeypatch.setattr(warm, "mark_file", lambda: tmp_path / warm.MARK)
    runs: list[int] = []
    real = warm.warm_kernels
    monkeypatch.setattr(warm, "warm_kernels", lambda: runs.append(1) or real())

    assert main(["warm"]) == 0
    first = capsys.readouterr().out.splitlines()
    assert first[0].startswith("compiling the app's kernels, once for this install")
    assert first[1].startswith("compiled in ") and first[1].endswith(f"s, in {tmp_path}")
    assert runs == [1] and (tmp_path / warm.MARK).exists()

    assert main(["warm"]) == 0
    assert capsys.readouterr().out == f"the app's kernels are compiled, in {tmp_path}\n"
    assert runs == [1]

    # A new folder (the kernels' sources edited) has no mark: they are compiled again.
    fresh = tmp_path / "edited"
    fresh.mkdir()
    monkeypatch.setattr(warm, "mark_file", lambda: fresh / warm.MARK)
    assert main(["warm"]) == 0
    assert runs == [1, 1] and (fresh / warm.MARK).exists()


def test_warm_has_nothing_to_compile_when_the_kernels_run_as_plain_python(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(kernels.MODE_VARIABLE, "python")
    monkeypatch.setattr(warm, "warm_kernels", lambda: pytest.fail("nothing is compiled in plain Python"))
    assert main(["warm"]) == 0
    assert capsys.readouterr().out == "kernels run as plain Python (RISK_ANALYZER_KERNELS=python): nothing to compile\n"
