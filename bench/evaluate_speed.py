"""Speed of doudizhu.evaluate between built-in bots: games per second, on 1 and 2 threads.

    python bench/evaluate_speed.py [--deals N] [--rounds R] [--out PATH | --no-write]

Each row is the best of R rounds (this machine's speed drifts), the deals of every round
the same; a deal is 2 games without bidding (DouZero's protocol) and 6 with classic
bidding (each seat played alone by each policy).
"""
from __future__ import annotations

import argparse
import time

from results_md import add_output_arguments, publish

import doudizhu as dz

SECTION = "## Evaluation speed (built-in bots, `doudizhu.evaluate`)"


def games_per_second(a: str, b: str, rules: dz.Rules, deals: int, threads: int, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        result = dz.evaluate(a, b, deals=deals, rules=rules, threads=threads)
        best = min(best, time.perf_counter() - start)
    return result.games / best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=3)
    add_output_arguments(ap)
    args = ap.parse_args()
    command = (f"`python bench/evaluate_speed.py --deals {args.deals} --rounds {args.rounds}` "
               f"(best of {args.rounds} rounds).")
    header = "| a against b | rules | games a deal | games/s, 1 thread | games/s, 2 threads |"
    lines = [SECTION, "", command, "", header, "|---|---|---:|---:|---:|"]
    for a, b in (("heuristic", "random"), ("heuristic", "heuristic"), ("random", "random")):
        for preset in ("douzero", "standard"):
            rules = dz.Rules.preset(preset)
            per_deal = dz.evaluate(a, b, deals=1, rules=rules).games
            one, two = (games_per_second(a, b, rules, args.deals, t, args.rounds) for t in (1, 2))
            lines.append(f"| {a} against {b} | {preset} | {per_deal} | {one:,.0f} | {two:,.0f} |")
    publish("\n".join(lines), args.out, SECTION, not args.no_write)


if __name__ == "__main__":
    main()
