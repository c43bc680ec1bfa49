"""What a resumed run may change: the one refusal of the trainers' resumes (the loop, the
warm start, the recipe)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any


def refuse_changes(where: str, given: Mapping[str, Any], saved: Mapping[str, Any], per_call: Collection[str]) -> None:
    """Refuses (ValueError, naming them) the settings of ``given`` that differ from the
    run's ``saved`` ones, but for those in ``per_call``, which each call sets anew."""
    differ = [name for name, value in given.items() if name not in per_call and saved.get(name) != value]
    if differ:
        kept = ", ".join(f"{name}={saved.get(name)!r}" for name in differ)
        changed = ", ".join(f"{name}={given[name]!r}" for name in differ)
        raise ValueError(f"{where}: the run has {kept}; a resumed run cannot change them to {changed}")


__all__ = ["refuse_changes"]
