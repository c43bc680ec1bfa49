#!/usr/bin/env python
"""Training frames per second: ``doudizhu.train`` against DouZero 1.1.0's own trainer.

    python bench/train_speed.py [--rounds R] [--round-s SEC] [--douzero-s SEC] [--actors N] [--threads T]
                                [--douzero-threads T] [--out PATH] [--no-write]

Both train DouZero's architecture (an LSTM of 128 over the history, six dense layers of
512, one network per position) with DouZero's defaults otherwise: objective ``adp``,
epsilon 0.01, RMSprop (lr 1e-4, alpha 0.99, eps 1e-5), gradient norm clipped at 40,
learner batches of 32 x 100 = 3,200 samples, every seat learning by self-play, on the CPU.

- DouZero: ``douzero.dmc.train`` (its ``train.py``) with ``--actor_device_cpu
  --training_device cpu --num_actors N`` (N = --actors, default: the cores), its 4
  learner threads a position, checkpoints off. Its log line every 5 s reports the frames
  learned (learner steps x 3,200). Its actors are DouZero's own ``act``, each buffer of 100
  frames it hands the learner (``full_queue.put``) also logged by a wrapper of the queue.
  It runs in its own process group of this process's session (stopped as a group).
- ours: ``doudizhu.train.train(TrainConfig(model="douzero", batch_size=3200,
  learning_rate=1e-4, ...))``, the actor (256 VectorEnv tables) and the learner
  alternating in one process on --threads torch threads, a log row every 5 s.

A frame is a sample learned, as DouZero counts them. Each trainer runs --round-s
seconds per round, the two taking turns. DouZero learns in steps of 3,200 samples per
position, the first only once its actors have filled 32 buffers of 100 for it: its
actors score every legal action with the LSTM and the six layers of 512, a few dozen
decisions a second per core, so that first step takes minutes on a CPU and its learned
count then moves in jumps of 3,200. Two rates of DouZero's are taken: frames learned
(the slope of its logged count from the first log line after every position's first
learner step, whose backlog it leaves out, to the last), and frames
played into its buffers (the slope of the buffers filled, 100 frames each, from the
first to the last), what its learner can learn at most and does in the steady state. The
ratio is against the larger. Ours learns what it plays as it plays it (its slope from its
first learner step). Each trainer keeps its best round. --douzero-s (default: --round-s)
gives DouZero's rounds more time. Writes (replaces) the ``## Training`` section of
bench/RESULTS.md.

Needs ``pip install --no-deps douzero==1.1.0`` and gitpython (DouZero's trainer imports it).
"""
from __future__ import annotations

import argparse
import collections
import datetime
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = os.path.join(os.path.dirname(HERE), "python")
sys.path.insert(0, PYTHON)
sys.path.insert(0, HERE)

from results_md import add_output_arguments, publish  # noqa: E402

SECTION = "## Training"
_DOUZERO_LINE = re.compile(r"After (\d+) \(L:(\d+) U:(\d+) D:(\d+)\) frames: @ ([\d.]+) fps")
_FILLED = "filled "
# DouZero's train.py, its actors' full queues logged (dmc.train starts the processes of
# dmc.act; a spawned actor imports this module to find logged_act).
_DOUZERO = f"""
import sys
sys.path.insert(0, {HERE!r})
import train_speed
from douzero.dmc import dmc, parser
dmc.act = train_speed.logged_act
dmc.train(parser.parse_args(sys.argv[1:]))
"""
UNROLL = 100  # DouZero's --unroll_length: the frames of one buffer
_OURS = """
import sys, time, torch
from doudizhu.train import TrainConfig, train
threads, seconds = int(sys.argv[1]), float(sys.argv[2])
config = TrainConfig(model="douzero", objective="adp", batch_size=3200, learning_rate=1e-4, threads=threads,
                     minutes=seconds / 60, eval_minutes=None, report_seconds=5.0)
train(config, progress=lambda c, rate, wp: print(f"ours {c.seconds:.1f} {c.frames} {rate:.1f}", flush=True))
"""


def _steady(points: list[tuple[float, float]]) -> float:
    """Frames per second from the first (time, frames) point with frames learned to the last."""
    learned = [(at, frames) for at, frames in points if frames > 0]
    if len(learned) < 2 or learned[-1][1] == learned[0][1]:
        return 0.0
    return (learned[-1][1] - learned[0][1]) / (learned[-1][0] - learned[0][0])


class _LoggedQueue:
    """One position's full queue of DouZero's trainer, writing a line to standard error for
    each buffer an actor puts in it."""

    def __init__(self, queue, position: str) -> None:
        self.queue, self.position = queue, position

    def put(self, index) -> None:
        print(f"{_FILLED}{self.position}", file=sys.stderr, flush=True)
        self.queue.put(index)


def logged_act(i, device, free_queue, full_queue, model, buffers, flags) -> None:
    """DouZero's actor (``douzero.dmc.utils.act``), unchanged but for its logged full queues."""
    from douzero.dmc import utils

    logged = {position: _LoggedQueue(queue, position) for position, queue in full_queue.items()}
    utils.act(i, device, free_queue, logged, model, buffers, flags)


def douzero_round(seconds: float, actors: int, threads: int) -> tuple[float, float]:
    """DouZero's trainer for ``seconds``, then stopped (its whole process group): its rates
    of frames learned and of frames played into its buffers."""
    with tempfile.TemporaryDirectory() as savedir:
        args = ["--actor_device_cpu", "--training_device", "cpu", "--num_actors", str(actors),
                "--disable_checkpoint", "--savedir", savedir, "--xpid", "bench"]
        env = dict(os.environ, OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads))
        process = subprocess.Popen([sys.executable, "-c", _DOUZERO, *args], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True, process_group=0, cwd=savedir, env=env)
        started = time.perf_counter()
        learned: list[tuple[float, float]] = []
        played: list[tuple[float, float]] = []
        assert process.stderr is not None
        said: collections.deque[str] = collections.deque(maxlen=10)  # its last words, should it end early
        try:
            for line in process.stderr:
                said.append(line)
                at = time.perf_counter() - started
                match = _DOUZERO_LINE.search(line)
                if match and all(int(match.group(i)) for i in (2, 3, 4)):  # every position has had a step
                    learned.append((at, float(match.group(1))))
                elif line.startswith(_FILLED):
                    played.append((at, float(UNROLL * (len(played) + 1))))
                if at >= seconds:
                    break
            else:  # it ended before its time: a failure (a missing module, say), no measurement
                raise SystemExit(f"DouZero's trainer ended after {time.perf_counter() - started:.0f} s:\n"
                                 + "".join(said))
        finally:
            os.killpg(process.pid, signal.SIGKILL)  # its actors are spawned processes of its group
            process.wait()
    return _steady(learned), _steady(played)


def ours_round(seconds: float, threads: int) -> float:
    """Our trainer for ``seconds`` of training, in a fresh process as DouZero's."""
    env = dict(os.environ, PYTHONPATH=PYTHON)
    out = subprocess.run([sys.executable, "-c", _OURS, str(threads), str(seconds)], capture_output=True, text=True,
                         env=env, check=True).stdout
    points = [(float(at), float(frames)) for at, frames, _ in re.findall(r"ours ([\d.]+) (\d+) ([\d.]+)", out)]
    return _steady(points)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--round-s", type=float, default=240.0)
    ap.add_argument("--douzero-s", type=float, default=None, help="DouZero's round (default: --round-s)")
    ap.add_argument("--actors", type=int, default=os.cpu_count() or 1, help="DouZero's actor processes")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                    help="our torch and environment threads (default: the cores, as DouZero's actors)")
    ap.add_argument("--douzero-threads", type=int, default=1,
                    help="torch threads in each of DouZero's processes (OMP_NUM_THREADS; unset it uses every core in "
                         "each, its actors and learner oversubscribing the cores)")
    add_output_arguments(ap)
    args = ap.parse_args()
    best = {"douzero": 0.0, "douzero played": 0.0, "ours": 0.0}
    for r in range(args.rounds):
        learned, played = douzero_round(args.douzero_s or args.round_s, args.actors, args.douzero_threads)
        best["douzero"], best["douzero played"] = max(best["douzero"], learned), max(best["douzero played"], played)
        best["ours"] = max(best["ours"], ours_round(args.round_s, args.threads))
        print(f"round {r + 1}: best so far {best}", flush=True)
    load = os.getloadavg()[0]
    douzero_s = args.douzero_s or args.round_s
    theirs = max(best["douzero"], best["douzero played"])
    learned = f"{best['douzero']:,.0f}" if best["douzero"] else f"none in {douzero_s:.0f} s"
    ratio = f"{best['ours'] / theirs:.1f}x" if theirs else "n/a (DouZero filled fewer than two buffers)"
    md = f"""{SECTION}

`python bench/train_speed.py --rounds {args.rounds} --round-s {args.round_s:.0f} --douzero-s {douzero_s:.0f} \
--actors {args.actors} --douzero-threads {args.douzero_threads}` \
({datetime.date.today()},
{os.cpu_count()} cores, load average {load:.1f} at the end): training frames per second with DouZero's
architecture and DouZero's defaults otherwise, best of {args.rounds} interleaved round(s) ({douzero_s:.0f} s
for DouZero, {args.round_s:.0f} s for ours). Learned: the slope of the frames learned once every position has
had its first learner step (ours: from its first); played: the slope of the frames DouZero's actors put in
its buffers, what its learner learns in the steady state and at most. The ratio is ours over the larger of
DouZero's two.

| trainer | learned frames/s | played frames/s | vs DouZero |
|---|---:|---:|---:|
| DouZero 1.1.0 `train.py` (`--actor_device_cpu --training_device cpu`, {args.actors} actors, 4 learner \
threads a position, {args.douzero_threads} torch thread(s) a process) | {learned} | {best["douzero played"]:,.0f} | 1x |
| `doudizhu.train` (`model="douzero"`, 256 tables, {args.threads} thread(s), one process) \
| {best["ours"]:,.0f} | {best["ours"]:,.0f} | {ratio} |

DouZero's actors run the LSTM and the six layers of 512 on every legal action of every
decision, a few dozen decisions a second per core, and its first learner step of a
position waits for 32 buffers of 100 of that position's frames. Rounds before 2026-12-01
saw no learner step in 240-600 s: DouZero's processes were found stopped mid-run (state T),
stopped from outside the benchmark while other work shared the machine.
"""
    publish(md, args.out, SECTION, write=not args.no_write)


if __name__ == "__main__":
    main()
