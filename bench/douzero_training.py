#!/usr/bin/env python
"""DouZero's own trainer given the wall time our recipe had, on the same cores: its
networks against ours.

    python bench/douzero_training.py run [--minutes 60] [--dir build/douzero_training]
    python bench/douzero_training.py publish --ours FILE [--dir ...] [--deals 1000] [--out PATH] [--no-write]

``run`` trains with DouZero 1.1.0's Deep Monte-Carlo (``douzero.dmc.train``, the code of
its ``train.py``) on the CPU: its defaults (objective ADP, batch 32, unroll 100, RMSprop
1e-4), ``--num_actors 2`` for the machine's two cores and one torch thread a process (its
fastest setting here: bench/train_speed.py), weights saved every 5 minutes; it is stopped
after ``--minutes`` of wall time. ``publish`` takes the last weights saved within
those minutes and plays them (``doudizhu.neural.DouZeroBot``, DouZero's own network in
PyTorch) under ``Rules.preset("douzero")`` with ``doudizhu.evaluate``, roles swapped:
against ``--ours`` (a network file, as ``Neural(FILE)``) and against the heuristic and
random. It writes (replaces) the ``## DouZero's trainer, same wall time`` section of
bench/RESULTS.md.

Needs ``pip install --no-deps douzero==1.1.0`` and gitpython (DouZero's trainer imports it).
"""
from __future__ import annotations

import argparse
import datetime
import glob
import json
import os
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))
sys.path.insert(0, HERE)

from results_md import add_output_arguments, publish  # noqa: E402

SECTION = "## DouZero's trainer, same wall time"
DEFAULT_DIR = os.path.join(os.path.dirname(HERE), "build", "douzero_training")
XPID = "douzero"
POSITIONS = ("landlord", "landlord_up", "landlord_down")
# DouZero's train.py, on the CPU: its parser and defaults, our actor count.
TRAIN = """
import sys
from douzero.dmc import parser, train
train(parser.parse_args(sys.argv[1:]))
"""


def run(args: argparse.Namespace) -> None:
    os.makedirs(args.dir, exist_ok=True)
    if glob.glob(os.path.join(args.dir, XPID, "*_weights_*.ckpt")):  # publish would take them for this run's
        raise SystemExit(f"{args.dir} holds an earlier run's weights: give another --dir, or remove {XPID} there")
    command = [sys.executable, "-c", TRAIN, "--actor_device_cpu", "--training_device", "cpu", "--num_actors",
               str(args.actors), "--save_interval", "5", "--savedir", args.dir, "--xpid", XPID]
    started = time.time()
    with open(os.path.join(args.dir, "train.log"), "w") as log:
        # One torch thread a process, DouZero's fastest setting on these cores (bench/train_speed.py).
        env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env)
        try:
            status = process.wait(timeout=60 * args.minutes)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGINT)  # DouZero stops on KeyboardInterrupt
            time.sleep(10)
            os.killpg(process.pid, signal.SIGKILL)
        else:  # it ended before its time: a failure (a missing module, say), no run to publish
            raise SystemExit(f"DouZero's trainer ended after {time.time() - started:.0f} s with status {status}; "
                             f"see {log.name}")
    with open(os.path.join(args.dir, "run.json"), "w") as file:
        json.dump({"minutes": args.minutes, "actors": args.actors, "started": started,
                   "seconds": time.time() - started}, file)


def last_weights(folder: str) -> tuple[int, dict[str, str]]:
    """The frames and the per-position weight files of the last complete save."""
    saves: dict[int, dict[str, str]] = {}
    for path in glob.glob(os.path.join(folder, XPID, "*_weights_*.ckpt")):
        match = re.fullmatch(r"(landlord(?:_up|_down)?)_weights_(\d+)\.ckpt", os.path.basename(path))
        if match:
            saves.setdefault(int(match.group(2)), {})[match.group(1)] = path
    complete = [frames for frames, files in saves.items() if len(files) == len(POSITIONS)]
    if not complete:
        raise SystemExit(f"no complete DouZero save in {folder}")
    frames = max(complete)
    return frames, saves[frames]


def evaluate_rows(args: argparse.Namespace, minutes: float) -> tuple[int, list[str]]:
    import doudizhu as dz
    from doudizhu.bots import Neural
    from doudizhu.neural import DouZeroBot

    frames, files = last_weights(args.dir)
    theirs = DouZeroBot(**files)
    rules = dz.Rules.preset("douzero")
    rows = []
    for label, opponent in ((f"ours (`{os.path.basename(args.ours)}`)", Neural(args.ours)),
                            ("heuristic", "heuristic"), ("random", "random")):
        r = dz.evaluate(theirs, opponent, deals=args.deals, rules=rules, seed=args.seed)
        rows.append(f"| DouZero, {minutes:g} min | {label} | {args.deals} | {r.wp:.3f} ({r.wp_ci[0]:.3f}-"
                    f"{r.wp_ci[1]:.3f}) | {r.adp:+.3f} ({r.adp_ci[0]:+.3f} to {r.adp_ci[1]:+.3f}) |")
        print(rows[-1], flush=True)
    return frames, rows


def publish_results(args: argparse.Namespace) -> None:
    with open(os.path.join(args.dir, "run.json")) as file:
        trained = json.load(file)
    frames, rows = evaluate_rows(args, trained["minutes"])
    md = [
        SECTION,
        "",
        f"Generated by `python bench/douzero_training.py publish --ours {args.ours} --deals {args.deals} --seed "
        f"{args.seed}` on {datetime.datetime.now():%Y-%m-%d %H:%M}, after `run --minutes {trained['minutes']:g}` "
        f"(DouZero 1.1.0's Deep Monte-Carlo on the CPU, {trained['actors']} actors, its defaults otherwise).",
        "",
        f"- DouZero's networks: the last weights saved within the minutes, {frames:,} frames.",
        "- Each row: DouZero's networks (first column) against the second, `doudizhu.evaluate` under "
        "`Rules.preset(\"douzero\")`, each deal played twice with roles swapped; WP and ADP of DouZero's side, "
        "95% intervals.",
        "",
        "| trained | against | deals | WP | ADP |",
        "|---|---|---:|---:|---:|",
        *rows,
    ]
    publish("\n".join(md) + "\n", args.out, SECTION, write=not args.no_write)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("--minutes", type=float, default=60.0)
    r.add_argument("--actors", type=int, default=2)
    r.add_argument("--dir", default=DEFAULT_DIR)
    p = sub.add_parser("publish")
    p.add_argument("--ours", required=True, help="our network file")
    p.add_argument("--dir", default=DEFAULT_DIR)
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    add_output_arguments(p)
    args = ap.parse_args(argv)
    if args.command == "run":
        run(args)
    else:
        publish_results(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
