"""Attacks from a position: which territories can attack which, and the exact odds of a battle or a chain."""

from __future__ import annotations

from collections.abc import Sequence

from analyzer.errors import IllegalActionError
from analyzer.game.board import NameOrId
from analyzer.game.state import GameState
from analyzer.solver.battle import BattleResult, battle
from analyzer.solver.chains import ChainResult, chain


def attack_targets(state: GameState, source: NameOrId) -> list[int]:
    """Ids of the territories that ``source`` (a name or an id)'s owner could attack from it
    (:meth:`~analyzer.game.core.StateCore.attack_targets`)."""
    return state.attack_targets(state.board.index(source))


def attack_sources(state: GameState, player: int | None = None, *, stop_at: int = 1) -> list[int]:
    """Ids of the territories with more than ``stop_at`` armies and an enemy neighbour
    (:meth:`~analyzer.game.core.StateCore.attack_sources`).

    Of ``player``'s territories, or of every player's but the neutral force's
    (which never attacks) when ``player`` is None.
    """
    players = range(state.n_players) if player is None else [player]
    return [int(t) for t in state.attack_sources(stop_at + 1, players)]


def _check_border(state: GameState, source: int, target: int) -> None:
    if not state.board.adjacency[source, target]:
        names = state.board.territories
        raise IllegalActionError(
            f"{names[source]} does not border {names[target]}: attacks go to a neighbouring territory"
        )


def _check_enemy(state: GameState, source: int, target: int) -> None:
    if state.owner[source] == state.owner[target]:
        names = state.board.territories
        raise IllegalActionError(
            f"{names[source]} and {names[target]} have the same owner: attack a territory held by someone else"
        )


def attack_odds(state: GameState, source: NameOrId, target: NameOrId, *, stop_at: int = 1) -> BattleResult:
    """The exact battle of every army on ``source`` against every army on ``target``.

    Raises :class:`IllegalActionError` if they do not border or have the same
    owner, and :class:`~analyzer.errors.BattleInputError` if ``source`` has too
    few armies for ``stop_at``.
    """
    s, t = state.board.index(source), state.board.index(target)
    _check_border(state, s, t)
    _check_enemy(state, s, t)
    return battle(int(state.armies[s]), int(state.armies[t]), stop_at=stop_at)


def chain_odds(state: GameState, path: Sequence[NameOrId], *, stop_at: int = 1, garrison: int = 1) -> ChainResult:
    """Exact odds of the stack on ``path[0]`` conquering ``path[1:]`` one after another.

    Each territory of the path must border the one before it and be held by
    someone other than the attacker; ``garrison`` is left in each conquered
    territory the stack moves on from (see :mod:`analyzer.solver.chains`).
    """
    board = state.board
    ids = [board.index(t) for t in path]
    if len(ids) < 2:
        raise IllegalActionError(
            f"a chain needs the attacking territory and at least one target, got {len(ids)} territories"
        )
    seen = set()
    for prev, t in zip(ids, ids[1:]):
        if t in seen or t == ids[0]:
            raise IllegalActionError(f"{board.territories[t]} appears twice in the chain")
        seen.add(t)
        _check_border(state, prev, t)
        _check_enemy(state, ids[0], t)
    return chain(int(state.armies[ids[0]]), [int(state.armies[t]) for t in ids[1:]], garrison=garrison, stop_at=stop_at)
