"""The ``doudizhu`` command line."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from ._core import Cards, Game, Rules, legal_moves


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


def _describe_seat(game: Game, seat: int) -> str:
    role = "landlord" if game.landlord == seat else "peasant" if game.landlord is not None else "bidder"
    return f"seat {seat} ({role})"


def _demo(args: argparse.Namespace) -> int:
    game = Game(seed=args.seed, rules=Rules.preset(args.rules))
    rng = random.Random(args.seed)
    print(f"Dou Dizhu, seed {game.seed}, rules {args.rules}")
    for seat in range(3):
        print(f"  seat {seat}: {game.hand(seat)}")
    print(f"  kitty:  {game.kitty}")
    while game.phase != "over":
        seat = game.to_move
        assert seat is not None
        action = rng.choice(game.legal_actions())
        was_bidding = game.phase == "bidding"
        who = _describe_seat(game, seat)
        game.step(action)
        print(f"{who:>20}: {action}")
        if was_bidding and game.phase == "playing":
            print(f"seat {game.landlord} is the landlord for {game.bid_value}, takes {game.kitty}: {game.hand(game.landlord or 0)}")
    result = game.result
    assert result is not None
    if game.landlord is None:
        print("nobody bid: the hand is void")
        return 0
    side = "landlord" if result.landlord_won else "peasants"
    extras = [name for name, on in (("spring", result.spring), ("anti-spring", result.anti_spring)) if on]
    print(f"the {side} win: base {result.base} x {result.multiplier}" + (f" ({', '.join(extras)})" if extras else ""))
    print("payouts: " + ", ".join(f"seat {seat} {payout:+d}" for seat, payout in enumerate(result.payouts)))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="doudizhu", description="A fast, exact Dou Dizhu rules engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    moves = commands.add_parser("moves", help="list the legal moves of a hand")
    moves.add_argument("hand", help="the hand as card text, e.g. 33344456789TJQKA2BR")
    moves.add_argument("--last", help="the move to beat (card text); omit to lead")
    moves.add_argument("--rules", default="standard", choices=Rules.presets(), help="rules preset")
    moves.set_defaults(run=_moves)
    demo = commands.add_parser("demo", help="play one hand with random bots and print it")
    demo.add_argument("--seed", type=int, default=1, help="deal and play seed")
    demo.add_argument("--rules", default="standard", choices=Rules.presets(), help="rules preset")
    demo.set_defaults(run=_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except ValueError as error:
        print(f"doudizhu: {error}", file=sys.stderr)
        return 2


__all__ = ["build_parser", "main"]
