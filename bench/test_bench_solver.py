"""pytest-benchmark suite for the endgame solver and determinization (group "search").

    pytest bench --benchmark-only -k search

* ``test_solve[two_hand-size]``: ``doudizhu.solve`` over a fixed set of two-hand puzzles
  (the landlord leads, `size` cards a side, the first puzzles of bench/solve_puzzles.py's
  seeded set), one round solving them all; ``extra_info`` gives the nodes.
* ``test_solve[three_seat-6]``: the same for the three-seat endgames of that set.
* ``test_sample_worlds``: 100 worlds of a dealt game in play, for the seat to move.

Skipped unless benchmarks are requested (see bench/conftest.py);
bench/solve_puzzles.py reports medians, tails and memory per size.
"""
from __future__ import annotations

import os
import sys

import pytest

pytest.importorskip("pytest_benchmark")
ddz = pytest.importorskip("doudizhu")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doudizhu._core import choose_action  # noqa: E402

import solve_puzzles as P  # noqa: E402

SEED = 2026
PUZZLES = 4


def _games(puzzles):
    return [ddz.Game.from_position(p["hands"], landlord=p["landlord"], to_move=p["to_move"]) for p in puzzles]


def _solve_all(games):
    return [ddz.solve(g, time_limit=30) for g in games]


@pytest.mark.benchmark(group="search")
@pytest.mark.parametrize(("puzzles", "size"), [("two_hand", 8), ("two_hand", 10), ("two_hand", 12), ("three_seat", 6)])
def test_solve(benchmark, puzzles, size):
    games = _games(getattr(P, f"{puzzles}_puzzles")(SEED, size, PUZZLES))
    results = benchmark.pedantic(_solve_all, args=(games,), rounds=3, iterations=1)
    assert all(r.win is not None for r in results)
    benchmark.extra_info.update(puzzles=len(games), nodes=[r.nodes for r in results])


@pytest.mark.benchmark(group="search")
def test_sample_worlds(benchmark):
    game = ddz.Game(seed=SEED, rules=ddz.Rules(bidding="none"))
    for _ in range(10):
        game.step(choose_action(game, "heuristic", 0))
    worlds = benchmark(ddz.sample_worlds, game, game.to_move, 100, 1)
    assert len(worlds) == 100
