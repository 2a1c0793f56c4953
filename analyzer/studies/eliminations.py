"""The value of eliminating a player for their cards, against the set count and the number of players.

A controlled experiment on one decision. Games are played by a population's bots
(:data:`~analyzer.studies.policies.POPULATIONS`) until, at the start of some player's turn, an
elimination is within reach: an opponent (the **victim**; at least two others still play, so the kill
does not end the game) whose every territory the **mover** takes with probability at least
``kill_odds`` (:data:`KILL_ODDS`) by the exact solver (:func:`analyzer.solver.chains.conquest`),
attacking from one of its territories next to the victim with all its reinforcements there (and its
best set traded). There the game branches in two, on the same dice:

* **take**: the mover trades that set, puts everything on that territory and attacks the victim's
  territories from its biggest stack next to them, the weakest first, moving everything in, until the
  victim is out or no attack is left (:func:`take_turn`); then its bot finishes the turn;
* **spare**: the mover trades the same set, then its bot plays the turn, except that it never attacks
  the victim (:func:`spare_turn`).

Each arm then plays on to the end with the population's bots, ``rollouts`` times (rollout ``r`` of
both arms draws from the same generator). The value of the elimination is the mover's win rate
after *take* minus after *spare*, paired by position: the value of going for the kill (it fails
sometimes: ``killed`` says how often it did not), with what comes with it (the cards, a rival
fewer, the armies spent). Positions are found one per game, in games whose first
:data:`SET_BANDS` band is drawn at random, so every set count is sampled.

>>> SET_BANDS
((0, 1), (2, 3), (4, 5), (6, 99))
>>> [set_band(k) for k in (0, 3, 5, 9)]
['0-1', '2-3', '4-5', '6+']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.bots.base import BattleOrder, Bot
from analyzer.bots.heuristic import HeuristicBot
from analyzer.errors import BattleInputError, StudyError
from analyzer.game.actions import Attack, EndAttack, MoveIn, Place, Trade
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.sim.battles import resolve_order
from analyzer.sim.playout import play_compiled
from analyzer.sim.runs import DEFAULT_MAX_ROUNDS
from analyzer.solver.chains import conquest
from analyzer.studies.cards import PLAYER_COUNTS
from analyzer.studies.policies import population_bot, population_name
from analyzer.studies.stats import MIN_POSITIONS, advice, check_confidence, check_count, paired_difference, verdicts

#: The solver's odds of a whole elimination at which a position counts as one where it is within reach.
KILL_ODDS = 0.5
#: Victims with more territories than this are not searched (a kill of more is rare and slow to solve).
MAX_VICTIM_TERRITORIES = 8
#: Bands of the count of sets traded before the position (whole numbers, both ends included).
SET_BANDS = ((0, 1), (2, 3), (4, 5), (6, 99))
#: Bands of the cards a victim hands over (both ends included; the last open).
CARD_BANDS = ((1, 2), (3, 3), (4, 4), (5, 99))


#: The columns of :func:`play_eliminations`' table, before ``population``.
POSITION_COLUMNS = [
    "game",
    "n_players",
    "players_left",
    "round",
    "mover",
    "victim",
    "sets_traded",
    "set_band",
    "set_value",
    "victim_territories",
    "victim_armies",
    "victim_cards",
    "mover_cards",
    "p_kill",
    "killed",
    "cards_taken",
    "spared",
    "win_take",
    "win_spare",
]


def _band(value: int, bands: tuple[tuple[int, int], ...], what: str) -> str:
    for low, high in bands:
        if low <= value <= high:
            return f"{low}+" if high == bands[-1][1] else str(low) if low == high else f"{low}-{high}"
    raise StudyError(f"{what} must be {bands[0][0]} to {bands[-1][1]}, got {value!r}")


def set_band(sets_traded: int) -> str:
    """The :data:`SET_BANDS` label of a count of sets traded: ``"2-3"``, or ``"6+"`` for the last."""
    return _band(sets_traded, SET_BANDS, "sets traded")


def card_band(cards: int) -> str:
    """The :data:`CARD_BANDS` label of the cards a victim holds.

    >>> [card_band(k) for k in (1, 3, 4, 6)]
    ['1-2', '3', '4', '5+']
    """
    return _band(cards, CARD_BANDS, "a victim's cards")


@dataclass(frozen=True)
class Opportunity:
    """An elimination within reach at the start of ``mover``'s turn: ``victim``'s territories, taken
    from ``entry`` with every reinforcement there after ``trade`` (None: no set to trade), by the
    solver's attack ``plan`` (pairs of territories, attacker first, in the order fought) with its
    probability ``p_kill``."""

    mover: int
    victim: int
    entry: int
    trade: Trade | None
    p_kill: float
    plan: tuple[tuple[int, int], ...]


def best_trade(state: GameState) -> Trade | None:
    """The legal trade worth most armies (the first such), or None."""
    trades = state.legal_trades()
    if not trades:
        return None
    symbols = state.board.card_symbols
    return max(trades, key=lambda t: state.rules.set_value(state.sets_traded, tuple(int(symbols[c]) for c in t.cards)))  # type: ignore[arg-type]


def opportunity(state: GameState, kill_odds: float = KILL_ODDS) -> Opportunity | None:
    """The elimination most likely to succeed this turn, if its odds reach ``kill_odds``; ``state`` at the
    start of a turn (reinforcement phase, nothing traded or placed yet) with at least three players left.

    Player 0 below holds everything but Siam (player 1, 2 armies) and Indonesia (player 2); with
    India's 3 armies and its 16 reinforcements it takes Siam almost surely:

    >>> from analyzer.game.board import classic_board
    >>> board = classic_board()
    >>> owner, armies = [0] * 42, [3] * 42
    >>> owner[board.index("Siam")], owner[board.index("Indonesia")] = 1, 2
    >>> armies[board.index("Siam")] = 2
    >>> state = GameState.from_position(owner, armies, n_players=3)
    >>> found = opportunity(state)
    >>> found.victim, board.territories[found.entry], found.p_kill > 0.99
    (1, 'China', True)
    """
    if state.phase != Phase.REINFORCE or state.resume_attack or int(np.count_nonzero(state.alive)) < 3:
        return None
    p = state.player
    trade = best_trade(state)
    extra = int(state.pending)
    if trade is not None:
        symbols = state.board.card_symbols
        extra += state.rules.set_value(state.sets_traded, tuple(int(symbols[c]) for c in trade.cards))  # type: ignore[arg-type]
    board = state.board
    owner, armies = state.owner, state.armies
    names = board.territories
    borders = [(names[b.a], names[b.b]) for b in board.borders]
    best: Opportunity | None = None
    for v in range(state.n_players):
        held = np.flatnonzero(owner == v)
        if v == p or not state.alive[v] or len(held) > MAX_VICTIM_TERRITORIES:
            continue
        entries = sorted({int(e) for t in held for e in board.neighbors[t] if owner[e] == p})
        # More armies than victim's territories is needed to end in all of them; skip hopeless cases unsolved.
        entries = [e for e in entries if armies[e] + extra > len(held)]
        targets = {names[t]: int(armies[t]) for t in held}
        for e in entries:
            try:
                solved = conquest({names[e]: int(armies[e]) + extra}, targets, borders)
            except BattleInputError:  # the victim's territories are not all reachable through its own from e
                continue
            if solved.p_all >= kill_odds and (best is None or solved.p_all > best.p_kill):
                plan = tuple((board.index(a), board.index(b)) for a, b in solved.plan)
                best = Opportunity(p, v, e, trade, solved.p_all, plan)
    return best


def _fight(state: GameState, order: BattleOrder, rng: np.random.Generator, victim: int) -> int:
    """Carry out ``order``; the cards the attacker gained if the battle eliminated ``victim``, else 0."""
    hand = len(state.hand(state.player))
    alive = bool(state.alive[victim])
    state.apply(resolve_order(state, order, rng))
    return len(state.hand(state.player)) - hand if alive and not state.alive[victim] else 0


def _finish_turn(state: GameState, bot: Bot, rng: np.random.Generator, victim: int, spare: bool = False) -> int:
    """``bot`` plays the rest of the mover's turn (never attacking ``victim`` if ``spare``), until the
    turn has passed or the game is over; returns the cards taken from ``victim`` if it eliminated them."""
    turn, taken = state.turn, 0
    while state.turn == turn and state.phase != Phase.GAME_OVER:
        if state.phase in (Phase.ROLL, Phase.DRAW):
            state.apply_chance(rng)
            continue
        decision = bot.choose(state, rng)
        if spare and isinstance(decision, (BattleOrder, Attack)) and state.owner[decision.target] == victim:
            decision = EndAttack()
        if isinstance(decision, BattleOrder):
            taken += _fight(state, decision, rng, victim)
        else:
            state.apply(decision)
    return taken


def spare_turn(state: GameState, found: Opportunity, bot: Bot, rng: np.random.Generator) -> None:
    """The *spare* arm's turn: ``found.trade`` (if any), then ``bot``'s turn without an attack on the victim."""
    if found.trade is not None:
        state.apply(found.trade)
    _finish_turn(state, bot, rng, found.victim, spare=True)


def take_turn(state: GameState, found: Opportunity, bot: Bot, rng: np.random.Generator) -> int:
    """The *take* arm's turn (see the module): the solver's plan fought battle by battle, each to the
    end; after each conquest the stack splits between the territory taken and the one it came from in
    proportion to what each still has to take (armies plus one garrison per territory). If the plan
    breaks, the bot plays on. Returns the cards the mover took from the victim (0 if the victim
    survived), counted in its hand across the battle that eliminated the victim."""
    p, v = found.mover, found.victim
    if found.trade is not None:
        state.apply(found.trade)
    while state.must_trade():
        state.apply(best_trade(state))  # type: ignore[arg-type]
    state.apply(Place(found.entry, int(state.pending)))
    taken = 0
    steps = list(found.plan)
    while state.alive[v] and state.phase != Phase.GAME_OVER:
        if state.phase in (Phase.ROLL, Phase.DRAW):
            state.apply_chance(rng)
        elif state.phase == Phase.MOVE_IN:
            state.apply(MoveIn(_split(state, steps)))
        elif state.phase != Phase.ATTACK or state.current_player != p:
            break
        else:
            while steps and state.owner[steps[0][1]] == p:
                steps.pop(0)
            if not steps or state.owner[steps[0][0]] != p or state.armies[steps[0][0]] < 2:
                break  # the plan is done or its stack is spent
            s, t = steps[0]
            taken = _fight(state, BattleOrder(s, t, 1), rng, v)
            if state.owner[t] != p:
                break  # the battle was lost
    return taken + _finish_turn(state, bot, rng, v)


def _split(state: GameState, steps: list[tuple[int, int]]) -> int:
    """Armies to move in after the conquest of ``steps[0]``, the plan's next step: in proportion to what
    the territory taken and the one attacked from still have to take by the rest of the plan."""
    s, t, low, high = state.move  # type: ignore[misc]
    armies = state.armies
    children: dict[int, list[int]] = {}
    for a, b in steps[1:]:
        children.setdefault(a, []).append(b)

    def need(x: int) -> int:
        return sum(int(armies[c]) + 1 + need(c) for c in children.get(x, []))

    ahead, behind = need(t), need(s)
    if behind == 0:
        return high
    if ahead == 0:
        return low
    return int(np.clip(round((high + 1) * ahead / (ahead + behind)), low, high))


def _game_rng(seed: int, *key: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


def find_position(
    n_players: int,
    bot: HeuristicBot,
    rng: np.random.Generator,
    min_sets: int = 0,
    kill_odds: float = KILL_ODDS,
) -> tuple[GameState, Opportunity] | None:
    """Play a game with ``bot`` in every seat until an :func:`opportunity` arises with at least
    ``min_sets`` sets traded; the state at that turn's start and the opportunity, or None if the game
    ended first."""
    state = GameState.new(n_players, rng, Rules(turn_limit=DEFAULT_MAX_ROUNDS))
    turn = -1
    while state.phase != Phase.GAME_OVER:
        if state.phase in (Phase.ROLL, Phase.DRAW):
            state.apply_chance(rng)
            continue
        if state.turn != turn and state.phase == Phase.REINFORCE:
            turn = state.turn
            found = opportunity(state, kill_odds) if state.sets_traded >= min_sets else None
            if found is not None:
                return state, found
        decision = bot.choose(state, rng)
        state.apply_unchecked(resolve_order(state, decision, rng) if isinstance(decision, BattleOrder) else decision)
    return None


def play_eliminations(
    population: str,
    n_games: int,
    seed: int = 0,
    *,
    player_counts: Sequence[int] = PLAYER_COUNTS,
    rollouts: int = 4,
    kill_odds: float = KILL_ODDS,
    workers: int = 1,
) -> pd.DataFrame:
    """Search ``n_games`` games per player count of the ``population``'s bots for a position (see the
    module) and play both arms from each, ``rollouts`` times.

    One row per position found: ``game``, ``n_players``, ``players_left``, ``round``, ``mover``,
    ``victim``, ``sets_traded`` (before the turn), ``set_band``, ``set_value`` (the next set's worth),
    ``victim_territories``, ``victim_armies``, ``victim_cards``, ``mover_cards``, ``p_kill``;
    ``killed`` (share of the *take* rollouts that eliminated the victim), ``cards_taken`` (mean over
    those), ``spared`` (share of the *spare* rollouts with the victim alive after the turn: always 1),
    ``win_take`` and ``win_spare`` (the mover's share of wins). ``workers`` is accepted for the CLI;
    the positions are searched in this process (a game is a few hundredths of a second).
    """
    bot = population_bot(population)
    n_games = check_count(n_games, "n_games", 1)
    rollouts = check_count(rollouts, "rollouts", 1)
    if not 0 < kill_odds <= 1:
        raise StudyError(f"kill_odds must be a probability above 0, got {kill_odds!r}")
    del workers
    rows = []
    for n in player_counts:
        n = check_count(n, "players", 3)
        bots = [bot] * n
        for game in range(n_games):
            rng = _game_rng(seed, n, game)
            band = SET_BANDS[int(rng.integers(len(SET_BANDS)))]
            position = find_position(n, bot, rng, band[0], kill_odds)
            if position is None:
                continue
            state, found = position
            v, p = found.victim, found.mover
            row = {
                "game": game,
                "n_players": n,
                "players_left": int(np.count_nonzero(state.alive)),
                "round": int(state.round),
                "mover": p,
                "victim": v,
                "sets_traded": int(state.sets_traded),
                "set_band": set_band(int(state.sets_traded)),
                "set_value": state.next_set_value(),
                "victim_territories": int(np.count_nonzero(state.owner == v)),
                "victim_armies": int(state.armies[state.owner == v].sum()),
                "victim_cards": len(state.hand(v)),
                "mover_cards": len(state.hand(p)),
                "p_kill": found.p_kill,
            }
            kills, taken, spared, won = 0, [], 0, {"take": 0, "spare": 0}
            for r in range(rollouts):
                for arm in ("take", "spare"):
                    branch, arm_rng = state.copy(), _game_rng(seed, n, game, 1, r)
                    if arm == "take":
                        cards = take_turn(branch, found, bot, arm_rng)
                        if not branch.alive[v]:
                            kills += 1
                            taken.append(cards)
                    else:
                        spare_turn(branch, found, bot, arm_rng)
                        spared += bool(branch.alive[v])
                    if branch.phase != Phase.GAME_OVER:
                        play_compiled(branch, bots, arm_rng)
                    won[arm] += branch.winner == p
            row |= {
                "killed": kills / rollouts,
                "cards_taken": float(np.mean(taken)) if taken else float("nan"),
                "spared": spared / rollouts,
                "win_take": won["take"] / rollouts,
                "win_spare": won["spare"] / rollouts,
            }
            rows.append(row)
    return pd.DataFrame(rows, columns=POSITION_COLUMNS).assign(population=population_name(population))


def elimination_value(
    positions: pd.DataFrame, by: Sequence[str] = ("n_players", "set_band"), confidence: float = 0.95
) -> pd.DataFrame:
    """The value of going for the kill: *take* minus *spare*, paired by position, by ``by`` (and over
    all positions of each player count, with ``set_band`` ``"all"``).

    Columns: ``by``, ``positions``, ``set_value`` (mean), ``victim_cards`` (mean), ``p_kill`` and
    ``killed`` (means), ``win_take``, ``win_spare`` and ``vs_baseline`` (their difference) with its paired
    t interval ``vs_baseline_low`` .. ``vs_baseline_high``; NaN where fewer than two positions.
    """
    confidence = check_confidence(confidence)
    keys = list(by)
    missing = [
        c
        for c in [*keys, "win_take", "win_spare", "set_value", "victim_cards", "p_kill", "killed"]
        if c not in positions.columns
    ]
    if missing:
        raise StudyError(f"the positions lack the column(s) {', '.join(missing)}: build them with play_eliminations()")
    frames = [positions]
    if "set_band" in keys and "n_players" in keys:
        frames.append(positions.assign(set_band="all"))
    rows = []
    for key, part in pd.concat(frames, ignore_index=True).groupby(keys, sort=True):
        row = dict(zip(keys, key if isinstance(key, tuple) else (key,)))
        row |= {
            "positions": len(part),
            **{
                c: float(part[c].mean())
                for c in ("set_value", "victim_cards", "p_kill", "killed", "win_take", "win_spare")
            },
        }
        if len(part) >= 2:
            d = paired_difference(part["win_take"].to_numpy(), part["win_spare"].to_numpy(), confidence)
            row |= {"vs_baseline": d.estimate, "vs_baseline_low": d.ci_low, "vs_baseline_high": d.ci_high}
        else:
            row |= {"vs_baseline": float("nan"), "vs_baseline_low": float("nan"), "vs_baseline_high": float("nan")}
        rows.append(row)
    return pd.DataFrame(rows)


def kill_for_cards(positions: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """The value of the kill for cards, by the cards the victim hands over (``cards_band``,
    :data:`CARD_BANDS`) and the sets traded (``set_band``), then by the cards alone (``set_band``
    ``"all"``) and over all positions (both ``"all"``), every player count together: the columns of
    :func:`elimination_value`, and ``verdict`` and ``advice`` (``take it``, ``spare``, ``either`` or
    ``undecided``, :func:`~analyzer.studies.stats.advice`), as the trade-or-hold table reads its own: a cell of fewer
    than :data:`~analyzer.studies.stats.MIN_POSITIONS` positions has no difference or interval, and so stays
    undecided. Positions whose victim holds no card are left out."""
    if "victim_cards" not in positions.columns:
        raise StudyError("the positions lack the column victim_cards: build them with play_eliminations()")
    frame = positions[positions["victim_cards"] > 0]
    frame = frame.assign(cards_band=[card_band(int(k)) for k in frame["victim_cards"]])
    table = pd.concat(
        [
            elimination_value(frame, ("cards_band", "set_band"), confidence),
            elimination_value(frame.assign(set_band="all"), ("cards_band", "set_band"), confidence),
            elimination_value(frame.assign(cards_band="all", set_band="all"), ("cards_band", "set_band"), confidence),
        ],
        ignore_index=True,
    )
    few = table["positions"] < MIN_POSITIONS
    table.loc[few, ["vs_baseline", "vs_baseline_low", "vs_baseline_high"]] = np.nan
    low, high = table["vs_baseline_low"].to_numpy(), table["vs_baseline_high"].to_numpy()
    return table.assign(
        verdict=verdicts(low, high), advice=advice(table["vs_baseline"].to_numpy(), low, high, "take it", "spare")
    )


__all__ = [
    "CARD_BANDS",
    "KILL_ODDS",
    "MAX_VICTIM_TERRITORIES",
    "POSITION_COLUMNS",
    "SET_BANDS",
    "Opportunity",
    "best_trade",
    "card_band",
    "elimination_value",
    "find_position",
    "kill_for_cards",
    "opportunity",
    "play_eliminations",
    "set_band",
    "spare_turn",
    "take_turn",
]
