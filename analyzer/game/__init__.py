"""The rules engine: the board, the rule options, dice, cards, missions, actions and the game state machine.

What it offers: :class:`~analyzer.game.state.GameState` (:mod:`~analyzer.game.state`: a game
started, typed in or loaded; the checked ``apply``; the saved form), the map
(:mod:`~analyzer.game.board`), the rule options (:class:`~analyzer.game.rules.Rules`,
:class:`~analyzer.game.dice.DiceRules`), the actions (:mod:`~analyzer.game.actions`), the
vocabulary every layer shares (:mod:`~analyzer.game.vocabulary`: phases, player counts, the neutral
force), the names a table reads (:mod:`~analyzer.game.labels`) and refusals in words
(:mod:`~analyzer.game.wording`). The rules' effect is compiled, in :mod:`analyzer.game.engine`;
:mod:`~analyzer.game.validation` checks a state before it reaches that code.
"""
