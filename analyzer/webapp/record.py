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

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, TypeVar

import numpy as np
import pandas as pd
import streamlit as st

from analyzer.analysis.log import log_csv, log_lines
from analyzer.analysis.luck import extreme_battle_notes, luck_series, luck_table
from analyzer.analysis.setup import likely_continent, random_claims, setup_force, spread_rest
from analyzer.errors import RiskAnalyzerError
from analyzer.game import face_down
from analyzer.game.board import Board, classic_board
from analyzer.game.labels import NEUTRAL_NAME, card_label, player_colors, player_names
from analyzer.game.state import GameState, turn_number
from analyzer.game.vocabulary import Phase, forces
from analyzer.game.wording import armies_text
from analyzer.live import LIVE_LABEL, LiveGame
from analyzer.plot import PICK_SELECTION, chart_picks, turn_chart
from analyzer.services.entries import (
    Blank,
    Count,
    EntryError,
    attack_sources,
    battle_counts,
    choice,
    counts_from_text,
    deal_owners,
    fortify_count,
    fortify_sources,
    move_in_count,
    place_count,
    roll_counts,
    table_names,
    trade_choices,
    unseen_cards,
)
from analyzer.services.saving import Saved
from analyzer.text import plain
from analyzer.webapp.cached import map_spec
from analyzer.webapp.inputs import count_field, whole_number
from analyzer.webapp.maps import map_of

T = TypeVar("T")

NO_CARD = -1
#: "You are": nobody. Not None, which a selectbox shows as no choice made ("Choose an option").
NOBODY = -1
#: The ways to start a game's territories.
CLAIM_ONE_BY_ONE = "claimed one at a time, as at the table"
ENTER_BY_PLAYER = "entered player by player (claimed or dealt)"
RANDOM_DEAL = "dealt at random, with armies placed"


def is_live(game: GameState) -> bool:
    """Whether ``game`` is followed live (recorded entry by entry through :class:`LiveGame`)."""
    return LIVE_LABEL in game.labels


#: What :func:`render` is handed to keep a new game: it is given the game and the version of the game the
#: entry was made on, and says whether it kept it (a refusal's message is shown at the entry).
Save = Callable[[GameState, "int | None"], Saved]


def render(game: GameState | None, key: str, save: Save, *, version: int | None = None) -> None:
    """Draw the live-game panel for ``game`` (None: the start form), shown at ``version`` of the stored game;
    an entry hands the new game to ``save``, against the version it was made on.

    ``key`` prefixes every widget key, so the panel can sit beside other
    widgets (and two panels beside each other). An entry is made by its
    button's callback, which Streamlit runs before the next run: the run that
    follows a tap draws the game the entry made, so one run answers a tap
    (a tap on the setup map is read before the panel is drawn, for the same
    reason). After an entry the counts of the form start again from the
    game's; an entry refused (by the rules, or by ``save``) shows its message
    under its button and the form keeps what was entered.
    """
    keep = _Keep(save, version)
    if game is None:
        _start_form(key, keep)
        return
    if LIVE_LABEL not in game.labels:
        _adopt_form(game, key, keep)
        return
    try:
        live = LiveGame(game)
    except RiskAnalyzerError as exc:
        # The record no longer matches the game (it was edited elsewhere): follow it afresh from here.
        st.error(plain(f"{exc}. The game is kept; its undo list cannot be."))
        fresh = game.copy()
        fresh.labels.pop(LIVE_LABEL)
        _adopt_form(fresh, key, keep)
        return
    tapped = _map_tap(live, key, keep)
    if tapped is not None:
        live, keep = LiveGame(tapped.game), _Keep(save, tapped.version)
    names = player_names(live.state)
    _status(live, names)
    _entries(live, names, key, keep)
    _undo_redo(live, key, keep)
    _said(key, None)
    _history(live, names, key)


# ------------------------------------------------------------------------------------ helpers
def _k(key: str, name: str) -> str:
    return f"{key}:{name}"


def _form(key: str) -> int:
    """The form's generation: part of the keys of its counts, so that a new one starts from the game's counts."""
    return int(st.session_state.get(_k(key, "form"), 0))


class _Keep:
    """The panel's ``save``, with the version of the stored game the panel shows: each entry is kept against it."""

    def __init__(self, save: Save, version: int | None) -> None:
        self.save, self.version = save, version

    def __call__(self, game: GameState) -> Saved:
        return self.save(game, self.version)


class _Kept(NamedTuple):
    """An entry kept: the game it made, and that game's stored version."""

    game: GameState
    version: int | None


def _read(count: Count, name: str) -> int:
    """The number the field ``name`` (drawn by :func:`~analyzer.webapp.inputs.count_field`) holds now, or :class:`Blank`."""
    return count.read(st.session_state.get(name, count.start))


def _chosen(name: str, options: Sequence[T]) -> T | None:
    """The option the box ``name`` stands for now: its value if it still is an option; else, for a box drawn by
    :func:`_selectbox`, the choice last drawn, if still an option; else the first one.

    An entry's callback and the run that draws the box read the choice here alike, so a label the browser sent
    before it had the new ones (see :func:`_selectbox`) makes the entry on the territory the box showed, not on
    the first one.
    """
    return choice([st.session_state.get(name), st.session_state.get(_kept_choice(name))], options)


def _kept_choice(name: str) -> str:
    """Where :func:`_selectbox` keeps the choice it last drew in the box ``name``."""
    return f"{name}~kept"


def _enter(key: str, anchor: str, game: GameState, keep: _Keep, entry: Callable[[LiveGame], object]) -> _Kept | None:
    """Make one entry on ``game`` and hand the new game to ``keep``; return it, or None when nothing was kept.

    A refusal (by the rules or by the store) is kept for the next run to show
    under the ``anchor`` button, and the form keeps the entry.
    """
    live = LiveGame(game)
    try:
        entry(live)
    except Blank:
        return None
    except RiskAnalyzerError as exc:
        _say(key, anchor, str(exc))
        return None
    saved = keep(live.state)
    if saved.refused:
        _say(key, anchor, saved.refused)
        return None
    if saved.problem:
        # Kept in the page, not stored: said at the entry, which a rerun of this view alone would not show at the top.
        _say(key, anchor, f"Not saved: {saved.problem}")
    st.session_state[_k(key, "form")] = _form(key) + 1
    return _Kept(live.state, saved.stored.version if saved.stored is not None else keep.version)


def _button(
    label: str, key: str, name: str, game: GameState, keep: _Keep, entry: Callable[[LiveGame], object], **kw: Any
) -> None:
    """A full-width button whose tap makes ``entry`` (by its callback), with the message of its last refusal under it.

    A tap that comes while the page's first run is still going can reach the
    next run without its callback (Streamlit keeps the callbacks of finished
    runs): the button then reads as pressed, and the entry is made here, the
    page drawn again after it.
    """
    ran = _k(key, f"ran:{name}")
    pressed = st.button(
        label, key=_k(key, name), width="stretch", on_click=_entered, args=(key, name, game, keep, entry), **kw
    )
    if pressed and not st.session_state.pop(ran, False) and _enter(key, name, game, keep, entry) is not None:
        st.rerun()
    st.session_state.pop(ran, None)
    _said(key, name)


def _entered(key: str, name: str, game: GameState, keep: _Keep, entry: Callable[[LiveGame], object]) -> None:
    """The callback of an entry's button: the entry, noted as made (see :func:`_button`)."""
    st.session_state[_k(key, f"ran:{name}")] = True
    _enter(key, name, game, keep, entry)


def _say(key: str, anchor: str, message: str, *, refused: bool = True) -> None:
    st.session_state[_k(key, "said")] = (anchor, plain(message), refused)


def _said(key: str, anchor: str | None) -> None:
    """Show the message kept for ``anchor`` (None: any still unshown, as the panel ends), once."""
    kept = st.session_state.get(_k(key, "said"))
    if kept is None or anchor not in (None, kept[0]):
        return
    del st.session_state[_k(key, "said")]
    (st.error if kept[2] else st.info)(kept[1])


def _selectbox(label: str, options: Sequence[T], format_func: Callable[[T], str], key: str) -> T | None:
    """``st.selectbox`` whose shown choice follows its label when the label changes (army counts after an entry).

    The browser holds a choice as its label. When an entry changes the labels
    ("Ukraine (8, Blue)" becomes "Ukraine (3, Blue)"), Streamlit keeps the
    choice but does not send the browser its new label, so the box goes on
    showing the old one, and sends it back with the next press, when it no
    longer matches an option and the choice would fall to the first one.
    Re-stating the choice through ``st.session_state`` before the widget is
    drawn makes Streamlit send the current label with it. It is re-stated
    only then (or when the choice was read from the kept one): a re-stated
    choice is sent to the browser even when unchanged, and a run that began
    before the user's pick arrived would send back the choice it replaced.

    The choice is also kept beside the widget, so that it survives the runs
    in which the box is not drawn (Streamlit forgets a widget's state then):
    after a capture's move-in, the next battle starts from the same territory.
    The kept choice also stands when the browser sends a label that is no
    longer an option (sent before the new labels reached it): :func:`_chosen`
    reads it so for the entry's callback and for the drawing alike.
    """
    shown = f"{key}~label"
    choice = _chosen(key, options)
    if choice is not None and (
        st.session_state.get(key) != choice or format_func(choice) != st.session_state.get(shown)
    ):
        st.session_state[key] = choice
    value = st.selectbox(label, options, format_func=format_func, key=key)
    st.session_state[_kept_choice(key)] = value
    st.session_state[shown] = None if value is None else format_func(value)
    return value


def _territory_label(game: GameState, names: list[str]) -> Callable[[int], str]:
    def label(t: int) -> str:
        owner = int(game.owner[t])
        who = names[owner] if owner >= 0 else "unclaimed"
        return f"{game.board.territories[t]} ({int(game.armies[t])}, {who})"

    return label


def _card_label(game: GameState) -> Callable[[int], str]:
    def label(c: int) -> str:
        return "face down / not known" if c == NO_CARD else card_label(game.board, c)

    return label


# ------------------------------------------------------------------------------------ starting
def _start_form(key: str, keep: _Keep) -> None:
    st.subheader("Start a live game")
    text = st.text_input("Players, in seat order (comma-separated)", "Red, Blue, Green", key=_k(key, "names"))
    try:
        names = table_names(text)
    except EntryError as exc:
        st.error(plain(str(exc)))
        return
    first = _selectbox("Goes first", range(len(names)), lambda p: names[p], _k(key, "first"))
    me = _you_are(_selectbox("You are", [NOBODY, *range(len(names))], _seat_label(names), _k(key, "me")))
    # Two players are dealt their territories, a third pile the neutral army's: nobody claims them one at a time.
    ways = [ENTER_BY_PLAYER, RANDOM_DEAL] if len(names) == 2 else [CLAIM_ONE_BY_ONE, ENTER_BY_PLAYER, RANDOM_DEAL]
    how = st.radio("Territories", ways, key=_k(key, "how"))
    if len(names) == 2:
        st.caption("A 2-player game deals the territories in three piles: the two players' and the neutral army's.")
    # A game at the table is played on the classic map; the deal is picked on the board the game is made on.
    board = classic_board()
    deal = _deal_pickers(names, board, key) if how == ENTER_BY_PLAYER else None
    if not st.button("Start", key=_k(key, "start"), width="stretch", type="primary"):
        return
    rng = np.random.default_rng()
    try:
        if how == RANDOM_DEAL:
            live = LiveGame.random(names, rng, me=me, first=int(first or 0))
        else:
            live = LiveGame.start(
                names,
                first=int(first or 0),
                me=me,
                seed=int(rng.integers(2**31)),
                deal=None if deal is None else deal_owners(deal, board),
                board=board,
            )
    except RiskAnalyzerError as exc:
        st.error(plain(str(exc)))
        return
    _kept(keep, live.state)


def _kept(keep: _Keep, game: GameState) -> None:
    """Keep a game made in this run (a start, an adoption) and draw the page again with it."""
    saved = keep(game)
    if saved.refused:
        st.error(plain(saved.refused))
        return
    st.rerun()


def _seat_label(names: list[str]) -> Callable[[int], str]:
    return lambda p: "nobody (every card face down)" if p == NOBODY else names[p]


def _you_are(picked: int | None) -> int | None:
    """The user's seat from the "You are" box: None for nobody."""
    return None if picked is None or picked == NOBODY else int(picked)


def _deal_pickers(names: list[str], board: Board, key: str) -> list[list[int]]:
    """One searchable list per force (the neutral too, in a 2-player game) of the territories it holds."""
    owners = names + [NEUTRAL_NAME] * (forces(len(names)) - len(names))
    return [
        st.multiselect(
            f"{name}'s territories",
            range(board.n_territories),
            format_func=lambda t: board.territories[t],
            key=_k(key, f"deal_{i}"),
        )
        for i, name in enumerate(owners)
    ]


def _adopt_form(game: GameState, key: str, keep: _Keep) -> None:
    names = player_names(game)
    st.info("Follow this game live from here: each entry is checked by the rules, and can be undone.")
    me = _you_are(
        st.selectbox(
            "You are", [NOBODY, *range(game.n_players)], key=_k(key, "adopt_me"), format_func=_seat_label(names)
        )
    )
    if st.button("Follow this game live", key=_k(key, "adopt"), width="stretch", type="primary"):
        _kept(keep, LiveGame(game, me=me, seed=int(np.random.default_rng().integers(2**31))).state)


# ------------------------------------------------------------------------------------ the entries
def _status(live: LiveGame, names: list[str]) -> None:
    s = live.state
    if s.is_terminal():
        st.success(plain(f"{names[s.winner or 0]} has won the game."))
        return
    parts = [f"Turn {turn_number(s)}", f"{names[s.player]} to play", s.phase.name.replace("_", " ").lower()]
    if s.phase == Phase.REINFORCE:
        parts.append(f"{armies_text(s.pending)} to place")
    st.markdown("**" + plain(" · ".join(parts)) + "**")
    alive = [p for p in range(s.n_players) if s.alive[p]]
    # Territories and continents held now, as the next turn pays them (cards aside).
    st.caption(plain("Next reinforcements: " + ", ".join(f"{names[p]} {s.reinforcements(p)}" for p in alive)))
    counts = live.card_counts()
    down = face_down.counts(s)
    st.caption(
        plain(
            "Cards: "
            + ", ".join(
                f"{names[p]} {counts[p]}" + (f" ({down[p]} face down)" if down[p] else "")
                for p in range(s.n_players)
                if s.alive[p]
            )
        )
    )
    if live.me is not None:
        mine = live.known_hand(live.me)
        hidden = len(s.hand(live.me)) - len(mine)
        label = _card_label(s)
        text = ", ".join(label(c) for c in mine) or "none known"
        # By name, not "your": every phone of the game shows the hand the game follows, and it is one seat's.
        st.caption(plain(f"{names[live.me]}'s cards: {text}" + (f"; {hidden} to name" if hidden else "")))


def _entries(live: LiveGame, names: list[str], key: str, keep: _Keep) -> None:
    s = live.state
    phase = s.phase
    if phase == Phase.SETUP_CLAIM:
        _claim(s, names, key, keep)
    elif phase == Phase.SETUP_PLACE:
        _place_starting(s, names, key, keep)
    elif phase == Phase.REINFORCE:
        # No army is due while a trade forced mid-turn (after an elimination) is waiting.
        _trade(live, s, names, key, keep)
        if s.pending:
            _place(s, names, key, keep)
    elif phase == Phase.MOVE_IN:
        _move_in(s, key, keep)
    elif phase in (Phase.ATTACK, Phase.FORTIFY):
        if phase == Phase.ATTACK:
            _battle(s, names, key, keep)
        _fortify_or_end(live, s, names, key, keep)
    _name_cards(live, s, names, key, keep)


def _map_tap(live: LiveGame, key: str, keep: _Keep) -> _Kept | None:
    """The entry of a tap on the setup map, made before the panel is drawn; the new game, or None.

    The map's tap is read from its state before anything is drawn, so the run
    the tap starts draws the claim or the army it made. A tap that makes no
    entry says why (the next army is another player's, the territory is taken).
    """
    s = live.state
    if s.phase not in (Phase.SETUP_CLAIM, Phase.SETUP_PLACE):
        return None
    event = st.session_state.get(_map_key(s, key))
    picks = chart_picks(event["selection"], s.board) if isinstance(event, Mapping) and "selection" in event else []
    names = player_names(s)
    for name in picks:
        t = s.board.index(name)
        if s.phase == Phase.SETUP_CLAIM:
            if s.owner[t] < 0:
                return _enter(key, "map", s, keep, lambda live: live.claim(t))
            _say(key, "map", f"{name} is already {names[int(s.owner[t])]}'s: tap a free territory", refused=False)
            continue
        force = setup_force(s)
        if s.owner[t] == force:
            return _enter(key, "map", s, keep, lambda live: live.place({t: 1}))
        _say(
            key,
            "map",
            f"{name} is {names[int(s.owner[t])]}'s, and the next army is {names[force]}'s: "
            f"tap one of {names[force]}'s territories",
            refused=False,
        )
    return None


def _map_key(s: GameState, key: str) -> str:
    # Keyed by the entries made so far: after one the map starts with nothing selected, so the same
    # selection is not read again on the next run, and the next tap is always a change the chart reports.
    return _k(key, f"claim_map{len(s.history)}")


def _claim(s: GameState, names: list[str], key: str, keep: _Keep) -> None:
    st.caption(plain(f"Tap a free territory on the map to claim it for {names[s.player]}."))
    _map(s, key)
    _button(
        "Deal the rest at random",
        key,
        "deal_rest",
        s,
        keep,
        _deal_rest,
        help="Every territory still free is claimed in turn, in a random order.",
    )
    with st.expander("Or pick it from a list"):
        free = s.territories_of(-1)
        st.selectbox(
            f"{names[s.player]} claims", free, format_func=lambda t: s.board.territories[t], key=_k(key, "claim")
        )

        def entry(live: LiveGame) -> None:
            t = _chosen(_k(key, "claim"), free)
            if t is None:
                raise Blank
            live.claim(int(t))

        _button("Claim", key, "claim_go", s, keep, entry, type="primary")


def _deal_rest(live: LiveGame) -> None:
    live.claim_all(random_claims(live.state, np.random.default_rng()))


def _map(s: GameState, key: str) -> None:
    """The setup map to tap (one continent at a time, which fits a phone's width), and what the last tap said.

    The map opens on the continent the next claim or army likely goes to, and
    follows the play from continent to continent until the user picks one.
    """
    likely = likely_continent(s)
    chosen, auto = _k(key, "map_of"), _k(key, "map_auto")
    if st.session_state.get(chosen, likely) == st.session_state.get(auto, likely):
        st.session_state[chosen] = likely
    st.session_state[auto] = likely
    shown = map_of(s.board, chosen)
    colors = player_colors(s, neutral=True)
    spec = map_spec(s.to_json(history=False), tuple(player_names(s)), tuple(colors), continent=shown)
    st.vega_lite_chart(
        spec=spec, key=_map_key(s, key), on_select="rerun", selection_mode=PICK_SELECTION, width="content"
    )
    _said(key, "map")


def _place_starting(s: GameState, names: list[str], key: str, keep: _Keep) -> None:
    force = setup_force(s)
    left = ", ".join(f"{names[f]} {int(k)}" for f, k in enumerate(s.pool) if k)
    st.caption(plain(f"Starting armies left: {left}. Tap one of {names[force]}'s territories to put an army on it."))
    _map(s, key)
    _button(
        "Spread the rest",
        key,
        "spread_rest",
        s,
        keep,
        lambda live: live.place_starting(spread_rest(live.state)),
        help="Every player's armies still to place go one at a time on their territory holding the fewest.",
    )
    with st.expander("Or type them, one line per player"):
        for f in range(len(s.pool)):
            st.text_input(f"{names[f]}: {int(s.pool[f])} to place, like 'Ukraine 5, Ural 3'", key=_k(key, f"start_{f}"))

        def entry(live: LiveGame) -> None:
            live.place_starting(
                {
                    f: counts_from_text(st.session_state.get(_k(key, f"start_{f}"), ""), s.board)
                    for f in range(len(s.pool))
                }
            )

        _button("Place starting armies", key, "start_go", s, keep, entry, type="primary")


def _name_cards(live: LiveGame, s: GameState, names: list[str], key: str, keep: _Keep) -> None:
    """The face-down cards of the hand the game follows ("You are") to name, when there are any: after the entries,
    folded, the seat called by its name.

    Naming them is optional: a card left face down is still a card of the hand (the game goes on with it
    unknown), so the form never stands between the table and its next entry.
    """
    if live.me is None:
        return
    hidden = len(set(live.hidden) & set(s.hand(live.me)))
    if not hidden:
        return
    unseen = unseen_cards(s)
    name = names[live.me]
    with st.expander(plain(f"Name {name}'s face-down cards ({hidden} to name, optional)")):
        st.multiselect(plain(f"{name}'s cards"), unseen, format_func=_card_label(s), key=_k(key, "name_cards"))
        _button(
            plain(f"These are {name}'s cards"),
            key,
            "name_go",
            s,
            keep,
            lambda live: live.name_cards([int(c) for c in st.session_state.get(_k(key, "name_cards"), [])]),
        )


def _trade(live: LiveGame, s: GameState, names: list[str], key: str, keep: _Keep) -> None:
    if len(s.hand(s.player)) < 3:
        return
    must = len(s.hand(s.player)) >= 5
    with st.container(border=True):
        st.write(plain(f"{names[s.player]} {'must trade' if must else 'may trade'} a set"))
        choices = trade_choices(s, own=s.player == live.me)
        st.multiselect(
            "Cards shown (leave empty for 'a set')",
            choices,
            format_func=_card_label(s),
            key=_k(key, "trade_cards"),
            max_selections=3,
        )
        bonuses = [None, *s.territories_of(s.player)]
        st.selectbox(
            "Extra armies on",
            bonuses,
            key=_k(key, "trade_bonus"),
            format_func=lambda t: "their own on a card shown, if one is" if t is None else s.board.territories[t],
        )

        def entry(live: LiveGame) -> None:
            cards = [int(c) for c in st.session_state.get(_k(key, "trade_cards"), [])]
            live.trade(cards, _chosen(_k(key, "trade_bonus"), bonuses))

        _button("Trade", key, "trade_go", s, keep, entry)


def _place(s: GameState, names: list[str], key: str, keep: _Keep) -> None:
    mine = s.territories_of(s.player)
    t = _selectbox("Place on", mine, _territory_label(s, names), _k(key, "place_t"))
    if t is None:
        return
    g = _form(key)
    armies, count, many = place_count(s), _k(key, f"place_k{g}"), _k(key, f"place_many{g}")
    count_field(armies, count)
    st.text_input("Or several at once, like 'Ukraine 3, Ural 2'", key=many)

    def entry(live: LiveGame) -> None:
        several = str(st.session_state.get(many, ""))
        if several.strip():
            live.place(counts_from_text(several, s.board))
            return
        where = _chosen(_k(key, "place_t"), mine)
        if where is None:
            raise Blank
        live.place({int(where): _read(armies, count)})

    _button("Place", key, "place_go", s, keep, entry, type="primary")


def _battle(s: GameState, names: list[str], key: str, keep: _Keep) -> None:
    label = _territory_label(s, names)
    with st.container(border=True):
        sources = attack_sources(s)
        src = _selectbox("Attack from", sources, label, _k(key, "from"))
        if src is None:
            return
        tgt = _selectbox("Attack", s.attack_targets(src), label, _k(key, "to"))
        if tgt is None:
            return
        # The counts start from the two stacks as they are, again after each entry and for each new pair.
        for count, name in _battle_fields(s, key, src, tgt):
            count_field(count, name)
        _button("Record battle", key, "battle_go", s, keep, lambda live: _record_battle(live, key), type="primary")
        with st.expander("Or roll by roll"):
            for count, name in _roll_fields(s, key, src, tgt):
                count_field(count, name)
            _button("Record roll", key, "roll_go", s, keep, lambda live: _record_battle(live, key, roll=True))


def _battle_fields(s: GameState, key: str, src: int, tgt: int) -> list[tuple[Count, str]]:
    """A whole battle's count fields and their keys, new for each pair and after each entry (so they start from
    the stacks)."""
    return [(c, _k(key, f"{c.name}{_form(key)}_{src}_{tgt}")) for c in battle_counts(s, src, tgt)]


def _roll_fields(s: GameState, key: str, src: int, tgt: int) -> list[tuple[Count, str]]:
    """One roll's count fields and their keys (as :func:`_battle_fields`)."""
    return [(c, _k(key, f"{c.name}{_form(key)}_{src}_{tgt}")) for c in roll_counts(s, src, tgt)]


def _record_battle(live: LiveGame, key: str, *, roll: bool = False) -> None:
    """The battle (or one roll) the fields hold now, as :func:`_battle` draws them."""
    s = live.state
    src = _chosen(_k(key, "from"), attack_sources(s))
    tgt = None if src is None else _chosen(_k(key, "to"), s.attack_targets(src))
    if src is None or tgt is None:
        raise Blank
    if roll:
        attacker_dice, defender_dice, attacker_lost, defender_lost = (
            _read(c, name) for c, name in _roll_fields(s, key, src, tgt)
        )
        live.roll(src, tgt, attacker_dice, defender_dice, attacker_lost, defender_lost)
        return
    attackers_left, defenders_left = (_read(c, name) for c, name in _battle_fields(s, key, src, tgt))
    live.battle(src, tgt, attackers_left, defenders_left)


def _move_in(s: GameState, key: str, keep: _Keep) -> None:
    moved, field = move_in_count(s), _k(key, f"move_k{_form(key)}")
    count_field(moved, field)
    _button("Move in", key, "move_go", s, keep, lambda live: live.move_in(_read(moved, field)), type="primary")


def _fortify_or_end(live: LiveGame, s: GameState, names: list[str], key: str, keep: _Keep) -> None:
    cards = [NO_CARD]
    if s.captured:
        cards += unseen_cards(s)
        st.selectbox("Card drawn at the end of the turn", cards, format_func=_card_label(s), key=_k(key, "card"))

    def drawn() -> int | None:
        card = _chosen(_k(key, "card"), cards)
        return None if card in (None, NO_CARD) else int(card)

    label = _territory_label(s, names)
    sources = fortify_sources(s)
    with st.expander("Fortify", expanded=s.phase == Phase.FORTIFY):
        src = _selectbox("Fortify from", sources, label, _k(key, "f_from"))
        if src is not None:
            tgt = _selectbox("to", s.fortify_targets(int(src)), label, _k(key, "f_to"))
            count_field(*_fortify_field(s, key, src, tgt))

            def entry(live: LiveGame) -> None:
                source = _chosen(_k(key, "f_from"), sources)
                target = None if source is None else _chosen(_k(key, "f_to"), s.fortify_targets(source))
                if source is None or target is None:
                    raise Blank
                live.fortify(source, target, _read(*_fortify_field(s, key, source, target)), card=drawn())

            _button("Fortify (ends the turn)", key, "f_go", s, keep, entry)
    _button("End turn", key, "end_go", s, keep, lambda live: live.end_turn(card=drawn()), type="primary")


def _fortify_field(s: GameState, key: str, src: int, tgt: int | None) -> tuple[Count, str]:
    """The fortify's count field and its key, new for each pair and after each entry."""
    return fortify_count(s, src), _k(key, f"f_k{_form(key)}_{src}_{tgt}")


def _undo_redo(live: LiveGame, key: str, keep: _Keep) -> None:
    s = live.state
    entries = live.entries
    if entries:
        _button(f"Undo ({entries[-1].kind})", key, "undo", s, keep, lambda live: live.undo())
    if live.can_redo:
        _button("Redo", key, "redo", s, keep, lambda live: live.redo())


# ------------------------------------------------------------------------------------ history, log, luck
def _history(live: LiveGame, names: list[str], key: str) -> None:
    # Each part is drawn only while open (lazy expanders): the luck meter alone costs more than an entry.
    s = live.state
    if s.phase not in (Phase.SETUP_CLAIM, Phase.SETUP_PLACE):  # the setup has its own map, to tap
        board = st.expander("Map", key=_k(key, "board_open"), on_change="rerun")
        with board:
            if board.open:
                _board_map(s, names, key)
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


def _board_map(s: GameState, names: list[str], key: str) -> None:
    """The board as it stands, one continent at a time (it fits a phone) or the whole world; opens on the
    continent where the player to move holds the most territories."""
    held = [sum(int(s.owner[t]) == s.player for t in c.territories) for c in s.board.continents]
    shown = map_of(s.board, _k(key, "board_map_of"), index=1 + held.index(max(held)))
    colors = player_colors(s, neutral=True)
    spec = map_spec(s.to_json(history=False), tuple(names), tuple(colors), continent=shown)
    with st.container(key=_k(key, "board_map")):
        st.vega_lite_chart(spec=spec, width="content")


def _log(s: GameState, key: str) -> None:
    lines = [x.text for x in log_lines(s)]
    # Newest first, as lines that wrap at a phone's width (a table would cut them off).
    with st.container(height=320):
        st.markdown("  \n".join(plain(t) for t in reversed(lines)) or "Nothing recorded yet.")
    st.download_button(
        "Download the log (CSV)",
        log_csv(s),
        file_name="risk-log.csv",
        mime="text/csv",
        key=_k(key, "csv"),
        width="stretch",
    )


def _earlier(live: LiveGame, names: list[str], key: str) -> None:
    n = len(live.entries)
    k = whole_number(f"After entry (0 to {n})", 0, n, value=n, key=_k(key, f"at{n}"))
    if k is None:
        return
    then = live.board_at(k)
    board = pd.DataFrame(
        {
            "territory": list(then.board.territories),
            "owner": [names[int(o)] if o >= 0 else "-" for o in then.owner],
            "armies": then.armies.tolist(),
        }
    )
    st.caption(
        plain(f"Turn {turn_number(then)}, {names[then.player]} to play, {then.phase.name.replace('_', ' ').lower()}")
    )
    st.dataframe(board, hide_index=True, width="stretch")


def _luck(s: GameState, names: list[str]) -> None:
    table = luck_table(s)
    if not table["battles"].any():
        st.write("No battles yet.")
        return
    shown = pd.DataFrame(
        {
            "player": table["name"],
            "lost (exp)": [f"{a} ({e:.1f})" for a, e in zip(table["lost"], table["expected lost"])],
            "killed (exp)": [f"{a} ({e:.1f})" for a, e in zip(table["destroyed"], table["expected destroyed"])],
            "luck %": table["percentile"].round(0).astype(int),
        }
    )
    st.caption(
        "luck %: the share of games with these same battles that would have gone worse for the player "
        "(exact, from the dice; 50 is average)"
    )
    st.dataframe(shown, hide_index=True, width="stretch")
    series = luck_series(s).assign(name=lambda f: [names[int(p)] for p in f["player"]])
    st.caption("Luck percentile after each turn (50: as the dice should go)")
    st.altair_chart(
        turn_chart(series, "percentile", "percentile", names[: s.n_players], player_colors(s)[: s.n_players], (0, 100)),
        width="stretch",
    )
    for p in range(s.n_players):
        for note in extreme_battle_notes(s, p, names):
            st.caption(plain(note))
