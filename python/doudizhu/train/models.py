"""The value networks the trainer fits: one per DouZero position, split in two halves.

A value network scores one legal action of one decision. Every action of a decision
shares that decision's history ``z`` and state ``x_no_action``, so each network here is
evaluated in two halves: :meth:`ValueNet.decision` once per decision (the history
encoder, and the state's share of the first dense layer), then :meth:`ValueNet.actions`
once per action (the action's share of that layer, added to its decision's, and the
rest of the dense layers). Splitting the first layer's weight by input columns gives the
same values as the layer on the concatenated row, without a row per action.

- ``"small"`` (the default, sized for CPUs): the history flattened through one dense
  layer, then three dense layers of 256.
- ``"douzero"``: DouZero 1.1.0's layout, :class:`doudizhu.neural.DouZeroNet` (an LSTM of
  128 over the history, six dense layers of 512); its state_dict is DouZero's.
"""

from __future__ import annotations

import torch
from torch import nn

from .. import encode
from .._core import DOUZERO_X_WIDTHS
from ..neural import ACTION_WIDTH, HISTORY_WIDTH, DouZeroNet

HISTORY_ROWS = 5
MODELS = ("small", "douzero")
#: The width of each position's x_no_action (the landlord's is narrower), by name.
STATE_WIDTH = dict(zip(encode.DOUZERO_POSITIONS, DOUZERO_X_WIDTHS))


class ValueNet(nn.Module):
    """A network scoring actions in two halves (see the module)."""

    def decision(self, z: torch.Tensor, x_no_action: torch.Tensor) -> torch.Tensor:
        """``(D, hidden)``: each decision's share of the first layer, from ``z`` ``(D, 5,
        162)`` and ``x_no_action`` ``(D, width)`` (float)."""
        raise NotImplementedError

    def actions(self, decision: torch.Tensor, planes: torch.Tensor,
                planned: torch.Tensor | None = None) -> torch.Tensor:
        """``(A,)``: the value of each action, from its decision's row of :meth:`decision`
        (``(A, hidden)``, repeated per action) and its cards ``(A, 54)`` (float); a network
        that reads the plan (:attr:`reads_plan`) also takes ``planned`` ``(A,)``, 1 for the
        action the fast heuristic plays."""
        raise NotImplementedError

    reads_plan = False

    def forward(self, z: torch.Tensor, x_no_action: torch.Tensor, planes: torch.Tensor,
                planned: torch.Tensor | None = None) -> torch.Tensor:
        """One value per row, each row one decision and one action (the learner's samples)."""
        return self.actions(self.decision(z, x_no_action), planes, planned)


class SmallNet(ValueNet):
    """The default model, the layout the engine's ``"neural"`` policy evaluates in C++
    (cpp/network.hpp): a dense history encoder, the first layer split into its decision
    and action columns, then ``head`` dense layers (ReLU between) ending in the value."""

    def __init__(self, state_width: int, hidden: int = 256, history: int = 128,
                 head: tuple[int, ...] = (256, 256), plan: bool = False) -> None:
        super().__init__()
        self.history = nn.Linear(HISTORY_ROWS * HISTORY_WIDTH, history)
        self.state = nn.Linear(history + state_width, hidden)  # the first layer's decision columns
        self.action = nn.Linear(ACTION_WIDTH, hidden, bias=False)  # ... and its action columns
        if plan:  # ... and a column for the action the fast heuristic's plan plays
            self.plan = nn.Linear(1, hidden, bias=False)
            self.reads_plan = True
        widths = (hidden, *head, 1)
        self.head = nn.ModuleList(nn.Linear(a, b) for a, b in zip(widths, widths[1:]))

    def decision(self, z: torch.Tensor, x_no_action: torch.Tensor) -> torch.Tensor:
        history = torch.relu(self.history(z.flatten(1)))
        return self.state(torch.cat([history, x_no_action], dim=1))  # type: ignore[no-any-return]

    def actions(self, decision: torch.Tensor, planes: torch.Tensor,
                planned: torch.Tensor | None = None) -> torch.Tensor:
        h = decision + self.action(planes)
        if self.reads_plan:
            if planned is None:
                raise ValueError("this network reads the plan's choice: give planned")
            h = h + self.plan(planned[:, None])
        for layer in self.head:
            h = layer(torch.relu(h))
        return h.squeeze(1)  # type: ignore[no-any-return]


class DouZeroValueNet(ValueNet):
    """DouZero's network (``self.net``, a :class:`~doudizhu.neural.DouZeroNet`) in halves.

    DouZero's ``dense1`` reads ``[lstm output, x_no_action, action]``; its weight's
    columns are cut at the action's, so the LSTM and the state's part run per decision."""

    def __init__(self, state_width: int) -> None:
        super().__init__()
        self.net = DouZeroNet(state_width + ACTION_WIDTH)

    def decision(self, z: torch.Tensor, x_no_action: torch.Tensor) -> torch.Tensor:
        history = self.net.lstm(z)[0][:, -1, :]
        weight = self.net.dense1.weight[:, :-ACTION_WIDTH]
        return torch.nn.functional.linear(torch.cat([history, x_no_action], dim=1), weight, self.net.dense1.bias)

    def actions(self, decision: torch.Tensor, planes: torch.Tensor,
                planned: torch.Tensor | None = None) -> torch.Tensor:
        h = torch.relu(decision + torch.nn.functional.linear(planes, self.net.dense1.weight[:, -ACTION_WIDTH:]))
        for layer in (self.net.dense2, self.net.dense3, self.net.dense4, self.net.dense5):
            h = torch.relu(layer(h))
        return self.net.dense6(h).squeeze(1)  # type: ignore[no-any-return]


def build(model: str, position: str) -> ValueNet:
    """A new network of ``model`` (one of :data:`MODELS`) for ``position``."""
    if model == "small":
        return SmallNet(STATE_WIDTH[position])
    if model == "douzero":
        return DouZeroValueNet(STATE_WIDTH[position])
    raise ValueError(f"model must be one of {', '.join(MODELS)}, not {model!r}")


def build_all(model: str) -> dict[str, ValueNet]:
    """One new network per position, by DouZero's position names."""
    return {position: build(model, position) for position in encode.DOUZERO_POSITIONS}


def batch_values(nets: dict[str, ValueNet], z: torch.Tensor, x_no_action: torch.Tensor, position: torch.Tensor,
                 planes: torch.Tensor, owner: torch.Tensor, planned: torch.Tensor | None = None) -> torch.Tensor:
    """The value of every action of a batch of decisions of mixed positions.

    Per decision ``z`` ``(D, 5, 162)``, ``x_no_action`` ``(D, 430)`` and ``position``
    ``(D,)`` (indices into DOUZERO_POSITIONS); per action ``planes`` ``(A, 54)``,
    ``owner`` ``(A,)``, its decision's index, and for networks that read the plan
    ``planned`` ``(A,)``. Each position's network runs once on its decisions and once on
    their actions."""
    values = torch.empty(len(planes))
    for index, name in enumerate(encode.DOUZERO_POSITIONS):
        rows = torch.nonzero(position == index).squeeze(1)
        if not len(rows):
            continue
        local = torch.full((len(position),), -1, dtype=torch.int64)
        local[rows] = torch.arange(len(rows))  # a decision's row among this position's
        acts = torch.nonzero(local[owner] >= 0).squeeze(1)
        decision = nets[name].decision(z[rows].float(), x_no_action[rows, : STATE_WIDTH[name]].float())
        values[acts] = nets[name].actions(decision[local[owner[acts]]], planes[acts].float(),
                                          None if planned is None else planned[acts].float())
    return values


__all__ = ["MODELS", "STATE_WIDTH", "DouZeroValueNet", "SmallNet", "ValueNet", "batch_values", "build", "build_all"]
