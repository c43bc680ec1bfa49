"""The vectorized environment: its batches describe its tables, its opponents are the
built-in policies, its tables are self-play's games, and bad choices change nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import numpy.typing as npt
import pytest
from helpers import interrupted
from hypothesis import given, settings
from hypothesis import strategies as st

import doudizhu as dz
from doudizhu import encode
from doudizhu.bots import Heuristic
from doudizhu.envs import Batch, VectorEnv


def random_choices(batch: Batch, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    return rng.integers(0, np.diff(batch.offsets))


def run(env: VectorEnv, steps: int, seed: int = 0) -> Iterator[Batch]:
    """The batches of `steps` random choices after a reset."""
    rng = np.random.default_rng(seed)
    batch = env.reset()
    yield batch
    for _ in range(steps):
        batch = env.step(random_choices(batch, rng))
        yield batch


def sampled(batch: Batch, k: int = 3) -> list[int]:
    return sorted({0, len(batch) - 1, *range(0, len(batch), max(1, len(batch) // k))})


@pytest.mark.parametrize("features", [None, "compact", "douzero"])
@pytest.mark.parametrize("learners", ["all", 1, "landlord"])
def test_batches_describe_the_tables(features: str | None, learners: str | int) -> None:
    env = VectorEnv(6, features=features, learners=learners, opponents="random", seed=3)  # type: ignore[arg-type]
    space = dz.ActionSpace(env.rules)
    for batch in run(env, 60):
        assert np.array_equal(batch.env, np.arange(6))
        assert batch.offsets[0] == 0 and len(batch.actions) == batch.offsets[-1]
        for b in sampled(batch):
            game = env.game(b)
            assert batch.seat[b] == game.to_move
            assert batch.legal_actions(b) == game.legal_actions()
            if features == "compact":
                assert batch.observation is not None and batch.action_ids is not None
                assert np.array_equal(batch.observation[b], encode.observation(game))
                assert np.array_equal(batch.action_ids[batch.offsets[b] : batch.offsets[b + 1]], space.legal_ids(game))
            if features == "douzero":
                assert_douzero_equal(batch.douzero(b), encode.douzero(game))


def assert_douzero_equal(got: encode.DouZeroObservation, want: encode.DouZeroObservation) -> None:
    assert got.keys() == want.keys()
    for key in want:
        value, expected = got[key], want[key]  # type: ignore[literal-required]
        if isinstance(expected, np.ndarray):
            assert value.dtype == expected.dtype and np.array_equal(value, expected), key
        else:
            assert value == expected, key


def test_douzero_inputs_broadcast_one_z() -> None:
    # Their values are the tables' (test_douzero_features_under_every_preset_are_the_tables).
    env = VectorEnv(4, features="douzero", seed=5)
    for batch in run(env, 20):
        for b in range(len(batch)):
            x_batch, z_batch = batch.douzero_inputs(b)
            assert len(z_batch) == len(x_batch) and np.array_equal(z_batch, np.broadcast_to(z_batch[0], z_batch.shape))
            assert not z_batch.flags.writeable  # a broadcast of one z, no copy per action


def test_douzero_tensors_share_the_rows_and_do_not_copy_z_per_action() -> None:
    torch = pytest.importorskip("torch")
    batch = VectorEnv(4, features="douzero", seed=2).reset()
    for b in range(len(batch)):
        x, z = batch.douzero_tensors(b)
        x_want, z_want = batch.douzero_inputs(b)
        assert torch.equal(x, torch.from_numpy(x_want))
        assert torch.equal(z, torch.from_numpy(np.ascontiguousarray(z_want)))
        assert z.stride()[0] == 0 and x.dtype == z.dtype == torch.float32  # one z, seen from every row


def test_mask_marks_the_legal_ids() -> None:
    env = VectorEnv(3, rules=dz.Rules.preset("rlcard"), mask=True, seed=1)
    space = dz.ActionSpace(env.rules)
    for batch in run(env, 10):
        assert batch.mask is not None and batch.mask.shape == (3, len(space))
        for b in range(3):
            assert np.array_equal(batch.mask[b], space.mask(env.game(b)))


def trajectory(threads: int) -> list[tuple[bytes, ...]]:
    env = VectorEnv(200, features="compact", opponents="random", seed=11, threads=threads)
    return [
        (batch.actions.tobytes(), batch.offsets.tobytes(), batch.observation.tobytes(),  # type: ignore[union-attr]
         batch.finished.payouts.tobytes(), batch.finished.env.tobytes())
        for batch in run(env, 40)
    ]


def test_threads_give_the_same_games() -> None:
    assert trajectory(1) == trajectory(2)  # 200 tables: four chunks, so both threads work


def test_tables_play_selfplays_games() -> None:
    """With seat 0 choosing as the heuristic does against random opponents, table i's hand
    k is self-play game i + k * num_envs, down to every payout."""
    n, hands = 4, 3
    env = VectorEnv(n, learners=0, opponents=["heuristic", "random", "random"], seed=7)
    games = dz.selfplay(n * hands, policy=["heuristic", "random", "random"], seed=7)
    batch, seen = env.reset(), 0
    while seen < n * hands:
        choices = [batch.legal_actions(b).index(Heuristic().act(env.game(b))) for b in range(n)]
        batch = env.step(np.array(choices))
        done = batch.finished
        for row, g in enumerate(done.env + done.hand * n):
            if g < n * hands:
                assert np.array_equal(done.payouts[row], games.payouts[g])
                assert done.landlord[row] == games.landlord[g] and done.moves[row] == games.moves[g]
                seen += 1


def test_a_learners_seat_needs_no_opponent_unless_one_bids_for_it() -> None:
    """None stands where no built-in policy ever decides: a learner's seat that bids itself,
    or that has nothing to bid; the tables then play as with any policy there."""
    douzero = dz.Rules.preset("douzero")
    for rules, features in ((dz.Rules(), "compact"), (douzero, "douzero"), (douzero, "compact")):
        kwargs = {"rules": rules, "features": features, "learners": 0, "seed": 5}
        env = VectorEnv(4, opponents=[None, "random", "random"], **kwargs)
        same = VectorEnv(4, opponents=["heuristic", "random", "random"], **kwargs)
        for batch, other in zip(run(env, 60), run(same, 60)):
            assert np.array_equal(batch.finished.payouts, other.finished.payouts)
    # The policies bid for seat 0 under DouZero's features, and for every seat for a role.
    for learners, features in ((0, "douzero"), ("landlord", "compact")):
        with pytest.raises(ValueError, match="opponents: seat 0 needs a built-in policy"):
            VectorEnv(4, features=features, learners=learners, opponents=[None, "random", "random"])
    with pytest.raises(ValueError, match="opponents: seat 1 needs a built-in policy"):
        VectorEnv(4, learners=0, opponents=["random", None, "random"])


def test_finished_hands_sum_to_zero_and_count_up() -> None:
    env = VectorEnv(8, opponents="random", seed=2)
    hands = np.zeros(8, dtype=np.int64)
    finished = 0
    for batch in run(env, 300):
        done = batch.finished
        assert np.all(done.payouts.sum(axis=1) == 0)
        for table, hand in zip(done.env, done.hand):
            assert hand == hands[table]
            hands[table] += 1
        finished += len(done)
    assert finished > 8


def opponent_actions(game: dz.Game, learners: Callable[[dz.Game], bool]) -> Iterator[tuple[dz.Game, dz.Action]]:
    """Each action of `game` taken by a seat that was not a learner, with the game before it."""
    history = game.history
    for j in range(len(history)):
        before = game.copy()
        for _ in range(len(history) - j):
            before.undo()
        if not learners(before):
            yield before, history[j][1]


def test_opponents_play_the_builtin_policy() -> None:
    env = VectorEnv(5, learners="peasants", opponents="heuristic", seed=4)
    for batch in run(env, 25):
        assert all(batch.seat[b] != env.game(b).landlord for b in range(5))
        assert all(env.game(b).phase == "playing" for b in range(5))
    for b in range(5):
        game = env.game(b)
        checked = 0
        for before, action in opponent_actions(game, lambda g: g.phase == "playing" and g.to_move != g.landlord):
            assert action in before.legal_actions()
            assert dz.choose_action(before, "heuristic", 0) == action
            checked += 1
        assert checked > 0


def test_role_learners_decide_their_role_only() -> None:
    env = VectorEnv(6, learners="landlord", opponents="random", seed=9)
    for batch in run(env, 40):
        for b in range(6):
            game = env.game(b)
            assert game.phase == "playing" and batch.seat[b] == game.landlord


def test_seat_learners_bid_and_douzero_learners_do_not() -> None:
    bids = [a.type for batch in run(VectorEnv(4, learners="all", seed=1), 5) for a in batch.legal_actions(0)]
    assert dz.ActionType.BID in bids
    for batch in run(VectorEnv(4, features="douzero", seed=1), 5):
        assert all(a.type in (dz.ActionType.PLAY, dz.ActionType.PASS) for b in range(4) for a in batch.legal_actions(b))


@pytest.mark.parametrize("preset", dz.Rules.presets())
@pytest.mark.parametrize("features", [None, "compact", "douzero"])
def test_every_preset_runs(preset: str, features: str | None) -> None:
    rules = dz.Rules.preset(preset)
    if features == "douzero" and rules.each_for_self:  # DouZero's features need a landlord
        with pytest.raises(ValueError, match="each_for_self"):
            VectorEnv(3, rules=rules, features=features, opponents="random", seed=1)
        return
    env = VectorEnv(3, rules=rules, features=features, opponents="random", seed=1)  # type: ignore[arg-type]
    finished = 0
    for batch in run(env, 150):
        finished += len(batch.finished)
        assert np.all(batch.finished.payouts.sum(axis=1) == 0)
        assert batch.legal_actions(2) == env.game(2).legal_actions()
        if features == "compact":  # the ids (of combinations, and stand-in ids with wild cards)
            assert env.space is not None and batch.action_ids is not None
            lo, hi = batch.offsets[2], batch.offsets[3]
            assert list(batch.action_ids[lo:hi]) == list(env.space.legal_ids(env.game(2)))
            if rules.wild:
                assert batch.stand_in_ids is not None
                assert list(batch.stand_in_ids[lo:hi]) == list(env.space.legal_stand_in_ids(env.game(2)))
    assert finished > 0


@pytest.mark.parametrize("preset", dz.Rules.presets())
def test_douzero_features_under_every_preset_are_the_tables(preset: str) -> None:
    rules = dz.Rules.preset(preset)
    if rules.each_for_self:
        pytest.skip("DouZero's features need a landlord (test_every_preset_runs checks the refusal)")
    layout = encode.douzero_layout(rules)
    env = VectorEnv(4, rules=rules, features="douzero", opponents="random", seed=4, batch_size=2)
    assert env.douzero_layout == layout
    widest = max(layout.width(p) for p in layout.positions)
    seen = set()
    for batch in run(env, 40):
        assert batch.x_no_action is not None and batch.x_no_action.shape == (2, widest)
        assert batch.z is not None and batch.z.shape == (2, *layout.z)
        assert batch.action_planes is not None
        assert batch.action_planes.shape == (len(batch.actions), layout.action_width)
        for b in range(len(batch)):
            want = encode.douzero(env.game(int(batch.env[b])))
            assert_douzero_equal(batch.douzero(b), want)
            x_batch, z_batch = batch.douzero_inputs(b)
            assert np.array_equal(x_batch, want["x_batch"]) and np.array_equal(z_batch, want["z_batch"])
            seen.add(want["position"])
    assert seen == set(layout.positions)


def test_out_reuses_the_buffers() -> None:
    fresh, reused = VectorEnv(5, features="douzero", seed=8), VectorEnv(5, features="douzero", seed=8)
    rng = np.random.default_rng(0)
    a, b = fresh.reset(), reused.reset()
    for _ in range(30):
        choices = random_choices(a, rng)
        a, previous = fresh.step(choices), b.x_no_action
        b = reused.step(choices, out=b)
        assert b.x_no_action is not None and np.shares_memory(b.x_no_action, previous)  # type: ignore[arg-type]
        for name in ("actions", "offsets", "x_no_action", "z", "position", "action_planes"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), name


def test_argmax_takes_the_first_best_action() -> None:
    batch = VectorEnv(4, seed=0).reset()
    scores = np.zeros(len(batch.actions))
    scores[batch.offsets[1] + 1] = 1.0
    assert np.array_equal(batch.argmax(scores), [0, 1, 0, 0])
    with pytest.raises(ValueError, match="one value per action"):
        batch.argmax(scores[:-1])
    scores[batch.offsets[2]] = np.nan  # no order: refused, not an index past the decision's actions
    with pytest.raises(ValueError, match=f"NaN \\(the first at action {batch.offsets[2]}\\)"):
        batch.argmax(scores)
    # Complex scores were ordered by their real parts, then imaginary; text by its letters.
    for unordered, dtype in ((scores.astype(complex), "complex128"), (scores.astype(str), "<U32"),
                             (scores.astype(object), "object")):
        with pytest.raises(TypeError, match=f"scores must be real numbers, not an array of {dtype}"):
            batch.argmax(unordered)


def records(env: VectorEnv) -> list[object]:
    return [env.game(i).to_record() for i in range(env.num_envs)]


@pytest.mark.parametrize(
    ("make", "error", "match"),
    [
        (lambda n: np.zeros(n - 1, dtype=np.int64), dz.IllegalActionError, "one choice per decision"),
        (lambda n: np.zeros(n + 1, dtype=np.int64), dz.IllegalActionError, "one choice per decision"),
        (lambda n: np.full(n, -1), dz.IllegalActionError, r"choices\[0\] = -1"),
        (lambda n: np.full(n, 10**4), dz.IllegalActionError, r"choices\[0\] = 10000: table 0 has"),
        (lambda n: np.full(n, 2**64 - 1, dtype=np.uint64), dz.IllegalActionError, r"\] = 18446744073709551615:"),
        (lambda n: np.zeros(n, dtype=np.float64), TypeError, "1-d array"),
        (lambda n: np.zeros((n, 1), dtype=np.int64), TypeError, "1-d array"),
        (lambda n: "0" * n, TypeError, "1-d array"),
        (lambda n: [0.5] * n, TypeError, "1-d array"),
        # NumPy read a bool among ints as 0 or 1, and an int past int64 as an object array
        (lambda n: [True] + [0] * (n - 1), TypeError, r"not one holding a bool \(at 0\)"),
        (lambda n: [0] * (n - 1) + [np.True_], TypeError, "holding a bool"),
        (lambda n: [dz.MoveKind.SOLO] * n, TypeError, r"holding a MoveKind \(at 0\)"),
        (lambda n: [np.array(0)] * n, TypeError, r"holding a ndarray \(at 0\)"),
        (lambda n: [0] * (n - 1) + [2**70], dz.IllegalActionError, r"\] = 1180591620717411303424: no legal action"),
    ],
)
def test_bad_choices_raise_and_change_nothing(make: Callable[[int], object], error: type, match: str) -> None:
    env = VectorEnv(3, seed=6)
    env.reset()
    before = records(env)
    with pytest.raises(error, match=match):
        env.step(make(3))  # type: ignore[arg-type]
    assert records(env) == before


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-3, 60), min_size=0, max_size=5))
def test_any_choices_apply_whole_or_not_at_all(choices: list[int]) -> None:
    env, twin = VectorEnv(3, seed=2), VectorEnv(3, seed=2)
    batch = env.reset()
    twin.reset()
    valid = len(choices) == 3 and all(0 <= c < n for c, n in zip(choices, np.diff(batch.offsets)))
    if valid:
        env.step(choices)
        twin.step(np.array(choices, dtype=np.int64))
    else:
        with pytest.raises(dz.IllegalActionError):
            env.step(np.array(choices, dtype=np.int64))
    assert records(env) == records(twin)


def test_misuse_is_refused() -> None:
    with pytest.raises(ValueError, match="reset"):
        VectorEnv(2).step([0, 0])
    env = VectorEnv(2)
    env.reset()
    with pytest.raises(ValueError, match=r"env must be in 0\.\.1"):
        env.game(2)
    for kwargs, error, match in [
        ({"num_envs": 0}, ValueError, "num_envs"),
        ({"num_envs": 1, "features": "dense"}, ValueError, "features must be"),
        ({"num_envs": 1, "learners": []}, ValueError, "at least one seat"),
        ({"num_envs": 1, "learners": [0, 0]}, ValueError, "listed twice"),
        ({"num_envs": 1, "learners": 3}, ValueError, r"learners must be in 0\.\.2"),
        ({"num_envs": 1, "learners": "dealer"}, ValueError, "learners must be"),
        ({"num_envs": 1, "learners": np.array(1)}, TypeError, "learners must be .* not ndarray"),
        ({"num_envs": 1, "opponents": "smart"}, ValueError, "opponents: unknown policy"),
        ({"num_envs": 1, "learners": "landlord", "opponents": [None, "random", "random"]}, ValueError,
         "opponents: seat 0 needs a built-in policy"),
        ({"num_envs": 1, "opponents": [3, "random", "random"]}, TypeError, "opponents: .* not int"),
        ({"num_envs": 1, "threads": 0}, ValueError, "threads"),
        ({"num_envs": 1, "mask": True, "features": None}, ValueError, "mask"),
    ]:
        with pytest.raises(error, match=match):
            VectorEnv(**kwargs)  # type: ignore[arg-type]


def table_choices(env: VectorEnv, batch: Batch) -> npt.NDArray[np.int64]:
    """Choices that are a function of each table's game: the same however it is batched."""
    return np.array([env.game(int(e)).hash % int(n) for e, n in zip(batch.env, np.diff(batch.offsets))], dtype=np.int64)


@pytest.mark.parametrize("features", [None, "compact", "douzero"])
def test_batches_of_part_of_the_tables_play_the_same_games(features: str | None) -> None:
    # Every table through one batch, and through batches of 3 of 9 tables, stepped, or sent
    # and received: the same games, and the same finished hands.
    whole = VectorEnv(9, features=features, seed=4, opponents="fast_heuristic", learners=0)  # type: ignore[arg-type]
    parts = VectorEnv(9, features=features, seed=4, opponents="fast_heuristic", learners=0,  # type: ignore[arg-type]
                      batch_size=3, threads=2)
    batch, part = whole.reset(), parts.reset()
    assert (parts.batch_size, len(part), list(part.env)) == (3, 3, [0, 1, 2])
    ended_whole: list[tuple[int, int]] = []
    ended_parts: list[tuple[int, int]] = []
    for step in range(60):
        batch = whole.step(table_choices(whole, batch))
        ended_whole += zip(batch.finished.env.tolist(), batch.finished.payouts[:, 0].tolist())
        for group in range(3):
            assert list(part.env) == [3 * group, 3 * group + 1, 3 * group + 2]
            choices = table_choices(parts, part)
            if step % 2:
                part = parts.step(choices)
            else:
                parts.send(choices)
                part = parts.recv()
            ended_parts += zip(part.finished.env.tolist(), part.finished.payouts[:, 0].tolist())
        assert records(whole) == records(parts)
    assert sorted(ended_whole) == sorted(ended_parts) and ended_whole


def test_send_and_recv_are_refused_out_of_turn() -> None:
    env = VectorEnv(4, batch_size=2)
    with pytest.raises(RuntimeError, match="send"):
        env.recv()  # nothing sent (the environment not even reset)
    batch = env.reset()
    with pytest.raises(RuntimeError, match="send"):
        env.recv()
    with pytest.raises(dz.IllegalActionError, match="one choice per decision of the batch"):
        env.send([0, 0, 0, 0])  # a batch has 2 decisions
    before = records(env)
    env.send(np.zeros(2, dtype=np.int64))
    for again in (lambda: env.send([0, 0]), lambda: env.step([0, 0])):
        with pytest.raises(RuntimeError, match="recv"):
            again()
    assert env.game(0) is not None  # a table may be read while its batch plays
    following = env.recv()
    assert list(following.env) == [2, 3] and records(env) != before
    with pytest.raises(ValueError, match="batch_size must divide"):
        VectorEnv(4, batch_size=3)
    with pytest.raises(ValueError, match="batch_size"):
        VectorEnv(4, batch_size=0)
    del batch


def test_a_sent_batch_can_be_reset_or_dropped() -> None:
    env = VectorEnv(4, batch_size=2, seed=3)
    first = env.reset()
    env.send([0, 0])
    assert env.reset().actions.tobytes() == first.actions.tobytes()  # the sent batch is dropped
    env.send([0, 0])
    del env  # the background thread finishes the batch and stops


def test_close_frees_the_tables_and_refuses_what_follows() -> None:
    with VectorEnv(4, batch_size=2, seed=3) as env:
        batch = env.reset()
        env.send([0, 0])
    env.close()  # twice is fine
    assert batch.actions.shape[0] > 0  # what was returned stays readable
    for call in (env.reset, lambda: env.step([0, 0]), env.recv, lambda: env.game(0), lambda: env.num_envs):
        with pytest.raises(RuntimeError, match="closed"):
            call()


def test_reset_replays_and_reseeds() -> None:
    env = VectorEnv(3, seed=1)
    first = env.reset()
    hands = records(env)
    assert env.reset(seed=1).actions.tobytes() == first.actions.tobytes() and records(env) == hands
    env.reset(seed=2)
    assert env.seed == 2 and records(env) != hands


def test_bots_are_opponents() -> None:
    by_bot = VectorEnv(3, learners=0, opponents=Heuristic(), seed=3)
    by_name = VectorEnv(3, learners=0, opponents="heuristic", seed=3)
    assert [b.actions.tobytes() for b in run(by_bot, 20)] == [b.actions.tobytes() for b in run(by_name, 20)]


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_argmax_is_each_decisions_first_best(data: st.DataObject) -> None:
    batch = VectorEnv(5, seed=data.draw(st.integers(0, 1000))).reset()
    scores = np.array(data.draw(st.lists(st.integers(0, 3), min_size=len(batch.actions), max_size=len(batch.actions))))
    want = [int(np.argmax(scores[batch.offsets[b] : batch.offsets[b + 1]])) for b in range(len(batch))]
    assert batch.argmax(scores).tolist() == want


def test_a_wrong_out_loses_no_batch() -> None:
    # step(choices, out="x") applied the choices to every table, then raised
    # AttributeError: the new batch was lost.
    env, other = VectorEnv(3, seed=2), VectorEnv(3, seed=2)
    batch = env.reset()
    other_batch = other.reset()
    before = [env.game(i).to_record() for i in range(3)]
    choices = np.zeros(len(batch), np.int64)
    for out, error in (("x", TypeError), (other_batch, ValueError)):
        with pytest.raises(error, match="out"):
            env.step(choices, out=out)  # type: ignore[arg-type]
        with pytest.raises(error, match="out"):
            env.reset(out=out)  # type: ignore[arg-type]
        assert [env.game(i).to_record() for i in range(3)] == before
    assert len(env.step(choices, out=batch)) == 3


def test_a_decision_index_is_checked() -> None:
    # Batch.legal_actions(-1) returned [] and legal_actions(999) raised IndexError.
    batch = VectorEnv(2, seed=1, features="douzero").reset()
    for b, error in ((-1, ValueError), (2, ValueError), (999, ValueError), (True, TypeError), (0.0, TypeError)):
        for call in (batch.legal_actions, batch.douzero_inputs, batch.douzero):
            with pytest.raises(error, match="decision"):
                call(b)  # type: ignore[arg-type]
    assert batch.legal_actions(np.int64(1)) == batch.legal_actions(1) != []


@pytest.mark.parametrize(("batch_size", "call"), [(None, "reset"), (None, "step"), (2, "step")])
def test_ctrl_c_stops_a_step_part_way_and_the_env_asks_for_a_reset(batch_size: int | None, call: str) -> None:
    # With searching opponents a reset or step ran to its end (tens of seconds) before
    # Ctrl-C was read; with batches of part of the tables, after the wait for the batch.
    slow = dz.bots.ISMCTS(simulations=10**7)  # no decision of it ends within the test
    # The landlord leads: a reset reaches every table's first decision before any opponent's.
    learners = "peasants" if call == "reset" else "landlord"
    env = VectorEnv(4, learners=learners, opponents=slow, seed=0, threads=1, batch_size=batch_size,
                    rules=dz.Rules(bidding="none"))
    first = env.reset() if call == "step" else None

    def stopped_call() -> None:
        if first is None:
            env.reset()
        else:
            for _ in range(2):  # with two groups, the second step waits on the first's play
                env.step(np.zeros(len(first), dtype=np.int64))

    interrupted(stopped_call)
    # Stopped part way (had the call ended first, the signal would have left the env whole).
    with pytest.raises(dz.IllegalActionError, match="the last reset, step or recv was stopped part way: reset"):
        env.step(np.zeros(len(first) if first is not None else 4, dtype=np.int64))
    if first is not None:
        again = env.reset()  # and a reset starts it afresh
        np.testing.assert_array_equal(again.observation, first.observation)
    env.close()
