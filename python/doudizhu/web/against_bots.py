"""A hand being played in the browser: one person against bots, the bots moving server-side.

After every action of the person (and when the hand starts) the bots play their turns
until it is the person's turn again or the hand is over, so the browser only ever waits
in positions where it is its turn to act (or the settlement). The positions on the way
are kept (``shown``: after the person's action, then after each bot's), so the page can
show the bots' replies one at a time, and so are a network bot's top choices
(``thoughts``). Every action goes through the engine's own ``Game.step``: an illegal one
raises the engine's error and changes nothing.
"""

from __future__ import annotations

import secrets

from .._core import Game, Rules, game_seed
from .._person import HUMAN, undo_turn
from .._readings import plays_spending
from ..bots import Bot, Neural
from ..lockstep import choose
from . import players, thinking, views
from .views import Thoughts


class HandAgainstBots:
    """The person's game: ``rules`` a preset name, ``bots`` one name per seat but the person's.
    ``seed_shown``: the person chose the seed, so it may be shown during the hand (one the
    server drew would tell every card)."""

    def __init__(self, rules: str, bots: list[str], seed: int, seed_shown: bool) -> None:
        game = Game(seed=seed, rules=Rules.preset(rules))
        if len(bots) != game.seats - 1:
            raise ValueError(f"bots: give one per seat but yours ({game.seats - 1} for {rules!r})")
        others = [seat for seat in range(game.seats) if seat != HUMAN]
        self.bots: dict[int, Bot] = {seat: players.make(name, game_seed(seed, seat), game.rules)
                                     for seat, name in zip(others, bots)}
        self.bot_names = dict(zip(others, bots))
        self.rules = rules
        self.seed = seed
        self.seed_shown = seed_shown
        # Names this line of play to requests: an action chosen on another hand (an older
        # tab's) or before an undo is refused, where a count of actions alone could match.
        self.id = secrets.token_hex(8)
        self.game = game
        self.shown: list[Game] = []  # the positions since the person last acted, one after each action
        self.thoughts: Thoughts = {}
        self._advance()

    def _advance(self) -> None:
        """The bots' turns, up to the person's next turn or the end of the hand."""
        game = self.game
        while game.phase != "over" and game.to_move != HUMAN:
            seat = game.to_move
            assert seat is not None
            bot = self.bots[seat]
            if isinstance(bot, Neural):
                self.thoughts[len(game.history)] = thinking.top_choices(bot, game)
            game.step(choose(bot, game, len(game.history)))  # the bot sees what its seat may know
            self.shown.append(game.copy())

    def act(self, text: str) -> None:
        """The person's action as text (cards, "pass", "bid 2", "call", ...), then the bots'."""
        if self.game.phase == "over":
            raise ValueError("the hand is over: start a new one")
        self.game.step(text)
        self.shown = [self.game.copy()]
        self._advance()

    def readings(self, text: str) -> list[dict[str, str]]:
        """The legal plays that spend exactly these cards (``text``, what the engine reads
        back; ``label`` and ``kind`` for a person): the choices to offer when the engine
        refuses cards that read as several plays (``333444555666``: an airplane, or one with
        solo kickers) or need a wild card's reading (``5777``: ``5777=7777``)."""
        rules = self.game.rules
        return [{"text": action.text(rules), "label": views.action_label(action, rules), "kind": views.kind(action)}
                for action in plays_spending(self.game, text)]

    def undo(self) -> None:
        """Takes back the person's last action and the bots' actions after it, while the
        hand is in play (once it is over every hand has been shown)."""
        if self.game.phase == "over":
            raise ValueError("the hand is over and every hand has been shown: start a new one")
        taken = undo_turn(self.game)
        if taken is None:
            raise ValueError("nothing to undo yet: you have not acted in this hand")
        self.shown = []
        self.thoughts = {index: choices for index, choices in self.thoughts.items() if index < taken}
        self.id = secrets.token_hex(8)  # the actions' count may come back to a request's by another line


__all__ = ["HUMAN", "HandAgainstBots"]
