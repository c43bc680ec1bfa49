"""What every request must show before the app reads it (an ASGI middleware).

- **Host**: one of the names the server answers to, so that a page on another site
  cannot reach a local server through a name of its own that it points at this machine
  (DNS rebinding). By default the name the server was bound to, and the localhost names
  for a loopback bind; behind a proxy, the names the proxy forwards (``allowed_hosts``).
- **Origin**: a request that changes state (any method but GET, HEAD and OPTIONS) sent
  by a browser names the page that sent it; it must be this server's own, so another
  site's page cannot start, play or replace the user's games. A client that sends no
  Origin (no browser sends such a request without one) is not a page.

Each refusal is a JSON error with 400 (no Host, or not one of these names) or 403 (a
foreign Origin), as every answer of the API is.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from .._host_names import answered_name, host_of

#: The names of this machine that a loopback bind answers to.
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
_SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host.lower() == "localhost"


def allowed_hosts(host: str, hosts: Iterable[str] = ()) -> frozenset[str]:
    """The Host names a server bound to ``host`` answers to: that name, the localhost names
    when it is a loopback address, and ``hosts`` (a proxy's public names), each as a Host
    header gives it (TypeError for a host that is no str, ValueError for a name that no
    Host header gives). Its arguments are :func:`doudizhu.web.serve`'s, named as there."""
    if not isinstance(host, str):
        raise TypeError(f"host must be a host name (str), not {type(host).__name__}")
    names = answered_names([host], "host") | answered_names(hosts, "hosts")
    return (names | answered_names(LOOPBACK_NAMES, "")) if _is_loopback(host) else names


def answered_names(names: Iterable[str], what: str) -> frozenset[str]:
    """``names`` as a Host header gives them (:func:`answered_name`); TypeError naming
    ``what`` for a str or bytes (whose letters would be read as names) or an item that is
    no str, ValueError for a name no browser's Host header gives."""
    if isinstance(names, str):
        raise TypeError(f"{what} must be a list of host names, not a str (give [{names[:60]!r}])")
    if isinstance(names, (bytes, bytearray)):
        raise TypeError(f"{what} must be a list of host names (str), not {type(names).__name__}")
    try:
        items = iter(names)
    except TypeError:
        raise TypeError(f"{what} must be a list of host names, not {type(names).__name__}") from None
    given = list(items)
    wrong = [type(name).__name__ for name in given if not isinstance(name, str)]
    if wrong:
        raise TypeError(f"{what} must hold host names (str), not {wrong[0]}")
    return frozenset(answered_name(name) for name in given)


class Guard:
    """Answers a request whose Host or Origin is not this server's with a JSON error, and
    passes every other one to ``app``."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str], headers: Mapping[str, str]) -> None:
        self.app = app
        self.hosts = answered_names(hosts, "hosts")
        self.headers = dict(headers)  # the app's own answers' headers, on a refusal too

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refusal = self._refusal(scope) if scope["type"] == "http" else None
        if refusal is None:
            await self.app(scope, receive, send)
            return
        status, message = refusal
        await JSONResponse({"error": message}, status_code=status, headers=self.headers)(scope, receive, send)

    def _refusal(self, scope: Scope) -> tuple[int, str] | None:
        headers = {name.decode("latin-1"): value.decode("latin-1") for name, value in scope["headers"]}
        if sum(name == b"origin" for name, _ in scope["headers"]) > 1:  # the last would be the one checked
            return 400, "the request names more than one Origin"
        host = headers.get("host")
        if not host:
            return 400, "the request names no host (a Host header)"
        if host_of(host) not in self.hosts:
            return 400, f"this server does not answer to the host {host[:80]!r} (serve --allowed-host names more)"
        origin = headers.get("origin")
        if scope["method"] in _SAFE_METHODS or origin is None:
            return None
        if _netloc(origin) != host.lower():
            return 403, f"a page of another site ({origin[:80]!r}) may not change this server's games"
        return None


def _netloc(origin: str) -> str | None:
    """The host and port an Origin names, in lower case; None for one that is no URL (an
    unclosed IPv6 bracket), which matches no host."""
    try:
        return urlsplit(origin).netloc.lower()
    except ValueError:
        return None


__all__ = ["LOOPBACK_NAMES", "Guard", "allowed_hosts", "answered_names"]
