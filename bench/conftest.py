"""Benchmarks only run on request: `pytest bench --benchmark-only` (or DDZ_BENCH=1).

In any other run (e.g. a plain `pytest` that happens to collect bench/) every
benchmark test under this directory is skipped, so the normal test run stays fast.
"""
import os
import pathlib

import pytest
import tests_path  # noqa: F401  (tests/ on sys.path: the benchmarks import tests/peers.py)

HERE = pathlib.Path(__file__).resolve().parent


def _wanted(config) -> bool:
    if os.environ.get("DDZ_BENCH"):
        return True
    try:
        return bool(config.getoption("benchmark_only")) or bool(config.getoption("benchmark_enable"))
    except ValueError:  # pytest-benchmark not installed
        return False


def pytest_collection_modifyitems(config, items):
    if _wanted(config):
        return
    skip = pytest.mark.skip(reason="benchmark: run with `pytest bench --benchmark-only`")
    for item in items:
        if HERE in pathlib.Path(str(item.fspath)).resolve().parents:
            item.add_marker(skip)
