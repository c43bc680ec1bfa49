"""Observation encoders: what a seat knows, as NumPy arrays for learning.

Two encodings, both computed in C++:

- :func:`observation` (and :func:`observation_batch`): our own float32 vector of shape
  :data:`OBSERVATION_SHAPE`, the view of one seat, holding only what that seat knows.
  :data:`OBSERVATION_LAYOUT` names its blocks (name -> slice); see :func:`observation_layout`
  for what each block holds.
- :func:`douzero` (and :func:`douzero_batch`): DouZero 1.1.0's observation dict
  (``douzero.env.env.get_obs``), value for value in DouZero's setting, so models trained
  on DouZero run on this engine without retraining; under the other presets the same
  features widened to their seats, decks and wild cards (:func:`douzero_layout`).

Cards are encoded as a *card plane* of 54 slots (one deck): rank ``r`` (``3`` = 0 ..
``2`` = 12) at slots ``4r .. 4r+3``, of which the first ``count`` are 1; the black joker
at 52 and the red joker at 53. This is DouZero's card layout too.

Seats in :func:`observation` are relative to the observer: slot 0 of a per-seat block
is the observer, slot ``k`` the seat ``k`` places after it in the direction of play
(seat ``(observer + k) % seats``). A two-hand position (``Game.from_position`` with two
hands) uses the three-seat layout with the third seat's slots all zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypedDict, Union, cast

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import HISTORY_LENGTH, Action, Game, Rules, bid_feature_width, bid_features, checked_rules

__all__ = [
    "DOUZERO_LAYOUT",
    "DOUZERO_POSITIONS",
    "HISTORY_LENGTH",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SHAPE",
    "DouZeroLayout",
    "DouZeroObservation",
    "bid_feature_width",
    "bid_features",
    "douzero",
    "douzero_batch",
    "douzero_layout",
    "layout_for",
    "observation",
    "observation_batch",
    "observation_layout",
]

_Seats = Union[int, Sequence[int], npt.NDArray[np.integer], None]


def observation_layout(seats: int = 3, decks: int = 1) -> dict[str, slice]:
    """The blocks of the observation vector, name -> slice, in order.

    ``C`` is the card plane (54 with one deck, 108 with two), ``S`` the number of seats of
    the layout (3; 4 for four-player games), ``M`` the most cards a hand can hold (20 with
    one deck, 33 with two), ``H`` = :data:`HISTORY_LENGTH` (15). :func:`layout_for` gives
    the layout of a rules' games.
    Per-seat blocks are relative to the observer (slot 0 is the observer). One-hot and
    thermometer blocks are all zero when the thing they describe does not exist.

    ========================  ===========  ============================================
    block                     size         holds
    ========================  ===========  ============================================
    ``hand``                  C            the observer's hand
    ``unseen``                C            cards neither in the observer's hand nor played
    ``played``                S x C        the cards each seat has played this hand
    ``hand_sizes``            S x M        each seat's card count, thermometer (the first
                                           ``n`` slots are 1; counts above M read as M)
    ``kitty``                 C            the kitty once the landlord is known, else zeros
    ``last_move``             C            the move to beat (zeros when leading)
    ``last_kind``             17           its :class:`MoveKind`, one-hot
    ``last_by``               S            who played it, one-hot
    ``landlord``              S            the landlord, one-hot (zeros while bidding)
    ``to_move``               S            the player to move (zeros once over)
    ``phase``                 3            bidding, playing, over: one-hot (zeros while
                                           the landlord chooses a partner)
    ``bid``                   4            classic: the highest bid so far (0-3) one-hot;
                                           call and rob: slot 1 once called; no bidding: 1
    ``high_bidder``           S            the highest bidder / provisional landlord
    ``out``                   S            seats that passed (classic) or declined
    ``robs``                  S            robs so far (call and rob), thermometer
    ``base``                  1            log2 of the stake bid so far (0 before any bid)
    ``bombs``                 13d+1        bombs and rockets played, thermometer (d decks)
    ``multiplier``            1            log2 of the multiplier so far (capped)
    ``history``               H x (C+S+1)  the last H plays and passes, most recent first:
                                           the cards, who (one-hot) and 1 for a pass
    ``passes``                1            passes since the move to beat (in play)
    ``leading``               1            1 when the observer is to move and leads
    ``seats_present``         S            1 for each seat of the game
    ``wild``                  13           the wild rank 3..2 (laizi), one-hot; two-hot
                                           with two wild ranks (laizi2); zeros without
                                           wild cards
    ``partner``               S+1 (S=4)    four seats only (0 slots with three): the
                                           landlord's partner, one-hot (four_partner;
                                           zeros alone), and the last slot 1 while the
                                           landlord chooses
    ========================  ===========  ============================================

    Bidding actions are not in ``history``: the bidding blocks sum them up.
    """
    blocks = _core.encode_observation_layout(seats, decks)
    return {name: slice(offset, offset + size) for name, offset, size in blocks}


def layout_for(rules: Rules | None = None) -> dict[str, slice]:
    """The layout of :func:`observation` for games under ``rules`` (default: standard)."""
    rules = checked_rules(rules)
    return observation_layout(max(rules.players, 3), rules.decks)


OBSERVATION_LAYOUT: dict[str, slice] = observation_layout()
"""The blocks of :func:`observation`'s vector for three-seat, one-deck games (every
preset but the four-seat, two-deck ``four_player`` and ``four_partner``, whose layout is
``layout_for(rules)``)."""

OBSERVATION_SHAPE: tuple[int] = (max(s.stop for s in OBSERVATION_LAYOUT.values()),)
"""The shape of one observation (1-D) of three-seat, one-deck games, as
:data:`OBSERVATION_LAYOUT`."""


def observation(game: Game, seat: int | None = None) -> npt.NDArray[np.float32]:
    """What ``seat`` (default: the player to move) knows of ``game``, as a float32 vector.

    It holds the seat's own hand and public information only: two games that differ in
    cards the seat cannot see give equal vectors. Works in every phase (while bidding the
    landlord blocks are zero) and for two-hand positions. Read it with
    :data:`OBSERVATION_LAYOUT`: ``obs[OBSERVATION_LAYOUT["hand"]]``.

    Raises ValueError for a seat outside the game, or no seat once the hand is over.
    """
    return _core.encode_observation(game, seat)


def observation_batch(games: Sequence[Game], seats: _Seats = None) -> npt.NDArray[np.float32]:
    """:func:`observation` of many games as one ``(len(games), *OBSERVATION_SHAPE)`` array.

    ``seats`` is None (each game's player to move), one seat for all, or one per game.
    The games are read first, then the array is filled in C++ with the GIL released.
    """
    return _core.encode_observation_batch(games, seats)


_DouZeroPosition = Literal["landlord", "landlord_down", "landlord_across", "landlord_up"]


@dataclass(frozen=True)
class DouZeroLayout:
    """The blocks of :func:`douzero`'s arrays under some rules (:func:`douzero_layout`)."""

    douzero: bool
    """True for DouZero 1.1.0's own layout (three seats, one deck, no wild cards, 20 and
    17 cards), False for the generalized one."""
    positions: tuple[str, ...]
    """The positions by distance from the landlord in the order of play: ``position``
    values, and :class:`doudizhu.envs.vector.Batch`'s ``position`` indexes into them."""
    x_no_action: dict[str, dict[str, slice]]
    """Per position, the blocks of ``x_no_action`` (name -> slice), in order."""
    action: dict[str, slice]
    """The blocks of an action's part of an ``x_batch`` row, from 0: in the row they follow
    ``x_no_action``, at ``width(position) + slice``."""
    z: tuple[int, int]
    """The shape of ``z`` (and of each ``z_batch`` row)."""

    def width(self, position: str) -> int:
        """The width of ``x_no_action`` at ``position``."""
        return max(int(s.stop) for s in self.x_no_action[position].values())

    @property
    def action_width(self) -> int:
        """The width of an action's part of ``x_batch`` rows."""
        return max(int(s.stop) for s in self.action.values())


def _slices(blocks: list[tuple[str, int, int]]) -> dict[str, slice]:
    return {name: slice(offset, offset + size) for name, offset, size in blocks}


def douzero_layout(rules: Rules | None = None) -> DouZeroLayout:
    """The layout of :func:`douzero`'s features for games under ``rules`` (default:
    standard), every preset included. ``C`` is a card plane of the rules' deck (54 slots
    with one deck, 108 with two: 8 per rank and 2 per joker, the same thermometer);
    ``N`` the seats; ``L`` and ``P`` the landlord's and a peasant's hands when the
    kitty is taken (a dealt hand ``P``, and ``L = P + kitty_size``); ``B`` = 13 x decks + 2, every count of
    bombs and rockets a deck allows (15 with one deck).

    DouZero's own layout (``douzero`` True: the ``douzero``, ``standard``, ``rlcard``,
    ``openspiel`` and ``happy`` presets) is exactly DouZero 1.1.0's, its block order
    varying with the position; ``x_no_action`` is 319 values for the landlord and 430 for a
    peasant, the action part 54, ``z`` (5, 162). The generalized layout (``sanren``,
    ``four_player``, ``laizi``) has one order for every position: ``others`` (below) are
    the other positions in order, the landlord first.

    ========================  ======  ===============================================
    block                     size    holds
    ========================  ======  ===============================================
    ``hand``                  C       the hand of the player to move
    ``others``                C       the cards in the other hands (once the kitty is
                                      taken: every card the player has not seen)
    ``last_move``             C       the move to beat (its combination), zeros when
                                      leading
    ``played_<p>``            C       for each other position ``p``: the cards it has
                                      played (with wild cards, the cards spent)
    ``last_action_<p>``       C       its latest play, zeros for a pass or none (not
                                      in DouZero's landlord layout)
    ``cards_left_<p>``        L or P  its card count less 1, one-hot (L for the
                                      landlord, P for a peasant)
    ``bombs``                 B       bombs and rockets played, one-hot
    ``wild``                  13      wild cards only: the wild rank 3..2, one-hot
                                      (two-hot: both wild ranks under laizi2)
    ``action``                C       (action part) the action's combination, zeros for
                                      a pass
    ``action_spent``          C       (action part, wild cards only) the cards it takes
                                      from the hand: its wild cards as themselves
    ========================  ======  ===============================================

    ``z`` is ``(5, N x C)``: the last ``5 x N`` plays and passes of the hand, oldest first,
    one round of the table per row, each the combination's card plane (zeros for a pass
    and before the first). Widths: ``sanren`` 429 for every position (``x_batch`` 483,
    ``z`` (5, 162)); ``laizi`` 440 for the landlord and 443 for a peasant (action part
    108, ``z`` (5, 162)); ``four_player`` 1075 and 1083 (action part 108, ``z`` (5, 432)).
    """
    d = _core.encode_douzero_layout(rules)
    positions = tuple(d["positions"])
    return DouZeroLayout(
        douzero=bool(d["douzero"]),
        positions=positions,
        x_no_action={p: _slices(blocks) for p, blocks in zip(positions, d["x_no_action"])},
        action=_slices(d["action"]),
        z=(int(d["z"][0]), int(d["z"][1])),
    )


DOUZERO_LAYOUT: DouZeroLayout = douzero_layout(Rules.preset("douzero"))
"""DouZero 1.1.0's own layout (three seats, one deck, no wild cards), as the core defines
it: the positions, the widths of ``x_no_action`` and of an action, the shape of ``z``. The
networks of :mod:`doudizhu.value_networks` and :mod:`doudizhu.neural` are sized from it."""

DOUZERO_POSITIONS: tuple[str, str, str] = cast("tuple[str, str, str]", DOUZERO_LAYOUT.positions)
"""DouZero's positions: the landlord, the seat after it in play, the seat before it.
Four seats add ``landlord_across`` between the last two (:attr:`DouZeroLayout.positions`)."""


class DouZeroObservation(TypedDict):
    """The dict :func:`douzero` returns: DouZero's keys, plus ``seat``.

    ``x_batch`` row ``i`` (and ``z_batch[i]``) belongs to ``legal_actions[i]``, the same
    list and order as ``game.legal_actions()``: when following, row 0 is the pass
    (``Action.pass_()``, whose action features are all zero, as DouZero's ``[]``).
    DouZero's own list has the pass last and repeats some moves; as sets of rows the two
    are equal.
    """

    position: _DouZeroPosition
    seat: int
    x_batch: npt.NDArray[np.float32]
    z_batch: npt.NDArray[np.float32]
    legal_actions: list[Action]
    x_no_action: npt.NDArray[np.int8]
    z: npt.NDArray[np.int8]


def douzero(game: Game) -> DouZeroObservation:
    """DouZero 1.1.0's observation of the player to move (``douzero.env.env.get_obs``),
    in the layout of :func:`douzero_layout` for the game's rules (every preset).

    For a game in DouZero's setting (``Game.from_deal(hands, kitty, landlord=0,
    rules=Rules.preset("douzero"))``: seat 0 the landlord, seat 1 DouZero's
    ``landlord_down``, seat 2 ``landlord_up``) the arrays equal DouZero's element for
    element, with the same dtypes (``x_batch``/``z_batch`` float32, ``x_no_action``/``z``
    int8). Positions are relative to the landlord, so any landlord seat works. The
    history ``z`` holds the last 15 plays and passes of the hand.

    Under the other rules the arrays follow the generalized layout, ``position`` is a name
    of :attr:`DouZeroLayout.positions` (four seats add ``landlord_across``) and
    ``x_batch`` rows add the action part of the layout (with wild cards, the combination
    and the cards spent).

    Raises ValueError for a game not in play, without every seat of its rules (a two-hand
    position), or with a hand larger than the layout's one-hot counts (DouZero's: 20 cards
    for the landlord, 17 for a peasant).
    """
    return _core.encode_douzero(game)


def douzero_batch(games: Sequence[Game]) -> list[DouZeroObservation]:
    """:func:`douzero` of each game, filled by one C++ call with the GIL released.

    Returns a list of dicts (the legal-action rows make the arrays ragged, and the landlord's
    rows are narrower than a peasant's).
    """
    return _core.encode_douzero_batch(games)
