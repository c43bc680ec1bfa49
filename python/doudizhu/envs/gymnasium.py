"""A Gymnasium environment: the agent plays one seat of Dou Dizhu against bots.

``DouDizhuEnv(rules=None, seat=0, opponents="heuristic", reward_scale=1.0,
illegal_reward=-1.0, render_mode=None)``; importing this module registers it as
``"doudizhu/DouDizhu-v0"`` (``gymnasium.make("doudizhu/DouDizhu-v0", opponents="random")``).

Each episode is one hand, bidding included: ``reset(seed=...)`` deals (the deal seed, the
first bidder and, with ``seat=None``, the agent's seat drawn from the environment's
generator) and lets the bots act until it is the agent's turn; ``step(action_id)`` plays
the agent's action and the bots' replies. The bots are any players :func:`doudizhu.selfplay`
takes (a built-in policy plays in C++, a Python bot in Python), seeded from the same
generator, so a seeded episode replays exactly. ``opponents`` is one policy for all, or
one for each other seat in the order of play from the agent's (a bot object given once plays every opponent seat,
handed each seat's view: see docs/guide/bots.md for what that lets it put together). A
hand that ends before the agent's first turn (a landlord going out with its opening lead)
is skipped.

The legal actions are the observation's ``"action_mask"`` (int8), ``info["action_mask"]``
(the same) and ``env.action_masks()`` (bool, for maskable learners). The reward is 0
until the hand ends, then the agent's payout; observations, rewards and illegal actions:
see :mod:`doudizhu.envs`. ``info`` also holds ``"seat"`` and, at the end, ``"payouts"``.

Requires Gymnasium (``pip install "doudizhu-engine[envs]"``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .._extras import missing_extra

try:
    import gymnasium as gym
    from gymnasium import spaces
    from gymnasium.error import ResetNeeded
except ImportError as error:  # pragma: no cover - depends on the environment
    raise missing_extra(__name__, "Gymnasium", "envs") from error

from .._core import POLICIES, Game, Rules, check_policy, plays_in_core
from ..lockstep import Player, Policy, check_rules, choose, seat_players
from ._hand import RENDER_MODES, EnvironmentHand, Observation, check_options, check_seed, observation_space

__all__ = ["ENV_ID", "DouDizhuEnv"]

ENV_ID = "doudizhu/DouDizhu-v0"

def _policies(opponents: Policy, count: int, rules: Rules) -> tuple[Player, ...]:
    players = tuple(seat_players(opponents, count, "opponents"))
    if any(isinstance(p, str) and p not in POLICIES for p in players):
        raise ValueError(f"opponents must be one of {POLICIES}, a bot, or {count} of them, not {opponents!r}")
    for player in players:  # refused now (a bot's parameters, networks of another setting), not at a reset
        if plays_in_core(player):
            try:
                check_policy(player, rules)
            except (TypeError, ValueError) as error:  # the core's errors, each made from its message
                raise type(error)(f"opponents: {error}") from None
    check_rules(players, rules)  # a Python bot's own check: what it raises passed on whole, with who raised it
    return players


class DouDizhuEnv(gym.Env[Observation, np.int64]):
    """One seat of Dou Dizhu against bots in the other seats (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        rules: Rules | None = None,
        seat: int | None = 0,
        opponents: Policy = "heuristic",
        reward_scale: float = 1.0,
        illegal_reward: float | None = -1.0,
        render_mode: str | None = None,
    ) -> None:
        check_options(reward_scale, illegal_reward, render_mode)
        self._hand = EnvironmentHand(rules)
        seats = self._hand.seats
        if seat is not None and (isinstance(seat, (bool, np.timedelta64)) or not isinstance(seat, (int, np.integer))):
            raise TypeError(f"seat must be an int or None (a random seat each hand), not {type(seat).__name__}")
        if seat is not None and seat not in range(seats):
            raise ValueError(f"seat must be in 0..{seats - 1} or None (a random seat each hand), not {seat!r}")
        self.space = self._hand.space
        self.fixed_seat = None if seat is None else int(seat)
        self.seat = 0 if seat is None else int(seat)
        self.opponents = _policies(opponents, seats - 1, self._hand.rules)
        self.reward_scale = reward_scale
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space = observation_space(self.space)
        self.action_space = spaces.Discrete(self._hand.actions)
        self._ended: bool | None = None  # whether the episode has ended; None before the first reset
        self._opponents_moving = False  # _bots_play is asking them

    @property
    def game(self) -> Game:
        """The :class:`doudizhu.Game` of the hand in play."""
        return self._hand.game

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The agent's legal action ids as a bool array (ResetNeeded before the first reset)."""
        self._check_dealt()
        return self._hand.mask(self.seat).astype(bool)

    def _check_dealt(self) -> None:
        """ResetNeeded before the first reset(): the hand until then is a placeholder."""
        if self._ended is None:
            raise ResetNeeded("call reset() first: no hand is dealt yet")

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        self._check_idle("reset")
        super().reset(seed=check_seed(seed))
        while True:
            self._hand.deal(self.np_random)
            if self.fixed_seat is None:
                self.seat = int(self.np_random.integers(self._hand.seats))
            self._bots_play()
            if not self._hand.over:
                break
        self._ended = False
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        # Gymnasium's contract: an episode is reset before its first step and after it ends
        # (an illegal action ends it too, with the hand unfinished): no step is taken then.
        self._check_idle("step")
        self._check_dealt()
        if self._ended:
            raise ResetNeeded("the episode is over: call reset() for the next hand")
        if not self._hand.play(action):
            if self.illegal_reward is None:
                raise self._hand.illegal(action)
            self._ended = True
            self._hand.stop()
            if self.render_mode == "human":
                self.render()
            return self._observe(), float(self.illegal_reward), True, False, {**self._info(), "illegal_action": True}
        self._bots_play()
        self._ended = self._hand.over
        reward, info = 0.0, self._info()
        if self._hand.over:
            payouts = self._hand.payouts(self.reward_scale)
            reward, info["payouts"] = payouts[self.seat], payouts
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, self._hand.over, False, info

    def _bots_play(self) -> None:
        """The opponents' turns up to the agent's. One that fails (raises, or answers an
        action that is not legal) ends the episode: the hand cannot go on without it, and
        the next step is refused until reset() rather than charged to the agent."""
        game = self._hand.game
        self._opponents_moving = True
        try:
            while (to_move := game.to_move) is not None and to_move != self.seat:
                player = self.opponents[(to_move - self.seat) % self._hand.seats - 1]
                game.step(choose(player, game, int(self.np_random.integers(2**63))))
        except BaseException:
            self._ended = True
            raise
        finally:
            self._opponents_moving = False

    def _check_idle(self, method: str) -> None:
        """RuntimeError when an opponent, choosing its action, calls back into the
        environment: its step would be taken as the opponent's move."""
        if self._opponents_moving:
            raise RuntimeError(f"{method}() was called while the opponents choose their actions: an opponent may "
                               "not step or reset the environment it plays in")

    def _observe(self) -> Observation:
        return self._hand.observe(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._hand.mask(self.seat), "seat": self.seat}

    def render(self) -> str | None:
        self._check_dealt()
        return self._hand.show(self.render_mode)


if ENV_ID not in gym.registry:
    gym.register(id=ENV_ID, entry_point=f"{__name__}:DouDizhuEnv")
