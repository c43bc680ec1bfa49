"""The warm start: value networks fitted to a teacher's rollouts (docs/guide/learned_bot.md).

The engine plays games with a built-in teacher and values several legal actions at a share
of its decisions by playing each out with a built-in rollout policy
(:func:`doudizhu._core.teacher_samples`, C++ without the GIL, on a background thread while
the networks learn). Each position's :class:`~doudizhu.value_networks.SmallNet` is fitted by mean squared
error to the rollouts' results (``"wp"``: +1/-1; ``"adp"``: the stake won or lost over the
base). Every sample is fresh (each chunk of games is learned once), so the networks
never see a deal twice. Playing the action of highest value is then a policy improvement
step over the rollout policy.
"""

from __future__ import annotations

import dataclasses
import os
import threading
import time
from collections.abc import Callable, Mapping

import numpy as np
import torch

from .. import checkpoint, encode
from .._core import POLICIES, Rules, checked_int, checked_seed, teacher_samples
from .._real_numbers import check_real
from .._whole_file import whole_file
from ..bots import Neural
from ..checkpoint import load_weights, read_torch_file
from ..value_networks import STATE_WIDTH, SmallNet
from .actors import OBJECTIVES
from .log import FILE as LOG_FILE
from .resume import refuse_changes
from .run_folder import run_folder, writing
from .settings import check_counts, check_fields, check_names, check_positive, check_shares

CHECKPOINT = "warm.pt"  # a warm start's checkpoint in its folder


@dataclasses.dataclass(frozen=True)
class WarmConfig:
    """A warm start's settings."""

    rules: str = "douzero"  # a preset the play networks' features cover
    objective: str = "wp"
    minutes: float = 60.0
    seed: int = 0
    teacher: str = "fast_heuristic"  # plays the games
    rollout: str = "fast_heuristic"  # plays each valued action out
    explore: float = 0.1  # the share of the teacher's decisions replaced by uniform draws
    keep: float = 0.3  # the share of decisions valued
    max_actions: int = 12  # actions valued a position
    chunk_games: int = 1000  # games a chunk of samples
    batch_positions: int = 128  # positions a learner step (each with its valued actions)
    learning_rate: float = 3e-4  # Adam's, held for the first `decay_from` share of the minutes
    decay_from: float = 0.5  # then falling linearly to zero at the end: the last steps average out the noise
    # Weight of the ranking term: the values' spread around their position's mean fitted to
    # the rollouts' spread around theirs. The actions of a position are played out on one
    # deal, so their differences are free of the deal's luck that the plain term fits too.
    ranking: float = 1.0
    hidden: int = 256
    history: int = 128
    head: tuple[int, ...] = (256,)
    plan: bool = True  # the networks read the fast heuristic's choice
    threads: int = 1  # the teacher's games in C++ (the same samples on any number), beside the learner's thread

    def __post_init__(self) -> None:
        check_fields(self)
        checked_seed(self.seed)
        check_names((self.objective,), "objective", OBJECTIVES)
        check_names((self.teacher, self.rollout), "teacher and rollout", POLICIES)
        Neural().check(Rules.preset(self.rules))  # a preset the networks' features read, or refused
        check_counts(self, {"max_actions": 1 << 16, "chunk_games": 1 << 24, "batch_positions": 1 << 24,
                            "hidden": 1 << 16, "history": 1 << 16, "threads": 256})
        for width in self.head:
            checked_int(width, "head's widths", 1, 1 << 16)
        check_positive(self, ("minutes", "learning_rate"))
        check_real(self.ranking, "ranking", at_least=0.0)
        check_shares(self, ("explore", "keep", "decay_from"))


@dataclasses.dataclass
class WarmCounters:
    samples: int = 0  # valued actions learned
    positions: int = 0
    games: int = 0
    steps: int = 0
    seconds: float = 0.0
    losses: dict[str, float] = dataclasses.field(default_factory=dict)


def learning_rate(config: WarmConfig, seconds: float) -> float:
    """The learning rate after ``seconds`` of training."""
    share = seconds / (60 * config.minutes)
    if share <= config.decay_from or config.decay_from >= 1:
        return config.learning_rate
    return config.learning_rate * max(0.0, (1 - share) / (1 - config.decay_from))


def build(config: WarmConfig) -> dict[str, SmallNet]:
    return {p: SmallNet(STATE_WIDTH[p], config.hidden, config.history, config.head, config.plan)
            for p in encode.DOUZERO_POSITIONS}


class _Chunks:
    """Chunks of teacher samples made one ahead on a background thread.

    The thread is waited for by an event, not Thread.join: on Python 3.11 a join that a
    signal interrupts (Ctrl-C, SIGTERM) can leave the thread marked finished while it is
    still in the engine, and neither a second join nor the interpreter's exit then waits
    for it; Python ends such a thread when it next takes the GIL, which the engine's
    C++ frames turn into an abort of the process (seen in 1 of 6 SIGTERMs).
    """

    def __init__(self, config: WarmConfig, first_game: int) -> None:
        self.config, self.next_game = config, first_game
        self._done: threading.Event  # set when the chunk being made is there (_start)
        self._result: dict[str, np.ndarray] = {}
        self._error: BaseException | None = None
        self._start()

    def _start(self) -> None:
        c, first = self.config, self.next_game
        self.next_game += c.chunk_games
        done = self._done = threading.Event()

        def work() -> None:
            try:
                self._result = teacher_samples(c.chunk_games, Rules.preset(c.rules), seed=c.seed, first=first,
                                               threads=c.threads, teacher=c.teacher, rollout=c.rollout,
                                               explore=c.explore, keep=c.keep, max_actions=c.max_actions)
            except BaseException as error:  # raised again by take(), in the training's thread
                self._error = error
            finally:
                done.set()

        threading.Thread(target=work).start()

    def take(self) -> dict[str, np.ndarray]:
        self._done.wait()
        if self._error is not None:
            raise self._error
        chunk = self._result
        self._start()
        return chunk

    def close(self) -> None:
        """Waits for the chunk being made (a process that exits while the thread is in
        the engine aborts)."""
        self._done.wait()


def _targets(chunk: dict[str, np.ndarray], objective: str) -> np.ndarray:
    return chunk["win"] if objective == "wp" else chunk["score"]


def _centred(values: torch.Tensor, group: torch.Tensor, groups: int) -> torch.Tensor:
    """Each value less the mean of its group's."""
    sums = torch.zeros(groups).index_add(0, group, values)
    counts = torch.zeros(groups).index_add(0, group, torch.ones_like(values))
    return values - (sums / counts)[group]


def learn_chunk(nets: dict[str, SmallNet], optimizers: Mapping[str, torch.optim.Optimizer],
                chunk: dict[str, np.ndarray],
                config: WarmConfig, rng: np.random.Generator) -> dict[str, float]:
    """One pass over a chunk, a learner step per batch of positions; each position's mean loss."""
    target = torch.from_numpy(_targets(chunk, config.objective))
    owner = chunk["owner"]
    starts = np.searchsorted(owner, np.arange(len(chunk["position"]) + 1))  # a position's actions are adjacent
    losses: dict[str, list[float]] = {}
    for index, name in enumerate(encode.DOUZERO_POSITIONS):
        mine = np.flatnonzero(chunk["position"] == index)
        rng.shuffle(mine)
        for first in range(0, len(mine), config.batch_positions):
            batch = mine[first:first + config.batch_positions]
            counts = starts[batch + 1] - starts[batch]
            rows = np.concatenate([np.arange(starts[p], starts[p + 1]) for p in batch])
            local = torch.from_numpy(np.repeat(np.arange(len(batch)), counts))
            net = nets[name]
            decision = net.decision(torch.from_numpy(chunk["z"][batch]).float(),
                                    torch.from_numpy(chunk["x"][batch, : STATE_WIDTH[name]]).float())
            values = net.actions(decision[local], torch.from_numpy(chunk["action"][rows]).float(),
                                 torch.from_numpy(chunk["planned"][rows]).float())
            goal = target[rows]
            loss = ((values - goal) ** 2).mean()
            if config.ranking:
                spread = _centred(values, local, len(batch)) - _centred(goal, local, len(batch))
                loss = loss + config.ranking * (spread**2).mean()
            optimizers[name].zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimizers[name].step()
            losses.setdefault(name, []).append(float(loss.detach()))
    return {name: float(np.mean(v)) for name, v in losses.items()}


def warm_start(config: WarmConfig, out: str | os.PathLike[str], resume: bool = False,
               report: Callable[[WarmCounters], None] | None = None, evaluate_every: float | None = None,
               evaluate: Callable[[dict[str, SmallNet]], None] | None = None) -> dict[str, SmallNet]:
    """Fits the play networks for ``config.minutes`` (checkpoints in ``out``, resumable;
    interrupted, KeyboardInterrupt, it saves one first); ``evaluate(nets)`` every
    ``evaluate_every`` minutes of training and at the end, its time not counted. The folder
    is refused as a training run's is (run_folder): a fresh start where a warm start's
    checkpoint is, or a folder of the DMC trainer's run."""
    folder = run_folder(out, (CHECKPOINT,), resume, foreign=(checkpoint.FILE, LOG_FILE))
    with writing(folder):
        return _warm_start(config, folder, resume, report, evaluate_every, evaluate)


def _restore(path: str, config: WarmConfig, nets: dict[str, SmallNet],
             optimizers: Mapping[str, torch.optim.Optimizer]) -> tuple[WarmCounters, float]:
    """Loads a warm start's checkpoint into ``nets`` and ``optimizers``; its counters and the
    training seconds at its last evaluation (a checkpoint from before they were saved: its
    own). A file that is damaged, of other settings or of other networks is a ValueError
    naming it."""
    saved = read_torch_file(path, "warm start checkpoint")
    refuse_changes(path, dataclasses.asdict(config), saved.get("config", {}), ("minutes",))
    try:
        for p, net in nets.items():
            load_weights(p, net, saved["nets"][p], "warm start")  # refused if not finite: else trained on as NaN
            optimizers[p].load_state_dict(saved["optimizers"][p])
        counters = saved["counters"]
        names = {field.name for field in dataclasses.fields(WarmCounters)}
        if not isinstance(counters, dict) or set(counters) != names:
            raise ValueError(f"counters hold {sorted(counters) if isinstance(counters, dict) else counters!r}")
        restored = WarmCounters(**counters)
        for name in names - {"losses"}:
            check_real(getattr(restored, name), name, at_least=0.0)
        evaluated = saved.get("evaluated", restored.seconds)
        check_real(evaluated, "evaluated", at_least=0.0)
        return restored, evaluated
    except (KeyError, TypeError, RuntimeError, ValueError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ValueError(f"{path}: not this run's warm start checkpoint ({first})") from None


def _warm_start(config: WarmConfig, folder: str, resume: bool, report: Callable[[WarmCounters], None] | None,
                evaluate_every: float | None, evaluate: Callable[[dict[str, SmallNet]], None] | None
                ) -> dict[str, SmallNet]:
    path = os.path.join(folder, CHECKPOINT)
    torch.manual_seed(config.seed)
    nets = build(config)
    optimizers = {p: torch.optim.Adam(net.parameters(), lr=config.learning_rate) for p, net in nets.items()}
    counters = WarmCounters()
    evaluated = 0.0  # the training seconds at the last evaluation (a fresh start's: its first)
    if resume and os.path.exists(path):
        counters, evaluated = _restore(path, config, nets, optimizers)
    rng = np.random.default_rng(config.seed + counters.games)
    chunks = _Chunks(config, counters.games)
    started = time.perf_counter() - counters.seconds
    last_save, last_eval = counters.seconds, evaluated
    try:
        if evaluate and evaluate_every and counters.seconds >= 60 * config.minutes and last_eval < counters.seconds:
            if report:
                report(counters)  # where the fitting stands, for the evaluation's record
            evaluate(nets)  # the final evaluation, which an interrupt cut short: the fitting is done
            last_eval = counters.seconds
            _save(path, nets, optimizers, counters, config, last_eval)
        while counters.seconds < 60 * config.minutes:
            chunk = chunks.take()
            for optimizer in optimizers.values():
                for group in optimizer.param_groups:
                    group["lr"] = learning_rate(config, counters.seconds)
            counters.losses = learn_chunk(nets, optimizers, chunk, config, rng)
            counters.games += config.chunk_games
            counters.positions += len(chunk["position"])
            counters.samples += len(chunk["owner"])
            counters.steps += 1
            counters.seconds = time.perf_counter() - started
            if report:
                report(counters)
            done = counters.seconds >= 60 * config.minutes
            if evaluate and evaluate_every and (done or counters.seconds - last_eval >= 60 * evaluate_every):
                paused = time.perf_counter()
                evaluate(nets)
                started += time.perf_counter() - paused
                last_eval = counters.seconds
            if done or counters.seconds - last_save >= 300:  # after the evaluation: a save says it was made
                _save(path, nets, optimizers, counters, config, last_eval)
                last_save = counters.seconds
    except KeyboardInterrupt:
        _save(path, nets, optimizers, counters, config, last_eval)  # the fitting so far, for a resume
        raise
    finally:
        chunks.close()
    return nets


def _save(path: str, nets: dict[str, SmallNet], optimizers: Mapping[str, torch.optim.Optimizer], counters: WarmCounters,
          config: WarmConfig, evaluated: float) -> None:
    payload = {"nets": {p: n.state_dict() for p, n in nets.items()},
               "optimizers": {p: o.state_dict() for p, o in optimizers.items()},
               "counters": dataclasses.asdict(counters), "config": dataclasses.asdict(config), "evaluated": evaluated}
    with whole_file(path) as partial:
        torch.save(payload, partial)


__all__ = ["OBJECTIVES", "WarmConfig", "WarmCounters", "build", "learn_chunk", "learning_rate", "warm_start"]
