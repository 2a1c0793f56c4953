"""The app in a real browser: setup, save and load, territories picked on the map, an attack's odds against the
solver, a refused entry."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect

from analyzer.analysis.position import attack_sources, attack_targets
from analyzer.solver.battle import battle
from analyzer.game.board import classic_board
from analyzer.plot import player_name
from analyzer.game.state import GameState

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

#: The first rerun compiles the solver and the map is drawn by the browser; allow for a busy machine.
TIMEOUT_MS = 30_000
expect.set_options(timeout=TIMEOUT_MS)
BOARD = classic_board()
N_TERRITORIES = BOARD.n_territories
OWNER_COLUMN = 1
ARMIES_COLUMN = 2


def territory_grid(page: Page) -> Locator:
    # The grid with a row per territory, counting its header row.
    return page.get_by_test_id("stDataFrame").filter(has=page.locator(f'[aria-rowcount="{N_TERRITORIES + 1}"]'))


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
            if len(cells) == N_TERRITORIES and accept(cells):
                return cells
        page.wait_for_timeout(250)
    pytest.fail(f"column {column} of the territory table never showed the expected values; last seen: {cells}")


def wait_for_owners(page: Page, accept: Callable[[list[str]], bool]) -> list[str]:
    return wait_for_column(page, OWNER_COLUMN, accept)


def owners_of(state: GameState) -> list[str]:
    return [player_name(int(p), state.n_players) for p in state.owner]


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
    box = page.get_by_test_id("stVegaLiteChart").locator("svg").first.bounding_box()
    assert box is not None and box["width"] > box["height"] > 300, "the map should be a wide picture"

    # The first seat renamed: the name is saved with the game and comes back with it.
    rename(page, 1, "Alice")
    renamed = ["Alice" if owner == "Player 1" else owner for owner in first]
    wait_for_owners(page, lambda owners: owners == renamed)

    with page.expect_download() as download_info:
        page.get_by_role("button", name="Save game").click()
    download = download_info.value
    saved = download.path().read_text(encoding="utf-8")
    state = GameState.from_json(saved)
    assert owners_of(state) == first
    assert state.labels["names"] == ["Alice", "Player 2", "Player 3"]

    # Another game with another name first, so that loading visibly brings the saved ones back.
    page.get_by_label("Seed").fill("2")
    page.get_by_label("Seed").press("Enter")
    page.get_by_role("button", name="New random setup").click()
    wait_for_owners(page, lambda owners: "Alice" in owners and owners != renamed)
    rename(page, 1, "Bob")
    wait_for_owners(page, lambda owners: "Bob" in owners)

    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
        files=[{"name": "saved.json", "mimeType": "application/json", "buffer": saved.encode("utf-8")}]
    )
    wait_for_owners(page, lambda owners: owners == renamed)
    expect(page.get_by_label("Name of seat 1")).to_have_value("Alice")
    expect(page.get_by_test_id("stAlertContentError")).to_have_count(0)


def rename(page: Page, seat: int, name: str) -> None:
    """Type a new name for ``seat`` (from 1) in the sidebar, opening the players' expander if it is closed."""
    field = page.get_by_label(f"Name of seat {seat}")
    if not field.is_visible():
        page.get_by_text("Players: names and colours").click()
    field.fill(name)
    field.press("Enter")


PICKER = "Pick territories (type to search, or click them on the map): ringed on the map, edited here"


def map_marker(page: Page, territory: str) -> Locator:
    # Each territory's marker has the territory's name as its accessible name.
    return page.get_by_test_id("stVegaLiteChart").locator(f'[aria-roledescription="circle"][aria-label="{territory}"]')


#: True once the app is idle with one map on the page that rings exactly the territories given. All at once:
#: when the picked list changes the map is a new chart, drawn for a moment next to the old one.
_MAP_RINGS = """ringed => {
    const charts = document.querySelectorAll("[data-testid=stVegaLiteChart]");
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


def choose(page: Page, label: str, option: str) -> None:
    """Pick ``option`` in the selectbox labelled ``label`` the way a user does: open it, type, press Enter."""
    box = page.get_by_label(label, exact=True)
    box.click()
    box.fill(option)
    box.press("Enter")


def test_an_attack_entered_in_the_browser_shows_the_solvers_odds(page: Page, app_url: str) -> None:
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(app_url)
    page.get_by_role("button", name="New random setup").click()
    expect(page.get_by_role("heading", name="Territories")).to_be_visible()
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Save game").click()
    state = GameState.from_json(download_info.value.path().read_text(encoding="utf-8"))

    # Not the first pair offered: a later source of the player to move, and its last target.
    sources = attack_sources(state, state.player)
    source = sources[-1]
    target = attack_targets(state, source)[-1]
    names = state.board.territories

    def label(t: int) -> str:
        return f"{names[t]} ({player_name(int(state.owner[t]))}, {int(state.armies[t])})"

    page.get_by_role("tab", name="Attack odds").click()
    choose(page, "Attack from", label(source))
    # The targets offered follow the source only once its rerun has landed.
    expect(page.get_by_role("heading", name=f"{names[source]} ({int(state.armies[source])}) attacks")).to_be_visible()
    choose(page, "Attack", label(target))
    expect(page.get_by_role("heading", name=f"{names[source]} ({int(state.armies[source])}) attacks "
                                            f"{names[target]} ({int(state.armies[target])})")).to_be_visible()
    expected = battle(int(state.armies[source]), int(state.armies[target]))
    p_win = page.get_by_test_id("stMetric").filter(has_text="P(win)").get_by_test_id("stMetricValue")
    expect(p_win).to_have_text(f"{expected.p_win:.2%}")
    losses = page.get_by_test_id("stMetric").filter(has_text="Attacker's expected losses").get_by_test_id("stMetricValue")
    expect(losses).to_have_text(f"{expected.expected_attacker_losses:.2f}")
    expect(page.locator("[data-testid=stImage] img:visible")).to_have_count(1)  # the survivors' chart


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
