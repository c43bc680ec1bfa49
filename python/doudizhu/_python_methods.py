"""The methods of the C++ classes that are written in Python, and :func:`install`, which
sets them on the classes: ``import doudizhu`` calls it once.

Logic lives in the C++ core (:mod:`doudizhu._core`); file formats and presentation live in
Python, and these are the classes' methods of that kind, so that they read as methods:

- ``Game.to_record()`` and ``Game.from_record(record)``: records (:mod:`doudizhu.record`);
- ``_repr_svg_`` of ``Cards``, ``Move`` and ``Game``: their pictures in Jupyter
  (:mod:`doudizhu.render`);
- ``__reduce_ex__`` and ``__reduce__`` of every class: what pickle's protocol 2 takes, at any
  protocol (below), and a ``Game`` as its record (the hand replayed on unpickling, undo
  included).

The stubs (``_core.pyi``) declare the record methods with the rest of ``Game``.
"""

from __future__ import annotations

import copyreg
from typing import Any

from . import _core, record, render
from ._core import Cards, Game, Move


def _reduce_game(game: Game, protocol: int = 2) -> tuple[Any, ...]:
    """A game pickles as its record, which replays it with every check (a record is the one
    form of a whole hand; the C++ state has no other). A subclass of Game is refused:
    replay would make a plain Game of it."""
    if type(game) is not Game:
        raise TypeError(f"cannot pickle {type(game).__qualname__!r} object: a Game pickles as its record, "
                        "which replays as a Game")
    return record.from_record, (record.to_record(game),)


METHODS: dict[type, dict[str, Any]] = {
    Game: {
        "to_record": record.to_record,
        "from_record": staticmethod(record.from_record),
        "_repr_svg_": render.svg,
        "__reduce_ex__": _reduce_game,
        "__reduce__": _reduce_game,
    },
    Cards: {"_repr_svg_": render.svg},
    Move: {"_repr_svg_": render.svg},
}
"""Each C++ class's Python methods, by name."""


def _reduce_ex(self: object, protocol: int = 2) -> tuple[Any, ...]:
    """Protocol 2's reduction at every protocol, and for ``__reduce__``: the class, rebuilt
    empty, and the state its ``__getstate__`` gives (a class without one cannot be pickled).
    Protocols 0 and 1, and object's ``__reduce__``, rebuild an object through its base class,
    which pybind11 refuses by aborting the process rather than raising."""
    cls = type(self)
    if getattr(cls, "__getstate__", object.__getstate__) is object.__getstate__:
        raise TypeError(f"cannot pickle '{cls.__module__}.{cls.__qualname__}' object")
    return copyreg.__newobj__, (cls,), self.__getstate__()  # type: ignore[attr-defined]


def _core_classes() -> list[type]:
    """Every class of the core (pybind11's, whose common base is the second last of its MRO)."""
    base = Cards.__mro__[-2]
    classes = (getattr(_core, name) for name in dir(_core))
    return [cls for cls in classes if isinstance(cls, type) and issubclass(cls, base) and cls is not base]


def install() -> None:
    """Sets :data:`METHODS`, ``__reduce_ex__`` and ``__reduce__`` on their classes (again: no
    change)."""
    for cls in _core_classes():
        cls.__reduce_ex__ = _reduce_ex  # type: ignore[method-assign]
        cls.__reduce__ = _reduce_ex  # type: ignore[method-assign,assignment]
    for cls, methods in METHODS.items():
        for name, method in methods.items():
            setattr(cls, name, method)
