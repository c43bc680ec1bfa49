"""Actors as Ray actors (the ``[ray]`` extra): each plays its own tables with a copy of the
networks and sends its samples to the learner, which sends back the new weights.

``ray_address="local"`` starts a Ray on this machine (as tests do); any other address is
joined once something is seen to answer at its host and port (:mod:`doudizhu._ray`). Each actor
runs ``steps_per_call`` steps per call; the learner takes whichever actor finishes first,
learns, and sets that actor off again with the latest weights, so actors play with
weights at most one call old (as DouZero's, which copy the learner's after each step)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import torch

from .._ray import joined
from ..value_networks import ValueNet, build_all
from .actors import Actor
from .buffer import Samples

if TYPE_CHECKING:
    from .loop import TrainConfig

_STEPS_PER_CALL = 16


class _RemoteActor:
    """The body of one Ray actor: an :class:`~.actors.Actor` over its own networks."""

    def __init__(self, model: str, tables: int, epsilon: float, objective: str, seed: int, threads: int) -> None:
        torch.set_num_threads(threads)
        self.nets = build_all(model)
        self.actor = Actor(self.nets, tables, epsilon, objective, seed, threads)

    def collect(self, weights: dict[str, dict[str, Any]], steps: int) -> tuple[list[dict[str, Samples]], int]:
        """``steps`` steps with ``weights``: their samples, and the hands that ended."""
        for name, net in self.nets.items():
            net.load_state_dict(weights[name])
        before = self.actor.hands
        samples = [self.actor.step() for _ in range(steps)]
        return samples, self.actor.hands - before


class RayActors:
    """``config.ray_actors`` Ray actors, each seeded apart, as one source of samples."""

    def __init__(self, config: TrainConfig, nets: dict[str, ValueNet], seed: int) -> None:
        assert config.ray_address is not None
        ray, _ = joined(config.ray_address, "ray_address", "doudizhu.train with ray_address")
        self.ray, self.nets = ray, nets
        remote = ray.remote(num_cpus=1)(_RemoteActor)
        self.actors: list[Any] = [
            remote.remote(config.model, config.tables, config.epsilon, config.objective, seed + 7919 * i, 1)
            for i in range(config.ray_actors)
        ]
        self.pending = {self._call(actor): actor for actor in self.actors}

    def _call(self, actor: Any) -> Any:
        weights = {name: {k: v.detach().clone() for k, v in net.state_dict().items()}
                   for name, net in self.nets.items()}
        return actor.collect.remote(weights, _STEPS_PER_CALL)

    def collect(self) -> tuple[list[dict[str, Samples]], int]:
        """The samples of the first actor to finish its call; that actor starts its next."""
        ready, _ = self.ray.wait(list(self.pending), num_returns=1)
        actor = self.pending.pop(ready[0])
        samples, hands = self.ray.get(ready[0])
        self.pending[self._call(actor)] = actor
        return samples, hands

    def close(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor)


__all__ = ["RayActors"]
