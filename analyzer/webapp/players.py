"""The Players & cards tab: names, colours, the player to move, the cards."""

from __future__ import annotations

import streamlit as st

from analyzer.analysis.position import new_game_from_position, with_player_labels
from analyzer.analysis.standing import living_players
from analyzer.errors import RiskAnalyzerError
from analyzer.game import face_down
from analyzer.game.labels import PLAYER_COLORS, card_label, player_colors, player_names, seat_name
from analyzer.game.state import GameState, turn_number
from analyzer.limits import MAX_NAME_LENGTH
from analyzer.live import LIVE_LABEL, LiveGame, corrected
from analyzer.services.entries import Blank, face_down_count, sets_traded_count
from analyzer.services.saving import unchanged
from analyzer.text import counted, plain
from analyzer.webapp.inputs import count_field
from analyzer.webapp.session import (
    CARRIED,
    GAME,
    GAME_NAME,
    PLAYERS_ERROR,
    STORE_ERROR,
    commit,
    edit_key,
    game_key,
    new_game,
    say_unchanged,
    unchanged_note,
)


def players_view(game: GameState, names: list[str]) -> None:
    board = game.board
    st.caption("Names and colours")
    colors = player_colors(game)
    for p in range(game.n_players):
        name_col, color_col = st.columns([4, 1])
        name_col.text_input(
            f"Name of seat {p + 1}",
            value=names[p],
            key=game_key(f"name{p}"),
            max_chars=MAX_NAME_LENGTH,
            on_change=apply_labels,
        )
        color_col.color_picker("Colour", value=colors[p], key=game_key(f"color{p}"), on_change=apply_labels)
    if len(set(names)) < len(names):
        st.warning("Two players have the same name; the tables will not tell them apart.")
    alive = living_players(game)
    if game.history:
        # A recorded game's entries say whose turn it is and how many sets were traded; a correction cannot.
        st.caption(
            plain(
                f"{names[game.player]} to play; {counted(game.sets_traded, 'set', 'sets')} traded so far (the next is worth "
                f"{game.next_set_value()}). The entries recorded say both: record or undo entries to change "
                "them, or start over from this position below."
            )
        )
    else:
        st.selectbox(
            "Player to move",
            alive,
            index=alive.index(game.player) if game.player in alive else 0,
            format_func=lambda p: names[p],
            key=edit_key("to_move", game.player if game.player in alive else alive[0]),
        )
        count_field(
            sets_traded_count(game),
            edit_key("sets_traded", sets_traded_count(game).start),
            help=f"The next set is worth {game.next_set_value()} armies.",
        )
    cards = list(range(board.n_cards))
    hidden = set(game.face_down)
    st.caption("Cards: the ones you have seen, and how many more each player holds face down.")
    for p in range(game.n_players):
        known_col, down_col = st.columns([3, 1])
        # A face-down card's id is a placeholder: listing it would name a card nobody has seen.
        known = [c for c in game.hand(p) if c not in hidden]
        known_col.multiselect(
            f"Cards of {plain(names[p])}",
            cards,
            default=known,
            format_func=lambda c: card_label(board, int(c)),
            key=edit_key(f"hand{p}", known),
        )
        with down_col:
            down = face_down_count(game, p, plain(names[p]))
            count_field(down, edit_key(f"down{p}", down.start))
    if st.session_state.get(CARRIED):
        st.info(
            "Another device changed the game: it is shown as it is now, with the changes you made here and have "
            "not applied yet. Press Apply to apply them."
        )
    st.button(
        "Apply",
        on_click=apply_players,
        key="apply_players",
        type="primary",
        help="On a recorded game a change is one more entry of its log (a correction), which undo takes back.",
    )
    if st.session_state.get(PLAYERS_ERROR):
        st.error(plain(st.session_state[PLAYERS_ERROR]))
    unchanged_note("apply_players")
    if game.history:
        start_over_form(game, names, alive)


def start_over_form(game: GameState, names: list[str], alive: list[int]) -> None:
    """The one way to a fresh game from a recorded one: a new game in the list, the recorded one left as it is."""
    with st.expander("Start over from this position"):
        st.caption(
            "A new game from the position shown, at the start of the chosen player's turn, without the "
            "recorded history (no log, undo or luck meter). The recorded game stays in the games list."
        )
        st.selectbox(
            "Player to move",
            alive,
            index=alive.index(game.player) if game.player in alive else 0,
            format_func=lambda p: names[p],
            key=game_key("start_over_player"),
        )
        st.button("Start over from this position", on_click=start_over, key="start_over")


def start_over() -> None:
    game: GameState = st.session_state[GAME]
    try:
        fresh = new_game_from_position(game, player=int(st.session_state[game_key("start_over_player")]))
    except RiskAnalyzerError as exc:
        st.session_state[PLAYERS_ERROR] = str(exc)
        return
    # The recorder's bookkeeping describes the history left behind: the new game is followed afresh.
    fresh.labels.pop(LIVE_LABEL, None)
    new_game(LiveGame(fresh).state, f"{st.session_state.get(GAME_NAME) or 'Game'} from turn {turn_number(game)}")


def apply_players() -> None:
    st.session_state[CARRIED] = False
    game: GameState = st.session_state[GAME]
    names = player_names(game)
    recorded = bool(game.history)
    try:
        down = [
            face_down_count(game, p, names[p]).read(st.session_state[game_key(f"down{p}")])
            for p in range(game.n_players)
        ]
        sets_traded = None if recorded else sets_traded_count(game).read(st.session_state[game_key("sets_traded")])
    except Blank as exc:
        st.session_state[PLAYERS_ERROR] = f"{exc}; nothing was applied"
        return
    try:
        # A recorded game gets a correction entry, its history kept; a typed position is typed again.
        edited = corrected(
            game,
            player=None if recorded else int(st.session_state[game_key("to_move")]),
            sets_traded=sets_traded,
            hands={
                p: [*st.session_state[game_key(f"hand{p}")], *[face_down.UNKNOWN] * down[p]]
                for p in range(game.n_players)
            },
        )
    except RiskAnalyzerError as exc:
        st.session_state[PLAYERS_ERROR] = str(exc)
        return
    st.session_state[PLAYERS_ERROR] = None
    if unchanged(edited, game):
        say_unchanged("apply_players")
        return
    _committed(edited)


def _committed(game: GameState) -> None:
    """Store ``game``; a refusal (changed elsewhere) or a store's failure is said under Apply, where the user looks."""
    saved = commit(game)
    if not saved.kept:
        st.session_state[PLAYERS_ERROR] = st.session_state.pop(STORE_ERROR, None)
    elif saved.problem:
        st.session_state[PLAYERS_ERROR] = f"Not saved: {saved.problem}"


def apply_labels() -> None:
    """Store the names and colours typed (a blank name is the seat's default one)."""
    game: GameState = st.session_state[GAME]
    seats = range(game.n_players)
    names = [str(st.session_state.get(game_key(f"name{p}")) or "").strip() or seat_name(p) for p in seats]
    colors = [str(st.session_state.get(game_key(f"color{p}")) or PLAYER_COLORS[p]) for p in seats]
    if names == player_names(game, neutral=False) and [c.lower() for c in colors] == [
        c.lower() for c in player_colors(game)
    ]:
        # Nothing new (a picker reporting the colour it was given, in its own case): saving it anyway would
        # start a new version, whose fresh pickers would report again, and a rename typed meanwhile would be lost.
        return
    try:
        labelled = with_player_labels(game, names, colors)
    except RiskAnalyzerError as exc:
        st.session_state[PLAYERS_ERROR] = str(exc)
        return
    st.session_state[PLAYERS_ERROR] = None
    _committed(labelled)
