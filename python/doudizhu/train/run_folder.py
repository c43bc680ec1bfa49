"""A run's folder, where a trainer writes its checkpoints, logs and networks."""

from __future__ import annotations

import os
from collections.abc import Iterable


def run_folder(out: str | os.PathLike[str], files: Iterable[str] = (), resume: bool = True) -> str:
    """``out`` as a path, the folder made if missing. Refused before any training:
    NotADirectoryError when a file is in the folder's way (makedirs' own error said only
    that the file exists); IsADirectoryError when one of the run's ``files`` is a folder
    (found only once the training it would hold was done); and for a fresh run
    (``resume`` false) FileExistsError when the folder holds any of them, rather than mix
    two runs' files."""
    folder = os.fspath(out)
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise NotADirectoryError(f"{folder} is a file: a run's output is a folder")
    os.makedirs(folder, exist_ok=True)
    paths = {name: os.path.join(folder, name) for name in files}
    in_the_way = [path for path in paths.values() if os.path.isdir(path)]
    if in_the_way:
        raise IsADirectoryError(f"{in_the_way[0]} is a folder, where the run writes a file")
    found = [name for name, path in paths.items() if os.path.exists(path)]
    if found and not resume:
        raise FileExistsError(f"{folder} holds a run ({', '.join(found)}): resume it, or train into another folder")
    return folder


__all__ = ["run_folder"]
