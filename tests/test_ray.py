"""Self-play on a Ray cluster (a local one with 2 CPUs) gives the local run's games."""

from __future__ import annotations

import re

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
    with pytest.raises(TypeError, match="backend must be a str, not int"):  # was "unknown backend 1"
        dz.selfplay(1, backend=1)  # type: ignore[arg-type]


def test_arguments_ray_cannot_use_are_refused_before_a_cluster_starts() -> None:
    # A lock in the policy failed after Ray had started (4 s), leaving it running; an
    # address where nothing answers hung in ray.init for minutes; an int address failed
    # inside Ray; threads and an address meant nothing where they were given.
    import threading

    class Locked:
        def __init__(self) -> None:
            self.lock = threading.Lock()

        def act(self, game: dz.Game) -> dz.Action:
            return game.legal_actions()[0]

    if ray.is_initialized():
        ray.shutdown()
    refused = [
        ({"policy": Locked()}, TypeError, "policy: Ray cannot send it to its workers"),
        ({"address": "127.0.0.1:1"}, ConnectionError, "address 127.0.0.1:1: no Ray head answers there"),
        ({"address": 12345}, TypeError, r"address must be a str \('local', 'auto', host:port or ray://.*\), not int"),
        ({"threads": 2}, ValueError, "threads: a Ray run's tasks play on one CPU each"),
    ]
    for kwargs, error, says in refused:
        with pytest.raises(error, match=says):
            dz.selfplay(4, backend="ray", **kwargs)  # type: ignore[arg-type]
        assert not ray.is_initialized()
    with pytest.raises(ValueError, match=r"address '127\.0\.0\.1:6379' is a Ray cluster's: give it with backend='ray'"):
        dz.selfplay(4, address="127.0.0.1:6379")


def test_a_ray_the_call_started_is_shut_down_and_another_address_is_not_ignored() -> None:
    # The Ray a call started stayed up, and later calls' addresses were ignored for it.
    if ray.is_initialized():
        ray.shutdown()
    local = dz.selfplay(40, policy="random", seed=3)
    spread = dz.selfplay(40, policy="random", seed=3, backend="ray")
    assert np.array_equal(local.payouts, spread.payouts)
    assert not ray.is_initialized()
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        running = ray.get_runtime_context().gcs_address
        already = f"address 127.0.0.1:1: this process is already connected to Ray at {running}"
        with pytest.raises(ValueError, match=re.escape(already)):
            dz.selfplay(4, backend="ray", address="127.0.0.1:1")
        assert len(dz.selfplay(4, backend="ray", address=running)) == 4  # its own address, and "auto": the one running
        assert len(dz.selfplay(4, backend="ray", address="auto")) == 4
        assert ray.is_initialized()  # not the call's to shut down
    finally:
        ray.shutdown()
