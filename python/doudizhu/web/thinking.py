"""The network's view of a position, as the page shows it where a ``neural`` seat plays:
its top choices among the legal actions, each with the value the network gives it.

``Network.values(game)`` scores every action of ``game.legal_actions()`` in that order
(the expected outcome for the seat to move, in stakes); the bot itself may still play
otherwise, where its exact endgame search takes over.
"""

from __future__ import annotations

from typing import Any

from .._core import Game, shipped_network
from ..bots import Neural
from .views import Thoughts, action_label

TOP = 3  # as many choices as the page has room for beside a seat


def top_choices(bot: Neural, game: Game) -> list[dict[str, Any]]:
    """The network's ``TOP`` best actions for the seat to move, best first."""
    network = bot.network if bot.network is not None else shipped_network()
    outputs = network.values(game)
    legal = game.legal_actions()
    # While bidding the outputs are the bids' (Network.values: pass, 1, 2, 3; no, yes), of
    # which the legal ones may be fewer: each is its bid's value's output. In play, one an action.
    bidding = game.phase == "bidding"
    values = [float(outputs[action.value if bidding else i]) for i, action in enumerate(legal)]
    best = sorted(range(len(legal)), key=lambda i: -values[i])[:TOP]
    return [{"label": action_label(legal[i], game.rules), "value": round(values[i], 3)} for i in best]


def replayed(game: Game, thinkers: dict[int, Neural]) -> Thoughts:
    """The top choices before every action of a finished ``game`` by a seat in ``thinkers``,
    by index in its history (the game replayed from its start by the engine's undo)."""
    position = game.copy()
    history = game.history
    thoughts: Thoughts = {}
    for index in range(len(history) - 1, -1, -1):
        position.undo()
        seat = history[index][0]
        if seat in thinkers:
            thoughts[index] = top_choices(thinkers[seat], position)
    return thoughts


__all__ = ["TOP", "replayed", "top_choices"]
