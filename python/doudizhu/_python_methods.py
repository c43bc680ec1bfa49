"""The methods of the C++ classes that are written in Python, and :func:`install`, which
sets them on the classes: ``import doudizhu`` calls it once.

Logic lives in the C++ core (:mod:`doudizhu._core`); file formats and presentation live in
Python, and these are the classes' methods of that kind, so that they read as methods:

- ``Game.to_record()`` and ``Game.from_record(record)``: records (:mod:`doudizhu.record`);
- ``_repr_svg_`` of ``Cards``, ``Move`` and ``Game``: their pictures in Jupyter
  (:mod:`doudizhu.render`);
- ``__reduce_ex__`` of every class: pickle's protocols 0 and 1 as protocol 2 (below), and a
  ``Game`` as its record (the hand replayed on unpickling, undo included).

The stubs (``_core.pyi``) declare the record methods with the rest of ``Game``.
"""

from __future__ import annotations

from typing import Any

from . import _core, record, render
from ._core import Cards, Game, Move


def _reduce_game(game: Game, protocol: int) -> str | tuple[Any, ...]:
    """A game pickles as its record, which replays it with every check (a record is the one
    form of a whole hand; the C++ state has no other). A subclass of Game pickles as object
    does (pybind11 refuses it): replay would make a plain Game of it."""
    if type(game) is not Game:
        return object.__reduce_ex__(game, max(protocol, 2))
    return record.from_record, (record.to_record(game),)


METHODS: dict[type, dict[str, Any]] = {
    Game: {
        "to_record": record.to_record,
        "from_record": staticmethod(record.from_record),
        "_repr_svg_": render.svg,
        "__reduce_ex__": _reduce_game,
    },
    Cards: {"_repr_svg_": render.svg},
    Move: {"_repr_svg_": render.svg},
}
"""Each C++ class's Python methods, by name."""


def _reduce_ex(self: object, protocol: int) -> str | tuple[Any, ...]:
    """Pickles at protocol 2 or above: below it, pickle rebuilds an object through its base
    class, which a pybind11 class refuses by aborting the process rather than raising."""
    return object.__reduce_ex__(self, max(protocol, 2))


def _core_classes() -> list[type]:
    """Every class of the core (pybind11's, whose common base is the second last of its MRO)."""
    base = Cards.__mro__[-2]
    classes = (getattr(_core, name) for name in dir(_core))
    return [cls for cls in classes if isinstance(cls, type) and issubclass(cls, base) and cls is not base]


def install() -> None:
    """Sets :data:`METHODS` and ``__reduce_ex__`` on their classes (again: no change)."""
    for cls, methods in METHODS.items():
        for name, method in methods.items():
            setattr(cls, name, method)
    for cls in _core_classes():
        if "__reduce_ex__" not in METHODS.get(cls, {}):
            cls.__reduce_ex__ = _reduce_ex  # type: ignore[method-assign,assignment]
