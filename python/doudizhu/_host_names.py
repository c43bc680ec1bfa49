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
# A label a browser reads as a number, so that a name ending in one is read as an IPv4 address.
_NUMBER = re.compile(r"[0-9]+|0x[0-9a-f]*", re.IGNORECASE)
# A name as a browser sends it: its labels' letters, digits and hyphens (and underscores,
# which some hosts' names hold), a non-ASCII name in its IDNA form.
_NAME = re.compile(r"[a-z0-9_.-]+")
_SUCH = ", such as games.example.org"
# The characters IDNA 2003 and browsers (UTS 46, non-transitional) read differently.
_DEVIATIONS = "\u00df\u03c2\u200c\u200d"


def host_of(netloc: str) -> str | None:
    """The host of a Host header, ``name[:port]`` (``[v6]:port`` for an IPv6 address), lower
    case and without its one trailing dot, an IPv6 address shortened as a browser writes it;
    None for anything else (text after the bracket, a port that is no port, dots doubled at
    the end), which names no host of this server."""
    match = _HOST.fullmatch(netloc.strip().lower())
    if match is None or (match.group(2) is not None and not 0 < int(match.group(2)) < 65536):
        return None
    host = match.group(1)
    if host.startswith("["):
        return _ipv6(host[1:-1])
    return None if host.endswith("..") else host.removesuffix(".")


def _ipv6(text: str) -> str | None:
    """An IPv6 address shortened (``0:0::1`` is ``::1``), or None for none."""
    try:
        return str(ipaddress.IPv6Address(text))
    except ValueError:
        return None


def _ipv4_error(name: str, host: str) -> str:
    """Why ``host``, a name a browser reads as an IPv4 address (its last label a number),
    is none the server can answer to: no address at all (256.1.1.1), or one in a shorthand
    (127.1 is 127.0.0.1, 010 is 8: the socket binds, and a browser asks for, the full form);
    '' for an address written in full or a name that is none."""
    if not _NUMBER.fullmatch(host.rsplit(".", 1)[-1]):
        return ""
    try:
        full = socket.inet_ntoa(socket.inet_aton(host))
    except OSError:
        return f"{name!r} is no IPv4 address (a browser reads a name ending in a number as one)"
    return "" if full == host else f"{name!r}: write the address in full, {full}"


def answered_name(name: str) -> str:
    """A name the server is told to answer to, as :func:`host_of` gives a Host header's (a
    port dropped, an IPv6 address shortened, IDNA for a non-ASCII name); ValueError for one
    that no browser's Host header gives. Read as a browser reads it: its IDNA form first
    (full-width digits are digits, an ideographic full stop a dot), then what that names."""
    text = name.strip()
    bare_ipv6 = text.count(":") > 1 and "[" not in text
    host = _ipv6(text) if bare_ipv6 else host_of(text)
    if host is None or "%" in text:  # a zone (fe80::1%eth0) no URL holds
        raise ValueError(f"{name!r} is no host name a request gives (a name alone{_SUCH}, perhaps with a port)")
    if ":" in host:
        return host
    host = _ascii_name(name, host).removesuffix(".")
    if why := _ipv4_error(name, host):
        raise ValueError(why)
    return host


def _ascii_name(name: str, host: str) -> str:
    """``host`` as a browser sends it: its IDNA form if it is not ASCII; ValueError naming
    ``name`` otherwise. Python's codec follows IDNA 2003, which maps the four characters
    browsers keep (UTS 46 without transition: ß, ς and the zero-width joiners) to others,
    so a name holding one is refused rather than answered under a name no browser sends."""
    if not host.isascii():
        if any(c in _DEVIATIONS for c in host):
            raise ValueError(f"{name!r}: give its IDNA form (xn--...), as a browser sends it")
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            host = ""
    if not _NAME.fullmatch(host) or ".." in host:
        raise ValueError(f"{name!r} is no host name a request gives (letters, digits, '-' and '.'{_SUCH})")
    return host


__all__ = ["answered_name", "host_of"]
