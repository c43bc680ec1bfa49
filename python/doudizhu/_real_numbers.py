"""The check of a setting that is a real number, one for the package (the environments'
rewards, the trainers' rates and shares): a number, finite, within its bounds."""

from __future__ import annotations

import math

from ._core import is_real
from ._shown import shown


def check_real(value: object, name: str, above: float | None = None, at_least: float | None = None,
               most: float = math.inf, or_none: bool = False) -> None:
    """TypeError unless ``value`` is a real number (_core.is_real), ValueError unless finite,
    above ``above`` (or at least ``at_least``) and at most ``most``. ``or_none``: the
    messages say that None is allowed too (the caller lets it through)."""
    alternative = " or None" if or_none else ""
    if not is_real(value):  # as the core reads numbers: no bool, enum, timedelta64 or Fraction
        raise TypeError(f"{name} must be a finite number{alternative}, not {type(value).__name__}")
    try:
        real = float(value)
    except OverflowError:  # an int past a float's range: no finite float
        real = math.inf
    low_ok = (above is None or real > above) and (at_least is None or real >= at_least)
    if not (math.isfinite(real) and low_ok and real <= most):
        bounds = _bounds(above, at_least, most)
        raise ValueError(f"{name} must be a finite number{bounds}{alternative}, not {shown(value)}")


def _bounds(above: float | None, at_least: float | None, most: float) -> str:
    """The bounds as the messages state them ("" when there are none)."""
    if above is not None:
        return f" above {above:g}"
    if at_least is None:
        return ""
    return f" at least {at_least:g}" if math.isinf(most) else f" in {at_least:g}..{most:g}"

