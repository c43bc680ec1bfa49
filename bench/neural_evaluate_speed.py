#!/usr/bin/env python
"""Seconds for ``doudizhu.evaluate(TorchBot, "random", deals=N)``: per-game against batched.

    python bench/neural_evaluate_speed.py [--deals N] [--models small,douzero] [--presets douzero,standard]
                                          [--rounds R] [--out PATH | --no-write]

The bot is a freshly initialised (seeded) :mod:`doudizhu.train` checkpoint of each model,
on one torch thread. Per row, the same evaluation three ways, each the best of R rounds:

- ``per game``: the bot behind an adapter with ``act`` only, so every decision is its own
  forward pass (what ``evaluate`` did before the bot protocol had ``act_many``);
- ``batched``: ``TorchBot`` itself, every table waiting on it decided in one ``act_many``;
- ``VectorEnv``: the same networks on VectorEnv tables (douzero preset only), the loop
  the trainer's evaluation ran before it called ``evaluate`` (its deals are self-play's).

Writes (replaces) the ``## Neural bots in evaluate`` section of bench/RESULTS.md.
"""
from __future__ import annotations

import argparse
import functools
import time
from collections.abc import Callable

import numpy as np
import torch
from results_md import add_output_arguments, publish

import doudizhu as dz
from doudizhu.bots import TorchBot
from doudizhu.checkpoint import FORMAT
from doudizhu.envs import VectorEnv
from doudizhu.value_networks import build_all, choose_batch

SECTION = "## Neural bots in evaluate"


class PerGame:
    """A bot with ``act`` only: the runners ask it one game at a time."""

    def __init__(self, bot: TorchBot) -> None:
        self.bot = bot

    def act(self, game: dz.Game) -> dz.Action:
        return self.bot.act(game)


def fresh_bot(model: str) -> TorchBot:
    torch.manual_seed(0)
    nets = build_all(model)
    return TorchBot({"format": FORMAT, "model": model, "nets": {k: v.state_dict() for k, v in nets.items()}})


def vector_env_games(bot: TorchBot, deals: int) -> None:
    """Each of ``deals`` tables' first hand, the networks as the landlord and then as the peasants."""
    for role in ("landlord", "peasants"):
        env = VectorEnv(deals, dz.Rules.preset("douzero"), features="douzero", learners=role, opponents="random",
                        threads=1)
        done = np.zeros(deals, dtype=np.bool_)
        batch = env.reset()
        while not done.all():
            batch = env.step(choose_batch(bot.nets, batch), out=batch)
            done[batch.finished.env] = True


def best_seconds(run: Callable[[], object], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--models", default="small,douzero")
    ap.add_argument("--presets", default="douzero,standard")
    ap.add_argument("--rounds", type=int, default=1)
    add_output_arguments(ap)
    args = ap.parse_args()
    torch.set_num_threads(1)
    lines = [SECTION, "", f"`python bench/neural_evaluate_speed.py --deals {args.deals} --models {args.models} "
             f"--presets {args.presets}` (best of {args.rounds} round(s), one torch thread): seconds for "
             f"`evaluate(TorchBot, \"random\", deals={args.deals})`.", "",
             "| model | rules | games | per game (s) | batched (s) | speed-up | VectorEnv loop (s) |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for model in args.models.split(","):
        bot = fresh_bot(model)
        for preset in args.presets.split(","):
            rules = dz.Rules.preset(preset)
            games = dz.evaluate("random", "random", deals=args.deals, rules=rules).games
            evaluate = functools.partial(dz.evaluate, deals=args.deals, rules=rules)
            one = best_seconds(functools.partial(evaluate, PerGame(bot), "random"), args.rounds)
            many = best_seconds(functools.partial(evaluate, bot, "random"), args.rounds)
            loop = (f"{best_seconds(functools.partial(vector_env_games, bot, args.deals), args.rounds):.1f}"
                    if preset == "douzero" else "")
            lines.append(f"| {model} | {preset} | {games} | {one:.1f} | {many:.1f} | {one / many:.1f}x | {loop} |")
            print(lines[-1], flush=True)
    publish("\n".join(lines), args.out, SECTION, not args.no_write)


if __name__ == "__main__":
    main()
