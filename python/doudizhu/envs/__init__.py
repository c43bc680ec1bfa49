"""Reinforcement-learning environments (optional: ``pip install "doudizhu-engine[envs]"``).

- :mod:`doudizhu.envs.pettingzoo`: ``env(rules=...)`` / ``raw_env``, a PettingZoo AEC
  environment in which agents ``seat_0``, ``seat_1`` and ``seat_2`` play a whole hand,
  bidding included.
- :mod:`doudizhu.envs.gymnasium`: ``DouDizhuEnv``, a Gymnasium environment in which the
  agent plays one seat against the built-in bots (``random``, ``heuristic``); importing
  the module registers it as ``"doudizhu/DouDizhu-v0"``.
- :mod:`doudizhu.envs.vector`: ``VectorEnv``, many tables stepped together in C++ for
  learners with a network in the loop: batches of decisions as NumPy arrays, the
  built-in opponents played inside the step, auto-reset (needs NumPy only; exported here).

The PettingZoo and Gymnasium environments share one interface:

- observations are dicts ``{"observation": float32 vector, "action_mask": int8 vector}``:
  the vector is :func:`doudizhu.encode.observation` for the observing seat, the mask
  marks the legal action ids (all zeros when it is not that seat's turn);
- actions are the ids of a :class:`doudizhu.ActionSpace` of the rules (``env.space``),
  bidding actions included, so whole hands are played; every preset, laizi included.
  Under wild-card rules a play is two steps: its combination's id, then, when the hand
  can pay for it in several ways, ``len(env.space)`` + the stand-in id of the reading
  (:mod:`doudizhu.actions`); between the two the observation's ``"chosen"`` is the
  combination's id (-1 otherwise), the mask marks that combination's readings, the game
  is unchanged and the reward is 0; with two wild ranks (laizi2), up to three steps: the
  combination, the lower wild rank's stand-in id, the higher's (``"chosen_low"``);
- rewards are the hand's payouts by seat (:attr:`doudizhu.Settlement.payouts`: base stake
  x multiplier, the landlord winning or paying it to each peasant), times
  ``reward_scale`` (default 1.0: unscaled, in stakes), given when the hand ends; every
  other step rewards 0. The payouts of a hand sum to zero;
- an illegal action id ends the hand: the actor is rewarded ``illegal_reward`` (default
  -1.0), the others 0, and its info holds ``"illegal_action": True``;
  ``illegal_reward=None`` raises :class:`doudizhu.IllegalActionError` instead. An id
  outside the action space (``-1``, ``n`` and past) names no action: a ValueError, the
  hand unchanged, as a value that is no int is a TypeError.

This package imports neither Gymnasium nor PettingZoo; its submodules do, when imported.
``VectorEnv`` has its own batches (:mod:`doudizhu.envs.vector`).
"""

from __future__ import annotations

from .vector import Batch, Finished, VectorEnv

__all__ = ["Batch", "Finished", "VectorEnv"]
