"""The fitted draft model the planning bot claims by: log-odds of winning per territories held in each continent.

The coefficients are the studies' draft model (:func:`analyzer.studies.openings.fit_draft_model`, after
Gibson, Desai & Zhao 2010) fitted to random drafts played on by the planning bot, one model per player
count with a claiming draft (3 to 6): :func:`analyzer.studies.draft_fit.fit_coefficients` makes them again. Claiming a territory
changes only the claimer's own terms (an unclaimed territory already counts as an enemy neighbour of
every seat next to it), so the claim that raises the claimer's share of the fitted win chances most is
the one that raises its own log-odds most: :func:`analyzer.bots.planner.decide` claims it, in compiled code.
"""

from __future__ import annotations

import numpy as np

from analyzer.game.board import classic_board

#: Player counts with a claiming draft that have a fitted model.
PLAYER_COUNTS = (3, 4, 5, 6)

#: ``{players: {term: log-odds}}``: ``"<continent> k"`` for holding k territories there (none is 0),
#: ``"enemy neighbours"`` and ``"adjacent pairs"``; made by :func:`analyzer.studies.draft_fit.fit_coefficients` (see ``FITTED_WITH``).
COEFFICIENTS: dict[int, dict[str, float]] = {
    3: {
        "North America 1": 0.0001,
        "North America 2": 0.1108,
        "North America 3": 0.1414,
        "North America 4": 0.1527,
        "North America 5": 0.2745,
        "North America 6": 0.2949,
        "North America 7": 1.3899,
        "North America 8": -0.3501,
        "North America 9": 0.0,
        "South America 1": 0.0591,
        "South America 2": 0.0578,
        "South America 3": 0.2984,
        "South America 4": 0.0659,
        "Europe 1": 0.0634,
        "Europe 2": -0.1631,
        "Europe 3": -0.3098,
        "Europe 4": -0.3754,
        "Europe 5": -0.2808,
        "Europe 6": -0.0585,
        "Europe 7": -0.2693,
        "Africa 1": 0.1299,
        "Africa 2": 0.1228,
        "Africa 3": 0.2024,
        "Africa 4": 0.2239,
        "Africa 5": 0.4058,
        "Africa 6": 0.0962,
        "Asia 1": 0.1126,
        "Asia 2": -0.2948,
        "Asia 3": -0.6002,
        "Asia 4": -0.6876,
        "Asia 5": -0.6245,
        "Asia 6": -0.6028,
        "Asia 7": -0.4646,
        "Asia 8": -0.6421,
        "Asia 9": 0.4889,
        "Asia 10": 0.0,
        "Asia 11": 0.0,
        "Asia 12": 0.0,
        "Australia 1": 0.2024,
        "Australia 2": 0.3506,
        "Australia 3": 0.5552,
        "Australia 4": 0.5937,
        "enemy neighbours": -0.0115,
        "adjacent pairs": -0.0037,
    },
    4: {
        "North America 1": 0.0734,
        "North America 2": -0.0091,
        "North America 3": -0.0202,
        "North America 4": 0.0015,
        "North America 5": 0.1978,
        "North America 6": -0.0107,
        "North America 7": -0.5158,
        "North America 8": -0.2176,
        "North America 9": 0.0,
        "South America 1": 0.0407,
        "South America 2": 0.0087,
        "South America 3": 0.2772,
        "South America 4": -0.0861,
        "Europe 1": -0.0728,
        "Europe 2": -0.213,
        "Europe 3": -0.4248,
        "Europe 4": -0.3803,
        "Europe 5": -0.4306,
        "Europe 6": 0.8532,
        "Europe 7": 0.0,
        "Africa 1": 0.1453,
        "Africa 2": 0.1768,
        "Africa 3": 0.1349,
        "Africa 4": 0.4837,
        "Africa 5": 1.3802,
        "Africa 6": 0.0,
        "Asia 1": 0.0637,
        "Asia 2": -0.2128,
        "Asia 3": -0.3269,
        "Asia 4": -0.3994,
        "Asia 5": -0.3307,
        "Asia 6": -0.2586,
        "Asia 7": -0.8318,
        "Asia 8": 0.3071,
        "Asia 9": 0.0,
        "Asia 10": 0.0,
        "Asia 11": 0.0,
        "Asia 12": 0.0,
        "Australia 1": 0.1064,
        "Australia 2": 0.1869,
        "Australia 3": 0.5206,
        "Australia 4": 0.4426,
        "enemy neighbours": -0.0261,
        "adjacent pairs": -0.0488,
    },
    5: {
        "North America 1": 0.1774,
        "North America 2": 0.1899,
        "North America 3": 0.1944,
        "North America 4": 0.2211,
        "North America 5": 0.595,
        "North America 6": -0.6331,
        "North America 7": -0.1421,
        "North America 8": 0.0,
        "North America 9": 0.0,
        "South America 1": 0.0459,
        "South America 2": 0.0695,
        "South America 3": 0.1765,
        "South America 4": 0.5147,
        "Europe 1": -0.0566,
        "Europe 2": -0.184,
        "Europe 3": -0.2765,
        "Europe 4": -0.3741,
        "Europe 5": -0.2836,
        "Europe 6": -0.3917,
        "Europe 7": 0.0,
        "Africa 1": 0.0388,
        "Africa 2": 0.0951,
        "Africa 3": 0.2949,
        "Africa 4": 0.4184,
        "Africa 5": 0.3771,
        "Africa 6": 0.0,
        "Asia 1": -0.1131,
        "Asia 2": -0.2088,
        "Asia 3": -0.1882,
        "Asia 4": -0.3128,
        "Asia 5": -0.376,
        "Asia 6": -0.0176,
        "Asia 7": -0.0731,
        "Asia 8": 0.0,
        "Asia 9": 0.0,
        "Asia 10": 0.0,
        "Asia 11": 0.0,
        "Asia 12": 0.0,
        "Australia 1": 0.1578,
        "Australia 2": 0.3024,
        "Australia 3": 0.7069,
        "Australia 4": 0.1601,
        "enemy neighbours": -0.0267,
        "adjacent pairs": -0.0415,
    },
    6: {
        "North America 1": 0.0632,
        "North America 2": 0.171,
        "North America 3": 0.2045,
        "North America 4": 0.249,
        "North America 5": 0.16,
        "North America 6": -0.4126,
        "North America 7": 0.0,
        "North America 8": 0.0,
        "North America 9": 0.0,
        "South America 1": 0.0702,
        "South America 2": 0.0781,
        "South America 3": 0.1456,
        "South America 4": 0.0983,
        "Europe 1": -0.0358,
        "Europe 2": -0.2608,
        "Europe 3": -0.3579,
        "Europe 4": -0.6516,
        "Europe 5": -0.5972,
        "Europe 6": 0.0,
        "Europe 7": 0.0,
        "Africa 1": 0.1807,
        "Africa 2": 0.3064,
        "Africa 3": 0.3456,
        "Africa 4": 0.2064,
        "Africa 5": 0.575,
        "Africa 6": 0.0,
        "Asia 1": -0.0382,
        "Asia 2": -0.1222,
        "Asia 3": -0.198,
        "Asia 4": -0.1917,
        "Asia 5": -0.204,
        "Asia 6": -0.5811,
        "Asia 7": 0.0,
        "Asia 8": 0.0,
        "Asia 9": 0.0,
        "Asia 10": 0.0,
        "Asia 11": 0.0,
        "Asia 12": 0.0,
        "Australia 1": 0.1754,
        "Australia 2": 0.2967,
        "Australia 3": 1.0579,
        "Australia 4": 0.6263,
        "enemy neighbours": -0.047,
        "adjacent pairs": -0.0686,
    },
}

#: The arguments :data:`COEFFICIENTS` were fitted with.
FITTED_WITH = {"games": 3000, "seed": 101}


def model_block(continent_of: np.ndarray) -> np.ndarray:
    """The coefficients as the compiled claim reads them: a flag (1: a model applies; 0: the board is not
    the classic one the models were fitted on), then for each of :data:`PLAYER_COUNTS` the log-odds of
    holding 0, 1, .. all territories of each continent in turn, then the enemy-neighbour and the
    adjacent-pair weights.

    >>> from analyzer.game.board import classic_board
    >>> block = model_block(np.asarray(classic_board().continent_of))
    >>> float(block[0]), len(block) == 1 + len(PLAYER_COUNTS) * (42 + 6 + 2)
    (1.0, True)
    """
    board = classic_board()
    if not np.array_equal(np.asarray(continent_of), np.asarray(board.continent_of)):
        return np.zeros(1)
    parts = [np.ones(1)]
    for n in PLAYER_COUNTS:
        terms = COEFFICIENTS[n]
        for continent in board.continents:
            parts.append(
                np.array([0.0] + [terms[f"{continent.name} {k}"] for k in range(1, len(continent.territories) + 1)])
            )
        parts.append(np.array([terms["enemy neighbours"], terms["adjacent pairs"]]))
    return np.concatenate(parts)
