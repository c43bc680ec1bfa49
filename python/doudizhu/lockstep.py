"""Games with Python players, many at once in lock-step: the built-in seats play in C++,
then each Python player decides every game waiting on it in one call.

A player of a seat (:data:`Player`) is a built-in policy's name, a bot (``act(game)``, and
optionally ``act_many(games)``: :mod:`doudizhu.bots`) or a :data:`PolicyFn`.
:func:`doudizhu.selfplay` and :func:`doudizhu.evaluate` play their Python players' games
here (:func:`play_many`), and the Gymnasium environment its opponents (:func:`choose`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Union, cast

from . import _core
from ._core import Action, Game
from .bots import Bot, act_many, builtin

#: A custom agent: given what the seat knows and the legal actions, the action to take.
PolicyFn = Callable[[dict[str, Any], Sequence[Action]], Action]
#: A player of one seat: a built-in name, a bot (``act(game)``) or a PolicyFn.
Player = Union[str, Bot, PolicyFn]
Policy = Union[Player, Sequence[Player]]


def seat_players(policy: Policy, seats: int) -> list[Player]:
    """One player a seat: ``policy`` for every seat, or its entries one a seat."""
    if isinstance(policy, (str, Bot)) or callable(policy):
        return [policy] * seats
    if not isinstance(policy, Sequence):
        kind = type(policy).__name__
        raise TypeError(f"policy must be a built-in name, a bot, a callable or one of those per seat, not {kind}")
    players = list(policy)
    if len(players) != seats:
        raise ValueError(f"policy: give one policy, or one per seat ({seats})")
    for player in players:
        if not (isinstance(player, (str, Bot)) or callable(player)):
            raise TypeError(f"policy: a seat's player must be a name, a bot or a callable, not {type(player).__name__}")
    return players


#: How many games the Python runners keep in play at once (see :func:`play_many`).
TABLES = 256
#: A game to play: the game, its players (one a seat) and the stream its built-in seats draw from.
GameToPlay = tuple[Game, Sequence[Player], int]
# A table in play: its index, game, players, their built-in names (None: Python) and stream.
_InPlay = tuple[int, Game, Sequence[Player], list[Union[str, object, None]], int]


def choose(player: Player, game: Game) -> Action:
    """The action a Python player takes in ``game``, checked against the legal actions."""
    return choose_many(player, [game])[0]


def choose_many(player: Player, games: Sequence[Game]) -> list[Action]:
    """The actions a Python player takes in ``games`` (each with one of its seats to move):
    a bot's in one call (:func:`doudizhu.bots.act_many`), each checked against the legal actions."""
    legal = [game.legal_actions() for game in games]
    if isinstance(player, Bot):
        actions = act_many(player, games)
    else:
        assert callable(player)
        # The TypedDict is that dict.
        actions = [player(cast("dict[str, Any]", game.seat_view(cast(int, game.to_move))), moves)
                   for game, moves in zip(games, legal)]
    for action, moves in zip(actions, legal):
        if action not in moves:
            raise ValueError(f"policy returned {action!r}, not one of the legal actions")
    return actions


def play_out(game: Game, players: Sequence[Player], stream: int) -> None:
    """Plays ``game`` to the end: built-in seats in C++ (drawing from ``stream``), the others in Python."""
    for _ in play_many([(game, players, stream)]):
        pass


def play_many(tables: Iterable[GameToPlay]) -> Iterator[tuple[int, Game]]:
    """Plays every table to the end and yields ``(its index in tables, its game)`` as it ends.

    Up to :data:`TABLES` tables are in play at once, in lock-step: the
    built-in seats play in C++, then each Python player decides every table waiting on it in
    one call (:func:`choose_many`), so a batching bot sees them all together. Each game is
    played exactly as :func:`play_out` alone would play it; only the order of a bot's calls
    across games differs."""
    source = enumerate(tables)
    active: list[_InPlay] = []
    while True:
        for index, (game, players, stream) in itertools.islice(source, TABLES - len(active)):
            active.append((index, game, players, [builtin(p) for p in players], stream))
        if not active:
            return
        waiting = []
        for table in active:
            index, game, _, names, stream = table
            _core.play_builtin_seats(game, names, stream)
            if game.phase == "over":
                yield index, game
            else:
                waiting.append(table)
        active = waiting
        for player, games in _by_player(active).values():
            for game, action in zip(games, choose_many(player, games)):
                game.step(action)


def _by_player(active: Sequence[_InPlay]) -> dict[int, tuple[Player, list[Game]]]:
    """The waiting games grouped by the player to move (the same object: one group)."""
    groups: dict[int, tuple[Player, list[Game]]] = {}
    for _, game, players, _, _ in active:
        player = players[cast(int, game.to_move)]
        groups.setdefault(id(player), (player, []))[1].append(game)
    return groups


__all__ = [
    "TABLES", "GameToPlay", "Player", "Policy", "PolicyFn", "choose", "choose_many", "play_many", "play_out",
    "seat_players",
]
