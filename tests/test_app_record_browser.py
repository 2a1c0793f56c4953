"""The Record view on a phone (390 px) in a real Chromium: a claimed setup by taps to a victory with a reload in
the middle, numbers out of range typed into every number field (nothing saved), and the URL keeping the view."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from analyzer.game.board import classic_board
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.live import LiveGame
from analyzer.store import GameStore
from test_app_browser import (TIMEOUT_MS, Server, choose, drawn, no_traceback, phone, pick, placed_and_ended,
                              type_number)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

BOARD = classic_board()
TEN_DIGITS = 1_234_567_890
NAMES = ["Ann", "Bo", "Cy"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    """This module's server, once its first page has been drawn (imports, kernels): the tests time the app."""
    served = Server(tmp_path_factory.mktemp("record") / "games.sqlite3")
    served.start()
    try:
        served.warm(browser)
        yield served
    finally:
        served.stop()


def stored(server: Server, game_id: str) -> GameState:
    return GameStore(server.db).load(game_id).state


def version(server: Server, game_id: str) -> int:
    return GameStore(server.db).version(game_id)


def tap(page: Page, territory: str) -> None:
    """Tap the middle of ``territory``'s marker on the setup map (the count drawn over it takes the tap too)."""
    # The map shown: while a run redraws the view the one it replaces may still be in the page, hidden.
    marker = page.get_by_test_id("stVegaLiteChart").locator(
        f'[aria-roledescription="circle"][aria-label="{territory}"]:visible').first
    expect(marker).to_be_visible()
    # Scrolled by the page itself: Playwright's own scroll waits for the marker to hold still over two frames,
    # which a loaded machine redrawing the page can keep from happening for longer than any timeout.
    marker.evaluate("element => element.scrollIntoView({block: 'center'})")
    box = marker.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def tap_until_saved(page: Page, server: Server, game_id: str, territory: str) -> GameState:
    """Tap ``territory`` and return the stored game once the tap is saved.

    A chart still being drawn on a loaded machine may not take a tap yet; as at the table, the tap is made
    again (a second tap on a territory just claimed would only say whose it is).
    """
    n = len(stored(server, game_id).history) + 1
    for _ in range(4):
        tap(page, territory)
        for _ in range(100):
            state = stored(server, game_id)
            if len(state.history) >= n:
                return state
            page.wait_for_timeout(100)
    raise AssertionError(f"no tap on {territory} was saved")


def shown_continent(page: Page) -> str:
    return page.get_by_label("Map of", exact=True).input_value()


def test_a_claimed_setup_by_taps_then_a_victory_with_a_reload(browser: Browser, server: Server) -> None:
    game_id = GameStore(server.db).create(LiveGame.start(["Ann", "Bo", "Cy"], first=0, seed=4).state, "Taps").id
    page = phone(browser)
    page.set_default_timeout(TIMEOUT_MS)
    page.set_default_navigation_timeout(4 * TIMEOUT_MS)
    page.goto(f"{server.url}/?game={game_id}")
    # A live game opens on the Record view: the claim map is there without a tap.
    expect(page.get_by_text("Tap a free territory on the map to claim it for Ann.")).to_be_visible()
    for _ in range(6):
        state = stored(server, game_id)
        continent = next(i for i, c in enumerate(BOARD.continents) if c.name == shown_continent(page))
        free = [t for t in BOARD.continents[continent].territories if state.owner[t] < 0]
        after = tap_until_saved(page, server, game_id, BOARD.territories[free[0]])
        assert after.owner[free[0]] == state.player
        # The next tap goes to the map drawn for the next claim, once it is there.
        expect(page.get_by_text(f"Tap a free territory on the map to claim it for {NAMES[after.player]}.")).to_be_visible()
        page.wait_for_timeout(500)
    # A tap on a territory already claimed changes nothing and says why.
    state = stored(server, game_id)
    taken = next(t for t in range(BOARD.n_territories) if state.owner[t] >= 0)
    choose(page, "Map of", BOARD.continents[int(BOARD.continent_of[taken])].name)
    tap(page, BOARD.territories[taken])
    expect(page.get_by_text(f"{BOARD.territories[taken]} is already")).to_be_visible()
    assert stored(server, game_id) == state

    page.reload()  # in the middle of the setup: the game and the view come back
    expect(page.get_by_role("button", name="Deal the rest at random")).to_be_visible()
    page.get_by_role("button", name="Deal the rest at random").click()
    expect(page.get_by_role("button", name="Spread the rest")).to_be_visible()
    page.wait_for_timeout(500)
    state = stored(server, game_id)
    assert state.phase == Phase.SETUP_PLACE and (state.owner >= 0).all()
    # Starting armies by taps: one army on a territory of the force whose army goes down next.
    for _ in range(3):
        state = stored(server, game_id)
        force = int(state.player)
        continent = next(i for i, c in enumerate(BOARD.continents) if c.name == shown_continent(page))
        mine = [t for t in BOARD.continents[continent].territories if state.owner[t] == force]
        after = tap_until_saved(page, server, game_id, BOARD.territories[mine[0]])
        assert after.armies[mine[0]] == state.armies[mine[0]] + 1
        expect(page.get_by_text(f"Tap one of {NAMES[after.player]}'s territories to put an army on it.")).to_be_visible()
        page.wait_for_timeout(500)
    page.get_by_role("button", name="Spread the rest").click()
    expect(page.get_by_role("button", name="Place", exact=True)).to_be_visible()
    state = stored(server, game_id)
    assert state.phase == Phase.REINFORCE and int(state.armies.sum()) == 105
    no_traceback(page)
    page.context.close()


def near_victory() -> GameState:
    """Ann holds 41 territories; Bo's last one is Kamchatka with 1 army, next to Ann's Alaska with 20; Cy is out."""
    owner = [0] * BOARD.n_territories
    armies = [2] * BOARD.n_territories
    kamchatka, alaska = BOARD.index("Kamchatka"), BOARD.index("Alaska")
    owner[kamchatka], armies[kamchatka], armies[alaska] = 1, 1, 20
    return LiveGame(GameState.from_position(owner, armies, n_players=3, player=0), seed=2).state


def test_a_recorded_battle_ends_the_game_and_the_view_survives_a_reload(browser: Browser, server: Server) -> None:
    game_id = GameStore(server.db).create(near_victory(), "Last battle").id
    page = phone(browser)
    page.set_default_timeout(TIMEOUT_MS)
    page.set_default_navigation_timeout(4 * TIMEOUT_MS)
    page.goto(f"{server.url}/?game={game_id}")
    page.get_by_role("button", name="Place", exact=True).click()
    expect(page.get_by_role("button", name="Record battle")).to_be_visible()
    page.reload()
    panel = page.get_by_test_id("stTabs")
    choose(panel, "Attack from", "Alaska")
    choose(panel, "Attack", "Kamchatka")
    type_number(panel, "Armies left on the defending territory (0: taken)", 0)
    page.get_by_role("button", name="Record battle").click()
    page.get_by_role("button", name="Move in").click()  # the most armies the move allows, the form's default
    expect(page.get_by_text("Player 1 has won the game.")).to_be_visible()
    assert stored(server, game_id).is_terminal()
    no_traceback(page)
    page.context.close()


def test_ten_digits_in_every_number_field_save_nothing(browser: Browser, server: Server) -> None:
    game_id = GameStore(server.db).create(near_victory(), "Ten digits").id
    page = phone(browser)
    page.set_default_timeout(TIMEOUT_MS)
    page.set_default_navigation_timeout(4 * TIMEOUT_MS)
    page.goto(f"{server.url}/?game={game_id}")
    panel = page.get_by_test_id("stTabs")
    before = version(server, game_id)
    type_number(panel, "Armies", TEN_DIGITS)
    expect(page.get_by_text("not 1,234,567,890")).to_be_visible()
    page.get_by_role("button", name="Place", exact=True).click()
    page.wait_for_timeout(1500)
    assert version(server, game_id) == before
    # The field keeps what was typed, to be corrected.
    expect(panel.get_by_label("Armies", exact=True)).to_have_value(str(TEN_DIGITS))
    type_number(panel, "Armies", stored(server, game_id).pending)
    page.get_by_role("button", name="Place", exact=True).click()
    expect(page.get_by_role("button", name="Record battle")).to_be_visible()
    before = version(server, game_id)
    choose(panel, "Attack from", "Alaska")
    for label in ("Armies left on the attacking territory", "Armies left on the defending territory (0: taken)"):
        type_number(panel, label, TEN_DIGITS)
        page.get_by_role("button", name="Record battle").click()
        page.wait_for_timeout(1500)
        assert version(server, game_id) == before, label
    # The calculator shows no odds for a count it cannot use, never the last ones.
    page.get_by_text("Battle odds", exact=True).first.click()
    calculator = page.locator(".st-key-calculator")
    expect(calculator.get_by_test_id("stMetric").first).to_be_visible()
    type_number(calculator, "Attacking armies", 1)
    expect(calculator.get_by_test_id("stMetric")).to_have_count(0)
    type_number(calculator, "Attacking armies", TEN_DIGITS)
    expect(calculator.get_by_test_id("stMetric")).to_have_count(0)
    assert version(server, game_id) == before
    # Every number field of the Players & cards view, then the quick edit's: Apply saves nothing.
    page.get_by_role("tab", name="Players & cards").click()
    players = page.get_by_role("tabpanel", name="Players & cards")
    # A recorded game's sets traded follow from its entries: the fields are each player's face-down cards.
    expect(drawn(players).get_by_role("spinbutton")).to_have_count(3)
    labels = [box.get_attribute("aria-label") for box in drawn(players).get_by_role("spinbutton").all()]
    assert len(labels) == 3, labels
    for label in labels:
        assert label is not None
        type_number(players, label, TEN_DIGITS)
        expect(drawn(players).get_by_text(f"{label}: enter a whole number")).to_contain_text("not 1,234,567,890")
        page.get_by_role("button", name="Apply", exact=True).click()
        page.wait_for_timeout(1500)
        assert version(server, game_id) == before, label
    page.get_by_role("tab", name="Board").click()
    pick(page, "Peru")
    type_number(page, "Armies on each", TEN_DIGITS)
    page.get_by_role("button", name="Apply to the picked territories").click()
    # The Board view's own message: the fields of the other views keep their bad numbers, and their messages.
    board = page.get_by_role("tabpanel", name="Board")
    expect(drawn(board).get_by_test_id("stAlertContentError").filter(has_text=re.compile(r"1,?234,?567,?890"))
           ).to_be_visible()
    assert version(server, game_id) == before
    no_traceback(page)
    page.context.close()


def test_apply_on_every_tab_keeps_the_log_and_a_phantom_battle_is_refused(browser: Browser, server: Server) -> None:
    game_id = GameStore(server.db).create(placed_and_ended(7, 2), "Apply").id
    history = stored(server, game_id).history
    page = phone(browser)
    page.set_default_timeout(TIMEOUT_MS)
    page.set_default_navigation_timeout(4 * TIMEOUT_MS)
    page.goto(f"{server.url}/?game={game_id}")
    page.get_by_role("tab", name="Players & cards").click()
    page.get_by_role("button", name="Apply", exact=True).click()
    page.wait_for_timeout(2000)
    assert stored(server, game_id).history == history
    page.get_by_role("tab", name="Board").click()
    pick(page, "Peru")
    page.get_by_role("button", name="Apply to the picked territories").click()
    page.wait_for_timeout(2000)
    assert stored(server, game_id).history == history
    # A reload keeps the view open.
    page.reload()
    expect(page.get_by_role("button", name="Apply to the picked territories")).to_be_visible()
    # The form starts from the two stacks as they are: recording it unchanged is a battle nobody fought.
    page.get_by_role("tab", name="Record").click()
    page.get_by_role("button", name="Place", exact=True).click()
    expect(page.get_by_role("button", name="Record battle")).to_be_visible()
    before = version(server, game_id)
    page.get_by_role("button", name="Record battle").click()
    expect(page.get_by_text("a battle removes at least one army")).to_be_visible()
    assert version(server, game_id) == before
    no_traceback(page)
    page.context.close()
