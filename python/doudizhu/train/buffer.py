"""Samples of played decisions with their Monte-Carlo targets, and the FIFO the learner
takes them from (each sample is learned once, as DouZero's buffers are)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .. import encode


@dataclass(frozen=True)
class Samples:
    """``n`` decisions of one position: their inputs (int8, as the environment gives them)
    and the return their hand ended with (float32)."""

    z: npt.NDArray[np.int8]  # (n, 5, 162)
    x_no_action: npt.NDArray[np.int8]  # (n, the position's width)
    planes: npt.NDArray[np.int8]  # (n, 54): the chosen action's cards
    target: npt.NDArray[np.float32]  # (n,)

    def __post_init__(self) -> None:
        lengths = {name: len(getattr(self, name)) for name in _FIELDS}
        if len(set(lengths.values())) > 1:  # one row per decision in every field, or the rows mismatch
            raise ValueError(f"samples' fields differ in length: {lengths}")

    def __len__(self) -> int:
        return len(self.target)

    @staticmethod
    def concatenate(parts: list[Samples]) -> Samples:
        return Samples(*(np.concatenate([getattr(p, name) for p in parts]) for name in _FIELDS))

    def split(self, n: int) -> tuple[Samples, Samples]:
        """The first ``n`` samples and the rest."""
        head = Samples(*(getattr(self, name)[:n] for name in _FIELDS))
        tail = Samples(*(getattr(self, name)[n:] for name in _FIELDS))
        return head, tail


_FIELDS = ("z", "x_no_action", "planes", "target")


class Buffer:
    """Per position, the samples not learned yet, oldest first."""

    def __init__(self) -> None:
        self._parts: dict[str, list[Samples]] = {p: [] for p in encode.DOUZERO_POSITIONS}
        self._sizes = dict.fromkeys(encode.DOUZERO_POSITIONS, 0)

    def add(self, position: str, samples: Samples) -> None:
        if len(samples):
            self._parts[position].append(samples)
            self._sizes[position] += len(samples)

    def size(self, position: str) -> int:
        return self._sizes[position]

    def take(self, position: str, n: int) -> Samples:
        """The ``n`` oldest samples of ``position`` (n >= 1; it must hold that many), removed."""
        if n < 1:
            raise ValueError(f"{position}: cannot take {n} samples, only 1 or more")
        if self._sizes[position] < n:
            raise ValueError(f"{position}: {self._sizes[position]} samples, not {n}")
        head, rest = Samples.concatenate(self._parts[position]).split(n)
        self._parts[position] = [rest] if len(rest) else []
        self._sizes[position] -= n
        return head


__all__ = ["Buffer", "Samples"]
