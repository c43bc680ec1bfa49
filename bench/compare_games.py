#!/usr/bin/env python
"""Whole random games per second: doudizhu vs OpenSpiel, DouZero, RLCard.

    python bench/compare_games.py [--quick] [--seed S] [--rounds R] [--round-s SEC]
                                  [--selfplay-s SEC] [--out PATH] [--no-write]

Loops timed (every action chosen uniformly at random among the legal ones):

* ours, Python API: ``g = doudizhu.Game(seed=i)``, then
  ``while g.phase != "over": g.step(rng.choice(g.legal_actions()))`` (classic bidding;
  a hand nobody bids on is redealt inside the same Game).
* ours, ``doudizhu.selfplay(N, policy="random", threads=1)`` and ``threads=2``
  (the whole loop in C++; N chosen so that one call lasts >= --selfplay-s seconds).
* OpenSpiel, Python loop: ``state = game.new_initial_state()``; chance nodes get a
  random outcome (all of dou_dizhu's chance outcomes are equiprobable; checked), player
  nodes ``random.choice(state.legal_actions())``; ``state.apply_action(a)`` until terminal.
* OpenSpiel, C++ loop: ``pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)``
  with ``pyspiel.make_uniform_random_bot(p, seed)`` for the three players.
* DouZero: ``GameEnv`` with three agents whose ``act(infoset)`` is
  ``rng.choice(infoset.legal_actions)``; a random deal as DouZero's own
  ``generate_eval_data.py`` makes it (landlord 20 cards including the 3 kitty cards,
  landlord_up / landlord_down 17, each sorted); ``card_play_init``, ``step()`` until
  ``game_over``, ``reset()`` -- the loop of ``douzero.evaluation.simulation``.
  DouZero has no bidding.
* RLCard: ``DoudizhuGame``: ``state, _ = game.init_game()``, then
  ``state, _ = game.step(rng.choice(state["actions"]))`` until ``game.is_over()``.
  RLCard has no bidding (``Dealer.determine_role`` picks the landlord).

Each loop is timed in rounds of about --round-s seconds (game count per round
calibrated first); the engines take turns round by round, so a load change on the
machine hits all of them alike.  Reported: median over rounds of games / wall second,
and games per CPU second of this process (``time.process_time``; for the 2-thread
self-play that is per core busy).  The garbage collector stays on (a full collection
before each round).  Every timed game is checked to have reached a terminal state.

Writes (replaces) the section starting with ``## Whole games`` at the end of
bench/RESULTS.md, keeping everything above it (unless --no-write).
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy: idle OpenBLAS threads spin

import argparse
import datetime
import gc
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import tests_path  # noqa: E402,F401  (tests/ on sys.path, for peers)
from results_md import add_output_arguments, publish  # noqa: E402

import compare as C  # noqa: E402  (machine_info, versions, _loadavg)
from peers import FULL_DECK_COUNTS, counts_to_mask, mask_to_douzero  # noqa: E402

SECTION = "## Whole games"


# ------------------------------------------------------------------------------ loops
# A runner plays n games and returns the number of player decisions made (bids and
# plays/passes; chance nodes excluded).  It asserts that every game it plays ends.

def ours_python_runner(ddz, seed: int) -> Callable[[int], int]:
    rng = random.Random(seed)
    next_seed = [seed * 1_000_003]

    def run(n: int) -> int:
        Game = ddz.Game
        choice = rng.choice
        decisions = 0
        s0 = next_seed[0]
        for i in range(s0, s0 + n):
            g = Game(seed=i)
            while g.phase != "over":
                g.step(choice(g.legal_actions()))
                decisions += 1
            assert g.result is not None, f"Game(seed={i}) over without a result"
        next_seed[0] = s0 + n
        return decisions

    return run


def openspiel_python_runner(seed: int) -> Callable[[int], int]:
    import pyspiel
    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(seed)

    def run(n: int) -> int:
        choice = rng.choice
        decisions = 0
        for _ in range(n):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(choice(state.legal_actions()))
                    decisions += 1
            assert state.is_terminal()
        return decisions

    return run


def openspiel_cpp_runner(seed: int) -> Callable[[int], int]:
    """evaluate_bots plays the game in C++; decisions are not counted (returns -1)."""
    import pyspiel
    game = pyspiel.load_game("dou_dizhu")
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(3)]
    next_seed = [seed * 1_000_003]

    def run(n: int) -> int:
        evaluate = pyspiel.evaluate_bots
        s0 = next_seed[0]
        for i in range(s0, s0 + n):
            state = game.new_initial_state()
            returns = evaluate(state, bots, i)
            assert len(returns) == 3 and state.is_terminal(), "evaluate_bots did not finish the game"
        next_seed[0] = s0 + n
        return -1

    return run


class _DZRandomAgent:
    """What douzero.evaluation.random_agent.RandomAgent does, with a seeded RNG."""

    def __init__(self, rng: random.Random):
        self.choice = rng.choice

    def act(self, infoset):
        return self.choice(infoset.legal_actions)


_DZ_DECK = mask_to_douzero(counts_to_mask(FULL_DECK_COUNTS))  # DouZero's card ints, in order


def douzero_deal(rng: random.Random) -> dict:
    """A deal as DouZero's generate_eval_data.py makes it (np.random.shuffle there)."""
    d = _DZ_DECK.copy()
    rng.shuffle(d)
    out = {"landlord": d[:20], "landlord_up": d[20:37], "landlord_down": d[37:54],
           "three_landlord_cards": d[17:20]}
    for v in out.values():
        v.sort()
    return out


def douzero_runner(seed: int) -> Callable[[int], int]:
    from douzero.env.game import GameEnv
    rng = random.Random(seed)
    agent = _DZRandomAgent(rng)
    env = GameEnv({"landlord": agent, "landlord_up": agent, "landlord_down": agent})

    def run(n: int) -> int:
        decisions = 0
        for _ in range(n):
            env.card_play_init(douzero_deal(rng))
            while not env.game_over:
                env.step()
            decisions += len(env.card_play_action_seq)
            left = [len(env.info_sets[p].player_hand_cards) for p in ("landlord", "landlord_up", "landlord_down")]
            assert 0 in left and sum(left) + sum(len(a) for a in env.card_play_action_seq) == 54, left
            env.reset()
        return decisions

    return run


def rlcard_runner(seed: int) -> Callable[[int], int]:
    import numpy as np
    from rlcard.games.doudizhu.game import DoudizhuGame
    rng = random.Random(seed)
    game = DoudizhuGame()
    game.np_random = np.random.RandomState(seed)  # init_game hands it to dealer and players

    def run(n: int) -> int:
        choice = rng.choice
        decisions = 0
        for _ in range(n):
            state, _ = game.init_game()
            while not game.is_over():
                state, _ = game.step(choice(state["actions"]))
                decisions += 1
            assert game.winner_id is not None and any(len(p.current_hand) == 0 for p in game.players)
        return decisions

    return run


def ours_selfplay_runner(ddz, seed: int, threads: int) -> Callable[[int], int]:
    next_seed = [seed * 1_000_003 + threads]

    def run(n: int) -> int:
        s = next_seed[0]
        next_seed[0] += 1
        r = ddz.selfplay(n, policy="random", seed=s, threads=threads)
        assert len(r) == n, (len(r), n)
        assert (r.landlord >= 0).all() and (r.moves > 0).all(), "a self-play game did not finish"
        assert (r.payouts.sum(axis=1) == 0).all(), "self-play payouts do not sum to zero"
        return -1  # bids are not returned per game; plays and passes are in r.moves

    return run


# ------------------------------------------------------------------------------ timing
@dataclass
class Loop:
    key: str
    label: str
    run: Callable[[int], int]
    n: int = 0                       # games per round (calibrated)
    wall: list[float] = field(default_factory=list)  # games / wall s, per round
    cpu: list[float] = field(default_factory=list)   # games / CPU s, per round
    busy: list[float] = field(default_factory=list)  # CPU s / wall s, per round
    decisions: int = 0
    games: int = 0
    error: str | None = None

    @property
    def rate(self) -> float:
        return statistics.median(self.wall) if self.wall else float("nan")

    @property
    def cpu_rate(self) -> float:
        return statistics.median(self.cpu) if self.cpu else float("nan")

    @property
    def cores(self) -> float:
        return statistics.median(self.busy) if self.busy else float("nan")

    @property
    def per_game_decisions(self) -> float:
        return self.decisions / self.games if self.games and self.decisions > 0 else float("nan")


def timed(run: Callable[[int], int], n: int) -> tuple[float, float, int]:
    gc.collect()
    c0, t0 = time.process_time(), time.perf_counter()
    d = run(n)
    t1, c1 = time.perf_counter(), time.process_time()
    return t1 - t0, c1 - c0, d


def calibrate(loop: Loop, seconds: float, min_n: int = 1) -> None:
    """Games per round so that a round lasts about ``seconds``."""
    n = 1
    while True:
        wall, _, _ = timed(loop.run, n)
        if wall >= 0.2 or n >= 1_000_000:
            break
        n *= 4 if wall < 0.05 else 2
    loop.n = max(min_n, math.ceil(n * seconds / max(wall, 1e-9)))


def selfplay_games(ddz, threads: int, seconds: float) -> int:
    """N for selfplay(N, threads=threads) to last >= seconds even with perfect scaling:
    from the per-core rate (games per CPU second of a 1-thread call), so a busy machine
    during calibration does not shorten the call on an idle one."""
    n = 5000
    while True:
        c0 = time.process_time()
        ddz.selfplay(n, policy="random", seed=12345, threads=1)
        cpu = time.process_time() - c0
        if cpu >= 0.2:
            break
        n *= 4
    return math.ceil(n / cpu * threads * seconds / 1000.0) * 1000


def two_core_probe(seconds: float = 0.3) -> float:
    """Cores two GIL-free threads actually get right now (CPU s / wall s of two threads
    hashing with hashlib.sha256, which releases the GIL): ~2.0 on an idle 2-core machine."""
    import hashlib
    import threading
    buf = b"\0" * (16 << 20)
    t0 = time.perf_counter()
    hashlib.sha256(buf).digest()
    k = max(1, int(seconds / max(time.perf_counter() - t0, 1e-6)))

    def work():
        for _ in range(k):
            hashlib.sha256(buf).digest()

    ts = [threading.Thread(target=work) for _ in range(2)]
    c0, t0 = time.process_time(), time.perf_counter()
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return (time.process_time() - c0) / (time.perf_counter() - t0)


def measure(loops: list[Loop], rounds: int) -> None:
    for r in range(rounds):
        for lp in loops:
            if lp.error:
                continue
            try:
                wall, cpu, d = timed(lp.run, lp.n)
            except Exception as e:  # reported in RESULTS
                lp.error = repr(e)
                print(f"[compare_games] {lp.label}: {e!r}", file=sys.stderr)
                continue
            lp.wall.append(lp.n / wall)
            lp.cpu.append(lp.n / cpu if cpu > 0 else float("nan"))
            lp.busy.append(cpu / wall)
            lp.games += lp.n
            if d > 0:
                lp.decisions += d
            print(f"round {r + 1}/{rounds}  {lp.label:34s} {lp.n:>8d} games  {lp.n / wall:>10.0f} games/s "
                  f"({lp.n / cpu if cpu > 0 else float('nan'):.0f} per CPU s)", flush=True)


# ------------------------------------------------------------------------- correctness
def checks(ddz, seed: int) -> list[str]:
    """Checks beyond the per-game terminal asserts; one line per check, for RESULTS."""
    out = []
    import pyspiel
    # OpenSpiel: chance outcomes equiprobable (so random.choice over them is the right draw)
    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(seed)
    unequal = 0
    for _ in range(20):
        s = game.new_initial_state()
        while s.is_chance_node():
            ps = [p for _, p in s.chance_outcomes()]
            unequal += max(ps) - min(ps) > 1e-12
            s.apply_action(rng.choice(s.chance_outcomes())[0])
    assert unequal == 0, "OpenSpiel dou_dizhu has non-uniform chance nodes"
    out.append("OpenSpiel: every chance node of 20 deals has equiprobable outcomes (52 per deal).")
    if ddz is None:
        return out
    # selfplay: count, thread-count independence, replay through the Python API
    n = 300
    a = ddz.selfplay(n, policy="random", seed=seed, threads=1, record=True)
    b = ddz.selfplay(n, policy="random", seed=seed, threads=2, record=True)
    assert len(a) == len(b) == n
    for name in ("hands", "kitty", "landlord", "landlord_won", "base", "multiplier", "moves", "redeals",
                 "payouts", "offsets"):
        assert (getattr(a, name) == getattr(b, name)).all(), f"selfplay threads=1 vs 2 differ in {name}"
    assert (a.actions == b.actions).all()
    out.append(f"`selfplay({n}, seed={seed}, record=True)` returns {n} games and the same arrays "
               "(deals, actions, outcomes) with threads=1 and threads=2.")
    plays = 0
    for i in range(n):
        g = ddz.Game(seed=ddz._core.game_seed(seed, i), first_bidder=i % 3)
        acts = ddz.actions_from_rows(a.actions[a.offsets[i]:a.offsets[i + 1]])
        for seat, act in acts:
            assert g.to_move == seat and act in g.legal_actions(), (i, seat, act)
            plays += g.phase == "playing"
            g.step(act)
        assert g.phase == "over", f"self-play game {i} replayed does not end"
        res = g.result
        assert list(res.payouts) == list(a.payouts[i]) and g.landlord == a.landlord[i], i
        assert g.redeals == a.redeals[i] and bool(res.landlord_won) == bool(a.landlord_won[i]), i
    assert plays == int(a.moves.sum())
    out.append(f"Those {n} self-play games replayed through `Game` (each recorded action legal, by the "
               "seat to move): every game ends, with the recorded landlord, redeals and payouts.")
    return out


# --------------------------------------------------------------------------- breakdown
def _per_item_ns(fn: Callable[[], None], items: int, repeat: int = 5) -> float:
    """ns per item of fn() (which loops over ``items`` things): min over repeats."""
    best = float("inf")
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            t0 = time.perf_counter_ns()
            fn()
            best = min(best, time.perf_counter_ns() - t0)
    finally:
        if gc_was:
            gc.enable()
    return best / max(items, 1)


def _each(f: Callable, items) -> Callable[[], None]:
    """A pass calling f on every item, results dropped at once (as in the real loop).
    The per-item cost includes one Python-level call of the wrapper (~50 ns)."""
    def run():
        for x in items:
            f(x)
    return run


def breakdown(ddz, seed: int, games: int = 60) -> dict[str, list]:
    """Where a Python-loop game's time goes: each call of the loop timed on the states of
    ``games`` recorded random games, as (call, calls per game, ns per call, µs per game)."""
    out: dict[str, list] = {}
    rng = random.Random(seed)
    if ddz is not None:
        states, legal, picks = [], [], []
        for i in range(games):
            g = ddz.Game(seed=10_000_000 + i)
            while g.phase != "over":
                states.append(g.copy())
                la = g.legal_actions()
                a = rng.choice(la)
                legal.append(la)
                picks.append(a)
                g.step(a)
        n = len(states)
        pairs = list(zip(states, picks))
        t_new = _per_item_ns(_each(lambda i: ddz.Game(seed=10_000_000 + i), range(games)), games)
        t_phase = _per_item_ns(_each(lambda s: s.phase, states), n)
        t_legal = _per_item_ns(_each(lambda s: s.legal_actions(), states), n)
        t_choice = _per_item_ns(_each(rng.choice, legal), n)
        t_copy = _per_item_ns(_each(lambda p: p[0].copy(), pairs), n)
        t_cstep = _per_item_ns(_each(lambda p: p[0].copy().step(p[1]), pairs), n)
        d = n / games
        out["ours"] = [("`Game(seed=i)` (deal)", 1.0, t_new),
                       ("`g.phase` (loop test)", d + 1, t_phase),
                       (f"`g.legal_actions()` ({sum(map(len, legal)) / n:.1f} actions on average)", d, t_legal),
                       ("`rng.choice(actions)`", d, t_choice),
                       ("`g.step(a)` (copy+step - copy)", d, max(t_cstep - t_copy, 0.0))]
    import pyspiel
    game = pyspiel.load_game("dou_dizhu")
    ch, pl, pl_pick, ch_pick = [], [], [], []
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                ch.append(s.clone())
                a = rng.choice(s.chance_outcomes())[0]
                ch_pick.append(a)
            else:
                pl.append(s.clone())
                la = s.legal_actions()
                a = rng.choice(la)
                pl_pick.append(a)
            s.apply_action(a)
    allst = ch + pl
    nc, npl = len(ch) / games, len(pl) / games
    pairs = list(zip(allst, ch_pick + pl_pick))
    t_new = _per_item_ns(_each(lambda _: game.new_initial_state(), range(games)), games)
    t_term = _per_item_ns(_each(lambda s: s.is_terminal(), allst), len(allst))
    t_chn = _per_item_ns(_each(lambda s: s.is_chance_node(), allst), len(allst))
    t_co = _per_item_ns(_each(lambda s: s.chance_outcomes(), ch), len(ch))
    legal_os = [s.legal_actions() for s in pl]
    t_la = _per_item_ns(_each(lambda s: s.legal_actions(), pl), len(pl))
    t_choice = _per_item_ns(_each(rng.choice, legal_os), len(pl))
    t_clone = _per_item_ns(_each(lambda p: p[0].clone(), pairs), len(allst))
    t_capply = _per_item_ns(_each(lambda p: p[0].clone().apply_action(p[1]), pairs), len(allst))
    out["openspiel"] = [("`game.new_initial_state()`", 1.0, t_new),
                        ("`state.is_terminal()` (loop test)", nc + npl + 1, t_term),
                        ("`state.is_chance_node()`", nc + npl, t_chn),
                        ("`state.chance_outcomes()` (deal, one card per node)", nc, t_co),
                        (f"`state.legal_actions()` ({sum(map(len, legal_os)) / max(len(pl), 1):.1f} "
                         "actions on average)", npl, t_la),
                        ("`rng.choice(...)` (chance and player nodes)", nc + npl, t_choice),
                        ("`state.apply_action(a)` (clone+apply - clone)", nc + npl,
                         max(t_capply - t_clone, 0.0))]
    return out


# --------------------------------------------------------------------------------- main
def fmt_rate(x: float) -> str:
    if x != x:
        return "–"
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}"


def fmt_x(r: float) -> str:
    if r is None or r != r:
        return "–"
    return f"{r:.2f}x" if r < 10 else (f"{r:.1f}x" if r < 100 else f"{r:.0f}x")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer and shorter rounds")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--rounds", type=int, default=None, help="rounds per loop (default 5, --quick 2)")
    ap.add_argument("--round-s", type=float, default=None, help="seconds per round of a Python/OpenSpiel loop "
                    "(default 1.0, --quick 0.4)")
    ap.add_argument("--selfplay-s", type=float, default=2.0, help="minimum seconds per selfplay call")
    add_output_arguments(ap)
    args = ap.parse_args(argv)
    rounds = args.rounds or (2 if args.quick else 5)
    round_s = args.round_s or (0.4 if args.quick else 1.0)

    t_start = time.time()
    load_before = C._loadavg()
    ddz = C.load_ours()

    loops: list[Loop] = []

    def add(key, label, make):
        try:
            loops.append(Loop(key, label, make()))
        except Exception as e:  # pragma: no cover - a peer not installed
            print(f"[compare_games] {label}: {e!r}", file=sys.stderr)
            loops.append(Loop(key, label, lambda n: 0, error=repr(e)))

    s = args.seed
    if ddz is not None:
        add("ours_py", "ours, Python API loop", lambda: ours_python_runner(ddz, s))
    add("os_py", "OpenSpiel, Python loop", lambda: openspiel_python_runner(s))
    add("os_cpp", "OpenSpiel, C++ evaluate_bots", lambda: openspiel_cpp_runner(s))
    add("dz", "DouZero, GameEnv loop", lambda: douzero_runner(s))
    add("rl", "RLCard, DoudizhuGame loop", lambda: rlcard_runner(s))
    if ddz is not None:
        add("sp1", "ours, selfplay threads=1", lambda: ours_selfplay_runner(ddz, s, 1))
        add("sp2", "ours, selfplay threads=2", lambda: ours_selfplay_runner(ddz, s, 2))

    for lp in loops:
        if lp.error:
            continue
        try:
            if lp.key.startswith("sp"):
                lp.n = selfplay_games(ddz, int(lp.key[2:]), args.selfplay_s * 1.25)
            else:
                calibrate(lp, round_s)
        except Exception as e:
            lp.error = repr(e)
            print(f"[compare_games] {lp.label}: {e!r}", file=sys.stderr)
    probe = [two_core_probe()]
    measure(loops, rounds)
    probe.append(two_core_probe())

    try:
        check_lines = checks(ddz, s)
    except AssertionError as e:
        check_lines = [f"**FAILED**: {e}"]
        print(f"[compare_games] check failed: {e}", file=sys.stderr)
    try:
        parts = breakdown(ddz, s, games=30 if args.quick else 100)
    except Exception as e:  # pragma: no cover
        parts = {}
        print(f"[compare_games] breakdown: {e!r}", file=sys.stderr)
    # plays + passes per self-play game, for the decisions column
    sp_moves = None
    if ddz is not None:
        r = ddz.selfplay(2000, policy="random", seed=s, threads=1)
        sp_moves = float(r.moves.mean())
    load_after = C._loadavg()
    elapsed = time.time() - t_start

    md = render(args, loops, rounds, round_s, (load_before, load_after), elapsed, ddz, check_lines, sp_moves,
                parts, probe)
    publish(md, args.out, SECTION, write=not args.no_write)
    return 0


def render(args, loops, rounds, round_s, load, elapsed, ddz, check_lines, sp_moves, parts=None,
           probe=None) -> str:
    mi = C.machine_info()
    vs = C.versions(ddz)
    if vs.get("doudizhu") == "?":
        try:
            from importlib.metadata import version
            vs["doudizhu"] = version("doudizhu-engine")
        except Exception:
            pass
    by = {lp.key: lp for lp in loops}

    def rate(k):
        lp = by.get(k)
        return lp.rate if lp is not None and not lp.error else float("nan")

    cmd = "python bench/compare_games.py" + (" --quick" if args.quick else "")
    L: list[str] = []
    w = L.append
    w(SECTION)
    w("")
    w(f"Uniform random play, whole games. Generated by `{cmd}` on "
      f"{datetime.datetime.now().strftime('%Y-%m-%d %H:%M')} ({elapsed:.0f} s).")
    w("")
    w(f"- Machine: {mi['cpu']}, nproc = {mi['nproc']}; {mi['platform']}; Python {mi['python']}; "
      f"1-min load average {load[0]} before / {load[1]} after the run")
    w("- Versions: " + ", ".join(f"{k} {v}" for k, v in vs.items()))
    w(f"- Timing: each loop runs in {rounds} rounds of about {round_s:g} s (self-play: one "
      f"`selfplay` call of >= {args.selfplay_s:g} s per round), the loops taking turns round by round; "
      "games/s = median over rounds of games / wall-clock s; games per CPU s = games / "
      "`time.process_time()` of this process (for 2 threads, per busy core). GC on. "
      "`OPENBLAS_NUM_THREADS=1`.")
    w("- A game: ours and OpenSpiel include the auction (ours: classic bidding, a hand nobody "
      "bids on is redealt within the same game; OpenSpiel's Python loop also draws its 52 deal "
      "chance nodes one by one); DouZero and RLCard have no auction (DouZero: random deal, "
      "seat roles fixed; RLCard: `Dealer.determine_role` picks the landlord).")
    w("")
    w("| engine, loop | games/round | games/s | games per CPU s | CPU s / wall s | decisions/game | µs/decision |")
    w("|---|---:|---:|---:|---:|---:|---:|")
    for lp in loops:
        if lp.error:
            w(f"| {lp.label} | – | failed: `{lp.error}` | | | | |")
            continue
        dpg = lp.per_game_decisions
        note = ""
        if lp.key.startswith("sp") and sp_moves is not None:
            dpg, note = sp_moves, " (plays+passes)"
        us = 1e6 / (lp.rate * dpg) if dpg == dpg and lp.rate == lp.rate else float("nan")
        w(f"| {lp.label} | {lp.n:,} | {fmt_rate(lp.rate)} | {fmt_rate(lp.cpu_rate)} | {lp.cores:.2f} | "
          f"{'–' if dpg != dpg else f'{dpg:.1f}'}{note} | {'–' if us != us else f'{us:.2f}'} |")
    w("")
    w("Decisions = bids and plays/passes made by players (chance nodes excluded); µs/decision = "
      "1e6 / (games/s x decisions/game), the whole loop's cost spread over the decisions. "
      "CPU s / wall s: cores this process kept busy (1.0 for a single-threaded loop on an idle "
      "machine; below 1 the loop waited for a core).")
    cores2 = min(probe) if probe else float("nan")
    if probe:
        w("")
        w(f"Two-core check: two GIL-free threads (`hashlib.sha256`) kept {probe[0]:.2f} cores busy before "
          f"the timed rounds and {probe[-1]:.2f} after (2.0 on an idle 2-core machine).")
    if cores2 == cores2 and cores2 < 1.8:
        w("")
        w(f"**The machine was busy** (1-min load {load[0]} before / {load[1]} after, on {mi['nproc']} "
          "cores; other processes were running): wall-clock rates are below an idle machine's, and "
          "a second thread got no second core (Linux autogroup scheduling, which shares the CPU per session, "
          "not per thread, is the likely cause), so the 2-thread wall-clock scaling is not measured by this run; games "
          "per CPU s gives the per-core rate.")
    w("")

    # ratios
    peers_ = [("os_py", "OpenSpiel Python"), ("os_cpp", "OpenSpiel C++"), ("dz", "DouZero"), ("rl", "RLCard")]
    ours_ = [("ours_py", "Python API loop"), ("sp1", "`selfplay`, 1 thread"), ("sp2", "`selfplay`, 2 threads")]
    w("### Speed-up (our games/s / peer games/s)")
    w("")
    w("| ours | " + " | ".join(f"vs {lab}" for _, lab in peers_) + " |")
    w("|---|" + "---:|" * len(peers_))
    for k, lab in ours_:
        w(f"| {lab} | " + " | ".join(fmt_x(rate(k) / rate(pk)) for pk, _ in peers_) + " |")
    w("")

    w("### Targets")
    w("")
    w("| target | measured | met |")
    w("|---|---:|:---:|")

    def row(desc, val, ok, shown):
        met = "–" if val != val else ("yes" if ok else "**no**")
        w(f"| {desc} | {shown} | {met} |")

    v = rate("ours_py") / rate("os_py")
    row("Python API loop >= 3x OpenSpiel's Python loop", v, v >= 3, fmt_x(v))
    v = rate("sp1")
    row("`selfplay`, 1 thread >= 50,000 games/s", v, v >= 50_000, fmt_rate(v) + " games/s")
    v = rate("sp1") / rate("os_cpp")
    row("`selfplay`, 1 thread >= 5x OpenSpiel's C++ `evaluate_bots`", v, v >= 5, fmt_x(v))
    v = rate("sp2") / rate("sp1")
    desc = "`selfplay` near-linear in threads: 2 threads >= 1.8x 1 thread (wall clock)"
    if cores2 == cores2 and cores2 < 1.8 and v < 1.8:
        w(f"| {desc} | {fmt_x(v)} | not measurable: only {cores2:.2f} cores free |")
    else:
        row(desc, v, v >= 1.8, fmt_x(v))
    lp1, lp2 = by.get("sp1"), by.get("sp2")
    if lp1 and lp2 and not lp1.error and not lp2.error:
        v = lp2.cpu_rate / lp1.cpu_rate
        w(f"| (same, per busy core: games per CPU s, 2 threads / 1 thread) | {fmt_x(v)} | "
          f"{'yes' if v >= 0.9 else '**no**'} (>= 0.9) |")
    w("")
    if parts:
        w("### Where a Python-loop game's time goes")
        w("")
        w("Each call of the loop timed alone over the states of recorded random games (min of 5 "
          "passes, GC off), after the timed rounds; calls per game from the same games. On an idle "
          "machine the total is the loop's per-game time above less the interpreter's own loop "
          "overhead; on a busy one read the shares rather than the absolute figures.")
        w("")
        for key, title in (("ours", "ours, Python API"), ("openspiel", "OpenSpiel, Python loop")):
            rows = parts.get(key)
            if not rows:
                continue
            tot = sum(c * ns for _, c, ns in rows) / 1000
            w(f"| {title}: call | calls/game | ns/call | µs/game | share |")
            w("|---|---:|---:|---:|---:|")
            for name, c, ns in rows:
                w(f"| {name} | {c:.1f} | {ns:,.0f} | {c * ns / 1000:.1f} | {c * ns / 10 / tot:.0f}% |")
            w(f"| total | | | {tot:.1f} | |")
            w("")
    w("Correctness of what was timed:")
    w("")
    w("- Every timed game was asserted to end: ours `g.phase == \"over\"` with a `result`; OpenSpiel "
      "`state.is_terminal()` (also after `evaluate_bots`); DouZero `game_over` with a hand emptied and "
      "54 cards accounted for; RLCard `is_over()` with a hand emptied; `selfplay` returned exactly N "
      "games, each with a landlord, moves > 0 and zero-sum payouts.")
    for line in check_lines:
        w(f"- {line}")
    w("")
    return "\n".join(L) + "\n"


if __name__ == "__main__":
    sys.exit(main())
