#!/usr/bin/env python
"""Frames per second of ``doudizhu.envs.VectorEnv`` against the loops learners write today.

    python bench/vector_env_speed.py [--quick] [--rounds R] [--round-s SEC] [--tables N]
                                     [--out PATH] [--no-write]

A frame is a decision made by a learner; every seat is a learner (DouZero's actors train
all three positions), and no seat bids (the ``douzero`` and ``rlcard`` presets, as both
peers). Every loop runs the same trivial stand-in model: a fixed random linear score of
each legal action's features, the best action played (argmax).

* DouZero features, score = w[position] . x_batch row (x_no_action and the action's cards):
  - DouZero 1.1.0's ``douzero.env.env.Env``: ``obs = env.reset()``, then
    ``obs, reward, done, _ = env.step(obs["legal_actions"][argmax(obs["x_batch"] @ w)])``
    (``get_obs`` per step), ``reset()`` when done;
  - ours, a Python loop over ``Game``s: ``encode.douzero_batch(games)`` and ``game.step``
    per table (the loop of issue #16);
  - ``VectorEnv(features="douzero")`` on 1 and 2 threads: the same score from the batch's
    parts (``x_no_action @ w_state + action_planes @ w_action``, no row tiled).
* Compact features, score = w . observation + v[action]:
  - RLCard 1.2.0's ``rlcard.make("doudizhu")``: ``state["obs"]`` and each legal action's
    54-card plane (``state["legal_actions"]``), ``env.step(action_id)``;
  - ours, a Python loop over ``Game``s: ``encode.observation_batch`` and
    ``ActionSpace.legal_ids`` per table, ``game.step``;
  - ``VectorEnv(features="compact")`` on 1 and 2 threads (``observation``, ``action_ids``).

Loops are timed in rounds of about --round-s seconds, the engines taking turns within a
round (this machine's speed drifts by tens of percent); each reports its best round, in
frames per wall second. Then memory per table (resident set growth over --tables tables
after play, and the batch's arrays), and the cost of one step (``step`` and the batch it
returns, without the model) as the batch grows from 1 to 4,096 tables.

Writes (replaces) the ``## Vectorized environment`` section of bench/RESULTS.md.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy: idle OpenBLAS threads spin

import argparse
import datetime
import gc
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))
sys.path.insert(0, HERE)

from results_md import add_output_arguments, publish  # noqa: E402

import doudizhu as dz  # noqa: E402
from doudizhu import encode  # noqa: E402
from doudizhu._core import DOUZERO_X_WIDTHS  # noqa: E402
from doudizhu.envs import Batch, VectorEnv  # noqa: E402

SECTION = "## Vectorized environment"
DOUZERO_RULES = dz.Rules.preset("douzero")
RLCARD_RULES = dz.Rules.preset("rlcard")
CARDS = 54
X_WIDTHS = DOUZERO_X_WIDTHS  # DouZero's x_no_action by position: landlord, landlord_down, landlord_up
MEMORY_TABLES = 4096

Loop = Callable[[], int]  # one unit of work; returns the frames it made


class Model:
    """The stand-in model: fixed random weights for each features' parts."""

    def __init__(self, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.state = rng.normal(size=(3, 430)).astype(np.float32)  # by DouZero position
        for position, width in enumerate(X_WIDTHS):
            self.state[position, width:] = 0.0
        self.action = rng.normal(size=(3, CARDS)).astype(np.float32)
        self.rows = [np.concatenate([self.state[p, :w], self.action[p]]) for p, w in enumerate(X_WIDTHS)]
        self.observation = rng.normal(size=1384).astype(np.float32)
        self.rlcard_observation = rng.normal(size=901).astype(np.float32)  # a peasant's; the landlord's is 790
        self.ids = rng.normal(size=len(dz.ActionSpace(RLCARD_RULES))).astype(np.float32)


# ---------------------------------------------------------------------------------------
# DouZero features.


def douzero_env_loop(model: Model) -> Loop:
    from douzero.env.env import Env

    np.random.seed(0)
    env = Env("adp")
    obs = [env.reset()]
    positions = {name: i for i, name in enumerate(encode.DOUZERO_POSITIONS)}

    def step() -> int:
        o = obs[0]
        best = int(np.argmax(o["x_batch"] @ model.rows[positions[o["position"]]]))
        nxt, _, done, _ = env.step(o["legal_actions"][best])
        obs[0] = env.reset() if done else nxt
        return 1

    return step


class Games:
    """The `Game`s a Python loop keeps, each re-dealt (a new seed) when its hand ends."""

    def __init__(self, rules: dz.Rules, tables: int = 64) -> None:
        self.rules, self.dealt = rules, tables
        self.games = [self.new(i) for i in range(tables)]

    def new(self, index: int) -> dz.Game:
        return dz.Game(seed=index, rules=self.rules, first_bidder=index % 3)

    def play(self, i: int, action: dz.Action) -> None:
        self.games[i].step(action)
        if self.games[i].phase == "over":
            self.games[i] = self.new(self.dealt)
            self.dealt += 1


def python_douzero_loop(model: Model) -> Loop:
    tables = Games(DOUZERO_RULES)
    positions = {name: i for i, name in enumerate(encode.DOUZERO_POSITIONS)}

    def step() -> int:
        for i, features in enumerate(encode.douzero_batch(tables.games)):
            best = int(np.argmax(features["x_batch"] @ model.rows[positions[features["position"]]]))
            tables.play(i, features["legal_actions"][best])
        return len(tables.games)

    return step


def douzero_scores(model: Model, b: Batch) -> np.ndarray:
    """The stand-in model on a batch's DouZero parts: the score of each x_batch row, without the rows."""
    assert b.x_no_action is not None and b.action_planes is not None and b.position is not None
    position = b.position.astype(np.intp)
    state = (b.x_no_action.astype(np.float32) @ model.state.T)[np.arange(len(b)), position]
    per_action = np.repeat(position, np.diff(b.offsets))
    action = (b.action_planes.astype(np.float32) @ model.action.T)[np.arange(len(per_action)), per_action]
    return action + np.repeat(state, np.diff(b.offsets))


def vector_loop(scores: Callable[[Batch], np.ndarray], tables: int, threads: int, rules: dz.Rules,
                features: str, batches: int = 1) -> Loop:
    """A step of VectorEnv: score the batch's actions, take each decision's best. With two
    batches or more, each step's tables play on the background thread while the next
    batch is scored (send / recv)."""
    env = VectorEnv(tables, rules=rules, features=features, threads=threads,  # type: ignore[arg-type]
                    batch_size=tables // batches)
    batch = [env.reset()]

    def step() -> int:
        batch[0] = env.step(batch[0].argmax(scores(batch[0])), out=batch[0])
        return env.batch_size

    return step


# ---------------------------------------------------------------------------------------
# Compact features.


def rlcard_env_loop(model: Model) -> Loop:
    import rlcard

    env = rlcard.make("doudizhu", config={"seed": 0})
    state = [env.reset()[0]]

    def step() -> int:
        s = state[0]
        ids = list(s["legal_actions"])
        planes = np.array(list(s["legal_actions"].values()), dtype=np.float32)
        scores = float(s["obs"] @ model.rlcard_observation[: len(s["obs"])]) + planes @ model.action[0]
        s, _ = env.step(ids[int(np.argmax(scores))])
        state[0] = env.reset()[0] if env.is_over() else s
        return 1

    return step


def python_compact_loop(model: Model) -> Loop:
    space = dz.ActionSpace(RLCARD_RULES)
    tables = Games(RLCARD_RULES)

    def step() -> int:
        states = encode.observation_batch(tables.games) @ model.observation
        for i, game in enumerate(tables.games):
            tables.play(i, game.legal_actions()[int(np.argmax(states[i] + model.ids[space.legal_ids(game)]))])
        return len(tables.games)

    return step


def compact_scores(model: Model, b: Batch) -> np.ndarray:
    assert b.observation is not None and b.action_ids is not None
    return model.ids[b.action_ids] + np.repeat(b.observation @ model.observation, np.diff(b.offsets))


# ---------------------------------------------------------------------------------------
# Timing.


def timed(loop: Loop, units: int) -> tuple[int, float]:
    gc.collect()
    start = time.perf_counter()
    frames = sum(loop() for _ in range(units))
    return frames, time.perf_counter() - start


def calibrate(loop: Loop, seconds: float) -> int:
    units = 1
    while True:
        _, elapsed = timed(loop, units)
        if elapsed >= seconds / 4:
            return max(1, int(units * seconds / elapsed))
        units *= 2


def best_rates(loops: dict[str, Loop], rounds: int, seconds: float) -> dict[str, float]:
    """Frames per wall second of each loop: the best of `rounds`, the loops taking turns."""
    units = {name: calibrate(loop, seconds) for name, loop in loops.items()}
    best = dict.fromkeys(loops, 0.0)
    for r in range(rounds):
        this = {}
        for name, loop in loops.items():
            frames, elapsed = timed(loop, units[name])
            this[name] = frames / elapsed
            best[name] = max(best[name], this[name])
        print(f"round {r + 1}/{rounds}: " + ", ".join(f"{n} {v:,.0f}" for n, v in this.items()), flush=True)
    return best


def resident_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def memory_per_table(features: str | None, tables: int) -> tuple[float, float]:
    """Bytes per table: the resident set's growth with `tables` tables after 100 random steps,
    and the batch's arrays, measured in a new process (where no freed memory is reused)."""
    out = subprocess.run([sys.executable, __file__, "--memory", str(features), "--tables", str(tables)],
                         check=True, capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1])


def measure_memory(features: str | None, tables: int) -> tuple[float, float]:
    gc.collect()
    before = resident_bytes()
    env = VectorEnv(tables, rules=DOUZERO_RULES, features=features, threads=1)  # type: ignore[arg-type]
    rng = np.random.default_rng(0)
    batch = env.reset()
    for _ in range(100):
        batch = env.step(rng.integers(0, np.diff(batch.offsets)), out=batch)
    grown = resident_bytes() - before
    arrays = sum(a.nbytes for a in vars(batch).values() if isinstance(a, np.ndarray))
    return grown / tables, arrays / tables


def step_costs(sizes: list[int], threads: int, rounds: int, seconds: float) -> dict[int, float]:
    """µs per step (the step and its batch, no model: every decision takes its first action)
    of VectorEnv(features="douzero")."""
    costs = {}
    for n in sizes:
        env = VectorEnv(n, rules=DOUZERO_RULES, features="douzero", threads=threads)
        batch, first = [env.reset()], np.zeros(n, dtype=np.int64)

        def step(env: VectorEnv = env, batch: list = batch, first: np.ndarray = first, n: int = n) -> int:
            batch[0] = env.step(first, out=batch[0])
            return n

        units = calibrate(step, seconds)
        costs[n] = min(timed(step, units)[1] / units for _ in range(rounds)) * 1e6
    return costs


def report(rates: dict[str, float], memory: dict[str, tuple[float, float]], costs: dict[int, dict[int, float]],
           tables: int, rounds: int, load: tuple[float, float]) -> str:
    dz_env, rl_env = rates["douzero_env"], rates["rlcard_env"]
    t1, t2 = rates["vector_douzero_1"], max(rates["vector_douzero_2"], rates["vector_douzero_2_overlap"])
    lines = [
        SECTION,
        "",
        f"`python bench/vector_env_speed.py` ({datetime.date.today()}; best of {rounds} interleaved rounds, "
        f"frames per wall second; VectorEnv with {tables} tables, the Python loops with 64 games). A frame is a "
        "learner's decision (every seat learns, no bidding: presets `douzero` and `rlcard`); every loop runs "
        "the same stand-in model, a fixed random linear score of each action's features and argmax. "
        f"The machine's load average (1 minute, {os.cpu_count()} cores) was {load[0]:.1f} at the start and "
        f"{load[1]:.1f} at the end" + (": other jobs shared the cores, so the 2-thread rows had less than two."
                                       if min(load) >= (os.cpu_count() or 1) - 0.5 else "."),
        "",
        "| loop | features | frames/s | vs the peer |",
        "|---|---|---:|---:|",
        f"| DouZero 1.1.0 `Env` (`get_obs` per step) | DouZero | {dz_env:,.0f} | 1x |",
        f"| ours, Python loop over `Game`s (`encode.douzero_batch`) | DouZero | {rates['python_douzero']:,.0f} "
        f"| {rates['python_douzero'] / dz_env:.0f}x |",
        f"| `VectorEnv(features=\"douzero\")`, 1 thread | DouZero | {t1:,.0f} | {t1 / dz_env:.0f}x |",
        f"| `VectorEnv(features=\"douzero\")`, 2 threads | DouZero | {rates['vector_douzero_2']:,.0f} "
        f"| {rates['vector_douzero_2'] / dz_env:.0f}x |",
        f"| `VectorEnv(features=\"douzero\", batch_size=n // 2)`, 2 threads: the learner and a group's thread "
        f"(send / recv) | DouZero | {rates['vector_douzero_2_overlap']:,.0f} "
        f"| {rates['vector_douzero_2_overlap'] / dz_env:.0f}x |",
        f"| RLCard 1.2.0 `rlcard.make(\"doudizhu\")` | RLCard's | {rl_env:,.0f} | 1x |",
        f"| ours, Python loop over `Game`s (`observation_batch`, `legal_ids`) | compact | "
        f"{rates['python_compact']:,.0f} | {rates['python_compact'] / rl_env:.0f}x |",
        f"| `VectorEnv(features=\"compact\")`, 1 thread | compact | {rates['vector_compact_1']:,.0f} "
        f"| {rates['vector_compact_1'] / rl_env:.0f}x |",
        f"| `VectorEnv(features=\"compact\")`, 2 threads | compact | {rates['vector_compact_2']:,.0f} "
        f"| {rates['vector_compact_2'] / rl_env:.0f}x |",
        f"| `VectorEnv(features=\"compact\", batch_size=n // 2)`, 2 threads (send / recv) | compact | "
        f"{rates['vector_compact_2_overlap']:,.0f} | {rates['vector_compact_2_overlap'] / rl_env:.0f}x |",
        "",
        "### Targets (issue #16)",
        "",
        "| target | measured | met |",
        "|---|---:|:---:|",
        f"| `VectorEnv(features=\"douzero\")` >= 100x DouZero's `Env`, 1 thread | {t1 / dz_env:.0f}x "
        f"| {'yes' if t1 >= 100 * dz_env else 'no'} |",
        f"| 2 threads >= 1.7x 1 thread (the faster 2-thread row) | {t2 / t1:.2f}x "
        f"| {'yes' if t2 >= 1.7 * t1 else 'no'} |",
        "",
        "### Memory per table",
        "",
        f"Resident set growth over {MEMORY_TABLES:,} tables after 100 random steps, and the batch's arrays (one "
        "decision per table and its legal actions), bytes per table:",
        "",
        "| features | tables | batch arrays |",
        "|---|---:|---:|",
        *(f"| {name} | {grown:,.0f} | {arrays:,.0f} |" for name, (grown, arrays) in memory.items()),
        "",
        "### One step as the batch grows",
        "",
        "`VectorEnv(features=\"douzero\")`: `step` and the batch it returns (into reused arrays), without the "
        "model; the least of the rounds, µs per step and per table:",
        "",
        "| tables | 1 thread, µs/step | µs/table | 2 threads, µs/step | µs/table |",
        "|---:|---:|---:|---:|---:|",
        *(f"| {n:,} | {costs[1][n]:,.1f} | {costs[1][n] / n:.2f} | {costs[2][n]:,.1f} | {costs[2][n] / n:.2f} |"
          for n in costs[1]),
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="short rounds, for a smoke test")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--round-s", type=float, default=2.0)
    ap.add_argument("--tables", type=int, default=1024)
    ap.add_argument("--memory", help=argparse.SUPPRESS)  # the child process of memory_per_table
    add_output_arguments(ap)
    args = ap.parse_args()
    if args.memory:
        print(*measure_memory(None if args.memory == "None" else args.memory, args.tables))
        return
    if args.quick:
        args.rounds, args.round_s = 1, 0.2
    model, n, load = Model(), args.tables, os.getloadavg()[0]
    loops = {
        "douzero_env": douzero_env_loop(model),
        "python_douzero": python_douzero_loop(model),
        "vector_douzero_1": vector_loop(partial(douzero_scores, model), n, 1, DOUZERO_RULES, "douzero"),
        "vector_douzero_2": vector_loop(partial(douzero_scores, model), n, 2, DOUZERO_RULES, "douzero"),
        "vector_douzero_2_overlap": vector_loop(partial(douzero_scores, model), n, 2, DOUZERO_RULES, "douzero", 2),
        "rlcard_env": rlcard_env_loop(model),
        "python_compact": python_compact_loop(model),
        "vector_compact_1": vector_loop(partial(compact_scores, model), n, 1, RLCARD_RULES, "compact"),
        "vector_compact_2": vector_loop(partial(compact_scores, model), n, 2, RLCARD_RULES, "compact"),
        "vector_compact_2_overlap": vector_loop(partial(compact_scores, model), n, 2, RLCARD_RULES, "compact", 2),
    }
    rates = best_rates(loops, args.rounds, args.round_s)
    del loops
    memory = {str(f): memory_per_table(f, MEMORY_TABLES) for f in (None, "compact", "douzero")}
    sizes = [1, 4, 16, 64, 256, 1024, 4096]
    costs = {t: step_costs(sizes, t, args.rounds, args.round_s / 4) for t in (1, 2)}
    load_end = os.getloadavg()[0]
    publish(report(rates, memory, costs, n, args.rounds, (load, load_end)), args.out, SECTION, not args.no_write)


if __name__ == "__main__":
    main()
