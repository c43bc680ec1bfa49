"""pytest-benchmark suites for move generation.

    pytest bench --benchmark-only                 # all groups
    pytest bench --benchmark-only -k follow       # one group

Groups: "classify", "lead", "follow".  In each, the same position set
(bench/positions.py, fixed seed) is run through:
  * the Python per-call API (`classify` / `legal_moves`, a list of Move objects),
  * the NumPy fast path (`classify` on int masks / `legal_moves_array`),
  * the batch call (`legal_moves_batch` over the whole set) -- lead/follow only.
One benchmark round = the whole set; `extra_info` gives positions, moves and the
median ns per position (per call).  Skipped unless benchmarks are requested
(see bench/conftest.py).
"""
from __future__ import annotations

import functools
import os
import sys

import pytest

pytest.importorskip("pytest_benchmark")
np = pytest.importorskip("numpy")
ddz = pytest.importorskip("doudizhu")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import positions as P  # noqa: E402
from peers import PEER_PRESETS as PRESETS  # noqa: E402

SEED = 2024
N_LEAD = 300
N_FOLLOW = 560  # a multiple of 28: every kind x both hand-size classes equally often


@functools.cache
def rules(preset):
    return ddz.Rules.preset(preset)


@functools.cache
def position_set(phase: str, preset: str):
    """(hand masks, last Moves or None, skipped) for the phase under the preset.

    A follow whose `last` is no move under the preset (four-with-two under
    'openspiel') is left out and counted in `skipped`.
    """
    ps = (P.lead_positions_detailed(N_LEAD, SEED) if phase == "lead"
          else P.follow_positions_detailed(N_FOLLOW, SEED))
    r = rules(preset)
    hands, lasts, skipped = [], [], 0
    for p in ps:
        last = None
        if p.last is not None:
            try:
                last = ddz.Move(ddz.Cards(p.last), getattr(ddz.MoveKind, p.last_kind.upper()), r)
            except ValueError:
                skipped += 1
                continue
        hands.append(ddz.Cards(p.hand).mask)
        lasts.append(last)
    return hands, lasts, skipped


def _finish(benchmark, n, moves, **extra):
    benchmark.extra_info.update(positions=n, moves=moves, **extra)
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["median_ns_per_position"] = round(stats.stats.median / n * 1e9, 1)
        benchmark.extra_info["mean_ns_per_position"] = round(stats.stats.mean / n * 1e9, 1)


# ------------------------------------------------------------------------- classify
@pytest.fixture(scope="module")
def classify_set():
    texts = P.classify_positions(N_FOLLOW, SEED)
    return texts, [ddz.Cards(t).mask for t in texts]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("form", ["text", "mask"])
def test_classify(benchmark, classify_set, form, preset):
    benchmark.group = "classify"
    texts, masks = classify_set
    moves = texts if form == "text" else masks
    r, f = rules(preset), ddz.classify

    def run():
        return [f(m, r) for m in moves]

    out = benchmark(run)
    _finish(benchmark, len(moves), sum(map(len, out)), preset=preset, input=form)


# ---------------------------------------------------------------------- lead/follow
def _per_call(benchmark, phase, preset, fn, path):
    benchmark.group = phase
    hands, lasts, skipped = position_set(phase, preset)
    r = rules(preset)
    args = list(zip(hands, lasts))

    def run():
        return [fn(h, last, r) for h, last in args]

    out = benchmark(run)
    _finish(benchmark, len(args), sum(map(len, out)), preset=preset, path=path, skipped=skipped)


def _batch(benchmark, phase, preset):
    benchmark.group = phase
    hands, lasts, skipped = position_set(phase, preset)
    r = rules(preset)
    h = np.array(hands, dtype=np.uint64)
    last_rows = None if phase == "lead" else ddz.moves_to_array(lasts)
    f = ddz.legal_moves_batch
    moves, offsets = benchmark(f, h, last_rows, r)
    assert len(offsets) == len(hands) + 1 and offsets[-1] == len(moves)
    _finish(benchmark, len(hands), len(moves), preset=preset, path="batch", skipped=skipped)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("path", ["legal_moves", "legal_moves_array"])
@pytest.mark.parametrize("phase", ["lead", "follow"])
def test_per_call(benchmark, phase, path, preset):
    _per_call(benchmark, phase, preset, getattr(ddz, path), path)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("phase", ["lead", "follow"])
def test_batch(benchmark, phase, preset):
    _batch(benchmark, phase, preset)
