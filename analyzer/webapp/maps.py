"""The maps' sizes and the "Map of" picker: the whole world, or one continent, which fits a phone."""

from __future__ import annotations

import streamlit as st

from analyzer.game.board import Board

#: Widths in pixels of the maps: the whole world, which on a phone scrolls sideways rather than shrinking, so
#: that the names and army counts keep their size and never run into each other; and one continent, which fits
#: a phone: 332 px are left inside the Record view's "Map" box on a 390 px screen, 302 on a 360 px one (360 px
#: overflowed by 28 and cut off the continent's eastmost territory).
WORLD_MAP_WIDTH = 760
CONTINENT_MAP_WIDTH = 300
#: "Map of": the whole world.
WORLD = -1


def map_width(continent: int | None) -> int:
    return WORLD_MAP_WIDTH if continent is None else CONTINENT_MAP_WIDTH


def map_of(board: Board, key: str, index: int = 0) -> int | None:
    """The "Map of" picker: the continent picked (its index on ``board``), or None for the whole world.

    ``index`` is the option shown until the user picks one: 0 the whole world, ``1 + c`` continent ``c``.

    A row of buttons, not a list to open: one tap picks, and a phone opens no keyboard. A list opened as the page's
    poll redrew its part of the page at times showed no option, the tap lost.
    """
    continents = board.continents
    options = [WORLD, *range(len(continents))]
    if key not in st.session_state:
        # Set as the widget's state, not as its default: a caller that sets the state itself meets no warning.
        st.session_state[key] = options[index]
    shown = st.segmented_control(
        "Map of",
        options,
        required=True,
        key=key,
        wrap=True,
        format_func=lambda c: "Whole world (scrolls on a phone)" if c == WORLD else continents[c].name,
    )
    return None if shown in (WORLD, None) else int(shown)
