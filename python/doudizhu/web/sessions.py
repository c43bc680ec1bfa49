"""Per-browser-session state: a random cookie token naming what that browser is doing.

Everything lives in memory, nothing on disk. The store is bounded: past ``capacity``
sessions the least recently used one is forgotten, so a client that throws cookies away
cannot grow the server without limit. Each session holds at most one game being played
and one game being replayed. A token is only ever made here (``secrets``): a cookie the
server did not issue names no session, and is never adopted as one.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .against_bots import HandAgainstBots
    from .replays import Replay

COOKIE = "ddz_session"
_TOKEN_BYTES = 32


@dataclass
class Session:
    """What one browser is doing. ``lock`` serialises its requests: a Game is not meant
    to be stepped from two threads at once, and requests run on a thread pool."""

    token: str
    table: HandAgainstBots | None = None  # the hand being played
    replay: Replay | None = None
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


class SessionStore:
    """The sessions, least recently used first; at most ``capacity`` of them."""

    def __init__(self, capacity: int = 256) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, token: str | None) -> Session | None:
        """The session the token names (and marks it recently used), or None."""
        if not token:
            return None
        with self._lock:
            session = self._sessions.get(token)
            if session is not None:
                self._sessions.move_to_end(token)
            return session

    @staticmethod
    def create() -> Session:
        """A new session with a fresh token, not kept yet: a request that is refused keeps none."""
        return Session(secrets.token_urlsafe(_TOKEN_BYTES))

    def keep(self, session: Session) -> None:
        """Keeps ``session`` as the most recently used, evicting the least recently used past capacity."""
        with self._lock:
            self._sessions[session.token] = session
            self._sessions.move_to_end(session.token)
            while len(self._sessions) > self.capacity:
                self._sessions.popitem(last=False)

    def __len__(self) -> int:
        return len(self._sessions)


__all__ = ["COOKIE", "Session", "SessionStore"]
