"""The win-chance strip of a live game in a real Chromium at 390 px: it shows the evaluator's chances of the game
as it stands with each entry, counts rollouts on a tap, and its poll brings in another phone's entries.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from test_app_browser import PHONE, Server, no_traceback, placed_and_ended, serving

from analyzer.analysis.evaluator import CUT_ROUNDS, ROLLOUTS, Chances, chances
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.game.wording import armies_text
from analyzer.live import LiveGame
from analyzer.services.valuation import now
from analyzer.store import GameStore
from analyzer.webapp.strip import CHART_SIZE, PIXEL_RATIO, SCREEN_DPI

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

#: The first page loads the kernels on a busy machine.
TIMEOUT_MS = 240_000


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    with serving(tmp_path_factory.mktemp("strip") / "games.sqlite3", placed_and_ended(11, 3), "Strip") as served:
        yield served


def phone_on(browser: Browser, server: Server, game: GameState, name: str) -> tuple[Page, GameStore, str]:
    """A phone's page on ``game``, stored as ``name`` in ``server``'s store; the store and the game's id."""
    store = GameStore(server.db)
    game_id = store.create(game, name).id
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/?game={game_id}")
    return page, store, game_id


def shows(strip: Locator, chances: Chances) -> None:
    for name, p_win in zip(["Ann", "Bo", "Cy"], chances.p):
        expect(strip.get_by_test_id("stMetric").filter(has_text=name)).to_contain_text(
            f"{100 * p_win:.0f}%", timeout=TIMEOUT_MS
        )


def test_the_strip_shows_the_chances_of_the_game_as_it_stands_with_each_entry(
    browser: Browser, served: tuple[Server, str]
) -> None:
    server, game_id = served
    store = GameStore(server.db)
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/?game={game_id}")
    strip = page.locator(".st-key-win_strip")
    expect(strip.get_by_text(f"each cut {CUT_ROUNDS} rounds on")).to_be_visible(timeout=TIMEOUT_MS)
    shows(strip, now(store.load(game_id).state))

    page.get_by_role("button", name="Place", exact=True).click()
    expect(page.get_by_role("button", name="Undo (place)")).to_be_visible()
    shows(strip, now(store.load(game_id).state))
    page.get_by_role("button", name="End turn", exact=True).click()
    expect(page.get_by_role("button", name="Undo (end)")).to_be_visible()
    shows(strip, now(store.load(game_id).state))

    # A tap counts rollouts of the strategist (the default bot) for the position now: the strip shows them and says so.
    strip.get_by_role("button", name=f"Count {ROLLOUTS} rollouts").click()
    expect(strip.get_by_text(f"{ROLLOUTS} rollouts of the strategist (the default bot)")).to_be_visible(
        timeout=TIMEOUT_MS
    )
    shows(strip, chances(store.load(game_id).state, "rollouts", rollouts=ROLLOUTS))
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
    page, _, _ = phone_on(browser, served[0], placed_and_ended(12, 4), "Phone strip")
    strip = page.locator(".st-key-win_strip")
    expect(strip.get_by_text(f"each cut {CUT_ROUNDS} rounds on")).to_be_visible()
    # The chart of the turns so far, under the figures: shown at the size it is drawn for (its 8-point text not
    # shrunk), with two pixels drawn for every pixel shown, as a phone's screen has.
    image = page.locator(".st-key-win_chart").get_by_test_id("stImage").locator("img")
    expect(image).to_be_visible()
    drawn_width, shown_width = image.evaluate("img => [img.naturalWidth, img.getBoundingClientRect().width]")
    assert shown_width >= 0.95 * CHART_SIZE[0] * SCREEN_DPI, (drawn_width, shown_width)
    assert drawn_width >= 0.95 * PIXEL_RATIO * shown_width, (drawn_width, shown_width)
    metrics = strip.get_by_test_id("stMetric")
    expect(metrics).to_have_count(3)
    tops = {round(box["y"]) for box in (m.bounding_box() for m in metrics.all()) if box is not None}
    assert len(tops) == 1, f"the players' chances are not side by side: their tops are at {sorted(tops)}"
    box = strip.bounding_box()
    assert box is not None and box["height"] < PHONE["height"] / 2, box
    no_traceback(page)
    page.context.close()


def test_text_typed_and_not_yet_entered_survives_another_devices_entry(
    browser: Browser, served: tuple[Server, str]
) -> None:
    """At a table of several phones one player types while another's entry comes in: the page then shows the new
    game (within seconds, with no tap), and the field being typed in keeps its text and the focus, in the Record
    view's own fields (the placement's text, its count) and in the battle odds above them."""
    page, store, game_id = phone_on(browser, served[0], placed_and_ended(13, 3), "Typing")
    expect(page.locator(".st-key-win_strip")).to_be_visible()
    page.get_by_text("Battle odds").click()
    fields = [
        (page.get_by_role("textbox", name="Or several at once, like 'Ukraine 3, Ural 2'"), "Ukraine 3"),
        (page.locator("input[type=number][aria-label='Armies']"), "2"),
        (page.locator(".st-key-calculator input[type=number]").first, "17"),
    ]
    for k, (field, text) in enumerate(fields):
        field.click()
        field.fill("")
        page.keyboard.type(text)  # no Enter, no tap elsewhere: the browser alone holds the text
        stored = store.load(game_id)
        live = LiveGame(stored.state)
        state = live.state
        assert state.phase == Phase.REINFORCE and state.pending >= len(fields) - k, (state.phase, state.pending)
        live.place({state.territories_of(state.player)[0]: 1})
        store.save(game_id, live.state, expected_version=stored.version)
        # The other device's entry is shown: one army fewer to place, or the attack once none is left.
        after = live.state
        shown = f"{armies_text(after.pending)} to place" if after.phase == Phase.REINFORCE else "· attack"
        expect(page.get_by_text(shown)).to_be_visible(timeout=30_000)
        expect(field).to_have_value(text)
        assert field.evaluate("e => e === document.activeElement"), f"field {k} lost the focus"
    no_traceback(page)
    page.context.close()
