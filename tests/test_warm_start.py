"""The learned bot's training pipeline (docs/guide/learned_bot.md): the C++ data makers
``_core.teacher_samples`` and ``_core.bid_samples`` (determinism, their columns, and an
oracle that replays their games through the public API), the warm start (the learning-rate
schedule, ``learn_chunk``'s loss and steps, ``warm_start``'s checkpoint and resume), the
bid networks (``fit``, ``train_bidding``'s file) and the recipe end to end, resumed.
Every run is tiny: small networks, a few dozen games, a second or two of training."""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import shutil
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import doudizhu as dz
from doudizhu import _core, encode
from doudizhu.bots import Neural
from doudizhu.cli import main

torch = pytest.importorskip("torch")
from doudizhu import network_file  # noqa: E402
from doudizhu.train import recipe  # noqa: E402
from doudizhu.train.bidding import PAYOUT_SCALE, BidConfig, bid_nets_of, fit, train_bidding  # noqa: E402
from doudizhu.train.warm import WarmConfig, learn_chunk, learning_rate, warm_start  # noqa: E402
from doudizhu.value_networks import STATE_WIDTH, SmallNet  # noqa: E402

torch.set_num_threads(1)
DOUZERO, STANDARD, CALL_ROB = dz.Rules.preset("douzero"), dz.Rules.preset("standard"), dz.Rules(bidding="call_rob")
PER_POSITION = ("x", "z", "position", "game")
PER_ACTION = ("action", "owner", "chosen", "planned", "win", "score")


def small_play_nets(seed: int = 0) -> dict[str, SmallNet]:
    """Networks small enough to be quick (tests/test_network.py's sizes), with the plan column."""
    torch.manual_seed(seed)
    return {p: SmallNet(STATE_WIDTH[p], hidden=48, history=16, head=(40,), plan=True) for p in encode.DOUZERO_POSITIONS}


def starts_of(samples: dict[str, np.ndarray]) -> np.ndarray:
    """Position i's valued actions are rows starts[i]:starts[i + 1] (owner is sorted)."""
    return np.searchsorted(samples["owner"], np.arange(len(samples["position"]) + 1))


def games_of(samples: dict[str, np.ndarray], games: range) -> dict[str, np.ndarray]:
    """The columns of the positions of ``games`` alone, owners counted from their first."""
    keep = np.isin(samples["game"], list(games))
    first = int(np.argmax(keep)) if keep.any() else 0
    rows = np.isin(samples["owner"], np.flatnonzero(keep))
    out = {key: samples[key][keep] for key in PER_POSITION}
    out.update({key: samples[key][rows] for key in PER_ACTION})
    out["owner"] = out["owner"] - first
    return out


def assert_same_columns(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    assert set(a) == set(b)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def side_result(game: dz.Game, seat: int) -> tuple[float, float]:
    """What teacher.cpp's outcome() should say of a finished game for ``seat``: +1/-1 for its
    side, and the landlord's payout over the peasants and the base stake, signed for the side."""
    r = game.result
    assert r is not None
    landlord = seat == r.landlord
    won = 1.0 if landlord == r.landlord_won else -1.0
    stake = r.payouts[r.landlord] / (len(r.payouts) - 1) / max(r.base, 1)
    return won, stake if landlord else -stake


# ------------------------------------------------------------------------- teacher data


@dataclasses.dataclass
class Decision:
    """A decision of a replayed game that teacher data may value (playing, several legal actions)."""

    game: dz.Game
    x: np.ndarray  # x_no_action, zero-padded to the teacher's width
    z: np.ndarray  # flattened
    position: str
    legal: list[dz.Action]
    actions: np.ndarray  # each legal action's part of its x_batch row
    taught: int  # the index of the teacher's choice
    planned: int  # the index of the fast heuristic's


def replay(rules: dz.Rules, seed: int, index: int, teacher: str, x_width: int) -> tuple[dz.Game, int, list[Decision]]:
    """Self-play game ``index`` of ``seed`` played by ``teacher`` in every seat through the public
    API (its deal and the policies' stream from selfplay_deal, each choice from choose_action):
    the finished game, the stream, and its decisions."""
    deal_seed, first_bidder, stream = _core.selfplay_deal(rules, seed, index)
    game = dz.Game(seed=deal_seed, rules=rules, first_bidder=first_bidder)
    decisions = []
    while game.phase != "over":
        legal = game.legal_actions()
        action = dz.choose_action(game, teacher, stream)
        if game.phase == "playing" and len(legal) > 1:
            obs = encode.douzero(game)
            width = len(obs["x_no_action"])
            x = np.zeros(x_width, np.int8)
            x[:width] = obs["x_no_action"]
            plan = dz.choose_action(game, "fast_heuristic", stream)
            decisions.append(Decision(game.copy(), x, obs["z"].reshape(-1), obs["position"], legal,
                                      obs["x_batch"][:, width:].astype(np.int8), legal.index(action),
                                      legal.index(plan)))
        game.step(action)
    return game, stream, decisions


@pytest.mark.parametrize("rules", [DOUZERO, STANDARD], ids=["douzero", "standard"])
def test_teacher_data_is_the_same_for_a_seed_whatever_the_threads_and_differs_for_another(rules: dz.Rules) -> None:
    one = _core.teacher_samples(12, rules, seed=5, threads=1, explore=0.1)
    two = _core.teacher_samples(12, rules, seed=5, threads=2, explore=0.1)
    assert_same_columns(one, two)
    other = _core.teacher_samples(12, rules, seed=6, threads=1, explore=0.1)
    assert len(one["owner"]) != len(other["owner"]) or not np.array_equal(one["x"], other["x"])


def test_teacher_data_from_game_first_on_is_the_tail_of_a_longer_run() -> None:
    whole = _core.teacher_samples(9, DOUZERO, seed=2, threads=2, teacher="random", explore=0.2, max_actions=5)
    head = _core.teacher_samples(5, DOUZERO, seed=2, teacher="random", explore=0.2, max_actions=5)
    tail = _core.teacher_samples(4, DOUZERO, seed=2, first=5, teacher="random", explore=0.2, max_actions=5)
    assert set(tail["game"]) == set(range(5, 9)) and set(head["game"]) == set(range(5))
    assert_same_columns(tail, games_of(whole, range(5, 9)))
    assert_same_columns(head, games_of(whole, range(5)))


@pytest.mark.parametrize("teacher", ["fast_heuristic", "random"])
def test_teacher_columns_keep_their_promises(teacher: str) -> None:
    max_actions = 5
    s = _core.teacher_samples(30, STANDARD, seed=9, teacher=teacher, explore=0.1, keep=0.4, max_actions=max_actions)
    positions, actions = len(s["position"]), len(s["owner"])
    assert positions > 50
    assert s["x"].shape == (positions, max(STATE_WIDTH.values())) and s["z"].shape == (positions, 5 * 162)
    assert s["action"].shape == (actions, 54)
    assert set(s["position"].tolist()) == {0, 1, 2}  # DouZero's three positions
    assert not s["x"][s["position"] == 0, STATE_WIDTH["landlord"]:].any()  # the landlord's row zero-padded
    assert np.all(np.diff(s["game"]) >= 0) and set(s["game"].tolist()) <= set(range(30))
    assert np.all(np.diff(s["owner"]) >= 0) and s["owner"][0] == 0 and s["owner"][-1] == positions - 1
    counts = np.bincount(s["owner"], minlength=positions)
    starts = starts_of(s)
    assert np.array_equal(np.bincount(s["owner"], weights=s["chosen"], minlength=positions), np.ones(positions))
    assert np.array_equal(np.bincount(s["owner"], weights=s["planned"], minlength=positions), np.ones(positions))
    assert s["chosen"][starts[:-1]].all()  # the teacher's action first, then the plan's
    apart = ~s["planned"][starts[:-1]].astype(bool)  # positions where the plan is not the teacher's choice
    assert s["planned"][starts[:-1][apart] + 1].all()
    assert np.all(counts >= 1) and np.all(counts <= np.where(apart, max(max_actions, 2), max_actions))
    assert apart.any() == (teacher == "random")
    assert set(np.unique(s["win"]).tolist()) == {-1.0, 1.0}
    assert np.array_equal(np.sign(s["score"]), s["win"])
    for name in ("x", "z", "action"):  # DouZero's features are 0/1
        assert s[name].min() >= 0 and s[name].max() <= 1


@pytest.mark.parametrize("rules, teacher, keep", [(DOUZERO, "fast_heuristic", 1.0), (STANDARD, "fast_heuristic", 0.3),
                                                  (STANDARD, "random", 0.5)], ids=["douzero", "standard", "random"])
def test_teacher_data_is_what_a_replay_through_the_public_api_sees_and_its_rollouts_give(
        rules: dz.Rules, teacher: str, keep: float) -> None:
    """The oracle: each game replayed with selfplay_deal, choose_action and encode.douzero; each
    valued position is one of its decisions (every one when keep=1), each valued action one of its
    legal actions, its result that of dz.playout by the fast heuristic on the real hands."""
    max_actions, games = 6, 8
    s = _core.teacher_samples(games, rules, seed=7, teacher=teacher, keep=keep, max_actions=max_actions)
    starts = starts_of(s)
    checked = 0
    for g in range(games):
        final, stream, decisions = replay(rules, 7, g, teacher, s["x"].shape[1])
        found = iter(decisions)
        mine = np.flatnonzero(s["game"] == g)
        if keep == 1.0:
            assert len(mine) == len(decisions)
        for p in mine:
            d = next(d for d in found if np.array_equal(d.x, s["x"][p]) and np.array_equal(d.z, s["z"][p]))
            assert encode.DOUZERO_POSITIONS[s["position"][p]] == d.position
            rows = range(starts[p], starts[p + 1])
            assert len(rows) == min(len(d.legal), max(max_actions, 1 + (d.taught != d.planned)))
            for r in rows:
                candidates = [i for i in range(len(d.legal)) if np.array_equal(d.actions[i], s["action"][r])]
                assert candidates  # a legal action (two moves of the same cards encode alike)
                assert bool(s["chosen"][r]) == (d.taught in candidates) or len(candidates) > 1
                assert bool(s["planned"][r]) == (d.planned in candidates) or len(candidates) > 1
                results = set()
                for i in candidates:
                    after = d.game.copy()
                    after.step(d.legal[i])
                    results.add(side_result(dz.playout(after, "fast_heuristic", stream), d.game.to_move))
                assert (float(s["win"][r]), float(s["score"][r])) in results
                if s["chosen"][r] and teacher == "fast_heuristic":
                    # The teacher's action played on by the teacher is the game itself.
                    assert side_result(final, d.game.to_move) == (s["win"][r], s["score"][r])
                checked += 1
    assert checked > 150


def test_the_teachers_own_choices_played_on_by_itself_all_end_as_their_game_did() -> None:
    """Without the replay: with explore=0 and the deterministic fast heuristic teaching and rolling
    out, every chosen row of a game reports one result, the landlord's the opposite of the peasants'."""
    s = _core.teacher_samples(40, DOUZERO, seed=13, explore=0.0, keep=0.5, max_actions=4)
    owner = s["owner"][s["chosen"] == 1]
    game, position = s["game"][owner], s["position"][owner]
    landlords_win = np.where(position == 0, s["win"][s["chosen"] == 1], -s["win"][s["chosen"] == 1])
    landlords_score = np.where(position == 0, s["score"][s["chosen"] == 1], -s["score"][s["chosen"] == 1])
    for g in np.unique(game):
        assert len(set(landlords_win[game == g].tolist())) == 1
        assert len(set(landlords_score[game == g].tolist())) == 1
    assert len(np.unique(game)) > 30 and set(landlords_win.tolist()) == {-1.0, 1.0}
    # With uniform draws replacing some of the teacher's choices, the game goes elsewhere than
    # the chosen action's playout: some game's chosen rows then disagree.
    s = _core.teacher_samples(40, DOUZERO, seed=13, explore=0.5, keep=0.5, max_actions=4)
    chosen = s["chosen"] == 1
    landlords_win = np.where(s["position"][s["owner"][chosen]] == 0, s["win"][chosen], -s["win"][chosen])
    game = s["game"][s["owner"][chosen]]
    assert any(len(set(landlords_win[game == g].tolist())) > 1 for g in np.unique(game))


def test_teacher_data_refuses_rules_and_arguments_it_cannot_use() -> None:
    with pytest.raises(ValueError, match="three seats of 17 cards"):
        _core.teacher_samples(1, dz.Rules.preset("laizi"))
    with pytest.raises(ValueError, match="explore"):
        _core.teacher_samples(1, DOUZERO, explore=1.5)
    with pytest.raises(ValueError, match="keep"):
        _core.teacher_samples(1, DOUZERO, keep=-0.1)
    with pytest.raises(ValueError, match="max_actions"):
        _core.teacher_samples(1, DOUZERO, max_actions=0)
    with pytest.raises(ValueError, match="bidding"):
        _core.bid_samples(1, DOUZERO, 0, 0, 1, "heuristic", "fast_heuristic", 0.0)
    assert all(len(v) == 0 for v in _core.teacher_samples(3, DOUZERO, keep=0.0).values())


@pytest.mark.parametrize("share", [np.float32(0.25), np.float64(0.25), 0.25, np.int64(0)])
def test_shares_are_any_real_number_in_range(share: object) -> None:
    expected = float(share)  # type: ignore[arg-type]
    taken = _core.teacher_samples(2, DOUZERO, keep=share, explore=share)
    assert_same_columns(taken, _core.teacher_samples(2, DOUZERO, keep=expected, explore=expected))


@pytest.mark.parametrize("share", [True, np.bool_(False), "0.5", None, [0.5]])
def test_shares_that_are_no_number_are_refused_by_name(share: object) -> None:
    with pytest.raises(TypeError, match="keep must be a number in"):
        _core.teacher_samples(1, DOUZERO, keep=share)
    with pytest.raises(TypeError, match="explore must be a number in"):
        _core.bid_samples(1, STANDARD, explore=share)


@pytest.mark.parametrize("share", [float("nan"), -0.01, 1.01, np.float32("inf")])
def test_shares_outside_zero_to_one_are_refused_by_name(share: object) -> None:
    with pytest.raises(ValueError, match=r"keep must be a number in \[0\.0, 1\.0\]"):
        _core.teacher_samples(1, DOUZERO, keep=share)


# ------------------------------------------------------------------------- auction data


def test_auction_data_is_the_same_for_a_seed_whatever_the_threads_and_from_game_first_on() -> None:
    args = dict(rules=STANDARD, seed=4, bidder="heuristic", player="fast_heuristic", explore=0.2)
    one = _core.bid_samples(30, threads=1, **args)
    assert_same_columns(one, _core.bid_samples(30, threads=2, **args))
    tail = _core.bid_samples(10, first=20, **args)
    rows = one["game"] >= 20
    assert_same_columns(tail, {key: value[rows] for key, value in one.items()})
    other = _core.bid_samples(30, **{**args, "seed": 5})
    assert len(other["output"]) != len(one["output"]) or not np.array_equal(other["payout"], one["payout"])


@pytest.mark.parametrize("rules, bidder", [(STANDARD, "heuristic"), (STANDARD, "random"), (CALL_ROB, "heuristic"),
                                           (CALL_ROB, "random")], ids=["classic", "classic-random", "call_rob",
                                                                       "call_rob-random"])
def test_each_bid_is_its_replayed_seats_bid_features_and_the_payout_it_ended_with(rules: dz.Rules,
                                                                                  bidder: str) -> None:
    """The oracle: each game replayed through the public API (bids by ``bidder``, play by the fast
    heuristic); every bid, redealt auctions' included, a row of its features, legal outputs, output
    and its seat's payout by the rule book (nonzero, zero-sum, the landlord's twice a peasant's)."""
    games = 60
    s = _core.bid_samples(games, rules, 4, 0, 1, bidder, "fast_heuristic", 0.0)
    assert s["features"].shape == (len(s["output"]), encode.bid_feature_width(rules))
    row, redeals = 0, 0
    for g in range(games):
        deal_seed, first_bidder, stream = _core.selfplay_deal(rules, 4, g)
        game = dz.Game(seed=deal_seed, rules=rules, first_bidder=first_bidder)
        seats = []
        while game.phase != "over":
            bidding = game.phase == "bidding"
            action = dz.choose_action(game, bidder if bidding else "fast_heuristic", stream)
            if bidding:
                legal = np.zeros(s["legal"].shape[1], np.uint8)
                legal[[a.value for a in game.legal_actions()]] = 1
                assert s["game"][row] == g
                np.testing.assert_array_equal(s["features"][row], encode.bid_features(game))
                np.testing.assert_array_equal(s["legal"][row], legal)
                assert s["output"][row] == action.value and legal[s["output"][row]] == 1
                seats.append(game.to_move)
                row += 1
            game.step(action)
        r = game.result
        assert r is not None and r.landlord is not None
        redeals += game.redeals
        assert s["payout"][row - len(seats):row].tolist() == [r.payouts[seat] for seat in seats]
        assert sum(r.payouts) == 0 and abs(r.payouts[r.landlord]) == 2 * r.base * r.multiplier
        assert all(r.payouts[seat] == -r.payouts[r.landlord] / 2 for seat in range(3) if seat != r.landlord)
        assert (r.payouts[r.landlord] > 0) == r.landlord_won
    assert row == len(s["output"]) and not (s["payout"] == 0).any()
    if bidder == "heuristic":
        assert redeals > 0  # bids of an auction nobody won are samples of the hand dealt after


# --------------------------------------------------------------------------- warm start


def test_the_learning_rate_is_held_then_falls_linearly_to_zero_at_the_end() -> None:
    config = WarmConfig(minutes=10.0, learning_rate=1e-3, decay_from=0.6)  # 600 s, decay from 360 s
    assert learning_rate(config, 0.0) == learning_rate(config, 200.0) == learning_rate(config, 360.0) == 1e-3
    assert learning_rate(config, 480.0) == pytest.approx(5e-4)
    assert learning_rate(config, 540.0) == pytest.approx(2.5e-4)
    assert learning_rate(config, 600.0) == 0.0 and learning_rate(config, 900.0) == 0.0
    rates = [learning_rate(config, t) for t in np.linspace(360, 600, 25)]
    assert np.allclose(np.diff(rates), -1e-3 / 24)
    assert learning_rate(dataclasses.replace(config, decay_from=0.0), 150.0) == pytest.approx(7.5e-4)


def _adam(nets: dict[str, SmallNet], lr: float) -> dict[str, torch.optim.Optimizer]:
    return {p: torch.optim.Adam(net.parameters(), lr=lr) for p, net in nets.items()}


@pytest.fixture(scope="module")
def chunk() -> dict[str, np.ndarray]:
    return _core.teacher_samples(12, DOUZERO, seed=11, keep=0.3, max_actions=8, explore=0.1)


@pytest.mark.parametrize("objective", ["wp", "adp"])
def test_learn_chunk_loss_is_the_squared_error_plus_the_ranking_term_before_its_step(
        chunk: dict[str, np.ndarray], objective: str) -> None:
    """One batch a position (batch_positions past their count): each loss reported is the loss of
    the networks as they were, computed here row by row with the networks' forward pass."""
    nets = small_play_nets(1)
    before = copy.deepcopy(nets)
    config = WarmConfig(objective=objective, batch_positions=10_000, ranking=0.7, learning_rate=1e-3)
    losses = learn_chunk(nets, _adam(nets, config.learning_rate), chunk, config, np.random.default_rng(0))
    assert set(losses) == set(encode.DOUZERO_POSITIONS)
    target = chunk["win"] if objective == "wp" else chunk["score"]
    for index, name in enumerate(encode.DOUZERO_POSITIONS):
        rows = np.flatnonzero(chunk["position"][chunk["owner"]] == index)
        owner = chunk["owner"][rows]
        with torch.no_grad():
            values = before[name](torch.from_numpy(chunk["z"][owner]).float(),
                                  torch.from_numpy(chunk["x"][owner, :STATE_WIDTH[name]]).float(),
                                  torch.from_numpy(chunk["action"][rows]).float(),
                                  torch.from_numpy(chunk["planned"][rows]).float()).numpy().astype(np.float64)
        goal = target[rows].astype(np.float64)
        spread = np.zeros(len(rows))
        for p in np.unique(owner):
            mine = owner == p
            spread[mine] = (values[mine] - values[mine].mean()) - (goal[mine] - goal[mine].mean())
        expected = np.mean((values - goal) ** 2) + config.ranking * np.mean(spread**2)
        assert losses[name] == pytest.approx(expected, rel=1e-4)
        changed = any(not torch.equal(a, b) for a, b in zip(nets[name].parameters(), before[name].parameters()))
        assert changed  # and a step was taken


def test_learn_chunk_is_repeatable_and_a_fixed_chunk_learned_again_and_again_loses_its_loss(
        chunk: dict[str, np.ndarray]) -> None:
    config = WarmConfig(batch_positions=16, learning_rate=3e-3)
    start = small_play_nets(2)
    runs = []
    for _ in range(2):
        nets = copy.deepcopy(start)
        optimizers, rng = _adam(nets, config.learning_rate), np.random.default_rng(3)
        torch.manual_seed(4)
        runs.append((nets, [learn_chunk(nets, optimizers, chunk, config, rng) for _ in range(8)]))
    (a, losses), (b, again) = runs
    assert losses == again
    for name in a:
        assert all(torch.equal(x, y) for x, y in zip(a[name].state_dict().values(), b[name].state_dict().values()))
    first, last = np.mean(list(losses[0].values())), np.mean(list(losses[-1].values()))
    assert last < 0.75 * first, (first, last)
    other = copy.deepcopy(start)  # another shuffle of the same chunk: other batches, other weights
    learn_chunk(other, _adam(other, config.learning_rate), chunk, config, np.random.default_rng(99))
    assert not all(torch.equal(x, y) for x, y in zip(other["landlord"].parameters(), start["landlord"].parameters()))
    assert not all(torch.equal(x, y) for x, y in zip(other["landlord"].parameters(), a["landlord"].parameters()))


TINY_WARM = WarmConfig(minutes=0.02, chunk_games=8, batch_positions=32, learning_rate=1e-3, decay_from=0.0, keep=0.3,
                       max_actions=6, seed=3, hidden=48, history=16, head=(40,), plan=True)


def _teacher_run(config: WarmConfig, games: int) -> dict[str, np.ndarray]:
    """One call making the data of a warm start's first ``games`` games."""
    return _core.teacher_samples(games, dz.Rules.preset(config.rules), seed=config.seed, teacher=config.teacher,
                                 rollout=config.rollout, explore=config.explore, keep=config.keep,
                                 max_actions=config.max_actions)


def _check_counts(config: WarmConfig, saved: dict) -> None:
    """A checkpoint's counters and optimizers against the teacher data of the games it counts, in
    chunks of games [0, chunk), [chunk, 2 chunk), ...: its positions and samples, and each position's
    Adam steps, one a batch of at most batch_positions of the chunk's positions."""
    counters = saved["counters"]
    assert counters["games"] == counters["steps"] * config.chunk_games
    data = _teacher_run(config, counters["games"])
    assert (counters["positions"], counters["samples"]) == (len(data["position"]), len(data["owner"]))
    chunk = data["game"] // config.chunk_games
    for index, name in enumerate(encode.DOUZERO_POSITIONS):
        sizes = np.bincount(chunk[data["position"] == index], minlength=counters["steps"])
        batches = int(np.sum(-(-sizes // config.batch_positions)))
        states = saved["optimizers"][name]["state"].values()
        assert states and all(int(state["step"]) == batches for state in states)


def test_warm_start_writes_its_checkpoint_and_a_resumed_start_counts_on_with_the_next_games(tmp_path: Path) -> None:
    reported: list[tuple[int, float]] = []
    nets = warm_start(TINY_WARM, tmp_path, report=lambda c: reported.append((c.games, c.seconds)))
    saved = torch.load(tmp_path / "warm.pt", weights_only=True)
    counters = saved["counters"]
    assert reported and counters["steps"] == len(reported) and (counters["games"], counters["seconds"]) == reported[-1]
    assert counters["seconds"] >= 60 * TINY_WARM.minutes
    assert saved["config"] == dataclasses.asdict(TINY_WARM)
    _check_counts(TINY_WARM, saved)
    for name, net in nets.items():
        assert all(torch.equal(v, saved["nets"][name][k]) for k, v in net.state_dict().items())
        # The last chunk was learned at the rate of the time before it (decaying from the start here).
        lr = saved["optimizers"][name]["param_groups"][0]["lr"]
        assert lr == learning_rate(TINY_WARM, reported[-2][1] if len(reported) > 1 else 0.0)

    longer = dataclasses.replace(TINY_WARM, minutes=(counters["seconds"] + 1.0) / 60)  # a second more
    resumed: list[tuple[int, float]] = []
    warm_start(longer, tmp_path, resume=True, report=lambda c: resumed.append((c.games, c.seconds)))
    assert resumed[0][0] == counters["games"] + TINY_WARM.chunk_games and resumed[0][1] > counters["seconds"]
    saved = torch.load(tmp_path / "warm.pt", weights_only=True)
    assert saved["counters"]["steps"] == counters["steps"] + len(resumed)
    _check_counts(longer, saved)  # the games after the first run's, and its optimizers' steps continued
    before = (tmp_path / "warm.pt").read_bytes()
    for change in ({"objective": "adp"}, {"rules": "standard"}, {"seed": 1}):
        with pytest.raises(ValueError, match="a resumed run cannot change them"):
            warm_start(dataclasses.replace(longer, **change), tmp_path, resume=True)
    assert (tmp_path / "warm.pt").read_bytes() == before


def test_an_interrupted_warm_start_saves_what_it_has_learned(tmp_path: Path) -> None:
    def interrupt(c: object) -> None:
        raise KeyboardInterrupt  # after the first chunk, long before the first save's 5 minutes

    longer = dataclasses.replace(TINY_WARM, minutes=60.0)
    before = set(threading.enumerate())
    with pytest.raises(KeyboardInterrupt):
        warm_start(longer, tmp_path, report=interrupt)
    # The next chunk's thread has finished: a process that exits with it in the engine aborts.
    assert set(threading.enumerate()) == before
    saved = torch.load(tmp_path / "warm.pt", weights_only=True)
    assert saved["counters"]["steps"] == 1
    _check_counts(longer, saved)  # the chunk it learned, and its optimizers' steps


def test_an_error_making_a_chunk_ends_the_warm_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The chunks are made on a background thread: its error is raised in the training's,
    # rather than the previous chunk being learned again.
    from doudizhu.train import warm

    def broken(*args: object, **kwargs: object) -> dict[str, np.ndarray]:
        raise MemoryError("no room for the chunk")

    monkeypatch.setattr(warm, "teacher_samples", broken)
    with pytest.raises(MemoryError, match="no room for the chunk"):
        warm_start(TINY_WARM, tmp_path)


# ------------------------------------------------------------------------- bid networks


def test_fit_is_the_squared_error_of_the_bids_value_to_its_payout_over_the_scale() -> None:
    samples = _core.bid_samples(80, STANDARD, 1, 0, 1, "heuristic", "fast_heuristic", 0.3)
    torch.manual_seed(0)
    net = network_file.BidNet("classic", (24, 16))
    with torch.no_grad():
        values = net(torch.from_numpy(samples["features"]).float()).numpy()
    made = values[np.arange(len(values)), samples["output"].astype(np.int64)]
    expected = np.mean((made - samples["payout"] / PAYOUT_SCALE) ** 2)
    config = BidConfig(epochs=1, batch_size=10_000, learning_rate=3e-3)
    optimizer = torch.optim.Adam(net.parameters(), lr=config.learning_rate)
    assert fit(net, optimizer, samples, config, np.random.default_rng(0)) == pytest.approx(expected, rel=1e-5)
    # Ten more passes in small batches: the last pass's mean loss (fit's answer) well below the first's.
    last = fit(net, optimizer, samples, dataclasses.replace(config, epochs=10, batch_size=32), np.random.default_rng(1))
    assert last < 0.8 * expected, (last, expected)


def test_train_bidding_writes_a_file_whose_bid_networks_bid_a_standard_game_that_neural_plays_out(
        tmp_path: Path) -> None:
    play = small_play_nets(5)
    config = BidConfig(rounds=2, games=60, window=2, epochs=2, batch_size=64, hidden=(24, 16), threads=1, seed=1)
    reports: list[tuple[str, int]] = []
    nets = train_bidding(play, config, tmp_path, {"test": "bidding"},
                         report=lambda mode, r, loss: reports.append((mode, r)) if math.isfinite(loss) else None)
    assert reports == [("classic", 0), ("call_rob", 0), ("classic", 1), ("call_rob", 1)]
    path = tmp_path / "bidding.ddzn"
    network = dz.Network(path)
    assert network_file.metadata(network) == {"test": "bidding"}
    tensors = network.tensors()
    for prefix, modules in (("play", play), ("bid", nets)):
        for name, module in modules.items():
            for key, value in module.state_dict().items():
                np.testing.assert_array_equal(tensors[f"{prefix}.{name}.{key}"], value.numpy())
    assert set(network_file.modules(network)[1]) == {"classic", "call_rob"}
    bot, landlords = Neural(path), 0
    for rules, seed in [(STANDARD, 21), (STANDARD, 22), (STANDARD, 23), (CALL_ROB, 21)]:
        game, bids = dz.Game(seed=seed, rules=rules), 0
        while game.phase != "over":
            action = bot.act(game)
            assert action in game.legal_actions()
            if game.phase == "bidding":  # the legal bid of highest value by the file's bid network
                values, legal = network.values(game), game.legal_actions()
                assert action == max(legal, key=lambda a: (values[a.value], -legal.index(a)))
                bids += 1
            game.step(action)
        assert bids >= 3 and game.result is not None
        # A few rounds over random play networks may teach call-and-rob never to call (every hand
        # redealt, then void); the classic auction's bids here do name a landlord.
        landlords += rules is STANDARD and game.landlord is not None
    assert landlords > 0


@pytest.mark.parametrize("preset", ["douzero", "rlcard"])
def test_bid_networks_learn_under_the_scoring_of_a_preset_without_an_auction(tmp_path: Path, preset: str) -> None:
    # Each mode's auction replaces the preset's bidding: these were refused, though offered.
    config = BidConfig(rules=preset, modes=("classic",), rounds=1, games=30, window=1, epochs=1, hidden=(8,),
                       threads=1)
    nets = train_bidding(small_play_nets(5), config, tmp_path, {})
    assert set(nets) == set(bid_nets_of(tmp_path / "bidding.ddzn")) == {"classic"}


# ----------------------------------------------------------------------------- recipe


TINY_RECIPE = recipe.Recipe(
    play=dataclasses.replace(TINY_WARM, minutes=0.02),
    bid=BidConfig(rounds=1, games=40, window=1, epochs=1, batch_size=64, hidden=(24, 16), threads=1),
    eval_deals=3, eval_presets=("douzero", "standard"), eval_opponents=("random", "heuristic"),
    curve_minutes=10.0, curve_deals=3, curve_opponents=("random",), curve_determinized_deals=0)


@pytest.mark.parametrize(("make", "says"), [
    (lambda: WarmConfig(seed=-1), r"seed must be in 0\.\.2\*\*64-1"),
    (lambda: WarmConfig(minutes=float("nan")), "minutes must be a finite number above 0"),
    (lambda: WarmConfig(keep=1.5), r"keep must be a finite number in 0\.\.1"),
    (lambda: BidConfig(threads=0), r"threads must be in 1\.\.256"),
    (lambda: BidConfig(learning_rate=0.0), "learning_rate must be a finite number above 0"),
    (lambda: recipe.Recipe(eval_deals=-5), r"eval_deals must be in 1\."),  # was found after both stages
])
def test_a_recipe_setting_out_of_range_is_refused_when_made(make: Callable[[], object], says: str) -> None:
    with pytest.raises(ValueError, match=says):
        make()


def test_the_command_line_recipe_refuses_a_bad_setting_before_its_folder(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    for option, value in (("--seed", "-1"), ("--eval-deals", "-5"), ("--threads", "0")):
        out = tmp_path / "run"
        assert main(["train", "--recipe", "neural", "--out", str(out), "--minutes", "0.01", option, value]) == 2
        assert not out.exists() and capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("recipe_given, report, says", [
    (TINY_RECIPE, 5, "report must be a function, not int"),
    (TINY_RECIPE, lambda: None, "report is called with 1 arguments"),
    ({"play": 1}, None, "recipe must be a Recipe, not dict"),
])
def test_a_recipe_run_refuses_a_bad_argument_before_its_folder(tmp_path: Path, recipe_given: object, report: object,
                                                               says: str) -> None:
    # Refused after writing recipe.json and .lock, which then refused the corrected call.
    with pytest.raises(TypeError, match=says):
        recipe.run(recipe_given, tmp_path / "run", report=report)  # type: ignore[arg-type]
    assert not (tmp_path / "run").exists()


def _lines(folder: Path, resume: bool) -> tuple[str, list[str]]:
    lines: list[str] = []
    path = recipe.run(TINY_RECIPE, folder, resume=resume, report=lines.append)
    return path, lines


@pytest.fixture(scope="module")
def recipe_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, list[str]]:
    folder = tmp_path_factory.mktemp("recipe")
    path, lines = _lines(folder, resume=False)
    return folder, path, lines


def test_the_recipe_ends_in_a_file_that_records_its_recipe_stages_and_evaluation(
        recipe_run: tuple[Path, str, list[str]]) -> None:
    folder, path, lines = recipe_run
    assert path == str(folder / recipe.FILE)
    assert [line for line in lines if line.startswith("stage ")] == ["stage play", "stage bid", "stage evaluate"]
    state = json.loads((folder / "recipe.json").read_text())
    assert state["stage"] == "done" and set(state["seconds"]) == {"play", "bid", "evaluate"}
    meta = network_file.metadata(dz.Network(path))
    assert meta["recipe"] == json.loads(json.dumps(dataclasses.asdict(TINY_RECIPE))) == state["recipe"]
    counters = torch.load(folder / "warm.pt", weights_only=True)["counters"]
    assert meta["play"] == {k: counters[k] for k in ("games", "samples", "seconds")} and counters["games"] > 0
    assert meta["hours"] == round(sum(state["seconds"].values()) / 3600, 3)
    assert meta["evaluation"] == state["evaluation"]
    assert set(meta["evaluation"]) == {f"{p}/{o}" for p in TINY_RECIPE.eval_presets for o in TINY_RECIPE.eval_opponents}
    for key, row in meta["evaluation"].items():  # the evaluation is of the finished file
        preset, opponent = key.split("/")
        r = dz.evaluate(Neural(path), opponent, deals=TINY_RECIPE.eval_deals, rules=dz.Rules.preset(preset), seed=1)
        assert (row["wp"], row["adp"], row["deals"]) == (r.wp, r.adp, TINY_RECIPE.eval_deals)
    curve = (folder / recipe.CURVE).read_text().splitlines()
    assert curve[0].split(",")[:3] == ["minutes", "games", "samples"] and "wp_random" in curve[0] and len(curve) == 2
    play, bid = network_file.modules(dz.Network(path))
    assert set(play) == set(encode.DOUZERO_POSITIONS) and set(bid) == {"classic", "call_rob"}
    for rules in (STANDARD, DOUZERO):
        game = dz.playout(dz.Game(seed=3, rules=rules), Neural(path))
        assert game.phase == "over" and game.result is not None


def test_a_finished_recipe_resumed_runs_no_stage_again(recipe_run: tuple[Path, str, list[str]],
                                                       tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    shutil.copytree(recipe_run[0], folder)
    files = {p.name: p.read_bytes() for p in folder.iterdir()}
    path, lines = _lines(folder, resume=True)
    assert path == str(folder / recipe.FILE) and len(lines) == 1
    assert lines[0].startswith("nothing to train: the recipe is done")  # --minutes does not reopen it
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == files


def test_a_finished_recipe_whose_network_file_is_gone_says_so(recipe_run: tuple[Path, str, list[str]],
                                                              tmp_path: Path) -> None:
    # It said the recipe was done and named a network file that was not there (status 0).
    folder = tmp_path / "copy"
    shutil.copytree(recipe_run[0], folder)
    (folder / recipe.FILE).unlink()
    with pytest.raises(FileNotFoundError, match=f"the recipe is done but its {recipe.FILE} is gone"):
        recipe.run(TINY_RECIPE, folder, resume=True)


def test_a_finished_recipe_whose_network_file_is_damaged_says_so(recipe_run: tuple[Path, str, list[str]],
                                                                   tmp_path: Path) -> None:
    # It said "nothing to train" and named the cut file as the run's network (status 0).
    folder = tmp_path / "copy"
    shutil.copytree(recipe_run[0], folder)
    data = (folder / recipe.FILE).read_bytes()
    (folder / recipe.FILE).write_bytes(data[:5000])
    with pytest.raises(dz.NetworkError, match="truncated or damaged"):
        recipe.run(TINY_RECIPE, folder, resume=True)


def test_a_recipe_resumed_past_its_play_stage_says_its_minutes_change_nothing(
        recipe_run: tuple[Path, str, list[str]], tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    shutil.copytree(recipe_run[0], folder)
    state = json.loads((folder / "recipe.json").read_text())
    state["stage"], state["evaluation"] = "evaluate", {}
    (folder / "recipe.json").write_text(json.dumps(state))
    longer = dataclasses.replace(TINY_RECIPE, play=dataclasses.replace(TINY_RECIPE.play, minutes=5.0))
    lines: list[str] = []
    recipe.run(longer, folder, resume=True, report=lines.append)
    assert lines[0] == ("the play stage is over (0.02 min): minutes 5 change nothing now (a longer one trains into "
                        "another folder)")


def test_the_command_line_recipe_refuses_dmcs_evaluation_interval(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # --eval-minutes was taken and ignored: the recipe draws its curve every curve_minutes.
    out = tmp_path / "run"
    assert main(["train", "--recipe", "neural", "--out", str(out), "--minutes", "0.01", "--eval-minutes", "3"]) == 2
    assert "--eval-minutes: dmc's options" in capsys.readouterr().err and not out.exists()


def test_the_command_line_gives_the_teacher_all_threads_but_the_learners(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    taken: list[recipe.Recipe] = []
    monkeypatch.setattr(recipe, "run", lambda given, out, resume, report: taken.append(given) or str(out))
    for threads, teacher in ((1, 1), (2, 1), (4, 3)):
        assert main(["train", "--recipe", "neural", "--out", str(tmp_path / "run"), "--threads", str(threads)]) == 0
        assert (taken[-1].play.threads, taken[-1].bid.threads) == (teacher, threads)


def test_a_recipe_file_that_is_a_folder_is_refused_before_any_stage(recipe_run: tuple[Path, str, list[str]],
                                                                    tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    shutil.copytree(recipe_run[0], folder)
    (folder / recipe.CURVE_PNG).unlink(missing_ok=True)
    (folder / recipe.CURVE_PNG).mkdir()
    files = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    with pytest.raises(IsADirectoryError, match="is a folder, where the run writes a file"):
        recipe.run(TINY_RECIPE, folder, resume=True)
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == files


def test_a_recipe_resumed_at_the_evaluate_stage_reruns_that_stage_alone(recipe_run: tuple[Path, str, list[str]],
                                                                         tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    shutil.copytree(recipe_run[0], folder)
    state = json.loads((folder / "recipe.json").read_text())
    before = dict(state["seconds"])
    state["stage"], state["evaluation"] = "evaluate", {}
    (folder / "recipe.json").write_text(json.dumps(state))
    kept = {name: (folder / name).read_bytes() for name in ("warm.pt", "play.ddzn", recipe.CURVE)}
    tensors = dz.Network(folder / recipe.FILE).tensors()

    path, lines = _lines(folder, resume=True)
    assert [line for line in lines if line.startswith("stage ")] == ["stage evaluate"]
    assert not any(line.startswith(("play ", "bid ", "curve ")) for line in lines)
    assert sum(line.startswith("evaluate ") for line in lines) == 4
    assert {name: (folder / name).read_bytes() for name in kept} == kept
    after = dz.Network(path)
    assert after.tensors().keys() == tensors.keys()
    assert all(np.array_equal(after.tensors()[k], v) for k, v in tensors.items())
    state = json.loads((folder / "recipe.json").read_text())
    assert state["stage"] == "done"
    assert state["seconds"]["evaluate"] > before["evaluate"]
    assert {k: state["seconds"][k] for k in ("play", "bid")} == {k: before[k] for k in ("play", "bid")}
    original = network_file.metadata(dz.Network(recipe_run[1]))["evaluation"]
    assert network_file.metadata(after)["evaluation"] == state["evaluation"] == original


def test_a_recipe_resumed_with_other_settings_is_refused_and_the_cli_resumes_with_the_runs(
        recipe_run: tuple[Path, str, list[str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from doudizhu.cli import main

    folder = tmp_path / "copy"
    shutil.copytree(recipe_run[0], folder)
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    assert recipe.saved_recipe(folder) == TINY_RECIPE
    with pytest.raises(ValueError, match=r"play\.seed=3.*cannot change them to play\.seed=4"):
        recipe.run(dataclasses.replace(TINY_RECIPE, play=dataclasses.replace(TINY_RECIPE.play, seed=4)), folder,
                   resume=True)
    assert main(["train", "--recipe", "neural", "--out", str(folder), "--resume", "--rules", "standard"]) == 2
    assert "play.rules='douzero'" in capsys.readouterr().err
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before
    # The run's own settings, the per-call ones changed: a finished run has nothing left to do.
    more = dataclasses.replace(TINY_RECIPE, play=dataclasses.replace(TINY_RECIPE.play, minutes=0.01),
                               bid=dataclasses.replace(TINY_RECIPE.bid, threads=2))
    assert recipe.run(more, folder, resume=True) == str(folder / recipe.FILE)
    # play --policy reads a recipe run's folder as its network file
    assert main(["play", "--auto", "--seed", "2", "--rules", "douzero", "--policy", str(folder)]) == 0


def test_a_recipe_stopped_in_its_first_stage_is_resumed_with_its_settings(tmp_path: Path) -> None:
    def stop(line: str) -> None:
        raise KeyboardInterrupt  # at the first stage's start, as a Ctrl-C there

    with pytest.raises(KeyboardInterrupt):
        recipe.run(TINY_RECIPE, tmp_path, report=stop)
    assert recipe.saved_recipe(tmp_path) == TINY_RECIPE  # what the command line's --resume reads
    assert json.loads((tmp_path / "recipe.json").read_text())["stage"] == "play"


@pytest.mark.parametrize("edit", [{"recipe": []}, {"recipe": {"play": 3}}, {"stage": "nap"}, {"seconds": 1},
                                  {"recipe": {"play": {}, "bid": {}, "nope": 1}},
                                  {"seconds": {"play": "x"}}, {"seconds": {"play": float("nan")}}], ids=str)
def test_a_recipe_state_edited_by_hand_is_refused_by_name(recipe_run: tuple[Path, str, list[str]], tmp_path: Path,
                                                          edit: dict[str, object]) -> None:
    folder = tmp_path / "copy"
    shutil.copytree(recipe_run[0], folder)
    state = json.loads((folder / "recipe.json").read_text())
    (folder / "recipe.json").write_text(json.dumps({**state, **edit}))
    with pytest.raises(ValueError, match=r"recipe\.json: not a recipe run's state"):
        recipe.run(TINY_RECIPE, folder, resume=True)
    with pytest.raises(ValueError, match="not a recipe run's state"):
        recipe.saved_recipe(folder)


def test_a_recipe_state_nested_past_the_parsers_depth_is_refused_by_name(tmp_path: Path) -> None:
    (tmp_path / "recipe.json").write_text("[" * 100_000 + "]" * 100_000)  # was a bare RecursionError
    with pytest.raises(ValueError, match=r"recipe\.json: not a recipe run's state \(RecursionError"):
        recipe.saved_recipe(tmp_path)


def test_a_network_file_holds_the_layouts_the_engine_reads_alone(tmp_path: Path) -> None:
    from doudizhu.value_networks import build_all

    with pytest.raises(TypeError, match="play network 'landlord': the engine reads a SmallNet, not a DouZeroValueNet"):
        network_file.write(tmp_path / "x.ddzn", build_all("douzero"), {}, {})
    assert not (tmp_path / "x.ddzn").exists()


def test_a_fresh_recipe_run_refuses_a_used_folder_and_changes_nothing(recipe_run: tuple[Path, str, list[str]],
                                                                     tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    shutil.copytree(recipe_run[0], folder)
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    other = dataclasses.replace(TINY_RECIPE, curve_opponents=("heuristic", "random"))
    with pytest.raises(FileExistsError, match=r"recipe\.json"):
        recipe.run(other, folder, resume=False)
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    (fresh / "notes.txt").write_text("a user's file")  # a folder of other files is no run
    assert recipe.run(other, fresh, resume=False) == str(fresh / recipe.FILE)


@pytest.mark.parametrize("damage, says", [
    ("truncated", "not a warm start checkpoint"),
    ("garbage", "not a warm start checkpoint"),
    ("no games", "not this run's warm start checkpoint"),  # was resumed from game 0
    ("nan", r"landlord network holds weights that are not finite \(history\.weight\)"),  # was trained on, as NaN
])
def test_a_damaged_warm_start_checkpoint_is_refused_naming_it(tmp_path: Path, damage: str, says: str) -> None:
    warm_start(TINY_WARM, tmp_path)
    path = tmp_path / "warm.pt"
    if damage == "truncated":
        path.write_bytes(path.read_bytes()[:-100])
    elif damage == "garbage":
        path.write_bytes(b"no checkpoint at all")
    else:
        saved = torch.load(path, weights_only=True)
        if damage == "nan":
            saved["nets"]["landlord"]["history.weight"][0, 0] = float("nan")
        else:
            del saved["counters"]["games"]
        torch.save(saved, path)
    with pytest.raises(ValueError, match=f"warm.pt.*{says}"):  # was a torch traceback, or a silent restart
        warm_start(TINY_WARM, tmp_path, resume=True)


def _at_play_stage(recipe_run: tuple[Path, str, list[str]], folder: Path) -> str:
    """A copy of the finished run sent back to its play stage (its training done); its curve."""
    shutil.copytree(recipe_run[0], folder)
    state = json.loads((folder / "recipe.json").read_text())
    state["stage"] = "play"
    (folder / "recipe.json").write_text(json.dumps(state))
    return (folder / recipe.CURVE).read_text()


def test_a_resumed_play_stage_drops_the_curve_rows_past_its_checkpoint(recipe_run: tuple[Path, str, list[str]],
                                                                       tmp_path: Path) -> None:
    # A harder stop left rows of training the resume does again: the minutes ran backwards.
    folder = tmp_path / "copy"
    curve = _at_play_stage(recipe_run, folder)
    with open(folder / recipe.CURVE, "a") as file:
        file.write(curve.splitlines()[1].replace(curve.splitlines()[1].split(",")[0], "99.0", 1) + "\n")
    _lines(folder, resume=True)
    assert (folder / recipe.CURVE).read_text() == curve


@pytest.mark.parametrize("kept", ["header", "nothing"])  # an empty curve: its row was appended without a header
def test_a_play_stage_interrupted_in_its_last_evaluation_evaluates_when_resumed(
        recipe_run: tuple[Path, str, list[str]], tmp_path: Path, kept: str) -> None:
    folder = tmp_path / "copy"
    curve = _at_play_stage(recipe_run, folder)
    saved = torch.load(folder / "warm.pt", weights_only=True)
    assert saved["evaluated"] == saved["counters"]["seconds"]
    saved["evaluated"] = 0.0  # the final evaluation cut short: the interrupt saved before it was made
    torch.save(saved, folder / "warm.pt")
    (folder / recipe.CURVE).write_text(curve.splitlines()[0] + "\n" if kept == "header" else "")
    _, lines = _lines(folder, resume=True)
    assert sum(line.startswith("curve ") for line in lines) == 1
    assert (folder / recipe.CURVE).read_text().splitlines()[1].split(",")[:3] == curve.splitlines()[1].split(",")[:3]


@pytest.mark.parametrize("spoil, says", [
    (lambda curve: curve[:-3], "its last line is cut short"),
    (lambda curve: "games,samples\n1,2\n", "its header has no minutes column"),  # was a KeyError
    # The row again at other minutes:
    (lambda curve: curve + "nan" + curve.splitlines()[1][curve.splitlines()[1].index(","):] + "\n",
     "holds minutes nan"),
    (lambda curve: curve + "0" + curve.splitlines()[1][curve.splitlines()[1].index(","):] + "\n",
     "holds minutes 0.0, no finite number from the line before's"),  # backwards
], ids=["cut short", "no minutes", "nan", "backwards"])
def test_a_damaged_curve_is_refused_before_the_play_stage_resumes(recipe_run: tuple[Path, str, list[str]],
                                                                  tmp_path: Path, spoil: Callable[[str], str],
                                                                  says: str) -> None:
    folder = tmp_path / "copy"
    curve = _at_play_stage(recipe_run, folder)
    (folder / recipe.CURVE).write_text(spoil(curve))
    warm = (folder / "warm.pt").read_bytes()
    with pytest.raises(ValueError, match=rf"curve\.csv: a damaged log \((line \d+ )?{says}"):
        recipe.run(TINY_RECIPE, folder, resume=True)
    assert (folder / "warm.pt").read_bytes() == warm


def test_a_warm_start_refuses_a_folder_as_a_training_run_does(tmp_path: Path) -> None:
    # warm_start checked nothing: a second fresh start replaced the first's checkpoint, and
    # one into a DMC run's folder wrote warm.pt there, which then refused to resume.
    warm_start(TINY_WARM, tmp_path / "warm")
    before = (tmp_path / "warm" / "warm.pt").read_bytes()
    with pytest.raises(FileExistsError, match=r"holds a run \(warm\.pt\): resume it"):
        warm_start(TINY_WARM, tmp_path / "warm")
    assert (tmp_path / "warm" / "warm.pt").read_bytes() == before
    dmc = tmp_path / "dmc"
    dmc.mkdir()
    (dmc / "checkpoint.pt").write_bytes(b"")
    with pytest.raises(FileExistsError, match=r"holds another trainer.s run \(checkpoint\.pt\)"):
        warm_start(TINY_WARM, dmc)
    assert sorted(path.name for path in dmc.iterdir()) == ["checkpoint.pt"]
