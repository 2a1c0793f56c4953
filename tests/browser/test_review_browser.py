"""The Review view in a real Chromium on a 390-pixel phone: it opens for a stored game and shows its review."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import Browser, Page, expect
from test_app_browser import PHONE, Server, serving

from analyzer.analysis.review import replay_turn
from analyzer.game.state import GameState

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

#: The first page loads the kernels, and the review runs rollouts on a busy machine.
TIMEOUT_MS = 240_000


@contextmanager
def replayed(folder: Path, players: int, turns: int, seed: int, name: str) -> Iterator[tuple[Server, str]]:
    """A server holding a game of ``players`` dealt from ``seed``, its first ``turns`` player-turns played by the
    rollout bot, stored as ``name``; and the game's id."""
    rng = np.random.default_rng(seed)
    game = GameState.random_start(players, rng)
    for _ in range(turns):
        replay_turn(game, (), rng)
    with serving(folder / "games.sqlite3", game, name) as served:
        yield served


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    with replayed(tmp_path_factory.mktemp("review"), 3, 3, 6, "Review me") as served:
        yield served


def review_tab(browser: Browser, served: tuple[Server, str]) -> Page:
    """A phone's page on the Review view of the served game."""
    server, game_id = served
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    page.goto(f"{server.url}/?game={game_id}&tab=Review")
    return page


def test_the_review_view_opens_for_a_stored_game_on_a_phone(browser: Browser, served: tuple[Server, str]) -> None:
    page = review_tab(browser, served)
    page.get_by_text("Rollouts per estimate").wait_for(timeout=TIMEOUT_MS)
    page.get_by_role("button", name="Review this game").click()
    expect(page.get_by_text("Turning points", exact=True)).to_be_visible(timeout=TIMEOUT_MS)
    # The chart of the chances, drawn for the phone's width once scrolled to (the page draws a chart in view only).
    page.get_by_text(re.compile(r"player-turns, \d+ rollouts per estimate")).scroll_into_view_if_needed()
    chart = page.locator(".st-key-review_chart").get_by_test_id("stVegaLiteChart")
    expect(chart).to_be_visible()
    drawn = chart.bounding_box()
    assert drawn is not None and drawn["x"] >= 0 and drawn["x"] + drawn["width"] <= PHONE["width"]
    expect(page.get_by_test_id("stException")).to_have_count(0)
    # Nothing wider than the phone: the page does not scroll sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.fixture(scope="module")
def long_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    # Long enough that its review outlasts a reload by many seconds (some 15 s on two idle cores).
    with replayed(tmp_path_factory.mktemp("long_review"), 4, 30, 7, "Long game") as served:
        yield served


def test_a_review_goes_on_through_a_reload_and_shows_when_made(browser: Browser, long_game: tuple[Server, str]) -> None:
    page = review_tab(browser, long_game)
    page.get_by_role("button", name="Review this game").click(timeout=TIMEOUT_MS)
    progress = page.get_by_test_id("stProgress")
    expect(progress).to_contain_text("Reviewing…", timeout=TIMEOUT_MS)
    # A phone left on the table: the server closes the page's idle connections (after 5 s) while the review runs.
    page.wait_for_timeout(6_000)
    page.reload()
    # The reloaded page loads while the review runs (were the review's workers holding the connections the server
    # closed, it would load only once the review ends), and follows it: no second tap, no second review.
    expect(progress).to_contain_text("Reviewing…", timeout=TIMEOUT_MS)
    expect(page.get_by_role("button", name="Review this game")).to_have_count(0)
    expect(page.get_by_text("Turning points", exact=True)).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_test_id("stException")).to_have_count(0)
