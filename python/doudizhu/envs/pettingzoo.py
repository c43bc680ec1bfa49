"""A PettingZoo AEC environment: one agent a seat (``rules.players`` of them) plays whole hands.

``env(rules=None, reward_scale=1.0, illegal_reward=-1.0, render_mode=None)`` gives the
environment in PettingZoo's order-enforcing wrapper; ``raw_env`` is the class itself.
Agents ``seat_0``, ``seat_1``, ``seat_2`` (and ``seat_3`` with four players) are the seats; the player to move is
``env.agent_selection``. Each ``reset(seed=...)`` deals a new hand (the seed and the first
bidder drawn from the environment's generator, so a seeded reset replays the same hands);
with ``bidding="none"`` the first bidder is the landlord. Observations, actions, rewards
and illegal actions: see :mod:`doudizhu.envs`.

Requires PettingZoo (``pip install "doudizhu-engine[envs]"``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._extras import missing_extra

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
    from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]
except ImportError as error:  # pragma: no cover - depends on the environment
    raise missing_extra(__name__, "PettingZoo and Gymnasium", "envs") from error

from .._core import Rules
from ._hand import (
    RENDER_MODES,
    EnvironmentHand,
    Observation,
    check_agent,
    check_options,
    check_seed,
    observation_space,
)

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """The environment (keyword arguments of :class:`raw_env`) in PettingZoo's
    order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name for the unwrapped class
    """Dou Dizhu for ``rules.players`` agents, one hand per episode (see the module docstring)."""

    metadata = {"name": "doudizhu_v0", "render_modes": list(RENDER_MODES), "render_fps": 1, "is_parallelizable": False}

    def __init__(
        self,
        rules: Rules | None = None,
        reward_scale: float = 1.0,
        illegal_reward: float | None = -1.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        check_options(reward_scale, illegal_reward, render_mode)
        self._hand = EnvironmentHand(rules)
        self.space = self._hand.space
        self.reward_scale = reward_scale
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{seat}" for seat in range(self._hand.seats)]
        self.agent_name_mapping = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        obs_space = observation_space(self.space)
        self.observation_spaces = {agent: obs_space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self._hand.actions) for agent in self.possible_agents}
        self._rng = np.random.default_rng()
        self._dealt = False  # the table's game is a placeholder until the first reset()

    @property
    def game(self) -> Any:
        """The :class:`doudizhu.Game` of the hand in play."""
        return self._hand.game

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[check_agent(agent, self.possible_agents)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[check_agent(agent, self.possible_agents)]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed = check_seed(seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._hand.deal(self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_move]
        self._dealt = True
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Observation:
        if not self._dealt:
            EnvLogger.error_observe_before_reset()
        return self._hand.observe(self.agent_name_mapping[check_agent(agent, self.possible_agents)])

    def step(self, action: Any) -> None:
        # PettingZoo's order, as its wrapper enforces it: no step before reset(), nor once
        # every agent has left the hand.
        if not self._dealt or not self.agents:
            EnvLogger.error_step_before_reset()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.agent_name_mapping[agent]
        played = self._hand.play(action)  # first: an action that is no id (TypeError) changes nothing
        if not played and self.illegal_reward is None:
            raise self._hand.illegal(action)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if not played and self.illegal_reward is not None:
            self.rewards[agent] = float(self.illegal_reward)
            self.infos[agent]["illegal_action"] = True
            self._hand.stop()
            self._end_hand(seat)
        elif self._hand.over:
            self.rewards = dict(zip(self.possible_agents, self._hand.payouts(self.reward_scale)))
            self._end_hand(seat)
        else:
            self.agent_selection = self.possible_agents[self.game.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_hand(self, last_seat: int) -> None:
        self.terminations = {a: True for a in self.agents}
        self.agent_selection = self.possible_agents[(last_seat + 1) % self._hand.seats]

    def render(self) -> str | None:
        if not self._dealt:
            EnvLogger.error_render_before_reset()
        return self._hand.show(self.render_mode)

    def close(self) -> None:
        pass
