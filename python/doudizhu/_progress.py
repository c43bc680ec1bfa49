"""The one progress bar of the command line: drawn on a terminal, silent otherwise.

Redirected to a file, standard error gets no ``\\r`` frames; the commands print their
summary line instead."""

from __future__ import annotations

import shutil
import sys
import time

_WIDTH = 30
_open = False  # a bar or status drawn on a line not yet ended


def _fitted(line: str) -> str:
    """``line`` cut to the terminal's width, so that a redraw over ``\r`` stays on one line."""
    return line[: max(shutil.get_terminal_size().columns - 1, 1)]


def rate(count: float, seconds: float, unit: str) -> str:
    """``count`` over ``seconds`` as ``"1,234 games/s"``, with two significant digits below 10
    (a slow policy's 0.31 games/s is not 0)."""
    per_second = count / max(seconds, 1e-9)
    return f"{per_second:,.0f} {unit}/s" if per_second >= 10 else f"{per_second:.2g} {unit}/s"


def progress_bar(done: int, total: int, unit: str, started: float | None = None) -> None:
    """Draws ``done/total unit`` (with the rate since ``started``, a perf_counter time) on a
    terminal's standard error; ends the line when done."""
    global _open
    if not sys.stderr.isatty():
        return
    filled = _WIDTH * done // max(total, 1)
    speed = f", {rate(done, time.perf_counter() - started, unit)}" if started is not None else ""
    sys.stderr.write("\r" + _fitted(f"[{'#' * filled}{'.' * (_WIDTH - filled)}] {done}/{total} {unit}{speed}"))
    if done >= total:
        sys.stderr.write("\n")
    _open = done < total
    sys.stderr.flush()


def status_line(text: str) -> None:
    """Draws one line of status (over the last) on a terminal's standard error; "" clears it."""
    global _open
    if sys.stderr.isatty():
        sys.stderr.write(f"\r{_fitted(text)}\033[K")
        sys.stderr.flush()
        _open = bool(text)


def end_line() -> None:
    """Ends the line of a bar or status left unfinished (the run stopped by an error or
    Ctrl-C), so that what is printed next starts a line of its own."""
    global _open
    if _open:
        sys.stderr.write("\n")
        sys.stderr.flush()
        _open = False
