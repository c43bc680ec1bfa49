"""The ``doudizhu`` command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ._core import Cards, Rules, legal_moves


def _moves(args: argparse.Namespace) -> int:
    rules = Rules.preset(args.rules)
    moves = legal_moves(Cards(args.hand), args.last, rules)
    header = f"{len(moves)} moves for {Cards(args.hand)}"
    print(header + (f" over {args.last}:" if args.last else " leading:"))
    for move in moves:
        print(f"  {move!s:<20} {move.kind.name.lower()}")
    if args.last:
        print("  (or pass)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="doudizhu", description="A fast, exact Dou Dizhu rules engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    moves = commands.add_parser("moves", help="list the legal moves of a hand")
    moves.add_argument("hand", help="the hand as card text, e.g. 33344456789TJQKA2BR")
    moves.add_argument("--last", help="the move to beat (card text); omit to lead")
    moves.add_argument("--rules", default="standard", choices=Rules.presets(), help="rules preset")
    moves.set_defaults(run=_moves)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except ValueError as error:
        print(f"doudizhu: {error}", file=sys.stderr)
        return 2


__all__ = ["build_parser", "main"]
