"""Action ids for learning agents, and the action encodings of RLCard and OpenSpiel.

:class:`ActionSpace` enumerates every action of one rules' game with a fixed id:

- id 0 is pass (when following);
- ids 1 .. ``num_moves`` are every move under the rules that fits in the largest hand
  (the landlord's: 20 cards, 18 without a kitty, 33 with four players; every move the
  whole deck offers a leader, less the longer ones),
  ordered by kind (:class:`~doudizhu.MoveKind` order), then length, then key, then the
  cards mask as an unsigned integer;
- the last ids, from ``first_bid_id``, are the bidding actions of the rules' bidding
  system: classic ``bid 0`` (pass) .. ``bid 3``; call-and-rob decline, call, no rob,
  rob; none (the douzero, rlcard and run_fast presets) has none.

The enumeration depends only on the rules, so ids are stable across runs and machines.
Under ``Rules.preset("rlcard")`` the space has 27,472 ids (27,471 moves and pass), the
size of RLCard's action space and the figure the DouZero paper gives (DouZero 1.1.0's own
kicker rules, ``Rules.preset("douzero")``, allow 30,383 moves); under
``Rules.preset("openspiel")`` 26,053 moves, OpenSpiel's number of play actions; under the
standard rules 12,342 moves.

``space.mask(game)`` is the legal actions of the player to move as a NumPy bool array;
``space.legal_ids(game)``, ``space.ids(rows)`` and ``space.moves(ids)`` convert in bulk
(rows of :data:`~doudizhu.MOVE_DTYPE`; an empty row stands for pass). Lookups are a hash
table in C++. Ids out of range, actions the space lacks and games of other rules raise
``ValueError``.

Under wild-card (laizi) rules a move also names the ranks its wild cards stand in for, and
a flat id space of every (combination, stand-ins) pair would hold tens of millions of ids.
The ids are factored instead: ``space.id(action)`` is the id of the combination as it
stands (the move read naturally: the ids of the same rules without wild cards), and
``ActionSpace.stand_in_id(action)`` is what its wild cards stand in for, in a second fixed
enumeration of ``ActionSpace.STAND_IN_IDS`` (2,380) ids: 0 for none, then every multiset
of 1..4 ranks 3..2, by size, then ranks ascending. The pair and the hand's wild rank give
the move back (``space.with_stand_ins(id, stand_in_id, wild_rank)``); ``space.mask(game)``
marks the combinations some reading of the hand forms, and ``space.legal_ids(game)`` and
``space.legal_stand_in_ids(game)`` are the pairs of ``game.legal_actions()``. A policy
chooses the combination as under the natural rules, then how to pay for it: the
environments (:mod:`doudizhu.envs`) play the two choices as two steps.

With two wild ranks (laizi2) each rank's cards stand in for a multiset of that same
enumeration, and a move's stand-in id is ``low + STAND_IN_IDS * high`` (``low`` for the
hand's lower wild rank, ``high`` for the higher; ``high`` is 0 under one wild rank, so laizi's
ids are unchanged). ``ActionSpace.stand_in_id(action, game.wild_ranks)`` names them relative
to the hand's wild ranks, and ``space.with_stand_ins(id, stand_in_id, game.wild_ranks)``
gives the move back; the environments play the combination and the two parts as up to
three steps.

Peer encodings (no peer package is needed at run time):

- :func:`to_rlcard` / :func:`from_rlcard`: RLCard 1.2.0's action strings, a play's cards
  in our rank order and alphabet (``"33344456"``, ``"BR"``) or ``"pass"``. RLCard's space
  is the rlcard preset's moves of at most 20 cards, and pass; it has no bidding.
- :func:`to_openspiel` / :func:`from_openspiel`: OpenSpiel ``dou_dizhu`` player action
  ids: 0 pass (in play and in the auction), 1-3 bids, 4.. its 26,053 plays (the
  openspiel preset's moves, no four-with-two), numbered as in cpp/learn/peer_actions.hpp.

An action that does not exist in the peer's space (a bid for RLCard, a four-with-two for
OpenSpiel, a move the peer's rules do not have) raises ``ValueError``; none returns None.
"""

from __future__ import annotations

from ._core import OPENSPIEL_NUM_ACTIONS, ActionSpace, from_openspiel, from_rlcard, to_openspiel, to_rlcard

__all__ = [
    "OPENSPIEL_NUM_ACTIONS",
    "ActionSpace",
    "from_openspiel",
    "from_rlcard",
    "to_openspiel",
    "to_rlcard",
]
