"""The learned policy's network file: written here from PyTorch modules, read by the engine
(:class:`doudizhu.Network`, cpp/learn/network.hpp, which defines the format), and back into
PyTorch modules from what the engine read, so that one reader exists.

A file holds a play network per DouZero position (:class:`~.value_networks.SmallNet`, tensors
``play.<position>.<its state_dict key>``), optionally a bid network per bidding mode
(:class:`BidNet`, ``bid.<mode>.<key>``), and metadata: JSON saying how it was made.
"""

from __future__ import annotations

import json
import os
import struct
import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from ._extras import missing_extra
from ._whole_file import whole_file

try:
    import torch
    from torch import nn
except ImportError as error:
    raise missing_extra(__name__, "PyTorch", "train") from error

from . import encode
from ._core import NETWORK_MAGIC, NETWORK_VERSION, Network, NetworkError, Rules
from .encode import bid_feature_width
from .value_networks import STATE_WIDTH, SmallNet

BID_MODES = ("classic", "call_rob")
BID_OUTPUTS = {"classic": 4, "call_rob": 2}  # classic: pass, 1, 2, 3; call and rob: no, yes


class BidNet(nn.Module):
    """A bidding mode's network: the seat's bidding features -> dense layers (ReLU between)
    -> the expected payout of each bid output."""

    def __init__(self, mode: str, hidden: tuple[int, ...] = (256, 128)) -> None:
        super().__init__()
        widths = (bid_feature_width(Rules(bidding=mode)), *hidden, BID_OUTPUTS[mode])
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(widths, widths[1:]))

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        h: torch.Tensor = self.layers[0](features)
        for layer in self.layers[1:]:
            h = layer(torch.relu(h))
        return h


def write(path: str | os.PathLike[str], play: Mapping[str, SmallNet], bid: Mapping[str, BidNet],
          metadata: Mapping[str, Any]) -> None:
    """Writes the networks (to a temporary name first, so that a crash leaves no half file).
    The engine reads :class:`SmallNet` play networks and :class:`BidNet` bid networks alone:
    others are refused (TypeError) here rather than by the reader, and what the reader
    refuses of the file written (weights that are not finite, a network named for no
    position, no play network) is a NetworkError before it replaces anything at ``path``.
    Widths are the rules' to judge: a file of networks no rules' features fit (a position's
    network missing, or one of another width) is written, and refused where it would play
    (:meth:`doudizhu.Network.check`, :class:`~doudizhu.bots.Neural`'s first use). ``metadata``:
    a dict of str keys whose values JSON holds (TypeError otherwise; ValueError for NaN and
    infinities, which JSON has not)."""
    if not isinstance(path, (str, os.PathLike)):  # bytes too: a path here is text
        raise TypeError(f"path must be a str or os.PathLike, not {type(path).__name__}")
    meta = _json(metadata)
    tensors: dict[str, np.ndarray] = {}
    for prefix, nets, kind in (("play", play, SmallNet), ("bid", bid, BidNet)):
        if not isinstance(nets, Mapping):
            raise TypeError(f"{prefix} must be a dict of networks by name, not {type(nets).__name__}")
        for name, net in nets.items():
            if not isinstance(net, kind):
                raise TypeError(f"{prefix} network {name!r}: the engine reads a {kind.__name__}, "
                                f"not a {type(net).__name__}")
            for key, value in net.state_dict().items():
                # float() first: NumPy has no bfloat16, and the file holds float32 whatever the module's
                tensors[f"{prefix}.{name}.{key}"] = value.detach().cpu().float().numpy().astype("<f4")
    parts = [NETWORK_MAGIC, struct.pack("<II", NETWORK_VERSION, len(meta)), meta, struct.pack("<I", len(tensors))]
    for name, array in tensors.items():
        encoded = name.encode()
        parts += [struct.pack("<H", len(encoded)), encoded, struct.pack("<B", array.ndim),
                  struct.pack(f"<{array.ndim}I", *array.shape),
                  np.ascontiguousarray(array).tobytes()]
    data = b"".join(parts)
    with whole_file(path) as partial:
        with open(partial, "wb") as file:
            file.write(data + struct.pack("<I", zlib.crc32(data)))  # the reader checks every byte by it
        if os.path.isfile(partial):  # read back as the engine will (a device written into is not)
            try:
                Network(partial)
            except NetworkError as error:  # named by the path asked for, not the temporary one
                raise NetworkError(str(error).replace(partial, os.fspath(path), 1)) from None


def _json(metadata: object) -> bytes:
    """``metadata`` as the file's JSON text, checked (see :func:`write`)."""
    if not isinstance(metadata, Mapping):
        raise TypeError(f"metadata must be a dict, not {type(metadata).__name__}")
    key = next((key for key in metadata if not isinstance(key, str)), None)
    if key is not None:  # json.dumps would write 1 as "1", and fail to sort 1 with (1, 2)
        raise TypeError(f"metadata's keys must be str, not {type(key).__name__} ({key!r})")
    try:
        return json.dumps(dict(metadata), sort_keys=True, allow_nan=False).encode()
    except (TypeError, ValueError) as error:  # a value JSON cannot hold, or NaN (Python's JSON, not JSON)
        raise type(error)(f"metadata: {error}") from None


def modules(network: Network) -> tuple[dict[str, SmallNet], dict[str, BidNet]]:
    """PyTorch modules holding a network file's weights (as the engine read them), in eval mode."""
    tensors = {name: torch.from_numpy(array) for name, array in network.tensors().items()}
    play: dict[str, SmallNet] = {}
    for position in encode.DOUZERO_POSITIONS:
        state = _under(tensors, f"play.{position}.")
        if state:
            head = tuple(int(state[f"head.{i}.weight"].shape[0]) for i in range(_layers(state, "head") - 1))
            play_net = SmallNet(STATE_WIDTH[position], hidden=int(state["state.weight"].shape[0]),
                                history=int(state["history.weight"].shape[0]), head=head, plan="plan.weight" in state)
            _load(play_net, state, f"play.{position}.")
            play[position] = play_net.eval()
    bid: dict[str, BidNet] = {}
    for mode in BID_MODES:
        state = _under(tensors, f"bid.{mode}.")
        if state:
            hidden = tuple(int(state[f"layers.{i}.weight"].shape[0]) for i in range(_layers(state, "layers") - 1))
            bid_net = BidNet(mode, hidden)
            _load(bid_net, state, f"bid.{mode}.")
            bid[mode] = bid_net.eval()
    return play, bid


def _load(module: nn.Module, state: Mapping[str, torch.Tensor], prefix: str) -> None:
    """Loads ``state`` into ``module``; a tensor of another shape than the module's (a file
    the engine reads, made for other features) is a NetworkError naming it, not PyTorch's."""
    expected = module.state_dict()
    for key, value in state.items():
        if key in expected and expected[key].shape != value.shape:
            need = tuple(expected[key].shape)
            raise NetworkError(f"{prefix}{key} is {tuple(value.shape)}; DouZero's features need {need}")
    module.load_state_dict(state)


def metadata(network: Network) -> dict[str, Any]:
    """The metadata the trainer wrote: a JSON object (NetworkError when it is none; the
    engine reads any UTF-8 text there)."""
    try:
        meta = json.loads(network.metadata or "{}")
    except (ValueError, RecursionError) as error:
        raise NetworkError(f"the network's metadata is no JSON: {str(error)[:200]}") from None
    if not isinstance(meta, dict):
        raise NetworkError(f"the network's metadata is a JSON {type(meta).__name__}, not an object")
    return meta


def _under(tensors: Mapping[str, torch.Tensor], prefix: str) -> dict[str, torch.Tensor]:
    return {name[len(prefix):]: value for name, value in tensors.items() if name.startswith(prefix)}


def _layers(state: Mapping[str, torch.Tensor], name: str) -> int:
    return sum(1 for key in state if key.startswith(f"{name}.") and key.endswith(".weight"))


__all__ = ["BID_MODES", "BidNet", "metadata", "modules", "write"]
