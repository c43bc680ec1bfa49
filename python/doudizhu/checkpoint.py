"""The trainer's checkpoints: one ``torch.save`` file of everything a run needs to play or
go on. :mod:`doudizhu.train` writes them; :class:`doudizhu.neural.TorchBot` plays them.

A checkpoint is a dict: ``format``, ``model`` (the name of a
:data:`~doudizhu.value_networks.MODELS` layout), ``nets`` (a state_dict per position), and
for resuming ``config`` (the run's :class:`~doudizhu.train.TrainConfig` as a dict),
``optimizers`` and ``counters``. Only tensors, numbers, strings and containers of them are
saved, so it loads with ``weights_only=True``.
"""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Mapping
from typing import Any, Union

from ._checkpoint_files import FILE, checkpoint_file
from ._extras import missing_extra
from ._whole_file import whole_file

try:
    import torch
except ImportError as error:  # pragma: no cover - depends on the environment
    raise missing_extra(__name__, "PyTorch", "train") from error

from .encode import DOUZERO_POSITIONS
from .value_networks import MODELS, ValueNet, build_all

FORMAT = "doudizhu-train/1"

#: A trainer's checkpoint: the path of its file, a run's folder holding one, or its dict.
CheckpointLike = Union[str, "os.PathLike[str]", Mapping[str, Any]]


def save(path: str | os.PathLike[str], payload: Mapping[str, Any]) -> None:
    """Writes a checkpoint (to a temporary name first, so a crash leaves the old one whole);
    OSError naming ``path`` when it cannot be written (torch says so in a RuntimeError)."""
    try:
        with whole_file(path) as partial:
            torch.save(dict(payload), partial)
    except RuntimeError as error:  # a full disk, no such folder, a folder in the way
        why = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise OSError(f"cannot write {os.fspath(path)!r}: {why}") from error


def read_torch_file(path: str, kind: str) -> dict[str, Any]:
    """The dict a trainer saved at ``path`` (``kind`` names it in errors): ValueError for a
    file that is no regular file (a device or FIFO: read without end, or waited on), whose
    zip members fail their checksums (torch.load reads changed weights without a word), or
    that torch cannot read as a dict; OSError when it cannot be read at all."""
    if os.path.exists(path) and not os.path.isfile(path):
        raise ValueError(f"{path}: no regular file, so no {kind}")
    with open(path, "rb") as file:  # OSError: the file could not be read, not a fault of its contents
        data = file.read()
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            damaged = archive.testzip()
        payload = None if damaged is not None else torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except MemoryError:
        raise
    except Exception as error:  # a damaged file fails anywhere in zipfile's or torch's reader, in any type
        raise ValueError(f"{path}: not a {kind} ({type(error).__name__} reading it)") from None
    if damaged is not None:
        raise ValueError(f"{path}: a damaged {kind} (its member {damaged} fails its checksum)")
    if not isinstance(payload, dict):
        raise ValueError(f"{path}: not a {kind}")
    return payload


def load(checkpoint: CheckpointLike) -> dict[str, Any]:
    """A checkpoint's dict, from its file or its run's folder (or the dict, checked)."""
    if isinstance(checkpoint, Mapping):
        payload = dict(checkpoint)
    else:
        path = os.fspath(checkpoint) if isinstance(checkpoint, (str, os.PathLike)) else checkpoint
        if not isinstance(path, str):  # bytes were read as a file name, and reported as no checkpoint
            raise TypeError(f"checkpoint must be a path (str or os.PathLike of str) or a dict, "
                            f"not {type(path).__name__}")
        payload = read_torch_file(checkpoint_file(path), "doudizhu.train checkpoint")
    if payload.get("format") != FORMAT:
        raise ValueError(f"not a doudizhu.train checkpoint (format {payload.get('format')!r}, expected {FORMAT!r})")
    if payload.get("model") not in MODELS:
        raise ValueError(f"a checkpoint of model {payload.get('model')!r}, none of {', '.join(MODELS)}")
    nets = payload.get("nets")
    absent = [p for p in DOUZERO_POSITIONS if not isinstance(nets, Mapping) or not isinstance(nets.get(p), Mapping)]
    if absent:
        raise ValueError(f"a checkpoint without the {', '.join(absent)} network{'s' if len(absent) > 1 else ''}")
    return payload


#: What a checkpoint holds besides its networks when a run can go on from it.
RESUME_KEYS = ("config", "optimizers", "counters")


def check_resumable(payload: Mapping[str, Any]) -> None:
    """Refuses (ValueError) a checkpoint that plays but lacks what resuming needs."""
    absent = [key for key in RESUME_KEYS if not isinstance(payload.get(key), Mapping)]
    if absent:
        raise ValueError(f"a checkpoint to play, not to resume: it has no {', '.join(absent)}")


def nets_of(payload: Mapping[str, Any]) -> dict[str, ValueNet]:
    """New networks holding a checkpoint's weights, in eval mode."""
    nets = build_all(str(payload["model"]))
    for name, net in nets.items():
        load_weights(name, net, payload["nets"][name], repr(payload["model"]))
        net.eval()
    return nets


def load_weights(name: str, net: torch.nn.Module, weights: Any, model: str) -> None:
    """Loads a checkpoint's ``weights`` for its network ``name`` into ``net`` (a ``model``
    network, as errors name it); ValueError naming the tensor if they are not its weights
    or not all finite."""
    expected = net.state_dict()
    why = _weights_error(expected, weights) if isinstance(weights, Mapping) else \
        f"its weights are a {type(weights).__name__}, not a dict of tensors"
    if why:
        raise ValueError(f"the checkpoint's {name} network is no {model} network: {why}")
    # Not finite as the network holds them (1e300 is finite in float64, not in float32): its
    # values would be NaN, as the engine's reader refuses them. Asked first: ``net`` unchanged.
    spoiled = next((key for key, tensor in weights.items() if not torch.isfinite(tensor.to(expected[key].dtype)).all()),
                   None)
    if spoiled is not None:
        raise ValueError(f"the checkpoint's {name} network holds weights that are not finite ({spoiled})")
    net.load_state_dict(dict(weights))  # not torch's _metadata, which a file may spoil (and these modules do not read)


def _weights_error(expected: Mapping[str, torch.Tensor], given: Mapping[Any, Any]) -> str:
    """What keeps ``given`` from being loaded in place of ``expected``, naming the tensor;
    '' if nothing. Asked before ``load_state_dict``, whose report names the tensor on its
    second line and meets a key that is no str with an AttributeError."""
    for key, weights in given.items():
        if not isinstance(key, str):
            return f"a tensor named {key!r}: names are str, not {type(key).__name__}"
        if key not in expected:
            return f"unknown tensor {key!r}"
        if not isinstance(weights, torch.Tensor):
            return f"{key} is a {type(weights).__name__}, not a tensor"
        if not weights.is_floating_point():  # load_state_dict would copy them in as floats: 0.7 saved as 0
            return f"{key} holds no floating point ({weights.dtype})"
        if weights.layout != torch.strided or weights.is_meta or weights.is_nested:  # torch cannot copy them in
            kind = "meta" if weights.is_meta else "nested" if weights.is_nested else weights.layout
            return f"{key} is a {kind} tensor, not a dense one of data"
        if weights.shape != expected[key].shape:
            return f"{key} has shape {tuple(weights.shape)}, not {tuple(expected[key].shape)}"
    missing = next((key for key in expected if key not in given), None)
    return f"{missing} is missing" if missing is not None else ""


__all__ = ["FILE", "FORMAT", "RESUME_KEYS", "CheckpointLike", "check_resumable", "load", "load_weights",
           "nets_of", "read_torch_file", "save"]
