"""The Record view on a phone (390 px) in a real Chromium: a whole 3-player game, from a setup claimed by taps to a
victory, with a reload in the middle of the setup and one in the middle of the play; numbers out of range typed into
every number field (nothing saved), and the URL keeping the view."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from typing import TypeVar

import numpy as np
import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from test_app_browser import (
    TIMEOUT_MS,
    Server,
    choose,
    drawn,
    no_traceback,
    phone,
    pick,
    placed_and_ended,
    save_game,
    type_number,
)

from analyzer.analysis.log import log_lines
from analyzer.game.actions import Battle, Draw
from analyzer.game.board import classic_board
from analyzer.game.state import GameState, check_replay, turn_number
from analyzer.game.vocabulary import DISCARD, Phase
from analyzer.live import LiveGame
from analyzer.services.saving import opened
from analyzer.store import GameStore

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

BOARD = classic_board()
T = TypeVar("T")
TEN_DIGITS = 1_234_567_890
NAMES = ["Ann", "Bo", "Cy"]
PHONE_WIDTH = 390


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


def game_on_phone(browser: Browser, server: Server, game_id: str) -> Page:
    """A phone's page on the stored game ``game_id``."""
    page = phone(browser)
    page.set_default_timeout(TIMEOUT_MS)
    page.set_default_navigation_timeout(4 * TIMEOUT_MS)
    page.goto(f"{server.url}/?game={game_id}")
    return page


def stored(server: Server, game_id: str) -> GameState:
    return GameStore(server.db).load(game_id).state


def version(server: Server, game_id: str) -> int:
    return GameStore(server.db).version(game_id)


def tap(page: Page, territory: str) -> None:
    """Tap the middle of ``territory``'s marker on the setup map (the count drawn over it takes the tap too)."""
    # The map shown: while a run redraws the view the one it replaces may still be in the page, hidden.
    marker = (
        page.get_by_test_id("stVegaLiteChart")
        .locator(f'[aria-roledescription="circle"][aria-label="{territory}"]:visible')
        .first
    )
    expect(marker).to_be_visible()
    # Scrolled and measured by the page itself, in one script: Playwright's own scroll waits for the marker to hold
    # still over two frames, which a loaded machine redrawing the page can keep from happening for longer than any
    # timeout, and a look and an aim made apart could find two different drawings of the map.
    x, y = marker.evaluate(
        """element => {
            element.scrollIntoView({block: "center"});
            const box = element.getBoundingClientRect();
            return [box.x + box.width / 2, box.y + box.height / 2];
        }"""
    )
    page.mouse.click(x, y)


def saved_beyond(page: Page, server: Server, game_id: str, n: int, ms: int) -> GameState | None:
    """The stored game once its history holds more than ``n`` actions, looked at every 0.1 s for ``ms``; else None."""
    for _ in range(ms // 100):
        state = stored(server, game_id)
        if len(state.history) > n:
            return state
        page.wait_for_timeout(100)
    return None


def tap_answered(page: Page, territory: str, answer: Callable[[], T | None], what: str) -> T:
    """Tap ``territory`` once and return the tap's answer (``answer()``, which waits up to 10 s for it).

    A tap the page ignores is a failure, as it is for a player at the table: it is never made again.
    """
    tap(page, territory)
    answered = answer()
    if answered is None:
        raise AssertionError(f"a tap on {territory} was not {what}: the page ignored it")
    return answered


def tap_saved(page: Page, server: Server, game_id: str, territory: str) -> GameState:
    """Tap ``territory`` once (:func:`tap_answered`) and return the stored game once the tap is saved."""
    n = len(stored(server, game_id).history)
    return tap_answered(page, territory, lambda: saved_beyond(page, server, game_id, n, 10_000), "saved")


def shown_within(locator: Locator, ms: int) -> bool | None:
    """True once ``locator`` is visible, waited for up to ``ms``; else None."""
    try:
        locator.wait_for(timeout=ms)
    except PlaywrightTimeoutError:
        return None
    return True


def shown_continent(page: Page) -> str:
    return page.get_by_role("radiogroup", name="Map of").get_by_role("radio", checked=True).inner_text()


def map_of(page: Page | Locator, name: str) -> None:
    """Show the map of ``name`` with a tap on its button under "Map of", once the button says it is picked."""
    button = page.get_by_role("radiogroup", name="Map of").get_by_role("radio", name=name, exact=True)
    button.click()
    expect(button).to_have_attribute("aria-checked", "true")


def test_a_claimed_setup_by_taps_then_a_victory_with_a_reload(browser: Browser, server: Server) -> None:
    # "You are" Ann: the cards she draws are left face down, never named, and never hold up the next entry.
    game_id = GameStore(server.db).create(LiveGame.start(["Ann", "Bo", "Cy"], first=0, seed=4, me=0).state, "Taps").id
    page = game_on_phone(browser, server, game_id)
    # A live game opens on the Record view: the claim map is there without a tap.
    expect(page.get_by_text("Tap a free territory on the map to claim it for Ann.")).to_be_visible()
    for _ in range(6):
        state = stored(server, game_id)
        continent = next(i for i, c in enumerate(BOARD.continents) if c.name == shown_continent(page))
        free = [t for t in BOARD.continents[continent].territories if state.owner[t] < 0]
        after = tap_saved(page, server, game_id, BOARD.territories[free[0]])
        assert after.owner[free[0]] == state.player
        # The next tap goes to the map drawn for the next claim, once it is there.
        expect(
            page.get_by_text(f"Tap a free territory on the map to claim it for {NAMES[after.player]}.")
        ).to_be_visible()
        page.wait_for_timeout(500)
    # A tap on a territory already claimed changes nothing and says why.
    state = stored(server, game_id)
    taken = next(t for t in range(BOARD.n_territories) if state.owner[t] >= 0)
    map_of(page, BOARD.continents[int(BOARD.continent_of[taken])].name)
    said = page.get_by_text(f"{BOARD.territories[taken]} is already")
    tap_answered(page, BOARD.territories[taken], lambda: shown_within(said, 10_000), "answered")
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
        after = tap_saved(page, server, game_id, BOARD.territories[mine[0]])
        assert after.armies[mine[0]] == state.armies[mine[0]] + 1
        expect(
            page.get_by_text(f"Tap one of {NAMES[after.player]}'s territories to put an army on it.")
        ).to_be_visible()
        page.wait_for_timeout(500)
    page.get_by_role("button", name="Spread the rest").click()
    expect(page.get_by_role("button", name="Place", exact=True)).to_be_visible()
    state = stored(server, game_id)
    assert state.phase == Phase.REINFORCE and int(state.armies.sum()) == 105
    setup_entries = len(LiveGame(state).entries)
    # Six claims by taps, the deal of the rest (one entry), three armies, the spread.
    assert setup_entries == 6 + 1 + 3 + 1

    # The game played to its end on the Record view, as at the table: Ann wins, Bo and Cy only place and pass.
    table = Table(page, server, game_id)
    table.open_log()
    reloaded = saved_unknown = False
    while not (state := table.game()).is_terminal():
        mine_unknown = set(state.face_down) & set(state.hand(ANN))
        if not saved_unknown and state.player == ANN and state.phase == Phase.REINFORCE and mine_unknown:
            # Ann's own card, drawn last turn, still face down: the entries go on, and Save game has them all.
            saved_unknown = True
            expect(
                page.get_by_text(re.compile(r"Name Ann's face-down cards \(\d+ to name, optional\)"))
            ).to_be_visible()
            assert saved_file(page) == table.game().to_json()
        if state.player != ANN:
            table.place(None) if state.phase == Phase.REINFORCE else table.end_turn()
        elif state.phase == Phase.REINFORCE:
            stack = front_stack(state)
            if len(state.hand(ANN)) >= 3:
                table.trade(bonus_territory(state, stack))
            else:
                table.place(stack)
        elif state.phase == Phase.MOVE_IN:
            table.move_in()
        elif (attack := next_attack(state)) is None:
            table.end_turn()
        else:
            table.battle(*attack)
            if not reloaded and turn_number(state) == 2:
                # In the middle of the play (a move-in may be pending): the game and the Record view come back.
                reloaded = True
                # Saved mid-turn, after entries that redrew only the panel: the game as stored.
                assert saved_file(page) == table.game().to_json()
                table.reload()
    assert reloaded and saved_unknown
    expect(page.get_by_text("Ann has won the game.")).to_be_visible()
    final = table.game()
    assert final.is_terminal() and final.winner == ANN and int(np.count_nonzero(final.owner == ANN)) == 42
    check_replay(final)  # the stored state is what its stored history replays to
    assert saved_file(page) == final.to_json()
    # Nothing dropped, nothing invented: one recorded entry for each made.
    assert len(LiveGame(final).entries) == setup_entries + sum(table.made.values())
    print(
        f"entries after the setup: {dict(table.made)}, {sum(table.made.values())} in all; "
        f"Ann's turns: {list(table.ann_turns.values())} entries"
    )
    no_traceback(page)
    page.context.close()


ANN = 0
#: The key (CSS class) of the defending count's field drawn for the pair [source, target] (-1: any target).
_PAIR_KEY = r"""([source, target]) => Array.from(
    document.querySelectorAll('[data-testid=stElementContainer][data-stale=false]:not([data-retained])'), element => Array.from(element.classList)
).flat().find(name => new RegExp(`^st-key-live-defenders_left\\d+_${source}_${target < 0 ? "\\d+" : target}$`).test(name)) ?? null"""
_PAIRS_DRAWN = r"""() => Array.from(document.querySelectorAll('[data-testid=stElementContainer]'), element => Array.from(
    element.classList).filter(name => name.startsWith("st-key-live-defenders_left")).map(name => name + (element.dataset.stale
    === "false" ? "" : " (stale)") + (element.hasAttribute("data-retained") ? " (retained)" : ""))).flat()"""
LEFT_DEFENDING = "Armies left on the defending territory (0: taken)"
#: Where each tap lands: the button's text, or what else took it. Playwright aims at a button once it has held still
#: for two frames, but the page can still move under the tap. The win-chance strip, when it sat above the Record
#: panel, did so as it grew after the first turn (a caption, then a box "being computed…", then the chances and a
#: chart): in about one run in six the tap on Bo's first "Place" landed beside the button, making no entry and
#: saying nothing. The strip is below the panel now, and a tap beside its button fails the test.
_TAPS = """() => {
    if (window.__taps !== undefined) return;
    window.__taps = [];
    document.addEventListener("click", event => {
        const button = event.target.closest("button");
        const where = event.target.closest("[data-testid]");
        window.__taps.push(button !== null ? button.innerText.trim() : `${event.target.tagName} in ${where && where.dataset.testid}`);
    }, true);
}"""


def option(state: GameState, t: int) -> str:
    """The label of territory ``t`` in the Record view's boxes."""
    return f"{BOARD.territories[t]} ({int(state.armies[t])}, {NAMES[int(state.owner[t])]})"


def enemies(state: GameState, t: int) -> list[int]:
    return [int(u) for u in BOARD.neighbors[t] if state.owner[u] != ANN]


def walk(state: GameState, t: int, seen: frozenset[int], depth: int = 4) -> int:
    """The longest walk (up to ``depth`` steps) from ``t`` on through territories that are not Ann's."""
    steps = [u for u in enemies(state, t) if u not in seen]
    return max((1 + walk(state, u, seen | {u}, depth - 1) for u in steps), default=0) if depth else 0


def front_stack(state: GameState) -> int:
    """Where Ann places her whole reinforcement: her biggest stack on the front, the longest walk ahead breaking ties."""
    front = [t for t in state.territories_of(ANN) if enemies(state, t)]
    return max(
        front, key=lambda t: (int(state.armies[t]), max(walk(state, u, frozenset({u})) for u in enemies(state, t)))
    )


def next_attack(state: GameState) -> tuple[int, int] | None:
    """Ann's next battle: from her biggest stack that can attack, into the neighbour with the longest walk ahead."""
    sources = [int(t) for t in state.attack_sources()]
    if not sources:
        return None
    source = max(sources, key=lambda t: int(state.armies[t]))
    return source, max(enemies(state, source), key=lambda u: walk(state, u, frozenset({u})))


def bonus_territory(state: GameState, stack: int) -> int | None:
    """A territory of Ann's whose card has not been traded, for the set's extra armies: ``stack`` if it can be.

    Every card of this game is face down. A set traded with no extra armies says that no card of it shows a
    territory of Ann's: once she holds nearly every territory, the unseen cards cannot make such a set, and the
    recorder rightly refuses it.
    """
    unseen = [t for t in state.territories_of(ANN) if state.card_loc[t] != DISCARD]
    return stack if stack in unseen else next(iter(unseen), None)


class Table:
    """The entries of a game made through the Record view's widgets, each checked against the stored game and the log."""

    def __init__(self, page: Page, server: Server, game_id: str) -> None:
        self.page, self.server, self.game_id = page, server, game_id
        self.panel = page.get_by_test_id("stTabs")
        self.made: Counter[str] = Counter()
        #: The entries of each of Ann's turns, by player-turn.
        self.ann_turns: Counter[int] = Counter()

    def game(self) -> GameState:
        return stored(self.server, self.game_id)

    def open_log(self) -> None:
        self.page.get_by_test_id("stExpander").get_by_text("Log", exact=True).click()
        self.log_shows(self.game())

    def log(self) -> Locator:
        return drawn(self.page.get_by_test_id("stExpander").filter(has=self.page.get_by_text("Log", exact=True)))

    def log_shows(self, state: GameState) -> None:
        """The Log shows the newest line of ``state``'s log (drawn after the entries' widgets, at the panel's end)."""
        expect(self.log().get_by_text(log_lines(state)[-1].text)).to_be_visible()

    def show(self, box: str, choice: str) -> None:
        """Have the box labelled ``box`` show ``choice``, choosing it if it does not already."""
        field = drawn(self.panel).get_by_label(box, exact=True)
        if field.input_value() != choice:
            choose(drawn(self.panel), box, choice)
        # Closed on the choice: a text typed that matches no option would leave the list open.
        expect(field).to_have_attribute("aria-expanded", "false")
        expect(field).to_have_value(choice)

    def battle_fields(self, source: int, target: int | None = None) -> Locator:
        """The battle fields drawn for ``source`` (and ``target``), once a run has drawn them: they are keyed by the
        pair, so a field found is no longer the one of the pair shown before (the page may also hold that one,
        hidden)."""
        try:
            token = self.page.wait_for_function(_PAIR_KEY, arg=[source, -1 if target is None else target]).json_value()
        except PlaywrightTimeoutError:
            # What the page showed instead: the boxes' choices and the pairs whose fields it drew.
            boxes = [drawn(self.panel).get_by_label(box, exact=True) for box in ("Attack from", "Attack")]
            pairs = self.page.evaluate(_PAIRS_DRAWN)
            raise AssertionError(
                f"no battle fields for {BOARD.territories[source]} to "
                f"{'any' if target is None else BOARD.territories[target]}: the boxes show "
                f"{[b.input_value() if b.count() == 1 else f'{b.count()} boxes' for b in boxes]}, fields drawn "
                f"for {pairs}; the stored game is at turn {turn_number(self.game())}, {self.game().phase.name}"
            ) from None
        return self.panel.locator(
            f'[data-testid="stElementContainer"][data-stale="false"]:not([data-retained]).{token}'
        )

    def entry(self, kind: str, button: str) -> tuple[GameState, GameState]:
        """Tap ``button``; the stored game before and after the entry, once saved and shown in the log."""
        before = self.game()
        self.tap(button)
        after = saved_beyond(self.page, self.server, self.game_id, len(before.history), TIMEOUT_MS)
        if after is None:
            raise AssertionError(
                f"a tap on {button} made no {kind} entry; the page says: "
                f"{drawn(self.panel).get_by_test_id('stAlertContentError').all_inner_texts()}"
            )
        # The history only grows. A trade of face-down cards may give a card drawn before another identity
        # (the card shown now stood in for it): the draws are compared without their cards then.
        blind = (lambda a: Draw(-1) if isinstance(a, Draw) else a) if kind == "trade" else (lambda a: a)
        assert [blind(a) for a in after.history[: len(before.history)]] == [blind(a) for a in before.history]
        self.log_shows(after)
        self.made[kind] += 1
        if before.player == ANN:
            self.ann_turns[before.turn] += 1
        return before, after

    def tap(self, button: str) -> None:
        """Tap ``button``; the tap must land on it (see :data:`_TAPS`)."""
        self.page.evaluate(_TAPS)  # after a reload too
        self.page.get_by_role("button", name=button, exact=True).click()
        landed = self.page.evaluate("window.__taps.pop()")
        if landed != button:
            state = self.game()
            raise AssertionError(
                f"a tap on {button} landed on {landed} (turn {turn_number(state)}, "
                f"{NAMES[state.player]} to play): the page moved under it"
            )

    def place(self, where: int | None) -> None:
        """Every army due on ``where`` (None: the territory the box shows)."""
        if where is not None:
            self.show("Place on", option(self.game(), where))
        before, after = self.entry("place", "Place")
        changed = np.flatnonzero(after.armies != before.armies)
        assert len(changed) == 1 and where in (None, int(changed[0]))
        assert int(after.armies[changed[0]] - before.armies[changed[0]]) == before.pending
        assert after.phase == Phase.ATTACK and after.pending == 0

    def trade(self, bonus: int | None) -> None:
        """A set of Ann's face-down cards ("a set": no card named), the extra armies on ``bonus``."""
        if bonus is not None:
            self.show("Extra armies on", BOARD.territories[bonus])
        before, after = self.entry("trade", "Trade")
        assert len(after.hand(ANN)) == len(before.hand(ANN)) - 3 and after.pending > before.pending
        if bonus is not None:
            assert after.armies[bonus] == before.armies[bonus] + 2

    def battle(self, source: int, target: int) -> None:
        """A battle won with no loss: every defender of ``target`` gone, every attacker of ``source`` still there."""
        state = self.game()
        if drawn(self.panel).get_by_label("Attack from", exact=True).input_value() != option(state, source):
            self.show("Attack from", option(state, source))
            self.battle_fields(source)  # the targets of the new source are drawn, to choose from
        self.show("Attack", option(state, target))
        field = self.battle_fields(source, target).get_by_label(LEFT_DEFENDING, exact=True)
        expect(field).to_have_value(str(int(state.armies[target])))
        handle = field.element_handle()
        handle.fill("0")
        handle.press("Enter")
        expect(field).to_have_value("0")
        before, after = self.entry("battle", "Record battle")
        assert after.owner[target] == ANN and after.history[len(before.history)] == Battle(
            source, target, int(before.armies[source]), 0
        )
        victim = int(before.owner[target])
        if not after.alive[victim]:  # their last territory: out, as the log says
            assert len(before.territories_of(victim)) == 1
            expect(self.log().get_by_text(f"{NAMES[victim]} is out, Ann now holds")).to_be_visible()
        if after.phase == Phase.MOVE_IN:
            assert after.armies[source] == before.armies[source] and after.armies[target] == 0
        else:  # the dice left no choice: moved in already
            assert after.armies[source] + after.armies[target] == before.armies[source]

    def move_in(self) -> None:
        """The most armies the move allows (the form's default)."""
        move = self.game().move
        assert move is not None
        before, after = self.entry("move-in", "Move in")
        assert (
            after.armies[move.target] == move.most
            and after.armies[move.source] == before.armies[move.source] - move.most
        )

    def end_turn(self) -> None:
        """No fortify; a card drawn (after a capture) stays face down, the box's default."""
        before, after = self.entry("end turn", "End turn")
        assert after.player != before.player and after.phase == Phase.REINFORCE
        assert len(after.hand(before.player)) == len(before.hand(before.player)) + bool(before.captured)

    def reload(self) -> None:
        state = self.game()
        self.page.reload()
        expect(self.page.get_by_role("tab", name="Record")).to_have_attribute("aria-selected", "true")
        wanted = "Move in" if state.phase == Phase.MOVE_IN else "Record battle"
        expect(self.page.get_by_role("button", name=wanted, exact=True)).to_be_visible()
        self.open_log()


def near_victory() -> GameState:
    """Ann holds 41 territories; Bo's last one is Kamchatka with 1 army, next to Ann's Alaska with 20; Cy is out."""
    owner = [0] * BOARD.n_territories
    armies = [2] * BOARD.n_territories
    kamchatka, alaska = BOARD.index("Kamchatka"), BOARD.index("Alaska")
    owner[kamchatka], armies[kamchatka], armies[alaska] = 1, 1, 20
    return LiveGame(GameState.from_position(owner, armies, n_players=3, player=0), seed=2).state


def test_a_recorded_battle_ends_the_game_and_the_view_survives_a_reload(browser: Browser, server: Server) -> None:
    game_id = GameStore(server.db).create(near_victory(), "Last battle").id
    page = game_on_phone(browser, server, game_id)
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
    page = game_on_phone(browser, server, game_id)
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
    expect(
        drawn(board).get_by_test_id("stAlertContentError").filter(has_text=re.compile(r"1,?234,?567,?890"))
    ).to_be_visible()
    assert version(server, game_id) == before
    no_traceback(page)
    page.context.close()


def test_a_number_a_whole_number_field_would_round_is_refused_as_typed(browser: Browser, server: Server) -> None:
    """A browser's field of whole numbers turns 3.7 into 3 and 1e3 into 1, and keeps its last good value for twenty
    digits, so the entry would save a number nobody typed: the app's fields take any number and refuse it by name."""
    game_id = GameStore(server.db).create(near_victory(), "Typed as such").id
    page = game_on_phone(browser, server, game_id)
    panel = page.get_by_test_id("stTabs")
    before = version(server, game_id)
    assert stored(server, game_id).pending < 1000
    for typed, said in (("3.7", "not 3.7"), ("12345678901234567890", "not 1.23e+19"), ("1e3", "not 1,000")):
        type_number(panel, "Armies", typed)
        expect(panel.get_by_text(said)).to_be_visible()
        page.get_by_role("button", name="Place", exact=True).click()
        page.wait_for_timeout(1500)
        assert version(server, game_id) == before, typed
    page.get_by_text("Battle odds", exact=True).first.click()
    calculator = page.locator(".st-key-calculator")
    expect(calculator.get_by_test_id("stMetric").first).to_be_visible()
    type_number(calculator, "Attacking armies", "2.5")
    expect(
        calculator.get_by_text("Attacking armies: enter a whole number from 2 to 1,000,000, not 2.5")
    ).to_be_visible()
    expect(calculator.get_by_test_id("stMetric")).to_have_count(0)
    no_traceback(page)
    page.context.close()


def test_apply_on_every_tab_keeps_the_log_and_a_phantom_battle_is_refused(browser: Browser, server: Server) -> None:
    game_id = GameStore(server.db).create(placed_and_ended(7, 2), "Apply").id
    history = stored(server, game_id).history
    page = game_on_phone(browser, server, game_id)
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


def test_save_game_mid_turn_downloads_the_game_as_stored(browser: Browser, server: Server) -> None:
    """The Record view's entries redraw only the panel: the file "Save game" gives is still the game as stored
    after them, not the game the page held when it was last drawn whole."""
    game_id = GameStore(server.db).create(near_victory(), "Saved mid-turn").id
    page = game_on_phone(browser, server, game_id)
    panel = page.get_by_test_id("stTabs")
    first = version(server, game_id)
    page.get_by_role("button", name="Place", exact=True).click()
    expect(page.get_by_role("button", name="Record battle")).to_be_visible()
    assert version(server, game_id) == first + 1
    assert saved_file(page) == stored(server, game_id).to_json()
    choose(panel, "Attack from", "Alaska")
    choose(panel, "Attack", "Kamchatka")
    type_number(panel, "Armies left on the defending territory (0: taken)", 0)
    page.get_by_role("button", name="Record battle").click()
    page.get_by_role("button", name="Move in").click()
    expect(page.get_by_text("Player 1 has won the game.")).to_be_visible()
    assert version(server, game_id) == first + 3
    assert saved_file(page) == stored(server, game_id).to_json()
    no_traceback(page)
    page.context.close()


def test_on_a_phone_a_clubs_game_is_found_among_many_and_opened(browser: Browser, server: Server) -> None:
    store = GameStore(server.db)
    ids = [store.create(near_victory(), f"Club night {i}").id for i in range(12)]
    page = phone(browser)
    page.set_default_timeout(TIMEOUT_MS)
    page.set_default_navigation_timeout(4 * TIMEOUT_MS)
    page.goto(server.url)
    games = page.locator("[class*='st-key-stored-']")
    expect(games).to_have_count(10)  # ten at a time, however many the server keeps
    expect(games.first).to_contain_text("Club night 11")  # the last made first
    search = page.get_by_label("Find a game")
    search.fill("CLUB NIGHT 3")
    search.press("Enter")
    expect(games).to_have_count(1)
    games.get_by_role("button", name="Open").click()
    expect(page.get_by_role("heading", name="Club night 3")).to_be_visible()
    page.wait_for_function("id => window.location.href.includes(`game=${id}`)", arg=ids[3])  # Streamlit sets it
    no_traceback(page)
    page.context.close()


@pytest.mark.parametrize("width", [390, 360])
def test_on_a_phone_each_continents_map_fits_the_record_views_map_box(
    browser: Browser, server: Server, width: int
) -> None:
    """The Record view's "Map" box draws one continent at a time so that a phone shows it whole: every territory
    of each continent inside the box, with no sideways scroll, on the common phone widths."""
    game_id = GameStore(server.db).create(near_victory(), f"Maps at {width} px").id
    page = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=True, has_touch=True).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.set_default_navigation_timeout(4 * TIMEOUT_MS)
    page.goto(f"{server.url}/?game={game_id}")
    expect(page.get_by_role("button", name="Place", exact=True)).to_be_visible()
    box = page.get_by_test_id("stExpander").filter(has=page.get_by_text("Map", exact=True))
    # Brought to the middle of the screen first: at 360 px the box's title sat on the screen's bottom edge, and a
    # press there went down on the title but came up on "Place" at the same point and scroll, leaving the box shut
    # (seen once in three CI runs; the cause of the element changing under the pointer is not known).
    box.evaluate("e => e.scrollIntoView({block: 'center'})")
    box.get_by_text("Map", exact=True).click()
    scroller = box.locator(".st-key-live-board_map")
    # The box draws its map once opened: picked from before it is drawn, a continent can go unpicked.
    expect(scroller.locator('[aria-roledescription="circle"]').first).to_be_visible()
    for continent in BOARD.continents:
        map_of(box, continent.name)
        markers = [
            scroller.locator(f'[aria-roledescription="circle"][aria-label="{BOARD.territories[t]}"]').first
            for t in continent.territories
        ]
        expect(markers[0]).to_be_visible()
        bounds = scroller.bounding_box()
        assert bounds is not None
        for t, marker in zip(continent.territories, markers, strict=True):
            drawn_at = marker.bounding_box()
            assert drawn_at is not None and bounds["x"] <= drawn_at["x"], BOARD.territories[t]
            assert drawn_at["x"] + drawn_at["width"] <= bounds["x"] + bounds["width"], (
                continent.name,
                BOARD.territories[t],
            )
        assert scroller.evaluate("e => e.scrollWidth <= e.clientWidth"), continent.name
    no_traceback(page)
    page.context.close()


def saved_file(page: Page) -> str:
    """The game in the file the page's "Save game" downloads, as JSON, the game's name it keeps taken out."""
    download = save_game(page)
    path = download.path()
    assert path is not None
    game, name = opened(GameState.from_json(path.read_text(encoding="utf-8")), "")
    assert name  # the file keeps the game's name
    return game.to_json()


#: Whether a tab is drawn underlined: a bottom border of some width and style, in a colour that shows.
_UNDERLINE = """tab => {
    const style = getComputedStyle(tab);
    return style.borderBottomStyle !== "none" && parseFloat(style.borderBottomWidth) > 0
        && style.borderBottomColor !== "rgba(0, 0, 0, 0)";
}"""


def test_on_a_phone_every_tab_is_in_view_and_the_open_one_is_marked(browser: Browser, server: Server) -> None:
    game_id = GameStore(server.db).create(near_victory(), "Tabs").id
    page = game_on_phone(browser, server, game_id)
    expect(page.get_by_role("button", name="Place", exact=True)).to_be_visible()
    for name in ("Record", "Suggestions"):
        page.get_by_role("tab", name=name).click()
        tabs = page.get_by_role("tab")
        expect(tabs).to_have_count(8)
        expect(page.get_by_role("tab", name=name)).to_have_attribute("aria-selected", "true")
        # The page's style is in: the browser applies it once it has drawn the element that holds it, which can
        # come after the tabs are shown (the open tab's bold is from that style alone).
        expect(page.get_by_role("tab", name=name)).to_have_css("font-weight", "700")
        for tab in tabs.all():
            box = tab.bounding_box()
            # Within the phone's width: none hidden behind the tab bar's scroll arrow.
            assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= PHONE_WIDTH, (tab.inner_text(), box)
            underline = tab.evaluate(_UNDERLINE)
            selected = tab.get_attribute("aria-selected") == "true"
            # The open tab is underlined (in its own colour); the others are not.
            assert underline == selected, (tab.inner_text(), selected)
    no_traceback(page)
    page.context.close()
