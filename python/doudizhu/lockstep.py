"""Python players at the core's tables: the built-in seats play in C++, then each Python
player decides every table waiting on it in one call.

A player of a seat (:data:`Player`) is a built-in policy's name, a bot (``act(game)``, and
optionally ``act_many(games)``: :mod:`doudizhu.bots`) or a :data:`PolicyFn`.
:func:`doudizhu.selfplay` and :func:`doudizhu.evaluate` run their games on the core's
table runner (:func:`run_tables`), and the Gymnasium environment asks its opponents
here (:func:`choose`). A Python player is handed what its seat may know: a game whose
hidden cards are re-dealt consistently with it, so no bot can read the other hands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Union, cast

import numpy as np

from . import _core
from ._core import Action, Game, IllegalActionError, Rules
from ._shown import a_type, shown
from ._signatures import check_callable, refusing_signature
from .bots import Bot, act_many

#: A custom agent: given what the seat knows and the legal actions, the action to take.
PolicyFn = Callable[[dict[str, Any], Sequence[Action]], Action]
#: A player of one seat: a built-in name, a bot (``act(game)``) or a PolicyFn.
Player = Union[str, Bot, PolicyFn]
Policy = Union[Player, Sequence[Player]]


def seat_players(policy: Policy, seats: int, what: str = "policy") -> list[Player]:
    """One player a seat: ``policy`` for every seat, or its entries one a seat; errors name
    the argument as ``what``."""
    if isinstance(policy, (str, Bot)) or callable(policy):
        check_player(policy, what)
        return [policy] * seats
    if not isinstance(policy, Sequence) or isinstance(policy, (bytes, bytearray)):  # bytes: a sequence of ints
        kind = type(policy).__name__
        raise TypeError(f"{what} must be a built-in name, a bot, a callable or one of those per seat, not {kind}")
    players = list(policy)
    if len(players) != seats:
        raise ValueError(f"{what}: give one policy, or one per seat ({seats})")
    for seat, player in enumerate(players):
        check_player(player, f"{what}[{seat}]")
    return players


def check_player(player: object, what: str) -> None:
    """TypeError naming ``what`` unless ``player`` is a built-in name, a bot or a callable
    that takes (view, legal_actions) (a callable of another signature failed only when
    first called, with Python's bare count of arguments). A bot's class is refused: it has
    an ``act``, but no bot to call it on."""
    if isinstance(player, type):
        raise TypeError(f"{what}: {player.__name__} is a class; give a bot, such as {player.__name__}()")
    if isinstance(player, str):
        return
    if _core.plays_in_core(player):  # a built-in bot: its parameters, refused naming whose they are
        try:
            _core.check_bot_parameters(player)
        except Exception as error:
            if type(error) in (TypeError, ValueError):  # the core's refusal of a parameter: named by role
                raise type(error)(f"{what}: {error}") from None
            _add_note(error, f"raised checking {what}'s parameters")  # the bot's own code's: kept whole
            raise
        return
    if isinstance(player, Bot) or hasattr(player, "act_many"):
        _check_bot_methods(player, what)
        return
    if not callable(player):
        raise TypeError(f"{what} must be a name, a bot or a callable, not {type(player).__name__}")
    signature = refusing_signature(player, ({}, []))
    if signature is not None:
        raise TypeError(f"{what}: a policy function is called as policy(view, legal_actions), and "
                        f"{getattr(player, '__name__', type(player).__name__)}{signature} cannot be")


def check_rules(players: Sequence[Player], rules: Rules, roles: Sequence[str] | None = None) -> None:
    """Asks each Python bot that says which rules it can play (a ``check(rules)`` method,
    as :class:`doudizhu.neural.TorchBot` has) before a game is dealt, passing on what it
    raises with who raised it, so that a run is refused at its start rather than in its
    first game. The built-in players are checked in the core. ``roles`` as for
    :func:`run_tables`."""
    for player in {id(player): player for player in players}.values():
        check = getattr(player, "check", None)
        if isinstance(player, Bot) and callable(check) and not _core.plays_in_core(player):
            try:
                check(rules)
            except Exception as error:
                _add_note(error, f"raised by {_who(player)} checking the rules")
                _note_role(error, player, players, roles)
                raise


def _check_bot_methods(bot: object, what: str) -> None:
    """TypeError naming ``what`` unless ``bot`` has an ``act`` and its ``act`` and
    ``act_many`` (optional: None is none) can be called."""
    kind = type(bot).__name__
    if not hasattr(bot, "act"):
        raise TypeError(f"{what}: the bot {kind} has act_many but no act(game)")
    for method in ("act", "act_many"):
        found = getattr(bot, method, None)
        if found is not None and not callable(found):
            raise TypeError(f"{what}: the bot {kind}'s {method} must be a method, not {type(found).__name__}")


def choose(player: Player, game: Game, seed: int) -> Action:
    """The action ``player`` takes in ``game``, checked against the legal actions. A Python
    player is handed what the seat to move may know: ``game`` with the hidden cards
    re-dealt from ``seed`` (:func:`doudizhu.sample_worlds`), as the table runner hands it;
    a built-in one plays in the core (:func:`doudizhu.choose_action`, ``seed`` its draws)."""
    check_player(player, "player")
    _core.checked_seed(seed, none_draws=False)  # None refused for every player, as the core's choose_action does
    if _core.plays_in_core(player):
        return _core.choose_action(game, player, seed)
    _check_turn(game)
    return choose_many(player, [_core.sample_worlds(game, cast(int, game.to_move), 1, seed)[0]])[0]


def choose_many(player: Player, games: Sequence[Game]) -> list[Action]:
    """The actions a bot or a :data:`PolicyFn` takes in ``games`` (each
    with one of its seats to move): a bot's in one call (:func:`doudizhu.bots.act_many`),
    each checked against the legal actions. A built-in policy's name is refused: it plays
    in the core, each decision with draws of its own (:func:`choose`,
    :func:`doudizhu.choose_action`)."""
    check_player(player, "player")
    if isinstance(player, str):
        raise TypeError(f"choose_many takes a bot or a policy function; the policy {player!r} plays in the core: "
                        "doudizhu.choose_action(game, policy, seed) for each game")
    for game in games:
        _check_turn(game)
    # Read before the bot acts: a bot may step the game it was handed (its own copy).
    seats = [cast(int, game.to_move) for game in games]
    legal = [game.legal_actions() for game in games]
    if isinstance(player, Bot) and getattr(player, "act_many", None) is not None:
        try:
            actions = act_many(player, games)
        except Exception as error:  # the bot's own error, passed on with who raised it (Python 3.11's notes)
            _add_note(error, f"raised by {_who(player)} choosing for seat {', '.join(map(str, sorted(set(seats))))}")
            raise
    else:
        actions = [_one_action(player, game, seat, moves) for game, seat, moves in zip(games, seats, legal)]
    for seat, action, moves in zip(seats, actions, legal):
        # Only an Action itself can be legal: `in` would ask an array's truth value and fail,
        # and a subclass's (or a pretender's) __eq__ could call itself equal to any action.
        if type(action) is not Action or action not in moves:
            kind = "" if type(action) is Action else f" ({a_type(action)}, not an Action)"
            given = repr(action) if type(action) is Action else shown(action)  # a user's object's repr may fail
            raise IllegalActionError(f"{_who(player)} at seat {seat} returned {given}{kind}, "
                                     f"not one of the {len(moves)} legal actions")
    return actions


def _one_action(player: Player, game: Game, seat: int, moves: list[Action]) -> Action:
    """A bot's ``act`` or a policy function's answer in one game, an error it raises
    noted with the seat it chose for."""
    try:
        if isinstance(player, Bot):
            return player.act(game)
        assert callable(player)
        # The TypedDict is that dict. Each call gets its own list: what the policy does to
        # it cannot change the check of its answer.
        return player(cast("dict[str, Any]", game.seat_view(seat)), list(moves))
    except Exception as error:
        _add_note(error, f"raised by {_who(player)} choosing for seat {seat}")
        raise


def _check_turn(game: object) -> None:
    """TypeError unless ``game`` is a Game, IllegalActionError once its hand is over."""
    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game, not {type(game).__name__}")
    if game.to_move is None:
        raise IllegalActionError("the hand is over: no action to choose")


def _add_note(error: BaseException, note: str) -> None:
    """Adds ``note`` to ``error`` (Python 3.11's notes) unless it is there already: a bot
    that calls itself through the runner until the recursion fails would add one a level."""
    if hasattr(error, "add_note") and note not in getattr(error, "__notes__", ()):
        error.add_note(note)


def _who(player: Player) -> str:
    """A player as errors name it: its class, or a function's name."""
    named = getattr(player, "__name__", player)
    return f"the bot {type(player).__name__}" if isinstance(player, Bot) else f"the policy {named!r}"


def run_tables(
    run: _core.TableRun,
    players: Sequence[Player],
    progress: Callable[[int, int], None] | None = None,
    roles: Sequence[str] | None = None,
) -> None:
    """Plays a run of the core's table runner to its end. ``players[k]`` is outside player
    k; every batch of tables waiting on the same player object goes to it in one call
    (:func:`choose_many`), each table as the game its seat may know (``run.views``).
    ``roles[k]`` names player k in an error it raises (two bots of one class are told
    apart by it)."""
    if progress is not None:  # refused before any game: built-in seats may play them all before its first call
        check_callable(progress, (0, 0), "progress")
    total = run.games
    if progress is not None:  # the run has begun: built-in seats may play every game in the first advance
        progress(run.finished, total)
    while True:
        tables, waiting_on = run.advance()
        if progress is not None:
            progress(run.finished, total)
        if len(tables) == 0:
            return
        for player, chosen in _by_player(players, tables, waiting_on):
            try:
                actions = choose_many(player, run.views(chosen))
            except Exception as error:
                _note_role(error, player, players, roles)
                raise
            run.apply(chosen, actions)


def _note_role(error: BaseException, player: Player, players: Sequence[Player], roles: Sequence[str] | None) -> None:
    """Notes the role ``player`` has among ``players`` (``roles[k]`` names player k) when
    it has one: two bots of one class are told apart by it."""
    named = [role for role, p in zip(roles or (), players) if p is player]
    if len(named) == 1:
        _add_note(error, f"{_who(player)} here is {named[0]}")


def _by_player(
    players: Sequence[Player], tables: np.ndarray[Any, Any], waiting_on: np.ndarray[Any, Any]
) -> list[tuple[Player, list[int]]]:
    """The waiting tables grouped by the player object to move (one object, one group)."""
    groups: dict[int, tuple[Player, list[int]]] = {}
    for table, k in zip(tables.tolist(), waiting_on.tolist()):
        if k >= len(players):
            raise ValueError(f"players: the run waits on outside player {k}, and {len(players)} were given")
        player = players[k]
        groups.setdefault(id(player), (player, []))[1].append(table)
    return list(groups.values())


__all__ = ["Player", "Policy", "PolicyFn", "check_player", "check_rules", "choose", "choose_many", "run_tables",
           "seat_players"]
