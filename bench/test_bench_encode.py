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

import peer_engines as peers  # noqa: E402

SEED = 2024
HANDS = 40


class _Scripted:
    """A DouZero player that plays the action it is given."""

    def __init__(self) -> None:
        self.action: list = []

    def act(self, infoset):
        return list(self.action)


def _states():
    """(our game copy, DouZero's infoset) for every decision of HANDS random hands."""
    from douzero.env.game import GameEnv

    rng = random.Random(SEED)
    rules = dz.Rules.preset("douzero")
    out = []
    for i in range(HANDS):
        deal = dz.Game(seed=SEED + i).to_record()["deals"][0]
        game = dz.Game.from_deal(deal["hands"], deal["kitty"], landlord=0, rules=rules)
        players = {p: _Scripted() for p in ("landlord", "landlord_down", "landlord_up")}
        env = GameEnv(players)
        env.card_play_init({
            "landlord": sorted(peers.douzero_cards(str(game.hand(0)))),
            "landlord_down": sorted(peers.douzero_cards(str(game.hand(1)))),
            "landlord_up": sorted(peers.douzero_cards(str(game.hand(2)))),
            "three_landlord_cards": sorted(peers.douzero_cards(deal["kitty"])),
        })
        while game.phase == "playing":
            out.append((game.copy(), env.game_infoset))
            action = rng.choice(game.legal_actions())
            cards = peers.douzero_cards(str(action.move.cards)) if action.move else []
            players[env.acting_player_position].action = cards
            env.step()
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


def test_douzero_ours(benchmark, states):
    benchmark.group = "encode_douzero"
    games = [g for g, _ in states]
    benchmark(lambda: [encode.douzero(g) for g in games])
    _per_state(benchmark, len(games))


def test_douzero_ours_batch(benchmark, states):
    benchmark.group = "encode_douzero"
    games = [g for g, _ in states]
    benchmark(encode.douzero_batch, games)
    _per_state(benchmark, len(games))


def test_douzero_theirs(benchmark, states):
    from douzero.env.env import get_obs

    benchmark.group = "encode_douzero"
    infosets = [i for _, i in states]
    benchmark(lambda: [get_obs(i) for i in infosets])
    _per_state(benchmark, len(infosets))


def test_observation_single(benchmark, states):
    benchmark.group = "encode_observation"
    games = [g for g, _ in states]
    benchmark(lambda: [encode.observation(g) for g in games])
    _per_state(benchmark, len(games))


def test_observation_batch(benchmark, states):
    benchmark.group = "encode_observation"
    games = [g for g, _ in states]
    benchmark(encode.observation_batch, games)
    _per_state(benchmark, len(games))
