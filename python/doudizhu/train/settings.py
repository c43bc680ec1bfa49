"""Checks of a trainer's settings, made when its config is: a bad one found later, at the
final evaluation or by torch, had cost the training (or the process)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .._core import checked_int
from .._real_numbers import check_real


def check_fields(config: Any) -> None:
    """Each field of the dataclass ``config`` of its default's kind (TypeError naming it): None
    only where the field's annotation allows it, a bool where it is one, text for text, a tuple of the
    default's items' kind for a tuple, a config for a config (found before a run rather than
    where the training first reads the setting, or never: ``plan="yes"`` was true). NumPy
    scalars, alone or in a tuple, are taken as the Python values they hold: kept as they
    were, a checkpoint or a recipe.json of them could not be read back after the training."""
    for field in dataclasses.fields(config):
        value = _plain(getattr(config, field.name))
        object.__setattr__(config, field.name, value)  # frozen configs too: this is their making
        default: Any = field.default
        if default is dataclasses.MISSING and field.default_factory is not dataclasses.MISSING:
            default = field.default_factory()  # type: ignore[operator]  # checked: not MISSING
        if value is None:
            if "None" in str(field.type):  # the annotation allows it (minutes: no limit)
                continue
            raise TypeError(f"{field.name} must be given, not None")
        kind = type(default)
        if kind not in (bool, str, tuple) and not dataclasses.is_dataclass(default):
            continue  # numbers: their ranges are checked field by field
        if type(value) is not kind or (kind is tuple and default and
                                       not all(type(item) is type(default[0]) for item in value)):
            raise TypeError(f"{field.name} must be {_kind_name(default)}, not {value!r}")


def _plain(value: Any) -> Any:
    """``value`` with NumPy scalars (alone or in a tuple) as the Python values they hold."""
    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value)
    if isinstance(value, np.floating):  # item() keeps a longdouble one a NumPy scalar
        return float(value)
    return value.item() if isinstance(value, np.generic) else value


def _kind_name(default: object) -> str:
    if isinstance(default, tuple):
        return f"a tuple of {type(default[0]).__name__}" if default else "a tuple"
    return type(default).__name__


def check_names(value: tuple[str, ...], name: str, known: tuple[str, ...]) -> None:
    """Each of ``value`` one of ``known`` (ValueError naming the field)."""
    for item in value:
        if item not in known:
            raise ValueError(f"{name}: {item!r} is not one of {', '.join(known)}")


def check_type(value: object, name: str, kind: type) -> None:
    """TypeError unless ``value`` (the argument ``name``) is a ``kind``."""
    if not isinstance(value, kind):
        raise TypeError(f"{name} must be a {kind.__name__}, not {type(value).__name__}")


def check_counts(config: object, most: dict[str, int], least: int = 1) -> None:
    """Each named field an int in ``least``..its most (None allowed where the field is)."""
    for name, high in most.items():
        value = getattr(config, name)
        if value is not None:
            checked_int(value, name, least, high)


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


__all__ = ["check_counts", "check_fields", "check_names", "check_positive", "check_shares",
           "check_type"]
