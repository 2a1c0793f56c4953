"""The full-game simulator: many games between bots, reproducible, and their win rates with intervals.

What it offers: :func:`~analyzer.sim.simulate.simulate` (games in this process, local workers or Dask,
checkpointed), :func:`~analyzer.sim.evaluate.evaluate` (each seat's chance to win a position, by
rollouts) and :func:`~analyzer.sim.ladder.ladder` (bots rated against each other). Beneath them: one
game in Python with any bots (:mod:`~analyzer.sim.play`), whole games in compiled code
(:mod:`~analyzer.sim.playout`), battle orders drawn whole (:mod:`~analyzer.sim.battles`), the
workers (:mod:`~analyzer.sim.backends`) and the one interval of every win rate
(:mod:`~analyzer.sim.intervals`).
"""
