"""pytest-benchmark suite for whole games (group "games").

    pytest bench --benchmark-only -k games

* ``test_python_random_game``: one whole game through the Python API, uniform random
  actions: ``g = Game(seed=i)``; ``while g.phase != "over": g.step(rng.choice(g.legal_actions()))``
  (a new seed every call).
* ``test_selfplay_1000[threads]``: ``selfplay(1000, policy="random", threads=t)`` for
  t = 1, 2.

``extra_info`` gives games per round, decisions (or plays+passes) per game and the
median/mean µs per game.  Skipped unless benchmarks are requested (see bench/conftest.py).
bench/compare_games.py times the same loops next to OpenSpiel, DouZero and RLCard.
"""
from __future__ import annotations

import itertools
import os
import random

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy: idle OpenBLAS threads spin

import pytest

pytest.importorskip("pytest_benchmark")
ddz = pytest.importorskip("doudizhu")

SEED = 2024
SELFPLAY_GAMES = 1000


def _finish(benchmark, games, **extra):
    benchmark.extra_info.update(games=games, **extra)
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["median_us_per_game"] = round(stats.stats.median / games * 1e6, 3)
        benchmark.extra_info["mean_us_per_game"] = round(stats.stats.mean / games * 1e6, 3)
        benchmark.extra_info["games_per_s"] = round(games / stats.stats.median, 1)


def test_python_random_game(benchmark):
    benchmark.group = "games"
    rng = random.Random(SEED)
    seeds = itertools.count(SEED * 1_000_003)
    Game, choice = ddz.Game, rng.choice
    tally = {"games": 0, "decisions": 0}

    def one_game():
        g = Game(seed=next(seeds))
        n = 0
        while g.phase != "over":
            g.step(choice(g.legal_actions()))
            n += 1
        tally["games"] += 1
        tally["decisions"] += n
        return g

    g = benchmark(one_game)
    assert g.phase == "over" and g.result is not None
    assert sum(g.result.payouts) == 0
    _finish(benchmark, 1, loop="Game + legal_actions + step",
            decisions_per_game=round(tally["decisions"] / max(tally["games"], 1), 2))


@pytest.mark.parametrize("threads", [1, 2])
def test_selfplay_1000(benchmark, threads):
    benchmark.group = "games"
    seeds = itertools.count(SEED)

    def run():
        return ddz.selfplay(SELFPLAY_GAMES, policy="random", seed=next(seeds), threads=threads)

    r = benchmark(run)
    assert len(r) == SELFPLAY_GAMES
    assert (r.landlord >= 0).all() and (r.moves > 0).all()
    assert (r.payouts.sum(axis=1) == 0).all()
    _finish(benchmark, SELFPLAY_GAMES, threads=threads, policy="random",
            plays_and_passes_per_game=round(float(r.moves.mean()), 2))
