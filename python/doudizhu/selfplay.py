"""Self-play: many whole games, generated in C++ on all cores, returned as NumPy arrays."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Sequence
from typing import Any, Union, cast

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import ACTION_DTYPE, Action, Game, Rules

#: A custom agent: given what the seat knows and the legal actions, the action to take.
PolicyFn = Callable[[dict[str, Any], Sequence[Action]], Action]
Policy = Union[str, Sequence[str], PolicyFn]


_MAX_GAMES = 10**12  # a bound for arguments, far past what memory holds
_PER_GAME = {
    "kitty": np.uint64,
    "landlord": np.int8,
    "landlord_won": np.bool_,
    "base": np.int32,
    "multiplier": np.int32,
    "moves": np.int32,
    "redeals": np.int32,
    "wild": np.int8,
}


@dataclasses.dataclass(frozen=True)
class SelfPlayResult:
    """One row per game. ``hands`` (n, players) and ``kitty`` are the masks of the deal
    that was played, ``payouts`` (n, players) the settlement; ``landlord`` is -1 for a void
    hand; ``moves`` counts plays and passes after the auction; ``wild`` is the deal's wild
    rank (laizi), -1 without wild cards. With ``record``, game i's actions are
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
    payouts: npt.NDArray[np.int64]
    actions: npt.NDArray[np.void] | None = None
    offsets: npt.NDArray[np.int64] | None = None

    def __len__(self) -> int:
        return len(self.landlord)

    @property
    def landlord_win_rate(self) -> float:
        played = self.landlord >= 0
        return float(self.landlord_won[played].mean()) if played.any() else float("nan")

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the arrays to an ``.npz`` file."""
        arrays = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        if self.actions is not None:
            arrays["actions"] = _raw(self.actions)  # .npz keeps no padded record layout
        np.savez_compressed(path, **{k: v for k, v in arrays.items() if v is not None})

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> SelfPlayResult:
        """Reads a file written by :meth:`save`."""
        with np.load(path, allow_pickle=False) as data:
            fields = {name: data[name] for name in data.files}
        if "actions" in fields:
            fields["actions"] = fields["actions"].view(ACTION_DTYPE)
        fields.setdefault("wild", np.full(len(fields["landlord"]), -1, np.int8))  # files from before wild cards
        return cls(**fields)

    @classmethod
    def concatenate(cls, parts: Sequence[SelfPlayResult]) -> SelfPlayResult:
        """The games of several results, in order (offsets rebased)."""
        if not parts:
            raise ValueError("nothing to concatenate")
        fields: dict[str, Any] = {
            name: np.concatenate([getattr(p, name) for p in parts]) for name in ("hands", "payouts", *_PER_GAME)
        }
        if all(p.actions is not None and p.offsets is not None for p in parts):
            fields["actions"] = np.concatenate(
                [_raw(p.actions) for p in parts if p.actions is not None]
            ).view(ACTION_DTYPE)
            starts = np.cumsum([0] + [len(p.actions) for p in parts if p.actions is not None])
            rebased = [p.offsets[:-1] + start for p, start in zip(parts, starts) if p.offsets is not None]
            fields["offsets"] = np.concatenate([*rebased, [starts[-1]]]).astype(np.int64)
        return cls(**fields)


def _raw(actions: npt.NDArray[np.void]) -> npt.NDArray[np.uint64]:
    """ACTION_DTYPE rows as plain words (NumPy drops the padding when it copies records)."""
    return np.ascontiguousarray(actions).view(np.uint64)


def selfplay(
    games: int,
    policy: Policy = "random",
    seed: int = 0,
    threads: int | None = None,
    rules: Rules | None = None,
    record: bool = False,
    first: int = 0,
    backend: str = "local",
    address: str | None = None,
) -> SelfPlayResult:
    """Plays ``games`` whole games (bidding as ``rules`` say) and returns their outcomes.

    A built-in ``policy`` ("random" or "heuristic", or one name per seat) runs in C++ on
    ``threads`` threads (default: every core) with the GIL released; the same ``seed`` gives the same games whatever the
    thread count. Games are numbered from ``first``: ``selfplay(n, first=k)`` plays games
    k..k+n-1 of the seed, so a run may be split into parts and put back together with
    :meth:`SelfPlayResult.concatenate`. A callable policy is called in Python as
    ``policy(observation, legal)`` and must return one of ``legal``; it plays the same
    deals, one game at a time.

    ``backend="ray"`` splits the games into tasks on a Ray cluster (``address``, or a
    local one started on demand; ``pip install doudizhu-engine[ray]``) and gathers the
    same arrays as a local run of the same seed.
    """
    if backend not in ("local", "ray"):
        raise ValueError(f"unknown backend {backend!r}; backends: local, ray")
    games = _core.checked_int(games, "games", 0, _MAX_GAMES)
    first = _core.checked_int(first, "first", 0, _MAX_GAMES)
    seed = _core.checked_seed(seed)
    if backend == "ray":
        return _ray_selfplay(games, policy, seed, rules, record, first, address)
    threads = os.cpu_count() or 1 if threads is None else _core.checked_int(threads, "threads", 1, 256)
    if not (callable(policy) or isinstance(policy, (str, Sequence))):
        raise TypeError(
            f"policy must be a built-in policy name, one name per seat, or a callable, not {type(policy).__name__}"
        )
    if not callable(policy) or games == 0:
        names = "random" if callable(policy) else policy
        return SelfPlayResult(**_core.selfplay(games, names, seed, threads, rules, record, first))
    return _python_selfplay(range(first, first + games), policy, seed, rules, record)


def _ray_selfplay(
    games: int, policy: Policy, seed: int, rules: Rules | None, record: bool, first: int, address: str | None
) -> SelfPlayResult:
    """Tasks of consecutive game indices, one CPU each, put back together in order."""
    try:
        import ray
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("backend='ray' needs Ray: pip install 'doudizhu-engine[ray]'") from error
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
    parts = min(max(games, 1), 4 * cpus)
    bounds = [first + games * i // parts for i in range(parts + 1)]
    task = ray.remote(num_cpus=1)(_part)
    futures = [task.remote(end - start, policy, seed, rules, record, start) for start, end in zip(bounds, bounds[1:])]
    return SelfPlayResult.concatenate(ray.get(futures))


def _part(games: int, policy: Policy, seed: int, rules: Rules | None, record: bool, first: int) -> SelfPlayResult:
    return selfplay(games, policy, seed, threads=1, rules=rules, record=record, first=first)


def _python_selfplay(
    indices: range, policy: PolicyFn, seed: int, rules: Rules | None, record: bool
) -> SelfPlayResult:
    """The same deals as the C++ runner (game i from game_seed(seed, i)), played in Python."""
    rows: list[dict[str, Any]] = []
    actions: list[tuple[int, Action]] = []
    offsets = [0]
    for index in indices:
        players = (rules or Rules()).players
        game = Game(seed=_core.game_seed(seed, index), rules=rules, first_bidder=index % players)
        moves = 0
        while game.phase != "over":
            seat = game.to_move
            assert seat is not None
            legal = game.legal_actions()
            action = policy(cast("dict[str, Any]", game.seat_view(seat)), legal)  # the TypedDict is that dict
            if action not in legal:
                raise ValueError(f"policy returned {action!r}, not one of the legal actions")
            moves += game.phase == "playing"
            game.step(action)
            actions.append((seat, action))
        offsets.append(len(actions))
        rows.append(_summary(game, moves))
    result = SelfPlayResult(
        hands=np.array([r["hands"] for r in rows], dtype=np.uint64),
        payouts=np.array([r["payouts"] for r in rows], dtype=np.int64),
        **{name: np.array([r[name] for r in rows], dtype=dtype) for name, dtype in _PER_GAME.items()},
    )
    if not record:
        return result
    return dataclasses.replace(
        result, actions=_core.actions_to_rows(actions), offsets=np.array(offsets, dtype=np.int64)
    )


def _summary(game: Game, moves: int) -> dict[str, Any]:
    record = game.to_record()
    deal = record["deals"][-1]
    result = game.result
    assert result is not None
    return {
        "hands": [_core.Cards(h).mask for h in deal["hands"]],
        "kitty": _core.Cards(deal["kitty"]).mask,
        "landlord": -1 if game.landlord is None else game.landlord,
        "landlord_won": result.landlord_won,
        "base": result.base,
        "multiplier": result.multiplier,
        "moves": moves,
        "redeals": game.redeals,
        "wild": -1 if game.wild_rank is None else game.wild_rank,
        "payouts": list(result.payouts),
    }


__all__ = ["Policy", "PolicyFn", "SelfPlayResult", "selfplay"]
