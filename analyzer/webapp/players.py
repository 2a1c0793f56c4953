"""The Players & cards tab: names, colours, the player to move, the cards."""

from __future__ import annotations

from typing import cast

import streamlit as st

from analyzer.analysis.position import edit_position, with_player_labels
from analyzer.analysis.standing import living_players
from analyzer.errors import RiskAnalyzerError
from analyzer.game import face_down
from analyzer.game.board import SYMBOLS, Board
from analyzer.game.state import GameState
from analyzer.text import plain
from analyzer.limits import MAX_NAME_LENGTH
from analyzer.plot import PLAYER_COLORS, player_name
from analyzer.webapp.inputs import bounds_problem, whole_number
from analyzer.webapp.session import GAME, PLAYERS_ERROR, commit, game_key, player_colors, player_names

def card_label(board: Board, card: int) -> str:
    symbol = SYMBOLS[int(board.card_symbols[card])]
    territory = int(board.card_territory[card])
    return f"#{card} {board.territories[territory]} ({symbol})" if territory >= 0 else f"#{card} wild"


def players_view(game: GameState, names: list[str]) -> None:
    board = game.board
    st.caption("Names and colours")
    colors = player_colors(game)
    for p in range(game.n_players):
        name_col, color_col = st.columns([4, 1])
        name_col.text_input(f"Name of seat {p + 1}", value=names[p], key=game_key(f"name{p}"),
                            max_chars=MAX_NAME_LENGTH, on_change=apply_labels)
        color_col.color_picker("Colour", value=colors[p], key=game_key(f"color{p}"), on_change=apply_labels)
    if len(set(names)) < len(names):
        st.warning("Two players have the same name; the tables will not tell them apart.")
    alive = living_players(game)
    st.selectbox("Player to move", alive, index=alive.index(game.player) if game.player in alive else 0,
                 format_func=lambda p: names[p], key=game_key("to_move"))
    st.number_input("Sets traded so far", value=int(game.sets_traded), step=1, key=game_key("sets_traded"),
                    help=f"The next set is worth {game.next_set_value()} armies.")
    cards = list(range(board.n_cards))
    hidden = set(game.face_down)
    down = face_down.counts(game)
    st.caption("Cards: the ones you have seen, and how many more each player holds face down.")
    for p in range(game.n_players):
        known_col, down_col = st.columns([3, 1])
        # A face-down card's id is a placeholder: listing it would name a card nobody has seen.
        known_col.multiselect(f"Cards of {plain(names[p])}", cards, default=[c for c in game.hand(p) if c not in hidden],
                              format_func=lambda c: card_label(board, c), key=game_key(f"hand{p}"))
        with down_col:
            whole_number(f"Face down, {plain(names[p])}", 0, board.n_cards, value=down[p], key=game_key(f"down{p}"))
    st.button("Apply", on_click=apply_players, key="apply_players", type="primary")
    if st.session_state.get(PLAYERS_ERROR):
        st.error(plain(st.session_state[PLAYERS_ERROR]))


def apply_players() -> None:
    game: GameState = st.session_state[GAME]
    for p in range(game.n_players):
        problem = bounds_problem(st.session_state[game_key(f"down{p}")], 0, game.board.n_cards)
        if problem:
            st.session_state[PLAYERS_ERROR] = f"face-down cards of {player_names(game)[p]}: {problem}; nothing was applied"
            return
    try:
        edited = edit_position(
            game,
            player=int(st.session_state[game_key("to_move")]),
            sets_traded=st.session_state[game_key("sets_traded")],
            hands={p: [*st.session_state[game_key(f"hand{p}")],
                       *[cast(int, face_down.UNKNOWN)] * int(st.session_state[game_key(f"down{p}")])]
                   for p in range(game.n_players)},
        )
    except RiskAnalyzerError as exc:
        st.session_state[PLAYERS_ERROR] = str(exc)
        return
    st.session_state[PLAYERS_ERROR] = None
    commit(edited)


def apply_labels() -> None:
    """Store the names and colours typed (a blank name is the seat's default one)."""
    game: GameState = st.session_state[GAME]
    seats = range(game.n_players)
    names = [str(st.session_state.get(game_key(f"name{p}")) or "").strip() or player_name(p) for p in seats]
    colors = [str(st.session_state.get(game_key(f"color{p}")) or PLAYER_COLORS[p]) for p in seats]
    if names == player_names(game)[: game.n_players] and [c.lower() for c in colors] == [
            c.lower() for c in player_colors(game)[: game.n_players]]:
        # Nothing new (a picker reporting the colour it was given, in its own case): saving it anyway
        # started a new version, whose fresh pickers reported again, and a rename typed meanwhile was lost.
        return
    try:
        labelled = with_player_labels(game, names, colors)
    except RiskAnalyzerError as exc:
        st.session_state[PLAYERS_ERROR] = str(exc)
        return
    st.session_state[PLAYERS_ERROR] = None
    commit(labelled)
