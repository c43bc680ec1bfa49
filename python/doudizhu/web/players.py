"""The bots a seat can be given in the browser, by name.

``heuristic``, ``neural`` (the shipped network: DouZero's setting, three seats of 17 cards
and a kitty of 3 without wild cards), ``ismcts`` (the tree search, its default budget: about
20 ms of CPU a play), ``fast_heuristic`` and ``random`` are the built-in C++ policies
(:data:`BUILTIN`);
``determinized`` is the search bot of :mod:`doudizhu.bots` (slower: a second or more a play). ``douzero`` is
offered only when a trained model is installed: PyTorch importable and the environment
variable ``DOUDIZHU_DOUZERO_MODELS`` naming a directory with DouZero's three checkpoints
(``landlord.ckpt``, ``landlord_up.ckpt``, ``landlord_down.ckpt``). That variable is the
hook for a model of one's own; none ships with the package.
"""

from __future__ import annotations

import os
import pathlib

from .._core import NetworkError, Rules, shipped_network
from .._extras import installed
from ..bots import ISMCTS, Bot, DeterminizedBot, FastHeuristic, Heuristic, Neural, Random
from ..encode import DOUZERO_POSITIONS

DEFAULT = "heuristic"
BUILTIN = (DEFAULT, "neural", "ismcts", "fast_heuristic", "random")
MODELS_VARIABLE = "DOUDIZHU_DOUZERO_MODELS"
# Fewer worlds than the bot's default: a browser waits for every bot turn.
_DETERMINIZED_WORLDS = 6


def _douzero_checkpoints() -> dict[str, pathlib.Path] | None:
    """DouZero's checkpoints by position, if installed."""
    return None if douzero_missing() else _douzero_paths(os.environ[MODELS_VARIABLE])


def _douzero_paths(folder: str) -> dict[str, pathlib.Path]:
    return {position: pathlib.Path(folder) / f"{position}.ckpt" for position in DOUZERO_POSITIONS}


def douzero_missing() -> str | None:
    """Why ``douzero`` is not offered (None when it is): what the server says at its start
    where the variable is set, so that a setting is never ignored without a word."""
    folder = os.environ.get(MODELS_VARIABLE)
    if not folder:
        return f"{MODELS_VARIABLE} is not set"
    if not installed("torch"):
        return f"{MODELS_VARIABLE} is set, but the douzero bot needs PyTorch (the [train] extra)"
    absent = [path.name for path in _douzero_paths(folder).values() if not path.is_file()]
    if absent:
        return f"{MODELS_VARIABLE} names {folder}, which lacks {', '.join(absent)}"
    return None


def available() -> list[str]:
    """The bot names this server offers, the default first."""
    names = [*BUILTIN, "determinized"]
    if _douzero_checkpoints() is not None:
        names.append("douzero")
    return names


def playable(rules: Rules) -> list[str]:
    """The bots of :func:`available` that play under ``rules``: the networks (ours and
    DouZero's) only in DouZero's setting, which the shipped network's check tells."""
    try:
        shipped_network().check(rules)
    except NetworkError:
        return [name for name in available() if name not in ("neural", "douzero")]
    return available()


def make(name: str, seed: int, rules: Rules) -> Bot:
    """A fresh bot for one seat under ``rules`` (``seed`` makes the random ones repeatable);
    ``doudizhu.NetworkError`` where the network cannot play them, before a game starts."""
    if name == "heuristic":
        return Heuristic()
    if name == "neural":
        bot = Neural()
        bot.check(rules)
        return bot
    if name == "ismcts":
        return ISMCTS(seed=seed)
    if name == "fast_heuristic":
        return FastHeuristic()
    if name == "random":
        return Random(seed)
    if name == "determinized":
        return DeterminizedBot(worlds=_DETERMINIZED_WORLDS, seed=seed)
    checkpoints = _douzero_checkpoints() if name == "douzero" else None
    if checkpoints is None:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(available())}")
    from ..neural import DouZeroBot  # PyTorch: imported only when such a bot is asked for

    return DouZeroBot(**checkpoints)


__all__ = ["BUILTIN", "DEFAULT", "MODELS_VARIABLE", "available", "douzero_missing", "make", "playable"]
