"""Checks of a trainer's settings, made when its config is: a bad one found later, at the
final evaluation or by torch, had cost the training (or the process)."""

from __future__ import annotations

import math
import numbers

from .._core import checked_int


def check_counts(config: object, most: dict[str, int], least: int = 1) -> None:
    """Each named field an int in ``least``..its most (None allowed where the field is)."""
    for name, high in most.items():
        value = getattr(config, name)
        if value is not None:
            checked_int(value, name, least, high)


def check_real(value: object, name: str, above: float | None = None, at_least: float | None = None,
               most: float = math.inf) -> None:
    """TypeError unless ``value`` is a real number (not a bool), ValueError unless finite,
    above ``above`` (or at least ``at_least``) and at most ``most``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}")
    real = float(value)
    low_ok = (above is None or real > above) and (at_least is None or real >= at_least)
    if not (math.isfinite(real) and low_ok and real <= most):
        bound = (f"above {above:g}" if above is not None else f"at least {at_least:g}" if math.isinf(most)
                 else f"in {at_least:g}..{most:g}")
        raise ValueError(f"{name} must be a finite number {bound}, not {value!r}")


def check_positive(config: object, names: tuple[str, ...]) -> None:
    """Each named field a finite number above 0 (None allowed where the field is)."""
    for name in names:
        value = getattr(config, name)
        if value is not None:
            check_real(value, name, above=0.0)


def check_shares(config: object, names: tuple[str, ...]) -> None:
    """Each named field a finite number in 0..1."""
    for name in names:
        check_real(getattr(config, name), name, at_least=0.0, most=1.0)


__all__ = ["check_counts", "check_positive", "check_real", "check_shares"]
