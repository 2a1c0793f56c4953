"""``risk-analyzer odds`` and ``risk-analyzer odds-table``: exact battle odds from the command line.

``odds ATTACKERS DEFENDERS`` solves one battle; ``odds ATTACKERS --chain D1 D2 ...``
an attack along a chain of territories. ATTACKERS is the number of armies on
the attacking territory, as read off the board (one of them cannot roll).
``odds-table --max N --out FILE.csv`` writes the P(win) table (or the
expected losses) for every battle up to N against N.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.commands.files import output_path
from analyzer.errors import BattleInputError
from analyzer.limits import quote
from analyzer.solver.battle import BattleOptions, BattleResult, armies_needed, battle, dice_options
from analyzer.solver.chains import ChainResult, chain, chain_armies_needed
from analyzer.solver.tables import TABLES, odds_tables


def register(subparsers: Any) -> None:
    """Add the ``odds`` and ``odds-table`` subcommands to the CLI's subparsers."""
    odds = subparsers.add_parser(
        "odds",
        help="exact odds of one battle or of a chain of battles",
        description="Exact odds of attacking DEFENDERS (or a chain of territories) from a territory "
        "holding ATTACKERS armies; all but one of them can roll.",
    )
    odds.add_argument("attackers", type=int, metavar="ATTACKERS", help="armies on the attacking territory")
    odds.add_argument("defenders", type=int, nargs="?", metavar="DEFENDERS", help="armies on the defending territory")
    odds.add_argument(
        "--chain", type=int, nargs="+", metavar="D", help="defenders of each territory of a chain, in attack order"
    )
    odds.add_argument(
        "--garrison",
        type=int,
        default=None,
        metavar="G",
        help="armies left in each conquered territory of a chain (default 1)",
    )
    odds.add_argument("--need", type=float, metavar="P", help="also give the fewest attacking armies for P(win) >= P")
    odds.add_argument(
        "--outcomes",
        action="store_true",
        help="also list every way the battle can end, with each side's losses and its probability",
    )
    odds.add_argument("--json", action="store_true", help="print the result as JSON")
    _battle_options(odds)
    odds.set_defaults(func=run_odds)

    table = subparsers.add_parser(
        "odds-table",
        help="P(win) or expected-loss table for every battle up to N against N",
        description="Write the table of P(win) (or expected losses) for every attack of 2..N armies "
        "against 1..N defenders as CSV, one row per attacking army count.",
    )
    table.add_argument("--max", type=int, required=True, metavar="N", dest="max_armies", help="largest army count")
    table.add_argument("--out", required=True, metavar="FILE.csv", help="where to write the CSV")
    table.add_argument(
        "--table",
        choices=(*TABLES, "all"),
        default="p_win",
        help="which table to write (default p_win); 'all' writes the three in long form",
    )
    table.add_argument("--plot", metavar="FILE.png", help="also save a heatmap of the table")
    _battle_options(table)
    table.set_defaults(func=run_table)


#: The solver's names of its arguments, as the options that give them (the messages say what the user typed); only
#: names no English sentence holds.
WORDS = {
    "stop_at": "--stop-at",
    "attacker_dice": "--attacker-dice",
    "defender_dice": "--defender-dice",
    "max_armies": "--max",
    "target_p": "--need",
}


def _battle_options(parser: argparse.ArgumentParser) -> None:
    parser.set_defaults(words=WORDS)
    group = parser.add_argument_group("battle options")
    group.add_argument(
        "--stop-at", type=int, default=1, metavar="N", help="stop when the attacking territory holds N armies or fewer"
    )
    group.add_argument(
        "--cap",
        action="store_true",
        help="never risk ending below --stop-at: roll no more dice than armies above it (Risk: Global Domination)",
    )
    group.add_argument("--attacker-dice", type=int, metavar="N", help="the attacker rolls at most N dice")
    group.add_argument("--defender-dice", type=int, metavar="N", help="the defender rolls at most N dice")
    group.add_argument(
        "--capital", action="store_true", help="the defender may roll a third die (capitals, Italian rules)"
    )
    group.add_argument("--sides", type=int, default=6, metavar="N", help="sides of each die (default 6)")
    group.add_argument("--ties-to-attacker", action="store_true", help="ties go to the attacker")
    group.add_argument(
        "--balanced-blitz",
        action="store_true",
        help="Risk: Global Domination's Balanced Blitz dice mode (the exact odds reshaped as the digital game does)",
    )


def _options(args: argparse.Namespace) -> BattleOptions:
    return dice_options(
        capital=args.capital,
        ties_to_attacker=args.ties_to_attacker,
        balanced_blitz=args.balanced_blitz,
        sides=args.sides,
        cap=args.cap,
        attacker_dice=args.attacker_dice,
        defender_dice=args.defender_dice,
    )


def run_odds(args: argparse.Namespace) -> int:
    options = _options(args)
    if (args.defenders is None) == (args.chain is None):
        raise BattleInputError("give exactly one of DEFENDERS (one battle) and --chain D1 D2 ... (a chain)")
    if args.outcomes and args.chain is not None:
        raise BattleInputError("--outcomes lists one battle's outcomes; for a chain use --json")
    if args.garrison is not None and args.chain is None:
        raise BattleInputError(
            f"--garrison {args.garrison}: a garrison is left in the territories of a chain (--chain)"
        )
    garrison = 1 if args.garrison is None else args.garrison
    if args.chain is None:
        result = battle(args.attackers, args.defenders, stop_at=args.stop_at, options=options)
        needed = (
            None
            if args.need is None
            else armies_needed(args.defenders, args.need, stop_at=args.stop_at, options=options)
        )
        data = result.to_dict()
        text = describe_battle(result) + ("\n" + describe_outcomes(result) if args.outcomes else "")
    else:
        chained = chain(args.attackers, args.chain, garrison=garrison, stop_at=args.stop_at, options=options)
        needed = (
            None
            if args.need is None
            else chain_armies_needed(args.chain, args.need, garrison=garrison, stop_at=args.stop_at, options=options)
        )
        data = chained.to_dict()
        text = describe_chain(chained)
    if needed is not None:
        data["armies_needed"] = needed
        data["need"] = args.need
        text += "\n" + _line(f"For P(win) >= {args.need:.4g}", f"{needed} armies ({needed - 1} can roll)")
    print(json.dumps(data, indent=2) if args.json else text)
    return 0


def _percent(p: float) -> str:
    return f"{100 * p:.2f}%"


def _line(label: str, text: str) -> str:
    return f"{label:<20}{text}"


def _stop_rule(stop_at: int, options: BattleOptions) -> str:
    if stop_at == 1:
        return ""
    return f", stopping at {stop_at}" + (" (dice capped to stay above it)" if options.stop_mode == "cap" else "")


def describe_battle(r: BattleResult) -> str:
    """The short text printed by ``risk-analyzer odds ATTACKERS DEFENDERS``."""
    lines = [
        f"Attack: {r.attackers} armies ({r.rolling} can roll) against {r.defenders} defenders"
        + _stop_rule(r.stop_at, r.options),
        _line("P(win)", _percent(r.p_win)),
        _line(
            "Expected losses",
            f"attacker {r.expected_attacker_losses:.2f} (sd {r.std_attacker_losses:.2f}), "
            f"defender {r.expected_defender_losses:.2f} (sd {r.std_defender_losses:.2f})",
        ),
    ]
    won = r.defender_left == 0
    if r.p_win > 0:
        left, p = r.attacker_left[won], r.probability[won]
        mean = float(p @ left) / r.p_win
        lines.append(_line("If won", f"{mean:.1f} armies left on average (most likely {int(left[np.argmax(p)])})"))
    if (~won).any():
        left, p = r.defender_left[~won], r.probability[~won]
        lines.append(_line("If not", f"{float(p @ left) / float(p.sum()):.1f} defenders left on average"))
    return "\n".join(lines)


def describe_outcomes(r: BattleResult) -> str:
    """Every way the battle ends, best for the attacker first: the table of ``odds --outcomes``.

    Losses count armies killed; the attacker's "left" includes the army that
    stays behind (so SMG's "attacker loses 12 of 30 troops" is the conquest
    with ``attacker lost`` 12 from 31 armies on the territory).
    """
    lines = [
        f"{'Outcome':<10}  {'attacker left':>13}  {'attacker lost':>13}  {'defenders left':>14}  {'probability':>14}"
    ]
    for a, d, p in zip(r.attacker_left, r.defender_left, r.probability):
        lines.append(
            f"{'conquered' if d == 0 else 'stopped':<10}  {int(a):>13}  {r.attackers - int(a):>13}  {int(d):>14}  {float(p):>14.10g}"
        )
    return "\n".join(lines)


def describe_chain(r: ChainResult) -> str:
    """The short text printed by ``risk-analyzer odds ATTACKERS --chain ...``."""
    keeps = set(r.garrisons)
    keep = (
        f"leaving {keeps.pop()} in each" if len(keeps) == 1 else "leaving garrisons " + ", ".join(map(str, r.garrisons))
    )
    if max(r.garrisons, default=1) > 1:
        # The stack moves in at least the dice it rolled (chains.moved_in): a garrison is left only as far as that
        # allows, and "leaving 30 in each" from 20 armies could not be.
        keep = keep.replace("leaving", "leaving up to", 1) + " (moving in at least the dice rolled)"
    lines = [
        f"Attack: {r.attackers} armies ({r.attackers - 1} can roll) along {len(r.defenders)} territories"
        + (f", {keep}" if r.garrisons else "")
        + _stop_rule(r.stop_at, r.options),
        "Territory  Defenders  P(taken)",
    ]
    for i, (d, p) in enumerate(zip(r.defenders, r.p_conquer), start=1):
        lines.append(f"{i:>9}  {d:>9}  {_percent(float(p)):>8}")
    lines.append(_line("P(win)", f"{_percent(r.p_win)}; expected territories taken {r.expected_territories:.2f}"))
    lines.append(
        _line(
            "Expected losses", f"attacker {r.expected_attacker_losses:.2f}, defender {r.expected_defender_losses:.2f}"
        )
    )
    if r.p_win > 0:
        mean = float(r.final_armies @ np.arange(len(r.final_armies))) / r.p_win
        lines.append(_line("If all taken", f"{mean:.1f} armies on the last territory on average"))
    return "\n".join(lines)


def _plot_format(path: str) -> None:
    """Refuse a --plot file type matplotlib cannot write, before the table is computed."""
    from matplotlib.backend_bases import FigureCanvasBase

    kinds = FigureCanvasBase.get_supported_filetypes()
    suffix = Path(path).suffix.lstrip(".").lower()
    if suffix not in kinds:
        raise BattleInputError(
            f"--plot {quote(path)}: cannot write a {quote(suffix or 'file without a type')}; "
            f"use one of .{', .'.join(sorted(kinds))}"
        )


def run_table(args: argparse.Namespace) -> int:
    output_path(args.out, "--out", BattleInputError)
    if args.plot:
        output_path(args.plot, "--plot", BattleInputError)
        _plot_format(args.plot)
    tables = odds_tables(args.max_armies, stop_at=args.stop_at, options=_options(args))
    tables.to_csv(args.out, which=args.table)
    what = "all three tables" if args.table == "all" else args.table
    print(f"wrote {what} for 2..{args.max_armies} attackers against 1..{args.max_armies} defenders to {args.out}")
    if args.plot:
        from matplotlib.figure import Figure

        figure = Figure(figsize=(7, 6), layout="constrained")
        tables.heatmap("p_win" if args.table == "all" else args.table, ax=figure.add_subplot())
        figure.savefig(args.plot, dpi=120)
        print(f"saved the heatmap to {args.plot}")
    return 0
