#!/usr/bin/env python
"""The learning curve of the trainer's default model: ``doudizhu.train`` for an hour.

    python bench/learning_curve.py run [--minutes 60] [--dir build/learning_curve] [--objective wp]
    python bench/learning_curve.py publish [--dir build/learning_curve] [--deals 2000] [--out PATH] [--no-write]

``run`` trains the default (small) model, every seat learning by self-play, with the
trainer's periodic evaluation every --eval-minutes of training: 2,000 deals against
``random`` and against ``heuristic``, each played twice with roles swapped:
``doudizhu.evaluate`` of the networks as a TorchBot, its tables batched; evaluation time
is not training time. ``publish`` reads the run's log, evaluates the final checkpoint with
``doudizhu.evaluate`` (TorchBot, evaluate's own deals), copies the curve to
bench/learning_curve.png and writes (replaces) the ``## Learning curve`` section of
bench/RESULTS.md.
"""
from __future__ import annotations

import argparse
import datetime
import os
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))
sys.path.insert(0, HERE)

from results_md import add_output_arguments, publish  # noqa: E402

import doudizhu as dz  # noqa: E402

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


def publish_curve(args: argparse.Namespace) -> None:
    import torch

    from doudizhu.bots import TorchBot
    from doudizhu.train import log

    rows = [r for r in log.read(args.dir) if "wp_random" in r]
    final = rows[-1]
    lines = ["| minutes | frames | WP vs random | ADP vs random | WP vs heuristic | ADP vs heuristic |",
             "|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {r['minutes']:.1f} | {r['frames']:,.0f} | {r['wp_random']:.3f} | {r['adp_random']:+.3f} "
              f"| {r['wp_heuristic']:.3f} | {r['adp_heuristic']:+.3f} |" for r in rows]
    bot = TorchBot(args.dir)
    rules = dz.Rules.preset("douzero")
    tables = []
    for opponent in ("random", "heuristic"):
        started = time.perf_counter()
        result = dz.evaluate(bot, opponent, deals=args.deals, rules=rules, seed=0, threads=1)
        tables.append(result.table("TorchBot", opponent) + f" ({time.perf_counter() - started:.0f} s)")
    if not args.no_write:  # the figure goes with the section
        shutil.copyfile(os.path.join(args.dir, "learning_curve.png"), os.path.join(HERE, "learning_curve.png"))
    payload = torch.load(os.path.join(args.dir, "checkpoint.pt"), weights_only=True)
    config = payload["config"]
    curve = "\n".join(lines)
    beats = final["wp_heuristic"] > 0.5
    verdict = (f"Against `random` the target WP >= 0.90 is {'met' if final['wp_random'] >= 0.9 else 'not met'} "
               f"({final['wp_random']:.3f} at the end). Against `heuristic` the model "
               + ("beats it" if beats else "does not beat it yet")
               + f" (WP {final['wp_heuristic']:.3f}, still rising)"
               + ("." if beats else ", so no checkpoint ships as a built-in bot."))
    evaluations = "\n\n".join(tables)
    md = f"""{SECTION}

`python bench/learning_curve.py run` then `publish` ({datetime.date.today()}, {os.cpu_count()} cores shared
with other jobs, load average {os.getloadavg()[0]:.1f} at the end): the default model (`small`), objective
`{config["objective"]}`, {config["tables"]} tables, learner batches of {config["batch_size"]}, RMSprop at
{config["learning_rate"]}, {config["threads"]} thread, seed {config["seed"]}, trained {final["minutes"]:.0f}
minutes ({final["frames"]:,.0f} frames learned, {final["hands"]:,.0f} hands). Every row is the trainer's own
evaluation (`doudizhu.evaluate` of the networks as a `TorchBot`, its tables batched): {args.deals:,} deals
against each opponent, each played twice with roles swapped; evaluation time is not training time.

{curve}

{verdict}

![learning curve](learning_curve.png)

The final checkpoint as `TorchBot` in `doudizhu.evaluate` (evaluate's own deals, one game at a time,
{args.deals:,} deals, roles swapped):

{evaluations}
"""
    publish(md, args.out, SECTION, write=not args.no_write)


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
