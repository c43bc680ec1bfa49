"""doudizhu: a fast, exact Dou Dizhu (Fight the Landlord) rules engine.

The rules live in a C++ core (`doudizhu._core`); this package re-exports it:

- :class:`Cards`: a multiset of cards, from text such as ``"33344456"`` or ``"BR"``.
- :class:`Rules`: the rules configuration; ``Rules.preset("douzero")`` and the other
  presets and variants that ``Rules.presets()`` names.
- :class:`MoveKind`, :class:`Move`: a combination and one reading of cards as it.
- :func:`classify`, :func:`legal_moves`, :func:`legal_moves_array`,
  :func:`legal_moves_batch`: what cards are, and what a hand may play.
- :class:`Game`, :class:`Action`, :class:`Settlement`, :func:`score`: a hand of play
  (deal, bidding, play, scoring, records in :mod:`doudizhu.record`).
- Errors: :class:`DoudizhuError` (a ValueError) and its kinds :class:`CardsError`,
  :class:`MoveError`, :class:`IllegalActionError`, :class:`RecordError`,
  :class:`NetworkError` and :class:`RulesError`; :class:`TooLargeError` (a ValueError and
  a MemoryError) for a count of games, hands or worlds more than memory can hold.
- :func:`selfplay`: many whole games in C++ on all cores, as NumPy arrays; game ``i``
  of a seed is dealt from :func:`game_seed` ``(seed, i)``, and :func:`choose_action` is
  the action a built-in policy (:data:`POLICIES`: ``"random"``, ``"heuristic"``,
  ``"fast_heuristic"``, ``"neural"``: the learned policy, :class:`Network`; ``"ismcts"``: the
  tree search) plays in a game.
- :func:`sample_worlds`, :func:`solve`, :func:`solve_moves`, :func:`playout`,
  :func:`rollouts`, :func:`ismcts`: search support (determinized worlds, the exact endgame
  solver, rollouts one at a time and in batches); :class:`Infoset` and
  ``Game.infoset_key``: what a seat knows, hashable; an example bot in :mod:`doudizhu.bots`.
- :class:`ActionSpace`: fixed action ids, legal-action masks and stepping by id (:mod:`doudizhu.actions`,
  with RLCard and OpenSpiel conversions); environments in :mod:`doudizhu.envs`.
- :mod:`doudizhu.encode`: observations for learning (our own vector; DouZero's features).
"""

from __future__ import annotations

import os as _os
from importlib.metadata import PackageNotFoundError as _PackageNotFoundError
from importlib.metadata import version as _metadata_version

from . import _core, _python_methods, actions, bots, encode, record, render
from ._core import (
    ACTION_DTYPE,
    MAX_WORLDS,
    MOVE_DTYPE,
    POLICIES,
    Action,
    ActionSpace,
    ActionType,
    Cards,
    CardsError,
    DoudizhuError,
    Game,
    IllegalActionError,
    Infoset,
    IsmctsResult,
    Move,
    MoveError,
    MoveKind,
    Network,
    NetworkError,
    RecordError,
    Rules,
    RulesError,
    Settlement,
    SolveResult,
    TooLargeError,
    actions_from_rows,
    actions_to_rows,
    choose_action,
    classify,
    game_seed,
    ismcts,
    legal_moves,
    legal_moves_array,
    legal_moves_batch,
    moves_from_array,
    moves_to_array,
    playout,
    rank_name,
    rollouts,
    sample_worlds,
    score,
    solve,
    solve_moves,
)
from ._extras import MissingExtra
from .checks import PlayCheck, can_play
from .evaluation import Evaluation, evaluate
from .match import Match
from .selfplay_result import SelfPlayResult, selfplay

# The network the "neural" policy plays ships in the package (read at its first use).
_core._set_shipped_network(_os.path.join(_os.path.dirname(__file__), "networks", "neural.ddzn"))
# Game.to_record, Game.from_record and the Jupyter pictures: the C++ classes' Python methods.
_python_methods.install()

__all__ = [
    "ACTION_DTYPE",
    "MAX_WORLDS",
    "MOVE_DTYPE",
    "POLICIES",
    "Action",
    "ActionSpace",
    "ActionType",
    "Cards",
    "CardsError",
    "DoudizhuError",
    "Evaluation",
    "Game",
    "IllegalActionError",
    "Infoset",
    "IsmctsResult",
    "Match",
    "MissingExtra",
    "Move",
    "MoveError",
    "MoveKind",
    "Network",
    "NetworkError",
    "PlayCheck",
    "RecordError",
    "Rules",
    "RulesError",
    "SelfPlayResult",
    "Settlement",
    "SolveResult",
    "TooLargeError",
    "actions",
    "actions_from_rows",
    "actions_to_rows",
    "bots",
    "can_play",
    "choose_action",
    "classify",
    "encode",
    "evaluate",
    "game_seed",
    "ismcts",
    "legal_moves",
    "legal_moves_array",
    "legal_moves_batch",
    "moves_from_array",
    "moves_to_array",
    "playout",
    "rank_name",
    "record",
    "render",
    "rollouts",
    "sample_worlds",
    "score",
    "selfplay",
    "solve",
    "solve_moves",
]

try:
    __version__ = _metadata_version("doudizhu-engine")
except _PackageNotFoundError:  # the package run from a source tree, not installed
    __version__ = "unknown"
