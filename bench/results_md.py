"""bench/RESULTS.md: each report script replaces its own ``## `` section of it."""
from __future__ import annotations

import os

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "RESULTS.md")


def add_output_arguments(ap) -> None:
    """The options --out PATH (default bench/RESULTS.md) and --no-write of a report."""
    ap.add_argument("--out", default=RESULTS)
    ap.add_argument("--no-write", action="store_true")


def write_section(path: str, md: str, section: str) -> None:
    """Replaces the section starting with the ``section`` heading, up to the next ``## ``
    heading of another section or the end of the file (or appends it at the end), keeping
    the rest of the file."""
    head = tail = ""
    if os.path.exists(path):
        with open(path) as f:
            text = f.read()
        lines = text.splitlines(keepends=True)
        cut = next((i for i, line in enumerate(lines) if line.rstrip() == section), len(lines))
        end = next((i for i in range(cut + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        head = "".join(lines[:cut]).rstrip("\n")
        head = head + "\n\n" if head else ""
        tail = "".join(lines[end:])
    with open(path, "w") as f:
        f.write(head + md.rstrip("\n") + "\n" + ("\n" + tail if tail else ""))


def publish(md: str, path: str, section: str, write: bool = True) -> None:
    """Prints a report's section and, if ``write``, puts it in the file at ``path``."""
    print(md)
    if write:
        write_section(path, md, section)
        print(f"wrote the '{section}' section of {path}")
