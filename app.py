"""Risk Analyzer in the browser: ``make run`` (or ``streamlit run app.py``).

A thin layer: the game engine, the drawing and every analysis live in
:mod:`analyzer`; this file only lays them out. The game lives in
``st.session_state`` so it survives Streamlit's rerun of this script on every
interaction.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from analyzer.board import Board, classic_board
from analyzer.plot import draw_board, draw_state, player_name
from analyzer.state import GameState

#: Session-state keys.
GAME = "game"
LOAD_ERROR = "load_error"
UPLOAD = "upload"
N_PLAYERS = "n_players"
SEED = "seed"


def main() -> None:
    st.set_page_config(page_title="Risk Analyzer", layout="wide")
    st.title("Risk Analyzer")
    sidebar()
    game: GameState | None = st.session_state.get(GAME)
    (board_tab,) = st.tabs(["Board"])
    with board_tab:
        board_view(game)


def sidebar() -> None:
    with st.sidebar:
        st.header("Game")
        st.slider("Players", min_value=2, max_value=6, value=3, key=N_PLAYERS)
        st.number_input("Seed", min_value=0, value=1, step=1, key=SEED)
        st.button("New random setup", on_click=new_random_setup, type="primary")
        game: GameState | None = st.session_state.get(GAME)
        if game is not None:
            st.download_button("Save game", data=game.to_json(), file_name="risk-game.json",
                               mime="application/json")
        st.file_uploader("Load a saved game", type="json", key=UPLOAD, on_change=load_upload)
        if st.session_state.get(LOAD_ERROR):
            st.error(st.session_state[LOAD_ERROR])


def new_random_setup() -> None:
    rng = np.random.default_rng(int(st.session_state[SEED]))
    st.session_state[GAME] = GameState.random_start(int(st.session_state[N_PLAYERS]), rng)
    st.session_state[LOAD_ERROR] = None


def load_upload() -> None:
    # A callback, not a check in the script body: the uploader keeps its file across reruns, and
    # reloading it on each one would undo every later "New random setup".
    upload = st.session_state[UPLOAD]
    st.session_state[LOAD_ERROR] = None
    if upload is None:
        return
    try:
        st.session_state[GAME] = GameState.from_json(upload.getvalue().decode("utf-8"))
    except ValueError as exc:
        # Bad JSON, bad UTF-8 and a malformed state are all ValueErrors; the current game is kept.
        st.session_state[LOAD_ERROR] = f"Could not load {upload.name}: {exc}"


def board_view(game: GameState | None) -> None:
    if game is None:
        st.info("Choose the number of players and a seed, then press **New random setup**, or load a saved game.")
        st.pyplot(draw_board(title="Classic map"))
        st.subheader("Continents")
        st.dataframe(continent_table(classic_board()), hide_index=True)
        return
    st.caption(f"Turn {game.turn} · {game.phase.name.replace('_', ' ').lower()} · "
               f"{player_name(game.current_player, game.n_players)} to play")
    st.pyplot(draw_state(game))
    left, right = st.columns([2, 3])
    with left:
        st.subheader("Continents")
        st.dataframe(continent_table(game.board), hide_index=True)
    with right:
        st.subheader("Territories")
        st.dataframe(territory_table(game), hide_index=True)


def continent_table(board: Board) -> pd.DataFrame:
    return pd.DataFrame({
        "Continent": [c.name for c in board.continents],
        "Bonus": [c.bonus for c in board.continents],
        "Territories": [len(c.territories) for c in board.continents],
    })


def territory_table(game: GameState) -> pd.DataFrame:
    board = game.board
    return pd.DataFrame({
        "Territory": board.territories,
        "Continent": [board.continents[c].name for c in board.continent_of],
        "Owner": [player_name(int(pid), game.n_players) for pid in game.owner],
        "Armies": game.armies.astype(int),
    })


main()
