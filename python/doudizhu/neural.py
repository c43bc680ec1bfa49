"""Neural bots (PyTorch: the ``[train]`` extra): DouZero's value networks on this engine.

:class:`DouZeroNet` has the layout of DouZero 1.1.0's networks (an LSTM over the history
of the last plays, then six dense layers giving one value per legal action), so the
``.ckpt`` files DouZero publishes and saves (a ``state_dict`` per position) load into it
unchanged. :class:`DouZeroBot` plays three of them, one per position, through
:func:`doudizhu.encode.douzero`: the action with the highest value, as DouZero's
``DeepAgent`` plays. Unlike DouZero it runs the LSTM once per decision rather than once
per legal action (the history is the same for every action, so the values are equal).

:class:`TorchBot` plays a checkpoint of :mod:`doudizhu.train` (its three networks, of
either layout) the same way, and a whole :class:`~doudizhu.envs.VectorEnv` batch of
tables in one pass per position (:meth:`TorchBot.choose_batch`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Union

from ._extras import missing_extra

try:
    import torch
    from torch import nn
except ImportError as error:  # pragma: no cover - depends on the environment
    raise missing_extra(__name__, "PyTorch", "train") from error

from . import encode
from ._core import Action, Game, choose_action

if TYPE_CHECKING:  # the trainer imports this module: only its types here
    import numpy as np
    import numpy.typing as npt

    from .envs.vector import Batch
    from .train.checkpoint import CheckpointLike

#: DouZero's positions, and the width of each one's per-action features (x_batch columns).
POSITIONS = ("landlord", "landlord_up", "landlord_down")
FEATURE_WIDTH = {"landlord": 373, "landlord_up": 484, "landlord_down": 484}
HISTORY_WIDTH = 162  # one row of z: three plays of 54 card slots each
_HIDDEN = 512
_LSTM = 128

#: A checkpoint: a path to a ``.ckpt``/``.pt`` file of a ``state_dict``, or the dict itself.
Checkpoint = Union[str, "os.PathLike[str]", Mapping[str, Any]]


class DouZeroNet(nn.Module):
    """One position's value network in DouZero's layout: ``lstm``, ``dense1`` .. ``dense6``."""

    def __init__(self, feature_width: int) -> None:
        super().__init__()
        self.lstm = nn.LSTM(HISTORY_WIDTH, _LSTM, batch_first=True)
        self.dense1 = nn.Linear(feature_width + _LSTM, _HIDDEN)
        self.dense2 = nn.Linear(_HIDDEN, _HIDDEN)
        self.dense3 = nn.Linear(_HIDDEN, _HIDDEN)
        self.dense4 = nn.Linear(_HIDDEN, _HIDDEN)
        self.dense5 = nn.Linear(_HIDDEN, _HIDDEN)
        self.dense6 = nn.Linear(_HIDDEN, 1)

    def forward(self, z: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        """Values ``(rows, 1)`` of ``x`` (rows of features) after the history ``z``.

        ``z`` is ``(rows, 5, 162)`` as DouZero feeds it, or ``(1, 5, 162)`` for one history
        shared by every row (computed once)."""
        history = self.lstm(z)[0][:, -1, :].expand(x.shape[0], -1)
        h = torch.cat([history, x], dim=-1)
        for layer in (self.dense1, self.dense2, self.dense3, self.dense4, self.dense5):
            h = torch.relu(layer(h))
        return self.dense6(h)  # type: ignore[no-any-return]


def load_douzero_net(position: str, checkpoint: Checkpoint) -> DouZeroNet:
    """A position's network with a checkpoint's weights (every key of the layout, no other)."""
    if position not in FEATURE_WIDTH:
        raise ValueError(f"position must be one of {', '.join(POSITIONS)}, not {position!r}")
    if isinstance(checkpoint, Mapping):
        state = checkpoint
    else:
        state = torch.load(checkpoint, map_location="cpu", weights_only=True)
    net = DouZeroNet(FEATURE_WIDTH[position])
    try:
        net.load_state_dict(state)
    except RuntimeError as error:  # torch names the missing, unexpected or misshapen keys
        raise ValueError(f"{position}: not a DouZero {position} network: {error}") from error
    return net.eval()


class _ValueBot:
    """A bot that plays the legal action of highest value (bidding as the heuristic)."""

    def values(self, game: Game) -> tuple[list[Action], torch.Tensor]:
        """The legal actions of ``game.to_move`` and their values (one each, in that order)."""
        raise NotImplementedError

    def act(self, game: Game) -> Action:
        if game.phase == "bidding":
            return choose_action(game, "heuristic", 0)
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        actions, values = self.values(game)
        return actions[int(torch.argmax(values))]


class DouZeroBot(_ValueBot):
    """DouZero's three networks as a bot (``act(game)``), from their checkpoints.

    Plays the hand's play phase in every setting :func:`doudizhu.encode.douzero` covers
    (three seats, one deck, no wild cards: the ``douzero`` preset, and the standard rules'
    play too); DouZero has no bidding network, so it bids as the built-in heuristic.
    """

    def __init__(self, landlord: Checkpoint, landlord_up: Checkpoint, landlord_down: Checkpoint) -> None:
        given = {"landlord": landlord, "landlord_up": landlord_up, "landlord_down": landlord_down}
        self.nets = {position: load_douzero_net(position, checkpoint) for position, checkpoint in given.items()}

    def values(self, game: Game) -> tuple[list[Action], torch.Tensor]:
        """The legal actions of ``game.to_move`` and their values (one each, in that order)."""
        obs = encode.douzero(game)
        position = obs["position"]
        if position not in self.nets or obs["x_batch"].shape[1] != FEATURE_WIDTH[position]:
            raise ValueError("DouZeroBot plays DouZero's setting only (three seats, one deck, no wild cards)")
        with torch.inference_mode():
            z = torch.from_numpy(obs["z"]).float().unsqueeze(0)
            x = torch.from_numpy(obs["x_batch"])
            return obs["legal_actions"], self.nets[obs["position"]](z, x).squeeze(1)

    def __repr__(self) -> str:
        return "DouZeroBot()"


class TorchBot(_ValueBot):
    """A :mod:`doudizhu.train` checkpoint as a bot: the action of highest value.

    ``checkpoint``: a checkpoint file, a run's folder (its ``checkpoint.pt``) or the
    checkpoint's dict. Plays what :class:`DouZeroBot` plays (the play phase of three seats,
    one deck, no wild cards) and bids as the built-in heuristic. ``act(game)`` scores one
    decision; :meth:`choose_batch` every decision of a VectorEnv batch at once.
    """

    def __init__(self, checkpoint: CheckpointLike) -> None:
        from .train import checkpoint as saved

        payload = saved.load(checkpoint)
        self.model = str(payload["model"])
        self.nets = saved.nets_of(payload)

    def values(self, game: Game) -> tuple[list[Action], torch.Tensor]:
        obs = encode.douzero(game)
        width = obs["x_no_action"].shape[0]
        net = self.nets[obs["position"]]
        with torch.inference_mode():
            z, x_no_action = torch.from_numpy(obs["z"]).float(), torch.from_numpy(obs["x_no_action"]).float()
            decision = net.decision(z[None], x_no_action[None])
            planes = torch.from_numpy(obs["x_batch"][:, width:])
            return obs["legal_actions"], net.actions(decision.expand(len(planes), -1), planes)

    def choose_batch(self, batch: Batch) -> npt.NDArray[np.int64]:
        """The choice of every decision of a ``VectorEnv(features="douzero")`` batch, for
        ``env.step``."""
        from .train.actors import choose

        return choose(self.nets, batch)

    def __repr__(self) -> str:
        return f"TorchBot(model={self.model!r})"


__all__ = ["FEATURE_WIDTH", "POSITIONS", "Checkpoint", "DouZeroBot", "DouZeroNet", "TorchBot", "load_douzero_net"]
