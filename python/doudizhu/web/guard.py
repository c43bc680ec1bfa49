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
import re
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

#: The names of this machine that a loopback bind answers to.
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
_SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host.lower() == "localhost"


def allowed_hosts(bound: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The Host names a server bound to ``bound`` answers to: that name, the localhost
    names when it is a loopback address, and ``extra`` (a proxy's public names)."""
    names = {bound, *extra}
    if _is_loopback(bound):
        names.update(LOOPBACK_NAMES)
    return frozenset(_name_of(name) for name in names)


# A Host header: a name or a bracketed IPv6 address, then perhaps a port.
_HOST = re.compile(r"(\[[0-9a-f:.]+\]|[^\[\]:/@\s]+)(?::([0-9]{1,5}))?")


def _hostname(netloc: str) -> str | None:
    """The host of a Host header, ``name[:port]`` (``[v6]:port`` for an IPv6 address), lower
    case and without its one trailing dot; None for anything else (text after the bracket,
    a port that is no port, dots doubled at the end), which names no host of this server."""
    match = _HOST.fullmatch(netloc.strip().lower())
    if match is None or (match.group(2) is not None and not 0 < int(match.group(2)) < 65536):
        return None
    host = match.group(1)
    if host.startswith("["):
        return host[1:-1]
    return None if host.endswith("..") else host.removesuffix(".")


def _name_of(name: str) -> str:
    """A name the server was told to answer to, as _hostname gives it (a bare IPv6 address
    as it is)."""
    if name.count(":") > 1 and "[" not in name:
        return name.strip().lower()
    return _hostname(name) or name.lower()


class Guard:
    """Answers a request whose Host or Origin is not this server's with a JSON error, and
    passes every other one to ``app``."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str], headers: Mapping[str, str]) -> None:
        self.app = app
        self.hosts = frozenset(_name_of(host) for host in hosts)
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
        if _hostname(host) not in self.hosts:
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


__all__ = ["LOOPBACK_NAMES", "Guard", "allowed_hosts"]
