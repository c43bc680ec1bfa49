"""pytest-benchmark suite for the observation encoders (groups "encode_douzero" and
"encode_observation").

    pytest bench --benchmark-only -k encode

The states: every decision of 40 seeded random hands in DouZero's setting (seat 0 the
landlord, douzero rules), replayed in DouZero's ``GameEnv`` as well, so both engines
encode the same states.

* ``encode_douzero``: ``doudizhu.encode.douzero(game)`` per state, ``douzero_batch`` over
  all of them, and DouZero 1.1.0's ``get_obs(infoset)`` on its infoset of the same state
  (the infoset itself, which DouZero's env builds each step with the legal actions, is
  built outside the timed call).
* ``encode_observation``: ``observation(game)`` per state and ``observation_batch``.

``extra_info`` gives states per round and µs per state (median).
"""
from __future__ import annotations

import os
import random

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy: idle OpenBLAS threads spin

import pytest

pytest.importorskip("pytest_benchmark")
dz = pytest.importorskip("doudizhu")
from doudizhu import encode  # noqa: E402

import peers  # noqa: E402  (tests/peers.py, on pytest's pythonpath)

SEED = 2024
HANDS = 40


def _states():
    """(our game copy, DouZero's infoset) for every decision of HANDS random hands."""
    rng = random.Random(SEED)
    rules = dz.Rules.preset("douzero")
    out = []
    for i in range(HANDS):
        deal = dz.Game(seed=SEED + i).to_record()["deals"][0]
        game = dz.Game.from_deal(deal["hands"], deal["kitty"], landlord=0, rules=rules)
        env = peers.douzero_env([game.hand(s).mask for s in range(3)], dz.Cards(deal["kitty"]).mask)
        while game.phase == "playing":
            out.append((game.copy(), env.game_infoset))
            action = rng.choice(game.legal_actions())
            peers.douzero_play(env, action.move.cards.mask if action.move else 0)
            game.step(action)
    return out


@pytest.fixture(scope="module")
def states():
    pytest.importorskip("douzero")
    return _states()


def _per_state(benchmark, n):
    benchmark.extra_info["states"] = n
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["median_us_per_state"] = round(stats.stats.median / n * 1e6, 3)


@pytest.mark.parametrize("encoder", ["douzero", "observation"])
def test_ours(benchmark, states, encoder):
    benchmark.group = f"encode_{encoder}"
    games = [g for g, _ in states]
    f = getattr(encode, encoder)
    benchmark(lambda: [f(g) for g in games])
    _per_state(benchmark, len(games))


@pytest.mark.parametrize("encoder", ["douzero", "observation"])
def test_ours_batch(benchmark, states, encoder):
    benchmark.group = f"encode_{encoder}"
    games = [g for g, _ in states]
    benchmark(getattr(encode, f"{encoder}_batch"), games)
    _per_state(benchmark, len(games))


def test_douzero_theirs(benchmark, states):
    from douzero.env.env import get_obs

    benchmark.group = "encode_douzero"
    infosets = [i for _, i in states]
    benchmark(lambda: [get_obs(i) for i in infosets])
    _per_state(benchmark, len(infosets))
