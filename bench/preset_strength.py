"""The built-in bots against random under every preset: WP and ADP by `doudizhu.evaluate`.

    python bench/preset_strength.py [--deals N] [--threads T] [--out PATH | --no-write]

Each row is `evaluate(bot, "random", deals=N, rules=preset, seed=0)`: every deal played
with the roles swapped (DouZero's protocol without bidding; with bidding, each seat played
by the bot alone and by random alone), so a WP of 0.5 is no better than random.
Strength does not depend on the machine; only the time column does.
"""
from __future__ import annotations

import argparse
import time

from results_md import add_output_arguments, publish

import doudizhu as dz

SECTION = "## Strength under every preset (against `random`)"
BOTS = ("heuristic", "fast_heuristic")


def row(bot: str, preset: str, deals: int, threads: int | None) -> str:
    start = time.perf_counter()
    result = dz.evaluate(bot, "random", deals=deals, rules=dz.Rules.preset(preset), seed=0, threads=threads)
    seconds = time.perf_counter() - start
    low, high = result.wp_ci
    return (f"| {preset} | `{bot}` | {result.games:,} | {result.wp:.3f} ({low:.3f}-{high:.3f}) "
            f"| {result.adp:+.3f} | {seconds:.1f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--threads", type=int, default=None)
    add_output_arguments(ap)
    args = ap.parse_args()
    lines = [
        SECTION,
        "",
        f"`python bench/preset_strength.py --deals {args.deals}` (seed 0; 95% intervals). The heuristic "
        "plans wild cards as wild and is tuned for four seats (against the heuristic before that: "
        "[Heuristic for the variants](#heuristic-for-the-variants)). Seconds: the wall time of a row, which "
        "moves with the machine's load; under `run_fast` the heuristic is `fast_heuristic` (its endgame "
        "search is the exact solver, which plays a landlord's side only).",
        "",
        "| preset | bot | games | WP against random | ADP | seconds |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for preset in dz.Rules.presets():
        for bot in BOTS:
            lines.append(row(bot, preset, args.deals, args.threads))
            print(lines[-1], flush=True)
    publish("\n".join(lines), args.out, SECTION, not args.no_write)


if __name__ == "__main__":
    main()
