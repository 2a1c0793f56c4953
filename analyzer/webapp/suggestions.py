"""The Suggestions tab: the attacks, the best whole turn and the chances to win."""

from __future__ import annotations

import numpy as np
import streamlit as st

from analyzer.analysis.evaluator import BOT_NAME, ROLLOUTS, chances
from analyzer.analysis.search import suggest_turn, turn_steps
from analyzer.analysis.standing import can_suggest_turn, living_players
from analyzer.game.state import GameState
from analyzer.services.valuation import now
from analyzer.text import plain
from analyzer.webapp.cached import cached_suggestions, position_json
from analyzer.webapp.inputs import whole_number
from analyzer.webapp.session import CHANCES, TURN_TIP

#: Height of a table row in pixels (Streamlit's default), and the most a table takes before it scrolls.
ROW_HEIGHT = 35
MAX_TABLE_HEIGHT = 1400
#: The rollouts a player may count: from a quick look to intervals of about ±2 points.
ROLLOUT_CHOICES = (100, 200, 400, 1000, 2000)


def suggestions_view(game: GameState, names: list[str]) -> None:
    alive = living_players(game)
    player_col, rank_col = st.columns([3, 2])
    player = player_col.selectbox(
        "Attacks of",
        alive,
        index=alive.index(game.player) if game.player in alive else 0,
        format_func=lambda p: names[p],
        key="suggest_player",
    )
    rank = rank_col.radio("Rank by", ["expected gain", "P(win)"], horizontal=True, key="suggest_rank")
    table = cached_suggestions(position_json(game), player, 1).copy()
    if rank == "P(win)":
        table = table.sort_values(["p_win", "expected_gain"], ascending=False, ignore_index=True)
    table["defender"] = [names[d] for d in table["defender"]]
    st.caption(
        "Each stack attacks until it wins or is down to 1 army. Expected gain = P(win) × (1 for the territory "
        "+ the continent bonus it completes or breaks) − the attacker's expected losses, in armies."
    )
    # Every row in view, the deciding columns first, the one the rows are ranked by right after the two
    # territories: a phone shows three or four columns before it scrolls sideways.
    ranked = ["p_win", "expected_gain"] if rank == "P(win)" else ["expected_gain", "p_win"]
    st.dataframe(
        table,
        hide_index=True,
        key="suggestions",
        height=min(ROW_HEIGHT * (len(table) + 1) + 3, MAX_TABLE_HEIGHT),
        column_order=[
            "source",
            "target",
            *ranked,
            "attackers",
            "defenders",
            "defender",
            "attacker_losses",
            "attacker_losses_std",
            "defender_losses",
            "completes",
            "breaks",
        ],
        column_config={
            "source": "From",
            "target": "To",
            "defender": "Defender",
            "attackers": "Armies",
            "defenders": "Defenders",
            "p_win": st.column_config.ProgressColumn("P(win)", format="percent", min_value=0.0, max_value=1.0),
            "attacker_losses": st.column_config.NumberColumn("Expected losses", format="%.2f"),
            "attacker_losses_std": st.column_config.NumberColumn("± (std)", format="%.2f"),
            "defender_losses": st.column_config.NumberColumn("Defender's losses", format="%.2f"),
            "completes": "Completes",
            "breaks": "Breaks",
            "expected_gain": st.column_config.NumberColumn("Expected gain", format="%.2f"),
        },
    )
    best_turn(game, names)

    st.subheader("Chances to win the game")
    chances_view(game, names)


def chances_view(game: GameState, names: list[str]) -> None:
    """Each player's chance to win: the strip's figures at once (truncated rollouts), and whole rollouts counted
    on a tap."""
    at_once = now(game)
    rollouts_col, seed_col = st.columns(2)
    rollouts = rollouts_col.select_slider("Rollouts", ROLLOUT_CHOICES, value=ROLLOUTS, key="rollout_count")
    with seed_col:
        seed = whole_number("Rollout seed", 0, 2**32 - 1, value=0, key="rollout_seed")
    if st.button("Count by rollouts", key="rollout_run") and seed is not None:
        with st.spinner(f"{rollouts} rollouts of {BOT_NAME} in every seat…"):
            counted = chances(game, "rollouts", rollouts=int(rollouts), seed=int(seed))
        st.session_state[CHANCES] = (position_json(game), counted)
    stored = st.session_state.get(CHANCES)
    shown = [at_once]
    if stored is not None:
        computed_for, counted = stored
        if computed_for == position_json(game):
            shown.append(counted)
        else:
            st.warning("The rollouts counted were for an earlier position: count again.")
    for result in shown:
        table = result.table().drop(columns="player")
        table["name"] = [names[p] for p in range(len(table))]
        # In whole per cent, as the strip shows the same figures: a decimal is far inside a chance's interval.
        in_percent = ["p_win", "ci_low", "ci_high"]
        table[in_percent] = 100 * table[in_percent]
        # The players still in the game: one out has no chance to estimate (said under the table).
        table = table[np.asarray(game.alive, dtype=bool)]
        st.dataframe(
            table,
            hide_index=True,
            key=f"chances_{result.method}",
            column_config={
                "name": "Player",
                "p_win": st.column_config.ProgressColumn("P(win)", format="%.0f%%", min_value=0.0, max_value=100.0),
                "ci_low": st.column_config.NumberColumn("from", format="%.0f%%"),
                "ci_high": st.column_config.NumberColumn("to", format="%.0f%%"),
            },
        )
        extra = f" {result.capped} reached the round cap with no winner." if result.capped else ""
        out = [names[p] for p in range(game.n_players) if not game.alive[p]]
        if out:
            extra += f" Out of the game: {', '.join(out)}."
        st.caption(plain(f"{result.caption}{extra} ({result.seconds:.2f} s)"))


def best_turn(game: GameState, names: list[str]) -> None:
    """The search bot's whole turn for the player to move, on a button: a few seconds of rollouts."""
    st.subheader("Best whole turn")
    player = names[game.player]
    if not can_suggest_turn(game):
        st.info(
            f"A turn is suggested when {plain(player)} has a move to make (placing, attacking, moving in or "
            "fortifying): finish the battle or card draw in progress first."
        )
        return
    st.caption(
        "Each plan (the default bot's own turn, bolder, more careful, for continents...) plays the rest of "
        f"{plain(player)}'s turn, then the default bot plays every seat for a round and the learned model values "
        "the result; every plan gets the same dice, so their differences are sharper than their win chances."
    )
    budget_col, run_col = st.columns([3, 2])
    budget = budget_col.slider("Thinking time (s)", 1, 15, 3, key="turn_budget")
    if run_col.button("Suggest a turn", key="turn_run", type="primary"):
        bar = st.progress(0.0, text="Trying the plans...")

        def progress(done: int, used: float) -> None:
            bar.progress(used, text=f"{done} rollouts of each plan")

        tip = suggest_turn(game, budget=float(budget), on_progress=progress)
        bar.empty()
        st.session_state[TURN_TIP] = (position_json(game), tip)
    stored = st.session_state.get(TURN_TIP)
    if stored is None:
        return
    computed_for, tip = stored
    if computed_for != position_json(game):
        st.warning("This turn was suggested for an earlier position: suggest again.")
        return
    # The plans' own chances, valued by the model a round on, are not shown: they can lie well off the win chances
    # every view shows for this position (the model alone errs by several points where the evaluator's longer
    # rollouts do not), and their difference, on the same dice, is what the search measures.
    st.markdown(
        f"**{plain(tip.plan)}**: the plan the search found best for {plain(player)}, against the default bot's own "
        "turn on the same dice."
    )
    st.metric("Gain in win chance", f"{tip.gain:+.1%}")
    st.markdown(f"95% interval: **{tip.gain_low:+.1%} to {tip.gain_high:+.1%}**")
    if tip.gain_low <= 0:
        st.caption(
            "The interval reaches 0: no plan beats the default turn clearly yet (more thinking time "
            "narrows it). The best of several plans is also picked for its luck, so the gain is optimistic."
        )
    # A list rather than a table: a step is a sentence, which a table's cell would cut short on a phone.
    st.markdown(
        "\n".join(
            f"{row.step}. {plain(row.do)}" + (f" · *{plain(row.first_rollout)}*" if row.first_rollout else "")
            for row in turn_steps(game, tip).itertuples()
        )
    )
    st.caption(
        f"{tip.rollouts} rollouts of each of {len(tip.table)} plans. In italics, how a battle went on the "
        "first rollout's dice, which the later steps follow: with other dice, play on by the plan's rule."
    )
    with st.expander("Every plan tried"):
        st.dataframe(
            tip.table.drop(columns="win_chance"),
            hide_index=True,
            key="turn_plans",
            column_config={
                "plan": "Plan",
                "rollouts": "Rollouts",
                "gain": st.column_config.NumberColumn("Gain", format="percent"),
                "gain_low": st.column_config.NumberColumn("95% from", format="percent"),
                "gain_high": st.column_config.NumberColumn("to", format="percent"),
            },
        )
