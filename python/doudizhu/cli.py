"""The ``doudizhu`` command line: ``play``, ``selfplay`` and ``moves``."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from . import __version__
from ._core import Cards, Game, Rules, choose_action, game_seed, legal_moves, rank_name
from .evaluate import evaluate, print_progress
from .selfplay import SelfPlayResult, selfplay

_HUMAN = 0


# ---------------------------------------------------------------------------- moves
def _moves(args: argparse.Namespace, out: TextIO) -> int:
    rules = Rules.preset(args.rules)
    moves = legal_moves(Cards(args.hand), args.last, rules, args.wild)
    header = f"{len(moves)} moves for {Cards(args.hand)}" + (f" with {args.wild}s wild" if args.wild else "")
    print(header + (f" over {args.last}:" if args.last else " leading:"), file=out)
    for move in moves:
        print(f"  {move!s:<20} {move.kind.name.lower()}", file=out)
    if args.last:
        print("  (or pass)", file=out)
    return 0


# ----------------------------------------------------------------------------- play
def _role(game: Game, seat: int) -> str:
    if game.landlord is None:
        return "bidder"
    return "landlord" if game.landlord == seat else "peasant"


def _who(game: Game, seat: int) -> str:
    name = "you" if seat == _HUMAN else f"seat {seat}"
    return f"{name} ({_role(game, seat)})"


def _board(game: Game) -> str:
    """What the human at seat 0 sees: hand, trick, counts, kitty, stakes."""
    obs = game.seat_view(_HUMAN)
    lines = [f"your hand: {obs['hand']}"]
    if obs["wild_rank"] is not None:
        lines.append(f"wild: {rank_name(obs['wild_rank'])}s (play them as 'spent=combination', e.g. 557=577)")
    counts = ", ".join(f"seat {s}: {n}" for s, n in enumerate(obs["hand_sizes"]))
    lines.append(f"cards left: {counts}")
    if obs["kitty"] is not None:
        lines.append(f"kitty (seat {obs['landlord']} took it): {obs['kitty']}")
    if obs["last"] is not None:
        lines.append(f"to beat: {obs['last']} by seat {obs['last_by']}")
    elif game.phase == "playing":
        lines.append("you lead: play anything")
    lines.append(f"stake: base {game.bid_value} x {game.multiplier}")
    return "\n".join(lines)


def _settlement(game: Game) -> str:
    result = game.result
    assert result is not None
    if game.landlord is None:
        return "nobody bid: the hand is void"
    side = "landlord" if result.landlord_won else "peasants"
    extras = [name for name, on in (("spring", result.spring), ("anti-spring", result.anti_spring)) if on]
    extras += [f"start bonus: {name} in seat {seat}'s hand" for name, seat in result.start_bonuses]
    headline = f"the {side} win: base {result.base} x {result.multiplier}"
    lines = [headline + (f" ({', '.join(extras)})" if extras else "")]
    lines.append("payouts: " + ", ".join(f"seat {seat} {payout:+d}" for seat, payout in enumerate(result.payouts)))
    return "\n".join(lines)


def _ask(game: Game, read: Callable[[str], str], out: TextIO) -> None:
    """Reads the human's action until it is legal; 'moves' lists the choices."""
    print(_board(game), file=out)
    hint = "bid 0-3" if game.phase == "bidding" and game.rules.bidding == "classic" else "cards, or pass"
    if game.phase == "bidding" and game.rules.bidding == "call_rob":
        hint = "call / decline" if "call" in [str(a) for a in game.legal_actions()] else "rob / no rob"
    while True:
        text = read(f"your move ({hint}; 'moves' lists them)> ").strip()
        if text.lower() in ("moves", "help", "?"):
            print("legal: " + ", ".join(str(a) for a in game.legal_actions()), file=out)
            continue
        if game.phase == "bidding" and text.isdigit():
            text = f"bid {text}"
        try:
            game.step(text)
            return
        except ValueError as error:  # IllegalActionError, or text that is no cards
            print(f"not allowed: {error}", file=out)


def _play(args: argparse.Namespace, out: TextIO, read: Callable[[str], str]) -> int:
    game = Game(seed=args.seed, rules=Rules.preset(args.rules))
    print(f"Dou Dizhu, seed {game.seed}, rules {args.rules}", file=out)
    if game.wild_rank is not None:
        print(f"the {rank_name(game.wild_rank)}s are wild", file=out)
    if args.auto:
        for dealt in range(game.seats):
            print(f"  seat {dealt}: {game.hand(dealt)}", file=out)
    step = 0
    while game.phase != "over":
        seat = game.to_move
        assert seat is not None
        who = _who(game, seat)
        bidding = game.phase == "bidding"
        if seat == _HUMAN and not args.auto:
            _ask(game, read, out)
            action = game.history[-1][1]
        else:
            action = choose_action(game, args.policy, game_seed(game.seed, step))
            game.step(action)
        step += 1
        print(f"{who:>22}: {action}", file=out)
        if bidding and game.phase == "playing":
            landlord = game.landlord
            assert landlord is not None
            print(f"seat {landlord} is the landlord for {game.bid_value} and takes the kitty {game.kitty}", file=out)
    print(_settlement(game), file=out)
    return 0


# ------------------------------------------------------------------------- selfplay
def _progress(done: int, total: int, started: float) -> None:
    width = 30
    filled = width * done // max(total, 1)
    rate = done / max(time.perf_counter() - started, 1e-9)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, {rate:,.0f} games/s")
    sys.stderr.flush()


def _selfplay(args: argparse.Namespace, out: TextIO) -> int:
    rules = Rules.preset(args.rules)
    chunks = max(1, min(20, args.games // 1000))
    bounds = [args.games * i // chunks for i in range(chunks + 1)]
    parts: list[SelfPlayResult] = []
    started = time.perf_counter()
    for first, end in zip(bounds, bounds[1:]):
        parts.append(
            selfplay(end - first, policy=args.policy, seed=args.seed, threads=args.threads, rules=rules,
                     record=args.out is not None, first=first)
        )
        _progress(end, args.games, started)
    sys.stderr.write("\n")
    elapsed = time.perf_counter() - started
    result = SelfPlayResult.concatenate(parts)
    played = result.landlord >= 0
    print(f"{len(result)} games in {elapsed:.2f} s: {len(result) / elapsed:,.0f} games/s", file=out)
    print(f"landlord win rate {result.landlord_win_rate:.3f}; mean multiplier "
          f"{result.multiplier[played].mean() if played.any() else float('nan'):.2f}; "
          f"void hands {int((~played).sum())}", file=out)
    if args.out is not None:
        result.save(args.out)
        print(f"saved to {args.out}", file=out)
    return 0


def _evaluate(args: argparse.Namespace, out: TextIO) -> int:
    rules = Rules.preset(args.rules)
    result = evaluate(args.a, args.b, deals=args.deals, rules=rules, seed=args.seed, threads=args.threads,
                      progress=print_progress)
    print(f"{args.a} against {args.b}, rules {args.rules}, seed {args.seed}\n", file=out)
    print(result.table(args.a, args.b), file=out)
    return 0


# --------------------------------------------------------------------------- parser
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="doudizhu", description="A fast, exact Dou Dizhu rules engine.")
    parser.add_argument("--version", action="version", version=f"doudizhu-engine {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    presets = Rules.presets()

    play = commands.add_parser("play", help="play a hand against bots (--auto: bots in every seat)")
    play.add_argument("--auto", action="store_true", help="let bots play every seat and print the hand")
    play.add_argument("--seed", type=int, default=1, help="deal seed (default 1)")
    play.add_argument("--rules", default="standard", choices=presets, help="rules preset")
    play.add_argument("--policy", default="random", choices=["random", "heuristic"], help="the bots' policy")
    play.set_defaults(run="play")

    sp = commands.add_parser("selfplay", help="generate games in C++ on all cores")
    sp.add_argument("--games", type=int, default=100_000, help="number of games (default 100000)")
    sp.add_argument("--threads", type=int, default=None, help="threads (default: every core)")
    sp.add_argument("--policy", default="random", choices=["random", "heuristic"], help="policy of every seat")
    sp.add_argument("--seed", type=int, default=0, help="seed of the run")
    sp.add_argument("--rules", default="standard", choices=presets, help="rules preset")
    sp.add_argument("--out", default=None, help="save the games (with their actions) to this .npz file")
    sp.set_defaults(run="selfplay")

    ev = commands.add_parser("evaluate", help="policy A against policy B by DouZero's protocol (WP, ADP)")
    ev.add_argument("a", choices=["random", "heuristic"], help="policy A")
    ev.add_argument("b", choices=["random", "heuristic"], help="policy B")
    ev.add_argument("--deals", type=int, default=10_000, help="number of deals (default 10000)")
    ev.add_argument("--rules", default="standard", choices=presets, help="rules preset (default standard)")
    ev.add_argument("--seed", type=int, default=0, help="seed of the deals (default 0)")
    ev.add_argument("--threads", type=int, default=None, help="threads (default: every core)")
    ev.set_defaults(run="evaluate")

    moves = commands.add_parser("moves", help="list the legal moves of a hand")
    moves.add_argument("hand", help="the hand as card text, e.g. 33344456789TJQKA2BR")
    moves.add_argument("--last", help="the move to beat (card text); omit to lead")
    moves.add_argument("--rules", default="standard", choices=presets, help="rules preset")
    moves.add_argument("--wild", default=None, help="the wild rank, e.g. 5 (with --rules laizi)")
    moves.set_defaults(run="moves")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, read: Callable[[str], str] = input) -> int:
    args = build_parser().parse_args(argv)
    out = out if out is not None else sys.stdout
    try:
        if args.run == "play":
            return _play(args, out, read)
        if args.run == "selfplay":
            return _selfplay(args, out)
        if args.run == "evaluate":
            return _evaluate(args, out)
        return _moves(args, out)
    except (ValueError, TypeError) as error:
        print(f"doudizhu: {error}", file=sys.stderr)
        return 2
    except (EOFError, KeyboardInterrupt):
        print("\nbye", file=out)
        return 1


__all__ = ["build_parser", "main"]
