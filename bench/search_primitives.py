#!/usr/bin/env python
"""The primitives a search is built from, ours beside OpenSpiel's ``dou_dizhu``.

    python bench/search_primitives.py [--positions N] [--rounds R] [--seed S]
                                      [--out PATH] [--no-write]

Positions: ``--positions`` games of OpenSpiel's ``dou_dizhu`` played by uniformly random
legal actions from ``random.Random(seed)`` to a random point of the play phase (5 to 30
plays and passes after the auction), each mirrored in ours: the same deal (OpenSpiel's
face-up card names the first bidder), the same bids and plays (``from_openspiel``), under
``Rules.preset("openspiel")``; every mirrored action is checked legal in ours, by the
seat OpenSpiel has to move. Deals nobody bids on are skipped.

Each primitive is timed on all positions (repeated for about ``--seconds`` a timing), both
engines one after the other, in ``--rounds`` rounds; each engine's best round counts (one thread; the machine is shared,
so the best round is the least disturbed one). Rates are per position handled (per
rollout or world for the batches).

Writes (replaces) the ``## Search primitives`` section of bench/RESULTS.md (unless
--no-write).
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy: idle OpenBLAS threads spin

import argparse
import datetime
import gc
import random
import subprocess
import sys
import time
from collections.abc import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import tests_path  # noqa: E402,F401  (tests/ on sys.path, for peers)
from results_md import add_output_arguments, publish  # noqa: E402

SECTION = "## Search primitives"
BATCH_COPIES = 25  # rollouts (worlds) of each position a repetition of a batch primitive


def os_card_text(card: int) -> str:
    """Our rank character of an OpenSpiel card id (suit * 13 + rank; 52, 53 the jokers)."""
    from peers import RANKS

    return RANKS[13 + card - 52] if card >= 52 else RANKS[card % 13]


def shared_positions(n: int, seed: int) -> list[tuple[object, object]]:
    """[(our Game, OpenSpiel state)] at the same point of the same random game."""
    import pyspiel

    import doudizhu as dz
    from doudizhu.actions import from_openspiel

    game = pyspiel.load_game("dou_dizhu")
    rules = dz.Rules.preset("openspiel")
    rng = random.Random(seed)
    out: list[tuple[object, object]] = []
    while len(out) < n:
        st = game.new_initial_state()
        face_up = rng.choice([a for a, _ in st.chance_outcomes()])
        st.apply_action(face_up)
        hands: list[list[int]] = [[], [], []]
        for k in range(51):
            card = rng.choice([a for a, _ in st.chance_outcomes()])
            st.apply_action(card)
            hands[k % 3].append(card - 51)
        kitty = sorted(set(range(54)) - {c for h in hands for c in h})
        ours = dz.Game.from_deal(["".join(map(os_card_text, h)) for h in hands], "".join(map(os_card_text, kitty)),
                                 first_bidder=face_up % 3, rules=rules)
        plays = rng.randint(5, 30)
        while not st.is_terminal() and plays > 0:
            bidding = ours.phase == "bidding"
            action = rng.choice(st.legal_actions())
            assert ours.to_move == st.current_player()
            ours.step(from_openspiel(action, bidding=bidding))
            st.apply_action(action)
            plays -= not bidding
        if st.is_terminal() or ours.phase != "playing":
            continue  # nobody bid, or a hand over before the point drawn
        out.append((ours, st))
    return out


def rate(run: Callable[[int], int], reps: int) -> float:
    """Items a second of one pass run(reps), the garbage collector off."""
    gc.collect()
    gc.disable()
    try:
        started = time.perf_counter()
        items = run(reps)
        return items / (time.perf_counter() - started)
    finally:
        gc.enable()


def calibrated(run: Callable[[int], int], seconds: float) -> int:
    """The reps that make one pass of run last about `seconds`."""
    reps = 1
    while True:
        started = time.perf_counter()
        run(reps)
        took = time.perf_counter() - started
        if took >= seconds / 4:
            return max(1, round(reps * seconds / took))
        reps *= 4


Pass = Callable[[int], int]


def primitives(pairs: list) -> list[tuple[str, Pass | None, Pass | None]]:
    """(primitive, our pass, OpenSpiel's pass): pass(reps) handles every position `reps` times
    and returns how many items it handled."""
    import pyspiel

    import doudizhu as dz

    games = [g for g, _ in pairs]
    states = [s for _, s in pairs]
    first_ours = [g.legal_actions()[0] for g in games]
    first_os = [s.legal_actions()[0] for s in states]
    space = dz.ActionSpace(games[0].rules)
    first_id = [int(space.legal_ids(g)[0]) for g in games]
    bots = [pyspiel.make_uniform_random_bot(p, 17 + p) for p in range(3)]
    n = len(pairs)

    def ours_copy(reps: int) -> int:
        for _ in range(reps):
            for g in games:
                g.copy()
        return reps * n

    def os_clone(reps: int) -> int:
        for _ in range(reps):
            for s in states:
                s.clone()
        return reps * n

    def ours_step_undo(reps: int) -> int:
        for _ in range(reps):
            for g, a in zip(games, first_ours):
                g.step(a)
                g.undo()
        return reps * n

    def ours_step_id_undo(reps: int) -> int:
        step = space.step
        for _ in range(reps):
            for g, i in zip(games, first_id):
                step(g, i)
                g.undo()
        return reps * n

    def os_clone_apply(reps: int) -> int:
        for _ in range(reps):
            for s, a in zip(states, first_os):
                s.clone().apply_action(a)
        return reps * n

    def ours_playout(reps: int) -> int:
        for r in range(reps):
            for g in games:
                dz.playout(g, "random", seed=r)
        return reps * n

    def os_evaluate_bots(reps: int) -> int:
        for r in range(reps):
            for s in states:
                pyspiel.evaluate_bots(s.clone(), bots, r)
        return reps * n

    def ours_batch(reps: int) -> int:
        dz.rollouts(games, "random", seed=1, copies=BATCH_COPIES * reps)
        return reps * n * BATCH_COPIES

    def ours_batch_worlds(reps: int) -> int:
        for g in games:
            dz.rollouts(g, "random", seed=1, copies=BATCH_COPIES * reps, seat=g.to_move)
        return reps * n * BATCH_COPIES

    def ours_worlds(reps: int) -> int:
        for g in games:
            dz.sample_worlds(g, g.to_move, BATCH_COPIES * reps, seed=1)
        return reps * n * BATCH_COPIES

    def ours_view(reps: int) -> int:
        for _ in range(reps):
            for g in games:
                g.seat_view(g.to_move)
        return reps * n

    def ours_infoset(reps: int) -> int:
        for _ in range(reps):
            for g in games:
                g.infoset(g.to_move)
        return reps * n

    def ours_key(reps: int) -> int:
        for _ in range(reps):
            for g in games:
                g.infoset_key(g.to_move)
        return reps * n

    def os_observation(reps: int) -> int:
        for _ in range(reps):
            for s in states:
                s.observation_string(s.current_player())
        return reps * n

    return [
        ("copy (`g.copy()` / `state.clone()`)", ours_copy, os_clone),
        ("step + undo (OpenSpiel: clone + apply, it has no undo)", ours_step_undo, os_clone_apply),
        ("step by `ActionSpace` id + undo (`space.step`; OpenSpiel as above)", ours_step_id_undo, os_clone_apply),
        ("random rollout to the end, one C++ call a game (`playout` / `evaluate_bots`)", ours_playout,
         os_evaluate_bots),
        ("random rollouts in one batch call (`rollouts(games, copies=k)`)", ours_batch, None),
        ("a world drawn and rolled out (`rollouts(game, copies=k, seat=s)`)", ours_batch_worlds, None),
        ("one sampled world (`sample_worlds`; OpenSpiel has no resampling for dou_dizhu)", ours_worlds, None),
        ("a seat's view as a dict (`seat_view` / `observation_string`)", ours_view, os_observation),
        ("a seat's hashable view (`infoset` / `observation_string`)", ours_infoset, os_observation),
        ("an information-set key (`infoset_key`; OpenSpiel has no information state)", ours_key, None),
    ]


def fmt(rate: float | None) -> str:
    if rate is None:
        return "-"
    return f"{rate / 1e6:.2f}M" if rate >= 1e6 else f"{rate / 1e3:.0f}k"


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--seconds", type=float, default=0.5, help="the length of one timing of one primitive")
    add_output_arguments(ap)
    args = ap.parse_args()

    import pyspiel

    import doudizhu as dz

    load_before = os.getloadavg()[0]
    pairs = shared_positions(args.positions, args.seed)
    table = primitives(pairs)
    reps = {(name, engine): calibrated(run, args.seconds)
            for name, ours, theirs in table for engine, run in (("ours", ours), ("openspiel", theirs)) if run}
    seen: dict[tuple[str, str], list[float]] = {}
    for r in range(args.rounds):
        for name, ours, theirs in table:
            for engine, run in (("ours", ours), ("openspiel", theirs)):
                if run is not None:
                    seen.setdefault((name, engine), []).append(rate(run, reps[name, engine]))
        print(f"round {r + 1}/{args.rounds} done", flush=True)

    def best(name: str, engine: str) -> float | None:
        rates = seen.get((name, engine))
        return max(rates) if rates else None

    plays = [sum(len(p) for p in g.infoset(0).played) for g, _ in pairs]
    lines = [
        SECTION,
        "",
        f"{datetime.date.today().isoformat()}, commit {commit()}; `python bench/search_primitives.py` "
        f"(bench/search_primitives.py). {len(pairs)} positions of random OpenSpiel `dou_dizhu` games, "
        f"seed {args.seed}, mirrored in ours under `Rules.preset(\"openspiel\")` ({min(plays)} to {max(plays)} "
        f"cards played); per second, each engine's best of {args.rounds} interleaved rounds of about "
        f"{args.seconds} s, one thread. OpenSpiel {getattr(pyspiel, '__version__', '2.x')}, doudizhu "
        f"{dz.__version__}. The machine is shared with other jobs: {os.cpu_count()} cores, load average "
        f"{load_before:.1f} before and {os.getloadavg()[0]:.1f} after, so rates tens of percent apart may be "
        "noise; the ratios of interleaved rows are steadier than the rates.",
        "",
        "| primitive | ours /s | OpenSpiel /s | ours / OpenSpiel |",
        "|---|---:|---:|---:|",
    ]
    for name, _, _ in table:
        ours, theirs = best(name, "ours"), best(name, "openspiel")
        ratio = f"{ours / theirs:.1f}x" if ours and theirs else "-"
        lines.append(f"| {name} | {fmt(ours)} | {fmt(theirs)} | {ratio} |")
    lines += [
        "",
        "The batch rows count rollouts (worlds) a second: one call plays all of them in C++, so the "
        "per-call cost of Python and of copying the result Game back is paid once a batch. "
        "`seat_view` is `infoset(seat).to_dict()`, so it pays for the object and the dict. "
        "OpenSpiel's `observation_string` is the nearest it has to a hashable view; it holds no history, "
        "so it is not a key of an information set.",
    ]
    publish("\n".join(lines), args.out, SECTION, write=not args.no_write)


if __name__ == "__main__":
    main()
