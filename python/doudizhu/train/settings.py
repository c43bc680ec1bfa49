"""Checks of a trainer's settings, made when its config is: a bad one found later, at the
final evaluation or by torch, had cost the training (or the process)."""

from __future__ import annotations

from .._core import checked_int
from .._real_numbers import check_real


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


def ray_head(address: object) -> tuple[str, int] | None:
    """The host and port of a Ray address (``host:port`` or ``ray://host:port``; None for
    ``local`` and ``auto``, which name no host); ValueError for anything else, found before a
    run starts rather than by ``ray.init`` retrying it."""
    refused = ValueError(f"ray_address must be 'local', 'auto', host:port or ray://host:port, not {address!r}")
    if not isinstance(address, str):
        raise refused
    if address in ("local", "auto"):
        return None
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    host = host.removeprefix("[").removesuffix("]")  # an IPv6 address in brackets
    if not colon or not host or host.strip() != host or not port.isdigit() or not 0 < int(port) < 65536:
        raise refused
    return host, int(port)


__all__ = ["check_counts", "check_positive", "check_shares", "ray_head"]
