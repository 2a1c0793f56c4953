"""The battle calculator: odds of any battle or chain, typed as counts or picked on the open game."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from analyzer.analysis.chain_entry import chain_defenders, check_chain_path
from analyzer.analysis.position import attack_sources, attack_targets
from analyzer.analysis.quick_odds import MAX_CHAIN, MAX_NEEDED_DEFENDERS, QuickOdds, quick_odds
from analyzer.errors import BattleInputError, RiskAnalyzerError
from analyzer.game.dice import DiceRules
from analyzer.game.labels import player_names
from analyzer.game.state import GameState
from analyzer.limits import MAX_ARMIES
from analyzer.plot import whole_ticks
from analyzer.services.entries import bounds_problem
from analyzer.solver.battle import check_stop_at, dice_options
from analyzer.text import percent, plain
from analyzer.webapp.inputs import number_box
from analyzer.webapp.session import CHAIN_ERROR, GAME, game_key, shown_errors

#: The calculator's inputs.
ATTACKERS = "attackers"
DEFENDERS = "defenders"
STOP_AT = "stop_at"
CHAIN = "chain"
GARRISON = "garrison"
TARGET_P = "target_p"
CAPITAL = "capital"
TIES = "ties_to_attacker"
BLITZ = "balanced_blitz"
SIDES = "sides"
CAP = "cap"
ATTACK_FROM = "attack_from"
ATTACK_TO = "attack_to"
CHAIN_PATH = "chain_path"
#: Dice a player may have at the table.
DICE_SIDES = (4, 6, 8, 10, 12, 20)
#: The classic die, the rules' own default.
CLASSIC_SIDES = DiceRules().sides


@st.fragment
def calculator() -> None:
    """Odds of any battle or chain, typed as counts; with a game open, two territories picked fill them in.

    A fragment: a changed input reruns the calculator alone, not the map and tables of the game below.
    """
    game: GameState | None = st.session_state.get(GAME)
    with shown_errors():
        calculator_body(game, player_names(game) if game is not None else [])


#: The calculator's inputs as a first visit finds them.
DEFAULTS: dict[str, Any] = {
    ATTACKERS: 12,
    DEFENDERS: 7,
    STOP_AT: 1,
    CHAIN: "",
    GARRISON: 1,
    TARGET_P: 0.75,
    CAPITAL: False,
    TIES: False,
    BLITZ: False,
    CAP: False,
    SIDES: CLASSIC_SIDES,
}


def current(key: str) -> Any:
    """An input's value now, given to its widget as the widget's default.

    A browser shows a widget's default when it holds no value of its own for it: when a tap reruns the page
    before the browser has taken in the widgets of the run before (the Review tab tapped while the page first
    loads). Had the default been the widget's own (0, or the slider's low end), the browser would show it and
    send it back with the next tap, and the counts would turn to 0 under the user's eyes.
    """
    return st.session_state.get(key, DEFAULTS[key])


def calculator_body(game: GameState | None, names: list[str]) -> None:
    with st.container(key="calculator"):
        st.subheader("Battle odds")
        if game is not None and not np.any(game.owner < 0):
            territory_pickers(game, names)
        # No bounds in the browser (it would keep the last good value and show an answer for it): each count
        # is checked here, and a bad one shows its message under it and no answer at all.
        attackers_col, defenders_col = st.columns(2)
        bad = [
            counted(
                attackers_col,
                "Attacking armies",
                ATTACKERS,
                2,
                MAX_ARMIES,
                "Every army on the attacking territory: one stays behind, the rest roll.",
            ),
            counted(defenders_col, "Defenders", DEFENDERS, 1, MAX_ARMIES),
        ]
        with st.expander("Stop at, chain, dice"):
            stop_col, garrison_col = st.columns(2)
            bad += [
                counted(
                    stop_col,
                    "Stop at (armies left)",
                    STOP_AT,
                    1,
                    MAX_ARMIES - 1,
                    "Stop attacking once the territory holds this many armies.",
                ),
                counted(
                    garrison_col,
                    "Garrison",
                    GARRISON,
                    1,
                    MAX_ARMIES,
                    "Armies left in each conquered territory of a chain.",
                ),
            ]
            if not any(bad):
                try:
                    check_stop_at(int(current(STOP_AT)), int(current(ATTACKERS)))
                except BattleInputError:
                    # Said under the field, in its own name: the solver's words ("stop_at must be below...") showed
                    # below the dice settings, off a phone's screen.
                    stop_col.error(
                        plain(
                            "Stop at (armies left): enter a number below the attacking armies "
                            f"({int(current(ATTACKERS))}), not {int(current(STOP_AT))}"
                        )
                    )
                    bad.append(True)
            st.text_input(
                "Then on against (a chain: the defenders of each next territory)",
                key=CHAIN,
                value=current(CHAIN),
                placeholder="e.g. 3 2 4",
                max_chars=8 * MAX_CHAIN,
            )
            try:
                chain_defenders(str(current(CHAIN)))
            except BattleInputError as exc:
                st.error(plain(f"Then on against: {exc}"))
                bad.append(True)
            st.slider(
                "Target probability for the armies needed", 0.05, 0.99, value=current(TARGET_P), step=0.01, key=TARGET_P
            )
            # One toggle a line: two to a row cut their labels at a phone's width ("Capital: 3 defen...").
            st.toggle("Capital: 3 defence dice", value=current(CAPITAL), key=CAPITAL)
            st.toggle("Ties to the attacker", value=current(TIES), key=TIES)
            st.toggle(
                "Balanced Blitz", value=current(BLITZ), key=BLITZ, help="Risk: Global Domination's Balanced Blitz."
            )
            st.toggle(
                "Never below stop at",
                value=current(CAP),
                key=CAP,
                help="Roll no more dice than armies above stop at (Risk: Global Domination).",
            )
            st.selectbox("Sides of each die", DICE_SIDES, index=DICE_SIDES.index(current(SIDES)), key=SIDES)
        # One slot for the answer, whatever it is: a count made bad replaces the odds in place. Odds left to be
        # cleared as stale would stay on the page, greyed out, when a poll of the page's other fragments runs as
        # the calculator's run ends (the cleanup then takes the poll's run for its own: streamlit#16708).
        answer = st.empty()
        if any(bad):
            answer.info("The odds show again once every count above is a whole number in its range.")
            return
        with answer.container():
            odds_answer(calculator_odds())
            changed = unusual_settings()
            if changed:
                # The settings sit in a closed expander: odds that rest on them say so beside the figures.
                st.caption("With " + "; ".join(changed) + " (under “Stop at, chain, dice”).")


def counted(column: Any, label: str, key: str, lo: int, hi: int, help: str | None = None) -> bool:
    """A count of the calculator; True (with its message under it) when it is not a whole number from lo to hi."""
    raw = number_box(column, label, value=current(key), key=key, help=help)
    problem = bounds_problem(raw, lo, hi)
    if problem:
        column.error(plain(f"{label}: {problem}"))
    return bool(problem)


def unusual_settings() -> list[str]:
    """The calculator's settings that differ from a plain battle of the classic rules, in words."""
    s = st.session_state
    said = []
    if int(s[STOP_AT]) != 1:
        said.append(f"stop at {int(s[STOP_AT])} armies left")
    if int(s[SIDES]) != CLASSIC_SIDES:
        said.append(f"{int(s[SIDES])}-sided dice")
    for key, words in (
        (CAPITAL, "3 defence dice (capital)"),
        (TIES, "ties to the attacker"),
        (BLITZ, "Balanced Blitz"),
        (CAP, "never below stop at"),
    ):
        if s[key]:
            said.append(words)
    return said


def calculator_odds() -> QuickOdds:
    s = st.session_state
    options = dice_options(
        capital=bool(s[CAPITAL]),
        ties_to_attacker=bool(s[TIES]),
        balanced_blitz=bool(s[BLITZ]),
        sides=int(s[SIDES]),
        cap=bool(s[CAP]),
    )
    defenders = [int(s[DEFENDERS]), *chain_defenders(str(s[CHAIN]))]
    return cached_quick_odds(
        int(s[ATTACKERS]),
        tuple(defenders),
        int(s[STOP_AT]),
        int(s[GARRISON]),
        options.dice.defender_max,
        options.dice.ties_to_attacker,
        options.balanced_blitz,
        options.dice.sides,
        options.stop_mode,
        float(s[TARGET_P]),
    )


@st.cache_data(max_entries=256, show_spinner=False)
def cached_quick_odds(
    attackers: int,
    defenders: tuple[int, ...],
    stop_at: int,
    garrison: int,
    defender_max: int,
    ties: bool,
    blitz: bool,
    sides: int,
    stop_mode: str,
    target_p: float,
) -> QuickOdds:
    options = dice_options(
        capital=defender_max == 3, ties_to_attacker=ties, balanced_blitz=blitz, sides=sides, cap=stop_mode == "cap"
    )
    return quick_odds(attackers, defenders, stop_at=stop_at, garrison=garrison, options=options, target_p=target_p)


def odds_answer(odds: QuickOdds) -> None:
    chained = len(odds.defenders) > 1
    win_col, need_col = st.columns(2)
    win_col.metric("P(win)" if not chained else "P(whole chain)", percent(odds.p_win))
    if odds.armies_needed is not None:
        need_col.metric(
            f"Armies for P ≥ {odds.target_p:.0%}",
            f"{odds.armies_needed:,}",
            help=f"Fewest armies on the attacking territory that win with at least this probability "
            f"(now {odds.attackers:,}).",
        )
    else:
        need_col.metric(
            f"Armies for P ≥ {odds.target_p:.0%}",
            "—",
            help=f"Searched up to {MAX_NEEDED_DEFENDERS:,} defenders in all.",
        )
    attacker_col, defender_col = st.columns(2)
    spread_a = "" if odds.std_attacker_losses is None else f" ± {odds.std_attacker_losses:.2f}"
    spread_d = "" if odds.std_defender_losses is None else f" ± {odds.std_defender_losses:.2f}"
    # Labels short enough for half a phone's width ("Attacker's expected l..." was cut there).
    attacker_col.metric(
        "Attacker's losses",
        f"{odds.expected_attacker_losses:.2f}",
        help="Expected: the mean over every way the battle can end.",
    )
    defender_col.metric(
        "Defender's losses",
        f"{odds.expected_defender_losses:.2f}",
        help="Expected: the mean over every way the battle can end.",
    )
    if spread_a:
        st.caption(f"Spread (one standard deviation): attacker{spread_a}, defender{spread_d}.")
    st.caption(
        "Exact odds: every roll of the battle to its end, each with its probability (a Markov chain), not a simulation."
    )
    if chained:
        st.dataframe(
            pd.DataFrame(
                {
                    "Territory": [f"#{i + 1}" for i in range(len(odds.defenders))],
                    "Defenders": list(odds.defenders),
                    "P(taken, with all before it)": list(odds.p_conquer),
                }
            ),
            hide_index=True,
        )
    with st.expander("Survivors", expanded=True):
        st.vega_lite_chart(
            odds.survivors,
            survivors_spec("armies", "armies left (green: won, red: stopped)", odds.survivors["armies"], color=True),
            key="survivors",
        )
        st.vega_lite_chart(
            odds.defenders_left,
            survivors_spec("defenders", "defenders left (0: conquered)", odds.defenders_left["defenders"]),
            key="defenders_left",
        )


def survivors_spec(x: str, title: str, counts: Any, *, color: bool = False) -> dict[str, Any]:
    """A bar chart of how likely each count left is: conquests green and stops red when ``color``.

    No legend (the axis title says it): a legend squeezes the plot of a chart this low to nothing.
    """
    encoding: dict[str, Any] = {
        # Ordinal: one bar per count, as wide as the chart allows; the labels thin out where they would overlap.
        "x": {
            "field": x,
            "type": "ordinal",
            "title": title,
            "sort": "ascending",
            # Labels at even steps of whole armies (thinning them by overlap left uneven gaps).
            "axis": {"values": whole_ticks(int(min(counts, default=0)), int(max(counts, default=0))), "labelAngle": 0},
        },
        "y": {"field": "probability", "type": "quantitative", "title": "probability"},
        "tooltip": [{"field": x}, {"field": "probability", "format": ".4f"}],
        "color": (
            {
                "field": "outcome",
                "scale": {"domain": ["conquered", "stopped"], "range": ["#2ca02c", "#d62728"]},
                "legend": None,
            }
            if color
            else {"value": "#1f5fbf"}
        ),
    }
    return {"mark": {"type": "bar", "tooltip": True}, "encoding": encoding, "height": 140}


def territory_pickers(game: GameState, names: list[str]) -> None:
    """Two territories of the open game (and a chain on from them): picking them fills in the calculator."""
    board = game.board

    def label(t: int) -> str:
        return f"{board.territories[t]} ({names[int(game.owner[t])]}, {int(game.armies[t])})"

    # The player to move's stacks first: the usual question during a turn.
    sources = sorted(attack_sources(game), key=lambda t: game.owner[t] != game.player)
    from_col, to_col = st.columns(2)
    source = from_col.selectbox(
        "Attack from",
        sources,
        index=None,
        format_func=label,
        key=game_key(ATTACK_FROM),
        placeholder="a territory",
        on_change=fill_calculator,
    )
    targets = attack_targets(game, source) if source is not None else []
    to_col.selectbox(
        "Attack",
        targets,
        index=None,
        format_func=label,
        key=game_key(ATTACK_TO),
        placeholder="its neighbour",
        on_change=fill_calculator,
        disabled=source is None,
    )
    if source is not None:
        owner = int(game.owner[source])
        others = [t for t in range(board.n_territories) if game.owner[t] != owner]
        st.multiselect(
            "Then on to, in order (a chain)",
            others,
            format_func=label,
            key=game_key(CHAIN_PATH),
            on_change=fill_calculator,
            help="Each territory must border the one before it.",
            max_selections=MAX_CHAIN - 1,
        )
    if st.session_state.get(CHAIN_ERROR):
        st.error(plain(st.session_state[CHAIN_ERROR]))


def fill_calculator() -> None:
    """A callback: it runs before the script, while the calculator's inputs (drawn after) can still be set."""
    game: GameState = st.session_state[GAME]
    source = st.session_state.get(game_key(ATTACK_FROM))
    target = st.session_state.get(game_key(ATTACK_TO))
    if source is None:
        return
    st.session_state[ATTACKERS] = max(2, int(game.armies[source]))
    if target is None or int(target) not in attack_targets(game, source):
        return
    st.session_state[DEFENDERS] = int(game.armies[target])
    path = st.session_state.get(game_key(CHAIN_PATH)) or []
    try:
        check_chain_path(game.board, int(target), [int(t) for t in path])
    except RiskAnalyzerError as exc:
        st.session_state[CHAIN_ERROR] = str(exc)
        return
    st.session_state[CHAIN_ERROR] = None
    st.session_state[CHAIN] = " ".join(str(int(game.armies[t])) for t in path)
