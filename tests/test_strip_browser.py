"""The win-chance strip of a live game in a real Chromium at 390 px: it follows a recorded turn without holding
up the next entry, and its poll brings in another phone's entries.

The strip's chances of a new position are rollouts valued in a worker process; the test makes an entry right
after a turn ends, while that position is still being valued (its chances are not yet in the store's cache),
sees the entry shown, and then sees the strip catch up with the chances the store now holds for it.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import pandas as pd
import pytest
from playwright.sync_api import Browser, expect
from test_app_browser import PHONE, Server, no_traceback, placed_and_ended, serving

from analyzer.analysis.review import position_chances, turn_positions
from analyzer.game.vocabulary import Phase
from analyzer.live import LiveGame
from analyzer.store import GameStore
from analyzer.webapp.strip import CACHE_KIND, ROLLOUTS_ENV, position_key

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

#: The first page loads the kernels, and every turn of the game is valued by rollouts on a busy machine.
TIMEOUT_MS = 240_000


SLOW = 5000


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    # 5,000 rollouts a position (25x the default): seconds to tens of seconds of a core, so that an entry
    # answered at once is seen answered before the valuation ends, on a quiet machine as on a busy one.
    with serving(
        tmp_path_factory.mktemp("strip") / "games.sqlite3", placed_and_ended(11, 3), "Strip", {ROLLOUTS_ENV: str(SLOW)}
    ) as served:
        yield served


def test_the_strip_follows_a_turn_without_holding_up_the_next_entry(
    browser: Browser, served: tuple[Server, str]
) -> None:
    server, game_id = served
    store = GameStore(server.db)
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/?game={game_id}")
    strip = page.locator(".st-key-win_strip")
    expect(strip.get_by_text("Win chances now")).to_be_visible(timeout=TIMEOUT_MS)

    page.get_by_role("button", name="Place", exact=True).click()
    page.get_by_role("button", name="End turn", exact=True).click()
    expect(page.get_by_role("button", name="Undo (end)")).to_be_visible()
    new = position_key(turn_positions(store.load(game_id).state)[-1], SLOW)
    # The next player's entry, at once: it is shown while the turn just ended is still being valued.
    page.get_by_role("button", name="Place", exact=True).click()
    expect(page.get_by_role("button", name="Undo (place)")).to_be_visible()
    assert store.get_cached(CACHE_KIND, new) is None, "the rollouts ended before the entry was shown: nothing shown"

    # Then the strip catches up: once the new position is valued, the chances it shows are those kept for it.
    kept = None
    for _ in range(TIMEOUT_MS // 500):
        kept = store.get_cached(CACHE_KIND, new)
        if kept is not None:
            break
        page.wait_for_timeout(500)
    assert kept is not None, "the turn just ended was never valued"
    chances = pd.read_json(io.StringIO(kept), orient="split")
    for name, p_win in zip(["Ann", "Bo", "Cy"], chances["p_win"]):
        expect(strip.get_by_test_id("stMetric").filter(has_text=name)).to_contain_text(
            f"{100 * p_win:.0f}%", timeout=TIMEOUT_MS
        )
    expect(strip.get_by_text("Win chances now")).to_be_visible(timeout=TIMEOUT_MS)
    no_traceback(page)
    page.context.close()


def test_the_record_view_shows_another_devices_entry_without_a_reload(
    browser: Browser, served: tuple[Server, str]
) -> None:
    """On the Record view the strip's poll is also the page's look at the store (the page polls once): an entry
    saved by another phone is shown within seconds, with no tap on this one."""
    server, game_id = served
    store = GameStore(server.db)
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/?game={game_id}")
    expect(page.locator(".st-key-win_strip")).to_be_visible()
    stored = store.load(game_id)
    live = LiveGame(stored.state)
    state = live.state
    if state.phase == Phase.REINFORCE and state.pending:
        live.place({state.territories_of(state.player)[0]: state.pending})
        undo = "Undo (place)"
    else:
        live.end_turn()
        undo = "Undo (end)"
    expect(page.get_by_role("button", name=undo, exact=True)).not_to_be_visible()
    store.save(game_id, live.state, expected_version=stored.version)
    expect(page.get_by_role("button", name=undo, exact=True)).to_be_visible(timeout=30_000)
    no_traceback(page)
    page.context.close()


def test_on_a_phone_the_strip_is_one_row_of_chances_under_half_a_screen(
    browser: Browser, served: tuple[Server, str]
) -> None:
    # Every position of the game already valued (in the store's cache): the strip is drawn whole at once.
    server, _ = served
    store = GameStore(server.db)
    game = placed_and_ended(12, 4)
    for position in turn_positions(game):
        table = position_chances(position, rollouts=4)
        store.put_cached(CACHE_KIND, position_key(position, SLOW), table.to_json(orient="split"))
    game_id = store.create(game, "Phone strip").id
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/?game={game_id}")
    strip = page.locator(".st-key-win_strip")
    expect(strip.get_by_text("Win chances now")).to_be_visible()
    expect(strip.get_by_test_id("stImage")).to_be_visible()  # the chart of the turns so far
    metrics = strip.get_by_test_id("stMetric")
    expect(metrics).to_have_count(3)
    tops = {round(box["y"]) for box in (m.bounding_box() for m in metrics.all()) if box is not None}
    assert len(tops) == 1, f"the players' chances are not side by side: their tops are at {sorted(tops)}"
    box = strip.bounding_box()
    assert box is not None and box["height"] < PHONE["height"] / 2, box
    no_traceback(page)
    page.context.close()
