"""Ray, joined or started on demand by the calls that run on a cluster (``selfplay``'s
``backend="ray"``, the trainer's actors; the ``[ray]`` extra).

An address is ``local`` (a Ray started on this machine), ``auto`` (the cluster this
machine belongs to), ``host:port`` or ``ray://host:port``. It is checked before
``ray.init``, which retries an address where nothing answers for minutes with warnings as
the only sign; and ``ray.init`` installs its own SIGTERM and SIGINT handlers, which are put
back afterwards (SIGTERM then aborted a trainer before it saved its checkpoint)."""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
from collections.abc import Iterator
from typing import Any

from ._extras import installed, missing_extra

_CONNECT_SECONDS = 10.0


def ray_head(address: object, what: str) -> tuple[str, int] | None:
    """The host and port of a Ray address (None for ``local`` and ``auto``, which name no
    host); TypeError for what is no str, ValueError for any other str, naming ``what``,
    found before a run starts."""
    if not isinstance(address, str):
        raise TypeError(f"{what} must be a str ('local', 'auto', host:port or ray://host:port), "
                        f"not {type(address).__name__}")
    refused = ValueError(f"{what} must be 'local', 'auto', host:port or ray://host:port, not {address!r}")
    if address in ("local", "auto"):
        return None
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    host = host.removeprefix("[").removesuffix("]")  # an IPv6 address in brackets
    if not colon or not host or host.strip() != host or not port.isdigit() or not 0 < int(port) < 65536:
        raise refused
    return host, int(port)


def check_installed(needed_by: str) -> None:
    """MissingExtra naming the ``[ray]`` extra when Ray is not installed: told before a run
    makes anything (its folder), without the seconds that importing Ray takes."""
    if not installed("ray"):
        raise missing_extra(needed_by, "Ray", "ray")


def joined(address: str, what: str, needed_by: str) -> tuple[Any, bool]:
    """The ``ray`` module, connected to ``address``'s cluster, and whether this call
    started or joined it (its caller then shuts it down). A Ray already running in the
    process is used for ``local`` and ``auto``, and for a host:port that is its own;
    another host:port is refused (ValueError) rather than ignored."""
    head = ray_head(address, what)
    try:
        import ray
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise missing_extra(needed_by, "Ray", "ray") from error
    if ray.is_initialized():
        running = ray.get_runtime_context().gcs_address
        if head is not None and address.removeprefix("ray://") != running:
            raise ValueError(f"{what} {address}: this process is already connected to Ray at {running}")
        return ray, False
    if head is not None:
        _check_answers(head, address, what)
    with _signal_handlers_kept():
        ray.init(address=None if address == "local" else address, include_dashboard=False, log_to_driver=False)
    return ray, True


def _check_answers(head: tuple[str, int], address: str, what: str) -> None:
    """ConnectionError unless something listens at the address's host and port."""
    try:
        with socket.create_connection(head, timeout=_CONNECT_SECONDS):
            pass
    except OSError as error:
        raise ConnectionError(f"{what} {address}: no Ray head answers there ({error})") from error


@contextlib.contextmanager
def _signal_handlers_kept() -> Iterator[None]:
    """Puts back SIGTERM's and SIGINT's handlers after what it runs."""
    if threading.current_thread() is not threading.main_thread():  # handlers are the main thread's
        yield
        return
    kept = {number: signal.getsignal(number) for number in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for number, handler in kept.items():
            if handler is not None:  # None: set outside Python, nothing to put back
                signal.signal(number, handler)


__all__ = ["check_installed", "joined", "ray_head"]
