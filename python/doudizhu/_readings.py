"""The plays a person meant by cards alone: what the table offers when the engine refuses
cards that read as several plays or need a wild card's reading."""

from __future__ import annotations

from ._core import Action, Cards, Game


def plays_spending(game: Game, text: str) -> list[Action]:
    """The legal plays of the seat to move that spend exactly the cards ``text`` names
    (none when it names no cards): ``333444555666`` an airplane or one with solo kickers,
    ``5777`` under wild 5s ``5777=7777``."""
    try:
        spent = Cards(text)
    except ValueError:
        return []
    return [action for action in game.legal_actions() if action.move is not None and action.move.spent == spent]
