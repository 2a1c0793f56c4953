"""Attacks ranked by expected gain in armies: the odds, the losses, and the continents completed or broken."""

from __future__ import annotations

import pandas as pd

from analyzer.analysis.attacks import attack_sources, attack_targets
from analyzer.game.state import GameState
from analyzer.solver.battle import battle

#: What holding one more territory is worth, in armies, in :func:`attack_suggestions`'s expected gain:
#: the army left on it, its share of the territories // 3 reinforcement, and the card a first conquest earns.
TERRITORY_VALUE = 1.0


def attack_suggestions(
    state: GameState,
    player: int | None = None,
    *,
    stop_at: int = 1,
    territory_value: float = TERRITORY_VALUE,
) -> pd.DataFrame:
    """Every attack ``player`` (the player to move by default) can make now, best first.

    One row per (source, target) with the source's whole stack attacking until
    it conquers or holds ``stop_at`` armies. The expected gain, in armies, is::

        expected_gain = p_win * (territory_value + completes_bonus + breaks_bonus) - attacker_losses

    where ``p_win`` and ``attacker_losses`` (expected armies the attacker loses,
    won or lost) are the solver's exact values, ``territory_value`` is what one
    more territory is worth (:data:`TERRITORY_VALUE`), ``completes_bonus`` is
    the bonus of the target's continent if the target is the last territory of
    it that ``player`` lacks, and ``breaks_bonus`` is that bonus if the
    target's owner holds the whole continent (taking it cuts their
    reinforcements). A continent bonus is counted for one turn. The defender's
    losses are listed but not counted as gain: in a game of more than two
    players, weakening one opponent helps the others too.

    Rows are sorted by expected gain, then by P(win). Columns: ``source``,
    ``target``, ``defender`` (owner id), ``attackers``, ``defenders``,
    ``p_win``, ``attacker_losses``, ``attacker_losses_std``,
    ``defender_losses``, ``completes`` and ``breaks`` (continent names or
    ""), ``expected_gain``.
    """
    board = state.board
    p = state.player if player is None else player
    mine = state.owner == p
    rows = []
    for s in attack_sources(state, p, stop_at=stop_at):
        for t in attack_targets(state, s):
            r = battle(int(state.armies[s]), int(state.armies[t]), stop_at=stop_at)
            c = int(board.continent_of[t])
            continent = board.continents[c]
            others = [u for u in continent.territories if u != t]
            completes = continent.name if all(mine[u] for u in others) else ""
            breaks = continent.name if all(state.owner[u] == state.owner[t] for u in others) else ""
            bonus = continent.bonus * (bool(completes) + bool(breaks))
            rows.append(
                {
                    "source": board.territories[s],
                    "target": board.territories[t],
                    "defender": int(state.owner[t]),
                    "attackers": int(state.armies[s]),
                    "defenders": int(state.armies[t]),
                    "p_win": r.p_win,
                    "attacker_losses": r.expected_attacker_losses,
                    "attacker_losses_std": r.std_attacker_losses,
                    "defender_losses": r.expected_defender_losses,
                    "completes": completes,
                    "breaks": breaks,
                    "expected_gain": r.p_win * (territory_value + bonus) - r.expected_attacker_losses,
                }
            )
    columns = [
        "source",
        "target",
        "defender",
        "attackers",
        "defenders",
        "p_win",
        "attacker_losses",
        "attacker_losses_std",
        "defender_losses",
        "completes",
        "breaks",
        "expected_gain",
    ]
    frame = pd.DataFrame(rows, columns=columns)
    return frame.sort_values(["expected_gain", "p_win"], ascending=False, ignore_index=True)
