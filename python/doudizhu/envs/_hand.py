"""What both environments share: one hand at a time, its action ids, what a seat sees.

Under wild-card rules an action is two ids (:class:`doudizhu.ActionSpace`): a play is
chosen as its combination (an id below ``len(space)``, with the mask of the combinations
some reading of the hand forms), then, when the hand can pay for it in more than one way,
as what its wild cards stand in for (an id ``len(space) + stand-in id``, with the mask of
that combination's readings). The second choice is a step of its own: the same seat is
to move, the game is unchanged, the reward is 0, and the observation's ``"chosen"`` is the
combination's id (-1 when no combination waits). A combination with one reading is played
at once.

With two wild ranks (laizi2) a reading is what the cards of each wild rank stand in for
(stand-in id low + STAND_IN_IDS x high, :class:`doudizhu.ActionSpace`), chosen in up to
three steps: the combination; then what the lower wild rank's cards stand in for (an id
``len(space) + low``); then the higher's (``len(space) + high``). A step with one choice is
taken at once, and the play is made as soon as one reading is left. The observation's
``"chosen_low"`` is the lower rank's stand-in id chosen (-1 before that step).

Imports Gymnasium (for the spaces), so only the environment modules import it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import logger, spaces

from .. import encode
from .._core import Action, ActionSpace, Game, IllegalActionError, Rules, checked_int, checked_rules, checked_seed
from .._real_numbers import check_real
from ..render import outcome, role, stake_text, wild_names

# The blocks of the observation vector that are not 0/1 flags, bounded by log2 of a 64-bit
# stake (the passes since the move to beat are fewer than the seats).
_LOG2_BLOCKS = ("base", "multiplier")

Observation = dict[str, Any]  # {"observation": float32 vector, "action_mask": int8 vector[, "chosen": int]}
RENDER_MODES = ("human", "ansi")


def action_count(space: ActionSpace) -> int:
    """The number of action ids: the space's, and the stand-in ids under wild-card rules."""
    return len(space) + (ActionSpace.STAND_IN_IDS if space.rules.wild else 0)


def observation_space(space: ActionSpace) -> spaces.Dict:
    """The Dict space of the observations: the encoded vector (the layout of the rules'
    seats and decks), the action mask and, under wild-card rules, the combination chosen."""
    rules = space.rules
    layout = encode.layout_for(rules)
    high = np.ones(max(block.stop for block in layout.values()), dtype=np.float32)
    for name in _LOG2_BLOCKS:
        high[layout[name]] = 64.0
    high[layout["passes"]] = float(rules.players)
    parts: dict[str, spaces.Space[Any]] = {
        "observation": spaces.Box(0.0, high, dtype=np.float32),
        "action_mask": spaces.Box(0, 1, shape=(action_count(space),), dtype=np.int8),
    }
    if rules.wild:
        parts["chosen"] = spaces.Discrete(len(space) + 1, start=-1)
    if rules.wild == 2:
        parts["chosen_low"] = spaces.Discrete(ActionSpace.STAND_IN_IDS + 1, start=-1)
    return spaces.Dict(parts)


# The largest reward_scale and illegal_reward (either sign): a hand's payouts (integers far
# below 2**64 under any rules) times it stay finite (1e308 made them infinite).
MOST_REWARD = 1e12


def check_options(reward_scale: float, illegal_reward: float | None, render_mode: str | None) -> None:
    if render_mode is not None and not isinstance(render_mode, str):
        raise TypeError(f"render_mode must be None, 'human' or 'ansi', not {type(render_mode).__name__}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
    check_real(reward_scale, "reward_scale", at_least=-MOST_REWARD, most=MOST_REWARD)
    if illegal_reward is not None:
        check_real(illegal_reward, "illegal_reward", at_least=-MOST_REWARD, most=MOST_REWARD, or_none=True)


def check_seed(seed: int | None) -> int | None:
    """The seed as a Python int (None kept: the environment's generator goes on), refused
    when it is no int in 0..2**64-1, as every seed of the package is, before a reset deals:
    NumPy would take a bool for 0 or 1 and any larger int, and Gymnasium refuses a negative
    one, and a NumPy integer, with an error of its own. (Reset options are taken and
    ignored: there are none, and PettingZoo's api_test passes some.)"""
    return None if seed is None else checked_seed(seed)


def check_agent(agent: object, agents: list[str]) -> str:
    """``agent``, if it names one of ``agents`` (ValueError otherwise)."""
    if agent not in agents:
        raise ValueError(f"agent must be one of {agents}, not {agent!r}")
    return agent


class EnvironmentHand:
    """The hand an environment plays: dealt from its random generator, played by action ids
    (a wild-card play in up to three steps), seen by one seat at a time."""

    def __init__(self, rules: Rules | None) -> None:
        self.rules = checked_rules(rules)
        self.space = ActionSpace(self.rules)
        self.actions = action_count(self.space)
        self.seats = self.rules.players
        self.game = Game(seed=0, rules=self.rules)
        self.chosen = -1  # wild-card rules: the combination whose reading is to be chosen
        self.chosen_low = -1  # two wild ranks: the lower rank's stand-in id chosen for it
        self.stopped = False  # an illegal action ended the episode with the hand unfinished

    def deal(self, rng: np.random.Generator) -> None:
        """A new hand: the seed and the first bidder (the landlord without bidding) drawn
        from `rng`; where each seat plays for itself, the hand opens as a new match's does
        (Run Fast: the holder of the 3 of spades leads a 3), as selfplay's and VectorEnv's."""
        seed = int(rng.integers(2**63))
        first = None if self.rules.each_for_self else int(rng.integers(self.seats))
        self.game = Game(seed=seed, rules=self.rules, first_bidder=first)
        self.chosen = self.chosen_low = -1
        self.stopped = False

    def stop(self) -> None:
        """Ends the episode with the hand unfinished (an illegal action): no action is legal
        in it any more, whatever the game would take."""
        self.stopped = True

    @property
    def over(self) -> bool:
        return self.game.phase == "over"

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """The legal action ids of `seat` as 0/1 (all 0 when it is not its turn, or the
        episode was stopped)."""
        mask = np.zeros(self.actions, dtype=np.int8)
        if self.game.to_move != seat or self.stopped:
            return mask
        if self.chosen < 0:
            mask[: len(self.space)] = self.space.mask(self.game)
        else:
            mask[len(self.space) + self._options()] = 1
        return mask

    def _readings(self, combination: int) -> npt.NDArray[np.int64]:
        """The stand-in ids of the legal plays of a combination id (with two wild ranks,
        those of the lower rank's stand-ins chosen so far)."""
        of_combination = self.space.legal_ids(self.game) == combination
        readings: npt.NDArray[np.int64] = self.space.legal_stand_in_ids(self.game)[of_combination]
        if self.chosen_low >= 0:
            readings = readings[readings % ActionSpace.STAND_IN_IDS == self.chosen_low]
        return readings

    def _options(self) -> npt.NDArray[np.int64]:
        """The stand-in ids the step to come offers: the lower wild rank's, then the higher's."""
        readings = self._readings(self.chosen)
        if self.chosen_low < 0:
            return np.unique(readings % ActionSpace.STAND_IN_IDS)
        return readings // ActionSpace.STAND_IN_IDS

    def observe(self, seat: int) -> Observation:
        observation = {"observation": encode.observation(self.game, seat), "action_mask": self.mask(seat)}
        mine = self.game.to_move == seat
        if self.rules.wild:
            observation["chosen"] = self.chosen if mine else -1
        if self.rules.wild == 2:
            observation["chosen_low"] = self.chosen_low if mine else -1
        return observation

    def play(self, action_id: Any) -> bool:
        """Plays the id for the player to move (or, under wild-card rules, chooses a
        combination that has several readings); False (and nothing changed) when it is not
        a legal action id. An action that is no int (a float, text, None, an array of
        several) is a TypeError, and an int outside the action space's ids (-1, a learner's
        sentinel) a ValueError, not an illegal action: neither is an action id at all."""
        if isinstance(action_id, np.ndarray) and action_id.shape == () and action_id.dtype.kind in "iu":
            action_id = action_id[()]  # one id as a 0-d array: what Stable-Baselines3 predicts for a Discrete space
        action_id = checked_int(action_id, "action id", 0, self.actions - 1)
        try:
            if action_id >= len(self.space) or self.chosen >= 0:
                return self._play_reading(action_id - len(self.space))
            is_play = 0 < action_id < self.space.first_bid_id
            readings = self._readings(action_id) if self.rules.wild and is_play else None
            if readings is not None and len(readings) != 1:
                self.chosen = action_id if len(readings) else -1
                self._settle()
                return len(readings) > 0
            action = self.space.action(action_id) if readings is None else self._reading(action_id, int(readings[0]))
            self.game.step(action)
        except ValueError:  # IllegalActionError
            return False
        return True

    def _play_reading(self, stand_in_id: int) -> bool:
        """A step after the combination: the id of what a wild rank's cards stand in for."""
        if self.chosen < 0 or stand_in_id < 0 or stand_in_id not in self._options():
            return False
        if self.rules.wild == 2 and self.chosen_low < 0:
            self.chosen_low = stand_in_id
            self._settle()
        else:  # the last step: the whole reading is known
            low = self.chosen_low
            self._play(stand_in_id if low < 0 else low + ActionSpace.STAND_IN_IDS * stand_in_id)
        return True

    def _settle(self) -> None:
        """Takes a step with one choice at once, and plays the combination when one
        reading is left."""
        if self.chosen_low < 0 and self.rules.wild == 2 and len(self._options()) == 1:
            self.chosen_low = int(self._options()[0])
        readings = self._readings(self.chosen)
        if self.chosen_low >= 0 and len(readings) == 1:
            self._play(int(readings[0]))

    def _play(self, stand_in_id: int) -> None:
        self.game.step(self._reading(self.chosen, stand_in_id))
        self.chosen = self.chosen_low = -1

    def _reading(self, combination: int, stand_in_id: int) -> Action:
        wild = self.game.wild_ranks
        return self.space.with_stand_ins(combination, stand_in_id, wild if wild else 0)

    def illegal(self, action_id: Any) -> IllegalActionError:
        return IllegalActionError(f"action id {action_id!r} is not legal for seat {self.game.to_move} now")

    def payouts(self, scale: float) -> list[float]:
        """Each seat's payout times `scale`, as Python floats whatever the scale's type."""
        result = self.game.result
        assert result is not None
        return [float(p) * float(scale) for p in result.payouts[: self.seats]]

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
        """The table as text, every hand face up, in the picture's words (doudizhu.render)."""
        g = self.game
        head = [f"phase {g.phase}", stake_text(g)]
        head += [f"{wild_names(g)} wild"] if g.wild_ranks else []
        head += [f"to move seat {g.to_move}"] if g.to_move is not None else []
        lines = [", ".join(head)]
        lines += [f"seat {s} ({role(g, s)}): {g.hand(s)}" for s in range(self.seats)]
        if g.last is not None and g.phase != "over":
            lines.append(f"to beat: {g.last} (seat {g.last_by})")
        return "\n".join(lines + (outcome(g) if g.result is not None else []))
