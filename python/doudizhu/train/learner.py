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
        """One optimizer step of ``position``'s network on ``samples``; the loss before it."""
        net = self.nets[position]
        values = net(
            torch.from_numpy(samples.z).float(),
            torch.from_numpy(samples.x_no_action).float(),
            torch.from_numpy(samples.planes).float(),
        )
        loss = ((values - torch.from_numpy(samples.target)) ** 2).mean()
        optimizer = self.optimizers[position]
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), self.max_grad_norm)
        optimizer.step()
        return float(loss.detach())

    def state_dict(self) -> dict[str, Any]:
        return {name: optimizer.state_dict() for name, optimizer in self.optimizers.items()}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        for name, optimizer in self.optimizers.items():
            optimizer.load_state_dict(state[name])


__all__ = ["Learner"]
