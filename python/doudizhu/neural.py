"""Neural bots (PyTorch: the ``[train]`` extra): value networks playing this engine.

:class:`DouZeroBot` plays DouZero 1.1.0's three networks (:class:`DouZeroNet`, whose
layout the ``.ckpt`` files DouZero publishes and saves, a ``state_dict`` per position,
load into unchanged), one per position, through :func:`doudizhu.encode.douzero`: the
action with the highest value, as DouZero's ``DeepAgent`` plays. Unlike DouZero it runs the
LSTM once per decision rather than once per legal action (the history is the same for
every action, so the values are equal).

:class:`TorchBot` plays a checkpoint of :mod:`doudizhu.train` (its three networks, of
either layout) the same way, and a whole :class:`~doudizhu.envs.VectorEnv` batch of
tables in one pass per position (:meth:`TorchBot.choose_batch`). Both score every decision
of an ``act_many(games)`` call in one pass per position (``selfplay`` and ``evaluate``
hand them all their tables waiting on them at once).

The networks are defined in :mod:`doudizhu.value_networks` and the trainer's checkpoints
read by :mod:`doudizhu.checkpoint`, neither of which imports the trainer
(:mod:`doudizhu.train`); the trainer imports this module (its evaluations play a
:class:`TorchBot`). One import runs the other way, when a network file is read (see
:class:`TorchBot`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Union

import numpy as np

from ._extras import missing_extra

try:
    import torch
    from torch import nn
except ImportError as error:  # pragma: no cover - depends on the environment
    raise missing_extra(__name__, "PyTorch", "train") from error

from . import checkpoint as saved
from . import encode, network_file
from ._core import Action, Game, Network, Rules, choose_action, heuristic_plan
from .bots import is_network_file
from .encode import DOUZERO_POSITIONS, bid_features, douzero_layout
from .envs.vector import VectorEnv
from .value_networks import (
    ACTION_WIDTH,
    SETTING_ONLY,
    STATE_WIDTH,
    DouZeroNet,
    ValueNet,
    batch_values,
    check_batch,
    choose_batch,
    require_finite,
)

if TYPE_CHECKING:
    import numpy.typing as npt

    from .checkpoint import CheckpointLike
    from .encode import DouZeroObservation
    from .envs.vector import Batch

#: DouZero's positions, and the width of each one's per-action features (x_batch columns).
POSITIONS = DOUZERO_POSITIONS
FEATURE_WIDTH = {position: width + ACTION_WIDTH for position, width in STATE_WIDTH.items()}

#: A checkpoint: a path to a ``.ckpt``/``.pt`` file of a ``state_dict``, or the dict itself.
Checkpoint = Union[str, "os.PathLike[str]", Mapping[str, Any]]


def load_douzero_net(position: str, checkpoint: Checkpoint) -> DouZeroNet:
    """A position's network with a checkpoint's weights (every key of the layout, no other):
    ValueError naming the position (and the file) for one that is no such checkpoint,
    TypeError for a checkpoint that is neither a path nor a dict."""
    if position not in FEATURE_WIDTH:
        raise ValueError(f"position must be one of {', '.join(POSITIONS)}, not {position!r}")
    state = _state_dict(position, checkpoint)
    net = DouZeroNet(FEATURE_WIDTH[position])
    try:
        net.load_state_dict(state)
    except RuntimeError as error:  # torch names the missing, unexpected or misshapen keys
        raise ValueError(f"{position}: not a DouZero {position} network: {error}") from error
    return net.eval()


def _state_dict(position: str, checkpoint: object) -> Mapping[str, Any]:
    """``checkpoint`` itself, or the dict torch saved at that path; errors name ``position``
    and the file. Read by torch.load, not checkpoint.read_torch_file: a DouZero file may be
    of torch's legacy format, which is no zip archive."""
    if isinstance(checkpoint, Mapping):
        return checkpoint
    if not isinstance(checkpoint, (str, os.PathLike)):
        raise TypeError(f"{position}: a checkpoint is a path or a state_dict, not {type(checkpoint).__name__}")
    path = os.fspath(checkpoint)
    if os.path.exists(path) and not os.path.isfile(path):  # a FIFO would be waited on without end
        raise ValueError(f"{position}: {path}: no regular file, so no checkpoint")
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except OSError:  # the file could not be read (the error names it), not a fault of its contents
        raise
    except Exception as error:  # a file of other contents fails anywhere in torch's reader, in any type
        raise ValueError(f"{position}: {path}: not a checkpoint ({type(error).__name__} reading it)") from None
    if not isinstance(state, Mapping):
        raise ValueError(f"{position}: {path}: not a checkpoint (it holds a {type(state).__name__}, not a state_dict)")
    return state


class _ValueBot:
    """A bot that plays the legal action of highest value (bidding with its bid networks, or
    as the heuristic without), its tables' decisions scored together (``act_many``: one
    pass per position)."""

    bid_nets: Mapping[str, nn.Module] = {}  # by bidding mode (network_file.BidNet)

    def _bid(self, game: Game) -> Action:
        """The legal bid of highest value by the mode's bid network, else the heuristic's."""
        net = self.bid_nets.get(game.rules.bidding)
        legal = game.legal_actions()
        if net is None or len(legal) == 1:
            return choose_action(game, "heuristic", 0)
        with torch.inference_mode():
            values = require_finite(net(torch.from_numpy(bid_features(game)).float()[None])[0].numpy())
        return max(legal, key=lambda a: (float(values[a.value]), -legal.index(a)))

    reads_plan = False  # whether the networks read the fast heuristic's choice
    goes_out = False  # whether a play that empties the hand is taken unscored, as the engine's policies do

    def check(self, rules: Rules) -> None:
        """Raises ValueError unless the bot can play under ``rules`` (DouZero's setting),
        before a game is dealt rather than at its first decision."""
        if not douzero_layout(rules).douzero:
            raise ValueError(f"{SETTING_ONLY}, not these rules")

    def _values(self, observations: Sequence[DouZeroObservation], planned: torch.Tensor | None) -> torch.Tensor:
        """The value of every legal action of ``observations`` (in DouZero's setting), the
        observations' actions one after another; ``planned`` (with :attr:`reads_plan`): 1
        for each observation's action the fast heuristic plays."""
        raise NotImplementedError

    def _planned(self, games: Sequence[Game], legal: Sequence[Sequence[Action]]) -> torch.Tensor | None:
        """With :attr:`reads_plan`, 1 for the action of each game's ``legal`` actions the fast
        heuristic's plan plays (:func:`doudizhu._core.heuristic_plan`, as the engine's
        networks and the teacher's samples mark it), 0 for the others (all the games'
        actions one after another)."""
        if not self.reads_plan:
            return None
        flags = []
        for game, actions in zip(games, legal):
            flag = np.zeros(len(actions), dtype=np.float32)
            flag[actions.index(heuristic_plan(game))] = 1
            flags.append(flag)
        return torch.from_numpy(np.concatenate(flags))

    def values(self, game: Game) -> tuple[list[Action], torch.Tensor]:
        """The legal actions of ``game.to_move`` and their values (one each, in that order)."""
        obs = _in_setting(encode.douzero(game))
        with torch.inference_mode():
            return obs["legal_actions"], self._values([obs], self._planned([game], [obs["legal_actions"]]))

    def act(self, game: Game) -> Action:
        return self.act_many([game])[0]

    def act_many(self, games: Sequence[Game]) -> list[Action]:
        """The action for the player to move in each of ``games``; a decision with one legal
        action is not scored. Games under rules outside DouZero's setting are refused (ValueError)."""
        checked: list[Rules] = []  # before any network reads a game its features do not fit
        for game in games:
            if game.rules not in checked:
                self.check(game.rules)
                checked.append(game.rules)
        actions: dict[int, Action] = {}
        scored = []
        for i, game in enumerate(games):
            if game.phase == "bidding":
                actions[i] = self._bid(game)
                continue
            legal = game.legal_actions()
            out = _going_out(game, legal) if self.goes_out else None
            if len(legal) == 1 or out is not None:
                actions[i] = out if out is not None else legal[0]
            else:
                scored.append(i)
        observations = [_in_setting(obs) for obs in encode.douzero_batch([games[i] for i in scored])]
        if observations:
            with torch.inference_mode():
                planned = self._planned([games[i] for i in scored], [obs["legal_actions"] for obs in observations])
                values = self._values(observations, planned)
                require_finite(values.numpy())
            chunks = torch.split(values, [len(obs["legal_actions"]) for obs in observations])
            for i, obs, chunk in zip(scored, observations, chunks):
                actions[i] = obs["legal_actions"][int(torch.argmax(chunk))]
        return [actions[i] for i in range(len(games))]


def _going_out(game: Game, legal: Sequence[Action]) -> Action | None:
    """The legal play that empties the mover's hand, if there is one."""
    hand = game.hand(game.to_move or 0)  # a hand in play has a player to move
    return next((a for a in legal if a.move is not None and a.move.cards == hand), None)


def _in_setting(obs: DouZeroObservation) -> DouZeroObservation:
    """``obs``, if it has DouZero's widths (three seats, one deck, no wild cards)."""
    if FEATURE_WIDTH.get(obs["position"]) != obs["x_batch"].shape[1]:
        raise ValueError(SETTING_ONLY)
    return obs


def _tables(batch: Batch, env: object) -> tuple[list[Game], list[list[Action]]]:
    """Copies of the games of ``batch``'s decisions from ``env`` and the batch's legal actions
    of each (ValueError unless each table still waits on its decision: ``env`` is the
    batch's, and has not stepped since)."""
    if not isinstance(env, VectorEnv):
        raise TypeError("env must be the VectorEnv the batch came from (these networks read the fast heuristic's "
                        f"choice, which a batch does not hold), not {type(env).__name__}")
    games = [env.game(int(table)) for table in batch.env]
    legal = [batch.legal_actions(b) for b in range(len(batch))]
    for b, (game, actions) in enumerate(zip(games, legal)):
        if game.phase != "playing" or game.legal_actions() != actions:
            raise ValueError(f"env: its table {int(batch.env[b])} is not at the batch's decision {b}: give the "
                             "VectorEnv the batch came from, before it steps again")
    return games, legal


def _action_rows(counts: Sequence[int], mine: Sequence[int]) -> tuple[torch.Tensor, torch.Tensor]:
    """For the observations ``mine`` of some with ``counts`` legal actions: their actions'
    rows among all the observations' actions, and each such action's index in ``mine``."""
    starts = np.cumsum([0, *counts])
    rows = np.concatenate([np.arange(starts[i], starts[i + 1]) for i in mine])
    owner = np.repeat(np.arange(len(mine)), [counts[i] for i in mine])
    return torch.from_numpy(rows), torch.from_numpy(owner)


class DouZeroBot(_ValueBot):
    """DouZero's three networks as a bot (``act(game)``, ``act_many(games)``), from their
    checkpoints.

    Plays the hand's play phase in every setting :func:`doudizhu.encode.douzero` covers
    (three seats, one deck, no wild cards: the ``douzero`` preset, and the standard rules'
    play too); DouZero has no bidding network, so it bids as the built-in heuristic.
    """

    def __init__(self, landlord: Checkpoint, landlord_up: Checkpoint, landlord_down: Checkpoint) -> None:
        given = {"landlord": landlord, "landlord_up": landlord_up, "landlord_down": landlord_down}
        self.nets = {position: load_douzero_net(position, checkpoint) for position, checkpoint in given.items()}

    def _values(self, observations: Sequence[DouZeroObservation], planned: torch.Tensor | None) -> torch.Tensor:
        counts = [len(obs["legal_actions"]) for obs in observations]
        values = torch.empty(sum(counts))
        for position, net in self.nets.items():
            mine = [i for i, obs in enumerate(observations) if obs["position"] == position]
            if mine:
                rows, owner = _action_rows(counts, mine)
                z = torch.from_numpy(np.stack([observations[i]["z"] for i in mine])).float()
                x = torch.from_numpy(np.concatenate([observations[i]["x_batch"] for i in mine]))
                values[rows] = net(z, x, owner).squeeze(1)
        return values

    def __repr__(self) -> str:
        return "DouZeroBot()"


class TorchBot(_ValueBot):
    """A :mod:`doudizhu.train` checkpoint, or a network file, as a bot in PyTorch: the action
    of highest value.

    ``checkpoint``: a checkpoint file, a run's folder (its ``checkpoint.pt``), the
    checkpoint's dict, or a network file (what the engine's ``"neural"`` policy plays: then
    it bids with the file's bid networks, and chooses as ``bots.Neural(path,
    endgame=False)`` does in C++). Plays what :class:`DouZeroBot` plays (the play phase of
    three seats, one deck, no wild cards) and bids as the built-in heuristic without bid
    networks. ``act(game)`` scores one decision, ``act_many(games)`` the decisions of many
    games at once (as ``selfplay`` and ``evaluate`` ask it), and :meth:`choose_batch` every
    decision of a VectorEnv batch. A network file is refused (NetworkError, naming why) if
    it cannot play DouZero's setting (a position without a network, say): then it plays
    nothing.
    """

    goes_out = True  # as bots.Neural does

    def __init__(self, checkpoint: CheckpointLike) -> None:
        if is_network_file(checkpoint):
            self.model = "small"
            network = Network(checkpoint)  # type: ignore[arg-type]
            play, self.bid_nets = network_file.modules(network)
            network.check(Rules.preset("douzero"))  # the engine's check, as Neural's first use makes it
            self.nets: dict[str, ValueNet] = dict(play)
            self.reads_plan = any(net.reads_plan for net in self.nets.values())
            return
        payload = saved.load(checkpoint)
        self.model = str(payload["model"])
        self.nets = saved.nets_of(payload)

    @classmethod
    def of(cls, nets: dict[str, ValueNet], model: str) -> TorchBot:
        """The bot of networks in memory (``model``'s, one per position), not copied: it plays
        their weights as they are when it is asked (the trainer's evaluation)."""
        bot = cls.__new__(cls)
        bot.model, bot.nets = model, nets
        bot.reads_plan = any(net.reads_plan for net in nets.values())
        return bot

    def _values(self, observations: Sequence[DouZeroObservation], planned: torch.Tensor | None) -> torch.Tensor:
        counts = [len(obs["legal_actions"]) for obs in observations]
        x_no_action = np.zeros((len(observations), max(STATE_WIDTH.values())), dtype=np.int8)
        for row, obs in zip(x_no_action, observations):
            row[: len(obs["x_no_action"])] = obs["x_no_action"]  # the landlord's is narrower
        position = [DOUZERO_POSITIONS.index(obs["position"]) for obs in observations]  # batch_values' order
        planes = np.concatenate([obs["x_batch"][:, len(obs["x_no_action"]):] for obs in observations])
        _, owner = _action_rows(counts, range(len(observations)))
        return batch_values(self.nets, torch.from_numpy(np.stack([obs["z"] for obs in observations])),
                            torch.from_numpy(x_no_action), torch.tensor(position), torch.from_numpy(planes), owner,
                            planned)

    def choose_batch(self, batch: Batch, env: VectorEnv | None = None) -> npt.NDArray[np.int64]:
        """The choice of every decision of a ``VectorEnv(features="douzero")`` batch in
        DouZero's setting, for ``env.step``. Networks that read the fast heuristic's choice
        (every network file of the recipe's) need ``env``, the VectorEnv the batch came
        from, before it steps again: a batch does not hold that choice, so it is made on
        copies of the batch's tables."""
        check_batch(batch)
        planned = self._planned(*_tables(batch, env)) if self.reads_plan else None
        return choose_batch(self.nets, batch, None if planned is None else planned.numpy())

    def __repr__(self) -> str:
        return f"TorchBot(model={self.model!r})"


__all__ = ["FEATURE_WIDTH", "POSITIONS", "Checkpoint", "DouZeroBot", "DouZeroNet", "TorchBot", "load_douzero_net"]
