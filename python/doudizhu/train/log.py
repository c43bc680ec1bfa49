"""The run's log: ``log.csv`` in the run's folder, one row per report, appended on resume.

Columns: :data:`COLUMNS`. Rows without an evaluation leave its columns empty."""

from __future__ import annotations

import csv
import os
from collections.abc import Mapping

from .. import encode
from .._whole_file import whole_file

FILE = "log.csv"
EVAL_OPPONENTS = ("random", "heuristic")
COLUMNS = (
    "minutes",  # training time (evaluation excluded)
    "frames",  # samples learned, DouZero's count
    "hands",
    "frames_per_s",
    *(f"loss_{p}" for p in encode.DOUZERO_POSITIONS),
    *(f"{m}_{o}" for o in EVAL_OPPONENTS for m in ("wp", "adp")),
)


class Log:
    """Appends rows to a run's ``log.csv`` (writing its header once)."""

    def __init__(self, folder: str) -> None:
        self.path = os.path.join(folder, FILE)

    def write(self, row: Mapping[str, float | int]) -> None:
        unknown = set(row) - set(COLUMNS)
        if unknown:
            raise ValueError(f"unknown log columns: {', '.join(sorted(unknown))}")
        new = not os.path.exists(self.path)
        with open(self.path, "a", newline="") as f:
            writer = csv.DictWriter(f, COLUMNS)
            if new:
                writer.writeheader()
            writer.writerow(dict(row))


def drop_rows_after(folder: str, frames: int) -> None:
    """Leaves out of the folder's log the rows past ``frames``: what a run logged after its
    last checkpoint, which a resumed run trains again."""
    path = os.path.join(folder, FILE)
    if not os.path.exists(path):
        return
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    kept = [row for row in rows if row.get("frames") in (None, "") or float(row["frames"]) <= frames]
    if len(kept) == len(rows):
        return
    with whole_file(path) as partial, open(partial, "w", newline="") as f:
        writer = csv.DictWriter(f, COLUMNS)
        writer.writeheader()
        writer.writerows(kept)


def read(folder_or_file: str) -> list[dict[str, float]]:
    """A log's rows, numbers as floats, empty cells left out."""
    path = os.path.join(folder_or_file, FILE) if os.path.isdir(folder_or_file) else folder_or_file
    with open(path, newline="") as f:
        return [{k: float(v) for k, v in row.items() if v != ""} for row in csv.DictReader(f)]


__all__ = ["COLUMNS", "EVAL_OPPONENTS", "FILE", "Log", "drop_rows_after", "read"]
