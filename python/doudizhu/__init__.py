"""doudizhu: a fast, exact Dou Dizhu (Fight the Landlord) rules engine.

The rules live in a C++ core (`doudizhu._core`); this package re-exports it:

- :class:`Cards`: a multiset of cards, from text such as ``"33344456"`` or ``"BR"``.
- :class:`Rules`: the rules configuration; ``Rules.preset("douzero")`` and friends.
- :class:`MoveKind`, :class:`Move`: a combination and one reading of cards as it.
- :func:`classify`, :func:`legal_moves`, :func:`legal_moves_array`,
  :func:`legal_moves_batch`: what cards are, and what a hand may play.
"""

from __future__ import annotations

from ._core import (
    MOVE_DTYPE,
    Cards,
    Move,
    MoveKind,
    Rules,
    classify,
    legal_moves,
    legal_moves_array,
    legal_moves_batch,
    moves_from_array,
    moves_to_array,
)

__all__ = [
    "MOVE_DTYPE",
    "Cards",
    "Move",
    "MoveKind",
    "Rules",
    "classify",
    "legal_moves",
    "legal_moves_array",
    "legal_moves_batch",
    "moves_from_array",
    "moves_to_array",
]
