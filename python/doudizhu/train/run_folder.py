"""A run's folder, where a trainer writes its checkpoints, logs and networks."""

from __future__ import annotations

import os


def run_folder(out: str | os.PathLike[str]) -> str:
    """``out`` as a path, the folder made if missing; NotADirectoryError naming it when a
    file is in the way (makedirs' own error said only that the file exists)."""
    folder = os.fspath(out)
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise NotADirectoryError(f"{folder} is a file: a run's output is a folder")
    os.makedirs(folder, exist_ok=True)
    return folder


__all__ = ["run_folder"]
