"""Whether a hand may make a play: the engine's own check of a play, as one call."""

from __future__ import annotations

import dataclasses

from . import _core
from ._core import Cards, Move, Rules


@dataclasses.dataclass(frozen=True)
class PlayCheck:
    """The answer of :func:`can_play`: true when the play is allowed, else the reason."""

    ok: bool
    reason: str

    def __bool__(self) -> bool:
        return self.ok


def can_play(
    hand: Cards | str | int,
    play: Move | Cards | str,
    last: Move | Cards | str | None = None,
    rules: Rules | None = None,
    wild: int | str | tuple[int | str, ...] | list[int | str] | None = None,
) -> PlayCheck:
    """Whether ``hand`` holds ``play`` and may play it over ``last`` (None: leading) under
    ``rules`` (with ``wild`` the wild rank, or under laizi2 the pair of them). Card text that
    reads several ways is allowed when one of its readings is; the reason names what is
    wrong otherwise::

        can_play("33344", "333", last="222")   # PlayCheck(ok=False, reason="333 does not beat 222")
    """
    reason = _core.play_error(hand, play, last, rules, wild)
    return PlayCheck(not reason, reason)


__all__ = ["PlayCheck", "can_play"]
