"""Host names as a request's Host header gives them, and as a server is told to answer to.

A browser sends a Host header in lower case, a non-ASCII name in its IDNA (punycode) form
and an IPv4 address written in full, so a name the server is told to answer to
(``serve --host``, ``--allowed-host``) is read into that form, or refused where no Host
header could carry it: a match by any other form would never come.
"""

from __future__ import annotations

import ipaddress
import re
import socket

# A Host header: a name or a bracketed IPv6 address, then perhaps a port.
_HOST = re.compile(r"(\[[0-9a-f:.]+\]|[^\[\]:/@\s]+)(?::([0-9]{1,5}))?")
# What inet_aton reads as an IPv4 address, in any of its shorthands (127.1, 0x7f.1, 2130706433).
_NUMERIC = re.compile(r"[0-9a-fx.]+", re.IGNORECASE)
# A name as a browser sends it: its labels' letters, digits and hyphens (and underscores,
# which some hosts' names hold), a non-ASCII name in its IDNA form.
_NAME = re.compile(r"[a-z0-9_.-]+")
_SUCH = ", such as games.example.org"


def host_of(netloc: str) -> str | None:
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


def _full_ipv4(text: str) -> str | None:
    """The address written in full when ``text`` is an IPv4 address in a shorthand (what a
    socket binds and a browser asks for: 127.1 is 127.0.0.1, 010 is 8), else None."""
    if not _NUMERIC.fullmatch(text):
        return None
    try:
        full = socket.inet_ntoa(socket.inet_aton(text))
    except OSError:  # no address in any form
        return None
    return None if full == text else full


def answered_name(name: str) -> str:
    """A name the server is told to answer to, as :func:`host_of` gives a Host header's (a
    bare IPv6 address as it is, a port dropped, IDNA for a non-ASCII name); ValueError for
    one that no Host header names that way."""
    text = name.strip()
    if text.count(":") > 1 and "[" not in text:  # a bare IPv6 address
        try:
            ipaddress.IPv6Address(text)
        except ValueError:
            raise ValueError(f"{name!r} is no IPv6 address") from None
        return text.lower()  # as written: a Host header's is compared as written too
    host = host_of(text)
    if host is None:
        raise ValueError(f"{name!r} is no host name a request gives (a name alone{_SUCH}, perhaps with a port)")
    full = _full_ipv4(host)
    if full is not None:
        raise ValueError(f"{name!r}: write the address in full, {full}")
    try:
        ascii_name = host.encode("idna").decode("ascii")
    except UnicodeError:
        ascii_name = ""
    if not _NAME.fullmatch(ascii_name):
        raise ValueError(f"{name!r} is no host name a request gives (letters, digits, '-' and '.'{_SUCH})")
    return ascii_name


__all__ = ["answered_name", "host_of"]
