"""Adapters calling the public engines' own legal-move code on our positions.

Each ``prepare_*`` turns a position into a zero-argument callable that runs exactly
the engine's per-decision legal-action computation (the part timed by compare.py);
setup (state steering, object construction) happens once, outside the timed call.
The cards are converted by tests/peers.py, as in the differential tests.

* OpenSpiel 2.0.2: ``state.legal_actions()`` on a state steered to the position
  (``openspiel_positions.py``).
* DouZero 1.1.0: ``douzero.env.game.GameEnv.get_legal_card_play_actions()``, the method
  the DouZero env calls each turn: it builds ``MovesGener(hand)`` from scratch, reads the
  rival move from ``card_play_action_seq``, generates, filters, appends bombs/pass
  (set up by ``peers.douzero_legal_call``, as the differential tests do).
* RLCard 1.2.0: follows: ``rlcard.games.doudizhu.utils.get_gt_cards(player,
  greater_player)`` (what ``DoudizhuPlayer.available_actions`` calls when following);
  leads: ``DoudizhuJudger.playable_cards_from_hand(hand)``, the from-scratch lead
  generator.  (During a game RLCard answers leads from a per-player cache that
  ``calc_playable_cards`` updates incrementally after each play; the from-scratch
  generator is the comparable per-position cost.)
"""
from __future__ import annotations

from typing import Callable

import tests_path  # noqa: F401  (tests/ on sys.path, for peers)

from peers import douzero_legal_call, rlcard_cards, text_to_mask


# ----------------------------------------------------------------------------- DouZero
def prepare_douzero(hand: str, last: str | None) -> Callable[[], list]:
    return douzero_legal_call(text_to_mask(hand), text_to_mask(last) if last else None)


def douzero_version() -> str:
    from importlib.metadata import version
    return version("douzero")


# ------------------------------------------------------------------------------ RLCard
class _RLPlayer:
    """The two attributes get_gt_cards reads."""
    __slots__ = ("current_hand", "played_cards", "player_id")

    def __init__(self, pid, current_hand=None, played_cards=None):
        self.player_id = pid
        self.current_hand = current_hand or []
        self.played_cards = played_cards


def prepare_rlcard(hand: str, last: str | None) -> Callable[[], object]:
    if last is None:
        from rlcard.games.doudizhu.judger import DoudizhuJudger
        f = DoudizhuJudger.playable_cards_from_hand
        return lambda: f(hand)
    from rlcard.games.doudizhu.utils import get_gt_cards
    me = _RLPlayer(1, rlcard_cards(text_to_mask(hand)))
    other = _RLPlayer(0, None, last)
    return lambda: get_gt_cards(me, other)


def rlcard_version() -> str:
    from importlib.metadata import version
    return version("rlcard")


# --------------------------------------------------------------------------- OpenSpiel
def prepare_openspiel(state) -> Callable[[], list]:
    return state.legal_actions


def openspiel_version() -> str:
    from importlib.metadata import version
    try:
        return version("open_spiel")
    except Exception:
        return "?"
