"""The training loop of Deep Monte-Carlo (DouZero's DMC) on :class:`~doudizhu.envs.VectorEnv`
(PyTorch: the ``[train]`` extra).

:func:`train` runs actors (:mod:`.actors`: epsilon-greedy, every seat a learner, the
networks evaluated once per batch of tables) and a learner (:mod:`.learner`: each
position's network fitted by mean squared error to the Monte-Carlo return of the actions
it chose, each sample learned once) until ``minutes`` of training or ``frames`` learned
samples, with checkpoints, a log, periodic evaluation and a learning curve in ``out``.

By default actors and learner alternate in this process: the environment steps in C++ on
``threads`` threads and the networks run on as many torch threads, so a seed gives the
same run twice. With ``ray_address`` the actors are ``ray_actors`` Ray actors
(:mod:`.ray_actors`) and the learner stays here.
"""

from __future__ import annotations

import dataclasses
import math
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._extras import missing_extra

try:
    import torch
except ImportError as error:  # pragma: no cover - depends on the environment
    raise missing_extra("doudizhu.train (doudizhu train)", "PyTorch", "train") from error

from .. import checkpoint, encode
from .._core import Rules, checked_seed
from .._ray import check_installed, ray_head
from .._real_numbers import check_real
from .._signatures import check_callable
from ..evaluation import evaluate
from ..neural import TorchBot
from ..value_networks import MODELS, ValueNet, build_all
from .actors import OBJECTIVES, Actor
from .buffer import Buffer, Samples
from .learner import Learner
from .log import EVAL_OPPONENTS, Log, drop_rows_after, row_minutes, run_rows
from .log import FILE as LOG_FILE
from .recipe import RUN_FILES as RECIPE_FILES
from .resume import refuse_changes
from .run_folder import holds_run, run_folder, writing
from .settings import check_counts, check_fields, check_positive, check_shares, check_type

if TYPE_CHECKING:
    from .ray_actors import RayActors


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    """A run's settings. DouZero's defaults where DouZero has the setting (epsilon,
    optimizer, clipping); the batch and learning rate are the small model's."""

    model: str = "small"  # "small" (sized for CPUs) or "douzero" (DouZero's layout)
    objective: str = "adp"  # "adp" (DouZero's default) or "wp"
    minutes: float | None = 5.0  # training time, evaluation excluded (None: no limit)
    # Stop once this many samples are learned, the full batches then ready included (so a
    # few batches past it at most; None: no limit).
    frames: int | None = None
    seed: int = 0
    # torch threads (set for the process) and the environment's: one is fastest for these small
    # matrices on a shared 2-core machine, where a second torch thread waits on the other jobs
    threads: int = 1
    tables: int = 256  # tables per actor
    epsilon: float = 0.01  # exploration: the share of uniformly drawn actions
    batch_size: int = 1024  # samples per learner step (DouZero: 32 x 100 = 3,200)
    learning_rate: float = 5e-4  # RMSprop (DouZero: 1e-4)
    alpha: float = 0.99
    rms_eps: float = 1e-5
    max_grad_norm: float = 40.0
    checkpoint_minutes: float = 5.0  # between checkpoints
    eval_minutes: float | None = 5.0  # between evaluations (None: none)
    eval_deals: int = 200  # deals per opponent (each played twice, roles swapped)
    report_seconds: float = 10.0  # between log rows (and progress lines)
    ray_address: str | None = None  # "local": a Ray started here; "auto", host:port or ray://host:port: that cluster
    ray_actors: int = 2

    def __post_init__(self) -> None:
        """Every setting checked before a run starts (a bad one found at the final
        evaluation lost the training; torch aborted the process on a huge thread count)."""
        check_fields(self)
        if self.model not in MODELS:
            raise ValueError(f"model must be one of {', '.join(MODELS)}, not {self.model!r}")
        if self.objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, not {self.objective!r}")
        checked_seed(self.seed)
        check_counts(self, {"threads": 256, "tables": 1 << 20, "batch_size": 1 << 24, "ray_actors": 1024,
                            "eval_deals": 10**8, "frames": 1 << 62})
        check_positive(self, ("minutes", "eval_minutes", "checkpoint_minutes", "learning_rate", "rms_eps",
                              "max_grad_norm"))
        check_real(self.report_seconds, "report_seconds", at_least=0.0)  # 0: a row each step
        check_shares(self, ("epsilon", "alpha"))
        if self.ray_address is not None:
            ray_head(self.ray_address, "ray_address")
            check_installed("doudizhu.train with ray_address")


@dataclasses.dataclass
class Counters:
    """How far a run has got; saved in checkpoints, so a resumed run goes on counting."""

    frames: int = 0  # samples learned
    hands: int = 0
    learner_steps: int = 0
    seconds: float = 0.0  # training time, evaluation excluded
    losses: dict[str, float] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class TrainResult:
    counters: Counters
    nets: dict[str, ValueNet]
    evaluations: list[dict[str, float]]  # the log's evaluation rows
    trained_seconds: float  # training time of this call (0: a resumed run had already reached its limits)


#: progress(counters, frames per second, latest WP against random or None)
Progress = Callable[[Counters, float, "float | None"], None]


#: The settings a resumed run takes from the call (its limits, intervals and machines);
#: the others define the run, and a resumed run must be given the checkpoint's.
PER_CALL = ("minutes", "frames", "checkpoint_minutes", "eval_minutes", "eval_deals", "report_seconds", "threads",
            "ray_address", "ray_actors")

#: A run's files in its folder: a fresh run refuses a folder holding any of them.
CURVE_FILE = "learning_curve.png"  # drawn where matplotlib is installed
RUN_FILES = (checkpoint.FILE, LOG_FILE, CURVE_FILE)


def train(config: TrainConfig, out: str | os.PathLike[str] | None = None, resume: bool = False,
          progress: Progress | None = None) -> TrainResult:
    """Trains by ``config``; with ``out``, writes ``checkpoint.pt``, ``log.csv`` and
    ``learning_curve.png`` there (``RUN_FILES``; a fresh run refuses a folder that holds one:
    FileExistsError). ``resume``: go on from ``out``'s checkpoint, its networks, optimizers
    and counters, until ``config``'s limits (``minutes`` and ``frames`` count the whole run,
    so the same call finishes an interrupted run); ``config`` must agree with the checkpoint's
    in every setting but :data:`PER_CALL` (ValueError naming them; :func:`saved_config`
    reads them). Interrupted (KeyboardInterrupt), a run saves its checkpoint first."""
    check_type(config, "config", TrainConfig)
    if progress is not None:
        check_callable(progress, (Counters(), 0.0, None), "progress")
    if out is None:
        if resume:
            raise ValueError("resume needs out, the run's folder")
        return _train(config, None, resume, progress)
    folder = run_folder(out, RUN_FILES, resume, foreign=RECIPE_FILES)
    with writing(folder):
        return _train(config, folder, resume and holds_run(folder, RUN_FILES), progress)


def _train(config: TrainConfig, folder: str | None, resume: bool, progress: Progress | None) -> TrainResult:
    # torch's seed and threads are the process's: a resume refused leaves them as they were
    threads, rng = torch.get_num_threads(), torch.get_rng_state()
    try:
        torch.manual_seed(config.seed)
        torch.set_num_threads(config.threads)
        nets = build_all(config.model)
        learner = Learner(nets, config.learning_rate, config.alpha, config.rms_eps, config.max_grad_norm)
        counters = Counters()
        if resume and folder is not None:
            counters = _restore(config, folder, nets, learner)
            run_rows(folder)  # a damaged log refused now, not after the training it would be appended to
    except BaseException:
        torch.set_num_threads(threads)
        torch.set_rng_state(rng)
        raise
    if resume and folder is not None:
        drop_rows_after(folder, counters.frames, counters.seconds)  # rows logged past its checkpoint
    return _Run(config, folder, nets, learner, counters, progress).loop()


def saved_config(run: checkpoint.CheckpointLike) -> TrainConfig:
    """The settings of the run whose checkpoint (or folder) is ``run``; ValueError for a
    checkpoint that cannot be resumed."""
    payload = checkpoint.load(run)
    checkpoint.check_resumable(payload)
    missing = [field.name for field in dataclasses.fields(TrainConfig) if field.name not in payload["config"]]
    if missing:  # a default in its place would resume another run than the one saved
        raise ValueError(f"a damaged checkpoint: its settings lack {', '.join(missing)}")
    try:
        return TrainConfig(**payload["config"])
    except TypeError as error:  # a setting this version does not have
        raise ValueError(f"a checkpoint of other settings: {error}") from None


def _restore(config: TrainConfig, folder: str, nets: dict[str, ValueNet], learner: Learner) -> Counters:
    """Loads a run's checkpoint into the networks and the learner, once ``config`` agrees
    with its settings; its counters."""
    payload = checkpoint.load(folder)
    saved = saved_config(payload)
    refuse_changes(folder, dataclasses.asdict(config), dataclasses.asdict(saved), PER_CALL)
    for name, net in checkpoint.nets_of(payload).items():
        try:
            nets[name].load_state_dict(net.state_dict())
        except RuntimeError as error:  # its networks are another model's than its settings name
            first = str(error).strip().splitlines()[0]
            raise ValueError(f"{folder}: a damaged checkpoint: its {name} network is no {config.model!r} network "
                             f"({first})") from None
    try:
        learner.load_state_dict(payload["optimizers"])
    except (KeyError, AttributeError, TypeError, ValueError, RuntimeError) as error:  # torch's, for a damaged one
        raise ValueError(f"{folder}: a damaged checkpoint: its optimizers do not load ({type(error).__name__}: "
                         f"{error})") from None
    missing = [field.name for field in dataclasses.fields(Counters) if field.name not in payload["counters"]]
    if missing:  # a counter read as 0 would drop the log's history and count again
        raise ValueError(f"{folder}: a damaged checkpoint: its counters lack {', '.join(missing)}")
    try:
        counters = Counters(**payload["counters"])
    except TypeError as error:
        raise ValueError(f"{folder}: a checkpoint of other counters: {error}") from None
    counts = (counters.frames, counters.hands, counters.learner_steps)
    losses = counters.losses
    if not all(type(c) is int and 0 <= c < 2**63 for c in counts) or not isinstance(counters.seconds, (int, float)) or \
            not math.isfinite(counters.seconds) or counters.seconds < 0 or not isinstance(losses, dict) or \
            not all(k in encode.DOUZERO_POSITIONS and type(v) in (int, float) and math.isfinite(v)
                    for k, v in losses.items()):
        raise ValueError(f"{folder}: a damaged checkpoint: its counters are not counts, seconds and losses")
    return counters


class _LocalActor:
    """The actor of a run in this process, as a source of samples."""

    def __init__(self, actor: Actor) -> None:
        self.actor = actor

    def collect(self) -> tuple[list[dict[str, Samples]], int]:
        """One step's samples, and the hands that ended."""
        before = self.actor.hands
        samples = self.actor.step()
        return [samples], self.actor.hands - before

    def close(self) -> None:
        """Nothing to release: the actor's tables go with it."""


class _Run:
    """One run's loop: actors' samples into the buffer, learner steps, reports."""

    def __init__(self, config: TrainConfig, folder: str | None, nets: dict[str, ValueNet], learner: Learner,
                 counters: Counters, progress: Progress | None) -> None:
        self.config, self.folder, self.nets, self.learner = config, folder, nets, learner
        self.counters, self.progress = counters, progress
        self.buffer = Buffer()
        self.log = Log(folder) if folder is not None else None
        self.evaluations: list[dict[str, float]] = []
        # A resumed run deals new hands: the seed moves on by the hands already played.
        self.env_seed = (config.seed + 1_000_003 * counters.hands) % (1 << 63)

    def loop(self) -> TrainResult:
        config = self.config
        if config.ray_address is not None:
            from .ray_actors import RayActors

            source: RayActors | _LocalActor = RayActors(config, self.nets, self.env_seed)
        else:
            source = _LocalActor(Actor(self.nets, config.tables, config.epsilon, config.objective, self.env_seed,
                                       config.threads))
        before = self.counters.seconds
        if self.folder is not None and not os.path.exists(os.path.join(self.folder, checkpoint.FILE)):
            self._save()  # a fresh run's first: no log without a checkpoint; a folder that takes none fails now
        try:
            self._steps(source)
        except KeyboardInterrupt:
            self._save()  # the training so far, for --resume
            raise
        finally:
            source.close()
            if self.folder is not None and self.evaluations:
                self._plot(self.folder)  # an interrupted run's curve too, as far as it went
        return TrainResult(self.counters, self.nets, self.evaluations, self.counters.seconds - before)

    def _steps(self, source: RayActors | _LocalActor) -> None:
        """Collects, learns and reports until the run's limit."""
        config, counters = self.config, self.counters
        started = time.perf_counter() - counters.seconds
        last = {"report": counters.seconds, "checkpoint": counters.seconds, "eval": counters.seconds}
        report_frames, report_at = counters.frames, counters.seconds
        latest_wp: float | None = None
        if self._done() and self._final_evaluation_missing():  # an interrupt came during it: the run is trained
            row = {**self._row(report_frames, report_at), **self.evaluate()}
            if self.log is not None:
                self.log.write(row)
        while not self._done():
            collected, hands = source.collect()
            counters.hands += hands
            for samples in collected:
                for position, part in samples.items():
                    self.buffer.add(position, part)
            self._learn()
            counters.seconds = time.perf_counter() - started
            eval_due = config.eval_minutes is not None and (counters.seconds - last["eval"] >= 60 * config.eval_minutes
                                                            or self._done())
            if counters.seconds - last["report"] >= config.report_seconds or self._done() or eval_due:
                row = self._row(report_frames, report_at)  # an evaluation's row too (eval_minutes under report_seconds)
                report_frames, report_at = counters.frames, counters.seconds
                last["report"] = counters.seconds
                if eval_due:
                    paused = time.perf_counter()
                    row.update(self.evaluate())
                    latest_wp = row.get("wp_random", latest_wp)
                    started += time.perf_counter() - paused  # evaluation is not training time
                    last["eval"] = counters.seconds
                if self.log is not None:
                    self.log.write(row)
                if self.progress is not None:
                    self.progress(counters, row["frames_per_s"], latest_wp)
            if counters.seconds - last["checkpoint"] >= 60 * config.checkpoint_minutes or self._done():
                self._save()
                last["checkpoint"] = counters.seconds

    def _final_evaluation_missing(self) -> bool:
        """Whether the run's log lacks the evaluation its last report owes (a run interrupted
        while evaluating its final networks saved them with their counters at the end)."""
        if self.config.eval_minutes is None or self.folder is None:
            return False
        rows = run_rows(self.folder)
        return not rows or rows[-1].get("frames") != self.counters.frames or f"wp_{EVAL_OPPONENTS[0]}" not in rows[-1]

    def _save(self) -> None:
        """The checkpoint, when the run has a folder."""
        if self.folder is not None:
            checkpoint.save(os.path.join(self.folder, checkpoint.FILE), self.payload())

    @staticmethod
    def _plot(folder: str) -> None:
        """The learning curve, if matplotlib is there."""
        from .plot import learning_curve_if_possible

        learning_curve_if_possible(folder, os.path.join(folder, CURVE_FILE))

    def _done(self) -> bool:
        config, counters = self.config, self.counters
        out_of_time = config.minutes is not None and counters.seconds >= 60 * config.minutes
        return out_of_time or (config.frames is not None and counters.frames >= config.frames)

    def _learn(self) -> None:
        """A learner step per full batch of each position's samples."""
        size = self.config.batch_size
        for position in encode.DOUZERO_POSITIONS:
            while self.buffer.size(position) >= size:
                self.counters.losses[position] = self.learner.learn(position, self.buffer.take(position, size))
                self.counters.frames += size
                self.counters.learner_steps += 1

    def _row(self, since_frames: int, since_seconds: float) -> dict[str, float]:
        counters = self.counters
        rate = (counters.frames - since_frames) / max(counters.seconds - since_seconds, 1e-9)
        row: dict[str, float] = {"minutes": row_minutes(counters.seconds), "frames": counters.frames,
                                 "hands": counters.hands, "frames_per_s": round(rate, 1)}
        row.update({f"loss_{p}": round(loss, 5) for p, loss in counters.losses.items()})
        return row

    def evaluate(self) -> dict[str, float]:
        """WP and ADP of the networks now against each built-in opponent: :func:`doudizhu.evaluate`
        of them as a :class:`~doudizhu.bots.TorchBot` (its tables batched), the ``douzero`` preset."""
        row: dict[str, float] = {"minutes": row_minutes(self.counters.seconds)}
        bot = TorchBot.of(self.nets, self.config.model)
        for opponent in EVAL_OPPONENTS:
            result = evaluate(bot, opponent, self.config.eval_deals, Rules.preset("douzero"), self.config.seed)
            row[f"wp_{opponent}"], row[f"adp_{opponent}"] = round(result.wp, 4), round(result.adp, 4)
        self.evaluations.append(row)
        return row

    def payload(self) -> dict[str, Any]:
        """The run's checkpoint dict."""
        return {
            "format": checkpoint.FORMAT,
            "model": self.config.model,
            "nets": {name: net.state_dict() for name, net in self.nets.items()},
            "config": dataclasses.asdict(self.config),
            "optimizers": self.learner.state_dict(),
            "counters": dataclasses.asdict(self.counters),
        }


__all__ = ["PER_CALL", "RUN_FILES", "Counters", "TrainConfig", "TrainResult", "saved_config", "train"]
