"""Bots: one protocol for every player the engine can seat.

A bot is any object with ``act(game) -> Action`` that chooses for ``game.to_move`` from
what that seat knows (its hand and what is public: ``game.seat_view(seat)``; it must not
read the other hands). A bot that decides many tables at once more cheaply than one by one
(the neural bots: one forward pass for all of them) may also have ``act_many(games) ->
list[Action]``, the same actions as ``act`` on each game; ``selfplay`` and ``evaluate``
play their tables in lock-step and hand it every table waiting on it in one call
(:func:`act_many` falls back to ``act`` per game). :class:`Random`, :class:`Heuristic`,
:class:`FastHeuristic`, :class:`Neural` and :class:`ISMCTS` are the built-in C++ policies as
bots; wherever a policy is taken (``selfplay``, ``evaluate``,
``playout``, the environments' opponents, the command line) their names
(:data:`doudizhu.POLICIES`) and these objects are interchangeable, and they run in C++
there.

:class:`DeterminizedBot` is a search bot: determinization with the endgame solver and
fast-heuristic rollouts.

:class:`DeterminizedBot` samples worlds the player cannot tell from the real game
(:func:`doudizhu.sample_worlds`) and values each legal action in each world: exactly with
:func:`doudizhu.solve_moves` when few cards are left, otherwise by playing the world out
with the built-in fast heuristic (:func:`doudizhu.playout`; the heuristic's plan without
its endgame search). The action that wins in
the most worlds is played (ties go to the heuristic's own choice). Bidding is left to the
heuristic.

Use it on a :class:`~doudizhu.Game` (``bot.act(game)``), or as a policy::

    bot = DeterminizedBot(worlds=12, seed=1)
    doudizhu.selfplay(10, policy=[bot, "heuristic", "heuristic"])
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import os
import random
from collections.abc import Iterable, Sequence
from typing import Literal, Protocol, runtime_checkable

from ._core import (
    MAX_WORLDS,
    NETWORK_MAGIC,
    Action,
    Game,
    IllegalActionError,
    Network,
    Rules,
    _builtin_bot_action,
    check_bot_parameters,
    checked_int,
    checked_seed,
    choose_action,
    playout,
    plays_in_core,
    sample_worlds,
    shipped_network,
    solve_moves,
)

_MASK64 = (1 << 64) - 1


@runtime_checkable
class Bot(Protocol):
    """A player: the action for ``game.to_move``, from that seat's information only."""

    def act(self, game: Game) -> Action: ...


def act_many(bot: Bot, games: Sequence[Game]) -> list[Action]:
    """``bot``'s action in each of ``games``: one call of its optional ``act_many``, else
    ``act`` per game."""
    games = list(games)  # any iterable: its length is checked against the answer
    many = getattr(bot, "act_many", None)
    if many is None:
        return [bot.act(game) for game in games]
    answer = many(list(games))  # its own list: a bot that empties or extends it changes no count here
    if isinstance(answer, (str, bytes)) or not isinstance(answer, Iterable):
        raise TypeError(f"the bot {type(bot).__name__}'s act_many must return one action per game, "
                        f"not {type(answer).__name__}")
    actions = list(itertools.islice(answer, len(games) + 1))  # an endless answer read no further
    if len(actions) != len(games):
        returned = f"more than {len(games)}" if len(actions) > len(games) else str(len(actions))
        raise ValueError(f"the bot {type(bot).__name__}'s act_many returned {returned} actions "
                         f"for {len(games)} games")
    return actions


class Random:
    """The built-in uniform policy: each distinct legal action equally likely.

    ``seed`` makes a bot's own ``act`` calls repeatable (None: a fresh seed, kept in
    ``seed``); where a runner plays it in C++ (``selfplay``, ``evaluate``, ``playout``,
    ``rollouts``, ``ismcts``, ``VectorEnv`` and the environments' opponents) the runner's
    seeded stream is used instead."""

    name = __builtin_policy__ = "random"  # the C++ policy it is, wherever a policy is taken

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # None draws one

    @property
    def seed(self) -> int:
        """The seed the bot's stream began from; set, the stream begins again from it."""
        return self._seed

    @seed.setter
    def seed(self, seed: int | None) -> None:
        self._seed = checked_seed(seed)
        self._rng = random.Random(self._seed)

    def __setstate__(self, state: dict[str, object]) -> None:
        """Reads a pickle of an earlier build as well: its seed a plain attribute, or
        not kept (the stream goes on; the seed it began from is drawn for the repr)."""
        state = dict(state)
        state["_seed"] = checked_seed(state.pop("seed", state.get("_seed")))  # type: ignore[arg-type]
        self.__dict__.update(state)

    def act(self, game: Game) -> Action:
        # The stream's next seed is drawn once the call is checked: a refused call uses none.
        return _builtin_bot_action(game, self, self._next_seed)

    def _next_seed(self) -> int:
        return self._rng.getrandbits(64)

    def __repr__(self) -> str:
        return f"Random(seed={self.seed})"


class _Deterministic:
    """A built-in policy that draws nothing: its choice is a function of the game."""

    name: str

    def act(self, game: Game) -> Action:
        return _builtin_bot_action(game, self, 0)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class Heuristic(_Deterministic):
    """The built-in rule-based policy (docs/guide/bots.md): deterministic."""

    name = __builtin_policy__ = "heuristic"


class FastHeuristic(_Deterministic):
    """The built-in heuristic without its endgame search (docs/guide/bots.md): deterministic,
    weaker, and tens of times cheaper on average (self-play of whole games: about 40 times
    under ``standard``, 50 under ``douzero``); for generating data and for learners'
    opponents."""

    name = __builtin_policy__ = "fast_heuristic"


def _check_when_made(bot: object, cls: type) -> None:
    """A built-in bot's parameters refused as it is made, and again wherever it plays (they
    may change). A subclass may set its own after ``super().__init__``: only where it plays."""
    if type(bot) is cls:
        check_bot_parameters(bot)


class Neural:
    """The learned policy in C++ (``"neural"``, docs/guide/learned_bot.md): the network
    shipped with the package, or a network file of your own (``path``: what
    ``doudizhu train`` exports). Plays DouZero's setting (three seats of 17 cards and a
    kitty of 3, one deck, no wild cards), bids with its bid networks (the heuristic's bids
    where the file has none), deterministic.
    ``doudizhu.NetworkError`` names what is wrong with a file that cannot be read, or with
    rules the networks cannot play."""

    name = __builtin_policy__ = "neural"

    def __init__(self, path: str | os.PathLike[str] | None = None, endgame: bool = True) -> None:
        self.network = Network(path) if path is not None else None  # None: the shipped one; path checked
        self.path = None if path is None else os.path.abspath(path)  # a pickle read elsewhere finds it
        self.endgame = endgame
        _check_when_made(self, Neural)

    def act(self, game: Game) -> Action:
        return _builtin_bot_action(game, self, 0)

    def check(self, rules: Rules) -> None:
        """Raises ``doudizhu.NetworkError`` naming why the networks cannot play under
        ``rules``, before a game is dealt."""
        (self.network or shipped_network()).check(rules)

    def __copy__(self) -> Neural:
        """The same networks (a Network never changes), whatever the file holds now; a
        subclass's copy is of its class."""
        twin = type(self).__new__(type(self))
        twin.__dict__.update(self.__dict__)
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> Neural:
        """As :meth:`__copy__`, every other attribute (a subclass's own) copied deeply (a
        Network is its own copy)."""
        twin = type(self).__new__(type(self))
        memo[id(self)] = twin
        twin.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return twin

    def __getstate__(self) -> dict[str, object]:
        """A pickle holds the file's absolute path, not the network read (a Network does not
        pickle): unpickling reads the file again, as ``Neural(path)`` would."""
        return {**self.__dict__, "network": None}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self.network = Network(self.path) if self.path is not None else None

    def __repr__(self) -> str:
        args = [repr(self.path)] if self.path is not None else []
        return f"Neural({', '.join(args + ([] if self.endgame is True else [f'endgame={self.endgame!r}']))})"


#: The name of the network file a recipe run (``doudizhu train --recipe neural``) finishes
#: with in its folder.
NETWORK_FILE = "neural.ddzn"


def is_network_file(path: object) -> bool:
    """Whether ``path`` names a file that begins as a network file (:class:`Neural`'s) does."""
    if not isinstance(path, (str, os.PathLike)) or not os.path.isfile(path):
        return False
    with open(path, "rb") as file:
        return file.read(len(NETWORK_MAGIC)) == NETWORK_MAGIC


def builtin(policy: object) -> str | object | None:
    """``policy`` if the engine plays it in C++ (a policy name, or a bot whose class names
    its C++ policy: the built-in bots and :class:`Neural`), else None. A subclass of a
    built-in bot with an ``act`` or ``act_many`` of its own is a Python bot: its methods
    are what it plays (they may still call the built-in's)."""
    return policy if plays_in_core(policy) else None


class ISMCTS:
    """Information-set Monte-Carlo tree search in the core, the built-in policy ``"ismcts"``
    with parameters of one's own (docs/guide/search.md): at each play ``simulations``
    simulations (:func:`doudizhu.ismcts`), each on a deal of the hidden cards drawn from what
    the seat knows, played on by the built-in ``rollout`` policy (any but ISMCTS); the
    heuristic's planned action (the fast heuristic's choice) is played unless the action
    simulated most has a mean result higher by more than one standard error of the
    difference, and with ``endgame`` the heuristic's endgame search then checks it once 18
    cards or fewer are left (a two-hand position at any size). Bids as the heuristic. Runs in C++
    wherever a policy is taken; deterministic: ``act`` searches from ``seed`` and the number
    of actions taken; a runner that plays it in C++ (``selfplay``, ``evaluate``, ``playout``,
    ``rollouts``, ``VectorEnv``, the environments' opponents) from its own seeded stream. With
    ``seconds`` each search also ends once that much wall time has passed, and the endgame
    search after it within as long again (a budget of time a play; ``simulations=None`` for
    time alone), and the bot is no longer repeatable. With
    ``leaf="values"`` a new node is valued by the learned policy's networks instead of played
    out (the rollout's if it is neural, else the shipped ones; the rules must be theirs); the
    rollout policy still chooses the action a node expands first.
    Parameters are checked when the bot is made (a subclass's only where it plays, as it may
    set them after ``super().__init__``) and where it plays (TypeError, ValueError naming
    the one refused)."""

    name = __builtin_policy__ = "ismcts"

    def __init__(self, simulations: int | None = 1000, rollout: str | object = "fast_heuristic",
                 exploration: float = 0.7, seed: int | None = 0, threads: int = 1, endgame: bool = True,
                 seconds: float | None = None, leaf: Literal["rollout", "values"] = "rollout") -> None:
        self.simulations, self.rollout, self.exploration, self.threads = simulations, rollout, exploration, threads
        self.seconds, self.leaf = seconds, leaf
        self.endgame = endgame
        self.seed = checked_seed(seed)
        _check_when_made(self, ISMCTS)

    def act(self, game: Game) -> Action:
        return _builtin_bot_action(game, self, self.seed)

    def __repr__(self) -> str:
        return (f"ISMCTS(simulations={self.simulations}, rollout={self.rollout!r}, exploration={self.exploration}, "
                f"seed={self.seed}, threads={self.threads}"
                + ("" if self.endgame is True else f", endgame={self.endgame!r}")
                + ("" if self.seconds is None else f", seconds={self.seconds}")
                + ("" if self.leaf == "rollout" else f", leaf={self.leaf!r}") + ")")


class DeterminizedBot:
    """Plays by sampling worlds and valuing the legal actions in each.

    ``worlds``: how many worlds per decision (1..100,000, ``sample_worlds``' most).
    ``solve_cards``: a world whose hands hold at most this many cards in all is solved
    exactly (0: never; ``node_limit`` nodes at most per world, at least 1; past it, or in
    larger worlds, each action is valued by one playout of the fast heuristic). ``max_actions``: the
    most actions valued in a decision (1..1,000,000); where more are legal (a lead with
    two wild ranks has thousands), the heuristic's and the fast heuristic's choices and
    a seeded draw of the rest. ``seed`` makes the bot's choices repeatable. An argument
    out of its range raises ValueError, of another type TypeError, naming it, as the bot
    is made and again at each decision (the parameters are attributes, and may change).
    """

    def __init__(
        self,
        worlds: int = 12,
        solve_cards: int = 16,
        node_limit: int = 20_000,
        seed: int | None = 0,
        max_actions: int = 256,
    ) -> None:
        self.worlds, self.solve_cards, self.node_limit, self.max_actions = worlds, solve_cards, node_limit, max_actions
        self.seed = checked_seed(seed)
        self._check_parameters()
        self._calls = 0

    def _check_parameters(self) -> None:
        """Refuses a parameter out of its range or of another type, as the bot is made and
        again wherever it plays (they are attributes, and may change)."""
        self.worlds = checked_int(self.worlds, "worlds", 1, MAX_WORLDS)
        self.solve_cards = checked_int(self.solve_cards, "solve_cards", 0, 1_000)
        self.node_limit = checked_int(self.node_limit, "node_limit", 1, 2**63 - 1)
        self.max_actions = checked_int(self.max_actions, "max_actions", 1, 1_000_000)
        self.seed = checked_seed(self.seed)

    def act(self, game: Game) -> Action:
        """The action for the player to move in ``game`` (which it reads only as that
        player may: its own hand and what is public)."""
        if not isinstance(game, Game):
            raise TypeError(f"game must be a Game, not {type(game).__name__}")
        self._check_parameters()
        game = game.copy()  # every read of one state, should another thread step the caller's game
        seat = game.to_move
        if seat is None:  # as every bot says it
            raise IllegalActionError("the hand is over: no action to choose")
        legal = game.legal_actions()
        seed = self._next_seed()
        fallback = choose_action(game, "heuristic", seed)
        if len(legal) == 1 or game.phase != "playing":
            return fallback
        chosen = self._chosen(game, legal, fallback, seed)
        wins = [0] * len(legal)
        for world in sample_worlds(game, seat, self.worlds, seed):
            for i, won in zip(chosen, self._values(world, seat, legal, chosen, seed)):
                wins[i] += won
        best = max(wins[i] for i in chosen)
        if wins[legal.index(fallback)] == best:
            return fallback
        return legal[next(i for i in chosen if wins[i] == best)]

    def _chosen(self, game: Game, legal: list[Action], fallback: Action, seed: int) -> list[int]:
        """The indices in ``legal`` of the actions to value, ascending: all of them, or at
        most ``max_actions``: the heuristics' choices first, then a seeded draw."""
        if len(legal) <= self.max_actions:
            return list(range(len(legal)))
        first = dict.fromkeys(legal.index(a) for a in (fallback, choose_action(game, "fast_heuristic", seed)))
        rest = [i for i in range(len(legal)) if i not in first]
        drawn = random.Random(seed).sample(rest, max(0, self.max_actions - len(first)))
        return sorted([*first][:self.max_actions] + drawn)

    def _values(self, world: Game, seat: int, legal: list[Action], chosen: list[int], seed: int) -> list[int]:
        """For each action of ``chosen`` (indices in ``legal``): 1 where taking it wins
        ``world`` for ``seat``'s side, else 0."""
        cards = sum(len(world.hand(s)) for s in range(world.seats))
        exact: list[bool | None] = [None] * len(legal)
        if cards <= self.solve_cards:
            # Rules the solver does not play (run_fast) raise, the only ValueError left once act
            # checked node_limit: playouts value every action.
            with contextlib.suppress(ValueError):
                exact = [won for _, won in solve_moves(world, node_limit=self.node_limit, tt_megabytes=2)]
        values = []
        for i in chosen:
            won = exact[i]
            if won is None:
                child = world.copy()
                child.step(legal[i])
                # The fast heuristic: a rollout is an estimate, and the world is searched
                # exactly once few cards are left anyway.
                end = playout(child, "fast_heuristic", seed) if child.phase != "over" else child
                result = end.result
                # The seat's side won; without a landlord (run_fast) the seat went out first.
                first_out = result.winner if result is not None else None
                won = result is not None and (result.payouts[seat] > 0 if first_out is None else first_out == seat)
            values.append(int(won))
        return values

    def __repr__(self) -> str:
        return (f"DeterminizedBot(worlds={self.worlds}, solve_cards={self.solve_cards}, node_limit={self.node_limit}, "
                f"seed={self.seed}, max_actions={self.max_actions})")

    def __setstate__(self, state: dict[str, object]) -> None:
        """Reads a pickle of an earlier build as well, whose seed was ``_seed``."""
        state = dict(state)
        if "_seed" in state:
            state["seed"] = state.pop("_seed")
        self.__dict__.update(state)

    def _next_seed(self) -> int:
        self._calls += 1
        return (self.seed * 0x9E3779B97F4A7C15 + self._calls) & _MASK64


def __getattr__(name: str) -> object:
    """The neural bots, from doudizhu.neural, imported on first use (they need PyTorch)."""
    if name in ("DouZeroBot", "TorchBot"):
        from . import neural

        return getattr(neural, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ISMCTS", "Bot", "DeterminizedBot", "FastHeuristic", "Heuristic", "Neural", "Random", "act_many", "builtin",
           "is_network_file"]
