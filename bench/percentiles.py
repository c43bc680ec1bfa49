"""The one percentile the benchmarks report: the nearest rank."""
from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T", int, float)


def percentile(values: Iterable[T], q: float) -> T:
    """The smallest value that at least a fraction ``q`` of ``values`` does not exceed
    (the nearest-rank percentile: for 100 values and q = 0.95, the 95th smallest)."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("a percentile of no values")
    # round() first: 0.07 * 100 is 7.000000000000001, whose ceiling would skip a rank.
    return ordered[max(0, math.ceil(round(q * len(ordered), 9)) - 1)]
