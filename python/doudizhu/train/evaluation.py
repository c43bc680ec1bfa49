"""The trainer's periodic evaluation: evaluate's protocol, the networks batched over tables.

:func:`doudizhu.evaluate` plays a Python bot one game at a time. During training the
networks are instead evaluated on :class:`~doudizhu.envs.VectorEnv` tables, ``deals`` at
once: every deal (``douzero`` preset, no bidding) is played twice, the networks as the
landlord against ``opponent``'s peasants, then as both peasants against its landlord,
the same deals in both (table ``i``'s first hand is self-play game ``i`` of ``seed``).
WP is the share of games the networks' side won, ADP its mean score in stakes, as
:func:`doudizhu.evaluate` reports them; the deals are self-play's, not evaluate's.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import numpy.typing as npt

from .._core import Rules
from ..envs.vector import VectorEnv
from .actors import choose
from .models import ValueNet


def evaluate_nets(nets: dict[str, ValueNet], opponent: str, deals: int, seed: int = 0,
                  threads: int | None = 1) -> tuple[float, float]:
    """WP and ADP of ``nets`` against the built-in policy ``opponent`` over ``deals`` deals,
    each played with roles swapped."""
    roles: tuple[Literal["landlord", "peasants"], ...] = ("landlord", "peasants")
    scores = [_first_hands(nets, role, opponent, deals, seed, threads) for role in roles]
    score = np.concatenate(scores)
    return float((score > 0).mean()), float(score.mean())


def _first_hands(nets: dict[str, ValueNet], role: Literal["landlord", "peasants"], opponent: str, deals: int, seed: int,
                 threads: int | None) -> npt.NDArray[np.int64]:
    """The networks' side's score in each table's first hand, the networks playing ``role``."""
    env = VectorEnv(deals, Rules.preset("douzero"), features="douzero", learners=role, opponents=opponent,
                    seed=seed, threads=threads)
    score = np.zeros(deals, dtype=np.int64)
    done = np.zeros(deals, dtype=np.bool_)
    batch = env.reset()
    while not done.all():
        batch = env.step(choose(nets, batch), out=batch)
        finished = batch.finished
        first = (finished.hand == 0) & ~done[finished.env]  # later hands of a table are not counted
        tables = finished.env[first]
        landlord_score = finished.payouts[first, finished.landlord[first]]
        score[tables] = landlord_score if role == "landlord" else -landlord_score
        done[tables] = True
    return score


__all__ = ["evaluate_nets"]
