"""An example search bot: determinization with the endgame solver and heuristic rollouts.

:class:`DeterminizedBot` samples worlds the player cannot tell from the real game
(:func:`doudizhu.sample_worlds`) and values each legal action in each world: exactly with
:func:`doudizhu.solve_moves` when few cards are left, otherwise by playing the world out
with the built-in heuristic policy (:func:`doudizhu.playout`). The action that wins in
the most worlds is played (ties go to the heuristic's own choice). Bidding is left to the
heuristic.

Use it on a :class:`~doudizhu.Game` (``bot.act(game)``), or as a self-play policy::

    bot = DeterminizedBot(worlds=12, seed=1)
    doudizhu.selfplay(10, policy=bot)           # the hook passes (observation, legal)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ._core import Action, ActionType, Cards, Game, Rules, choose_action, playout, sample_worlds, solve_moves

_SEATS = 3
_HAND = 17
_MASK63 = (1 << 63) - 1
#: The 54 cards, as counts per rank 3..2, B, R.
_DECK = (4,) * 13 + (1, 1)
_AUCTION = (ActionType.BID, ActionType.CALL, ActionType.ROB)


class DeterminizedBot:
    """Plays by sampling worlds and valuing every legal action in each.

    ``worlds``: how many worlds per decision. ``solve_cards``: a world whose hands hold
    at most this many cards in all is solved exactly (``node_limit`` nodes at most per
    world; past it, or in larger worlds, each action is valued by one heuristic playout).
    ``seed`` makes the bot's choices repeatable; ``rules`` are needed only when it is
    used through the self-play hook (an observation does not carry them).
    """

    def __init__(
        self,
        worlds: int = 12,
        solve_cards: int = 16,
        node_limit: int = 20_000,
        seed: int = 0,
        rules: Rules | None = None,
    ) -> None:
        if worlds < 1:
            raise ValueError("worlds must be at least 1")
        self.worlds = worlds
        self.solve_cards = solve_cards
        self.node_limit = node_limit
        self.rules = rules if rules is not None else Rules()
        self._seed = seed & _MASK63
        self._calls = 0

    def act(self, game: Game) -> Action:
        """The action for the player to move in ``game`` (which it reads only as that
        player may: its own hand and what is public)."""
        seat = game.to_move
        if seat is None:
            raise ValueError("the hand is over")
        legal = game.legal_actions()
        seed = self._next_seed()
        if len(legal) == 1 or game.phase != "playing":
            return choose_action(game, "heuristic", seed)
        wins = [0] * len(legal)
        for world in sample_worlds(game, seat, self.worlds, seed):
            for i, won in enumerate(self._values(world, seat, legal, seed)):
                wins[i] += won
        fallback = choose_action(game, "heuristic", seed)
        best = max(wins)
        if wins[legal.index(fallback)] == best:
            return fallback
        return legal[wins.index(best)]

    def __call__(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """The self-play hook: rebuilds a game consistent with ``observation`` (a dealt
        game; the hidden cards placed arbitrarily, which the worlds then redeal) and acts."""
        action = self.act(game_from_observation(observation, self.rules))
        if action not in legal:
            raise ValueError(f"{action!r} is not among the legal actions")
        return action

    def _values(self, world: Game, seat: int, legal: list[Action], seed: int) -> list[int]:
        """1 where taking the action wins ``world`` for ``seat``'s side, else 0."""
        cards = sum(len(world.hand(s)) for s in range(world.seats))
        exact: list[bool | None] = [None] * len(legal)
        if cards <= self.solve_cards:
            exact = [won for _, won in solve_moves(world, node_limit=self.node_limit, tt_megabytes=2)]
        values = []
        for action, won in zip(legal, exact):
            if won is None:
                child = world.copy()
                child.step(action)
                end = playout(child, "heuristic", seed) if child.phase != "over" else child
                result = end.result
                won = result is not None and result.landlord_won == (seat == world.landlord)
            values.append(int(won))
        return values

    def _next_seed(self) -> int:
        self._calls += 1
        return (self._seed * 0x9E3779B97F4A7C15 + self._calls) & _MASK63


def _counts(cards: Cards) -> list[int]:
    return list(cards.counts)


def game_from_observation(observation: Mapping[str, Any], rules: Rules) -> Game:
    """A dealt game that agrees with ``observation`` (``Game.seat_view(seat)``): the
    seat's hand, the plays, hand sizes, shown kitty and this deal's actions; the cards the
    seat cannot see are placed in some consistent way (not at random)."""
    seat: int = observation["seat"]
    landlord: int | None = observation["landlord"]
    if len(observation["hand_sizes"]) != _SEATS:
        raise ValueError("only observations of dealt three-seat games can be rebuilt")
    played = [_counts(p) for p in observation["played"]]
    kitty = _counts(observation["kitty"]) if observation["kitty"] is not None else None
    # Per seat, the cards its deal must hold: the seat's own, or what it played (the
    # landlord's plays beyond the kitty's cards).
    deal = [[0] * 15 for _ in range(_SEATS)]
    for s in range(_SEATS):
        for r in range(15):
            if s == seat:
                deal[s][r] = observation["hand"].counts[r] + played[s][r]
            else:
                deal[s][r] = played[s][r]
            if s == landlord and kitty is not None:
                deal[s][r] = max(deal[s][r] - kitty[r], 0) if s != seat else deal[s][r] - kitty[r]
    free = [_DECK[r] - sum(deal[s][r] for s in range(_SEATS)) - (kitty[r] if kitty else 0) for r in range(15)]
    pool = [r for r in range(15) for _ in range(free[r])]
    for s in range(_SEATS):
        need = _HAND - sum(deal[s])
        for r in pool[:need]:
            deal[s][r] += 1
        pool = pool[need:]
    kitty_counts = kitty if kitty is not None else [pool.count(r) for r in range(15)]
    hands = [Cards.from_counts(d) for d in deal]
    history: list[tuple[int, Action]] = observation["history"]
    given = landlord if landlord is not None and not any(a.type in _AUCTION for _, a in history) else None
    first_bidder = observation["bidding"]["first_bidder"]
    game = Game.from_deal(
        hands, Cards.from_counts(kitty_counts), first_bidder=first_bidder, landlord=given, rules=rules
    )
    for _, action in history:
        game.step(action)
    return game


__all__ = ["DeterminizedBot", "game_from_observation"]
