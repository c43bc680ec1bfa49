#!/usr/bin/env python
"""The exact solver on three hands from real play: how long `doudizhu.solve` takes.

    python bench/solver_positions.py [--generator play|deal] [--positions 200] [--cards 12]
                                     [--time-limit 20] [--tt-megabytes 256] [--seed 2029]
                                     [--node-limit N] [--only I,J,...] [--threads 1,2] [--rounds 1]
                                     [--out PATH] [--no-write]

Positions (seed --seed), by ``--generator``:
  play: game i of the seed (``doudizhu.game_seed(seed, i)``, the ``douzero`` preset: the
    landlord given, first bidder i mod 3) played by the fast heuristic in every seat until
    every hand holds at most ``--cards`` cards; a game that ends first is skipped, so the
    set is the first ``--positions`` games that reach such a position.
  deal: three hands of exactly ``--cards`` cards each from a shuffled deck, the landlord
    and the seat to move drawn at random, leading (as bench/solve_puzzles.py's three-seat
    endgames): the hardest positions of that size, every hand full.
Each is
solved ``--rounds`` times (the fastest kept: this machine's speed drifts by tens of percent)
with ``doudizhu.solve(game, time_limit=..., node_limit=..., tt_megabytes=...)`` in this
process, one after another; a position a limit stops counts as unsolved, its time
the time limit (or what it took, under a node limit alone). ``--time-limit 0`` sets none:
nodes are deterministic where wall time on a shared machine is not, so versions of the
solver are compared by a node limit alone. ``--only`` solves only the positions of those
indices (e.g. the hardest ones, to iterate fast) and writes nothing. Reports the
distribution of the solve times (median, 90th and 95th nearest-rank percentiles,
maximum), the unsolved count and the nodes.

Writes (replaces) the ``## Solver on three hands (from play)`` or ``(dealt)`` section of
bench/RESULTS.md (unless --no-write).
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import doudizhu as dz

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from percentiles import percentile  # noqa: E402
from results_md import add_output_arguments, publish  # noqa: E402

SECTION = {"play": "## Solver on three hands (from play)", "deal": "## Solver on three hands (dealt)"}
DESCRIPTION = {
    "play": "the first {n} games of seed {seed} (`douzero` preset) that the fast heuristic, playing every seat, "
            "brings to at most {cards} cards in every hand before the hand ends",
    "deal": "{n} deals of seed {seed}, three hands of {cards} cards each from a shuffled deck, the landlord and the "
            "seat to move at random, leading",
}


def dealt(n: int, cards: int, seed: int) -> list:
    """``n`` positions of three hands of ``cards`` cards each, leading."""
    import random

    import tests_path  # noqa: F401  (tests/ on sys.path, for peers)

    import doudizhu as dz

    from peers import FULL_DECK_TEXT

    out = []
    for i in range(n):
        rng = random.Random(f"{seed}-deal-{cards}-{i}")
        deck = list(FULL_DECK_TEXT)
        rng.shuffle(deck)
        hands = ["".join(deck[s * cards:(s + 1) * cards]) for s in range(3)]
        out.append(dz.Game.from_position(hands, landlord=rng.randrange(3), to_move=rng.randrange(3)))
    return out


def played(n: int, cards: int, seed: int) -> list:
    """The first ``n`` seeded games whose hands all reach ``cards`` or fewer before the end."""
    import doudizhu as dz

    rules = dz.Rules.preset("douzero")
    out = []
    index = 0
    while len(out) < n:
        game = dz.Game(seed=dz.game_seed(seed, index), rules=rules, first_bidder=index % 3)
        index += 1
        while game.phase != "over" and max(len(game.hand(s)) for s in range(3)) > cards:
            game.step(dz.choose_action(game, "fast_heuristic", 0))
        if game.phase != "over":
            out.append(game)
    return out


def fastest(game: dz.Game, rounds: int, **solve_options: object) -> tuple[dz.SolveResult, float]:
    """The fastest of ``rounds`` solves of ``game`` in a row (a solved one before an unsolved one), with its
    CPU seconds."""
    import doudizhu as dz

    best: tuple[dz.SolveResult, float] | None = None
    for _ in range(rounds):
        c = time.process_time()
        r = dz.solve(game, **solve_options)
        cpu = time.process_time() - c
        if best is None or (r.win is not None, -r.seconds) > (best[0].win is not None, -best[0].seconds):
            best = (r, cpu)
    assert best is not None
    return best


class Run:
    """One thread count's solves: wall seconds, CPU seconds and nodes, and the unsolved."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self.cpu: list[float] = []
        self.nodes: list[int] = []
        self.unsolved = 0

    def add(self, result: dz.SolveResult, cpu: float, time_limit: float | None) -> None:
        solved = result.win is not None
        self.seconds.append(result.seconds if solved or time_limit is None else time_limit)
        self.cpu.append(cpu)
        self.nodes.append(result.nodes)
        self.unsolved += not solved

    def row(self, threads: int) -> str:
        s, cs, n = self.seconds, self.cpu, self.nodes
        return (f"| {threads} | {len(s)} | {statistics.median(s):.3f} | {percentile(s, 0.9):.3f} "
                f"| {percentile(s, 0.95):.3f} | {max(s):.3f} | {statistics.median(cs):.3f} "
                f"| {percentile(cs, 0.95):.3f} "
                f"| {statistics.median(n):,.0f} | {percentile(n, 0.95):,} | {max(n):,} | {self.unsolved} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generator", choices=["play", "deal"], default="play")
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--cards", type=int, default=12)
    ap.add_argument("--time-limit", type=float, default=20.0)
    ap.add_argument("--tt-megabytes", type=int, default=256)
    ap.add_argument("--seed", type=int, default=2029)
    ap.add_argument("--node-limit", type=int, default=None)
    ap.add_argument("--only", default=None, help="comma-separated position indices")
    ap.add_argument("--threads", default="1", help="comma-separated thread counts: a row each, every position "
                    "solved with each in turn")
    ap.add_argument("--rounds", type=int, default=1, help="solves of each position with each thread count, "
                    "the fastest kept")
    add_output_arguments(ap)
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    games = (played if args.generator == "play" else dealt)(args.positions, args.cards, args.seed)
    indices = [int(i) for i in args.only.split(",")] if args.only else list(range(len(games)))
    time_limit = args.time_limit or None
    shown_limit = f"{args.time_limit:g}" if time_limit else "None"
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    thread_counts = [int(t) for t in args.threads.split(",")]
    runs = {t: Run() for t in thread_counts}
    wins, in_play = set(), []
    for i in indices:
        game = games[i]
        in_play.append(sum(len(game.hand(s)) for s in range(3)))
        for t, run in runs.items():
            r, cpu = fastest(game, args.rounds, time_limit=time_limit, node_limit=args.node_limit,
                             tt_megabytes=args.tt_megabytes, threads=t)
            run.add(r, cpu, time_limit)
            if r.win is True:
                wins.add(i)
            print(f"{i}: {in_play[-1]} cards, threads={t} win={r.win} {r.seconds:.3f}s {r.nodes} nodes", flush=True)
    wall = time.perf_counter() - started
    games = [games[i] for i in indices]
    md = [
        SECTION[args.generator],
        "",
        f"Generated by `python bench/solver_positions.py --generator {args.generator} --positions {args.positions} "
        f"--cards {args.cards} "
        f"--time-limit {args.time_limit:g} --tt-megabytes {args.tt_megabytes} --seed {args.seed}"
        f"{f' --node-limit {args.node_limit}' if args.node_limit else ''} --threads {args.threads}"
        f"{f' --rounds {args.rounds}' if args.rounds > 1 else ''}` on "
        f"{datetime.datetime.now():%Y-%m-%d %H:%M} ({wall:.0f} s).",
        "",
        f"- Machine: nproc = {os.cpu_count()}; {platform.platform()}; 1-min load average {load_before:.2f} before / "
        f"{os.getloadavg()[0]:.2f} after (a shared machine: wall times vary, node counts do not).",
        f"- Positions: {DESCRIPTION[args.generator].format(n=len(games), seed=args.seed, cards=args.cards)}; "
        f"{statistics.median(in_play):.0f} cards in play at the median ({min(in_play)}-{max(in_play)}). "
        "The side to move wins "
        f"{len(wins)} of them.",
        f"- `doudizhu.solve(game, time_limit={shown_limit}, node_limit={args.node_limit}, "
        f"tt_megabytes={args.tt_megabytes}, threads=...)`, one after "
        "another in one process, each position with each thread count in turn"
        f"{f', {args.rounds} times, the fastest kept' if args.rounds > 1 else ''}; time = `SolveResult.seconds` "
        "(wall; the limit for an unsolved one); CPU = the process's CPU time for the call, every thread's (for an "
        "unsolved one, what it spent until the limit).",
        "- Target (issue 29): p95 <= 1 s.",
        "",
        "| threads | positions | median s | p90 s | p95 s | max s | median CPU s | p95 CPU s | median nodes "
        "| p95 nodes | max nodes | unsolved |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ] + [run.row(t) for t, run in runs.items()]
    publish("\n".join(md) + "\n", args.out, SECTION[args.generator], write=not args.no_write and not args.only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
