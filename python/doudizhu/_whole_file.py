"""Files written whole or not at all.

The data goes to ``<path>.<process>.<thread>.partial`` first (the path's name cut where
that would pass the system's limit on a name) and is renamed over ``path`` once complete
(a rename within a folder is atomic), so a write that fails (a full disk, an interrupt, a
crash) leaves the old file as it was, or no file; and no ``.partial`` behind it, but where
the process is killed outright (SIGKILL, a power cut), which runs no clean-up.
The name is the writer's own, so that writers of one path at once do not share it: the
last rename wins, whole. An OSError of the write names ``path``, not the temporary name.

A symbolic link is written through: its target is the file replaced, and the link stays.
A path that is no regular file (a device such as ``/dev/null``, a FIFO) is written as it
is: a rename would put a regular file in its place, and it holds no old contents to keep.
"""

from __future__ import annotations

import contextlib
import os
import stat
import threading
from collections.abc import Iterator


def _target(path: str | os.PathLike[str]) -> tuple[str, int | None]:
    """The file ``path`` names (a link's target) and its mode (None: no such file yet);
    OSError naming ``path`` (a loop of links, a file where a folder should be)."""
    target = os.path.realpath(path)
    try:
        return target, os.stat(target).st_mode
    except FileNotFoundError:
        return target, None
    except OSError as error:
        raise _named(path, error) from error


def _named(path: str | os.PathLike[str], error: OSError, why: str = "") -> OSError:
    """``error`` (of the same kind) naming the path asked for, not the name that failed."""
    return OSError(error.errno, f"cannot write {os.fspath(path)!r}: {error.strerror or error}{why}")


_NAME_MAX = 255  # the bytes of a file's name, on Linux's file systems


def _partial(target: str) -> str:
    """The writer's own name beside ``target`` for the data until it is whole: a long name
    (one a suffix would take past the system's limit) is cut, its writer's suffix kept."""
    folder, name = os.path.split(target)
    suffix = f".{os.getpid()}.{threading.get_ident()}.partial"
    while len(os.fsencode(name + suffix)) > _NAME_MAX:
        name = name[:-1]
    return os.path.join(folder, name + suffix)


def check_writable(path: str | os.PathLike[str]) -> None:
    """OSError (naming ``path``) unless :func:`whole_file` can write ``path``: its folder (a
    link's target's) takes a new file, or ``path`` is no regular file and opens for writing.
    Asked before work whose result goes there, so that it is not lost to the last step."""
    target, mode = _target(path)
    try:
        if mode is not None and not stat.S_ISREG(mode):
            if not stat.S_ISFIFO(mode):  # opening a FIFO waits for a reader
                os.close(os.open(target, os.O_WRONLY))
            return
        probe = _partial(target)
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        os.remove(probe)
    except OSError as error:
        beside = "" if mode is None or not stat.S_ISREG(mode) else " (its folder takes no new file to write it whole)"
        raise _named(path, error, beside) from error


@contextlib.contextmanager
def whole_file(path: str | os.PathLike[str]) -> Iterator[str]:
    """The name to write; on leaving the block without an error it holds the data at ``path``."""
    target, mode = _target(path)
    whole = mode is None or stat.S_ISREG(mode)  # else a device or FIFO, written as it is
    name = _partial(target) if whole else target
    try:
        yield name
        if whole:
            os.replace(name, target)
    except OSError as error:  # named by the path asked for (a full disk's names none)
        raise _named(path, error) from error
    finally:
        if whole:
            with contextlib.suppress(OSError):  # the clean-up's own failure hides no error of the write
                os.remove(name)  # left only by a write that failed
