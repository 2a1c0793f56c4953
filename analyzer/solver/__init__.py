"""The exact battle solver: the odds of battles computed by Markov chains, never sampled.

What it offers: one battle (:func:`~analyzer.solver.battle.battle`,
:func:`~analyzer.solver.battle.armies_needed`), a chain of battles by one stack or a whole region
(:mod:`~analyzer.solver.chains`), odds tables for every battle up to a size
(:mod:`~analyzer.solver.tables`), and Balanced Blitz's reshaping of a battle's outcomes
(:mod:`~analyzer.solver.blitz`).
"""
