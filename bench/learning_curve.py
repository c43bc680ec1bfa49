#!/usr/bin/env python
"""The learning curve of the trainer's default model: ``doudizhu.train`` for an hour.

    python bench/learning_curve.py run [--minutes 60] [--dir build/learning_curve] [--objective wp]
    python bench/learning_curve.py publish [--dir build/learning_curve] [--deals 2000] [--out PATH] [--no-write]

``run`` trains the default (small) model, every seat learning by self-play, with the
trainer's periodic evaluation every --eval-minutes of training: 2,000 deals against
``random`` and against ``heuristic``, each played twice with roles swapped, the networks
batched over VectorEnv tables (``doudizhu.train.evaluation``); evaluation time is not
training time. ``publish`` reads the run's log, evaluates the final checkpoint with
``doudizhu.evaluate`` (TorchBot, evaluate's own deals), copies the curve to
bench/learning_curve.png and writes (replaces) the ``## Learning curve`` section of
bench/RESULTS.md.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))
sys.path.insert(0, HERE)

from results_md import add_output_arguments  # noqa: E402

SECTION = "## Learning curve"
DEFAULT_DIR = os.path.join(os.path.dirname(HERE), "build", "learning_curve")


def run(args: argparse.Namespace) -> None:
    from doudizhu.train import TrainConfig, train

    config = TrainConfig(minutes=args.minutes, objective=args.objective, seed=args.seed, eval_minutes=args.eval_minutes,
                         eval_deals=args.deals, checkpoint_minutes=5.0, report_seconds=30.0)
    started = time.time()

    def progress(counters, rate, wp):  # one line per report: the run goes to a log file
        print(f"{counters.seconds / 60:6.2f} min {counters.frames:>10,} frames {rate:8,.0f}/s "
              f"losses {counters.losses} wp_random {wp} wall {(time.time() - started) / 60:.1f} min", flush=True)

    result = train(config, out=args.dir, resume=args.resume, progress=progress)
    print("done", result.counters)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("--minutes", type=float, default=60.0)
    r.add_argument("--eval-minutes", type=float, default=6.0)
    r.add_argument("--deals", type=int, default=2000)
    r.add_argument("--objective", default="wp", choices=["adp", "wp"])
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--dir", default=DEFAULT_DIR)
    r.add_argument("--resume", action="store_true")
    p = sub.add_parser("publish")
    p.add_argument("--dir", default=DEFAULT_DIR)
    p.add_argument("--deals", type=int, default=2000)
    add_output_arguments(p)
    args = ap.parse_args()
    if args.command == "run":
        run(args)
    else:
        publish_curve(args)


if __name__ == "__main__":
    main()
