"""The methods of the C++ classes that are written in Python, and :func:`install`, which
sets them on the classes: ``import doudizhu`` calls it once.

Logic lives in the C++ core (:mod:`doudizhu._core`); file formats and presentation live in
Python, and these are the classes' methods of that kind, so that they read as methods:

- ``Game.to_record()`` and ``Game.from_record(record)``: records (:mod:`doudizhu.record`);
- ``_repr_svg_`` of ``Cards``, ``Move`` and ``Game``: their pictures in Jupyter
  (:mod:`doudizhu.render`).

The stubs (``_core.pyi``) declare the record methods with the rest of ``Game``.
"""

from __future__ import annotations

from typing import Any

from . import record, render
from ._core import Cards, Game, Move

METHODS: dict[type, dict[str, Any]] = {
    Game: {
        "to_record": record.to_record,
        "from_record": staticmethod(record.from_record),
        "_repr_svg_": render.svg,
    },
    Cards: {"_repr_svg_": render.svg},
    Move: {"_repr_svg_": render.svg},
}
"""Each C++ class's Python methods, by name."""


def install() -> None:
    """Sets :data:`METHODS` on their classes (again: no change)."""
    for cls, methods in METHODS.items():
        for name, method in methods.items():
            setattr(cls, name, method)
