"""The app's page: the calculator, then the start page or the open game."""

from __future__ import annotations

import streamlit as st

from analyzer.game.labels import player_names
from analyzer.game.state import GameState
from analyzer.webapp.calculator import calculator
from analyzer.webapp.game_page import game_page
from analyzer.webapp.record import is_live
from analyzer.webapp.session import GAME, follow_url
from analyzer.webapp.start_page import start_page
from analyzer.webapp.strip import CHART_CSS

#: Page style (constant, never user text). The calculator's number inputs are sized for a thumb, and its
#: columns stay side by side on a phone instead of stacking, as do the win-chance strip's players (stacked, the
#: strip would take a whole phone screen); the map scrolls sideways on a narrow screen.
#:
#: An element that a run replaces at its place is kept beside its successor ("retained"), hidden unless it holds
#: the focus, until the run ends; when another fragment's run is waiting (the strip's poll beside the Record
#: panel), the panel's run is reported ended early and its retained elements stay. The entry button just
#: tapped holds the focus: shown, it would stay on the page as an empty box above the next form, and vanish
#: when the next tap takes the focus, moving the page under that tap, which then lands beside its button and
#: enters nothing. Retained elements are never shown.
CSS = (
    "<style>\n"
    + CHART_CSS
    + """
[data-testid="stElementContainer"][data-retained] { display: none !important; }
.st-key-calculator [data-testid="stNumberInput"] input { font-size: 1.6rem; height: 3.2rem; }
.st-key-calculator [data-testid="stNumberInputStepDown"],
.st-key-calculator [data-testid="stNumberInputStepUp"] { width: 3rem !important; height: 3.2rem !important; }
.st-key-calculator [data-testid="stNumberInputStepDown"] svg,
.st-key-calculator [data-testid="stNumberInputStepUp"] svg { width: 1.5rem !important; height: 1.5rem !important; }
.st-key-calculator [data-testid="stHorizontalBlock"] { flex-wrap: nowrap; gap: 0.5rem; }
.st-key-calculator [data-testid="stColumn"] { min-width: 0; width: auto; flex: 1 1 0; }
.st-key-calculator [data-testid="stMetricValue"] { font-size: 1.6rem; }
.st-key-board_map, .st-key-live-board_map { overflow-x: auto; }
.st-key-win_strip [data-testid="stHorizontalBlock"] { flex-wrap: nowrap; gap: 0.5rem; }
.st-key-win_strip [data-testid="stColumn"] { min-width: 0; width: auto; flex: 1 1 0; }
.st-key-win_strip [data-testid="stMetricValue"] { font-size: 1.6rem; }
@media (max-width: 640px) {
  .block-container { padding: 3.5rem 0.75rem 1rem; }
  h1 { font-size: 1.8rem !important; }
  [data-testid="stTabs"] [role="tablist"] { flex-wrap: wrap; gap: 0.25rem 1rem; overflow: visible; }
  [data-testid="stTabs"] [data-baseweb="tab-highlight"],
  [data-testid="stTabs"] [data-baseweb="tab-border"] { display: none; }
  [data-testid="stTabs"] [role="tab"] { border-bottom: 2px solid transparent; }
  [data-testid="stTabs"] [role="tab"][aria-selected="true"] { border-bottom-color: currentColor; font-weight: 700; }
}
</style>"""
)

#: Session key of the folded calculator above a live game: open or not.
ODDS_OPEN = "odds_open"


def main() -> None:
    st.set_page_config(page_title="Risk Analyzer", layout="wide", initial_sidebar_state="collapsed")
    st.html(CSS)
    st.title("Risk Analyzer")
    follow_url()
    game: GameState | None = st.session_state.get(GAME)
    if game is not None and is_live(game):
        # At the table the next entry comes first: the calculator is folded away above it, one tap to open,
        # and computed only while open.
        odds = st.expander("Battle odds", key=ODDS_OPEN, on_change="rerun")
        with odds:
            if odds.open:
                calculator()
    else:
        calculator()
    names = player_names(game) if game is not None else []
    if game is None:
        start_page()
        return
    game_page(game, names)
