"""The Review view: a game reviewed like a chess engine's game review (:mod:`analyzer.analysis.review`).

The open game (a stored one, or one opened from a file) or a game file uploaded here is reviewed on
request: the timeline of every player's win chance with the turning points marked, each player's
summary, the turning points split into dice and decisions, and every turn in a table to download.
The review is made apart from the page (:func:`analyzer.services.reviews.review_in_background`): a page
reloaded, closed or asked again on another phone mid-review finds it going on, and then made. Once made it
is kept in the game store, and for the session by the game it reviewed, its rollouts and its seed.
"""

from __future__ import annotations

import os

import pandas as pd
import streamlit as st

from analyzer.analysis.review import ROLLOUTS, GameReview, review_chart
from analyzer.errors import RiskAnalyzerError, StoreError
from analyzer.game.labels import player_colors, player_names
from analyzer.game.state import GameState
from analyzer.services.reviews import Reviewing, being_made_anywhere, kept_review, review_in_background
from analyzer.text import plain
from analyzer.webapp.session import store
from analyzer.webapp.uploads import game_uploader

#: Session key of the reviews made in this session, by (game JSON, rollouts, seed).
REVIEWS = "reviews"
#: How often a page waiting for a review shows how far it is.
PROGRESS_SECONDS = 0.5
#: Rollouts offered: the review's default budget and quicker ones for a first look.
ROLLOUT_CHOICES = (50, 100, 300, 600, ROLLOUTS)


#: A figure with nothing to stand on (a player with no turn reviewed yet).
NONE = "–"


def _points(x: float) -> str:
    """A win chance in signed points to a tenth, a figure that rounds to 0 shown as +0.0, never -0.0.

    >>> _points(0.1234), _points(-0.0004), _points(-0.0051)
    ('+12.3', '+0.0', '-0.5')
    """
    return f"{round(100 * x, 1) + 0.0:+.1f}"  # adding 0.0 turns a rounded -0.0 into 0.0


def _interval(x: float, low: float, high: float) -> str:
    """A figure in signed points with its 95% interval.

    >>> _interval(-0.012, -0.03, 0.006)
    '-1.2 [-3.0, +0.6]'
    """
    return f"{_points(x)} [{_points(low)}, {_points(high)}]"


def _against(plan: object) -> str:
    return "the default bot" if plan == "default" else plain(str(plan))


def every_turn(turns: pd.DataFrame) -> pd.DataFrame:
    """The review's turns as the view shows them, in the units of its other figures: chances in per cent, their
    changes, dice and decisions in signed points with their intervals, and the turn the decisions are set against
    (the CSV keeps the plain figures).

    >>> row = {"turn": 1, "name": "Ann", "before": 0.521, "after": 0.5291, "change": 0.0081, "dice": 0.0099,
    ...        "dice_low": -0.06, "dice_high": 0.08, "decisions": -0.0125, "decisions_low": -0.03,
    ...        "decisions_high": 0.006, "best_plan": "default"}
    >>> list(every_turn(pd.DataFrame([row])).iloc[0].astype(str))
    ['1', 'Ann', '52%', '53%', '+0.8', '+1.0 [-6.0, +8.0]', '-1.2 [-3.0, +0.6]', 'the default bot']
    """
    return pd.DataFrame(
        {
            "Turn": turns["turn"].tolist(),
            "Player": [plain(str(n)) for n in turns["name"]],
            "Before": [f"{100 * x:.0f}%" for x in turns["before"]],
            "After": [f"{100 * x:.0f}%" for x in turns["after"]],
            "Change": [_points(x) for x in turns["change"]],
            "Dice": [_interval(*x) for x in zip(turns["dice"], turns["dice_low"], turns["dice_high"])],
            "Decisions": [
                _interval(*x) for x in zip(turns["decisions"], turns["decisions_low"], turns["decisions_high"])
            ],
            "Against": [_against(p) for p in turns["best_plan"]],
        }
    )


def review_view(game: GameState, names: list[str]) -> None:
    """Review the open game, or a game file uploaded here. Never changes the game.

    The players are named as the game reviewed names them (``names``, the open game's, serve every tab alike).
    """
    st.caption(
        "How each player's chance to win moved turn by turn, where the game was won and lost, and how much "
        "of it was the dice. Changes are in win-chance points (100 = certain)."
    )
    upload = game_uploader("Or review another game file (JSON)", "review_upload")
    subject, label = game, "this game"
    if upload is not None:
        try:
            subject, label = GameState.from_json(upload.getvalue()), f"the file {upload.name}"
        except RiskAnalyzerError as exc:
            st.error(plain(f"{upload.name} is not a recorded game: {exc}"))
            return
    rollouts = st.select_slider(
        "Rollouts per estimate",
        ROLLOUT_CHOICES,
        value=ROLLOUTS,
        key="review_rollouts",
        help="More rollouts give narrower intervals, down to the model's own error, and take longer "
        "(about 50 seconds for 100 player-turns at 900 on two cores).",
    )
    key = (subject.to_json(), int(rollouts), 0)
    reviews: dict[tuple[str, int, int], GameReview] = st.session_state.setdefault(REVIEWS, {})
    review = reviews.get(key)
    kept = False
    if review is None:
        # Made before, on this phone or another, before a reload or a restart: shown as it was made.
        try:
            review = kept_review(store(), subject, int(rollouts))
        except StoreError:
            review = None  # the store's fault shows where a game is saved; the review can still be made
        if review is not None:
            reviews.clear()
            reviews[key] = review
            kept = True
    if review is None:
        workers = min(2, os.cpu_count() or 1)
        job = being_made_anywhere(store, subject, int(rollouts), workers=workers)
        if job is None:
            if not st.button(f"Review {label}", key="review_run", type="primary"):
                return
            job = review_in_background(store, subject, int(rollouts), workers=workers)
        try:
            review = waited_for(job)
        except RiskAnalyzerError as exc:
            st.error(plain(str(exc)))
            return
        reviews.clear()  # one review kept: a long game's review is large
        reviews[key] = review
        kept = job.read_back
        if job.not_kept is not None:
            st.warning(plain(f"The review is shown here but not kept for the game's other phones: {job.not_kept}"))
    show_review(
        review, player_names(subject, neutral=False), player_colors(subject) if subject is game else None, kept=kept
    )


def waited_for(job: Reviewing) -> GameReview:
    """The review ``job`` makes, with a progress bar until it is made. A page left meanwhile (reloaded, closed, its
    phone locked) stops waiting here, and the review goes on without it, for the next page that asks."""
    bar = st.progress(0.0, text="Reviewing…")
    try:
        while True:
            try:
                return job.future.result(timeout=PROGRESS_SECONDS)
            except TimeoutError:
                if job.waiting:
                    bar.progress(0.0, text="Waiting for another game's review to end: the server makes one at a time…")
                elif job.total:
                    by = " (by another of the server's processes)" if job.elsewhere else ""
                    bar.progress(job.done / job.total, text=f"Reviewing{by}… {job.done}/{job.total}")
    finally:
        bar.empty()


def show_review(review: GameReview, names: list[str], colors: list[str] | None, *, kept: bool = False) -> None:
    """The review's chart, summary, turning points and turns; ``kept``: read back from the game store, made earlier."""
    review = GameReview(
        names,
        review.turns.assign(name=[names[p] for p in review.turns["player"]]),
        review.chances,
        review.summary.assign(name=names),
        review.rollouts,
        review.seed,
        review.assumed,
        review.seconds,
    )
    with st.container(key="review_chart"):
        st.altair_chart(review_chart(review, colors), width="stretch")
    st.caption(
        f"{len(review.turns)} player-turns, {review.rollouts} rollouts per estimate ({review.seconds:.0f} s"
        + ("; made earlier, kept in the game store" if kept else "")
        + "). "
        f"{review.assumed} Dashed lines: the turning points."
    )
    summary = review.summary
    moved = summary["turns"] > 0
    st.markdown("**Players**")
    st.dataframe(
        pd.DataFrame(
            {
                "Player": [plain(n) for n in summary["name"]],
                "Turns": summary["turns"].tolist(),
                "Lost to decisions / turn": [
                    _points(x) if m else NONE for x, m in zip(summary["decisions_per_turn"], moved)
                ],
                "Largest mistake": [
                    f"{_points(x)} (turn {t})" if m else NONE
                    for x, t, m in zip(summary["largest_mistake"], summary["mistake_turn"], moved)
                ],
                "Dice": [_points(x) if m else NONE for x, m in zip(summary["dice_total"], moved)],
                # No share either where a player's turns moved nothing (no battle, no decision cost).
                "Dice share": [NONE if pd.isna(x) else f"{100 * x:.0f}%" for x in summary["dice_share"]],
            }
        ),
        hide_index=True,
        key="review_summary",
    )
    turns = review.turns
    points = turns[turns["turning_point"]]
    st.markdown("**Turning points**")
    for row in points.itertuples():
        st.markdown(
            f"Turn {row.turn}, **{plain(str(row.name))}**: {100 * row.before:.0f}% → "
            f"{100 * row.after:.0f}% ({_points(row.change)}). Dice {_interval(row.dice, row.dice_low, row.dice_high)}, "
            f"decisions {_interval(row.decisions, row.decisions_low, row.decisions_high)} against "
            f"{_against(row.best_plan)}."
        )
    if len(points):
        st.caption(
            "A turn's change holds more than its dice and its decisions: above all what the best plan itself was "
            "worth on average (a turn's armies and attacks usually raise the mover's chance), so the two parts need "
            "not add up to it."
        )
    with st.expander("Every turn"):
        st.dataframe(every_turn(turns), hide_index=True, key="review_turns")
        st.download_button(
            "Download the review (CSV)",
            turns.to_csv(index=False),
            file_name="review.csv",
            mime="text/csv",
            key="review_csv",
        )
