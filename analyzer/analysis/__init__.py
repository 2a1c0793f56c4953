"""Analyses of a position or a game, for the app, the command line and the notebooks.

What it offers, one module each: the attacks a position allows and their odds
(:mod:`~analyzer.analysis.attacks`, :mod:`~analyzer.analysis.suggestions`, :mod:`~analyzer.analysis.quick_odds`),
continents and next turn's reinforcements (:mod:`~analyzer.analysis.continents`,
:mod:`~analyzer.analysis.forecast`), each seat's chance to win (:mod:`~analyzer.analysis.evaluator`), the
best whole turn (:mod:`~analyzer.analysis.search`), a game's log, luck and review
(:mod:`~analyzer.analysis.log`, :mod:`~analyzer.analysis.luck`, :mod:`~analyzer.analysis.review`), and a
position typed in or edited at the table (:mod:`~analyzer.analysis.editing`, :mod:`~analyzer.analysis.setup`).
:mod:`~analyzer.analysis.position` gathers the names most callers need.
"""
