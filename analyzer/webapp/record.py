"""The live-game panel: follow a game at the table, one short entry at a time.

One entry point, :func:`render`, draws the panel in the current Streamlit
container and returns the new game when an entry was applied (the caller
stores it and reruns), else None. Every entry goes through
:class:`analyzer.live.LiveGame`, so the engine checks it; a refused entry shows
the engine's message as plain text and its widgets keep what was typed.

The panel is one column of full-width inputs, so it reads at a phone's 390 px.
During a claimed setup a tap on the map claims a territory (one continent at a
time fits a phone), the searchable list being the other way.
Only the entries the phase allows are shown: a typical turn is the territory
and "Place" (the count defaults to every army due), then for each battle the
two territories, the two armies left and "Record battle", the move-in if the
dice left a choice, and "End turn". Those who like can enter a battle roll by
roll instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np
import pandas as pd
import streamlit as st

from analyzer.analysis.log import log_csv, log_lines, player_names
from analyzer.analysis.position import player_labels
from analyzer.analysis.setup import likely_continent, random_claims, setup_force, spread_rest
from analyzer.analysis.luck import extreme_battles, luck_series, luck_table
from analyzer.errors import RiskAnalyzerError
from analyzer.game import face_down
from analyzer.game.actions import Territory
from analyzer.game.board import SYMBOLS, classic_board
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase, DECK, PLAYER_COUNTS, PLAYER_COUNT_TEXT, forces
from analyzer.limits import MAX_NAME_LENGTH
from analyzer.live import LIVE_LABEL, LiveGame
from analyzer.plot import NEUTRAL_COLOR, PICK_SELECTION, PLAYER_COLORS, board_chart, chart_picks
from analyzer.text import plain, shortened
from analyzer.webapp.inputs import whole_number

T = TypeVar("T")

NO_CARD = -1
#: Widths of the maps tapped to claim territories: the whole world (as on the Board tab), and one
#: continent, which fits a phone's 390 px.
WORLD_MAP_WIDTH = 760
CONTINENT_MAP_WIDTH = 360
#: The ways to start a game's territories.
CLAIM_ONE_BY_ONE = "claimed one at a time, as at the table"
ENTER_BY_PLAYER = "entered player by player (claimed or dealt)"
RANDOM_DEAL = "dealt at random, with armies placed"


def is_live(game: GameState) -> bool:
    """Whether ``game`` is followed live (recorded entry by entry through :class:`LiveGame`)."""
    return LIVE_LABEL in game.labels


def render(game: GameState | None, key: str, *, message: str | None = None) -> GameState | None:
    """Draw the live-game panel for ``game`` (None: the start form); return the new game after an entry, else None.

    ``key`` prefixes every widget key, so the panel can sit beside other
    widgets (and two panels beside each other). ``message`` (the last entry's
    save refused) is shown at the entries. After an entry the counts of the
    form start again from the game's; a caller whose save of the new game is
    refused calls :func:`keep_form` so that the user's entry stays in it.
    """
    if game is None:
        return _start_form(key)
    if LIVE_LABEL not in game.labels:
        return _adopt_form(game, key)
    try:
        live = LiveGame(game)
    except RiskAnalyzerError as exc:
        # The record no longer matches the game (it was edited elsewhere): follow it afresh from here.
        st.error(plain(f"{exc}. The game is kept; its undo list cannot be."))
        fresh = game.copy()
        fresh.labels.pop(LIVE_LABEL)
        return _adopt_form(fresh, key)
    names = player_names(game)
    _status(live, names)
    if message:
        st.error(plain(message))
    new = _entries(live, names, key)
    if new is not None:
        return new
    new = _undo_redo(live, key)
    if new is not None:
        return new
    _history(live, names, key)
    return None


# ------------------------------------------------------------------------------------ helpers
def _k(key: str, name: str) -> str:
    return f"{key}:{name}"


def _form(key: str) -> int:
    """The form's generation: part of the keys of its counts, so that a new one starts from the game's counts."""
    return int(st.session_state.get(_k(key, "form"), 0))


def keep_form(key: str) -> None:
    """The new game :func:`render` returned was not saved: the form keeps the user's entry, to apply again."""
    st.session_state[_k(key, "form")] = max(0, _form(key) - 1)


def _apply(live: LiveGame, key: str, entry: Callable[[], object]) -> GameState | None:
    """Run one entry; on a refusal show the engine's message and keep the game and the form."""
    try:
        entry()
    except RiskAnalyzerError as exc:
        st.error(plain(str(exc)))
        return None
    st.session_state[_k(key, "form")] = _form(key) + 1
    return live.state


def _selectbox(label: str, options: Sequence[T], format_func: Callable[[T], str], key: str) -> T | None:
    """``st.selectbox`` whose shown choice follows its label when the label changes (army counts after an entry).

    The browser holds a choice as its label. When an entry changes the labels
    ("Ukraine (8, Blue)" becomes "Ukraine (3, Blue)"), Streamlit keeps the
    choice but does not send the browser its new label, so the box goes on
    showing the old one, and sends it back with the next press, when it no
    longer matches an option and the choice falls to the first one.
    Re-stating the choice through ``st.session_state`` before the widget is
    drawn makes Streamlit send the current label with it.
    """
    if key in st.session_state and st.session_state[key] in options:
        st.session_state[key] = st.session_state[key]
    return st.selectbox(label, options, format_func=format_func, key=key)


def _territory_label(game: GameState, names: list[str]) -> Callable[[int], str]:
    def label(t: int) -> str:
        owner = int(game.owner[t])
        who = names[owner] if owner >= 0 else "unclaimed"
        return f"{game.board.territories[t]} ({int(game.armies[t])}, {who})"
    return label


def _card_label(game: GameState) -> Callable[[int], str]:
    def label(c: int) -> str:
        if c == NO_CARD:
            return "face down / not known"
        t = int(game.board.card_territory[c])
        symbol = SYMBOLS[int(game.board.card_symbols[c])]
        return f"{game.board.territories[t]} ({symbol})" if t >= 0 else f"wild ({c})"
    return label


def _parse_counts(text: str, game: GameState) -> dict[Territory, int]:
    """``"Ukraine 3, Ural 2"`` as ``{territory: armies}``; a bad part raises naming it."""
    out: dict[Territory, int] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, _, count = part.rpartition(" ")
        if not name or not count.isdigit():
            raise _EntryError(f"{part[:MAX_NAME_LENGTH]!r} is not a territory and a count, like 'Ukraine 3'")
        t = game.board.index(name.strip())
        out[t] = out.get(t, 0) + int(count)
    return out


class _EntryError(RiskAnalyzerError):
    """A panel entry that cannot even be read (the engine never saw it)."""


# ------------------------------------------------------------------------------------ starting
def _start_form(key: str) -> GameState | None:
    st.subheader("Start a live game")
    text = st.text_input("Players, in seat order (comma-separated)", "Red, Blue, Green", key=_k(key, "names"))
    names = [shortened(n, MAX_NAME_LENGTH) for n in text.split(",") if n.strip()]
    if len(names) not in PLAYER_COUNTS:
        st.error(plain(f"a game has {PLAYER_COUNT_TEXT} players, got {len(names)}"))
        return None
    first = _selectbox("Goes first", range(len(names)), lambda p: names[p], _k(key, "first"))
    me = _selectbox("You are", [None, *range(len(names))], lambda p: "nobody (every card face down)" if p is None else names[p],
                    _k(key, "me"))
    how = st.radio("Territories", [CLAIM_ONE_BY_ONE, ENTER_BY_PLAYER, RANDOM_DEAL], key=_k(key, "how"))
    deal = _deal_pickers(names, key) if how == ENTER_BY_PLAYER else None
    if not st.button("Start", key=_k(key, "start"), width="stretch", type="primary"):
        return None
    rng = np.random.default_rng()
    try:
        if how == RANDOM_DEAL:
            live = LiveGame.random(names, rng, me=me)
        else:
            live = LiveGame.start(names, first=int(first or 0), me=me, seed=int(rng.integers(2**31)),
                                  deal=None if deal is None else _deal_of(deal, len(names)))
    except RiskAnalyzerError as exc:
        st.error(plain(str(exc)))
        return None
    return live.state


def _deal_pickers(names: list[str], key: str) -> list[list[int]]:
    """One searchable list per force (the neutral too, in a 2-player game) of the territories it holds."""
    board = classic_board()
    owners = names + ["Neutral"] * (forces(len(names)) - len(names))
    return [st.multiselect(f"{name}'s territories", range(board.n_territories), format_func=lambda t: board.territories[t],
                           key=_k(key, f"deal_{i}")) for i, name in enumerate(owners)]


def _deal_of(picked: list[list[int]], n_players: int) -> list[int]:
    """The owner of every territory from each force's picks; a territory picked twice or by nobody is named."""
    board = classic_board()
    owner = [-1] * board.n_territories
    for force, territories in enumerate(picked):
        for t in territories:
            if owner[t] >= 0:
                raise _EntryError(f"{board.territories[t]} is picked for two players")
            owner[t] = force
    missing = [board.territories[t] for t, o in enumerate(owner) if o < 0]
    if missing:
        raise _EntryError(f"{len(missing)} territories have no owner yet: {', '.join(missing[:5])}" +
                          (", ..." if len(missing) > 5 else ""))
    return owner


def _adopt_form(game: GameState, key: str) -> GameState | None:
    names = player_names(game)
    st.info("Follow this game live from here: each entry is checked by the rules, and can be undone.")
    me = st.selectbox("You are", [None, *range(game.n_players)], key=_k(key, "adopt_me"),
                      format_func=lambda p: "nobody (every card face down)" if p is None else names[p])
    if st.button("Follow this game live", key=_k(key, "adopt"), width="stretch", type="primary"):
        return LiveGame(game, me=me, seed=int(np.random.default_rng().integers(2**31))).state
    return None


# ------------------------------------------------------------------------------------ the entries
def _status(live: LiveGame, names: list[str]) -> None:
    s = live.state
    if s.is_terminal():
        st.success(plain(f"{names[s.winner or 0]} has won the game."))
        return
    parts = [f"Turn {s.round}", f"{names[s.player]} to play", s.phase.name.replace("_", " ").lower()]
    if s.phase == Phase.REINFORCE:
        parts.append(f"{s.pending} armies to place")
    st.markdown("**" + plain(" · ".join(parts)) + "**")
    alive = [p for p in range(s.n_players) if s.alive[p]]
    # Territories and continents held now, as the next turn pays them (cards aside).
    st.caption(plain("Next reinforcements: " + ", ".join(f"{names[p]} {s.reinforcements(p)}" for p in alive)))
    counts = live.card_counts()
    down = face_down.counts(s)
    st.caption(plain("Cards: " + ", ".join(f"{names[p]} {counts[p]}" + (f" ({down[p]} face down)" if down[p] else "")
                                           for p in range(s.n_players) if s.alive[p])))
    if live.me is not None:
        mine = live.known_hand(live.me)
        hidden = len(s.hand(live.me)) - len(mine)
        label = _card_label(s)
        text = ", ".join(label(c) for c in mine) or "none known"
        st.caption(plain(f"Your cards: {text}" + (f"; {hidden} to name" if hidden else "")))


def _entries(live: LiveGame, names: list[str], key: str) -> GameState | None:
    s = live.state
    phase = s.phase
    if phase == Phase.SETUP_CLAIM:
        return _claim(live, s, names, key)
    if phase == Phase.SETUP_PLACE:
        return _place_starting(live, s, names, key)
    new = _name_cards(live, s, key)
    if new is not None:
        return new
    if phase == Phase.REINFORCE:
        # No army is due while a trade forced mid-turn (after an elimination) is waiting.
        return _trade(live, s, names, key) or (_place(live, s, names, key) if s.pending else None)
    if phase == Phase.MOVE_IN:
        return _move_in(live, s, key)
    if phase in (Phase.ATTACK, Phase.FORTIFY):
        if phase == Phase.ATTACK:
            new = _battle(live, s, names, key)
            if new is not None:
                return new
        return _fortify_or_end(live, s, names, key)
    return None


def _claim(live: LiveGame, s: GameState, names: list[str], key: str) -> GameState | None:
    st.caption(plain(f"Tap a free territory on the map to claim it for {names[s.player]}."))
    for t in _map_taps(s, key):
        if s.owner[t] < 0:
            return _apply(live, key, lambda: live.claim(t))
        st.info(plain(f"{s.board.territories[t]} is already {names[int(s.owner[t])]}'s: tap a free territory"))
    if st.button("Deal the rest at random", key=_k(key, "deal_rest"), width="stretch",
                 help="Every territory still free is claimed in turn, in a random order."):
        return _apply(live, key, lambda: _deal_rest(live))
    with st.expander("Or pick it from a list"):
        free = s.territories_of(-1)
        t = st.selectbox(f"{names[s.player]} claims", free, format_func=lambda t: s.board.territories[t],
                         key=_k(key, "claim"))
        if st.button("Claim", key=_k(key, "claim_go"), width="stretch", type="primary") and t is not None:
            return _apply(live, key, lambda: live.claim(int(t)))
    return None


def _deal_rest(live: LiveGame) -> None:
    for t in random_claims(live.state, np.random.default_rng()):
        live.claim(t)


def _map_taps(s: GameState, key: str) -> list[int]:
    """The territories tapped on the setup map (one continent at a time, which fits a phone's width).

    The map opens on the continent the next claim or army likely goes to, and
    follows the play from continent to continent until the user picks one.
    """
    continents = s.board.continents
    likely = likely_continent(s)
    chosen, auto = _k(key, "map_of"), _k(key, "map_auto")
    if st.session_state.get(chosen, likely) == st.session_state.get(auto, likely):
        st.session_state[chosen] = likely
    st.session_state[auto] = likely
    shown = st.selectbox("Map of", [None, *range(len(continents))], key=chosen,
                         format_func=lambda c: "the whole world (scrolls on a phone)" if c is None else continents[c].name)
    colors = player_labels(s)[1] or list(PLAYER_COLORS[: s.n_players])
    spec = _claim_map_spec(s.to_json(history=False), tuple(player_names(s)), tuple(colors), shown)
    # Keyed by the entries made so far: after one the map starts with nothing selected, so the same
    # selection is not read again on the next run, and the next tap is always a change the chart reports.
    event = st.vega_lite_chart(spec=spec, key=_k(key, f"claim_map{len(s.history)}"), on_select="rerun",
                               selection_mode=PICK_SELECTION, width="content")
    return [s.board.index(name) for name in chart_picks(event["selection"], s.board)]


@st.cache_data(max_entries=8, show_spinner=False)
def _claim_map_spec(game_json: str, names: tuple[str, ...], colors: tuple[str, ...], continent: int | None) -> dict[str, Any]:
    # The spec, not the chart, is cached: converting an Altair chart costs more than the rest of the panel.
    game = GameState.from_json(game_json, trusted=True)
    forces = len(game.pool)
    colors = colors + (NEUTRAL_COLOR,) * (forces - len(colors))
    width = WORLD_MAP_WIDTH if continent is None else CONTINENT_MAP_WIDTH
    spec: dict[str, Any] = board_chart(game, names, colors, width=width, continent=continent).to_dict()
    return spec


def _place_starting(live: LiveGame, s: GameState, names: list[str], key: str) -> GameState | None:
    force = setup_force(s)
    left = ", ".join(f"{names[f]} {int(k)}" for f, k in enumerate(s.pool) if k)
    st.caption(plain(f"Starting armies left: {left}. Tap one of {names[force]}'s territories to put an army on it."))
    for t in _map_taps(s, key):
        if s.owner[t] == force:
            return _apply(live, key, lambda: live.place({t: 1}))
        st.info(plain(f"{s.board.territories[t]} is {names[int(s.owner[t])]}'s, and the next army is {names[force]}'s: "
                      f"tap one of {names[force]}'s territories"))
    if st.button("Spread the rest", key=_k(key, "spread_rest"), width="stretch",
                 help="Every player's armies still to place go one at a time on their territory holding the fewest."):
        return _apply(live, key, lambda: live.place_starting(spread_rest(live.state)))
    with st.expander("Or type them, one line per player"):
        texts = {}
        for f in range(len(s.pool)):
            texts[f] = st.text_input(f"{names[f]}: {int(s.pool[f])} to place, like 'Ukraine 5, Ural 3'",
                                     key=_k(key, f"start_{f}"))
        if st.button("Place starting armies", key=_k(key, "start_go"), width="stretch", type="primary"):
            def entry() -> None:
                live.place_starting({f: _parse_counts(t, s) for f, t in texts.items()})
            return _apply(live, key, entry)
    return None


def _name_cards(live: LiveGame, s: GameState, key: str) -> GameState | None:
    if live.me is None or not set(live.hidden) & set(s.hand(live.me)):
        return None
    unseen = sorted(set(live.hidden) | {int(c) for c in np.flatnonzero(s.card_loc == DECK)})
    cards = st.multiselect("Name your face-down cards", unseen, format_func=_card_label(s), key=_k(key, "name_cards"))
    if st.button("These are my cards", key=_k(key, "name_go"), width="stretch"):
        return _apply(live, key, lambda: live.name_cards([int(c) for c in cards]))
    return None


def _trade(live: LiveGame, s: GameState, names: list[str], key: str) -> GameState | None:
    if len(s.hand(s.player)) < 3:
        return None
    must = len(s.hand(s.player)) >= 5
    with st.container(border=True):
        st.write(plain(f"{names[s.player]} {'must trade' if must else 'may trade'} a set"))
        if s.player == live.me:
            choices = live.known_hand(s.player)
        else:
            choices = sorted(set(live.hidden) & set(s.hand(s.player)) |
                             {int(c) for c in np.flatnonzero(s.card_loc == DECK)} | set(live.known_hand(s.player)))
        cards = st.multiselect("Cards shown (leave empty for 'a set')", choices, format_func=_card_label(s),
                               key=_k(key, "trade_cards"), max_selections=3)
        bonus = st.selectbox("Extra armies on", [None, *s.territories_of(s.player)], key=_k(key, "trade_bonus"),
                             format_func=lambda t: "no card shows a territory of theirs" if t is None else s.board.territories[t])
        if st.button("Trade", key=_k(key, "trade_go"), width="stretch"):
            return _apply(live, key, lambda: live.trade([int(c) for c in cards], bonus))
    return None


def _place(live: LiveGame, s: GameState, names: list[str], key: str) -> GameState | None:
    mine = s.territories_of(s.player)
    label = _territory_label(s, names)
    t = _selectbox("Place on", mine, label, _k(key, "place_t"))
    if t is None:
        return None
    g = _form(key)
    k = whole_number("Armies", 1, s.pending, value=max(1, s.pending), key=_k(key, f"place_k{g}"))
    several = st.text_input("Or several at once, like 'Ukraine 3, Ural 2'", key=_k(key, f"place_many{g}"))
    if st.button("Place", key=_k(key, "place_go"), width="stretch", type="primary") and (k is not None or several.strip()):
        def entry() -> None:
            one: dict[Territory, int] = {int(t): int(k or 0)}
            live.place(_parse_counts(several, s) if several.strip() else one)
        return _apply(live, key, entry)
    return None


def _battle(live: LiveGame, s: GameState, names: list[str], key: str) -> GameState | None:
    label = _territory_label(s, names)
    with st.container(border=True):
        sources = [int(t) for t in s.attack_sources()]
        if not sources:
            return None
        src = _selectbox("Attack from", sources, label, _k(key, "from"))
        if src is None:
            return None
        targets = [int(t) for t in s.board.neighbors[src] if s.owner[t] != s.player]
        tgt = _selectbox("Attack", targets, label, _k(key, "to"))
        if tgt is None:
            return None
        # The counts start from the two stacks as they are, again after each entry and for each new pair.
        pair = f"{_form(key)}_{src}_{tgt}"
        a = whole_number("Armies left on the attacking territory", 1, int(s.armies[src]), value=int(s.armies[src]),
                         key=_k(key, f"a_left{pair}"))
        d = whole_number("Armies left on the defending territory (0: taken)", 0, int(s.armies[tgt]),
                         value=int(s.armies[tgt]), key=_k(key, f"d_left{pair}"))
        # A refused entry must not cut the panel short: widgets not drawn in a run lose what was typed.
        new = None
        if st.button("Record battle", key=_k(key, "battle_go"), width="stretch", type="primary") and None not in (a, d):
            new = _apply(live, key, lambda: live.battle(int(src), int(tgt), int(a or 0), int(d or 0)))
        with st.expander("Or roll by roll"):
            dice = whole_number("Attacker's dice", 1, 3, value=3, key=_k(key, f"r_ad{pair}"))
            ddice = whole_number("Defender's dice", 1, 3, value=2, key=_k(key, f"r_dd{pair}"))
            al = whole_number("Attacker lost", 0, 3, value=0, key=_k(key, f"r_al{pair}"))
            dl = whole_number("Defender lost", 0, 3, value=0, key=_k(key, f"r_dl{pair}"))
            rolled = (dice, ddice, al, dl)
            if st.button("Record roll", key=_k(key, "roll_go"), width="stretch") and None not in rolled:
                new = _apply(live, key, lambda: live.roll(int(src), int(tgt), *(int(x or 0) for x in rolled)))
    return new


def _move_in(live: LiveGame, s: GameState, key: str) -> GameState | None:
    lo, hi = s.move_range()
    assert s.move is not None
    where = s.board.territories[s.move[1]]
    k = whole_number(f"Armies moved into {where} ({lo} to {hi})", lo, hi, value=hi, key=_k(key, f"move_k{_form(key)}"))
    if st.button("Move in", key=_k(key, "move_go"), width="stretch", type="primary") and k is not None:
        return _apply(live, key, lambda: live.move_in(int(k or 0)))
    return None


def _fortify_or_end(live: LiveGame, s: GameState, names: list[str], key: str) -> GameState | None:
    card = NO_CARD
    if s.captured:
        drawn = sorted(set(live.hidden) | {int(c) for c in np.flatnonzero(s.card_loc == DECK)})
        card = st.selectbox("Card drawn at the end of the turn", [NO_CARD, *drawn], format_func=_card_label(s),
                            key=_k(key, "card"))
    drawn_card = None if card == NO_CARD else int(card)
    new = None
    label = _territory_label(s, names)
    with st.expander("Fortify", expanded=s.phase == Phase.FORTIFY):
        sources = [t for t in s.territories_of(s.player) if s.armies[t] > 1]
        src = _selectbox("Fortify from", sources, label, _k(key, "f_from"))
        if src is not None:
            targets = s.fortify_targets(int(src))
            tgt = _selectbox("to", targets, label, _k(key, "f_to"))
            k = whole_number("Armies moved", 1, int(s.armies[src]) - 1, value=1,
                             key=_k(key, f"f_k{_form(key)}_{src}_{tgt}"))
            go = st.button("Fortify (ends the turn)", key=_k(key, "f_go"), width="stretch")
            if go and tgt is not None and k is not None:
                new = _apply(live, key, lambda: live.fortify(int(src), int(tgt), int(k or 0), card=drawn_card))
    if st.button("End turn", key=_k(key, "end_go"), width="stretch", type="primary"):
        new = _apply(live, key, lambda: live.end_turn(card=drawn_card))
    return new


def _undo_redo(live: LiveGame, key: str) -> GameState | None:
    entries = live.entries
    if entries:
        last = entries[-1].kind
        if st.button(f"Undo ({last})", key=_k(key, "undo"), width="stretch"):
            return _apply(live, key, live.undo)
    if live.can_redo:
        if st.button("Redo", key=_k(key, "redo"), width="stretch"):
            return _apply(live, key, live.redo)
    return None


# ------------------------------------------------------------------------------------ history, log, luck
def _history(live: LiveGame, names: list[str], key: str) -> None:
    # Each part is drawn only while open (lazy expanders): the luck meter alone costs more than an entry.
    s = live.state
    log = st.expander("Log", key=_k(key, "log_open"), on_change="rerun")
    with log:
        if log.open:
            _log(s, key)
    n = len(live.entries)
    if n:
        earlier = st.expander("The board at an earlier entry", key=_k(key, "earlier_open"), on_change="rerun")
        with earlier:
            if earlier.open:
                _earlier(live, names, key)
    luck = st.expander("Luck meter", key=_k(key, "luck_open"), on_change="rerun")
    with luck:
        if luck.open:
            _luck(s, names)


def _log(s: GameState, key: str) -> None:
    lines = [x.text for x in log_lines(s)]
    # Newest first, as lines that wrap at a phone's width (a table would cut them off).
    with st.container(height=320):
        st.markdown("  \n".join(plain(t) for t in reversed(lines)) or "Nothing recorded yet.")
    st.download_button("Download the log (CSV)", log_csv(s), file_name="risk-log.csv", mime="text/csv",
                       key=_k(key, "csv"), width="stretch")


def _earlier(live: LiveGame, names: list[str], key: str) -> None:
    n = len(live.entries)
    k = whole_number(f"After entry (0 to {n})", 0, n, value=n, key=_k(key, f"at{n}"))
    if k is None:
        return
    then = live.board_at(k)
    board = pd.DataFrame({
        "territory": list(then.board.territories),
        "owner": [names[int(o)] if o >= 0 else "-" for o in then.owner],
        "armies": then.armies.tolist(),
    })
    st.caption(plain(f"Turn {then.round}, {names[then.player]} to play, {then.phase.name.replace('_', ' ').lower()}"))
    st.dataframe(board, hide_index=True, width="stretch")


def _luck(s: GameState, names: list[str]) -> None:
    table = luck_table(s)
    if not table["battles"].any():
        st.write("No battles yet.")
        return
    shown = pd.DataFrame({
        "player": table["name"],
        "lost (exp)": [f"{a} ({e:.1f})" for a, e in zip(table["lost"], table["expected lost"])],
        "killed (exp)": [f"{a} ({e:.1f})" for a, e in zip(table["destroyed"], table["expected destroyed"])],
        "luck %": table["percentile"].round(0).astype(int),
    })
    st.caption("luck %: the share of games with these same battles that would have gone worse for the player "
               "(exact, from the dice; 50 is average)")
    st.dataframe(shown, hide_index=True, width="stretch")
    series = luck_series(s)
    chart = series.pivot(index="turn", columns="player", values="percentile")
    chart.columns = [names[int(p)] for p in chart.columns]
    colors = player_labels(s)[1] or list(PLAYER_COLORS[: s.n_players])
    st.caption("Luck percentile after each turn (50: as the dice should go)")
    st.line_chart(chart, y_label="percentile", x_label="turn", color=[colors[int(p)] for p in sorted(set(series["player"]))])
    for p in range(s.n_players):
        lucky, unlucky = extreme_battles(s, p)
        for what, found in (("Luckiest", lucky), ("Unluckiest", unlucky)):
            if found is None:
                continue
            b, prob = found
            terr = s.board.territories
            lost, destroyed = (b.attacker_lost, b.defender_lost) if b.attacker == p else (b.defender_lost, b.attacker_lost)
            st.caption(plain(
                f"{what} battle for {names[p]}: turn {b.turn}, {names[b.attacker]}'s {terr[b.source]} ({b.attackers}) "
                f"on {names[b.defender]}'s {terr[b.target]} ({b.defenders}): {names[p]} lost {lost} and destroyed "
                f"{destroyed}; a result at least this {'good' if what == 'Luckiest' else 'bad'} has probability {prob:.1%}"
            ))


def record_view(game: GameState, names: list[str]) -> GameState | None:
    """The Record tab: follow the game as it is played at the table, entry by entry."""
    return render(game, "live")
