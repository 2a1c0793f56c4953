"""The rule steps of the game, compiled, over one flat state vector.

Every change the rules make to a game (the start of a turn, a trade, a
battle's result, a capture and its move-in, an elimination and the cards it
hands over, fortifying, drawing a card, the end of a turn, victory) is one
function here. :class:`analyzer.game.state.GameState` (the checked path, for
people) and :mod:`analyzer.sim.playout` (whole games in compiled code, for the
simulator) both call these functions, so the rules have one source.

The state of a game is one ``int64`` vector ``S``, laid out as
:mod:`analyzer.game.engine.layout` declares: a header of scalars, then the
arrays ``owner``, ``armies``, ``card_loc``, ``pool``, ``alive`` (0/1),
``eliminated_by``, ``capitals`` and ``missions``. A copy of a game is a copy of ``S``. The constant data of a
board and rules is one ``int64`` vector ``C`` (:func:`config`), laid out as :data:`NUMBERS` and
:data:`PARTS` declare. Values the
rules tabulate (set values, territory reinforcements) are computed into it by
:mod:`analyzer.game.rules`, so the compiled code holds no rule numbers of its own.

>>> from analyzer.game.board import classic_board
>>> from analyzer.game.rules import Rules
>>> S, C = new_state(42, 44, 4), config(classic_board(), Rules())
>>> owner, armies = view(S, "owner"), view(S, "armies")
>>> owner[:] = [0] * 11 + [1] * 31; armies[:] = 1
>>> begin_turn(S, C, 0, True)
>>> int(S[PENDING]), int(S[TURN]), int(S[ROUND])  # 11 territories: 3 armies; North America (the first 9): 5
(8, 1, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from analyzer.game import missions as missions_mod
from analyzer.game.board import Board
from analyzer.game.dice import most_dice
from analyzer.game.engine.layout import (  # noqa: F401 - the engine's one namespace re-exports the layout
    AT_ALIVE,
    AT_ARMIES,
    AT_CAPITALS,
    AT_CARD_LOC,
    AT_ELIMINATED_BY,
    AT_MISSIONS,
    AT_OWNER,
    AT_POOL,
    ATTACK_DICE,
    ATTACK_S,
    ATTACK_T,
    BONUS_USED,
    CAPTURED,
    DEFENCE_DICE,
    ELIMINATION_TRADE,
    FIELDS,
    FIRST_PLAYER,
    MOVE_HI,
    MOVE_LO,
    MOVE_S,
    MOVE_T,
    N_CARDS,
    N_FORCES,
    N_PLAYERS,
    N_TERRITORIES,
    NEUTRAL,
    PENDING,
    PHASE,
    PLAYER,
    RESUME_ATTACK,
    ROUND,
    SETS_TRADED,
    SETUP_STEP,
    TURN,
    TURN_LIMIT,
    WINNER,
    any_at,
    armies_view,
    card_view,
    count_at,
    layout,
    new_state,
    owner_view,
    view,
)
from analyzer.game.rules import ELIMINATION_TRADE_HAND, Rules, fixed_set_value, reinforcement_from_territories
from analyzer.game.vocabulary import (
    ATTACK,
    ATTACK_ACTION,
    BATTLE,
    CAPITAL,
    CHOOSE_CAPITAL,
    CLAIM,
    DECK,
    DEFEND,
    DEFEND_ACTION,
    DISCARD,
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
    TRADE,
)
from analyzer.kernels import kernel
from analyzer.slots import slots

# ---------------------------------------------------------------------------------- constant data
# The constant data C is one int64 vector (one array, so that compiled calls pass one reference): a
# header of the numbers of NUMBERS, at R_*, then where each part of PARTS starts, at O_*, then the parts.
#: Sets tabulated under progressive values; far beyond any game (the 100th set is worth 480).
SET_VALUE_TABLE = 1000
_PROGRESSIVE = Rules(card_values="progressive")


def _borders(board: Board) -> tuple[np.ndarray, ...]:
    """Every directed border as (source, target) arrays."""
    return np.nonzero(np.asarray(board.adjacency))


#: The numbers at the head of C, in order: each as the name of its ``R_*`` slot and how
#: :func:`config` reads it from the board and the rules.
NUMBERS: tuple[tuple[str, Callable[[Board, Rules], int]], ...] = (
    ("connected", lambda board, rules: int(rules.fortify == "connected")),
    ("fixed_values", lambda board, rules: int(rules.card_values == "fixed")),
    ("territory_bonus", lambda board, rules: rules.territory_bonus),
    ("missions", lambda board, rules: int(rules.missions)),
    ("capitals", lambda board, rules: int(rules.capitals)),
    ("attacker_max", lambda board, rules: rules.dice.attacker_max),
    ("defender_max", lambda board, rules: rules.dice.defender_max),
    ("continents", lambda board, rules: len(board.continents)),
    ("width", lambda board, rules: board.neighbor_table.shape[1]),  # the neighbour table's width
    ("edges", lambda board, rules: len(_borders(board)[0])),  # directed borders
    ("fallback_mission", lambda board, rules: missions_mod.FALLBACK),  # a destroy mission's fallback
)
#: The parts after C's header, in order: each as the name of its ``O_*`` slot (the header slot that
#: holds where the part starts) and how :func:`config` builds it from the board and the rules.
PARTS: tuple[tuple[str, Callable[[Board, Rules], object]], ...] = (
    ("neighbors", lambda board, rules: board.neighbor_table.ravel()),
    ("continent_of", lambda board, rules: board.continent_of),
    ("continent_bonus", lambda board, rules: board.continent_bonus),
    ("symbols", lambda board, rules: board.card_symbols),
    ("card_territory", lambda board, rules: board.card_territory),
    ("set_values", lambda board, rules: [_PROGRESSIVE.set_value(k) for k in range(SET_VALUE_TABLE)]),
    # Fixed values indexed by the three symbols (3 is a wild) as 16 * a + 4 * b + c.
    (
        "fixed_values",
        lambda board, rules: [fixed_set_value((code // 16, code // 4 % 4, code % 4)) for code in range(64)],
    ),
    (
        "territory_armies",
        lambda board, rules: [reinforcement_from_territories(k) for k in range(board.n_territories + 1)],
    ),
    ("missions", lambda board, rules: mission_table(board).ravel() if rules.missions else []),
    ("src", lambda board, rules: _borders(board)[0]),
    ("dst", lambda board, rules: _borders(board)[1]),
    # The territories sorted by continent, and where each continent's run starts (one more at the end).
    ("by_continent", lambda board, rules: np.argsort(board.continent_of, kind="stable")),
    (
        "continent_start",
        lambda board, rules: np.searchsorted(np.sort(board.continent_of), np.arange(len(board.continents) + 1)),
    ),
)
R = slots(name for name, _ in NUMBERS)
O = slots((name for name, _ in PARTS), start=len(NUMBERS))
C_HEADER = len(NUMBERS) + len(PARTS)
R_CONNECTED, R_FIXED_VALUES, R_TERRITORY_BONUS = R["connected"], R["fixed_values"], R["territory_bonus"]
R_MISSIONS, R_CAPITALS, R_ATTACKER_MAX, R_DEFENDER_MAX = (
    R["missions"],
    R["capitals"],
    R["attacker_max"],
    R["defender_max"],
)
R_CONTINENTS, R_WIDTH, R_EDGES, R_FALLBACK_MISSION = R["continents"], R["width"], R["edges"], R["fallback_mission"]
O_NEIGHBORS, O_CONTINENT_OF, O_CONTINENT_BONUS, O_SYMBOLS = (
    O["neighbors"],
    O["continent_of"],
    O["continent_bonus"],
    O["symbols"],
)
O_CARD_TERRITORY, O_SET_VALUES, O_FIXED_VALUES = O["card_territory"], O["set_values"], O["fixed_values"]
O_TERRITORY_ARMIES, O_MISSIONS, O_SRC, O_DST = O["territory_armies"], O["missions"], O["src"], O["dst"]
O_BY_CONTINENT, O_CONTINENT_START = O["by_continent"], O["continent_start"]

KIND_CONTINENTS, KIND_TERRITORIES, KIND_DESTROY = range(3)
_KINDS = {"continents": KIND_CONTINENTS, "territories": KIND_TERRITORIES, "destroy": KIND_DESTROY}
#: The columns of the mission table, in order: each as the name of its ``M_*`` column and how
#: :func:`mission_table` reads it from a mission card and the board.
MISSION_COLUMNS: tuple[tuple[str, Callable[[missions_mod.Mission, Board], int]], ...] = (
    ("kind", lambda m, board: _KINDS[m.kind]),
    ("extra", lambda m, board: m.extra_continents),
    ("territories", lambda m, board: m.territories),
    ("min_armies", lambda m, board: m.min_armies),
    ("target", lambda m, board: m.target),
    ("continents", lambda m, board: sum(1 << board.continent_index(name) for name in m.continents)),  # a bit mask
)
M = slots(name for name, _ in MISSION_COLUMNS)
M_KIND, M_EXTRA, M_TERRITORIES, M_MIN_ARMIES, M_TARGET, M_CONTINENTS = (
    M["kind"],
    M["extra"],
    M["territories"],
    M["min_armies"],
    M["target"],
    M["continents"],
)
M_COLUMNS = len(MISSION_COLUMNS)


@lru_cache(maxsize=64)
def config(board: Board, rules: Rules) -> np.ndarray:
    """The constant vector the compiled steps read for ``board`` under ``rules`` (cached; read-only)."""
    parts = [np.asarray(build(board, rules), dtype=np.int64).ravel() for _, build in PARTS]
    lengths = [len(part) for part in parts]
    starts = [C_HEADER + sum(lengths[:i]) for i in range(len(parts))]
    C = np.zeros(C_HEADER + sum(lengths), dtype=np.int64)
    C[: len(NUMBERS)] = [read(board, rules) for _, read in NUMBERS]
    C[len(NUMBERS) : C_HEADER] = starts
    for start, values in zip(starts, parts):
        C[start : start + len(values)] = values
    C.setflags(write=False)
    return C


def mission_table(board: Board) -> np.ndarray:
    """The classic mission cards as rows of integers (columns ``M_*``, from :data:`MISSION_COLUMNS`)."""
    return np.array([[read(m, board) for _, read in MISSION_COLUMNS] for m in missions_mod.MISSIONS], dtype=np.int64)


# ---------------------------------------------------------------------------------- queries
@kernel
def hand_size(S, p):  # pragma: no cover - compiled
    return count_at(S, AT_CARD_LOC, N_CARDS, p)


@kernel
def held_continents(S, C, p):  # pragma: no cover - compiled
    """The continents player ``p`` holds in full, as a bit mask (bit ``c`` for continent ``c``)."""
    held = (1 << C[R_CONTINENTS]) - 1
    at = C[O_CONTINENT_OF]
    for t in range(S[N_TERRITORIES]):
        if S[S[AT_OWNER] + t] != p:
            held &= ~(1 << C[at + t])
    return held


@kernel
def reinforcements(S, C, p):  # pragma: no cover - compiled
    """Armies player ``p`` gets at the start of a turn from territories and continents."""
    n = count_at(S, AT_OWNER, N_TERRITORIES, p)
    held = held_continents(S, C, p)
    total = C[C[O_TERRITORY_ARMIES] + n]
    for c in range(C[R_CONTINENTS]):
        if (held >> c) & 1:
            total += C[C[O_CONTINENT_BONUS] + c]
    return total


@kernel
def set_value(S, C, c0, c1, c2):  # pragma: no cover - compiled
    """Armies the set of cards ``c0, c1, c2`` is worth if traded now."""
    if C[R_FIXED_VALUES]:
        at = C[O_SYMBOLS]
        return C[C[O_FIXED_VALUES] + 16 * C[at + c0] + 4 * C[at + c1] + C[at + c2]]
    return C[C[O_SET_VALUES] + min(S[SETS_TRADED], SET_VALUE_TABLE - 1)]


@kernel
def is_set(C, c0, c1, c2):  # pragma: no cover - compiled
    """Three of a kind, one of each, or any two plus a wild."""
    at = C[O_SYMBOLS]
    a, b, c = C[at + c0], C[at + c1], C[at + c2]
    if a == 3 or b == 3 or c == 3:
        return True
    return (a == b and b == c) or (a != b and b != c and a != c)


@kernel
def pile_place(S):  # pragma: no cover - compiled
    """Where a draw comes from: the deck, or once it is empty the discards (shuffled into a new deck)."""
    return DECK if any_at(S, AT_CARD_LOC, N_CARDS, DECK) else DISCARD


@kernel
def draw_pile(S):  # pragma: no cover - compiled
    """The cards a draw comes from, ascending."""
    return np.flatnonzero(card_view(S) == pile_place(S))


@kernel
def pile_size(S):  # pragma: no cover - compiled
    return count_at(S, AT_CARD_LOC, N_CARDS, pile_place(S))


@kernel
def pile_card(S, k):  # pragma: no cover - compiled
    """``draw_pile(S)[k]`` without building the pile."""
    at = S[AT_CARD_LOC]
    place = pile_place(S)
    for c in range(S[N_CARDS]):
        if S[at + c] == place:
            if k == 0:
                return c
            k -= 1
    return -1


@kernel
def fortify_reach(S, C, source):  # pragma: no cover - compiled
    """``[t]``: whether armies on ``source`` may fortify to ``t`` under the fortify option."""
    owner = owner_view(S)
    p = owner[source]
    width, nb = C[R_WIDTH], C[O_NEIGHBORS]
    n = owner.shape[0]
    reach = np.zeros(n, dtype=np.bool_)
    if not C[R_CONNECTED]:
        for j in range(width):
            v = C[nb + source * width + j]
            if v < 0:
                break
            if owner[v] == p:
                reach[v] = True
        return reach
    queue = np.empty(n, dtype=np.int64)
    queue[0] = source
    reach[source] = True
    head, tail = 0, 1
    while head < tail:
        u = queue[head]
        head += 1
        for j in range(width):
            v = C[nb + u * width + j]
            if v < 0:
                break
            if not reach[v] and owner[v] == p:
                reach[v] = True
                queue[tail] = v
                tail += 1
    reach[source] = False
    return reach


@kernel(inline=True)
def attacker_dice(C, armies):  # pragma: no cover - compiled
    """Most dice a territory holding ``armies`` may attack with (one army stays behind)."""
    return most_dice(armies, C[R_ATTACKER_MAX], 1)


@kernel(inline=True)
def defender_dice(C, armies):  # pragma: no cover - compiled
    """Most dice a territory holding ``armies`` may defend with."""
    return most_dice(armies, C[R_DEFENDER_MAX], 0)


@kernel
def mission_complete(S, C, mission, p):  # pragma: no cover - compiled
    """Whether player ``p`` has fulfilled mission card ``mission`` (a destroy mission whose target is
    ``p`` itself, not in the game, or knocked out by someone else reads as "occupy 24 territories")."""
    row = C[O_MISSIONS] + M_COLUMNS * mission
    if C[row + M_KIND] == KIND_DESTROY:
        target = C[row + M_TARGET]
        by = S[S[AT_ELIMINATED_BY] + target] if target < S[N_PLAYERS] else -1
        if target == p or target >= S[N_PLAYERS] or (by != -1 and by != p):
            row = C[O_MISSIONS] + M_COLUMNS * C[R_FALLBACK_MISSION]
        else:
            return by == p
    owner = owner_view(S)
    if C[row + M_KIND] == KIND_TERRITORIES:
        armies = armies_view(S)
        k = 0
        for t in range(owner.shape[0]):
            if owner[t] == p and armies[t] >= C[row + M_MIN_ARMIES]:
                k += 1
        return k >= C[row + M_TERRITORIES]
    held = held_continents(S, C, p)
    named = C[row + M_CONTINENTS]
    if held & named != named:
        return False
    others = 0
    for c in range(C[R_CONTINENTS]):
        if (held >> c) & 1 and not (named >> c) & 1:
            others += 1
    return others >= C[row + M_EXTRA]


# ---------------------------------------------------------------------------------- rule steps
@kernel
def begin_turn(S, C, player, new_round):  # pragma: no cover - compiled
    """Start ``player``'s turn: the round count, the turn limit and the reinforcements."""
    if new_round:
        if S[TURN_LIMIT] >= 0 and S[ROUND] >= S[TURN_LIMIT]:
            S[PHASE] = GAME_OVER
            return
        S[ROUND] += 1
    S[PLAYER] = player
    S[TURN] += 1
    S[PHASE] = REINFORCE
    S[PENDING] = reinforcements(S, C, player)
    S[CAPTURED] = 0
    S[BONUS_USED] = 0


@kernel
def next_turn(S, C):  # pragma: no cover - compiled
    """Pass the turn to the next seat still in the game."""
    n = S[N_PLAYERS]
    alive = S[AT_ALIVE]
    cur = S[PLAYER]
    first = S[FIRST_PLAYER]
    for step in range(1, n + 1):
        p = (cur + step) % n
        if S[alive + p]:
            # A round ends when play passes the first player's seat again.
            begin_turn(S, C, p, (p - first) % n <= (cur - first) % n)
            return


@kernel(inline=True)
def setup_force(S):  # pragma: no cover - compiled
    """Whose army goes down on the current setup placement (the neutral's on a 2-player go's third army)."""
    if S[NEUTRAL] >= 0 and S[SETUP_STEP] == 2:
        return S[NEUTRAL]
    return S[PLAYER]


@kernel
def next_setup_player(S, C):  # pragma: no cover - compiled
    """Pass the setup to the next seat with armies left to place, or start the game."""
    n = S[N_PLAYERS]
    if S[PHASE] == SETUP_CLAIM:
        S[PLAYER] = (S[PLAYER] + 1) % n
        return
    pool = S[AT_POOL]
    for step in range(1, n + 1):
        p = (S[PLAYER] + step) % n
        if S[pool + p] > 0:
            S[PLAYER] = p
            return
    if S[NEUTRAL] >= 0 and S[pool + S[NEUTRAL]] > 0:
        # Only neutral armies remain: the players keep taking turns placing them.
        S[PLAYER] = (S[PLAYER] + 1) % n
        S[SETUP_STEP] = 2
        return
    if C[R_CAPITALS]:
        S[PHASE] = CHOOSE_CAPITAL
        S[PLAYER] = S[FIRST_PLAYER]
    else:
        begin_turn(S, C, S[FIRST_PLAYER], True)


@kernel
def claim(S, C, t):  # pragma: no cover - compiled
    p = S[PLAYER]
    S[S[AT_OWNER] + t] = p
    S[S[AT_ARMIES] + t] = 1
    S[S[AT_POOL] + p] -= 1
    if not any_at(S, AT_OWNER, N_TERRITORIES, -1):
        S[PHASE] = SETUP_PLACE
    next_setup_player(S, C)


@kernel
def place(S, C, t, k):  # pragma: no cover - compiled
    """``k`` armies on ``t``: one setup army, or reinforcements."""
    S[S[AT_ARMIES] + t] += k
    if S[PHASE] == SETUP_PLACE:
        pool = S[AT_POOL]
        S[pool + setup_force(S)] -= 1
        neutral = S[NEUTRAL]
        if neutral >= 0:
            # A 2-player go: two of your own armies, then one neutral.
            S[SETUP_STEP] += 1
            if S[SETUP_STEP] == 1 and S[pool + S[PLAYER]] == 0:
                S[SETUP_STEP] = 2
            if S[SETUP_STEP] == 2 and S[pool + neutral] == 0:
                S[SETUP_STEP] = 3
            if S[SETUP_STEP] < 3:
                return
            S[SETUP_STEP] = 0
        next_setup_player(S, C)
        return
    S[PENDING] -= k
    if S[PENDING] == 0:
        S[RESUME_ATTACK] = 0
        S[PHASE] = ATTACK
    if C[R_MISSIONS]:
        check_victory(S, C)


@kernel
def choose_capital(S, C, t):  # pragma: no cover - compiled
    S[S[AT_CAPITALS] + S[PLAYER]] = t
    nxt = (S[PLAYER] + 1) % S[N_PLAYERS]
    if nxt == S[FIRST_PLAYER]:
        begin_turn(S, C, S[FIRST_PLAYER], True)
    else:
        S[PLAYER] = nxt


@kernel
def trade(S, C, c0, c1, c2, bonus):  # pragma: no cover - compiled
    """Trade a set for armies (and, with ``bonus`` >= 0, the territory bonus there); returns the value."""
    value = set_value(S, C, c0, c1, c2)
    cards = S[AT_CARD_LOC]
    S[cards + c0] = DISCARD
    S[cards + c1] = DISCARD
    S[cards + c2] = DISCARD
    S[SETS_TRADED] += 1
    S[PENDING] += value
    if bonus >= 0:
        S[S[AT_ARMIES] + bonus] += C[R_TERRITORY_BONUS]
        S[BONUS_USED] = 1
    return value


@kernel
def attack(S, C, s, t, dice):  # pragma: no cover - compiled
    S[ATTACK_S] = s
    S[ATTACK_T] = t
    S[ATTACK_DICE] = dice
    S[DEFENCE_DICE] = 0
    if defender_dice(C, S[S[AT_ARMIES] + t]) == 1:
        S[DEFENCE_DICE] = 1
        S[PHASE] = ROLL
    else:
        S[PHASE] = DEFEND


@kernel
def roll(S, C, attacker_losses, defender_losses):  # pragma: no cover - compiled
    """A roll's outcome; returns the player eliminated by a capture, or -1."""
    s, t, dice = S[ATTACK_S], S[ATTACK_T], S[ATTACK_DICE]
    armies = S[AT_ARMIES]
    S[armies + s] -= attacker_losses
    S[armies + t] -= defender_losses
    S[ATTACK_S] = -1
    if S[armies + t] > 0:
        S[PHASE] = ATTACK
        return -1
    return capture(S, C, s, t, dice)


@kernel
def battle(S, C, s, t, attacker_left, defender_left):  # pragma: no cover - compiled
    """A whole battle's outcome; returns the player eliminated by a capture, or -1."""
    armies = S[AT_ARMIES]
    S[armies + s] = attacker_left
    S[armies + t] = defender_left
    if defender_left == 0:
        return capture(S, C, s, t, attacker_dice(C, attacker_left))
    return -1


@kernel
def capture(S, C, s, t, dice):  # pragma: no cover - compiled
    """``t`` falls to the player to move; the move-in is from ``dice`` to all but one army of ``s``."""
    victim = S[S[AT_OWNER] + t]
    S[S[AT_OWNER] + t] = S[PLAYER]
    S[CAPTURED] = 1
    eliminated = -1
    if victim != S[NEUTRAL] and not any_at(S, AT_OWNER, N_TERRITORIES, victim):
        eliminate(S, C, victim)
        eliminated = victim
    most = S[S[AT_ARMIES] + s] - 1
    S[MOVE_S] = s
    S[MOVE_T] = t
    S[MOVE_LO] = dice
    S[MOVE_HI] = most
    if dice == most:
        move_in(S, C, most)
    else:
        S[PHASE] = MOVE_IN
    return eliminated


@kernel
def eliminate(S, C, victim):  # pragma: no cover - compiled
    """``victim`` is out: the player to move takes its cards, and trades at once from 6."""
    p = S[PLAYER]
    S[S[AT_ALIVE] + victim] = 0
    S[S[AT_ELIMINATED_BY] + victim] = p
    cards = S[AT_CARD_LOC]
    for c in range(S[N_CARDS]):
        if S[cards + c] == victim:
            S[cards + c] = p
    if hand_size(S, p) >= ELIMINATION_TRADE_HAND:
        S[ELIMINATION_TRADE] = 1


@kernel
def move_in(S, C, k):  # pragma: no cover - compiled
    armies = S[AT_ARMIES]
    S[armies + S[MOVE_S]] -= k
    S[armies + S[MOVE_T]] += k
    S[MOVE_S] = -1
    S[PHASE] = ATTACK
    check_victory(S, C)
    if S[PHASE] == GAME_OVER:
        return
    if S[ELIMINATION_TRADE]:
        S[ELIMINATION_TRADE] = 0
        S[RESUME_ATTACK] = 1
        S[PHASE] = REINFORCE
        S[PENDING] = 0


@kernel
def check_victory(S, C):  # pragma: no cover - compiled
    """The player to move wins when alone, or with its mission done, or holding every capital."""
    p = S[PLAYER]
    n = S[N_PLAYERS]
    won = count_at(S, AT_ALIVE, N_PLAYERS, 1) == 1
    if not won and C[R_MISSIONS]:
        won = mission_complete(S, C, S[S[AT_MISSIONS] + p], p)
    if not won and C[R_CAPITALS]:
        capitals = S[AT_CAPITALS]
        won = True
        for q in range(n):
            if S[capitals + q] < 0 or S[S[AT_OWNER] + S[capitals + q]] != p:
                won = False
    if won:
        S[WINNER] = p
        S[PHASE] = GAME_OVER


@kernel
def fortify(S, C, s, t, k):  # pragma: no cover - compiled
    armies = S[AT_ARMIES]
    S[armies + s] -= k
    S[armies + t] += k
    check_victory(S, C)
    if S[PHASE] != GAME_OVER:
        end_turn(S, C)


@kernel
def end_turn(S, C):  # pragma: no cover - compiled
    """A card if the turn captured a territory (a chance event), then the next player's turn."""
    if S[CAPTURED] and (any_at(S, AT_CARD_LOC, N_CARDS, DECK) or any_at(S, AT_CARD_LOC, N_CARDS, DISCARD)):
        S[PHASE] = DRAW
    else:
        next_turn(S, C)


@kernel
def draw(S, C, card):  # pragma: no cover - compiled
    S[S[AT_CARD_LOC] + card] = S[PLAYER]
    next_turn(S, C)


@kernel
def step(S, C, kind, a, b, c, d):  # pragma: no cover - compiled
    """Apply action ``kind`` (a code above) with arguments ``a, b, c, d``.

    Returns the value of a trade, the player a capture eliminated, or -1.
    """
    if kind == PLACE:
        place(S, C, a, b)
    elif kind == BATTLE:
        return battle(S, C, a, b, c, d)
    elif kind == ATTACK_ACTION:
        attack(S, C, a, b, c)
    elif kind == ROLL_ACTION:
        return roll(S, C, a, b)
    elif kind == DEFEND_ACTION:
        S[DEFENCE_DICE] = a
        S[PHASE] = ROLL
    elif kind == MOVE_IN_ACTION:
        move_in(S, C, a)
    elif kind == END_ATTACK:
        S[PHASE] = FORTIFY
    elif kind == FORTIFY_ACTION:
        fortify(S, C, a, b, c)
    elif kind == END_TURN:
        end_turn(S, C)
    elif kind == TRADE:
        return trade(S, C, a, b, c, d)
    elif kind == DRAW_ACTION:
        draw(S, C, a)
    elif kind == CLAIM:
        claim(S, C, a)
    elif kind == CAPITAL:
        choose_capital(S, C, a)
    return -1
