"""Self-play: many whole games, generated in C++ on all cores, returned as NumPy arrays
(:func:`selfplay`, exported as ``doudizhu.selfplay``, and its :class:`SelfPlayResult`).
Games with Python players run on the same table runner (:mod:`doudizhu.lockstep`)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from . import _core, _saved
from ._core import ACTION_DTYPE, Game, IllegalActionError, Rules, actions_from_rows
from ._extras import missing_extra
from ._ray import joined, ray_head
from ._whole_file import whole_file
from .bots import builtin
from .lockstep import Policy, check_rules, run_tables, seat_players

MAX_GAMES = 10**12  # a bound for arguments, far past what memory holds
_PER_GAME = _saved.PER_GAME


@dataclasses.dataclass(frozen=True)
class SelfPlayResult:
    """One row per game. ``hands`` (n, players) and ``kitty`` are the masks of the deal
    that was played, ``payouts`` (n, players) the settlement; ``landlord`` is -1 for a void
    hand; ``moves`` counts plays and passes after the auction; ``wild`` is the deal's wild
    rank (laizi; the lower one under laizi2), -1 without wild cards, and ``wild_high`` the
    higher wild rank under laizi2 (-1 otherwise); ``partner`` the landlord's partner under
    four_partner (-1: alone, or no partner rule); ``winner`` the first out of a hand without
    a landlord (run_fast; -1 otherwise). With ``record``, game i's actions are
    ``actions[offsets[i]:offsets[i + 1]]``
    (rows of :data:`ACTION_DTYPE`; :func:`doudizhu.actions_from_rows` turns them back into
    actions)."""

    hands: npt.NDArray[np.uint64]
    kitty: npt.NDArray[np.uint64]
    landlord: npt.NDArray[np.int8]
    landlord_won: npt.NDArray[np.bool_]
    base: npt.NDArray[np.int32]
    multiplier: npt.NDArray[np.int32]
    moves: npt.NDArray[np.int32]
    redeals: npt.NDArray[np.int32]
    wild: npt.NDArray[np.int8]
    wild_high: npt.NDArray[np.int8]
    partner: npt.NDArray[np.int8]
    winner: npt.NDArray[np.int8]
    payouts: npt.NDArray[np.int64]
    actions: npt.NDArray[np.void] | None = None
    offsets: npt.NDArray[np.int64] | None = None

    def __len__(self) -> int:
        return len(self.landlord)

    def __repr__(self) -> str:
        """A summary: the arrays of a few hundred games in full would run to thousands of lines."""
        recorded = "" if self.actions is None else f", actions={len(self.actions)}"
        return f"SelfPlayResult(games={len(self)}, seats={self.hands.shape[1]}{recorded})"

    def game(self, i: int, seed: int = 0, rules: Rules | None = None, first: int = 0) -> Game:
        """Game ``i`` of this result as a :class:`~doudizhu.Game`, played to its end: dealt as
        ``selfplay(..., seed=seed, rules=rules, first=first)`` dealt it (its deal seed and first
        bidder), then its recorded actions stepped; so it can be saved as a record, replayed
        or shown. Needs a run made with ``record=True``. ValueError when ``seed``, ``rules`` or
        ``first`` are not the run's: the deal they give is not the one saved, or the hand
        settles otherwise than the run's row (rules that deal and play alike but score
        otherwise: another multiplier cap, ``happy``'s doubling)."""
        if self.actions is None or self.offsets is None:
            raise ValueError("game() replays recorded actions: run selfplay with record=True")
        i = _core.checked_int(i, "i", 0, len(self) - 1)
        rules = rules if rules is not None else Rules()
        index = _core.checked_int(first, "first", 0, MAX_GAMES) + i
        deal_seed, first_bidder, _ = _core.selfplay_deal(rules, seed, index)
        game = Game(seed=deal_seed, rules=rules, first_bidder=None if rules.each_for_self else first_bidder)
        other_run = f"game {i} is not the run's with seed {seed}, these rules and first {first}"
        moves = 0
        try:
            for _, action in actions_from_rows(self.actions[self.offsets[i] : self.offsets[i + 1]]):
                moves += game.phase == "playing"  # as selfplay counts them: plays and passes
                game.step(action)
        except IllegalActionError as error:  # another deal: the saved actions do not fit it
            raise ValueError(f"{other_run}: the saved actions do not fit its deal") from error
        if game.result is None:  # a file's actions cut short (its moves column made to agree)
            raise ValueError(f"{other_run}: its saved actions end before the hand does")
        replayed = self._row_of(game, moves)
        for name, value in replayed.items():
            saved = getattr(self, name)[i]
            if saved.tolist() != value:
                raise ValueError(f"{other_run}: its {name} is {value}, where the run saved {saved.tolist()}")
        return game

    @staticmethod
    def _row_of(game: Game, moves: int) -> dict[str, Any]:
        """The row selfplay saves for a finished ``game`` of ``moves`` plays and passes."""
        hands, kitty, wild = game.deals[-1]
        wild_ranks = () if wild is None else wild if isinstance(wild, tuple) else (wild,)
        settled = game.result
        assert settled is not None  # game() replays only a finished hand
        return {
            "hands": [hand.mask for hand in hands], "kitty": kitty.mask, "payouts": list(settled.payouts),
            "landlord": settled.landlord, "landlord_won": settled.landlord_won, "base": settled.base,
            "multiplier": settled.multiplier, "moves": moves, "redeals": game.redeals,
            "wild": wild_ranks[0] if wild_ranks else -1, "wild_high": wild_ranks[1] if len(wild_ranks) > 1 else -1,
            "partner": -1 if settled.partner is None else settled.partner,
            "winner": -1 if settled.winner is None else settled.winner,
        }

    @property
    def landlord_win_rate(self) -> float:
        """The share of the hands played with a landlord that the landlord's side won; NaN
        where none was (every hand void, none at all, or rules without a landlord: Run Fast)."""
        played = self.landlord >= 0
        return float(self.landlord_won[played].mean()) if played.any() else float("nan")

    def save(self, path: str | os.PathLike[str] | IO[bytes]) -> None:
        """Writes the arrays in ``.npz`` form to the file ``path`` names, as named (no suffix
        added) and whole or not at all, or to a binary file object."""
        arrays = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        if self.actions is not None:
            # .npz keeps no padded record layout: the words of each row
            arrays["actions"] = _raw(self.actions).reshape(len(self.actions), _ROW_WORDS)
        kept = {k: v for k, v in arrays.items() if v is not None}
        if not isinstance(path, (str, os.PathLike)):
            if not callable(getattr(path, "write", None)):
                raise _saved.not_a_file(path)
            np.savez_compressed(path, **kept)
            return
        with whole_file(path) as partial, open(partial, "wb") as file:
            np.savez_compressed(file, **kept)

    @classmethod
    def load(cls, path: _saved.Source) -> SelfPlayResult:
        """Reads a file written by :meth:`save` (or a file object of one). The whole file is
        checked first (names, dtypes, shapes, lengths, ranges, each game's deal and actions,
        payouts that sum to zero and pay the landlord as it won or lost): anything else raises
        :class:`~doudizhu.RecordError` naming what is wrong. The file holds no rules, so a
        payout's size against the base and multiplier is checked when :meth:`game` replays it."""
        return cls(**_saved.read(path))

    @classmethod
    def concatenate(cls, parts: Sequence[SelfPlayResult]) -> SelfPlayResult:
        """The games of several results, in order (offsets rebased): results of one table
        size, each with its actions or none without (a ValueError otherwise: dropping some
        parts' actions would lose what they recorded)."""
        _check_parts(parts)
        fields: dict[str, Any] = {
            name: np.concatenate([getattr(p, name) for p in parts]) for name in ("hands", "payouts", *_PER_GAME)
        }
        if parts[0].actions is not None:
            fields["actions"] = np.concatenate(
                [_raw(p.actions) for p in parts if p.actions is not None]
            ).view(ACTION_DTYPE)
            starts = np.cumsum([0] + [len(p.actions) for p in parts if p.actions is not None])
            rebased = [p.offsets[:-1] + start for p, start in zip(parts, starts) if p.offsets is not None]
            fields["offsets"] = np.concatenate([*rebased, [starts[-1]]]).astype(np.int64)
        return cls(**fields)


def _check_parts(parts: Sequence[SelfPlayResult]) -> None:
    if not isinstance(parts, Sequence) or isinstance(parts, (str, bytes)):
        raise TypeError(f"parts must be a sequence of SelfPlayResult, not {type(parts).__name__}")
    if not parts:
        raise ValueError("nothing to concatenate")
    for i, part in enumerate(parts):
        if not isinstance(part, SelfPlayResult):
            raise TypeError(f"parts[{i}] must be a SelfPlayResult, not {type(part).__name__}")
        if part.hands.shape[1:] != parts[0].hands.shape[1:]:
            raise ValueError(f"parts[{i}] has {part.hands.shape[1]} seats, parts[0] {parts[0].hands.shape[1]}: "
                             "one table size")
        if (part.actions is None) != (parts[0].actions is None) or (part.actions is None) != (part.offsets is None):
            said = [f"parts[{j}] {'has' if parts[j].actions is not None else 'has no'} actions" for j in (0, i)]
            raise ValueError(f"{said[1]}, {said[0]}: record every part or none, each with its offsets")


_ROW_WORDS = _saved.ROW_WORDS


def _raw(actions: npt.NDArray[np.void]) -> npt.NDArray[np.uint64]:
    """ACTION_DTYPE rows as plain words (NumPy drops the padding when it copies records)."""
    return np.ascontiguousarray(actions).view(np.uint64)



def selfplay(
    games: int,
    policy: Policy = "random",
    seed: int | None = 0,
    threads: int | None = None,
    rules: Rules | None = None,
    record: bool = False,
    first: int = 0,
    backend: str = "local",
    address: str | None = None,
) -> SelfPlayResult:
    """Plays ``games`` whole games (bidding as ``rules`` say) and returns their outcomes.

    ``policy`` is one player for every seat or one a seat: a built-in name ("random",
    "heuristic") or bot (:class:`doudizhu.bots.Random`, :class:`~doudizhu.bots.Heuristic`),
    a bot of your own (``act(game) -> Action``), or a callable ``policy(view, legal)``
    given ``game.seat_view(seat)`` and the legal actions. Built-in players only: the games
    run in C++ on ``threads`` threads (default: every core) with the GIL released, and the
    same ``seed`` gives the same games whatever the thread count. With Python players the
    same games run on the same table runner, which hands each Python player every table
    waiting on it in one call (:func:`~doudizhu.lockstep.run_tables`: a bot's ``act_many``),
    each as a game whose hidden cards are re-dealt. Games are numbered from ``first``:
    ``selfplay(n, first=k)`` plays games k..k+n-1 of the seed, so a run may be split into
    parts and put back together with :meth:`SelfPlayResult.concatenate`. ``seed=None`` draws
    a seed the result does not keep: :meth:`SelfPlayResult.game` needs the run's seed.

    ``backend="ray"`` splits the games into tasks of one CPU each on a Ray cluster
    (``address``: ``"local"``, or None as by default, starts one on this machine for the call;
    ``"auto"``, ``host:port`` or ``ray://host:port`` join one; a Ray already running in the
    process is used; ``pip install doudizhu-engine[ray]``) and gathers the same arrays as a
    local run of the same seed, for players whose choices do not depend on their earlier
    calls: each task plays with a copy of the policy, so a bot drawing from a random
    stream of its own (``DeterminizedBot``) draws other numbers than in one process.
    """
    if not isinstance(backend, str):
        raise TypeError(f"backend must be a str, not {type(backend).__name__}")
    if backend not in ("local", "ray"):
        raise ValueError(f"unknown backend {backend!r}; backends: local, ray")
    games = _core.checked_int(games, "games", 0, MAX_GAMES)
    first = _core.checked_int(first, "first", 0, MAX_GAMES)
    seed = _core.checked_seed(seed)
    if backend == "ray":
        if threads is not None:
            raise ValueError("threads: a Ray run's tasks play on one CPU each; leave threads out")
        return _ray_selfplay(games, policy, seed, rules, record, first, "local" if address is None else address)
    if address is not None:
        raise ValueError(f"address {address!r} is a Ray cluster's: give it with backend='ray'")
    threads = os.cpu_count() or 1 if threads is None else _core.checked_int(threads, "threads", 1, 256)
    rules = _core.checked_rules(rules)
    players = seat_players(policy, rules.players)
    check_rules(players, rules)
    run = _core.selfplay_run(games, [builtin(p) for p in players], seed, threads, rules, record, first)
    run_tables(run, players)
    return SelfPlayResult(**run.result())


def _ray_selfplay(
    games: int, policy: Policy, seed: int, rules: Rules | None, record: bool, first: int, address: str
) -> SelfPlayResult:
    """Tasks of consecutive game indices, one CPU each, put back together in order. The
    arguments are checked here first, as a local run checks them (no games played), and
    the policy must pickle: a bad one fails at once, not in every task of a cluster
    started for them. A Ray this call started is shut down when it ends."""
    _part(0, policy, seed, rules, record, first)
    ray_head(address, "address")
    _check_sendable(policy)
    ray, started = joined(address, "address", "selfplay(backend='ray')")
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        parts = min(max(games, 1), 4 * cpus)
        bounds = [first + games * i // parts for i in range(parts + 1)]
        task = ray.remote(num_cpus=1)(_part)
        futures = [task.remote(end - start, policy, seed, rules, record, start)
                   for start, end in zip(bounds, bounds[1:])]
        return SelfPlayResult.concatenate(ray.get(futures))
    finally:
        if started:
            ray.shutdown()


def _check_sendable(policy: Policy) -> None:
    """TypeError unless Ray can send ``policy`` to its workers (it pickles them with
    cloudpickle, which takes lambdas and local classes but not locks or open files)."""
    try:
        from ray import cloudpickle
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise missing_extra("selfplay(backend='ray')", "Ray", "ray") from error
    try:
        cloudpickle.dumps(policy)  # type: ignore[no-untyped-call]
    except Exception as error:  # what pickling a user's object raises is anyone's guess
        raise TypeError(f"policy: Ray cannot send it to its workers ({type(error).__name__}: {error})") from None


def _part(games: int, policy: Policy, seed: int, rules: Rules | None, record: bool, first: int) -> SelfPlayResult:
    return selfplay(games, policy, seed, threads=1, rules=rules, record=record, first=first)


__all__ = ["SelfPlayResult", "selfplay"]
