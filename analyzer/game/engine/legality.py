"""Legality, compiled: the one place that says whether an action may be played now, and why not.

:func:`reason` returns :data:`LEGAL` or the code of the first rule an action
(a code and arguments of :func:`analyzer.game.engine.steps.step`) breaks in a
state. Everything else asks it: :func:`legal_rows` lists the legal actions by
filtering every candidate through it (so
:meth:`analyzer.game.state.GameState.legal_actions` and ``apply`` cannot
disagree), ``GameState.apply`` turns its code into a message, the compiled
playout's ``check=True`` calls it on every action, and the bots ask
:func:`must_trade` and :func:`may_trade` about the card rules. Whose decision
it is comes from :func:`deciding_seat`.

>>> from analyzer.game.board import classic_board
>>> from analyzer.game.rules import Rules
>>> from analyzer.game.engine import steps
>>> S, C = steps.new_state(42, 44, 4), steps.config(classic_board(), Rules())
>>> reason(S, C, CLAIM, 5, 0, 0, 0) == LEGAL, reason(S, C, PLACE, 5, 1, 0, 0) == WRONG_PHASE
(True, True)
>>> steps.claim(S, C, 5)
>>> reason(S, C, CLAIM, 5, 0, 0, 0) == CLAIMED, len(legal_rows(S, C))
(True, 41)
"""

from __future__ import annotations

import numpy as np

from analyzer.game.engine import steps as E
from analyzer.game.engine.layout import (
    AT_ARMIES,
    AT_CARD_LOC,
    AT_OWNER,
    ATTACK_DICE,
    ATTACK_T,
    BONUS_USED,
    DEFENCE_DICE,
    MOVE_HI,
    MOVE_LO,
    N_CARDS,
    N_TERRITORIES,
    NEUTRAL,
    PENDING,
    PHASE,
    PLAYER,
    RESUME_ATTACK,
)
from analyzer.game.rules import FORCED_TRADE_HAND
from analyzer.game.vocabulary import (
    ATTACK,
    ATTACK_ACTION,
    BATTLE,
    CAPITAL,
    CHANCE,
    CHOOSE_CAPITAL,
    CLAIM,
    DEFEND,
    DEFEND_ACTION,
    DRAW,
    DRAW_ACTION,
    END_ATTACK,
    END_TURN,
    FORTIFY,
    FORTIFY_ACTION,
    GAME_OVER,
    MOVE_IN,
    MOVE_IN_ACTION,
    PLACE,
    REINFORCE,
    ROLL,
    ROLL_ACTION,
    SETUP_CLAIM,
    SETUP_PLACE,
    TERMINAL,
    TRADE,
)
from analyzer.kernels import kernel

#: :func:`deciding_seat` while a chance event (dice, card draw) is pending, and once the game is over.

# The reason codes: LEGAL, or the first rule an action breaks.
(
    LEGAL,
    WRONG_PHASE,
    NO_SUCH_TERRITORY,
    CLAIMED,
    NOT_YOURS,
    NOT_THE_FORCE,
    ONE_AT_A_TIME,
    MUST_TRADE,
    PLACE_RANGE,
    SET_SHAPE,
    NOT_IN_HAND,
    NOT_A_SET,
    TRADE_DOWN_ONLY,
    CHOOSE_BONUS,
    NO_BONUS,
    TARGET_YOURS,
    NOT_ADJACENT,
    TOO_FEW_TO_ATTACK,
    DICE_RANGE,
    BATTLE_RANGE,
    CAPTURE_LEAVES_TWO,
    DEFENCE_RANGE,
    MOVE_RANGE,
    FORTIFY_NOT_YOURS,
    NOT_REACHABLE,
    FORTIFY_RANGE,
    IMPOSSIBLE_ROLL,
    NOT_IN_PILE,
    PHANTOM_BATTLE,
) = range(29)


@kernel
def allowed(phase, kind):  # pragma: no cover - compiled
    """Whether action ``kind`` belongs to ``phase`` (Battle is an attack's whole outcome)."""
    if phase == SETUP_CLAIM:
        return kind == CLAIM
    if phase == SETUP_PLACE:
        return kind == PLACE
    if phase == CHOOSE_CAPITAL:
        return kind == CAPITAL
    if phase == REINFORCE:
        return kind == TRADE or kind == PLACE
    if phase == ATTACK:
        return kind == ATTACK_ACTION or kind == END_ATTACK or kind == BATTLE
    if phase == DEFEND:
        return kind == DEFEND_ACTION
    if phase == ROLL:
        return kind == ROLL_ACTION
    if phase == MOVE_IN:
        return kind == MOVE_IN_ACTION
    if phase == FORTIFY:
        return kind == FORTIFY_ACTION or kind == END_TURN
    if phase == DRAW:
        return kind == DRAW_ACTION
    return False


@kernel
def deciding_seat(S):  # pragma: no cover - compiled
    """The seat that decides now: the player to move, or while a defence is pending the defender
    (for the neutral force, the attacker's opponent); :data:`CHANCE` or :data:`TERMINAL`."""
    phase = S[PHASE]
    if phase == GAME_OVER:
        return TERMINAL
    if phase == ROLL or phase == DRAW:
        return CHANCE
    if phase == DEFEND:
        defender = S[S[AT_OWNER] + S[ATTACK_T]]
        if defender == S[NEUTRAL]:
            return 1 - S[PLAYER]
        return defender
    return S[PLAYER]


@kernel
def must_trade(S):  # pragma: no cover - compiled
    """Whether the player to move holds so many cards that it must trade before placing."""
    return E.hand_size(S, S[PLAYER]) >= FORCED_TRADE_HAND


@kernel
def may_trade(S):  # pragma: no cover - compiled
    """Whether the player to move may trade a set now (cards permitting): after an elimination's
    trade it trades only until it holds fewer than :data:`~analyzer.game.rules.FORCED_TRADE_HAND`."""
    held = E.hand_size(S, S[PLAYER])
    return held >= 3 and not (S[RESUME_ATTACK] and held < FORCED_TRADE_HAND)


@kernel(inline=True)
def _adjacent(C, s, t):  # pragma: no cover - compiled
    width, nb = C[E.R_WIDTH], C[E.O_NEIGHBORS]
    for j in range(width):
        v = C[nb + s * width + j]
        if v < 0:
            return False
        if v == t:
            return True
    return False


@kernel
def bonus_choices(S, C, c0, c1, c2):  # pragma: no cover - compiled
    """Bit ``i`` set when the territory on card ``ci`` may take the territory bonus of this trade."""
    if S[BONUS_USED] or C[E.R_TERRITORY_BONUS] == 0:
        return 0
    p = S[PLAYER]
    terr = C[E.O_CARD_TERRITORY]
    bits = 0
    i = 0
    for c in (c0, c1, c2):
        t = C[terr + c]
        if t >= 0 and S[S[AT_OWNER] + t] == p:
            bits |= 1 << i
        i += 1
    return bits


@kernel
def reason(S, C, kind, a, b, c, d):  # pragma: no cover - compiled
    """:data:`LEGAL`, or the code of the first rule that action ``kind`` with arguments ``a, b, c, d``
    (as :func:`analyzer.game.engine.steps.step` takes them) breaks in state ``S``."""
    phase = S[PHASE]
    if not allowed(phase, kind):
        return WRONG_PHASE
    p = S[PLAYER]
    n = S[N_TERRITORIES]
    owner, armies = S[AT_OWNER], S[AT_ARMIES]
    if kind == END_ATTACK or kind == END_TURN:
        return LEGAL
    if kind == CLAIM or kind == CAPITAL or kind == PLACE:
        if not 0 <= a < n:
            return NO_SUCH_TERRITORY
        if kind == CLAIM:
            return LEGAL if S[owner + a] == -1 else CLAIMED
        if kind == CAPITAL:
            return LEGAL if S[owner + a] == p else NOT_YOURS
        if phase == SETUP_PLACE:
            if S[owner + a] != E.setup_force(S):
                return NOT_THE_FORCE
            return LEGAL if b == 1 else ONE_AT_A_TIME
        if must_trade(S):
            return MUST_TRADE
        if S[owner + a] != p:
            return NOT_YOURS
        return LEGAL if 1 <= b <= S[PENDING] else PLACE_RANGE
    if kind == TRADE:
        if a == b or b == c or a == c:
            return SET_SHAPE
        m = S[N_CARDS]
        cards = S[AT_CARD_LOC]
        for x in (a, b, c):
            if not 0 <= x < m or S[cards + x] != p:
                return NOT_IN_HAND
        if not E.is_set(C, a, b, c):
            return NOT_A_SET
        if not may_trade(S):
            return TRADE_DOWN_ONLY
        bits = bonus_choices(S, C, a, b, c)
        if bits == 0:
            return LEGAL if d < 0 else NO_BONUS
        terr = C[E.O_CARD_TERRITORY]
        i = 0
        for x in (a, b, c):
            if (bits >> i) & 1 and C[terr + x] == d:
                return LEGAL
            i += 1
        return CHOOSE_BONUS
    if kind == ATTACK_ACTION or kind == BATTLE:
        if not (0 <= a < n and 0 <= b < n):
            return NO_SUCH_TERRITORY
        if S[owner + a] != p:
            return NOT_YOURS
        if S[owner + b] == p:
            return TARGET_YOURS
        if not _adjacent(C, a, b):
            return NOT_ADJACENT
        most = E.attacker_dice(C, S[armies + a])
        if most < 1:
            return TOO_FEW_TO_ATTACK
        if kind == ATTACK_ACTION:
            return LEGAL if 1 <= c <= most else DICE_RANGE
        if not (1 <= c <= S[armies + a] and 0 <= d <= S[armies + b]):
            return BATTLE_RANGE
        if c == S[armies + a] and d == S[armies + b]:
            return PHANTOM_BATTLE  # every roll costs one side at least one army
        return CAPTURE_LEAVES_TWO if d == 0 and c < 2 else LEGAL
    if kind == DEFEND_ACTION:
        return LEGAL if 1 <= a <= E.defender_dice(C, S[armies + S[ATTACK_T]]) else DEFENCE_RANGE
    if kind == MOVE_IN_ACTION:
        return LEGAL if S[MOVE_LO] <= a <= S[MOVE_HI] else MOVE_RANGE
    if kind == FORTIFY_ACTION:
        if not (0 <= a < n and 0 <= b < n):
            return NO_SUCH_TERRITORY
        if S[owner + a] != p or S[owner + b] != p:
            return FORTIFY_NOT_YOURS
        if not E.fortify_reach(S, C, a)[b]:
            return NOT_REACHABLE
        return LEGAL if 1 <= c <= S[armies + a] - 1 else FORTIFY_RANGE
    if kind == ROLL_ACTION:
        # Each pair of dice compared costs one side one army.
        fought = min(S[ATTACK_DICE], S[DEFENCE_DICE])
        return LEGAL if a >= 0 and b >= 0 and a + b == fought else IMPOSSIBLE_ROLL
    if kind == DRAW_ACTION:
        if not 0 <= a < S[N_CARDS]:
            return NOT_IN_PILE
        return LEGAL if S[S[AT_CARD_LOC] + a] == E.pile_place(S) else NOT_IN_PILE
    return WRONG_PHASE


@kernel
def push_row(rows, n, kind, a, b, c, d, e=0):  # pragma: no cover - compiled
    """``rows`` with ``kind, a, b, c, d`` (and ``e`` where it has a sixth column) written at row ``n``,
    first doubled in length if full, and ``n + 1``: an int64 table grown in compiled code (the legal
    actions here, the playout's events)."""
    if n == rows.shape[0]:
        bigger = np.empty((2 * n, rows.shape[1]), dtype=np.int64)
        bigger[:n] = rows[:n]
        rows = bigger
    rows[n, 0] = kind
    rows[n, 1] = a
    rows[n, 2] = b
    rows[n, 3] = c
    rows[n, 4] = d
    if rows.shape[1] > 5:
        rows[n, 5] = e
    return rows, n + 1


@kernel
def legal_rows(S, C):  # pragma: no cover - compiled
    """Every legal action of the seat deciding now, shape ``(actions, 5)``: code and arguments.

    Every candidate of the phase goes through :func:`reason`; the order is territories (and cards)
    ascending, then the smaller number first. Battles (an attack's whole outcome) are not listed,
    nor are chance outcomes.
    """
    rows = np.empty((64, 5), dtype=np.int64)
    k = 0
    phase = S[PHASE]
    n = S[N_TERRITORIES]
    armies = S[AT_ARMIES]
    if phase == SETUP_CLAIM or phase == SETUP_PLACE or phase == CHOOSE_CAPITAL:
        kind = CLAIM if phase == SETUP_CLAIM else (PLACE if phase == SETUP_PLACE else CAPITAL)
        for t in range(n):
            if reason(S, C, kind, t, 1, 0, 0) == LEGAL:
                rows, k = push_row(rows, k, kind, t, 1, 0, 0)
    elif phase == REINFORCE:
        hand = np.flatnonzero(E.card_view(S) == S[PLAYER])
        h = hand.shape[0]
        terr = C[E.O_CARD_TERRITORY]
        for i in range(h):
            for j in range(i + 1, h):
                for m in range(j + 1, h):
                    c0, c1, c2 = hand[i], hand[j], hand[m]
                    if reason(S, C, TRADE, c0, c1, c2, -1) == LEGAL:
                        rows, k = push_row(rows, k, TRADE, c0, c1, c2, -1)
                        continue
                    # The bonus territories on the cards, ascending and once each.
                    last = -1
                    while True:
                        nxt = -1
                        for x in (c0, c1, c2):
                            t = C[terr + x]
                            if t > last and (nxt < 0 or t < nxt):
                                nxt = t
                        if nxt < 0:
                            break
                        if reason(S, C, TRADE, c0, c1, c2, nxt) == LEGAL:
                            rows, k = push_row(rows, k, TRADE, c0, c1, c2, nxt)
                        last = nxt
        for t in range(n):
            if reason(S, C, PLACE, t, 1, 0, 0) != LEGAL:
                continue
            for x in range(1, S[PENDING] + 1):
                if reason(S, C, PLACE, t, x, 0, 0) == LEGAL:
                    rows, k = push_row(rows, k, PLACE, t, x, 0, 0)
    elif phase == ATTACK:
        width, nb = C[E.R_WIDTH], C[E.O_NEIGHBORS]
        for s in range(n):
            for j in range(width):
                t = C[nb + s * width + j]
                if t < 0:
                    break
                for dice in range(1, C[E.R_ATTACKER_MAX] + 1):
                    if reason(S, C, ATTACK_ACTION, s, t, dice, 0) == LEGAL:
                        rows, k = push_row(rows, k, ATTACK_ACTION, s, t, dice, 0)
        rows, k = push_row(rows, k, END_ATTACK, 0, 0, 0, 0)
    elif phase == DEFEND:
        for dice in range(1, C[E.R_DEFENDER_MAX] + 1):
            if reason(S, C, DEFEND_ACTION, dice, 0, 0, 0) == LEGAL:
                rows, k = push_row(rows, k, DEFEND_ACTION, dice, 0, 0, 0)
    elif phase == MOVE_IN:
        for x in range(S[MOVE_LO], S[MOVE_HI] + 1):
            if reason(S, C, MOVE_IN_ACTION, x, 0, 0, 0) == LEGAL:
                rows, k = push_row(rows, k, MOVE_IN_ACTION, x, 0, 0, 0)
    elif phase == FORTIFY:
        for s in range(n):
            for t in range(n):
                if reason(S, C, FORTIFY_ACTION, s, t, 1, 0) != LEGAL:
                    continue
                for x in range(1, S[armies + s]):
                    if reason(S, C, FORTIFY_ACTION, s, t, x, 0) == LEGAL:
                        rows, k = push_row(rows, k, FORTIFY_ACTION, s, t, x, 0)
        rows, k = push_row(rows, k, END_TURN, 0, 0, 0, 0)
    return rows[:k]
