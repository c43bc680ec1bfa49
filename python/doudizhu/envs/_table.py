"""What both environments share: one hand at a time, its action ids, what a seat sees.

Imports Gymnasium (for the spaces), so only the environment modules import it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import logger, spaces

from .. import encode
from .._core import ActionSpace, Game, IllegalActionError, Rules

# The blocks of the observation vector that are not 0/1 flags, bounded by log2 of a 64-bit
# stake (the passes since the move to beat are fewer than the seats).
_LOG2_BLOCKS = ("base", "multiplier")

Observation = dict[str, Any]  # {"observation": float32 vector, "action_mask": int8 vector}
RENDER_MODES = ("human", "ansi")


def observation_space(space: ActionSpace) -> spaces.Dict:
    """The Dict space of the observations: the encoded vector (the layout of the rules'
    seats and decks) and the action mask."""
    rules = space.rules
    layout = encode.layout_for(rules)
    high = np.ones(max(block.stop for block in layout.values()), dtype=np.float32)
    for name in _LOG2_BLOCKS:
        high[layout[name]] = 64.0
    high[layout["passes"]] = float(rules.players)
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(len(space),), dtype=np.int8),
        }
    )


def check_options(reward_scale: float, illegal_reward: float | None, render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
    if not np.isfinite(reward_scale):
        raise ValueError("reward_scale must be a finite number")
    if illegal_reward is not None and not np.isfinite(illegal_reward):
        raise ValueError("illegal_reward must be a finite number or None")


class Table:
    """The hand in play, dealt from an environment's random generator."""

    def __init__(self, rules: Rules | None) -> None:
        if rules is not None and not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules or None, not {type(rules).__name__}")
        self.rules = rules if rules is not None else Rules()
        self.space = ActionSpace(self.rules)
        self.seats = self.rules.players
        self.game = Game(seed=0, rules=self.rules)

    def deal(self, rng: np.random.Generator) -> None:
        """A new hand: the seed and the first bidder (the landlord without bidding) drawn
        from `rng`."""
        seed = int(rng.integers(2**63))
        self.game = Game(seed=seed, rules=self.rules, first_bidder=int(rng.integers(self.seats)))

    @property
    def over(self) -> bool:
        return self.game.phase == "over"

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """The legal action ids of `seat` as 0/1 (all 0 when it is not its turn)."""
        if self.game.to_move != seat:
            return np.zeros(len(self.space), dtype=np.int8)
        return self.space.mask(self.game).view(np.int8)

    def observe(self, seat: int) -> Observation:
        return {"observation": encode.observation(self.game, seat), "action_mask": self.mask(seat)}

    def play(self, action_id: Any) -> bool:
        """Plays the id for the player to move; False (and nothing played) when it is not
        a legal action id."""
        try:
            action = self.space.action(action_id)
        except (TypeError, ValueError):
            return False
        try:
            self.game.step(action)
        except IllegalActionError:
            return False
        return True

    def illegal(self, action_id: Any) -> IllegalActionError:
        return IllegalActionError(f"action id {action_id!r} is not legal for seat {self.game.to_move} now")

    def payouts(self, scale: float) -> list[float]:
        result = self.game.result
        assert result is not None
        return [float(p) * scale for p in result.payouts[: self.seats]]

    def show(self, render_mode: str | None) -> str | None:
        """Both environments' render(): the table as text ('ansi'), printed ('human'), or a
        warning when the environment has no render mode."""
        if render_mode is None:
            logger.warn("render() was called without a render_mode ('human' or 'ansi').")
            return None
        text = self.render()
        if render_mode == "ansi":
            return text
        print(text)
        return None

    def render(self) -> str:
        g = self.game
        lines = [f"phase {g.phase}, landlord {g.landlord}, to move {g.to_move}"]
        lines += [f"seat {s}: {g.hand(s)}" for s in range(self.seats)]
        if g.last is not None:
            lines.append(f"to beat: {g.last} (seat {g.last_by})")
        if g.result is not None:
            lines.append(f"payouts: {g.result.payouts}")
        return "\n".join(lines)
