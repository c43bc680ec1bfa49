"""The DMC trainer (doudizhu.train) and TorchBot: runs short enough for CI on a CPU."""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import io
import os
import pathlib
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable

import numpy as np
import pytest
from helpers import games_in_play

torch = pytest.importorskip("torch")

import doudizhu as dz  # noqa: E402
from doudizhu.bots import TorchBot  # noqa: E402
from doudizhu.cli import main  # noqa: E402
from doudizhu.envs import VectorEnv  # noqa: E402
from doudizhu.train import Counters, TrainConfig, log, saved_config, train  # noqa: E402
from doudizhu.train.actors import Actor, returns  # noqa: E402
from doudizhu.train.bidding import BidConfig  # noqa: E402
from doudizhu.train.buffer import Buffer, Samples  # noqa: E402
from doudizhu.train.learner import Learner  # noqa: E402
from doudizhu.train.recipe import Recipe  # noqa: E402
from doudizhu.train.warm import WarmConfig  # noqa: E402
from doudizhu.value_networks import STATE_WIDTH, DouZeroNet, DouZeroValueNet, build_all, choose_batch  # noqa: E402

torch.set_num_threads(1)
DOUZERO = dz.Rules.preset("douzero")
# A run of a few seconds: few tables, small learner batches, no evaluation.
TINY = TrainConfig(minutes=None, frames=4 * 256, tables=64, batch_size=256, eval_minutes=None, seed=5)


def _weights(nets: dict[str, torch.nn.Module]) -> dict[str, torch.Tensor]:
    return {f"{name}.{k}": v.clone() for name, net in nets.items() for k, v in net.state_dict().items()}


def test_a_seeded_run_is_the_same_twice_and_another_seed_differs() -> None:
    first, second = train(TINY), train(TINY)
    other = train(dataclasses.replace(TINY, seed=6))
    assert first.counters.frames == second.counters.frames >= TINY.frames
    assert first.counters.losses == second.counters.losses
    a, b, c = _weights(first.nets), _weights(second.nets), _weights(other.nets)
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert not all(torch.equal(a[k], c[k]) for k in a)


def _samples(objective: str, steps: int = 70) -> Buffer:
    """The samples of a few dozen steps of an untrained actor."""
    torch.manual_seed(0)
    actor = Actor(build_all("small"), 64, 0.01, objective, seed=1)
    buffer = Buffer()
    for _ in range(steps):
        for position, samples in actor.step().items():
            buffer.add(position, samples)
    return buffer


def test_the_learner_fits_a_fixed_set_of_returns() -> None:
    buffer = _samples("adp")
    samples = buffer.take("landlord", min(buffer.size("landlord"), 256))
    nets = build_all("small")
    learner = Learner(nets, learning_rate=5e-4, alpha=0.99, eps=1e-5, max_grad_norm=40.0)
    losses = [learner.learn("landlord", samples) for _ in range(40)]
    assert len(samples) >= 100
    assert losses[-1] < 0.3 * losses[0]  # memorising a few hundred returns: the loss must fall far
    assert np.all(np.diff(losses[-10:]) < 0.5 * losses[0])  # and not blow up on the way


def test_the_buffer_refuses_a_negative_take_and_samples_of_mismatched_rows() -> None:
    buffer = _samples("adp")
    held = buffer.size("landlord")
    for n in (-1, 0):  # a slice [:-1] had taken all but one, and counted -1
        with pytest.raises(ValueError, match=f"cannot take {n} samples"):
            buffer.take("landlord", n)
    assert held > 0 and buffer.size("landlord") == held and len(buffer.take("landlord", held)) == held
    rows = np.zeros((4, 54), np.int8)
    with pytest.raises(ValueError, match="fields differ in length"):
        Samples(np.zeros((4, 5, 162), np.int8), rows, rows, np.zeros(3, np.float32))


def test_returns_are_the_seats_stakes_or_wins() -> None:
    payouts = np.array([4, -2, -2])  # seat 0 the landlord, who won a double stake
    seats = np.array([0, 1, 2, 0], dtype=np.int8)
    assert returns("adp", payouts, 0, seats).tolist() == [2.0, -2.0, -2.0, 2.0]
    assert returns("wp", -payouts, 0, seats).tolist() == [-1.0, 1.0, 1.0, -1.0]
    with pytest.raises(ValueError, match="objective"):
        returns("logadp", payouts, 0, seats)


def test_every_decision_of_a_finished_hand_becomes_one_sample_with_its_hands_return() -> None:
    actor = Actor(build_all("small"), 4, 0.0, "wp", seed=2)
    collected: dict[str, list[float]] = {p: [] for p in STATE_WIDTH}
    while actor.hands < 4:
        for position, samples in actor.step().items():
            assert samples.x_no_action.shape == (len(samples), STATE_WIDTH[position])
            collected[position].extend(samples.target.tolist())
    assert all(set(targets) <= {-1.0, 1.0} and targets for targets in collected.values())
    # Decisions of the hands that ended, and no more than were played.
    assert sum(len(t) for t in collected.values()) <= actor.steps * 4


def test_the_douzero_layout_in_halves_equals_douzeros_network() -> None:
    torch.manual_seed(3)
    net = DouZeroValueNet(STATE_WIDTH["landlord_up"])
    z = torch.randint(0, 2, (7, 5, 162)).float()
    x = torch.randint(0, 2, (7, 430)).float()
    planes = torch.randint(0, 2, (7, 54)).float()
    whole = DouZeroNet.forward(net.net, z, torch.cat([x, planes], dim=1)).squeeze(1)
    assert torch.allclose(net(z, x, planes), whole, atol=1e-5)
    assert set(net.net.state_dict()) == set(DouZeroNet(484).state_dict())  # DouZero's keys, loadable from its .ckpt


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    folder = tmp_path_factory.mktemp("run")
    train(dataclasses.replace(TINY, report_seconds=0.0), out=folder)
    return folder


def test_a_checkpoint_plays_as_the_networks_did_and_a_resumed_run_counts_on(run_dir: pathlib.Path) -> None:
    payload = torch.load(run_dir / "checkpoint.pt", weights_only=True)
    bot = TorchBot(run_dir)
    env = VectorEnv(32, DOUZERO, features="douzero", learners="all", seed=9)
    batch = env.reset()
    rebuilt = build_all("small")
    for name, net in rebuilt.items():
        net.load_state_dict(payload["nets"][name])
    assert np.array_equal(bot.choose_batch(batch), choose_batch(rebuilt, batch))
    rows = log.read(str(run_dir))
    assert rows and rows[-1]["frames"] == payload["counters"]["frames"]

    resumed = train(dataclasses.replace(TINY, frames=payload["counters"]["frames"] + 512), out=run_dir, resume=True)
    assert resumed.counters.frames >= payload["counters"]["frames"] + 512
    assert resumed.counters.hands > payload["counters"]["hands"]
    after = log.read(str(run_dir))
    assert len(after) > len(rows) and after[len(rows)]["frames"] > rows[-1]["frames"]


def test_torchbot_batched_and_per_game_choose_the_same(run_dir: pathlib.Path) -> None:
    bot = TorchBot(run_dir / "checkpoint.pt")
    env = VectorEnv(24, DOUZERO, features="douzero", learners="all", seed=4)
    batch = env.reset()
    for _ in range(30):  # into the hands, past their leads
        choices = bot.choose_batch(batch)
        for b in range(0, len(batch), 5):
            assert batch.legal_actions(b)[choices[b]] == bot.act(env.game(b))
        batch = env.step(choices, out=batch)


def test_torchbot_plays_legal_moves_in_selfplay_and_evaluate(run_dir: pathlib.Path) -> None:
    bot = TorchBot(run_dir)
    games = dz.selfplay(4, policy=[bot, "random", "heuristic"], rules=DOUZERO, seed=1)  # choose() checks legality
    assert len(games) == 4 and (games.payouts.sum(axis=1) == 0).all()
    games = dz.selfplay(2, policy=bot, seed=2)  # the standard rules: bids as the heuristic, then plays
    assert len(games) == 2
    result = dz.evaluate(bot, "random", deals=3, rules=DOUZERO)
    assert result.games == 6


def test_torchbot_decides_many_games_in_one_pass_per_position(run_dir: pathlib.Path) -> None:
    bot = TorchBot(run_dir)
    games = games_in_play(40, DOUZERO)
    one_by_one = [bot.act(game) for game in games]
    passes = {name: 0 for name in bot.nets}
    for name, net in bot.nets.items():
        def counted(*args: torch.Tensor, name: str = name, decision: object = net.decision) -> torch.Tensor:
            passes[name] += 1
            return decision(*args)  # type: ignore[operator, no-any-return]

        net.decision = counted  # type: ignore[method-assign]
    assert bot.act_many(games) == one_by_one
    assert passes == {name: 1 for name in bot.nets}


def test_the_trainers_evaluation_is_evaluate_of_its_checkpoint(tmp_path: pathlib.Path) -> None:
    config = dataclasses.replace(TINY, eval_minutes=60.0, eval_deals=4)  # one evaluation, of the final networks
    row = train(config, out=tmp_path).evaluations[-1]
    bot = TorchBot(tmp_path)
    for opponent in ("random", "heuristic"):
        expected = dz.evaluate(bot, opponent, deals=4, rules=DOUZERO, seed=config.seed)
        assert (row[f"wp_{opponent}"], row[f"adp_{opponent}"]) == (round(expected.wp, 4), round(expected.adp, 4))


def test_a_run_interrupted_in_its_final_evaluation_evaluates_when_resumed(tmp_path: pathlib.Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from doudizhu.train import loop

    config = dataclasses.replace(TINY, eval_minutes=60.0, eval_deals=4, report_seconds=0.0)  # a row each step
    evaluate = loop._Run.evaluate

    def interrupted(self: loop._Run) -> dict[str, float]:
        raise KeyboardInterrupt  # SIGTERM or Ctrl-C while the final networks play

    monkeypatch.setattr(loop._Run, "evaluate", interrupted)
    with pytest.raises(KeyboardInterrupt):
        train(config, out=tmp_path)
    assert "wp_random" not in log.read(str(tmp_path))[-1]  # the networks saved, trained to the end; no evaluation
    monkeypatch.setattr(loop._Run, "evaluate", evaluate)
    resumed = train(config, out=tmp_path, resume=True)
    rows = log.read(str(tmp_path))
    assert len(resumed.evaluations) == 1 and rows[-1]["frames"] == resumed.counters.frames
    assert rows[-1]["wp_random"] == resumed.evaluations[0]["wp_random"]
    assert len(train(config, out=tmp_path, resume=True).evaluations) == 0  # evaluated once: nothing more owed


def test_a_douzero_layout_checkpoint_trains_and_plays(tmp_path: pathlib.Path) -> None:
    config = dataclasses.replace(TINY, model="douzero", frames=3 * 128, batch_size=128, tables=8)
    train(config, out=tmp_path)
    bot = TorchBot(tmp_path)
    assert bot.model == "douzero"
    assert len(dz.selfplay(2, policy=[bot, "heuristic", bot], rules=DOUZERO)) == 2


def test_cli_train_writes_the_log_the_checkpoint_and_the_curve(tmp_path: pathlib.Path) -> None:
    pytest.importorskip("matplotlib")
    out = io.StringIO()
    code = main(["train", "--minutes", "0.05", "--out", str(tmp_path), "--eval-minutes", "1", "--eval-deals", "10",
                 "--tables", "32", "--batch-size", "64"], out=out)  # evaluated once, at the end
    assert code == 0 and "frames" in out.getvalue() and "against heuristic" in out.getvalue()
    assert (tmp_path / "checkpoint.pt").stat().st_size > 0
    assert (tmp_path / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = log.read(str(tmp_path))
    assert rows and "wp_random" in rows[-1] and rows[-1]["frames"] > 0
    code = main(["play", "--auto", "--seed", "3", "--rules", "douzero", "--policy", str(tmp_path)], out=io.StringIO())
    assert code == 0
    for rules in ("laizi", "run_fast"):  # refused before the deal is shown, not at the bots' first turn
        shown = io.StringIO()
        assert main(["play", "--auto", "--rules", rules, "--policy", str(tmp_path)], out=shown) == 2
        assert shown.getvalue() == ""


def test_the_learning_curve_is_written_at_its_path_or_warned_about(run_dir: pathlib.Path,
                                                                     tmp_path: pathlib.Path) -> None:
    pytest.importorskip("matplotlib")
    from doudizhu.train.plot import learning_curve, learning_curve_if_possible

    learning_curve(run_dir, tmp_path / "curve")  # no suffix: the name means the file, not curve.png
    assert [p.name for p in tmp_path.iterdir()] == ["curve"]
    assert (tmp_path / "curve").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    (tmp_path / "folder.png").mkdir()
    with pytest.warns(UserWarning, match="no folder.png"):
        learning_curve_if_possible(run_dir, tmp_path / "folder.png")  # the run is kept: a warning, no error
    assert sorted(p.name for p in tmp_path.iterdir()) == ["curve", "folder.png"]


def test_an_out_that_is_a_file_is_refused_naming_it(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["train", "--minutes", "0.01", "--out", str(tmp_path / "notes.txt")], out=io.StringIO()) == 1
    assert "notes.txt is a file: a run's output is a folder" in capsys.readouterr().err
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_a_run_file_that_is_a_folder_is_refused_before_training(run_dir: pathlib.Path, tmp_path: pathlib.Path) -> None:
    folder = tmp_path / "run"
    shutil.copytree(run_dir, folder)
    (folder / "learning_curve.png").unlink(missing_ok=True)
    (folder / "learning_curve.png").mkdir()
    before = (folder / "checkpoint.pt").read_bytes()
    with pytest.raises(IsADirectoryError, match=r"learning_curve\.png is a folder"):
        train(dataclasses.replace(TINY, frames=10**9), out=folder, resume=True)
    assert (folder / "checkpoint.pt").read_bytes() == before


def test_cli_resumes_a_run_with_its_own_settings_and_refuses_others(run_dir: pathlib.Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    saved = (run_dir / "checkpoint.pt").read_bytes()
    for given in (["--seed", "6"], ["--objective", "wp"], ["--tables", "8"], ["--model", "douzero"]):
        assert main(["train", "--out", str(run_dir), "--resume", *given], out=io.StringIO()) == 2
        assert "a resumed run cannot change them" in capsys.readouterr().err, given
    assert main(["train", "--out", str(run_dir), "--minutes", "0.01"], out=io.StringIO()) == 2  # a fresh run
    assert "holds a run (checkpoint.pt, log.csv" in capsys.readouterr().err
    assert (run_dir / "checkpoint.pt").read_bytes() == saved
    # The run's own settings given again, and limits it has reached: nothing to train, said so.
    out = io.StringIO()
    code = main(["train", "--out", str(run_dir), "--resume", "--seed", "5", "--tables", "64", "--minutes", "0.0001"],
                out=out)  # 6 ms: the run trained longer (its frames limit is its Python call's, not the CLI's)
    assert code == 0 and "nothing to train" in out.getvalue()
    assert (run_dir / "checkpoint.pt").read_bytes() == saved


def test_an_interrupted_run_saves_its_checkpoint_and_a_resume_drops_the_log_rows_past_it(
        tmp_path: pathlib.Path) -> None:
    def interrupt(counters: Counters, rate: float, wp: float | None) -> None:
        if counters.frames:  # at the first report after learning, long before the first checkpoint's 5 minutes
            raise KeyboardInterrupt

    config = dataclasses.replace(TINY, frames=None, minutes=60.0, report_seconds=0.0)
    with pytest.raises(KeyboardInterrupt):
        train(config, out=tmp_path, progress=interrupt)
    payload = torch.load(tmp_path / "checkpoint.pt", weights_only=True)
    frames = payload["counters"]["frames"]
    assert frames > 0 and log.read(str(tmp_path))[-1]["frames"] == frames
    rows = log.read(str(tmp_path))
    log.Log(str(tmp_path)).write({"minutes": 1.0, "frames": frames + 1})  # a row a killed process logged past it
    resumed = train(dataclasses.replace(config, frames=frames), out=tmp_path, resume=True)
    assert resumed.trained_seconds == 0 and resumed.counters.frames == frames
    assert log.read(str(tmp_path)) == rows


def test_sigterm_ends_a_command_line_run_with_its_checkpoint_saved(tmp_path: pathlib.Path) -> None:
    # A job scheduler's or a container's stop: the run saves what it has, then exits with
    # the status of a process SIGTERM ends.
    from doudizhu.cli import TERMINATED

    folder = tmp_path / "run"
    child = subprocess.Popen([sys.executable, "-m", "doudizhu", "train", "--out", str(folder), "--minutes", "60",
                              "--tables", "8", "--eval-minutes", "0.01", "--eval-deals", "4"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def trained_and_evaluated() -> bool:
        rows = log.read(str(folder)) if (folder / log.FILE).exists() else []
        return any("wp_random" in row for row in rows) and rows[-1]["frames"] > 0

    try:
        deadline = time.monotonic() + 180
        while not trained_and_evaluated():  # the run is in its loop, and has evaluated its networks
            assert child.poll() is None and time.monotonic() < deadline, child.stderr.read() if child.stderr else ""
            time.sleep(0.2)
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=120)
    finally:
        child.kill()
    assert child.returncode == TERMINATED, err.decode()
    payload = torch.load(folder / "checkpoint.pt", weights_only=True)
    assert payload["counters"]["frames"] >= log.read(str(folder))[-1]["frames"] > 0
    assert (folder / "learning_curve.png").stat().st_size > 0  # the curve as far as it went


def _copy_of(run_dir: pathlib.Path, tmp_path: pathlib.Path, name: str) -> pathlib.Path:
    folder = tmp_path / name
    shutil.copytree(run_dir, folder)
    return folder


@pytest.mark.parametrize(("spoil", "says"), [
    (lambda text: text[:-20], "its last line is cut short"),
    (lambda text: text + "1,2,3\n", "has 3 cells"),
    (lambda text: text.replace("minutes", "mins", 1), "its header is not minutes,frames,hands"),
    (lambda text: text + ",".join(["abc"] * len(log.COLUMNS)) + "\n", "holds a cell that is no number"),
    (lambda text: text + "1" * 200_000 + "\n", "field larger than field limit"),  # was csv's own error
    # The last row again at other minutes: both were accepted.
    (lambda text: text + "nan" + text.splitlines()[-1][text.splitlines()[-1].index(","):] + "\n",
     "holds minutes nan, no finite number"),
    (lambda text: text + "-0.001" + text.splitlines()[-1][text.splitlines()[-1].index(","):] + "\n",
     "holds minutes -0.001, no finite number"),
])
def test_a_damaged_log_is_refused_before_a_resumed_run_trains(run_dir: pathlib.Path, tmp_path: pathlib.Path,
                                                              spoil: Callable[[str], str], says: str) -> None:
    folder = _copy_of(run_dir, tmp_path, "run")
    (folder / "log.csv").write_text(spoil((folder / "log.csv").read_text()))
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    with pytest.raises(ValueError, match=f"log.csv: a damaged log \\((line \\d+ )?{says}"):
        train(dataclasses.replace(TINY, frames=TINY.frames * 4), out=folder, resume=True)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before  # nothing trained, nothing written


def test_an_empty_log_gets_its_header_back_on_resume(run_dir: pathlib.Path, tmp_path: pathlib.Path) -> None:
    folder = _copy_of(run_dir, tmp_path, "run")
    (folder / "log.csv").write_text("")
    frames = torch.load(folder / "checkpoint.pt", weights_only=True)["counters"]["frames"]
    train(dataclasses.replace(TINY, frames=frames + 512, report_seconds=0.0), out=folder, resume=True)
    rows = log.read(str(folder))
    assert rows and all(row["frames"] >= frames for row in rows)  # a header again, then the new rows


def test_a_damaged_checkpoint_is_refused_on_resume_naming_what_it_lacks(run_dir: pathlib.Path,
                                                                        tmp_path: pathlib.Path) -> None:
    from doudizhu import checkpoint

    payload = torch.load(run_dir / "checkpoint.pt", weights_only=True)
    damaged = [
        ({**payload, "optimizers": {k: v for k, v in payload["optimizers"].items() if k != "landlord"}},
         "a damaged checkpoint: its optimizers do not load"),
        ({**payload, "counters": {k: v for k, v in payload["counters"].items() if k != "frames"}},
         "a damaged checkpoint: its counters lack frames"),  # read as 0, it dropped the log's rows
        ({**payload, "counters": {**payload["counters"], "seconds": float("nan")}},
         "a damaged checkpoint: its counters are not counts, seconds and losses"),  # trained without end
        ({**payload, "counters": {**payload["counters"], "losses": {"landlord": "x"}}},
         "a damaged checkpoint: its counters are not counts, seconds and losses"),
        ({**payload, "counters": {**payload["counters"], "hands": 2**100}},
         "a damaged checkpoint: its counters are not counts, seconds and losses"),
        ({**payload, "config": {k: v for k, v in payload["config"].items() if k != "tables"}},
         "a damaged checkpoint: its settings lack tables"),  # resumed with the default 256 tables
    ]
    nan_state = {name: {**state, "state": {slot: {key: torch.full_like(value, float("nan")) if key == "square_avg"
                                                       else value for key, value in slots.items()}
                                           for slot, slots in state["state"].items()}}
                 for name, state in payload["optimizers"].items()}
    damaged.append(({**payload, "optimizers": nan_state},  # it passed, and the first step spoiled every weight
                    r"optimizers do not load \(ValueError: the landlord optimizer's state 'square_avg' is not finite"))
    misshapen = {name: {**state, "state": {slot: {key: torch.zeros(2) if key == "square_avg" else value
                                                  for key, value in slots.items()}
                                           for slot, slots in state["state"].items()}}
                 for name, state in payload["optimizers"].items()}
    damaged.append(({**payload, "optimizers": misshapen},  # it trained, then failed at the first step
                    r"the landlord optimizer's state 'square_avg' has shape \(2,\), not its parameter's"))
    for key, value in (("lr", -1.0), ("alpha", 5.0), ("momentum", 0.9), ("lr", "abc")):
        # torch took the file's settings over the run's: lr -1 trained by gradient ascent
        edited = {name: {**state, "param_groups": [{**group, key: value} for group in state["param_groups"]]}
                  for name, state in payload["optimizers"].items()}
        damaged.append(({**payload, "optimizers": edited},
                        r"optimizers do not load \(ValueError: the landlord optimizer's settings are not the run's"))
    damaged.append(({**payload, "counters": {**payload["counters"], "losses": {"bogus": 1.0}}},
                    "a damaged checkpoint: its counters are not counts, seconds and losses"))  # failed at a log row
    for index, (spoiled, says) in enumerate(damaged):
        folder = _copy_of(run_dir, tmp_path, f"run{index}")
        checkpoint.save(folder / checkpoint.FILE, spoiled)
        with pytest.raises(ValueError, match=says):
            train(dataclasses.replace(TINY, frames=TINY.frames * 4), out=folder, resume=True)


def test_weights_that_overflow_to_nan_are_refused_where_they_would_choose(run_dir: pathlib.Path) -> None:
    # Finite weights of 1e38 pass the load's check but value every action NaN: the bot
    # played the argmax of NaN (its first action) without a word, in act and in batches.
    payload = torch.load(run_dir / "checkpoint.pt", weights_only=True)
    for weights in payload["nets"]["landlord"].values():
        weights[...] = 1e38
    bot = TorchBot(payload)
    game = dz.Game(seed=1, rules=DOUZERO)
    while game.to_move != 0 or len(game.legal_actions()) < 2:
        game.step(dz.choose_action(game, "random", 0))
    with pytest.raises(dz.NetworkError, match=r"the network valued an action as (NaN|infinite)"):
        bot.act(game)
    env = VectorEnv(8, DOUZERO, features="douzero", learners="all", seed=1)
    with pytest.raises(dz.NetworkError, match="the network valued an action as"):
        bot.choose_batch(env.reset(), env)


def test_a_learner_refuses_to_step_once_its_loss_is_not_finite() -> None:
    nets = build_all("small")
    learner = Learner(nets, learning_rate=1e-3, alpha=0.99, eps=1e-5, max_grad_norm=40.0)
    for weights in nets["landlord"].parameters():
        weights.data.fill_(1e38)
    samples = Samples(np.zeros((4, 5, 162), np.int8), np.zeros((4, STATE_WIDTH["landlord"]), np.int8),
                      np.zeros((4, 54), np.int8), np.zeros(4, np.float32))
    before = [w.detach().clone() for w in nets["landlord"].parameters()]
    with pytest.raises(ValueError, match="training diverged: the landlord network's loss is"):
        learner.learn("landlord", samples)
    assert all(torch.equal(a, b) for a, b in zip(before, nets["landlord"].parameters()))


def test_a_checkpoint_that_cannot_be_written_is_an_os_error_naming_it(tmp_path: pathlib.Path) -> None:
    from doudizhu import checkpoint

    for path in (tmp_path / "no such folder" / "c.pt", tmp_path):  # torch said RuntimeError, naming the temporary
        with pytest.raises(OSError, match=f"cannot write {str(path)!r}"):
            checkpoint.save(path, {"format": checkpoint.FORMAT})
    assert not list(tmp_path.glob("*.partial"))


def test_a_checkpoint_without_what_resuming_needs_plays_but_is_not_resumed(run_dir: pathlib.Path,
                                                                          tmp_path: pathlib.Path) -> None:
    from doudizhu import checkpoint

    payload = torch.load(run_dir / "checkpoint.pt", weights_only=True)
    for key in checkpoint.RESUME_KEYS:
        folder = tmp_path / key
        folder.mkdir()
        checkpoint.save(folder / checkpoint.FILE, {k: v for k, v in payload.items() if k != key})
        TorchBot(folder)  # it plays
        with pytest.raises(ValueError, match=f"a checkpoint to play, not to resume: it has no {key}"):
            train(TINY, out=folder, resume=True)
    lacking = {**payload, "nets": {k: v for k, v in payload["nets"].items() if k != "landlord"}}
    with pytest.raises(ValueError, match="without the landlord network"):
        TorchBot(lacking)
    with pytest.raises(TypeError, match=r"checkpoint must be a path .* not bytes"):
        TorchBot(bytes(run_dir))  # read as a file name, it was "not a doudizhu.train checkpoint (BadZipFile...)"
    integral = {**payload, "nets": {**payload["nets"], "landlord": {key: value.long() for key, value
                                                                     in payload["nets"]["landlord"].items()}}}
    with pytest.raises(ValueError, match=r"landlord network is no 'small' network: .* no floating point \(torch\.int"):
        TorchBot(integral)  # loaded as floats of the truncated weights: every action valued alike
    misshapen = {**payload, "model": "douzero"}
    with pytest.raises(ValueError, match=r"landlord network is no 'douzero' network: unknown tensor 'history\.weight'"):
        TorchBot(misshapen)


def _nested() -> torch.Tensor:
    """A nested tensor of torch's default layout, which reports itself strided (without the
    warning that its API is a prototype)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return torch.nested.nested_tensor([torch.zeros(3), torch.zeros(2)])


@pytest.mark.parametrize("change, says", [
    (lambda w: w.update({5: torch.zeros(1)}), "a tensor named 5: names are str, not int"),  # was torch's AttributeError
    (lambda w: w.update({("a",): torch.zeros(1)}), r"a tensor named \('a',\): names are str, not tuple"),
    (lambda w: w.update({"extra.weight": torch.zeros(1)}), "unknown tensor 'extra.weight'"),
    (lambda w: w.pop("history.weight"), "history.weight is missing"),
    (lambda w: w.update({"history.weight": torch.zeros(3, 3)}), r"history.weight has shape \(3, 3\), not \(128, 810\)"),
    (lambda w: w.update({"history.weight": None}), "history.weight is a NoneType, not a tensor"),
    (lambda w: w.update({"history.weight": w["history.weight"].to_sparse()}),  # torch's RuntimeError, a traceback
     r"history.weight is a torch.sparse_coo tensor, not a dense one of data"),
    (lambda w: w.update({"history.weight": w["history.weight"].to("meta")}), "history.weight is a meta tensor"),
    (lambda w: w.update({"history.weight": _nested()}), "history.weight is a nested tensor"),  # was "Internal error"
])
def test_a_checkpoints_weights_are_refused_naming_the_tensor(run_dir: pathlib.Path,
                                                             change: Callable[[dict[object, object]], object],
                                                             says: str) -> None:
    payload = torch.load(run_dir / "checkpoint.pt", weights_only=True)
    change(payload["nets"]["landlord"])
    with pytest.raises(ValueError, match=f"^the checkpoint's landlord network is no 'small' network: {says}"):
        TorchBot(payload)


def test_weights_that_are_not_finite_are_refused_before_the_network_changes(run_dir: pathlib.Path) -> None:
    from doudizhu import checkpoint

    payload = torch.load(run_dir / "checkpoint.pt", weights_only=True)
    net = checkpoint.nets_of(payload)["landlord"]
    before = {key: tensor.clone() for key, tensor in net.state_dict().items()}
    for spoiled in (float("nan"), 1e300):  # 1e300: finite in float64, not in the network's float32
        weights = {**payload["nets"]["landlord"]}
        weights["history.weight"] = torch.full_like(weights["history.weight"], spoiled, dtype=torch.float64)
        with pytest.raises(ValueError, match=r"landlord network holds weights that are not finite \(history\.weight\)"):
            checkpoint.load_weights("landlord", net, weights, "'small'")
        assert all(torch.equal(before[key], tensor) for key, tensor in net.state_dict().items())  # was loaded first


def test_a_checkpoints_spoiled_torch_metadata_is_not_read(run_dir: pathlib.Path) -> None:
    # torch's state_dict carries _metadata, which load_state_dict read: an AttributeError.
    payload = torch.load(run_dir / "checkpoint.pt", weights_only=True)
    payload["nets"]["landlord"]._metadata = {"": 1}
    game = dz.Game(seed=3, rules=dz.Rules.preset("douzero"))
    assert TorchBot(payload).act(game) == TorchBot(run_dir).act(game)


def test_a_damaged_checkpoint_is_a_value_error_whatever_torch_trips_on(tmp_path: pathlib.Path) -> None:
    from doudizhu import checkpoint

    good = tmp_path / "good.pt"
    checkpoint.save(good, {"format": checkpoint.FORMAT, "model": "x", "nets": {"a": torch.zeros(3)}})
    data, rng = good.read_bytes(), random.Random(0)
    bad = tmp_path / "bad.pt"
    for _ in range(1000):  # torch's reader raised AssertionError, struct.error, IndexError, KeyError among these
        damaged = bytearray(data)
        for _ in range(3):
            damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        bad.write_bytes(bytes(damaged))
        with contextlib.suppress(ValueError):  # anything else fails the test
            checkpoint.load(bad)
    with pytest.raises(FileNotFoundError):
        checkpoint.load(tmp_path / "missing.pt")


def test_a_ray_address_where_nothing_answers_is_refused_at_once(tmp_path: pathlib.Path) -> None:
    pytest.importorskip("ray")
    import socket

    with socket.socket() as closed:  # a port bound and never listened on: connections are refused
        closed.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{closed.getsockname()[1]}"
        with pytest.raises(ConnectionError, match=f"ray_address {address}: no Ray head answers there"):
            train(dataclasses.replace(TINY, ray_address=address), out=tmp_path)  # not ray.init's minutes of retries
    assert not (tmp_path / "checkpoint.pt").exists()


@pytest.mark.parametrize(("setting", "error", "says"), [
    ({"threads": 100_000}, ValueError, r"threads must be in 1\.\.256"),  # torch aborted the process at exit
    ({"eval_deals": 0}, ValueError, r"eval_deals must be in 1\."),  # found only at the final evaluation
    ({"minutes": float("nan")}, ValueError, "minutes must be a finite number above 0"),  # trained without end
    ({"epsilon": 5.0}, ValueError, r"epsilon must be a finite number in 0\.\.1"),
    ({"alpha": 2.0}, ValueError, r"alpha must be a finite number in 0\.\.1"),
    ({"max_grad_norm": float("nan")}, ValueError, "max_grad_norm must be a finite number above 0"),
    ({"frames": -1}, ValueError, r"frames must be in 1\."),
    ({"threads": True}, TypeError, "threads must be an int, not bool"),
    ({"batch_size": 1.5}, TypeError, "batch_size must be an int, not float"),
    ({"learning_rate": "fast"}, TypeError, "learning_rate must be a finite number, not str"),
    ({"ray_address": ""}, ValueError, "ray_address must be .local., .auto., host:port or ray://host:port"),
    ({"ray_address": "head:port"}, ValueError, "ray_address must be"),
    ({"ray_address": "ray://head:70000"}, ValueError, "ray_address must be"),
    ({"ray_address": 5}, TypeError, r"ray_address must be a str \('local', 'auto'"),
])
def test_a_setting_out_of_range_is_refused_before_the_run_starts(
    setting: dict[str, object], error: type[Exception], says: str, tmp_path: pathlib.Path,
    capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(error, match=says):
        TrainConfig(**setting)  # type: ignore[arg-type]
    option, value = next(iter(setting.items()))
    if option in ("threads", "eval_deals") and type(value) is int:  # the command line's: one line, no run folder
        out = tmp_path / "run"
        assert main(["train", "--out", str(out), "--minutes", "0.01", f"--{option.replace('_', '-')}", str(value)]) == 2
        assert not out.exists() and capsys.readouterr().err.count("\n") == 1


def test_cli_play_rejects_an_unknown_policy(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--auto", "--policy", "no-such-bot"], out=io.StringIO()) == 2
    assert "neither a policy" in capsys.readouterr().err


def test_ray_actors_feed_the_learner() -> None:
    pytest.importorskip("ray")
    config = dataclasses.replace(TINY, ray_address="local", ray_actors=2, frames=2 * 128, batch_size=128, tables=16)

    def ours(signum: int, frame: object) -> None:  # the command line's: raise an interrupt that saves
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, ours)
    try:
        result = train(config)
        # ray.init installed its own SIGTERM handler, which aborted the trainer unsaved.
        assert signal.getsignal(signal.SIGTERM) is ours
    finally:
        signal.signal(signal.SIGTERM, before)
    assert result.counters.frames >= 2 * 128 and result.counters.hands > 0
    assert all(np.isfinite(loss) for loss in result.counters.losses.values())


def test_a_second_trainer_on_a_run_folder_is_refused_while_the_first_writes(tmp_path: pathlib.Path) -> None:
    # Two trainers on one folder both ran: their log rows interleaved, the last to save won.
    folder = tmp_path / "run"
    code = ("import time\nfrom doudizhu.train.run_folder import run_folder, writing\n"
            f"with writing(run_folder({str(folder)!r})):\n    print('held', flush=True)\n    time.sleep(60)\n")
    with subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True) as holder:
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
            with pytest.raises(BlockingIOError, match="another trainer is writing this run folder"):
                train(TINY, out=folder)
            assert sorted(p.name for p in folder.iterdir()) == [".lock"]  # nothing written
        finally:
            holder.kill()
    assert train(TINY, out=folder).counters.frames >= TINY.frames  # free again


def test_a_fresh_run_saves_a_checkpoint_before_its_first_log_row(tmp_path: pathlib.Path) -> None:
    # Killed before its first checkpoint, a run left only log.csv: --resume found no
    # checkpoint, and a fresh start found a run's files.
    def stop(counters: Counters, rate: float, wp: float | None) -> None:
        raise SystemExit  # no save on the way out, as a kill
    with pytest.raises(SystemExit):
        train(dataclasses.replace(TINY, report_seconds=0.0), out=tmp_path, progress=stop)
    assert (tmp_path / "checkpoint.pt").exists()
    resumed = train(TINY, out=tmp_path, resume=True)
    assert resumed.counters.frames >= TINY.frames


@pytest.mark.parametrize("settings, error, says", [
    (lambda: TrainConfig(eval_deals=None), TypeError, "eval_deals must be given, not None"),
    (lambda: WarmConfig(objective="x"), ValueError, "objective: 'x' is not one of"),
    (lambda: WarmConfig(plan="yes"), TypeError, "plan must be bool"),
    (lambda: WarmConfig(head=(-1,)), ValueError, "head's widths"),
    (lambda: WarmConfig(teacher="nope"), ValueError, "teacher and rollout: 'nope'"),
    (lambda: WarmConfig(rules="laizi"), dz.NetworkError, "DouZero's setting"),
    (lambda: Recipe(play="x"), TypeError, "play must be WarmConfig"),
    (lambda: Recipe(eval_presets=("laizi",)), dz.NetworkError, "DouZero's setting"),
    (lambda: Recipe(eval_opponents=("foo",)), ValueError, "'foo' is not one of"),
    (lambda: BidConfig(rules="four_player"), dz.NetworkError, "rules 'four_player': .*DouZero's setting"),
    # The play networks that play its hands out could not (was refused after the play stage):
    (lambda: BidConfig(rules="sanren"), dz.NetworkError, "rules 'sanren': .*DouZero's setting"),
    (lambda: BidConfig(modes=("foo",)), ValueError, "modes: 'foo'"),
])
def test_settings_that_would_fail_after_training_are_refused_when_made(settings: Callable[[], object],
                                                                       error: type[Exception], says: str) -> None:
    with pytest.raises(error, match=says):
        settings()


def test_a_progress_function_that_cannot_take_its_arguments_is_refused_before_training(tmp_path: pathlib.Path) -> None:
    for progress in (5, lambda counters: None):
        with pytest.raises(TypeError, match="progress"):
            train(TINY, out=tmp_path / "run", progress=progress)  # type: ignore[arg-type]
        assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("config, out, says", [
    ({"minutes": 1}, "run", "config must be a TrainConfig, not dict"),  # the folder was made first
    (TINY, b"run", "out must be a str or os.PathLike of a folder, not bytes"),  # was "Can't mix strings and bytes"
])
def test_a_run_of_no_config_or_no_folder_path_is_refused_before_its_folder(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, config: object, out: str | bytes, says: str) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TypeError, match=says):
        train(config, out=out)  # type: ignore[arg-type]
    assert not os.listdir(tmp_path)


def test_a_resume_refuses_a_checkpoint_whose_bytes_changed_or_whose_networks_are_another_model(
        run_dir: pathlib.Path, tmp_path: pathlib.Path) -> None:
    import zipfile
    folder = tmp_path / "run"
    shutil.copytree(run_dir, folder)
    path = folder / "checkpoint.pt"
    with zipfile.ZipFile(path) as archive:  # the largest member's data: weights, read by torch unchecked
        member = max(archive.infolist(), key=lambda info: info.file_size)
    data = bytearray(path.read_bytes())
    start = member.header_offset + 30 + len(member.filename.encode()) + len(member.extra)
    data[start:start + 64] = bytes(64)
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="fails its checksum"):
        train(dataclasses.replace(TINY, frames=10**9), out=folder, resume=True)
    payload = torch.load(run_dir / "checkpoint.pt", weights_only=True)
    payload["config"]["model"] = "douzero"  # the small model's weights under the other model's name
    torch.save(payload, path)
    with pytest.raises(ValueError, match="is no 'douzero' network"):
        train(dataclasses.replace(TINY, model="douzero", frames=10**9), out=folder, resume=True)


def test_a_run_folder_of_the_other_trainer_or_with_a_fifo_for_a_file_is_refused(tmp_path: pathlib.Path) -> None:
    recipe_run = tmp_path / "recipe"
    recipe_run.mkdir()
    (recipe_run / "recipe.json").write_text("{}")
    with pytest.raises(FileExistsError, match="another trainer's run"):
        train(TINY, out=recipe_run)
    fifo_run = tmp_path / "fifo"
    fifo_run.mkdir()
    os.mkfifo(fifo_run / "log.csv")  # read, it waited for a writer without end
    with pytest.raises(OSError, match="no regular file"):
        train(TINY, out=fifo_run, resume=True)


def test_evaluations_come_as_often_as_eval_minutes_says_under_the_report_interval(tmp_path: pathlib.Path) -> None:
    # An evaluation waited for a report: eval_minutes under report_seconds gave one per report.
    config = dataclasses.replace(TINY, frames=8 * 256, eval_minutes=1e-6, eval_deals=1, report_seconds=3600.0)
    train(config, out=tmp_path)
    rows = log.read(str(tmp_path))
    assert len(rows) >= 3 and all("wp_random" in row for row in rows)


def test_a_command_line_resume_of_a_python_run_sets_no_frames_limit(run_dir: pathlib.Path,
                                                                    tmp_path: pathlib.Path) -> None:
    # The Python run's frames limit stayed: "nothing to train: the run has 0.0 min, and
    # --minutes (0.2) counts the whole run's".
    folder = tmp_path / "run"
    shutil.copytree(run_dir, folder)
    before = torch.load(folder / "checkpoint.pt", weights_only=True)["counters"]["frames"]
    out = io.StringIO()
    # 3 s: on a loaded machine 1.2 s had passed before the first learner step.
    assert main(["train", "--out", str(folder), "--resume", "--minutes", "0.05", "--eval-deals", "1"], out=out) == 0
    assert "nothing to train" not in out.getvalue()
    assert torch.load(folder / "checkpoint.pt", weights_only=True)["counters"]["frames"] > before


def test_a_resume_needs_its_folder_and_a_bool(tmp_path: pathlib.Path) -> None:
    with pytest.raises(FileNotFoundError, match="no run to resume"):
        train(TINY, out=tmp_path / "none", resume=True)
    with pytest.raises(TypeError, match="resume must be True or False, not 'no'"):  # was true
        train(TINY, out=tmp_path / "none", resume="no")  # type: ignore[arg-type]
    assert not (tmp_path / "none").exists()  # was made, then refused


def test_a_refused_resume_leaves_torchs_threads_and_seed_as_they_were(run_dir: pathlib.Path) -> None:
    # Both are the process's: torch.manual_seed and set_num_threads ran before the refusals.
    threads, rng = torch.get_num_threads(), torch.get_rng_state()
    with pytest.raises(ValueError, match="resume needs out"):
        train(dataclasses.replace(TINY, threads=threads + 1), resume=True)
    with pytest.raises(ValueError, match="a resumed run cannot change them"):
        train(dataclasses.replace(saved_config(run_dir), seed=6, threads=threads + 1), out=run_dir, resume=True)
    assert torch.get_num_threads() == threads and torch.equal(torch.get_rng_state(), rng)


def test_numpy_scalars_in_settings_are_their_python_values_and_the_checkpoint_reads_back(
        tmp_path: pathlib.Path) -> None:
    # Kept as NumPy scalars, they went into the checkpoint, which torch.load(weights_only)
    # then refused: a run that could neither resume nor play, found after its training.
    # A longdouble's item() is a longdouble: it stayed one, and the checkpoint refused.
    config = dataclasses.replace(TINY, tables=np.int64(64), seed=np.uint64(5), epsilon=np.float64(0.01),
                                 learning_rate=np.longdouble(TINY.learning_rate))
    assert [type(v) for v in (config.tables, config.seed, config.epsilon, config.learning_rate)] == [int, int, float,
                                                                                                     float]
    train(config, out=tmp_path)
    assert TorchBot(tmp_path) is not None and saved_config(tmp_path) == TINY
    warm = WarmConfig(head=(np.int64(256),), rules=np.str_("douzero"), plan=np.bool_(True))
    assert (warm.head, type(warm.head[0]), type(warm.rules), warm.plan) == ((256,), int, str, True)
    with pytest.raises(TypeError, match="tables must be an int, not bool"):
        dataclasses.replace(TINY, tables=np.bool_(True))


def test_resume_drops_the_log_rows_past_the_checkpoint_by_minutes_too(tmp_path: pathlib.Path) -> None:
    # Killed after its checkpoint but before a learner step, a run logged rows at the
    # checkpoint's frames and later minutes: they stayed, the resumed run logged earlier
    # minutes after them, and the next resume refused the log as damaged.
    rows = [{"minutes": 0.167, "frames": 0}, {"minutes": 0.333, "frames": 0}, {"minutes": 0.5, "frames": 64},
            {"minutes": 0.2}]  # an evaluation's row has no frames
    with open(tmp_path / log.FILE, "w", newline="") as f:
        writer = csv.DictWriter(f, log.COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    log.drop_rows_after(str(tmp_path), frames=0, seconds=10.0)  # a checkpoint at 10 s, 0 frames
    assert [row["minutes"] for row in log.read(str(tmp_path))] == [0.167]


def test_a_second_trainer_in_another_thread_of_the_process_is_refused(tmp_path: pathlib.Path) -> None:
    # The lock let a process's own trainers nest (the recipe's stages): a second thread
    # training into the same folder was let in, and the two runs' log rows interleaved.
    from doudizhu.train.run_folder import run_folder, writing

    folder = run_folder(tmp_path / "run")
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with writing(folder), writing(folder):  # a thread's own trainers still nest
            held.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(30)
        with pytest.raises(BlockingIOError, match="another trainer is writing this run folder"), writing(folder):
            pass
    finally:
        release.set()
        holder.join(30)
    with writing(folder):  # free again
        pass


def test_a_run_stopped_before_its_first_checkpoint_starts_when_resumed(tmp_path: pathlib.Path) -> None:
    # Interrupted before or while it wrote its first checkpoint, a run left only its lock
    # file, and the same command with --resume was refused ("without a checkpoint.pt").
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / ".lock").write_bytes(b"")
    result = train(TINY, out=folder, resume=True)
    assert result.counters.frames >= TINY.frames and (folder / "checkpoint.pt").exists()
    with pytest.raises(FileNotFoundError, match="no run to resume"):  # no folder at all: still refused
        train(TINY, out=tmp_path / "missing", resume=True)


def test_the_command_line_resumes_a_run_stopped_before_it_saved_anything(tmp_path: pathlib.Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # The command line read the run's settings first: "a folder without a checkpoint.pt"
    # (dmc) or "without a recipe.json" (the recipe), status 2, where train() would start.
    from doudizhu.train import recipe

    folder = tmp_path / "dmc"
    folder.mkdir()
    (folder / ".lock").write_bytes(b"")
    assert main(["train", "--out", str(folder), "--resume", "--minutes", "0.02", "--tables", "16", "--batch-size", "64",
                 "--eval-minutes", "100"], out=io.StringIO()) == 0
    assert (folder / "checkpoint.pt").exists()
    started: list[recipe.Recipe] = []
    monkeypatch.setattr(recipe, "run", lambda given, out, resume, report: started.append(given) or "net.ddzn")
    (tmp_path / "recipe").mkdir()
    (tmp_path / "recipe" / ".lock").write_bytes(b"")
    assert main(["train", "--recipe", "neural", "--out", str(tmp_path / "recipe"), "--resume", "--minutes", "1"],
                out=io.StringIO()) == 0
    assert started and started[0].play.minutes == 1


def test_a_log_row_the_disk_cannot_hold_is_cut_back_off(tmp_path: pathlib.Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # A full disk left half a row at the log's end, and --resume then refused the run as
    # "a damaged log (its last line is cut short)".
    import errno
    import os

    path = tmp_path / "log.csv"
    log.append_row(str(path), ("minutes", "frames"), {"minutes": 1.0, "frames": 10})
    before = path.read_bytes()
    write = os.write

    def full(fd: int, data: bytes) -> int:
        write(fd, bytes(data[:5]))  # part of the row, then no more room
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError, match=f"No space left on device: '{path}'"):
        log.append_row(str(path), ("minutes", "frames"), {"minutes": 2.0, "frames": 20})
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert log.read(str(path)) == [{"minutes": 1.0, "frames": 10.0}]


def test_the_command_lines_defaults_are_the_trainers() -> None:
    # The command line writes them in its help without importing PyTorch.
    from doudizhu.cli import DEFAULT_MINUTES, DMC_EVAL_DEALS, DMC_EVAL_MINUTES

    fresh = TrainConfig()
    assert (fresh.minutes, fresh.eval_minutes, fresh.eval_deals) == (DEFAULT_MINUTES, DMC_EVAL_MINUTES, DMC_EVAL_DEALS)
