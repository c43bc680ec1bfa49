"""pytest-benchmark suites for action ids: legal-action masks and id conversions.

    pytest bench --benchmark-only -k actions

Group "mask": the same positions (random OpenSpiel games replayed in our engine under the
openspiel preset, every decision of bidding and play) through ``ActionSpace.mask`` and
``legal_ids``, and through OpenSpiel's ``legal_actions_mask`` / ``legal_actions``.
Group "ids": the legal actions of those positions converted to ids and back, one call
per action and in bulk (MOVE_DTYPE rows), and to OpenSpiel ids. One round = the whole
set; ``extra_info`` gives the number of positions or actions.
Skipped unless benchmarks are requested (see bench/conftest.py).
"""
from __future__ import annotations

import functools
import random

import pytest

pytest.importorskip("pytest_benchmark")
np = pytest.importorskip("numpy")
ddz = pytest.importorskip("doudizhu")

from doudizhu.actions import ActionSpace, from_openspiel, to_openspiel  # noqa: E402

import peers  # noqa: E402  (tests/peers.py, on pytest's pythonpath)

GAMES = 40


@functools.cache
def positions():
    """(our Games, OpenSpiel states) at the same decisions of seeded random games."""
    pytest.importorskip("pyspiel")
    ours, theirs = [], []
    for seed in range(GAMES):
        rng = random.Random(seed)
        state, hands, kitty, start = peers.openspiel_deal(rng)
        game = ddz.Game.from_deal(hands, kitty, first_bidder=start, rules=ddz.Rules.preset("openspiel"))
        while not state.is_terminal():
            ours.append(game.copy())
            theirs.append(state.clone())
            bidding = game.phase == "bidding"
            legal = set(game.legal_actions())
            choices = [a for a in (from_openspiel(i, bidding=bidding) for i in state.legal_actions()) if a in legal]
            action = rng.choice(choices)
            state.apply_action(to_openspiel(action))
            game.step(action)
    return ours, theirs


@functools.cache
def space():
    return ActionSpace(ddz.Rules.preset("openspiel"))


@pytest.mark.benchmark(group="mask")
@pytest.mark.parametrize(("engine", "call"), [("ours", "mask"), ("ours", "legal_ids"),
                                              ("openspiel", "legal_actions_mask"), ("openspiel", "legal_actions")])
def test_masks_and_legal_ids(benchmark, engine, call):
    """Ours: ``ActionSpace.mask`` / ``legal_ids`` of each Game; OpenSpiel: the state's
    ``legal_actions_mask()`` / ``legal_actions()``."""
    games, states = positions()
    if engine == "ours":
        f, items = getattr(space(), call), games
    else:
        f, items = getattr(type(states[0]), call), states
    benchmark.extra_info["positions"] = len(items)
    benchmark(lambda: [f(x) for x in items])


@functools.cache
def legal_actions():
    games, _ = positions()
    return [a for g in games for a in g.legal_actions()]


@pytest.mark.benchmark(group="ids")
def test_id_per_action(benchmark):
    actions, sp = legal_actions(), space()
    benchmark.extra_info["actions"] = len(actions)
    benchmark(lambda: [sp.id(a) for a in actions])


@pytest.mark.benchmark(group="ids")
def test_action_per_id(benchmark):
    sp = space()
    ids = [sp.id(a) for a in legal_actions()]
    benchmark.extra_info["actions"] = len(ids)
    benchmark(lambda: [sp.action(i) for i in ids])


@pytest.mark.benchmark(group="ids")
def test_ids_of_rows(benchmark):
    sp = space()
    rows = ddz.moves_to_array([a.move for a in legal_actions() if a.move is not None])
    benchmark.extra_info["actions"] = len(rows)
    benchmark(lambda: sp.ids(rows))


@pytest.mark.benchmark(group="ids")
def test_moves_of_ids(benchmark):
    sp = space()
    ids = np.array([sp.id(a) for a in legal_actions() if a.move is not None])
    benchmark.extra_info["actions"] = len(ids)
    benchmark(lambda: sp.moves(ids))


@pytest.mark.benchmark(group="ids")
def test_to_openspiel_per_action(benchmark):
    actions = legal_actions()
    benchmark.extra_info["actions"] = len(actions)
    benchmark(lambda: [to_openspiel(a) for a in actions])
