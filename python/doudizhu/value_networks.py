"""The value networks: one per DouZero position, scoring each legal action of a decision.

Every action of a decision shares that decision's history ``z`` and state ``x_no_action``,
so each :class:`ValueNet` is evaluated in two halves: :meth:`ValueNet.decision` once per
decision (the history encoder, and the state's share of the first dense layer), then
:meth:`ValueNet.actions` once per action (the action's share of that layer, added to its
decision's, and the rest of the dense layers). Splitting the first layer's weight by input
columns gives the same values as the layer on the concatenated row, without a row per
action. :func:`batch_values` scores a batch of decisions of mixed positions that way.

- ``"small"`` (the default, sized for CPUs): the history flattened through one dense
  layer, then three dense layers of 256 (:class:`SmallNet`).
- ``"douzero"``: DouZero 1.1.0's layout, :class:`DouZeroNet` (an LSTM of 128 over the
  history, six dense layers of 512), in halves (:class:`DouZeroValueNet`); its state_dict
  is DouZero's, so the ``.ckpt`` files DouZero publishes load into it unchanged.

The widths are the core's (:data:`doudizhu.encode.DOUZERO_LAYOUT`). This module is what
both the bots (:mod:`doudizhu.neural`) and the trainer (:mod:`doudizhu.train`) build on;
it imports neither.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ._extras import missing_extra

try:
    import torch
    from torch import nn
except ImportError as error:  # pragma: no cover - depends on the environment
    raise missing_extra(__name__, "PyTorch", "train") from error

from ._core import NetworkError
from .encode import DOUZERO_LAYOUT, DOUZERO_POSITIONS
from .envs.vector import Batch

#: The history ``z``: its rows (rounds of plays, oldest first) and each row's width.
HISTORY_ROWS, HISTORY_WIDTH = DOUZERO_LAYOUT.z
#: An action's cards: DouZero's 4 x 13 + 2 jokers.
ACTION_WIDTH = DOUZERO_LAYOUT.action_width
#: The width of each position's x_no_action (the landlord's is narrower), by name.
STATE_WIDTH = {position: DOUZERO_LAYOUT.width(position) for position in DOUZERO_POSITIONS}
MODELS = ("small", "douzero")
_DOUZERO_HIDDEN = 512  # DouZero's dense layers
_DOUZERO_LSTM = 128  # and its history encoder


class DouZeroNet(nn.Module):
    """One position's value network in DouZero's layout: ``lstm``, ``dense1`` .. ``dense6``."""

    def __init__(self, feature_width: int) -> None:
        super().__init__()
        self.lstm = nn.LSTM(HISTORY_WIDTH, _DOUZERO_LSTM, batch_first=True)
        self.dense1 = nn.Linear(feature_width + _DOUZERO_LSTM, _DOUZERO_HIDDEN)
        self.dense2 = nn.Linear(_DOUZERO_HIDDEN, _DOUZERO_HIDDEN)
        self.dense3 = nn.Linear(_DOUZERO_HIDDEN, _DOUZERO_HIDDEN)
        self.dense4 = nn.Linear(_DOUZERO_HIDDEN, _DOUZERO_HIDDEN)
        self.dense5 = nn.Linear(_DOUZERO_HIDDEN, _DOUZERO_HIDDEN)
        self.dense6 = nn.Linear(_DOUZERO_HIDDEN, 1)

    def forward(self, z: torch.Tensor, x: torch.Tensor, owner: torch.Tensor | None = None) -> torch.Tensor:
        """Values ``(rows, 1)`` of ``x`` (rows of features) after the histories ``z``.

        ``z`` is ``(rows, 5, 162)`` as DouZero feeds it, or ``(1, 5, 162)`` for one history
        shared by every row (computed once); with ``owner`` (each row's index into ``z``),
        one history per decision of several (each computed once)."""
        history = self.lstm(z)[0][:, -1, :]
        history = history.expand(x.shape[0], -1) if owner is None else history[owner]
        h = torch.cat([history, x], dim=-1)
        for layer in (self.dense1, self.dense2, self.dense3, self.dense4, self.dense5):
            h = torch.relu(layer(h))
        return self.dense6(h)  # type: ignore[no-any-return]


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
    (cpp/learn/network.hpp): a dense history encoder, the first layer split into its decision
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
    """DouZero's network (``self.net``, a :class:`DouZeroNet`) in halves.

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
    return {position: build(model, position) for position in DOUZERO_POSITIONS}


def batch_values(nets: dict[str, ValueNet], z: torch.Tensor, x_no_action: torch.Tensor, position: torch.Tensor,
                 planes: torch.Tensor, owner: torch.Tensor, planned: torch.Tensor | None = None) -> torch.Tensor:
    """The value of every action of a batch of decisions of mixed positions.

    Per decision ``z`` ``(D, 5, 162)``, ``x_no_action`` ``(D, 430)`` and ``position``
    ``(D,)`` (indices into DOUZERO_POSITIONS); per action ``planes`` ``(A, 54)``,
    ``owner`` ``(A,)``, its decision's index, and for networks that read the plan
    ``planned`` ``(A,)``. Each position's network runs once on its decisions and once on
    their actions."""
    values = torch.empty(len(planes))
    for index, name in enumerate(DOUZERO_POSITIONS):
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


#: Why a network refuses other rules: its features are DouZero's widths.
SETTING_ONLY = "the neural bots play DouZero's setting only (three seats, one deck, no wild cards)"


def check_batch(batch: object) -> None:
    """Raises unless ``batch`` is a batch the networks read: a :class:`~doudizhu.envs.Batch`
    (TypeError) of ``features="douzero"`` in DouZero's setting (ValueError)."""
    if not isinstance(batch, Batch):
        raise TypeError(f"batch must be a VectorEnv's Batch, not {type(batch).__name__}")
    if batch.z is None or batch.x_no_action is None or batch.action_planes is None:
        raise ValueError("batch: the networks read DouZero's features: a batch of VectorEnv(features='douzero')")
    widths = (batch.z.shape[1:], batch.x_no_action.shape[1], batch.action_planes.shape[1])
    if widths != ((HISTORY_ROWS, HISTORY_WIDTH), max(STATE_WIDTH.values()), ACTION_WIDTH):
        raise ValueError(f"batch: {SETTING_ONLY}, not these rules")


def choose_batch(nets: dict[str, ValueNet], batch: Batch,
                 planned: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.int64]:
    """The greedy choice of every decision of a ``features="douzero"`` batch (see
    :func:`check_batch`), or a play that goes out where one is legal, as the engine's
    policies play; a decision with one legal action is not scored. ``planned``
    (A,), for networks that read the plan: 1 for each decision's action the fast heuristic
    plays."""
    check_batch(batch)
    assert batch.z is not None and batch.x_no_action is not None and batch.position is not None
    assert batch.action_planes is not None
    counts = np.diff(batch.offsets)
    rows = np.flatnonzero(counts > 1)
    values = np.zeros(len(batch.actions), dtype=np.float32)
    if len(rows):
        scored = np.repeat(counts > 1, counts)
        owner = np.repeat(np.arange(len(rows)), counts[rows])
        with torch.inference_mode():
            values[scored] = batch_values(
                nets,
                torch.from_numpy(batch.z[rows]),
                torch.from_numpy(batch.x_no_action[rows]),
                torch.from_numpy(batch.position[rows].astype(np.int64)),
                torch.from_numpy(batch.action_planes[scored]),
                torch.from_numpy(owner),
                None if planned is None else torch.from_numpy(planned[scored]),
            ).numpy()
    greedy = batch.argmax(require_finite(values))
    empties = _empties_hand(batch)
    return np.where(np.maximum.reduceat(empties, batch.offsets[:-1]), batch.argmax(empties), greedy)


def _empties_hand(batch: Batch) -> npt.NDArray[np.int8]:
    """1 for each action of a ``features="douzero"`` batch that plays the mover's whole hand
    (the engine's policies always take one: it wins the hand), 0 for the others: the
    action's cards equal the hand block of its decision's features."""
    assert batch.x_no_action is not None and batch.position is not None and batch.action_planes is not None
    played = batch.action_planes[:, DOUZERO_LAYOUT.action["action"]]
    hand = np.zeros((len(batch.position), played.shape[1]), dtype=played.dtype)
    for index, position in enumerate(DOUZERO_LAYOUT.positions):  # one slice a position, not a row at a time
        rows = batch.position == index
        hand[rows] = batch.x_no_action[rows, DOUZERO_LAYOUT.x_no_action[position]["hand"]]
    empties: npt.NDArray[np.bool_] = (played == np.repeat(hand, np.diff(batch.offsets), axis=0)).all(axis=1)
    return empties.astype(np.int8)


def require_finite(values: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """``values``, if all finite (NetworkError otherwise, as the engine's networks say it):
    weights that are finite but huge overflow to infinities and NaN, and the best of
    values holding NaN would be an action picked without a word."""
    bad = np.flatnonzero(~np.isfinite(values))
    if len(bad):
        kind = "NaN" if np.isnan(values[bad[0]]) else "infinite"
        raise NetworkError(f"the network valued an action as {kind}: its weights overflow a float")
    return values


__all__ = ["ACTION_WIDTH", "HISTORY_ROWS", "HISTORY_WIDTH", "MODELS", "SETTING_ONLY", "STATE_WIDTH", "DouZeroNet",
           "DouZeroValueNet", "SmallNet", "ValueNet", "batch_values", "build", "build_all", "check_batch",
           "choose_batch", "require_finite"]
