"""The learner: each position's network fitted to the returns of the actions chosen, by
mean squared error, with DouZero's optimizer (RMSprop) and gradient clipping."""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from .. import encode
from ..value_networks import ValueNet
from .buffer import Samples


class Learner:
    """Per position, a network and its optimizer."""

    def __init__(self, nets: dict[str, ValueNet], learning_rate: float, alpha: float, eps: float,
                 max_grad_norm: float) -> None:
        self.nets = nets
        self.max_grad_norm = max_grad_norm
        self.optimizers = {
            name: torch.optim.RMSprop(nets[name].parameters(), lr=learning_rate, alpha=alpha, eps=eps)
            for name in encode.DOUZERO_POSITIONS
        }

    def learn(self, position: str, samples: Samples) -> float:
        """One optimizer step of ``position``'s network on ``samples``; the loss before it.
        ValueError, before the step, once the network's values are no longer finite: the
        run has diverged (a learning rate too high), and the step would spread it."""
        net = self.nets[position]
        values = net(
            torch.from_numpy(samples.z).float(),
            torch.from_numpy(samples.x_no_action).float(),
            torch.from_numpy(samples.planes).float(),
        )
        loss = ((values - torch.from_numpy(samples.target)) ** 2).mean()
        if not bool(torch.isfinite(loss)):
            raise ValueError(f"training diverged: the {position} network's loss is {float(loss.detach())} "
                             "(its values overflow; a lower learning rate may train)")
        optimizer = self.optimizers[position]
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), self.max_grad_norm)
        optimizer.step()
        return float(loss.detach())

    def state_dict(self) -> dict[str, Any]:
        return {name: optimizer.state_dict() for name, optimizer in self.optimizers.items()}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """The optimizers' states (ValueError for a state holding a number that is not finite,
        or of another shape than its parameter's: the first step would spoil the network, or
        fail in the middle of training; and for settings other than the run's: torch
        takes a state's learning rate, alpha and the rest in place of the optimizer's own, and
        a file that said lr -1 trained by gradient ascent)."""
        for name, optimizer in self.optimizers.items():
            settings = [_settings(group) for group in optimizer.param_groups]
            optimizer.load_state_dict(state[name])
            if [_settings(group) for group in optimizer.param_groups] != settings:
                raise ValueError(f"the {name} optimizer's settings are not the run's ({settings[0]})")
            for parameter, slots in optimizer.state.items():
                for key, value in slots.items():
                    if not isinstance(value, torch.Tensor):
                        continue
                    if not bool(torch.isfinite(value).all()):
                        raise ValueError(f"the {name} optimizer's state {key!r} is not finite")
                    # A step count is a scalar; a running average has its parameter's shape.
                    if value.dim() > 0 and value.shape != parameter.shape:
                        raise ValueError(f"the {name} optimizer's state {key!r} has shape {tuple(value.shape)}, "
                                         f"not its parameter's {tuple(parameter.shape)}")


def _settings(group: dict[str, Any]) -> dict[str, Any]:
    """An optimizer's parameter group without its parameters: its learning rate and the rest."""
    return {key: value for key, value in group.items() if key != "params"}


__all__ = ["Learner"]
