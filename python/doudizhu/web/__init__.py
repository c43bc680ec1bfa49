"""The local web app (``doudizhu serve``, the ``[web]`` extra): play a hand against the bots
in the browser, watch the bots play one, and step through records and saved selfplay games.

The page is plain HTML, CSS and JavaScript shipped in this package (``static/``): no build
step, nothing fetched from the internet. The server (Starlette on uvicorn) keeps each
browser's games in memory and leaves every rule to the engine; its JSON API is described
in :mod:`doudizhu.web.app`.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterable

from .._extras import missing_extra

try:
    import starlette  # noqa: F401 (imported to report a missing extra here, once)
    import uvicorn
except ImportError as error:  # pragma: no cover - depends on the environment
    raise missing_extra("doudizhu.web (doudizhu serve)", "Starlette and uvicorn", "web") from error

from .app import create_app
from .guard import allowed_hosts
from .players import MODELS_VARIABLE, douzero_missing


def served_url(host: str, port: int) -> str:
    """The page's address for a server bound to ``host`` and ``port``: an IPv6 address is
    bracketed, as a URL must write it."""
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve(host: str = "127.0.0.1", port: int = 8000, hosts: Iterable[str] = ()) -> None:
    """Runs the app until interrupted (bound to this machine alone by default), answering
    requests for the name it is bound to (with the localhost names for a loopback address)
    and ``hosts``, the names a proxy in front of it forwards. The port is bound before
    anything is printed: a port in use raises OSError, never after "serving on"."""
    names = allowed_hosts(host, hosts)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.create_server((host, port), family=family) as listening:
        port = listening.getsockname()[1]  # the one bound: port 0 asks for any free one
        print(f"doudizhu: serving on {served_url(host, port)} for {', '.join(sorted(names))} (Ctrl-C stops)",
              flush=True)
        if MODELS_VARIABLE in os.environ and (why := douzero_missing()):
            print(f"doudizhu: no douzero bot: {why}", flush=True)
        server = uvicorn.Server(uvicorn.Config(create_app(hosts=names), log_level="warning"))
        server.run(sockets=[listening])


__all__ = ["allowed_hosts", "create_app", "serve", "served_url"]
