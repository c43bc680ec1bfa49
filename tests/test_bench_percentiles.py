"""The benchmarks' one percentile (bench/percentiles.py) is the nearest rank: the smallest
value that at least the given fraction of the values does not exceed."""
from __future__ import annotations

import pathlib
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "bench"))

from percentiles import percentile


@given(st.lists(st.integers(-50, 50), min_size=1, max_size=200), st.integers(1, 100))
def test_the_smallest_value_covering_the_fraction(values: list[int], percent: int) -> None:
    q = percent / 100
    got = percentile(values, q)
    covering = [v for v in values if 100 * sum(x <= v for x in values) >= percent * len(values)]
    assert got == min(covering)


def test_the_95th_of_100_is_the_95th_smallest() -> None:
    assert percentile(range(100, 0, -1), 0.95) == 95
    assert percentile(range(1, 101), 0.07) == 7  # 0.07 * 100 is not exactly 7 in floating point
    assert percentile([3.0], 0.5) == 3.0


def test_no_values_are_refused() -> None:
    with pytest.raises(ValueError, match="no values"):
        percentile([], 0.9)
