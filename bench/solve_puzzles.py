#!/usr/bin/env python
"""Endgame solver times and memory over a seeded set of puzzles.

    python bench/solve_puzzles.py [--sizes 8-15] [--per-size N] [--three-seat N] [--three-seat-sizes 6,8]
                                  [--time-limit S] [--tt-megabytes MB] [--seed S]
                                  [--out PATH] [--no-write]

Puzzles (seed --seed): two-hand puzzles, the landlord (seat 0) against one opponent,
each holding `size` cards drawn from a shuffled deck, the landlord to lead; and
three-seat endgames (`size` cards each, landlord and player to move drawn at random,
leading). Each size runs in its own subprocess, which solves its puzzles one after
another with ``doudizhu.solve(game, time_limit=..., tt_megabytes=...)`` and reports the
time (``SolveResult.seconds``), nodes and result of each, and its peak resident memory
(``resource.getrusage(RUSAGE_SELF).ru_maxrss``, which includes the interpreter and the
module, about 30 MB). A puzzle the limit stops counts as unknown; its time is the limit.

Writes (replaces) the ``## Endgame solver`` section of bench/RESULTS.md, up to the next
``## `` heading, keeping the rest of the file (unless --no-write).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import tests_path  # noqa: E402,F401  (tests/ on sys.path, for peers)
from percentiles import percentile  # noqa: E402
from results_md import add_output_arguments, publish  # noqa: E402

from peers import FULL_DECK_TEXT  # noqa: E402

SECTION = "## Endgame solver"


def _deal(rng: random.Random, seats: int, size: int) -> list[str]:
    """`seats` hands of `size` cards from a shuffled deck."""
    cards = list(FULL_DECK_TEXT)
    rng.shuffle(cards)
    return ["".join(cards[i * size : (i + 1) * size]) for i in range(seats)]


def two_hand_puzzles(seed: int, size: int, count: int) -> list[dict[str, object]]:
    rng = random.Random(f"{seed}-two-{size}")
    return [{"hands": _deal(rng, 2, size), "landlord": 0, "to_move": 0} for _ in range(count)]


def three_seat_puzzles(seed: int, size: int, count: int) -> list[dict[str, object]]:
    rng = random.Random(f"{seed}-three-{size}")
    out = []
    for _ in range(count):
        hands = _deal(rng, 3, size)
        out.append({"hands": hands, "landlord": rng.randrange(3), "to_move": rng.randrange(3)})
    return out


def worker(spec: dict[str, object]) -> None:
    """Solves the puzzles in `spec` and prints one JSON line of results."""
    import doudizhu as dz

    results = []
    for p in spec["puzzles"]:  # type: ignore[attr-defined]
        game = dz.Game.from_position(p["hands"], landlord=p["landlord"], to_move=p["to_move"])
        cpu = time.process_time()
        r = dz.solve(game, time_limit=spec["time_limit"], tt_megabytes=spec["tt_megabytes"])
        results.append({"win": r.win, "nodes": r.nodes, "seconds": r.seconds, "cpu": time.process_time() - cpu})
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"results": results, "max_rss_mb": rss_kb / 1024}))


def run_set(puzzles: list[dict[str, object]], time_limit: float, tt_megabytes: int) -> dict[str, object]:
    spec = json.dumps({"puzzles": puzzles, "time_limit": time_limit, "tt_megabytes": tt_megabytes})
    done = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--worker"], input=spec, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def row(label: str, count: int, out: dict[str, object], time_limit: float) -> str:
    results = out["results"]  # type: ignore[index]
    times = [r["seconds"] if r["win"] is not None else time_limit for r in results]
    cpu = [r["cpu"] for r in results]
    nodes = [r["nodes"] for r in results]
    unknown = sum(r["win"] is None for r in results)
    wins = sum(r["win"] is True for r in results)
    return (
        f"| {label} | {count} | {statistics.median(times):.3f} | {statistics.median(cpu):.3f} "
        f"| {percentile(times, 0.9):.3f} | {max(times):.3f} "
        f"| {statistics.median(nodes):,.0f} | {max(nodes):,} | {wins} / {unknown} | {out['max_rss_mb']:.0f} |"
    )


def parse_sizes(text: str) -> list[int]:
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(s) for s in text.split(",")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--sizes", default="8-15", help="cards a side of the two-hand puzzles, e.g. 8-15 or 10,15")
    ap.add_argument("--per-size", type=int, default=12)
    ap.add_argument("--three-seat", type=int, default=12, help="three-seat endgames per size")
    ap.add_argument("--three-seat-sizes", default="6,8", help="cards each of the three-seat endgames")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--tt-megabytes", type=int, default=256)
    ap.add_argument("--seed", type=int, default=2026)
    add_output_arguments(ap)
    args = ap.parse_args()
    if args.worker:
        worker(json.loads(sys.stdin.read()))
        return 0

    started = time.time()
    load_before = os.getloadavg()[0]
    rows = []
    for size in parse_sizes(args.sizes):
        out = run_set(two_hand_puzzles(args.seed, size, args.per_size), args.time_limit, args.tt_megabytes)
        rows.append(row(f"two hands, {size} cards a side", args.per_size, out, args.time_limit))
        print(rows[-1], flush=True)
    for size in parse_sizes(args.three_seat_sizes) if args.three_seat else []:
        out = run_set(three_seat_puzzles(args.seed, size, args.three_seat), args.time_limit, args.tt_megabytes)
        rows.append(row(f"three seats, {size} cards each", args.three_seat, out, args.time_limit))
        print(rows[-1], flush=True)

    # The command that makes the section, wherever this run wrote it (--out PATH left out).
    given = sys.argv[1:]
    kept = [a for i, a in enumerate(given) if a != "--no-write" and a != "--out" and (i == 0 or given[i - 1] != "--out")
            and not a.startswith("--out=")]
    cmd = "python bench/solve_puzzles.py " + " ".join(kept)
    md = [
        SECTION,
        "",
        f"Generated by `{cmd.strip()}` on {datetime.datetime.now():%Y-%m-%d %H:%M} ({time.time() - started:.0f} s).",
        "",
        f"- Machine: nproc = {os.cpu_count()}; {platform.platform()}; Python {platform.python_version()}; "
        f"1-min load average {load_before:.2f} before / {os.getloadavg()[0]:.2f} after the run "
        "(solve times on a loaded machine vary; node counts do not).",
        f"- Puzzles: seed {args.seed}; two-hand puzzles: the landlord (seat 0) leads against one opponent, "
        "`size` cards each drawn from a shuffled deck; three-seat endgames: `size` cards each, landlord "
        "and player to move at random, leading.",
        f"- `doudizhu.solve(game, time_limit={args.time_limit:g}, tt_megabytes={args.tt_megabytes})`, one "
        "subprocess per row; time = `SolveResult.seconds` (the limit for an unknown); peak memory = the "
        "subprocess's `ru_maxrss` (interpreter and module included); CPU s = `time.process_time()` "
        "around the call (on a machine shared with other jobs, wall time exceeds it).",
        "- Target: two-hand puzzles of 15 cards a side under 1 s median and under 1 GB.",
        "",
        "| puzzles | n | median s | median CPU s | p90 s | max s | median nodes | max nodes "
        "| wins / unknown | peak MB |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
    ]
    publish("\n".join(md) + "\n", args.out, SECTION, write=not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
