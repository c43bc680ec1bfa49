"""Self-play on a Ray cluster (a local one with 2 CPUs) gives the local run's games."""

from __future__ import annotations

import numpy as np
import pytest

import doudizhu as dz

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def cluster() -> object:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_backend_equals_local(cluster: object) -> None:
    local = dz.selfplay(5000, policy="fast_heuristic", seed=8, threads=2, record=True)
    spread = dz.selfplay(5000, policy="fast_heuristic", seed=8, backend="ray", record=True)
    for name in ("hands", "kitty", "landlord", "landlord_won", "payouts", "moves", "offsets"):
        assert np.array_equal(getattr(local, name), getattr(spread, name)), name
    assert local.actions is not None and spread.actions is not None
    assert local.actions.tobytes() == spread.actions.tobytes()


@pytest.mark.parametrize("kwargs, error", [
    ({"policy": "neural", "rules": dz.Rules.preset("sanren")}, dz.NetworkError),
    ({"policy": "foo"}, ValueError),
    ({"rules": "sanren"}, TypeError),
])
def test_ray_refuses_what_a_local_run_refuses_before_it_starts(kwargs: dict[str, object], error: type) -> None:
    # Ray started a local cluster, sent every task, and raised a RayTaskError from each.
    was_running = ray.is_initialized()
    with pytest.raises(error) as raised:
        dz.selfplay(4, backend="ray", **kwargs)  # type: ignore[arg-type]
    assert type(raised.value) is error
    assert ray.is_initialized() == was_running  # no cluster started for it


def test_unknown_backend() -> None:
    with pytest.raises(ValueError, match="unknown backend"):
        dz.selfplay(1, backend="spark")
