"""Files written whole or not at all.

The data goes to ``<path>.<process>.<thread>.partial`` first and is renamed over ``path``
once complete (a rename within a folder is atomic), so a write that fails (a full disk, an
interrupt, a crash) leaves the old file as it was, or no file, and no ``.partial`` behind
it. The name is the writer's own, so that writers of one path at once do not share it: the
last rename wins, whole.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator


@contextlib.contextmanager
def whole_file(path: str | os.PathLike[str]) -> Iterator[str]:
    """The temporary name to write; on leaving the block without an error it becomes ``path``."""
    partial = f"{os.fspath(path)}.{os.getpid()}.{threading.get_ident()}.partial"
    try:
        yield partial
        os.replace(partial, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.remove(partial)  # left only by a write that failed
