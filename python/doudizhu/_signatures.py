"""Whether a function given as an argument (a policy, a progress report) can be called as
it will be: a function of another signature failed only when first called, with Python's
bare count of arguments, after the work before that call."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any


def refusing_signature(function: Callable[..., Any], arguments: tuple[Any, ...]) -> inspect.Signature | None:
    """The signature of ``function`` when it cannot take ``arguments``; None when it can, or
    when it has no signature to read (some built-ins: their calls will tell)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    try:
        signature.bind(*arguments)
    except TypeError:
        return signature
    return None


def check_callable(function: object, arguments: tuple[Any, ...], name: str) -> None:
    """TypeError unless ``function`` (the argument ``name``) can be called with
    ``arguments``: found before a run, not at its first call, after the work so far."""
    if not callable(function):
        raise TypeError(f"{name} must be a function, not {type(function).__name__}")
    if refusing_signature(function, arguments) is not None:
        raise TypeError(f"{name} is called with {len(arguments)} arguments, and {function!r} cannot take them")


__all__ = ["check_callable", "refusing_signature"]
