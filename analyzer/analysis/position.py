"""What a position is worth to each player: continents, reinforcements and attacks.

Everything here reads a :class:`~analyzer.game.state.GameState` and returns plain
values (frozen dataclasses, pandas DataFrames, the solver's results), so the
app and the notebooks share one implementation. Odds come from the exact
solver (:mod:`analyzer.solver.battle`, :mod:`analyzer.solver.chains`); nothing is sampled.

Territories are given by name (any case) or id wherever a function takes one.

>>> from analyzer.game.state import GameState
>>> owner = [0] * 38 + [1] * 4          # player 1 holds Australia, the last four territories
>>> armies = [3] * 38 + [2, 1, 1, 1]
>>> state = GameState.from_position(owner, armies, n_players=3)
>>> status = {c.continent: c for c in continent_status(state, 0)}["Australia"]
>>> status.holder, status.borders, status.missing
(1, ('Indonesia',), ('Indonesia', 'New Guinea', 'Western Australia', 'Eastern Australia'))
>>> round(attack_odds(state, "Siam", "Indonesia").p_win, 4)   # 3 armies (2 rolling) against 2
0.3627
"""

from __future__ import annotations

# One module per idea; the names most callers need are importable from here too, in one import.
from analyzer.analysis.attacks import attack_odds, attack_sources, attack_targets, chain_odds  # noqa: F401
from analyzer.analysis.continents import ContinentStatus, continent_status, continent_table  # noqa: F401
from analyzer.analysis.editing import blank_position, edit_position, new_game_from_position  # noqa: F401
from analyzer.analysis.evaluator import Chances, face_down_assumption, win_chances  # noqa: F401
from analyzer.analysis.forecast import reinforcement_forecast  # noqa: F401
from analyzer.analysis.suggestions import TERRITORY_VALUE, attack_suggestions  # noqa: F401
from analyzer.game.labels import COLORS_LABEL, NAMES_LABEL, player_labels, with_player_labels  # noqa: F401
