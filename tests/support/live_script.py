"""Live games the tests share: a 3-player game played entry by entry through the recorder by a simple table
policy (each entry's effect checked against arithmetic done here), and a turn that ends with a card drawn face down."""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.errors import IllegalActionError
from analyzer.game.board import classic_board
from analyzer.game.state import GameState
from analyzer.game.vocabulary import DECK, DISCARD, Phase
from analyzer.live import LIVE_LABEL, LiveGame
from analyzer.solver.battle import battle

BOARD = classic_board()
NAMES = ["Ann", "Bo", "Cy"]

#: (method, keyword arguments) of one entry of the script.
Step = tuple[str, dict[str, Any]]


def script_start() -> GameState:
    """A 3-player position: Cy (seat 2) is down to Australia and Siam, holding two cards; Ann (seat 0) to move."""
    owner = [1] * 42
    armies = [2] * 42
    for t in range(26, 37):
        owner[t], armies[t] = 0, 3
    for t in range(37, 42):
        owner[t] = 2
    armies[BOARD.index("China")] = 6
    state = GameState.from_position(owner, armies, n_players=3, player=0, hands={2: [0, 13]})
    state.labels["names"] = list(NAMES)
    state.labels["colors"] = ["#d62728", "#1f5fbf", "#2ca02c"]
    return state


def same_game(a: GameState, b: GameState) -> bool:
    """The same game, the recorder's bookkeeping (which also holds the redo list) aside."""
    da, db = a.to_dict(), b.to_dict()
    # to_dict hands out the game's own labels dict: strip a copy.
    da["labels"] = {k: v for k, v in da["labels"].items() if k != LIVE_LABEL}
    db["labels"] = {k: v for k, v in db["labels"].items() if k != LIVE_LABEL}
    return da == db


def _weakest_target(s: GameState) -> int:
    counts = {p: len(s.territories_of(p)) for p in range(s.n_players) if p != s.player and s.alive[p]}
    return min(counts, key=lambda p: counts[p])


def next_step(live: LiveGame, rng: np.random.Generator, battles: int) -> Step:
    """The entry a simple table policy makes next: trade when it must, pile armies on the front, attack, move in."""
    s = live.state
    p = s.player
    mine_hidden = sorted(set(live.hidden) & set(s.hand(live.me))) if live.me is not None else []
    if mine_hidden:  # cards handed over face down: the user reads them off and names them
        return "name_cards", {"cards": mine_hidden}
    if s.phase == Phase.REINFORCE:
        hand = s.hand(p)
        trades = s.legal_trades()
        if p == live.me and trades and (len(hand) >= 5 or (not s.resume_attack and rng.random() < 0.5)):
            return "trade", {"cards": list(trades[0].cards), "bonus": trades[0].bonus}
        traded = bool(s.trades) and s.trades[-1].player == p and s.trades[-1].turn == s.turn
        if p != live.me and (len(hand) >= 5 or (len(hand) >= 3 and not traded and rng.random() < 0.5)):
            try:  # "a set" of cards face down: the recorder refuses it if no hidden cards could make one
                LiveGame(s).trade()
                return "trade", {}
            except IllegalActionError:
                pass
        victim = _weakest_target(s)
        front = [t for t in s.territories_of(p) if any(s.owner[n] == victim for n in BOARD.neighbors[t])]
        front = front or [t for t in s.territories_of(p) if any(s.owner[n] != p for n in BOARD.neighbors[t])]
        best = max(front, key=lambda t: int(s.armies[t]))
        if s.pending >= 4 and len(front) > 1:
            other = next(t for t in front if t != best)
            return "place", {"armies": {BOARD.territories[best]: s.pending - 1, BOARD.territories[other]: 1}}
        return "place", {"armies": {BOARD.territories[best]: s.pending}}
    if s.phase == Phase.MOVE_IN:
        lo, hi = s.move_range()
        return "move_in", {"armies": hi if rng.random() < 0.7 else lo}
    if s.phase == Phase.ATTACK and battles < 4:
        victim = _weakest_target(s)
        options = [
            (int(s.armies[a]) - int(s.armies[t]) + (5 if s.owner[t] == victim else 0), a, int(t))
            for a in s.territories_of(p)
            for t in BOARD.neighbors[a]
            if s.owner[t] != p and s.armies[a] >= 3 and s.armies[a] > s.armies[t]
        ]
        if options:
            _, a, t = max(options)
            stop = 1 if rng.random() < 0.7 or s.armies[a] < 4 else 2
            r = battle(int(s.armies[a]), int(s.armies[t]), stop_at=stop)
            i = int(rng.choice(len(r.probability), p=r.probability / r.probability.sum()))
            return "battle", {
                "source": BOARD.territories[a],
                "target": BOARD.territories[t],
                "attacker_left": int(r.attacker_left[i]),
                "defender_left": int(r.defender_left[i]),
            }
    card = None
    if s.captured and p == live.me:
        deck = np.flatnonzero(s.card_loc == DECK)
        card = int(deck[int(rng.integers(len(deck)))])
    moves = [
        (int(s.armies[a]), a, int(t))
        for a in s.territories_of(p)
        if s.armies[a] > 1 and all(s.owner[n] == p for n in BOARD.neighbors[a])
        for t in BOARD.neighbors[a]
    ]
    if moves and rng.random() < 0.6:
        n, a, t = max(moves)
        return "fortify", {
            "source": BOARD.territories[a],
            "target": BOARD.territories[t],
            "armies": n - 1,
            "card": card,
        }
    return "end_turn", {"card": card}


def check_entry(before: GameState, after: GameState, step: Step) -> None:
    """The entry's effect on the board, worked out here from the entry alone."""
    name, kw = step
    owner, armies = before.owner.copy(), before.armies.copy()
    if name == "place":
        for t, k in kw["armies"].items():
            armies[BOARD.index(t)] += k
    elif name == "battle":
        a, t = BOARD.index(kw["source"]), BOARD.index(kw["target"])
        armies[a], armies[t] = kw["attacker_left"], kw["defender_left"]
        if kw["defender_left"] == 0:
            owner[t] = before.player
            forced = min(3, kw["attacker_left"] - 1) == kw["attacker_left"] - 1
            if forced:  # the engine moves everyone in at once when there is no choice
                armies[t], armies[a] = kw["attacker_left"] - 1, 1
    elif name == "move_in":
        assert before.move is not None
        a, t = before.move[0], before.move[1]
        armies[a] -= kw["armies"]
        armies[t] += kw["armies"]
    elif name == "fortify":
        armies[BOARD.index(kw["source"])] -= kw["armies"]
        armies[BOARD.index(kw["target"])] += kw["armies"]
    assert after.owner.tolist() == owner.tolist(), step
    if name != "trade":
        assert after.armies.tolist() == armies.tolist(), step
    # Every one of the 44 cards is somewhere, and the hand sizes only change by draws, trades and hand-overs.
    assert np.all((after.card_loc >= DISCARD) & (after.card_loc < after.n_players))
    if name in ("end_turn", "fortify") and before.captured:
        assert len(after.hand(before.player)) == len(before.hand(before.player)) + 1
    if name == "trade":
        assert len(after.hand(before.player)) == len(before.hand(before.player)) - 3


def play_script(n_entries: int = 80, seed: int = 3) -> tuple[LiveGame, list[Step]]:
    """The scripted game: ``n_entries`` entries of the table policy, with an undo and a redo in the middle."""
    live = LiveGame(script_start(), me=0, seed=11)
    rng = np.random.default_rng(seed)
    steps: list[Step] = []
    battles = 0
    while len(steps) < n_entries and not live.state.is_terminal():
        step = next_step(live, rng, battles)
        before = live.state
        getattr(live, step[0])(**step[1])
        check_entry(before, live.state, step)
        battles = 0 if step[0] in ("end_turn", "fortify") else battles + (step[0] == "battle")
        steps.append(step)
        if len(steps) == 30:
            kept = live.state
            live.undo(3)
            live.redo(2)
            live.redo()
            assert live.state == kept
            steps += [("undo", {"n": 3}), ("redo", {"n": 2}), ("redo", {})]
    return live, steps


def captured_then_ended(me: int | None) -> GameState:
    """Ann (seat 0 of Ann, Bo, Cy) places 3 on Alaska, takes Kamchatka from Bo and ends her turn: the card she
    draws is left face down (``me``: the user's seat)."""
    owner = [1] * 42
    alaska, kamchatka = BOARD.index("Alaska"), BOARD.index("Kamchatka")
    for t in range(9):  # North America
        owner[t] = 0
    for t in range(9, 18):
        owner[t] = 2
    owner[kamchatka] = 1
    armies = [3] * 42
    state = GameState.from_position(owner, armies, n_players=3, player=0)
    state.labels["names"] = ["Ann", "Bo", "Cy"]
    live = LiveGame(state, me=me, seed=3)
    live.place({alaska: live.state.pending})
    live.battle(alaska, kamchatka, 6, 0)
    if live.state.move is not None:
        live.move_in(live.state.move_range()[1])
    live.end_turn()
    return live.state
