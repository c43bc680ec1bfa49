"""Many tables per call: the vectorized environment for learners with a network in the loop.

:class:`VectorEnv` keeps ``num_envs`` tables in C++. Every table always waits on one
learner decision, so a batch holds exactly ``batch_size`` decisions (every table by
default), decision ``b`` at table ``batch.env[b]``. :meth:`VectorEnv.step` takes one choice
per decision (an index into its legal actions), applies them, and plays every seat that is
not a learner with a built-in policy (a name of :data:`doudizhu.POLICIES` or the bots of
:mod:`doudizhu.bots` that stand for them) until each table's learner must decide again,
all with the GIL released, on ``threads`` threads. A hand that ends is reported in the
batch that follows it (:class:`Finished`) and the table is dealt its next hand at once.

Overlapping the learner and the tables (EnvPool's ``send`` / ``recv``): with
``batch_size=num_envs // 2`` (or any divisor) the tables are played in groups of that
size, in turn. :meth:`VectorEnv.send` applies a batch's choices and returns at once, its
tables playing on a background thread; :meth:`VectorEnv.recv` returns the next group's
batch. ``step`` is ``send`` then ``recv``, so the plain loop ``batch = env.step(f(batch))``
already computes one group's choices while the other group plays. The caller's thread
then counts as one of ``threads``: a group plays on the others (at least one), so
``threads=2`` is the learner and one thread of tables. The groups come in a
fixed order, so the games never depend on timing, ``threads`` or ``batch_size``.

Deals: the hands of ``num_envs`` tables are :func:`doudizhu.selfplay`'s games of the same
seed in order: table ``i``'s ``k``-th hand is self-play game ``i + k * num_envs`` (its
deal, its first bidder, and the draws of its random opponents). Threads never change the
games.

A :class:`Batch` is arrays only (B decisions, A legal actions of them all):

- ``env`` (B, int64), ``seat`` (B, int8): who decides;
- ``actions`` (A, ``ACTION_DTYPE``) and ``offsets`` (B + 1, int64): decision ``b``'s legal
  actions are ``actions[offsets[b]:offsets[b + 1]]``, in ``game.legal_actions()`` order;
- ``features="compact"``: ``observation`` (B, observation size, float32), each decision's
  :func:`doudizhu.encode.observation`; ``action_ids`` (A, int64), each action's id in
  ``ActionSpace(rules)`` (under wild-card rules its combination's, and ``stand_in_ids``
  (A, int64) what its wild cards stand in for, low + 2380 x high with two wild ranks:
  :mod:`doudizhu.actions`); ``mask``
  (B, ``len(space)``, bool) with ``mask=True``;
- ``features="douzero"`` (every preset with a landlord, all but ``run_fast``; the layout is
  ``doudizhu.encode.douzero_layout(rules)``): DouZero 1.1.0's inputs without their
  redundancy: ``x_no_action`` (B, the widest position's width, int8; in DouZero's setting
  430, and a landlord's row uses its first 319 values, the rest are 0), ``z`` (B, *the
  layout's z*, int8; DouZero's (5, 162)) and ``position`` (B, int8: an index into the
  layout's ``positions``, for three seats :data:`doudizhu.encode.DOUZERO_POSITIONS`) once
  per decision, and per action only its part, ``action_planes`` (A, the layout's action
  width, int8; DouZero's 54 card slots). :meth:`Batch.douzero_inputs` rebuilds DouZero's
  ``x_batch`` and ``z_batch`` of a decision, :meth:`Batch.douzero` its whole dict, equal
  to :func:`doudizhu.encode.douzero` of the table;
- ``features=None``: the legal actions alone (every preset, wild cards included);
- ``finished``: the hands that ended since the last batch.

Learners (``learners=``): ``"all"``, a seat, or a list of seats, who also bid when the rules
bid; or ``"landlord"`` / ``"peasants"``, a role, which the bidding gives: the built-in
opponents' policies (by seat) bid for every seat, and the learners play that role's seats.
DouZero's features have no bidding, so with ``features="douzero"`` the built-in policies
bid too, and learners decide in play only.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Union, cast

import numpy as np
import numpy.typing as npt

from .. import encode
from .._core import Action, ActionSpace, Game, Rules, VectorEnvCore, actions_from_rows, checked_int
from .._extras import missing_extra
from ..bots import builtin

__all__ = ["Batch", "Finished", "VectorEnv"]

_Learners = Union[Literal["all", "landlord", "peasants"], int, Sequence[int]]
_Features = Literal["compact", "douzero", None]
_Position = Literal["landlord", "landlord_down", "landlord_across", "landlord_up"]


@dataclass(frozen=True)
class Finished:
    """The hands that ended during a step, one row each (F rows)."""

    env: npt.NDArray[np.int64]
    """The table of each hand."""
    hand: npt.NDArray[np.int64]
    """The hand's number on its table, from 0."""
    payouts: npt.NDArray[np.int64]
    """(F, players): what each seat won, in stakes; a row sums to zero."""
    landlord: npt.NDArray[np.int8]
    """The landlord's seat; -1 for a void hand (nobody bid, no redeal) and for every hand of
    rules without a landlord (each for self: ``run_fast``, where the payouts tell the winner)."""
    landlord_won: npt.NDArray[np.bool_]
    """Whether the landlord's side won; False where ``landlord`` is -1."""
    base: npt.NDArray[np.int32]
    multiplier: npt.NDArray[np.int32]
    moves: npt.NDArray[np.int32]
    """Plays and passes after the auction."""

    def __len__(self) -> int:
        return len(self.env)


class _Buffers:
    """The arrays a batch is written into, kept to be reused by the next step: rows are
    views of storage that grows when a batch needs more."""

    def __init__(self, layout: list[tuple[str, tuple[int, ...], np.dtype[Any]]]) -> None:
        self.layout = layout  # of the environment whose batches these buffers hold
        self._storage: dict[str, npt.NDArray[Any]] = {}

    def take(self, name: str, shape: tuple[int, ...], dtype: np.dtype[Any]) -> npt.NDArray[Any]:
        rows = shape[0]
        have = self._storage.get(name)
        if have is None or len(have) < rows:
            have = np.empty((rows + rows // 2, *shape[1:]), dtype=dtype)  # room for the next batches to grow
            self._storage[name] = have
        return have[:rows]


class Batch:
    """The decisions learners must make now (see :mod:`doudizhu.envs.vector`)."""

    env: npt.NDArray[np.int64]
    seat: npt.NDArray[np.int8]
    actions: npt.NDArray[np.void]
    offsets: npt.NDArray[np.int64]
    observation: npt.NDArray[np.float32] | None
    action_ids: npt.NDArray[np.int64] | None
    stand_in_ids: npt.NDArray[np.int64] | None
    mask: npt.NDArray[np.bool_] | None
    x_no_action: npt.NDArray[np.int8] | None
    z: npt.NDArray[np.int8] | None
    position: npt.NDArray[np.int8] | None
    action_planes: npt.NDArray[np.int8] | None
    finished: Finished

    def __init__(
        self,
        arrays: dict[str, npt.NDArray[Any]],
        finished: Finished,
        buffers: _Buffers,
        douzero: encode.DouZeroLayout | None = None,
    ) -> None:
        self.env = arrays["env"]
        self.seat = arrays["seat"]
        self.actions = arrays["actions"]
        self.offsets = arrays["offsets"]
        self.observation = arrays.get("observation")
        self.action_ids = arrays.get("action_ids")
        self.stand_in_ids = arrays.get("stand_in_ids")
        self.mask = arrays.get("mask")
        self.x_no_action = arrays.get("x_no_action")
        self.z = arrays.get("z")
        self.position = arrays.get("position")
        self.action_planes = arrays.get("action_planes")
        self.finished = finished
        self._buffers = buffers
        self._douzero_layout = douzero

    def __len__(self) -> int:
        return len(self.env)

    def _decision(self, b: int) -> int:
        """``b`` checked: a decision's index, 0..len - 1 (TypeError or ValueError otherwise)."""
        return checked_int(b, "decision", 0, len(self) - 1)

    def legal_actions(self, b: int) -> list[Action]:
        """Decision ``b``'s legal actions as :class:`~doudizhu.Action` values."""
        b = self._decision(b)
        return [action for _, action in actions_from_rows(self.actions[self.offsets[b] : self.offsets[b + 1]])]

    def argmax(self, scores: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """The choices that take each decision's highest-scoring action (the first of ties),
        given one score per action (A values, in ``actions`` order)."""
        values = np.asarray(scores)
        if values.dtype.kind not in "biuf":  # text, objects, complex numbers: no order of scores
            raise TypeError(f"scores must be real numbers, not an array of {values.dtype}")
        if values.shape != (len(self.actions),):
            raise ValueError(f"scores must hold one value per action ({len(self.actions)}), not shape {values.shape}")
        if values.dtype.kind == "f" and np.isnan(values).any():  # NaN has no order: no action scores highest
            raise ValueError(f"scores hold NaN (the first at action {int(np.flatnonzero(np.isnan(values))[0])})")
        starts, counts = self.offsets[:-1], np.diff(self.offsets)
        best = np.repeat(np.maximum.reduceat(values, starts), counts)  # each decision's best score, per action
        index = np.arange(len(values))
        return np.minimum.reduceat(np.where(values == best, index, len(values)), starts) - starts

    def _douzero_width(self, b: int) -> int:
        """The width of decision b's x_no_action: the landlord's is narrower than the batch's rows."""
        assert self.position is not None and self._douzero_layout is not None
        return self._douzero_layout.width(self._douzero_layout.positions[int(self.position[b])])

    def douzero_inputs(self, b: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """DouZero's ``x_batch`` and ``z_batch`` for decision ``b`` (``features="douzero"``).

        ``x_batch`` row ``i`` is ``x_no_action`` followed by action ``i``'s cards (a new
        float32 array); ``z_batch`` is a read-only broadcast of one float32 copy of ``z``,
        so no row of it is copied. For torch, ``torch.from_numpy(x_batch)`` shares memory,
        and ``torch.from_numpy(batch.z[b]).float().expand(n, -1, -1)`` is ``z_batch``
        without a copy per action.
        """
        if (
            self.x_no_action is None
            or self.z is None
            or self.position is None
            or self.action_planes is None
            or self._douzero_layout is None
        ):
            raise ValueError("douzero_inputs needs a VectorEnv with features='douzero'")
        b = self._decision(b)
        lo, hi = int(self.offsets[b]), int(self.offsets[b + 1])
        width = self._douzero_width(b)
        x_batch = np.empty((hi - lo, width + self.action_planes.shape[1]), dtype=np.float32)
        x_batch[:, :width] = self.x_no_action[b, :width]
        x_batch[:, width:] = self.action_planes[lo:hi]
        z_batch = np.broadcast_to(self.z[b].astype(np.float32), (hi - lo, *self.z.shape[1:]))
        return x_batch, z_batch

    def douzero_tensors(self, b: int) -> tuple[Any, Any]:
        """:meth:`douzero_inputs` as torch tensors (the ``[train]`` extra): ``x_batch`` a
        tensor sharing the new array's memory, ``z_batch`` an ``expand`` of one float copy
        of ``z`` (no row per action is made)."""
        try:
            import torch
        except ImportError as error:  # pragma: no cover - depends on the environment
            raise missing_extra("Batch.douzero_tensors", "PyTorch", "train") from error
        x_batch, z_batch = self.douzero_inputs(b)
        return torch.from_numpy(x_batch), torch.from_numpy(z_batch[0].copy()).expand(len(z_batch), -1, -1)

    def douzero(self, b: int) -> encode.DouZeroObservation:
        """Decision ``b``'s dict as :func:`doudizhu.encode.douzero` gives it for the table
        (new arrays, which later steps leave alone)."""
        x_batch, z_batch = self.douzero_inputs(b)
        b = self._decision(b)
        assert self.x_no_action is not None and self.z is not None and self.position is not None
        assert self._douzero_layout is not None
        return {
            "position": cast(_Position, self._douzero_layout.positions[int(self.position[b])]),
            "seat": int(self.seat[b]),
            "x_batch": x_batch,
            "z_batch": np.ascontiguousarray(z_batch),
            "legal_actions": self.legal_actions(b),
            "x_no_action": self.x_no_action[b, : self._douzero_width(b)].copy(),
            "z": self.z[b].copy(),
        }


def _check_in_core(opponents: object) -> None:
    """Refuses an opponent the core would play as its built-in policy although its class has
    an ``act`` of its own (a subclass of a built-in bot): the tables play in C++ alone."""
    for opponent in opponents if isinstance(opponents, (list, tuple)) else [opponents]:
        if getattr(type(opponent), "__builtin_policy__", None) is not None and builtin(opponent) is None:
            raise TypeError(f"opponents: {type(opponent).__name__} plays by an act of its own, and a VectorEnv's "
                            "opponents play in C++: built-in policies only")


class VectorEnv:
    """``num_envs`` tables stepped together in C++ (see :mod:`doudizhu.envs.vector`).

    ``rules`` (default: standard) may be any preset. ``features``: ``"compact"``,
    ``"douzero"`` (every preset but ``run_fast``, which has no landlord: DouZero's own
    layout in its setting, the generalized one of :func:`doudizhu.encode.douzero_layout`
    elsewhere) or None. ``learners``:
    see the module. ``opponents``: a built-in policy for every other seat, or one per seat;
    the policies bid for role learners and, with ``features="douzero"``, for every seat, so a
    learner's entry may be None unless it bids for that learner. ``seed``: the
    deals (None: a random one). ``threads``: None for one per core. ``batch_size``: the
    decisions of a batch (a divisor of ``num_envs``; None: every table), see the module.
    ``mask``: with ``features="compact"``, a legal-action mask per decision.
    """

    def __init__(
        self,
        num_envs: int,
        rules: Rules | None = None,
        features: _Features = "compact",
        learners: _Learners = "all",
        opponents: object = "heuristic",
        seed: int | None = 0,
        threads: int | None = None,
        *,
        batch_size: int | None = None,
        mask: bool = False,
    ) -> None:
        _check_in_core(opponents)
        # One call at a time: a step is three calls of the core (step, write, finished), which
        # another thread must not come between (the tables would move under a refused call).
        self._busy = threading.Lock()
        self._live: VectorEnvCore | None = VectorEnvCore(num_envs, rules, features, learners, opponents, seed, threads,
                                                         mask, batch_size)
        self.rules: Rules = rules if rules is not None else Rules()
        self.features: _Features = features
        self.space: ActionSpace | None = ActionSpace(self.rules) if features == "compact" else None
        self._layout = self._core.batch_layout()  # (name, shape, dtype): fixed but for the action count
        self.douzero_layout: encode.DouZeroLayout | None = (
            encode.douzero_layout(self.rules) if features == "douzero" else None
        )
        self._no_finished = Finished(**self._core.finished())  # no hand ended yet: empty columns

    @property
    def _core(self) -> VectorEnvCore:
        if self._live is None:
            raise RuntimeError("this VectorEnv is closed")
        return self._live

    @contextlib.contextmanager
    def _alone(self) -> Iterator[None]:
        """Holds the environment for one call; RuntimeError, before anything changes, while
        another call holds it (another thread's, or one on this thread that called back in,
        as a choices array's ``__array__`` may)."""
        if not self._busy.acquire(blocking=False):
            raise RuntimeError("this VectorEnv is in use by another call (one at a time)")
        try:
            yield
        finally:
            self._busy.release()

    def close(self) -> None:
        """Frees the tables and stops the background thread (a batch sent is played out
        first). Every later call but ``close`` raises RuntimeError; batches already returned
        stay readable."""
        with self._alone():
            self._live = None

    def __enter__(self) -> VectorEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def num_envs(self) -> int:
        return self._core.num_envs

    @property
    def threads(self) -> int:
        return self._core.threads

    @property
    def batch_size(self) -> int:
        return self._core.batch_size

    @property
    def seed(self) -> int:
        """The seed of the deals (the last reset's)."""
        return self._core.seed

    def reset(self, seed: int | None = None, out: Batch | None = None) -> Batch:
        """Deals every table its first hand (of ``seed``; None: the current seed) and returns
        the first decisions. ``out``: see :meth:`step`."""
        buffers = self._buffers(out)
        with self._alone():
            return self._batch(*self._core.reset(seed), buffers)

    def step(self, choices: npt.ArrayLike, out: Batch | None = None) -> Batch:
        """Applies ``choices[b]`` (an index into decision ``b``'s legal actions) and returns
        the next decisions.

        Wrong choices (not a 1-d integer array or sequence: TypeError; not one per decision, or out of
        range: :class:`doudizhu.IllegalActionError`) raise before any table changes.
        ``out``: an earlier batch of this environment whose arrays are reused (written
        over, so it must not be read afterwards); None allocates new arrays. Anything else
        raises (TypeError; ValueError for another environment's batch), also before any
        table changes.
        """
        buffers = self._buffers(out)
        with self._alone():
            return self._batch(*self._core.step(choices), buffers)

    def send(self, choices: npt.ArrayLike) -> None:
        """Applies ``choices`` as :meth:`step` does and returns at once: the batch's tables
        play on a background thread. The batch sent must not be read afterwards (its
        arrays may be reused by :meth:`recv`); only :meth:`recv`, :meth:`reset` and
        :meth:`game` may follow (RuntimeError otherwise)."""
        with self._alone():
            self._core.send(choices)

    def recv(self, out: Batch | None = None) -> Batch:
        """The next batch after a :meth:`send` (waiting for its tables, without the GIL).
        ``out``: see :meth:`step`."""
        buffers = self._buffers(out)
        with self._alone():
            return self._batch(*self._core.recv(), buffers)

    def game(self, env: int) -> Game:
        """A copy of table ``env``'s game (its hand in play and its record; waits while a
        sent batch is playing it)."""
        with self._alone():
            return self._core.game(env)

    def _buffers(self, out: Batch | None) -> _Buffers:
        """The arrays a batch is written into: ``out``'s (a batch of this environment) or
        new ones. Checked before the tables move, so a wrong ``out`` loses no batch."""
        if out is None:
            return _Buffers(self._layout)
        if not isinstance(out, Batch):
            raise TypeError(f"out must be a Batch of this VectorEnv or None, not {type(out).__name__}")
        if out._buffers.layout is not self._layout:
            raise ValueError("out is a batch of another VectorEnv: its arrays have another layout")
        return out._buffers

    def _batch(self, actions: int, finished: int, buffers: _Buffers) -> Batch:
        arrays = {
            name: buffers.take(name, (actions if shape[0] < 0 else shape[0], *shape[1:]), dtype)
            for name, shape, dtype in self._layout
        }
        self._core.write(arrays)
        done = Finished(**self._core.finished()) if finished else self._no_finished
        return Batch(arrays, done, buffers, self.douzero_layout)
