"""Actors as Ray actors (the ``[ray]`` extra): each plays its own tables with a copy of the
networks and sends its samples to the learner, which sends back the new weights.

``ray_address="local"`` starts a Ray on this machine (as tests do); any other address is
passed to ``ray.init``, once something is seen to answer at its host and port. Each actor
runs ``steps_per_call`` steps per call; the learner takes whichever actor finishes first,
learns, and sets that actor off again with the latest weights, so actors play with
weights at most one call old (as DouZero's, which copy the learner's after each step)."""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import torch

from .._extras import missing_extra
from ..value_networks import ValueNet, build_all
from .actors import Actor
from .buffer import Samples
from .settings import ray_head

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


def _check_answers(address: str) -> None:
    """ConnectionError unless something listens at the address's host and port: ray.init
    retries an address where nothing does for minutes, its warnings the only sign."""
    head = ray_head(address)
    if head is None:
        return
    try:
        with socket.create_connection(head, timeout=_CONNECT_SECONDS):
            pass
    except OSError as error:
        raise ConnectionError(f"ray_address {address}: no Ray head answers there ({error})") from error


_CONNECT_SECONDS = 10.0


@contextlib.contextmanager
def _signal_handlers_kept() -> Iterator[None]:
    """Puts back SIGTERM's and SIGINT's handlers after what it runs: ray.init installs its
    own, and SIGTERM then aborted the trainer before it saved its checkpoint (the command
    line's handler raises an interrupt that saves it)."""
    if threading.current_thread() is not threading.main_thread():  # handlers are the main thread's
        yield
        return
    kept = {number: signal.getsignal(number) for number in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for number, handler in kept.items():
            if handler is not None:  # None: set outside Python, nothing to put back
                signal.signal(number, handler)


class RayActors:
    """``config.ray_actors`` Ray actors, each seeded apart, as one source of samples."""

    def __init__(self, config: TrainConfig, nets: dict[str, ValueNet], seed: int) -> None:
        try:
            import ray
        except ImportError as error:  # pragma: no cover - depends on the environment
            raise missing_extra("doudizhu.train with ray_address", "Ray", "ray") from error
        if not ray.is_initialized():
            assert config.ray_address is not None
            _check_answers(config.ray_address)
            address = None if config.ray_address == "local" else config.ray_address
            with _signal_handlers_kept():
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
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
