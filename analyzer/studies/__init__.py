"""Strategy studies: openings, card-set timing and continent value.

Each study runs on the simulator (:func:`analyzer.sim.simulate.simulate`, so it
scales from one process to local workers or a Dask cluster with the same
``workers`` / ``dask`` / ``scheduler`` options) or on the exact solver, and
returns a tidy pandas DataFrame in which every win rate carries a confidence
interval. The notebooks in ``notebooks/`` are a guided tour of them.

Openings (:mod:`analyzer.studies.openings`)
    :func:`play_openings`, :func:`seat_features`, :func:`seat_order_win_rates`,
    :func:`concentration_win_rates`, :func:`first_claim_win_rates`,
    :func:`first_claim_by_field_draft`,
    :func:`fit_draft_model`, :func:`evaluate_draft`, :func:`recommend_pick`,
    :func:`calibration`, :class:`ModelDraftBot`.
Card-set timing (:mod:`analyzer.studies.cards`)
    :func:`card_timing`, :func:`card_policy`, :class:`ContinentCardBot`.
Trade now or hold (:mod:`analyzer.studies.trades`), the kill for cards (:mod:`analyzer.studies.eliminations`)
    :func:`~analyzer.studies.trades.play_trade_choices`, :func:`~analyzer.studies.trades.trade_value`,
    :func:`~analyzer.studies.eliminations.kill_for_cards`.
Continent value (:mod:`analyzer.studies.continents`)
    :func:`continent_facts`, :func:`conquest_costs`, :func:`play_continents`,
    :func:`continent_holdings`, :func:`holding_value`.

:mod:`analyzer.studies.plots` draws the tables (win rates with interval
whiskers, heatmaps); :mod:`analyzer.studies.stats` holds the statistics they
share. Every study that simulates games takes a ``population``: the bots
that fill the seats (:data:`POPULATIONS`: ``"classic"``, the heuristic bot with
its default knobs, ``"planner"``, the planning bot, or
``"strategist"``, the planner with kills for cards; ``"default"`` is whichever
the bot registry calls ``default``).
``python -m analyzer.studies --games N [--population default]`` reruns the
notebooks at a chosen size; ``python -m analyzer.studies cards`` runs the card decision studies.
"""

from analyzer.studies.cards import card_timing, policy_outcome
from analyzer.studies.continents import (
    ContinentRun,
    conquest_costs,
    continent_facts,
    continent_holdings,
    holding_value,
    play_continents,
)
from analyzer.studies.openings import (
    FIELD_DRAFTS,
    DraftModel,
    ModelDraftBot,
    OpeningRun,
    calibration,
    concentration_win_rates,
    draft_picks,
    evaluate_draft,
    field_draft_bot,
    first_claim_by_field_draft,
    first_claim_win_rates,
    fit_draft_model,
    play_openings,
    recommend_pick,
    seat_features,
    seat_order_win_rates,
)
from analyzer.studies.policies import (
    CARD_POLICIES,
    POPULATIONS,
    ContinentCardBot,
    OpeningBot,
    card_policy,
    population_bot,
    population_name,
)

__all__ = [
    "CARD_POLICIES",
    "ContinentCardBot",
    "ContinentRun",
    "DraftModel",
    "FIELD_DRAFTS",
    "ModelDraftBot",
    "OpeningBot",
    "OpeningRun",
    "POPULATIONS",
    "calibration",
    "card_policy",
    "card_timing",
    "concentration_win_rates",
    "conquest_costs",
    "continent_facts",
    "continent_holdings",
    "draft_picks",
    "evaluate_draft",
    "field_draft_bot",
    "first_claim_by_field_draft",
    "first_claim_win_rates",
    "fit_draft_model",
    "holding_value",
    "play_continents",
    "play_openings",
    "policy_outcome",
    "population_bot",
    "population_name",
    "recommend_pick",
    "seat_features",
    "seat_order_win_rates",
]
