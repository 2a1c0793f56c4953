"""The app in a real browser: the calculator on a phone, games that survive a reload and a server restart, two
devices on one game, conflicts, setup, save and load, territories picked on the map, refused entries, a battle
recorded on the Record tab of a phone that is still in the log after a reload.

One Streamlit server for the module, on its own game store (restarted once, by the restart test), and one
more for the unwritable store.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest
from conftest import Server, page_run
from playwright.sync_api import Browser, Download, Locator, Page, expect

from analyzer.analysis.position import new_game_from_position
from analyzer.game.actions import Battle, Place
from analyzer.game.board import classic_board
from analyzer.game.state import GameState
from analyzer.live import LiveGame
from analyzer.plot import player_name
from analyzer.services.saving import NAME_LABEL, POLL_ENV
from analyzer.solver.battle import battle
from analyzer.store import GameStore
from analyzer.text import file_name

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

#: A run answering a tap, then the browser drawing the map; allow for a busy machine.
TIMEOUT_MS = 30_000
expect.set_options(timeout=TIMEOUT_MS)
BOARD = classic_board()
N_TERRITORIES = BOARD.n_territories
OWNER_COLUMN = 1
ARMIES_COLUMN = 2
PHONE = {"width": 390, "height": 844}


def placed_and_ended(seed: int, turns: int) -> GameState:
    """A 3-player game (Ann, Bo, Cy) dealt at random from ``seed``, with ``turns`` player-turns recorded:
    each places every army due on its first territory and ends the turn (a history to keep)."""
    live = LiveGame.random(["Ann", "Bo", "Cy"], np.random.default_rng(seed))
    for _ in range(turns):
        s = live.state
        live.place({s.territories_of(s.player)[0]: s.pending})
        live.end_turn()
    return live.state


@contextmanager
def serving(db: Path, game: GameState, name: str, env: dict[str, str] | None = None) -> Iterator[tuple[Server, str]]:
    """A server (with ``env`` added to its environment) on the store ``db`` holding ``game`` (stored as
    ``name``), and the game's id."""
    game_id = GameStore(db).create(game, name).id
    server = Server(db, env)
    server.start()
    try:
        yield server, game_id
    finally:
        server.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    """This module's server, on its own store, once its first page has been drawn: the tests time the app."""
    served = Server(tmp_path_factory.mktemp("store") / "games.sqlite3")
    served.start()
    try:
        served.warm(browser)
        yield served
    finally:
        served.stop()


@pytest.fixture(scope="module")
def app_url(server: Server) -> str:
    return server.url


def phone(browser: Browser) -> Page:
    return browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()


def no_traceback(page: Page) -> None:
    expect(page.get_by_test_id("stException")).to_have_count(0)


def address(page: Page, holding: str) -> str:
    """The page's address once it holds ``holding``, as the page itself has it: Streamlit sets it with the history
    API, and Playwright's ``page.url`` (and ``wait_for_url``) can lag a run behind it, until the next event."""
    page.wait_for_function("holding => window.location.href.includes(holding)", arg=holding)
    return str(page.evaluate("window.location.href"))


def metric_value(page: Page, label: str) -> Locator:
    return page.get_by_test_id("stMetric").filter(has_text=label).get_by_test_id("stMetricValue")


def drawn(page: Page | Locator) -> Locator:
    """The elements of ``page`` drawn by the last run: while a run is under way, the elements of the run before
    stay on the page, greyed out ("stale"), beside the new ones (a field whose key changed, a table redrawn), and
    an element that a run replaced by another at its place is kept beside it ("retained") until that run ends."""
    return page.locator('[data-testid="stElementContainer"][data-stale="false"]:not([data-retained])')


def type_number(page: Page | Locator, label: str, value: int | str) -> None:
    """Type ``value`` (a number, or text as a user might type it: "3.7", "1e3") into the field ``label``, then Enter."""
    field = drawn(page).get_by_label(label, exact=True)
    expect(field).to_have_count(1)
    # One element, held: the Enter goes to the field typed in, even if the run it starts draws another.
    handle = field.element_handle()
    handle.fill(str(value))
    handle.press("Enter")


def territory_grid(page: Page) -> Locator:
    # The grid with a row per territory, counting its header row.
    return drawn(page).get_by_test_id("stDataFrame").filter(has=page.locator(f'[aria-rowcount="{N_TERRITORIES + 1}"]'))


#: st.dataframe draws on a canvas; its accessible twin holds the cells in view as glide-cell-<col>-<row>.
#: Scrolls the grid to ``top`` and returns [row, text] of ``column``'s cells once the grid has caught up.
_CELLS_AFTER_SCROLL = """async (grid, [column, top]) => {
    const cells = () => Array.from(grid.querySelectorAll(`[data-testid^="glide-cell-${column}-"]`),
                                   cell => [Number(cell.dataset.testid.split("-").pop()), cell.innerText]);
    const scroller = grid.querySelector(".dvn-scroller");
    if (scroller === null) return [];  // the grid is drawn before its scroller
    const before = JSON.stringify(cells());
    const from = scroller.scrollTop;
    scroller.scrollTop = top;
    // The rows in view are re-rendered a few frames after a scroll, if it moved at all.
    for (let waited = 0; scroller.scrollTop !== from && JSON.stringify(cells()) === before && waited < 2000; waited += 20) {
        await new Promise(done => setTimeout(done, 20));
    }
    return cells();
}"""


def read_column(grid: Locator, column: int) -> list[str]:
    """All cells of ``column``: only the rows in view exist, so scroll through the grid."""
    cells: dict[int, str] = {}
    top = 0
    while len(cells) < N_TERRITORIES and top < 60 * N_TERRITORIES:
        # One script per step, so the cells cannot be re-rendered between finding and reading them.
        cells.update(grid.evaluate(_CELLS_AFTER_SCROLL, [column, top]))
        top += 200
    return [cells[row] for row in sorted(cells)]


def wait_for_column(page: Page, column: int, accept: Callable[[list[str]], bool]) -> list[str]:
    """``column`` of the territory table once it satisfies ``accept``: after a click the page shows the old game
    until the rerun lands."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    cells: list[str] = []
    while time.monotonic() < deadline:
        grid = territory_grid(page)
        if grid.count() == 1:
            cells = read_column(grid, column)
            # Every cell of the table holds a name or a count: an empty one is a grid still being drawn.
            if len(cells) == N_TERRITORIES and all(cells) and accept(cells):
                return cells
        page.wait_for_timeout(250)
    pytest.fail(f"column {column} of the territory table never showed the expected values; last seen: {cells}")


def wait_for_owners(page: Page, accept: Callable[[list[str]], bool]) -> list[str]:
    return wait_for_column(page, OWNER_COLUMN, accept)


def owners_of(state: GameState) -> list[str]:
    return [player_name(int(p), state.n_players) for p in state.owner]


def test_a_page_talks_to_its_own_server_alone(browser: Browser, app_url: str) -> None:
    page = phone(browser)
    elsewhere: list[str] = []
    page.on("request", lambda r: None if r.url.startswith((app_url, "data:", "blob:")) else elsewhere.append(r.url))
    page.goto(app_url)
    expect(metric_value(page, "P(win)")).to_be_visible()
    page.wait_for_load_state("networkidle")
    # No usage statistics sent to Streamlit's servers from the phones at a table, and no "Deploy" button.
    assert elsewhere == []
    expect(page.get_by_role("button", name="Deploy")).to_have_count(0)
    no_traceback(page)


def test_new_setup_then_save_and_load_round_trip(page: Page, app_url: str) -> None:
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(app_url)
    expect(page.get_by_role("heading", name="Risk Analyzer")).to_be_visible()
    expect(page.get_by_test_id("stImage").locator("img")).to_be_visible()

    page.get_by_role("button", name="New random setup").click()
    expect(page.get_by_role("heading", name="Territories")).to_be_visible()
    first = wait_for_owners(page, lambda owners: True)
    assert set(first) == {"Player 1", "Player 2", "Player 3"}
    for territory in BOARD.territories:
        expect(map_marker(page, territory)).to_have_count(1)
    the_map = page.get_by_test_id("stVegaLiteChart").filter(has=page.locator('[aria-roledescription="circle"]'))
    box = the_map.locator("svg").first.bounding_box()
    assert box is not None and box["width"] > box["height"] > 300, "the map should be a wide picture"

    # The first seat renamed: the name is saved with the game and comes back with it.
    rename(page, 1, "Alice")
    renamed = ["Alice" if owner == "Player 1" else owner for owner in first]
    wait_for_owners(page, lambda owners: owners == renamed)

    download = save_game(page)
    saved = download.path().read_text(encoding="utf-8")
    state = GameState.from_json(saved)
    assert owners_of(state) == first
    # Named after the game ("Game of 07 Dec 21:40"), the colon no file name can hold made "-"; the file keeps the
    # name itself.
    assert re.fullmatch(r"Game of \d\d \S+ \d\d-\d\d\.json", download.suggested_filename), download.suggested_filename
    name = state.labels[NAME_LABEL]
    assert file_name(name, ".json") == download.suggested_filename and ":" in name
    assert state.labels["names"] == ["Alice", "Player 2", "Player 3"]

    # Another game with another name first, so that loading visibly brings the saved ones back.
    page.get_by_role("button", name="All games").click()
    page.get_by_label("Seed").fill("2")
    page.get_by_label("Seed").press("Enter")
    page.get_by_role("button", name="New random setup").click()
    # Names belong to a game: the new one has the default ones.
    wait_for_owners(page, lambda owners: "Alice" not in owners and owners != first)
    rename(page, 1, "Bob")
    wait_for_owners(page, lambda owners: "Bob" in owners)

    share_expander(page)
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
        files=[{"name": download.suggested_filename, "mimeType": "application/json", "buffer": saved.encode("utf-8")}]
    )
    wait_for_owners(page, lambda owners: owners == renamed)
    # Opened from its file, the game has its name again, the colon the file's name could not hold included.
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    page.get_by_role("tab", name="Players & cards").click()
    expect(page.get_by_label("Name of seat 1")).to_have_value("Alice")
    expect(page.get_by_test_id("stAlertContentError")).to_have_count(0)


def share_expander(page: Page) -> None:
    """Open the expander with the game's file buttons, if it is closed."""
    button = page.get_by_role("button", name="Save game")
    if not button.is_visible():
        page.get_by_text("Share, save or open another game").click()
    expect(button).to_be_visible()


def save_game(page: Page) -> Download:
    share_expander(page)
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Save game").click()
    return download_info.value


def rename(page: Page, seat: int, name: str) -> None:
    """Type a new name for ``seat`` (from 1) on the Players & cards tab, then go back to the Board tab."""
    page.get_by_role("tab", name="Players & cards").click()
    field = page.get_by_label(f"Name of seat {seat}")
    saved = saved_version(page)
    field.fill(name)
    field.press("Enter")
    expect(page.get_by_text(f"Saved: version {saved + 1}")).to_be_visible()
    page.get_by_role("tab", name="Board").click()


def saved_version(page: Page) -> int:
    """The stored version the page shows."""
    caption = page.get_by_text("Saved: version ")
    expect(caption).to_be_visible()
    return int(caption.inner_text().split()[-1])


PICKER = "Pick territories (type to search, or click them on the map): ringed on the map, edited here"


def map_marker(page: Page, territory: str) -> Locator:
    # Each territory's marker has the territory's name as its accessible name.
    return page.get_by_test_id("stVegaLiteChart").locator(f'[aria-roledescription="circle"][aria-label="{territory}"]')


#: True once the app is idle with one map on the page that rings exactly the territories given. All at once:
#: when the picked list changes the map is a new chart, drawn for a moment next to the old one.
_MAP_RINGS = """ringed => {
    // The map is the chart of circles (the calculator's survivors' charts are bars).
    const charts = Array.from(document.querySelectorAll("[data-testid=stVegaLiteChart]"))
        .filter(chart => chart.querySelector("[aria-roledescription=circle]") !== null);
    if (charts.length !== 1 || document.querySelector("[data-testid=stStatusWidget]") !== null) return false;
    const rings = Array.from(charts[0].querySelectorAll("[aria-roledescription=point]"), ring => ring.ariaLabel);
    return rings.length === ringed.length && ringed.every(t => rings.some(label => label.includes(`Territory: ${t};`)));
}"""


def expect_map(page: Page, ringed: list[str]) -> None:
    """Wait until the map rings exactly ``ringed``: the picked list came back from the server drawn."""
    page.wait_for_function(_MAP_RINGS, arg=ringed)


def click_on_map(page: Page, territory: str) -> None:
    """Click the middle of ``territory``'s marker, where the pointer lands in the browser.

    Not ``Locator.click``: the army count is drawn over the marker and takes the click, which Playwright's
    check refuses; the count belongs to the same territory, as a user's click on it does.
    """
    marker = map_marker(page, territory)
    marker.scroll_into_view_if_needed()
    box = marker.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_territories_clicked_on_the_map_are_picked_and_edited(page: Page, app_url: str) -> None:
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(app_url)
    page.get_by_role("button", name="New random setup").click()
    expect(page.get_by_role("heading", name="Territories")).to_be_visible()
    picker = page.get_by_test_id("stMultiSelect").filter(has=page.get_by_label(PICKER))

    expect_map(page, [])
    click_on_map(page, "Peru")
    expect_map(page, ["Peru"])
    expect(picker).to_contain_text("Peru")
    click_on_map(page, "Alaska")
    expect_map(page, ["Peru", "Alaska"])
    expect(picker).to_contain_text("Alaska")
    expect(picker).to_contain_text("Peru")

    # Dropped from the list, a territory is picked again by the next click on it, even the last one clicked.
    picker.get_by_role("button", name="Clear all").click()
    expect_map(page, [])
    expect(picker).not_to_contain_text("Alaska")
    click_on_map(page, "Alaska")
    expect_map(page, ["Alaska"])
    expect(picker).to_contain_text("Alaska")
    expect(picker).not_to_contain_text("Peru")

    page.get_by_label("Armies on each").fill("7")
    page.get_by_label("Armies on each").press("Enter")
    page.get_by_role("button", name="Apply to the picked territories").click()
    wait_for_column(page, ARMIES_COLUMN, lambda armies: armies[BOARD.index("Alaska")] == "7")
    expect(page.get_by_test_id("stAlertContentError")).to_have_count(0)


def choose(page: Page | Locator, label: str, option: str) -> None:
    """Pick ``option`` in the selectbox labelled ``label`` the way a user does: open it, type, press Enter."""
    box = page.get_by_label(label, exact=True)
    # Pressed in the middle of the screen, as a thumb does. A box pressed on a phone's screen, on its bottom edge or
    # in its middle, has at times shown no option in 30 s (in CI, and 1 run in 12 here with both cores loaded): in
    # each such run the page's 2-second poll (the strip's fragment) fired within 30 ms after the press. Not known why
    # that keeps the list from showing; the test fails rather than pressing again.
    box.evaluate("e => e.scrollIntoView({block: 'center'})")
    box.click()
    box.fill(option)
    # Enter takes the option the typed text has filtered the list down to. Pressed before the list shows it, as
    # can happen on a selectbox drawn a moment before, it leaves the text typed in the box and nothing chosen.
    box.page.get_by_role("option").filter(has_text=option).first.wait_for()
    box.press("Enter")


def test_on_a_phone_the_calculator_shows_the_solvers_odds_for_a_typed_battle(browser: Browser, app_url: str) -> None:
    page = phone(browser)
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(app_url)
    # The calculator is the first thing on the page, in view without opening the sidebar or scrolling.
    attackers = page.get_by_label("Attacking armies", exact=True)
    expect(attackers).to_be_in_viewport()
    type_number(page, "Attacking armies", 23)
    type_number(page, "Defenders", 17)
    expected = battle(23, 17)
    expect(metric_value(page, "P(win)")).to_have_text(f"{expected.p_win:.2%}")
    expect(metric_value(page, "Attacker's losses")).to_have_text(f"{expected.expected_attacker_losses:.2f}")
    expect(metric_value(page, "P(win)")).to_be_in_viewport()
    # One tap on + is one more attacker.
    page.get_by_test_id("stNumberInputStepUp").first.click()
    expect(metric_value(page, "P(win)")).to_have_text(f"{battle(24, 17).p_win:.2%}")
    no_traceback(page)
    page.context.close()


def test_a_game_survives_a_reload_and_a_server_restart(browser: Browser, server: Server) -> None:
    page = phone(browser)
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server.url)
    page.get_by_label("Name", exact=True).fill("Restart me")
    page.get_by_role("button", name="New random setup").click()
    expect(page.get_by_role("heading", name="Restart me")).to_be_visible()
    url = address(page, "game=")
    game_id = parse_qs(urlsplit(url).query)["game"][0]
    set_armies(page, "Alaska", 77)
    wait_for_column(page, ARMIES_COLUMN, lambda armies: armies[BOARD.index("Alaska")] == "77")

    page.reload()
    expect(page.get_by_role("heading", name="Restart me")).to_be_visible()
    wait_for_column(page, ARMIES_COLUMN, lambda armies: armies[BOARD.index("Alaska")] == "77")

    # The address as the page keeps it now, with its open view: the Apply made the game live, and a live game's
    # address without one opens on the Record view, where the territory table is not (the address taken at the
    # start had no view yet in some runs, and the table was then never found).
    url = address(page, "tab=Board")
    server.stop()
    server.start()
    server.warm(browser)
    page.goto(url)
    expect(page.get_by_role("heading", name="Restart me")).to_be_visible()
    armies = wait_for_column(page, ARMIES_COLUMN, lambda armies: armies[BOARD.index("Alaska")] == "77")
    assert armies == [str(a) for a in GameStore(server.db).load(game_id).state.armies]
    no_traceback(page)
    page.context.close()


def test_a_battle_recorded_on_a_phone_is_still_in_the_log_after_a_reload(browser: Browser, server: Server) -> None:
    # Bo is to play with 4 armies to place; Bo's Alaska (3) borders Ann's Kamchatka (3).
    live = LiveGame.random(["Ann", "Bo", "Cy"], np.random.default_rng(1))
    game_id = GameStore(server.db).create(live.state, "Recorded on a phone").id
    page = phone(browser)
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/?game={game_id}")
    expect(page.get_by_role("heading", name="Recorded on a phone")).to_be_visible()
    page.get_by_role("tab", name="Record").click()
    # The calculator has an "Attack from" of its own: the panel's widgets are those in the tabs.
    panel = page.get_by_test_id("stTabs")
    expect(page.get_by_text("Turn 1 · Bo to play · reinforce · 4 armies to place")).to_be_visible()
    choose(panel, "Place on", "Alaska")
    type_number(panel, "Armies", 4)
    page.get_by_role("button", name="Place", exact=True).click()
    expect(page.get_by_text("Turn 1 · Bo to play · attack")).to_be_visible()
    choose(panel, "Attack from", "Alaska")
    choose(panel, "Attack", "Kamchatka")
    # The counts of the new pair start from its stacks (Alberta, the first target, has 1): wait for them, or
    # what is typed goes into the fields of the pair before.
    expect(drawn(panel).get_by_label("Armies left on the defending territory (0: taken)", exact=True)).to_have_value(
        "3"
    )
    # Two rolls of three dice against two can leave 5 of Alaska's 7 and 1 of Kamchatka's 3.
    type_number(panel, "Armies left on the attacking territory", 5)
    type_number(panel, "Armies left on the defending territory (0: taken)", 1)
    page.get_by_role("button", name="Record battle").click()
    line = "Turn 1, Bo: Alaska (7) attacks Kamchatka (3): stopped with 5 against 1"
    open_log(page, line)
    expect(page.get_by_role("button", name="Undo (battle)")).to_be_visible()
    # The boxes show the armies left, not those before the battle.
    for label, shown in (("Attack from", "Alaska (5, Bo)"), ("Attack", "Kamchatka (1, Ann)")):
        expect(panel.get_by_label(label, exact=True)).to_have_value(shown)
    no_traceback(page)

    page.reload()
    expect(page.get_by_role("heading", name="Recorded on a phone")).to_be_visible()
    page.get_by_role("tab", name="Record").click()
    open_log(page, line)
    history = GameStore(server.db).load(game_id).state.history
    assert history[-2:] == [
        Place(BOARD.index("Alaska"), 4),
        Battle(BOARD.index("Alaska"), BOARD.index("Kamchatka"), 5, 1),
    ]
    no_traceback(page)
    page.context.close()


def open_log(page: Page, line: str) -> None:
    """Open the Record tab's log and wait for ``line`` in it."""
    log = page.get_by_test_id("stExpander").filter(has=page.get_by_text("Log", exact=True))
    log.get_by_text("Log", exact=True).click()
    expect(log.get_by_text(line)).to_be_visible()


def pick(page: Page, territory: str) -> None:
    """Pick ``territory`` in the quick edit's picker, and wait until it is shown picked and Apply can be pressed.

    Made once the Board view is drawn to its end (its last table, "Continents"), the page is idle and the browser
    has drawn the map: the map is drawn after the run, and on a phone it stands above the picker, so drawing it
    moves the picker down the page, and the scroll that follows closes the picker's list and empties what was
    typed in it. Typed, then chosen once its option is shown: Enter before the filtered list is drawn would pick
    nothing. A pick the page does not show is a failure; it is not made again.
    """
    picker = page.get_by_label(PICKER)
    picked = page.get_by_test_id("stMultiSelect").filter(has=picker)
    apply = page.get_by_role("button", name="Apply to the picked territories")
    board = page.get_by_role("tabpanel", name="Board")
    expect(drawn(board).get_by_role("heading", name="Continents")).to_be_visible()
    expect(page.get_by_test_id("stStatusWidget")).to_have_count(0)
    expect(map_marker(page, territory)).to_have_count(1)
    if territory not in picked.inner_text():
        picker.click()
        picker.fill(territory)
        expect(page.get_by_role("option", name=territory, exact=True)).to_be_visible()
        picker.press("Enter")
        page.keyboard.press("Escape")
    expect(picked).to_contain_text(territory)
    expect(apply).to_be_enabled()


def set_armies(page: Page, territory: str, armies: int) -> None:
    """The quick edit: pick ``territory`` in the picker, type the armies, press Apply."""
    pick(page, territory)
    type_number(page, "Armies on each", armies)
    page.get_by_role("button", name="Apply to the picked territories").click()


def open_new_game(browser: Browser, url: str) -> tuple[Page, str]:
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url)
    page.get_by_role("button", name="New random setup").click()
    url = address(page, "game=")
    expect(page.get_by_role("heading", name="Territories")).to_be_visible()
    return page, url


def test_two_devices_on_one_game_see_each_others_edits(browser: Browser, server: Server) -> None:
    first, url = open_new_game(browser, server.url)
    second = phone(browser)
    second.set_default_timeout(TIMEOUT_MS)
    second.goto(url)
    wait_for_owners(second, lambda owners: True)

    set_armies(first, "Peru", 55)
    # No reload: the second device's page follows the store within a few seconds.
    wait_for_column(second, ARMIES_COLUMN, lambda armies: armies[BOARD.index("Peru")] == "55")
    set_armies(second, "Ural", 66)
    wait_for_column(first, ARMIES_COLUMN, lambda armies: armies[BOARD.index("Ural")] == "66")
    for page in (first, second):
        no_traceback(page)
        page.context.close()


def test_a_conflicting_edit_is_refused_and_nothing_is_lost(browser: Browser, tmp_path: Path) -> None:
    # The page does not look at the store on its own during the test (its poll comes once an hour): another
    # device's change is saved after the page's last look, and Apply is pressed on the game the page shows, as
    # on a phone whose next look has not come yet.
    game = GameState.random_start(3, np.random.default_rng(1))
    with serving(tmp_path / "games.sqlite3", game, "Conflict", env={POLL_ENV: "3600"}) as (server, game_id):
        server.warm(browser)
        store = GameStore(server.db)
        page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        page.set_default_timeout(TIMEOUT_MS)
        runs: set[str] = set()
        with page.expect_websocket() as connected:
            page.goto(f"{server.url}/?game={game_id}")
        socket = connected.value
        socket.on("framereceived", lambda payload: runs.update(run[:1] if (run := page_run(payload)) else ()))
        pick(page, "Alaska")
        # The run the Enter starts ends with the page's look at the store: the other device saves after it.
        before = set(runs)
        with socket.expect_event("framereceived", predicate=lambda payload: ran_since(before, payload)):
            type_number(page, "Armies on each", 44)
        stored = store.load(game_id)
        other = new_game_from_position(stored.state, armies={"Peru": 30})
        store.save(game_id, other, expected_version=stored.version)
        page.get_by_role("button", name="Apply to the picked territories").click()
        expect(page.get_by_test_id("stAlertContentError").filter(has_text="changed elsewhere")).to_be_visible()
        # The fresh game is shown, the other device's change is kept, and the refused entry is still in its widgets.
        wait_for_column(page, ARMIES_COLUMN, lambda armies: armies[BOARD.index("Peru")] == "30")
        assert int(store.load(game_id).state.armies[BOARD.index("Peru")]) == 30
        expect(page.get_by_test_id("stMultiSelect").filter(has=page.get_by_label(PICKER))).to_contain_text("Alaska")
        expect(page.get_by_label("Armies on each", exact=True)).to_have_value("44")
        page.get_by_role("button", name="Apply to the picked territories").click()
        wait_for_column(page, ARMIES_COLUMN, lambda armies: armies[BOARD.index("Alaska")] == "44")
        assert int(store.load(game_id).state.armies[BOARD.index("Alaska")]) == 44
        no_traceback(page)
        page.context.close()


def ran_since(before: set[str], payload: bytes | str) -> bool:
    """Whether ``payload`` says that a run of the whole page finished, one not among the runs ``before``."""
    run = page_run(payload)
    return run is not None and run[1] and run[0] not in before


def test_an_unwritable_store_gives_a_message_and_no_traceback(browser: Browser, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("a file, not a folder")
    unwritable = Server(blocker / "games.sqlite3")
    unwritable.start()
    try:
        unwritable.warm(browser)
        page = phone(browser)
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(unwritable.url)
        expect(page.get_by_test_id("stAlertContentError").filter(has_text="cannot be created")).to_be_visible()
        page.get_by_role("button", name="New random setup").click()
        # The game page's own message: the start page's ("New games are kept in this page only") stays in the page,
        # faded, until the game page's first run ends, which on a loaded machine can outlast the wait.
        expect(
            page.get_by_test_id("stAlertContentError").filter(has_text="The game is kept in this page only")
        ).to_be_visible()
        expect(page.get_by_text("to play")).to_be_visible()
        no_traceback(page)
        page.context.close()
    finally:
        unwritable.stop()


def test_an_unknown_territory_shows_a_message_and_keeps_the_game(page: Page, app_url: str) -> None:
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(app_url)
    page.get_by_role("button", name="New random setup").click()
    expect(page.get_by_role("heading", name="Territories")).to_be_visible()
    before = wait_for_owners(page, lambda owners: True)

    picker = page.get_by_label(PICKER)
    picker.click()
    picker.fill("Atlantis")
    picker.press("Enter")
    page.keyboard.press("Escape")
    page.get_by_label("Armies on each").fill("5")
    page.get_by_label("Armies on each").press("Enter")
    page.get_by_role("button", name="Apply to the picked territories").click()
    expect(page.get_by_test_id("stAlertContentError")).to_contain_text("unknown territory 'Atlantis'")
    assert wait_for_owners(page, lambda owners: True) == before
