"""Thread safety: the batch call (which releases the GIL), per-position calls, Game play
loops and self-play, run from several Python threads at once on the same inputs, give
exactly the serial results. Calls share no mutable state: each uses its own buffers
(thread-local in C++) and the inputs are only read."""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

import numpy as np
import pytest
from helpers import PRESETS, UNDER_ASAN, interrupted

import doudizhu as dz
import doudizhu.envs
from doudizhu import Game, Rules

THREADS = 4


def run_concurrently(jobs: list[Callable[[], Any]]) -> list[Any]:
    """Runs the jobs on their own threads, started together, and returns their results."""
    barrier = threading.Barrier(len(jobs))

    def start(job: Callable[[], Any]) -> Any:
        barrier.wait()
        return job()

    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        return [f.result() for f in [pool.submit(start, job) for job in jobs]]


def positions(seed: int, n: int, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Hands and moves to beat from seeded games: leads and follows mixed."""
    rng = random.Random(seed)
    hands: list[int] = []
    lasts: list[Any] = []
    g = Game(seed, rules=rules)
    while len(hands) < n:
        actions = g.legal_actions()
        if not actions:
            g = Game(rng.getrandbits(64), rules=rules)
            continue
        if g.phase == "playing":
            hands.append(g.hand(g.to_move).mask)
            lasts.append(g.last)
        g.step(rng.choice(actions))
    return np.array(hands, dtype=np.uint64), dz.moves_to_array(lasts)


@pytest.mark.parametrize("preset", PRESETS)
def test_batch_from_threads_equals_serial(preset: str) -> None:
    rules = Rules.preset(preset)
    hands, lasts = positions(7, 3000, rules)
    serial_moves, serial_offsets = dz.legal_moves_batch(hands, lasts, rules)
    assert len(serial_moves) > len(hands)  # not trivially empty

    def job() -> tuple[np.ndarray, np.ndarray]:
        out = None
        for _ in range(3):  # several rounds, so the threads overlap
            out = dz.legal_moves_batch(hands, lasts, rules)
        assert out is not None
        return out

    for moves, offsets in run_concurrently([job] * THREADS):
        assert np.array_equal(offsets, serial_offsets)
        assert np.array_equal(moves, serial_moves)


def test_batch_with_different_rules_at_once() -> None:
    # Each thread its own rules: a cache or buffer shared between calls would mix them.
    data = {p: positions(11, 1500, Rules.preset(p)) for p in PRESETS}
    serial = {p: dz.legal_moves_batch(*data[p], Rules.preset(p)) for p in PRESETS}

    def job(p: str) -> Callable[[], tuple[str, Any]]:
        return lambda: (p, [dz.legal_moves_batch(*data[p], Rules.preset(p)) for _ in range(3)])

    for p, results in run_concurrently([job(p) for p in PRESETS]):
        for moves, offsets in results:
            assert np.array_equal(offsets, serial[p][1])
            assert np.array_equal(moves, serial[p][0])


def test_per_position_calls_from_threads() -> None:
    rules = Rules.preset("douzero")
    hands, lasts = positions(3, 400, rules)
    last_moves = dz.moves_from_array(lasts)
    args = [(int(h), m) for h, m in zip(hands, last_moves)]  # an empty row (a lead) reads as None
    serial = [(dz.legal_moves(h, last, rules), dz.legal_moves_array(h, last, rules)) for h, last in args]

    def job() -> list[Any]:
        return [(dz.legal_moves(h, last, rules), dz.legal_moves_array(h, last, rules)) for h, last in args]

    for result in run_concurrently([job] * THREADS):
        for (lst, arr), (want_lst, want_arr) in zip(result, serial):
            assert lst == want_lst
            assert np.array_equal(arr, want_arr)


def play_games(seed: int, n: int, rules: Rules | None) -> list[tuple[Any, ...]]:
    """Seeded games with a seeded random player: records, results and hashes."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        g = Game(seed * 1000 + i, rules=rules, first_bidder=i % 3)
        hashes = []
        while g.legal_actions() and len(hashes) < 5000:
            g.step(rng.choice(g.legal_actions()))
            hashes.append(g.hash)
        copy = g.copy()
        while copy.history:
            copy.undo()
        r = g.result
        out.append((g.to_record(), None if r is None else r.payouts, hashes, copy.hash))
    return out


@pytest.mark.parametrize("rules", [None, Rules(bidding="call_rob"), Rules.preset("douzero")], ids=str)
def test_game_play_loops_from_threads(rules: Rules | None) -> None:
    serial = [play_games(s, 12, rules) for s in range(THREADS)]
    results = run_concurrently([lambda s=s: play_games(s, 12, rules) for s in range(THREADS)])
    assert results == serial


def test_shared_game_read_from_threads() -> None:
    # Reading one Game from several threads (legal actions, observations, records) while
    # none writes gives the same answers as reading it alone.
    g = Game(99)
    for _ in range(10):
        g.step(g.legal_actions()[0])

    def read() -> Any:
        return [(list(map(str, g.legal_actions())), g.seat_view(s)["hand"], g.to_record(), g.hash)
                for s in range(3) for _ in range(20)]

    want = read()
    assert all(r == want for r in run_concurrently([read] * THREADS))


@pytest.mark.skipif(not hasattr(dz, "selfplay"), reason="self-play is not in this build")
def test_selfplay_from_threads_equals_serial() -> None:
    # Self-play from several Python threads at once (each itself on 2 C++ threads).
    fields = ["hands", "kitty", "landlord", "landlord_won", "base", "multiplier", "moves", "redeals", "payouts",
              "actions", "offsets"]

    def run(seed: int) -> Any:
        return dz.selfplay(300, seed=seed, threads=2, record=True)

    serial = [run(s) for s in range(THREADS)]
    parallel = run_concurrently([lambda s=s: run(s) for s in range(THREADS)])
    for got, want in zip(parallel, serial):
        for name in fields:
            a, b = getattr(got, name), getattr(want, name)
            assert (a is None and b is None) or np.array_equal(a, b), name


def test_rollouts_from_many_threads_match_serial() -> None:
    # rollouts releases the GIL and runs threads of its own: Python threads calling it at
    # once, each on threads of its own, while another plays games in Python, get the
    # serial arrays.
    games = [Game(seed) for seed in range(6)]
    for game in games:
        for i in range(8):
            game.step(dz.choose_action(game, "random", i))
    serial = [dz.rollouts(games, "random", seed=s, copies=40, seat=s % 3) for s in range(THREADS)]

    def stepper() -> None:
        for game in [g.copy() for g in games]:
            while game.phase != "over":
                game.step(dz.choose_action(game, "random", 1))

    jobs: list[Callable[[], Any]] = [
        lambda s=s: dz.rollouts(games, "random", seed=s, copies=40, seat=s % 3, threads=2) for s in range(THREADS)
    ]
    results = run_concurrently([*jobs, stepper])
    for s in range(THREADS):
        assert (results[s] == serial[s]).all()


# ------------------------------------------------------------ one object, several threads
def _refused_while(busy: Callable[[], Any], other: Callable[[], Any]) -> int:
    """Runs ``busy`` on a thread and ``other`` meanwhile, until ``busy`` ends; how many times
    ``other`` was refused as in use."""
    worker = threading.Thread(target=busy)
    worker.start()
    refused = 0
    while worker.is_alive():
        try:
            other()
        except RuntimeError as error:
            assert "in use by another" in str(error)
            refused += 1
    worker.join()
    return refused


def test_a_table_run_is_refused_to_other_threads_while_it_advances() -> None:
    # Two advances of one run at once corrupted the heap; now the second is refused.
    run = dz._core.selfplay_run(2000, ["fast_heuristic"] * 3, seed=1, threads=1)  # one advance plays them all
    assert _refused_while(run.advance, run.advance) > 0
    run = dz._core.selfplay_run(2000, ["fast_heuristic"] * 3, seed=1, threads=1)
    assert _refused_while(run.advance, lambda: run.finished) > 0
    assert len(run.advance()[0]) == 0 and len(run.result()["winner"]) == 2000
    with pytest.raises(ValueError, match="taken by an earlier result"):
        run.result()  # the games were moved out: said so, not "the run is not over"


def test_a_signal_stops_a_run_between_games_and_the_run_is_over_for_good() -> None:
    run = dz._core.selfplay_run(10**6, ["fast_heuristic"] * 3, seed=1, threads=2)  # minutes of games uninterrupted
    interrupted(run.advance)
    assert 0 < run.finished < 10**6
    with pytest.raises(RuntimeError, match="the run was interrupted"):
        run.advance()
    with pytest.raises(ValueError, match="not over"):
        run.result()


def _in_play(seed: int) -> Game:
    game = Game(seed=seed)
    while game.phase == "bidding":
        game.step(game.legal_actions()[-1])
    return game


@pytest.mark.parametrize("call", ["rollouts", "teacher_samples", "bid_samples", "ismcts", "bot_act", "playout",
                                  "selfplay", "evaluate_with_python_bot"])
def test_a_signal_stops_a_long_batch_call(call: str) -> None:
    # Minutes of work in C++ read no signal: only kill -9 ended them (a search's trees and a
    # built-in bot's choice among them, which held the GIL as well; a playout; a bot searching
    # on a run's other thread, or in a batch of tables between a Python bot's moves).
    from doudizhu.bots import ISMCTS

    def first_legal(view: Game, legal: list[dz.Action]) -> dz.Action:
        return legal[0]

    long_search = ISMCTS(simulations=10**7, endgame=False)  # minutes a play
    long_calls = {"rollouts": lambda: dz.rollouts(Game(seed=1), "fast_heuristic", copies=10**8 // 4, threads=2),
                  "teacher_samples": lambda: dz._core.teacher_samples(10**5, threads=2),  # about ten minutes
                  "bid_samples": lambda: dz._core.bid_samples(10**6, threads=2),  # half a minute
                  "ismcts": lambda: dz.ismcts(_in_play(1), simulations=10**7, threads=2),  # minutes
                  "bot_act": lambda: ISMCTS(simulations=10**7, endgame=False).act(_in_play(2)),
                  "playout": lambda: dz.playout(_in_play(3), long_search),
                  "selfplay": lambda: dz.selfplay(128, policy=long_search, threads=2),  # 64 games a thread
                  "evaluate_with_python_bot": lambda: dz.evaluate(long_search, first_legal, deals=2, threads=2)}
    interrupted(long_calls[call])
    assert len(dz.rollouts(Game(seed=1), "random", copies=3)) == 3  # and the engine goes on


_DAEMON_AT_EXIT = """
import threading, time
import doudizhu as dz

class SlowExit:  # held by the module: the interpreter sleeps in its teardown
    def __del__(self) -> None:
        time.sleep(0.5)

slow_exit = SlowExit()
run = dz._core.selfplay_run(10**6, ["fast_heuristic"] * 3, seed=1, threads=2)
started = threading.Event()
def advance():
    started.set()
    run.advance()  # minutes of games
threading.Thread(target=advance, daemon=True).start()
started.wait(60)
time.sleep(0.2)  # into the run's games
print("exiting", flush=True)
"""


def test_a_daemon_thread_in_a_run_lets_the_interpreter_exit() -> None:
    # A run checks for Ctrl-C between its games, taking the GIL; Python ends a thread that
    # takes it while the interpreter exits (pthread_exit, an unwinding), and the run's
    # thread pool caught that unwinding: "FATAL: exception not rethrown", an abort.
    done = subprocess.run([sys.executable, "-c", _DAEMON_AT_EXIT], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "exiting\n", "")


# Short calls that release the GIL, by name; {positions} is the batch's size.
_SHORT_CALLS = """
import doudizhu as dz
from doudizhu.envs import VectorEnv
game = dz.Game(seed=3)
env = VectorEnv(2, learners=0, threads=1)
calls = {{
    "sample_worlds": lambda: dz.sample_worlds(game, 0, 2),
    "rollouts": lambda: dz.rollouts(game, copies=4),
    "legal_moves_batch": lambda: dz.legal_moves_batch([game.hand(0).mask] * {positions}),
    "observation_batch": lambda: dz.encode.observation_batch([game] * 8, [0] * 8),
    "selfplay": lambda: dz.selfplay(2, threads=1),
    "vector_env": lambda: env.reset(),
    "solve": lambda: dz.solve(dz.Game(seed=5, rules=dz.Rules(bidding="none")), node_limit=100),
}}
"""

_SHORT_CALLS_AT_EXIT = _SHORT_CALLS + """
import threading, time
call = calls[{name!r}]
called = threading.Event()
def loop():
    while True:
        call()
        called.set()
threading.Thread(target=loop, daemon=True).start()
called.wait(60)  # the calls run: the interpreter exits while the thread is in one or between two
time.sleep(0.3)
print("exiting", flush=True)
"""


@pytest.mark.skipif(UNDER_ASAN, reason="a thread waiting for the GIL at exit is ended by pthread_exit, whose unwinding "
                                      "AddressSanitizer's sigaltstack interceptor reports as a stack overflow")
@pytest.mark.parametrize("name", ["sample_worlds", "rollouts", "legal_moves_batch", "observation_batch", "selfplay",
                                  "vector_env", "solve"])
def test_a_daemon_thread_in_a_gil_free_call_lets_the_interpreter_exit(name: str) -> None:
    # Taking the GIL back after the call, a thread Python ends at exit unwound out of
    # pybind11's release guard, a destructor that cannot throw: "terminate called without
    # an active exception", an abort, for almost every call that releases the GIL.
    code = _SHORT_CALLS_AT_EXIT.format(name=name, positions=8)
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        assert (done.returncode, done.stdout, done.stderr) == (0, "exiting\n", "")


_CALLS_FROM_A_FINALIZER = _SHORT_CALLS + """
import sys
out = sys.stdout
class AtExit:
    def __del__(self):  # run by the thread that finalizes Python
        calls[{name!r}]()
        out.write("called\\n")
        out.flush()
holder = AtExit()
"""


@pytest.mark.parametrize(("name", "positions"), [("legal_moves_batch", 1), ("legal_moves_batch", 100),
                                                 ("sample_worlds", 0), ("rollouts", 0), ("observation_batch", 0),
                                                 ("selfplay", 0), ("vector_env", 0), ("solve", 0)])
def test_a_call_from_a_finalizer_at_exit_returns(name: str, positions: int) -> None:
    # Releasing the GIL, a call waited for Python's finalizing to end before taking it back
    # (meant for daemon threads): from the finalizing thread itself, a hang; and asking
    # whether it was the main thread imported `threading` after it was gone.
    code = _CALLS_FROM_A_FINALIZER.format(name=name, positions=positions)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "called\n", "")


_FORKED_FROM_A_WORKER = """
import os, signal, sys, threading, time
import doudizhu as dz
def worker():
    dz.solve(dz.Game(seed=5, rules=dz.Rules(bidding="none")), node_limit=10)  # the engine met this thread
    pid = os.fork()
    if pid == 0:  # the child's only thread, its main one now: Ctrl-C ends a solve with no limit
        try:
            dz.solve(dz.Game(seed=5, rules=dz.Rules(bidding="none")))
        except KeyboardInterrupt:
            os._exit(7)
        os._exit(0)
    time.sleep(0.5)
    os.kill(pid, signal.SIGINT)
    print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)
thread = threading.Thread(target=worker)
thread.start()
thread.join()
"""


def test_ctrl_c_reaches_a_child_forked_from_a_worker_thread() -> None:
    # Whether a thread is Python's main one is kept a thread; a fork from a worker makes it
    # the child's main one, and the answer kept from before read no Ctrl-C there: the
    # child's long calls ran to their end.
    done = subprocess.run([sys.executable, "-W", "ignore::DeprecationWarning", "-c", _FORKED_FROM_A_WORKER],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, "7\n")


@pytest.fixture
def quick_switches() -> Any:
    """Threads handing over the GIL every microsecond: races show within a second."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


@pytest.mark.usefixtures("quick_switches")
def test_a_game_saved_while_another_thread_plays_it_loads() -> None:
    # The record was read in several calls (origin, deals, actions): a bid or an undo in
    # between gave a pickle that would not load ("'deals' holds 43 deals, but the actions
    # lead to 1"), about 1 in 70 saves.
    game = Game(seed=1)
    stop = threading.Event()

    def table() -> None:
        while not stop.is_set():
            if game.phase == "bidding":
                game.bid(0)  # everyone passes: a redeal
            if game.redeals >= 20:
                while game.history:
                    game.undo()

    player = threading.Thread(target=table)
    player.start()
    try:
        for _ in range(2000):
            copy = pickle.loads(pickle.dumps(game))
            assert copy.redeals == len(copy.deals) - 1
    finally:
        stop.set()
        player.join()


# Under ASan a step of 20,000 tables with the GIL changing hands every microsecond takes minutes.
@pytest.mark.skipif(UNDER_ASAN, reason="minutes under ASan")
@pytest.mark.usefixtures("quick_switches")
def test_choices_rewritten_by_another_thread_are_applied_as_checked() -> None:
    # The engine read the caller's array again after checking it: a write in between made it
    # index past a table's legal actions (a crash).
    env = dz.envs.VectorEnv(20000, features=None, opponents="random", seed=0, threads=1)  # a long step: a wide window
    batch = env.reset()
    choices = np.zeros(len(batch.env), dtype=np.int64)
    stop = threading.Event()

    def scribble() -> None:
        while not stop.is_set():
            choices.fill(10**12)
            choices.fill(0)

    scribbler = threading.Thread(target=scribble)
    applied = 0
    try:
        for step in range(103):
            if step == 3:  # three steps surely accepted (the checks below checked), then the race
                scribbler.start()
            tables = [int(t) for t in batch.env[:10]]
            games = [env.game(t) for t in tables]
            try:
                batch = env.step(choices)
            except dz.IllegalActionError:  # checked as 10**12 somewhere: no table moved
                assert [len(env.game(t).history) for t in tables] == [len(g.history) for g in games]
                continue
            applied += 1  # checked as zeros: each table took its first legal action
            for t, g in zip(tables, games):
                assert env.game(t).history[len(g.history)] == (g.to_move, g.legal_actions()[0])
            assert len(batch.env) == len(choices)
    finally:
        stop.set()
        if scribbler.is_alive():
            scribbler.join()
    assert applied >= 3


def test_a_step_refused_as_in_use_changes_no_table() -> None:
    # A step holds its tables while it reads its choices; code run there (the choices'
    # __array__, as another thread would in that window) is refused before any change.
    env = dz.envs.VectorEnv(8, features="compact", opponents="random", seed=0, threads=1)
    batch = env.reset()
    before = [len(env.game(i).history) for i in range(8)]
    refused: list[str] = []

    class Choices:
        def __array__(self, dtype: object = None, copy: object = None) -> np.ndarray:
            for inner in (lambda: env.step(np.zeros(len(batch.env), dtype=np.int64)), lambda: env.game(0)):
                try:
                    inner()
                except RuntimeError as error:
                    refused.append(str(error))
            return np.zeros(len(batch.env), dtype=np.int64)

    env.step(Choices())
    assert len(refused) == 2 and all("in use by another call" in why for why in refused)
    assert [len(env.game(i).history) for i in range(8)] == [n + 1 for n in before]  # the outer step's only
    # The core's own guard, under the wrapper's: it asked a mutex its owner held (undefined
    # behaviour) and called the call it was making another thread's.
    core = env._core
    batch = env.step(np.zeros(len(batch.env), dtype=np.int64))
    refused.clear()

    class CoreChoices:
        def __array__(self, dtype: object = None, copy: object = None) -> np.ndarray:
            try:
                core.step(np.zeros(len(batch.env), dtype=np.int64))
            except RuntimeError as error:
                refused.append(str(error))
            return np.zeros(len(batch.env), dtype=np.int64)

    core.step(CoreChoices())
    assert refused == ["this VectorEnv is in use by another call (one at a time)"]

    # Not caught there, the refusal is what the outer step raises: NumPy's conversion had
    # cleared it and said the choices were no array of ints.
    class Reentering:
        def __array__(self, dtype: object = None, copy: object = None) -> np.ndarray:
            return np.asarray(env.step(np.zeros(len(batch.env), dtype=np.int64)).env)

    for step in (env.step, core.step):
        with pytest.raises(RuntimeError, match="in use by another call"):
            step(Reentering())


# ---- Python code run in the middle of a call, on the calling thread ---------------------


def test_a_batch_call_made_while_reading_lasts_leaves_the_outer_call_whole() -> None:
    # Reading `lasts` runs its __array__; a batch call there refilled the thread's batch,
    # and the outer call answered for the inner hands (or wrote past its offsets).
    class Lasts:
        def __array__(self, dtype: object = None, copy: object = None) -> np.ndarray:
            dz.legal_moves_batch(np.array([dz.Cards("KKKA").mask] * 2000, dtype=np.uint64))
            return np.zeros(1, dtype=dz.MOVE_DTYPE)

    moves, offsets = dz.legal_moves_batch(np.array([dz.Cards("3").mask], dtype=np.uint64), Lasts())
    assert offsets.tolist() == [0, 1] and dz.moves_from_array(moves) == [dz.Move("3")]


def test_moves_generated_while_a_list_is_built_leave_it_whole() -> None:
    # Building the list interns Moves, which may release old ones: a weakref callback
    # generating moves there refilled the buffer the list was read from (a segfault).
    rng = random.Random(0)
    deck = [rank for rank in "3456789TJQKA2" for _ in range(4)]
    callbacks = []
    keep = []
    for _ in range(1500):
        hand = "".join(rng.sample(deck, 17))
        moves = dz.legal_moves(hand)
        assert [str(m) for m in moves] == [str(m) for m in dz.legal_moves(hand)]
        keep += [weakref.ref(m, lambda _: callbacks.append(dz.legal_moves("3"))) for m in moves]
    assert callbacks and all(moves == [dz.Move("3")] for moves in callbacks)


@pytest.mark.skipif(UNDER_ASAN, reason="AddressSanitizer reserves more address space than the limit leaves")
def test_threads_the_system_cannot_start_leave_their_work_to_the_others() -> None:
    # An address-space limit that 256 thread stacks exceed: creating a thread throws, and
    # that had ended the process (std::terminate) rather than running on fewer threads.
    code = (
        "import json, resource, doudizhu as dz\n"
        "resource.setrlimit(resource.RLIMIT_AS, (700 << 20, resource.RLIM_INFINITY))\n"
        "game = dz.Game(seed=1, rules=dz.Rules(bidding='none'))\n"
        "print(json.dumps([dz.selfplay(600, policy='random', threads=256, seed=3).payouts.tolist(),\n"
        "                  dz.ismcts(game, simulations=640, threads=64, seed=2).visits.tolist()]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    game = Game(seed=1, rules=Rules(bidding="none"))
    assert json.loads(done.stdout) == [dz.selfplay(600, policy="random", threads=2, seed=3).payouts.tolist(),
                                       dz.ismcts(game, simulations=640, threads=64, seed=2).visits.tolist()]
