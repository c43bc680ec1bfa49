"""Training networks of one's own (PyTorch: the ``[train]`` extra).

- :func:`train` by a :class:`TrainConfig` (``doudizhu train``): DouZero's Deep Monte-Carlo
  on :class:`~doudizhu.envs.VectorEnv`; its loop is :mod:`.loop`, its parts :mod:`.actors`,
  :mod:`.learner`, :mod:`.buffer`, :mod:`.log` and :mod:`.ray_actors`.
- :mod:`.recipe` (``doudizhu train --recipe neural``): the network file of the engine's
  ``"neural"`` policy, from the warm start (:mod:`.warm`) and the bid networks
  (:mod:`.bidding`), written by :mod:`doudizhu.network_file`.
- :mod:`.plot`: the learning curves of both; :mod:`.resume`: what a resumed run of either may change.

The networks trained are defined in :mod:`doudizhu.value_networks`, the checkpoints in
:mod:`doudizhu.checkpoint`; this package re-exports :mod:`.loop`'s public names.
"""

from __future__ import annotations

from .loop import PER_CALL, RUN_FILES, Counters, TrainConfig, TrainResult, saved_config, train

__all__ = ["PER_CALL", "RUN_FILES", "Counters", "TrainConfig", "TrainResult", "saved_config", "train"]
