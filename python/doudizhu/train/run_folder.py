"""A run's folder, where a trainer writes its checkpoints, logs and networks."""

from __future__ import annotations

import contextlib
import errno
import os
import threading
from collections.abc import Iterable, Iterator

from .._whole_file import check_writable

try:
    import fcntl
except ImportError:  # Windows: no advisory locks, one trainer a folder is the user's to keep
    fcntl = None  # type: ignore[assignment]

LOCK_FILE = ".lock"
# The folders this process writes: the thread that holds each, and how many of its trainers
# (the recipe's stages nest); flock cannot tell two threads of one process apart.
_held: dict[str, tuple[int, int]] = {}
_holding = threading.Lock()


def holds_run(out: str | os.PathLike[str], files: Iterable[str]) -> bool:
    """Whether the folder ``out`` holds any of a run's ``files``. A run stopped before its
    first save left none (its lock aside): resumed, it starts afresh, as the guide says the
    command that started a run, given --resume, finishes it."""
    return any(os.path.exists(os.path.join(out, name)) for name in files)


def run_folder(out: str | os.PathLike[str], files: Iterable[str] = (), resume: bool = False,
               foreign: Iterable[str] = ()) -> str:
    """``out`` as a path, the folder made if missing. Refused before any training:
    NotADirectoryError when a file is in the folder's way (makedirs' own error said only
    that the file exists); IsADirectoryError when one of the run's ``files`` is a folder
    (found only once the training it would hold was done), OSError when one is no regular
    file (a FIFO was waited on without end); FileExistsError when the folder holds a run of
    the other trainer (its ``foreign`` files), and for a fresh run (``resume`` false) when
    it holds any of the run's own, rather than mix two runs' files; FileNotFoundError for
    a resume (``resume`` true) without the folder, TypeError for a ``resume`` that is no
    bool or an ``out`` that is no path of text (bytes made the folder, then failed)."""
    folder = os.fspath(out) if isinstance(out, (str, os.PathLike)) else out
    if not isinstance(folder, str):
        raise TypeError(f"out must be a str or os.PathLike of a folder, not {type(folder).__name__}")
    if type(resume) is not bool:  # "no" is true
        raise TypeError(f"resume must be True or False, not {resume!r}")
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise NotADirectoryError(f"{folder} is a file: a run's output is a folder")
    if resume and not os.path.isdir(folder):  # made and then refused, it was left behind
        raise FileNotFoundError(f"{folder}: no run to resume (no such folder)")
    os.makedirs(folder, exist_ok=True)
    paths = {name: os.path.join(folder, name) for name in files}
    in_the_way = [path for path in paths.values() if os.path.isdir(path)]
    if in_the_way:
        raise IsADirectoryError(f"{in_the_way[0]} is a folder, where the run writes a file")
    odd = [path for path in paths.values() if os.path.exists(path) and not os.path.isfile(path)]
    if odd:
        raise OSError(errno.EINVAL, "no regular file, where the run reads and writes one", odd[0])
    others = [name for name in foreign if os.path.exists(os.path.join(folder, name))]
    if others:
        raise FileExistsError(f"{folder} holds another trainer's run ({', '.join(others)}): train into another folder")
    if paths:  # a folder that takes no new file failed at the first save, after training
        check_writable(next(iter(paths.values())))
    found = [name for name, path in paths.items() if os.path.exists(path)]
    if found and not resume:
        raise FileExistsError(f"{folder} holds a run ({', '.join(found)}): resume it, or train into another folder")
    return folder


@contextlib.contextmanager
def writing(folder: str) -> Iterator[None]:
    """Holds ``folder`` for one writer for the block: a trainer of another process, or of
    another thread of this one, on the same folder is refused (BlockingIOError) rather than
    interleave two runs' log rows and save over the other's checkpoint. A thread's own
    trainers nest (the recipe's stages)."""
    key, thread = os.path.realpath(folder), threading.get_ident()
    with _holding:
        owner, count = _held.get(key, (thread, 0))
        if owner != thread:
            raise _busy(folder)
        _held[key] = (thread, count + 1)
    fd = None
    try:
        if count == 0 and fcntl is not None:
            fd = os.open(os.path.join(folder, LOCK_FILE), os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise _busy(folder) from None
        yield
    finally:
        if fd is not None:
            os.close(fd)  # closing releases the lock
        with _holding:
            if count:
                _held[key] = (thread, count)
            else:
                del _held[key]


def _busy(folder: str) -> BlockingIOError:
    return BlockingIOError(errno.EAGAIN, "another trainer is writing this run folder", folder)


__all__ = ["LOCK_FILE", "holds_run", "run_folder", "writing"]
