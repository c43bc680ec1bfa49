"""The person at a table of bots, in the terminal and in the browser: the seat they take,
and taking back their last action."""

from __future__ import annotations

from ._core import Game

HUMAN = 0  # the person's seat


def undo_turn(game: Game) -> int | None:
    """Takes back the person's last action and the bots' actions after it; the place that
    action had in ``game.history``, or None (nothing taken back) before the person acts."""
    mine = [i for i, (seat, _) in enumerate(game.history) if seat == HUMAN]
    if not mine:
        return None
    for _ in range(len(game.history) - mine[-1]):
        game.undo()
    return mine[-1]


__all__ = ["HUMAN", "undo_turn"]
