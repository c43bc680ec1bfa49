"""Where a trainer's checkpoint lies, and whether a file can be one, told without PyTorch:
the command line refuses a file or folder that can never be a checkpoint before it asks
for the ``[train]`` extra that reads one (:mod:`doudizhu.checkpoint`)."""

from __future__ import annotations

import os
import zipfile

FILE = "checkpoint.pt"
RECIPE_STATE = "recipe.json"  # a run of the neural recipe (doudizhu.train.recipe): its state


def checkpoint_file(path: str) -> str:
    """The checkpoint file ``path`` names: itself, or a run folder's ``checkpoint.pt``;
    ValueError for a folder without one."""
    if not os.path.isdir(path):
        return path
    if not os.path.isfile(os.path.join(path, FILE)):
        raise ValueError(f"{path}: a folder without a {FILE}, so no doudizhu.train run")
    return os.path.join(path, FILE)


def is_torch_archive(path: str) -> bool:
    """Whether ``path`` is a zip archive laid out as ``torch.save`` writes one (its pickle
    in ``data.pkl``, inside the archive's one folder); read from the zip directory only."""
    try:
        with zipfile.ZipFile(path) as archive:
            return any(name.rpartition("/")[2] == "data.pkl" for name in archive.namelist())
    except (OSError, ValueError, zipfile.BadZipFile):  # no zip, or none that can be read
        return False


__all__ = ["FILE", "RECIPE_STATE", "checkpoint_file", "is_torch_archive"]
