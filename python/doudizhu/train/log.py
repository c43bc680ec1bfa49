"""The run's log: ``log.csv`` in the run's folder, one row per report, appended on resume.

Columns: :data:`COLUMNS`. Rows without an evaluation leave its columns empty."""

from __future__ import annotations

import csv
import io
import math
import os
from collections.abc import Mapping, Sequence
from typing import Any

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
        append_row(self.path, COLUMNS, row)


def append_row(path: str, columns: Sequence[str], row: Mapping[str, Any]) -> None:
    """Appends ``row`` to the CSV file ``path`` (the header first into a new or empty file),
    whole or not at all: a write that fails part way (a full disk) is cut back off, so that
    the file is as it was and a resumed run reads it (a cut row was "a damaged log")."""
    text = io.StringIO()
    writer = csv.DictWriter(text, columns)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        size = os.fstat(fd).st_size
        if size == 0:
            writer.writeheader()
        writer.writerow(dict(row))
        data = memoryview(text.getvalue().encode("utf-8"))
        try:
            while data:
                data = data[os.write(fd, data):]
        except OSError as error:
            os.ftruncate(fd, size)
            raise OSError(error.errno, error.strerror, path) from None
    finally:
        os.close(fd)


def row_minutes(seconds: float) -> float:
    """A run's training ``seconds`` as its log's rows write them: minutes to 3 decimals."""
    return round(seconds / 60, 3)


def drop_rows_after(folder: str, frames: int, seconds: float) -> None:
    """Leaves out of the folder's log the rows past ``frames`` or ``seconds`` (as the rows
    write them): what a run logged after its last checkpoint, which a resumed run trains
    again. By frames alone, rows of a killed run's first minutes (no step learned yet, still
    at the checkpoint's frames) stayed before the resumed run's earlier minutes, and the
    next resume refused the log as damaged."""
    path = os.path.join(folder, FILE)
    if not os.path.exists(path):
        return
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    minutes = row_minutes(seconds)
    kept = [row for row in rows if (row.get("frames") in (None, "") or float(row["frames"]) <= frames)
            and float(row["minutes"]) <= minutes]
    if len(kept) == len(rows):
        return
    with whole_file(path) as partial, open(partial, "w", newline="") as f:
        writer = csv.DictWriter(f, COLUMNS)
        writer.writeheader()
        writer.writerows(kept)


def read(folder_or_file: str, columns: tuple[str, ...] | None = None) -> list[dict[str, float]]:
    """A log's rows (a run's ``log.csv``, or a CSV file of numbers such as the recipe's
    curve), numbers as floats, empty cells left out; ValueError naming the file and its
    first fault: a header other than ``columns`` (when given) or without ``minutes``, a row
    of other cells than the header, a cell that is no number, minutes that are not finite
    or run backwards, a last line cut short."""
    path = os.path.join(folder_or_file, FILE) if os.path.isdir(folder_or_file) else folder_or_file
    try:
        with open(path, newline="", encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError:
        raise ValueError(f"{path}: a damaged log (not text)") from None
    if text and not text.endswith("\n"):
        raise ValueError(f"{path}: a damaged log (its last line is cut short)")
    try:
        table = list(csv.reader(text.splitlines()))
    except csv.Error as error:  # a cell past the csv module's field limit, among others
        raise ValueError(f"{path}: a damaged log ({error})") from None
    lines = iter(table)
    header = tuple(next(lines, ()))
    if columns is not None and header and header != columns:
        raise ValueError(f"{path}: a damaged log (its header is not {','.join(columns[:3])},...)")
    if header and "minutes" not in header:  # every log is by training minutes: resumes and curves read them
        raise ValueError(f"{path}: a damaged log (its header has no minutes column)")
    rows: list[dict[str, float]] = []
    for number, cells in enumerate(lines, start=2):
        if len(cells) != len(header):
            raise ValueError(f"{path}: a damaged log (line {number} has {len(cells)} cells, not {len(header)})")
        try:
            row = {k: float(v) for k, v in zip(header, cells) if v != ""}
        except ValueError:
            raise ValueError(f"{path}: a damaged log (line {number} holds a cell that is no number)") from None
        minutes, before = row.get("minutes", math.nan), rows[-1]["minutes"] if rows else 0.0
        if not (math.isfinite(minutes) and minutes >= before):
            raise ValueError(f"{path}: a damaged log (line {number} holds minutes {minutes}, no finite number "
                             f"from the line before's {before} on)")
        rows.append(row)
    return rows


def run_rows(folder: str) -> list[dict[str, float]]:
    """A run's log rows, checked as :func:`read` checks a log of :data:`COLUMNS`; none
    before the run has written its first."""
    return read(folder, COLUMNS) if os.path.isfile(os.path.join(folder, FILE)) else []


__all__ = ["COLUMNS", "EVAL_OPPONENTS", "FILE", "Log", "drop_rows_after", "read", "row_minutes", "run_rows"]
