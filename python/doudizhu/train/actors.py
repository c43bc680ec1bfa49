"""Epsilon-greedy actors on :class:`~doudizhu.envs.VectorEnv`, and their Monte-Carlo returns.

An actor plays ``tables`` tables of the ``douzero`` preset in C++, every seat a learner
(as DouZero's actors, which train all three positions at once). Per step it scores every
legal action of every table with the position's network (once per batch, see
:func:`~doudizhu.value_networks.batch_values`), plays the best one, or with probability
``epsilon`` a uniformly drawn legal action, and keeps the chosen action's inputs. When a
hand ends, each of its decisions gets the hand's return for the seat that made it
(:func:`returns`) and becomes a sample of its position.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .. import encode
from .._core import Rules
from ..envs.vector import Batch, Finished, VectorEnv
from ..value_networks import ACTION_WIDTH, HISTORY_ROWS, HISTORY_WIDTH, STATE_WIDTH, ValueNet, choose_batch
from .buffer import Samples

OBJECTIVES = ("adp", "wp")
# Steps kept per table: more than any hand's decisions (54 cards, at most two passes a play).
_RING = 256


def returns(objective: str, payouts: npt.NDArray[np.int64], landlord: int,
            seats: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
    """Each of ``seats``' return of a hand that ended with ``payouts`` (one per seat).

    ``"adp"``: the stake of one landlord-against-peasant pair, signed for the seat's side:
    the landlord's payout halved (both peasants pay it), a peasant's own payout. That is
    DouZero's +-2^bombs scale; DouZero counts bombs only, this the rules' whole multiplier
    (bombs, rockets and spring), as evaluate scores ADP. ``"wp"``: +1 for a seat whose side
    won, -1 otherwise, as DouZero."""
    landlord_stake = payouts[landlord] / 2
    side = np.where(seats == landlord, 1.0, -1.0)
    out: npt.NDArray[np.float32]
    if objective == "adp":
        out = (side * landlord_stake).astype(np.float32)
    elif objective == "wp":
        out = (side * np.sign(landlord_stake)).astype(np.float32)
    else:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
    return out


class Actor:
    """``tables`` tables played by ``nets`` (shared, not copied), yielding samples."""

    def __init__(self, nets: dict[str, ValueNet], tables: int, epsilon: float, objective: str, seed: int,
                 threads: int | None = 1) -> None:
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
        self.nets, self.epsilon, self.objective = nets, epsilon, objective
        self.env = VectorEnv(tables, Rules.preset("douzero"), features="douzero", learners="all", seed=seed,
                             threads=threads)
        self._rng = np.random.default_rng(seed)
        # The last _RING steps' chosen inputs, by step (mod _RING) and table.
        self._z = np.zeros((_RING, tables, HISTORY_ROWS, HISTORY_WIDTH), dtype=np.int8)
        self._x = np.zeros((_RING, tables, max(STATE_WIDTH.values())), dtype=np.int8)
        self._planes = np.zeros((_RING, tables, ACTION_WIDTH), dtype=np.int8)
        self._position = np.zeros((_RING, tables), dtype=np.int8)
        self._seat = np.zeros((_RING, tables), dtype=np.int8)
        self._start = np.zeros(tables, dtype=np.int64)  # the step of each table's first decision of its hand
        self.steps = 0  # steps taken, each one decision per table
        self.hands = 0
        self._batch = self.env.reset()

    def step(self) -> dict[str, Samples]:
        """One decision per table; returns the samples of the hands that ended."""
        batch = self._batch
        samples = self._finish(batch.finished)
        choices = choose_batch(self.nets, batch)
        explore = self._rng.random(len(choices)) < self.epsilon
        choices[explore] = self._rng.integers(np.diff(batch.offsets)[explore])
        self._record(batch, choices)
        self._batch = self.env.step(choices, out=batch)
        return samples

    def _record(self, batch: Batch, choices: npt.NDArray[np.int64]) -> None:
        assert batch.z is not None and batch.x_no_action is not None and batch.position is not None
        assert batch.action_planes is not None
        slot = self.steps % _RING
        self._z[slot] = batch.z
        self._x[slot] = batch.x_no_action
        self._planes[slot] = batch.action_planes[batch.offsets[:-1] + choices]
        self._position[slot] = batch.position
        self._seat[slot] = batch.seat
        self.steps += 1

    def _finish(self, finished: Finished) -> dict[str, Samples]:
        """Each ended hand's decisions with their returns, by position."""
        steps, tables, targets = [], [], []
        for row in range(len(finished)):
            env, landlord = int(finished.env[row]), int(finished.landlord[row])
            played = np.arange(self._start[env], self.steps) % _RING
            self._start[env] = self.steps  # this batch's decision at the table opens its next hand
            self.hands += 1
            if landlord < 0:  # a void hand has no return (not in the douzero preset, which has no bidding)
                continue
            steps.append(played)
            tables.append(np.full(len(played), env))
            targets.append(returns(self.objective, finished.payouts[row], landlord, self._seat[played, env]))
        if not steps:
            return {}
        step, table, target = np.concatenate(steps), np.concatenate(tables), np.concatenate(targets)
        position = self._position[step, table]
        out = {}
        for index, name in enumerate(encode.DOUZERO_POSITIONS):
            mine = position == index
            s, t = step[mine], table[mine]
            out[name] = Samples(self._z[s, t], self._x[s, t, : STATE_WIDTH[name]], self._planes[s, t], target[mine])
        return out


__all__ = ["OBJECTIVES", "Actor", "returns"]
