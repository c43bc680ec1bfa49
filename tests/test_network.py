"""The learned policy in the core: network files, C++ inference against PyTorch's forward
pass, the ``"neural"`` policy wherever policies are named, and files that are refused."""

from __future__ import annotations

import copy
import os
import pickle
import re
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

import doudizhu as dz
import doudizhu.envs
from doudizhu.bots import Neural

torch = pytest.importorskip("torch")
from doudizhu import encode, network_file  # noqa: E402
from doudizhu.neural import TorchBot  # noqa: E402
from doudizhu.value_networks import STATE_WIDTH, SmallNet  # noqa: E402

RULE_SETS = {"standard": dz.Rules.preset("standard"), "douzero": dz.Rules.preset("douzero"),
             "call_rob": dz.Rules(bidding="call_rob")}


def small_networks(seed: int = 0) -> tuple[dict[str, SmallNet], dict[str, network_file.BidNet]]:
    """Randomly initialised networks, small enough to be quick, large enough to be exact."""
    torch.manual_seed(seed)
    play = {p: SmallNet(STATE_WIDTH[p], hidden=48, history=16, head=(40,)) for p in encode.DOUZERO_POSITIONS}
    bid = {m: network_file.BidNet(m, (24, 16)) for m in network_file.BID_MODES}
    return play, bid


@pytest.fixture(scope="module")
def net_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("net") / "small.ddzn"
    play, bid = small_networks()
    network_file.write(path, play, bid, {"recipe": "test", "frames": 0})
    return path


def positions(rules: dz.Rules, games: int) -> list[dz.Game]:
    """Every position of ``games`` heuristic games (bidding and play)."""
    out = []
    for seed in range(games):
        game = dz.Game(seed=seed, rules=rules)
        while game.phase != "over":
            out.append(game.copy())
            game.step(dz.choose_action(game, "fast_heuristic", 0))
    return out


def test_the_engine_values_actions_as_pytorch_does(net_file: Path) -> None:
    network = dz.Network(net_file)
    play, bid = network_file.modules(network)
    bot = TorchBot.of(play, "small")
    checked = 0
    for name, rules in RULE_SETS.items():
        for game in positions(rules, 4):
            if game.phase == "bidding":
                expected = bid[name if name == "call_rob" else "classic"](
                    torch.from_numpy(encode.bid_features(game)).float()[None])[0].detach().numpy()
            else:
                expected = bot.values(game)[1].numpy()
            np.testing.assert_allclose(network.values(game), expected, rtol=1e-5, atol=1e-5)
            checked += 1
    assert checked > 500


def test_the_engine_and_pytorch_mark_the_same_plan_where_a_play_goes_out(tmp_path: Path) -> None:
    # TorchBot marked the action choose_action(game, "fast_heuristic") plays, which goes out
    # when it can; the engine (and the teacher's samples the networks learn from) mark the
    # plan itself: where a play empties the hand the values differed by up to 0.13.
    torch.manual_seed(2)
    play = {p: SmallNet(STATE_WIDTH[p], hidden=48, history=16, head=(40,), plan=True) for p in encode.DOUZERO_POSITIONS}
    network_file.write(tmp_path / "plan.ddzn", play, {}, {})
    network, bot = dz.Network(tmp_path / "plan.ddzn"), TorchBot(tmp_path / "plan.ddzn")
    apart = 0
    for seed in range(40):  # the neural bot's games: positions where a play would go out and the plan does not
        game = dz.Game(seed=seed, rules=dz.Rules.preset("douzero"))
        while game.phase != "over":
            if game.phase == "playing":
                differs = dz._core.heuristic_plan(game) != dz.choose_action(game, "fast_heuristic", 0)
                if differs or len(game.history) % 8 == 0:  # those, and some others
                    np.testing.assert_allclose(network.values(game), bot.values(game)[1].numpy(), rtol=1e-5, atol=1e-5)
                apart += differs
            game.step(dz.choose_action(game, "neural", 0))
    assert apart  # positions where the plan is not the play that goes out were compared


def test_torchbot_chooses_exactly_as_the_engine(net_file: Path) -> None:
    engine, torch_bot = Neural(net_file, endgame=False), TorchBot(net_file)
    decisions = 0
    for rules in RULE_SETS.values():
        for game in positions(rules, 30):
            if len(game.legal_actions()) > 1:
                assert engine.act(game) == torch_bot.act(game), game.to_record()
                decisions += 1
    assert decisions > 2000


def test_torchbot_chooses_a_batch_as_the_engine_with_networks_that_read_the_plan(tmp_path: Path) -> None:
    torch.manual_seed(1)
    play = {p: SmallNet(STATE_WIDTH[p], hidden=48, history=16, head=(40,), plan=True) for p in encode.DOUZERO_POSITIONS}
    network_file.write(tmp_path / "plan.ddzn", play, {}, {})  # as the recipe writes its files: reading the plan
    engine, torch_bot = Neural(tmp_path / "plan.ddzn", endgame=False), TorchBot(tmp_path / "plan.ddzn")
    env = dz.envs.VectorEnv(8, features="douzero", learners=0, opponents="heuristic", seed=2)
    batch = env.reset()
    with pytest.raises(TypeError, match="env must be the VectorEnv the batch came from"):
        torch_bot.choose_batch(batch)  # was "this network reads the plan's choice: give planned"
    for _ in range(12):
        choices = torch_bot.choose_batch(batch, env)
        for b in range(len(batch)):
            assert batch.legal_actions(b)[choices[b]] == engine.act(env.game(int(batch.env[b])))
        stale, batch = batch, env.step(choices)
    with pytest.raises(ValueError, match="before it steps again"):
        torch_bot.choose_batch(stale, env)


@pytest.mark.parametrize("features, rules, error, says", [
    ("compact", "standard", ValueError, "features='douzero'"),  # was a bare AssertionError
    (None, "standard", ValueError, "features='douzero'"),
    ("douzero", "laizi", ValueError, "DouZero's setting only"),  # was PyTorch's "mat1 and mat2 shapes ..."
    ("no batch", "standard", TypeError, "batch must be a VectorEnv's Batch, not NoneType"),  # was AttributeError
])
def test_choose_batch_refuses_a_batch_the_networks_cannot_read_by_name(net_file: Path, features: str | None,
                                                                      rules: str, error: type, says: str) -> None:
    batch = None if features == "no batch" else dz.envs.VectorEnv(
        2, dz.Rules.preset(rules), features=features, learners=0, seed=0).reset()  # type: ignore[arg-type]
    with pytest.raises(error, match=says):
        TorchBot(net_file).choose_batch(batch)  # type: ignore[arg-type]


def test_torchbot_refuses_a_file_without_a_position_when_it_loads(tmp_path: Path) -> None:
    play, _ = small_networks()
    del play["landlord_up"]
    network_file.write(tmp_path / "two.ddzn", play, {}, {})
    with pytest.raises(dz.NetworkError, match=r"two\.ddzn: no network for position landlord_up"):
        TorchBot(tmp_path / "two.ddzn")  # was a KeyError at its first landlord_up decision


def test_files_round_trip_their_tensors_and_metadata(net_file: Path) -> None:
    network = dz.Network(net_file)
    assert network_file.metadata(network) == {"recipe": "test", "frames": 0}
    play, bid = small_networks()
    tensors = network.tensors()
    for position, net in play.items():
        for key, value in net.state_dict().items():
            np.testing.assert_array_equal(tensors[f"play.{position}.{key}"], value.numpy())
    assert set(bid) == set(network_file.modules(network)[1])


@pytest.mark.parametrize("rules", ["douzero", "standard"])
def test_neural_plays_everywhere_policies_are_named(net_file: Path, rules: str) -> None:
    bot, r = Neural(net_file), dz.Rules.preset(rules)
    once = dz.selfplay(40, policy=[bot, "heuristic", "random"], seed=3, rules=r, threads=1)
    again = dz.selfplay(40, policy=[bot, "heuristic", "random"], seed=3, rules=r, threads=2)
    np.testing.assert_array_equal(once.payouts, again.payouts)  # deterministic, whatever the threads
    result = dz.evaluate(bot, "random", deals=30, rules=r, threads=2)
    assert result.games > 0
    game = dz.Game(seed=5, rules=r)
    assert dz.playout(game, bot).phase == "over"
    assert bot.act(game) == dz.choose_action(game, bot, 0) in game.legal_actions()
    env = dz.envs.VectorEnv(4, r, opponents=bot, learners="landlord", seed=1)
    assert len(env.reset().offsets) == 5


def test_neural_of_a_file_copies_and_pickles_as_neural_of_the_shipped_one_does(net_file: Path) -> None:
    bot = Neural(net_file, endgame=False)
    for copied in (copy.copy(bot), copy.deepcopy(bot), pickle.loads(pickle.dumps(bot))):  # was "cannot pickle"
        assert repr(copied) == repr(bot)
        for game in positions(dz.Rules.preset("standard"), 2):
            assert copied.act(game) == bot.act(game)


def test_a_copy_plays_the_networks_read_and_a_pickle_finds_its_file_from_anywhere(
        net_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(net_file, tmp_path / "mine.ddzn")
    monkeypatch.chdir(tmp_path)
    bot = Neural("mine.ddzn")
    assert bot.path == str(tmp_path / "mine.ddzn")  # was kept relative: a copy after chdir failed to open it
    monkeypatch.chdir("/")
    assert pickle.loads(pickle.dumps(bot)).path == bot.path
    # A copy is the same networks, whatever the file holds later (it read the file again).
    (tmp_path / "mine.ddzn").write_bytes(b"not a network")
    assert copy.copy(bot).network is bot.network and copy.deepcopy(bot).network is bot.network
    with pytest.raises(dz.NetworkError):
        pickle.loads(pickle.dumps(bot))


def test_a_network_is_its_own_copy() -> None:
    # A Network never changes: a bot holding one more than its own `network` could not be
    # deep-copied ("cannot pickle 'doudizhu.Network' object").
    network = dz.bots.shipped_network()
    assert copy.copy(network) is network and copy.deepcopy(network) is network
    for other in (object(), 1, None, dz.Cards("3")):  # was a segfault, or the object handed back
        with pytest.raises(TypeError, match="self must be a Network"):
            dz.Network.__copy__(other)  # type: ignore[arg-type]
        with pytest.raises(TypeError):  # None: pybind11's own refusal of a None argument
            dz.Network.__deepcopy__(other, {})  # type: ignore[arg-type]

    class Pair(Neural):
        def __init__(self) -> None:
            super().__init__()
            self.second = dz.bots.shipped_network()

    pair = copy.deepcopy(Pair())
    assert type(pair) is Pair and pair.second is network


def test_a_copy_of_a_neural_subclass_is_of_its_class() -> None:
    # Copies were made as Neural: a subclass's act was lost and the copy played in C++.
    class Last(Neural):
        def act(self, game: dz.Game) -> dz.Action:
            return game.legal_actions()[-1]

    bot = Last()
    bot.seen = [1]  # type: ignore[attr-defined]
    game = dz.Game(seed=1)
    for copied in (copy.copy(bot), copy.deepcopy(bot)):
        assert type(copied) is Last and copied.network is bot.network and dz.bots.builtin(copied) is None
        assert copied.act(game) == game.legal_actions()[-1]
    deep = copy.deepcopy(bot)
    assert copy.copy(bot).seen is bot.seen and deep.seen == [1] and deep.seen is not bot.seen


@pytest.mark.parametrize("path, play, bid, says", [
    (b"/tmp/x.ddzn", {}, {}, "path must be a str or os.PathLike, not bytes"),  # was FileNotFoundError
    ("x.ddzn", [1, 2], {}, "play must be a dict of networks by name, not list"),  # was AttributeError
    ("x.ddzn", {}, None, "bid must be a dict of networks by name, not NoneType"),
])
def test_write_refuses_arguments_of_other_types_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        path: object, play: object, bid: object, says: str) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TypeError, match=says):
        network_file.write(path, play, bid, {})  # type: ignore[arg-type]
    assert not list(tmp_path.iterdir())


def test_a_write_into_a_folder_a_loop_or_a_full_device_names_the_path_given(tmp_path: Path) -> None:
    # A path that is no regular file is written as it is; its errors named the link's
    # target, or nothing at all (a full device's "[Errno 28] No space left on device").
    (tmp_path / "folder").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "folder")
    with pytest.raises(IsADirectoryError, match=f"cannot write {str(tmp_path / 'link')!r}: Is a directory"):
        network_file.write(tmp_path / "link", {}, {}, {})
    (tmp_path / "loop").symlink_to(tmp_path / "loop")  # a loop of links: its error named no path
    with pytest.raises(OSError, match=f"cannot write {str(tmp_path / 'loop')!r}: Too many levels of symbolic links"):
        network_file.write(tmp_path / "loop", {}, {}, {})
    if Path("/dev/full").exists():
        with pytest.raises(OSError, match="cannot write '/dev/full': No space left on device"):
            network_file.write("/dev/full", {}, {}, {})


def test_a_network_bids_by_its_bid_values(net_file: Path) -> None:
    network = dz.Network(net_file)
    for name, rules in RULE_SETS.items():
        if name == "douzero":
            continue
        game = dz.Game(seed=11, rules=rules)
        values = network.values(game)
        legal = game.legal_actions()
        best = max(legal, key=lambda a: (values[a.value], -legal.index(a)))
        assert Neural(net_file).act(game) == best


def test_a_network_refuses_rules_it_cannot_encode(net_file: Path) -> None:
    for preset in ("laizi", "four_player", "sanren"):
        with pytest.raises(dz.NetworkError, match="three seats of 17 cards"):
            dz.evaluate(Neural(net_file), "random", deals=2, rules=dz.Rules.preset(preset))
        with pytest.raises(dz.NetworkError, match="three seats of 17 cards"):
            Neural().check(dz.Rules.preset(preset))
    for preset in ("douzero", "standard", "happy"):
        Neural(net_file).check(dz.Rules.preset(preset))
    for preset in ("laizi", "laizi2"):  # its bid features hold no wild cards
        with pytest.raises(dz.NetworkError, match="these networks do not bid under these rules"):
            dz.Network(net_file).values(dz.Game(seed=3, rules=dz.Rules.preset(preset)))


@pytest.mark.parametrize("preset", ["four_player", "four_partner", "laizi", "run_fast"])
def test_torch_bot_refuses_rules_outside_douzeros_setting_by_name(net_file: Path, preset: str) -> None:
    # Under four_player its bid network read four seats' features: PyTorch's "mat1 and mat2
    # shapes cannot be multiplied", naming nothing of the bot's.
    with pytest.raises(ValueError, match="the neural bots play DouZero's setting only"):
        TorchBot(net_file).act(dz.Game(seed=1, rules=dz.Rules.preset(preset)))


def test_the_terminal_refuses_the_network_under_rules_it_cannot_play_before_the_hand(
        capsys: pytest.CaptureFixture[str]) -> None:
    from doudizhu.cli import main

    asked: list[str] = []
    assert main(["play", "--rules", "laizi", "--policy", "neural"], read=lambda prompt: asked.append(prompt) or "") == 2
    assert "three seats of 17 cards" in capsys.readouterr().err
    assert not asked  # no hand was dealt, no question asked


def _write_raw(path: Path, tensors: dict[str, np.ndarray], version: int = 1, magic: bytes = b"DDZNEURL",
               metadata: bytes = b"{}") -> None:
    parts = [magic, struct.pack("<II", version, len(metadata)), metadata, struct.pack("<I", len(tensors))]
    for name, array in tensors.items():
        parts += [struct.pack("<H", len(name)), name.encode(), struct.pack("<B", array.ndim),
                  struct.pack(f"<{array.ndim}I", *array.shape), array.astype("<f4").tobytes()]
    path.write_bytes(b"".join(parts))


@pytest.mark.parametrize("metadata", [
    b"\xff", b"\x80", b"\xc0\x80", b"\xe0\x80\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b'{"a": "\xe2\x82"}',
])
def test_metadata_that_is_no_utf8_is_refused_at_load(tmp_path: Path, metadata: bytes) -> None:
    with pytest.raises(UnicodeDecodeError):
        metadata.decode("utf-8")  # Python's decoder refuses each (an overlong form, a surrogate, past U+10FFFF ...)
    _write_raw(tmp_path / "bad.ddzn", {}, metadata=metadata)
    with pytest.raises(dz.NetworkError, match="the metadata is not UTF-8 text"):
        dz.Network(tmp_path / "bad.ddzn")  # not a UnicodeDecodeError later, at .metadata


def _with_metadata(data: bytes, text: str) -> bytes:
    """``data``, a file the writer wrote, with ``text`` for its metadata and its checksum made anew."""
    (length,) = struct.unpack_from("<I", data, 12)  # after the magic and the version
    body = data[:12] + struct.pack("<I", len(text.encode())) + text.encode() + data[16 + length:-4]
    return body + struct.pack("<I", zlib.crc32(body))


def test_metadata_in_utf8_is_read_as_written(net_file: Path, tmp_path: Path) -> None:
    text = '{"note": "é€😀\u07ff\ud7ff\ue000\U0010ffff"}'  # the edges of each length's range
    (tmp_path / "good.ddzn").write_bytes(_with_metadata(net_file.read_bytes(), text))
    assert dz.Network(tmp_path / "good.ddzn").metadata == text


@pytest.mark.parametrize("text, says", [
    ("not json {", "no JSON"), ('{"a": 1}\u0000more', "no JSON"), ("[" * 100_000, "no JSON"),  # too deep
    ("[1, 2]", "a JSON list, not an object"),
])
def test_metadata_that_is_no_json_object_is_a_network_error_when_read(net_file: Path, tmp_path: Path, text: str,
                                                                      says: str) -> None:
    (tmp_path / "odd.ddzn").write_bytes(_with_metadata(net_file.read_bytes(), text))
    network = dz.Network(tmp_path / "odd.ddzn")  # the engine reads any UTF-8 text there
    assert network.metadata == text
    with pytest.raises(dz.NetworkError, match=says):
        network_file.metadata(network)  # was a JSONDecodeError, a RecursionError, or {} for the list
    assert network_file.metadata(dz.Network(net_file)) == {"recipe": "test", "frames": 0}


def test_a_network_of_other_widths_is_a_network_error_naming_the_tensor_for_pytorch(tmp_path: Path) -> None:
    play, bid = small_networks()
    play["landlord"] = SmallNet(STATE_WIDTH["landlord"] + 53, hidden=48, history=16, head=(40,))
    network_file.write(tmp_path / "wide.ddzn", play, bid, {})  # the engine reads it, and refuses it where it plays
    says = r"play\.landlord\.state\.weight is \(48, 388\); DouZero's features need \(48, 335\)"
    with pytest.raises(dz.NetworkError, match=says):
        TorchBot(tmp_path / "wide.ddzn")  # was PyTorch's RuntimeError from load_state_dict


def _tensors(net_file: Path) -> dict[str, np.ndarray]:
    return dict(dz.Network(net_file).tensors())


@pytest.mark.parametrize("damage, message", [
    ("truncated", "truncated"),
    ("magic", "not a doudizhu network file"),
    ("version", "format version 3; this engine reads versions 1 to 2"),
    ("shape", "inputs expected"),
    ("missing", "no tensor play.landlord.state.bias"),
    # A network's first tensor missing named its others as unknown:
    ("missing play.landlord_up.history.weight", "no tensor play.landlord_up.history.weight"),
    ("missing bid.classic.layers.0.weight", "no bid.classic.layers.0.weight"),
    ("nameless", "tensor 0 has no name"),
    ("unknown", "unknown tensor play.landlord.extra"),
    ("nan", "not a finite number"),
    # Finite, and called "not a finite number":
    ("huge", r"play\.landlord\.state\.bias: a value that exceeds the largest weight the reader accepts, 1e30"),
    ("empty", "not a doudizhu network file"),
])
def test_bad_files_raise_a_network_error_naming_the_problem(net_file: Path, tmp_path: Path, damage: str,
                                                           message: str) -> None:
    path = tmp_path / "bad.ddzn"
    tensors = _tensors(net_file)
    if damage == "truncated":
        path.write_bytes(net_file.read_bytes()[:-7])
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "magic":
        _write_raw(path, tensors, magic=b"NOTANETW")
    elif damage == "version":
        _write_raw(path, tensors, version=3)
    elif damage == "shape":
        tensors["play.landlord.head.0.weight"] = tensors["play.landlord.head.0.weight"][:, :-1]
        _write_raw(path, tensors)
    elif damage == "missing":
        del tensors["play.landlord.state.bias"]
        _write_raw(path, tensors)
    elif damage.startswith("missing "):
        del tensors[damage.split()[1]]
        _write_raw(path, tensors)
    elif damage == "nameless":
        _write_raw(path, {"": np.zeros(3, np.float32), **tensors})
    elif damage == "unknown":
        tensors["play.landlord.extra"] = np.zeros(3, np.float32)
        _write_raw(path, tensors)
    elif damage in ("nan", "huge"):
        tensors["play.landlord.state.bias"][0] = np.nan if damage == "nan" else 2e30
        _write_raw(path, tensors)
    with pytest.raises(dz.NetworkError, match=message):
        Neural(path)
    with pytest.raises(dz.NetworkError):
        dz.Network(path)


def test_a_written_file_with_any_weight_changed_is_refused_as_damaged(net_file: Path, tmp_path: Path) -> None:
    # A file is checked against the CRC-32 it ends with: a flipped bit in a weight was read
    # as another finite weight, and the network played (15 random flips of 15).
    data = net_file.read_bytes()
    assert struct.unpack_from("<I", data, 8) == (2,)
    assert zlib.crc32(data[:-4]) == struct.unpack("<I", data[-4:])[0]
    rng = np.random.default_rng(0)
    for at in rng.integers(len(data) // 2, len(data) - 4, 20):  # among the tensors' values
        damaged = bytearray(data)
        damaged[at] ^= 1 << int(rng.integers(8))
        (tmp_path / "flipped.ddzn").write_bytes(bytes(damaged))
        with pytest.raises(dz.NetworkError, match="truncated or damaged"):
            dz.Network(tmp_path / "flipped.ddzn")
    # A version 1 file (no checksum) of the same tensors reads, and plays alike.
    _write_raw(tmp_path / "v1.ddzn", _tensors(net_file), metadata=dz.Network(net_file).metadata.encode())
    old, new = dz.Network(tmp_path / "v1.ddzn"), dz.Network(net_file)
    game = positions(dz.Rules.preset("douzero"), 1)[0]
    np.testing.assert_array_equal(old.values(game), new.values(game))


def test_the_shipped_network_is_checksummed() -> None:
    data = (Path(dz.__file__).parent / "networks" / "neural.ddzn").read_bytes()
    assert struct.unpack_from("<I", data, 8) == (2,)
    assert zlib.crc32(data[:-4]) == struct.unpack("<I", data[-4:])[0]


@pytest.mark.parametrize("network, named", [
    ("play.", "play.landlord.state"),   # every network: the first layer that could pass a float
    ("play.landlord_up.", "play.landlord_up.state"),
    ("bid.call_rob.", "bid.call_rob.layers.1"),
])
def test_weights_that_can_overflow_a_float_together_are_refused_at_load(net_file: Path, tmp_path: Path, network: str,
                                                                        named: str) -> None:
    # Each weight within the reader's bound of 1e30, together they overflow: such a file
    # played until the first decision (and aborted the process where threads played it).
    tensors = _tensors(net_file)
    for name in tensors:
        if name.startswith(network) and name.endswith("weight"):
            tensors[name] = tensors[name] * np.float32(1e29 / np.abs(tensors[name]).max())
    path = tmp_path / "huge.ddzn"
    _write_raw(path, tensors)
    with pytest.raises(dz.NetworkError, match=rf"huge\.ddzn: {re.escape(named)}: weights that can overflow a float"):
        dz.Network(path)
    with pytest.raises(dz.NetworkError, match="overflow"):
        dz.selfplay(200, policy=Neural(path), rules=dz.Rules.preset("douzero"), threads=2)


def test_valuing_what_is_no_game_is_a_type_error_naming_it(net_file: Path) -> None:
    for value in (None, "game"):  # was pybind11's "incompatible function arguments"
        with pytest.raises(TypeError, match=f"game must be a Game, not {type(value).__name__}"):
            dz.Network(net_file).values(value)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=f"game must be a Game, not {type(value).__name__}"):
            encode.bid_features(value)  # type: ignore[arg-type]


def test_a_missing_file_is_a_network_error(tmp_path: Path) -> None:
    with pytest.raises(dz.NetworkError, match="cannot open"):
        Neural(tmp_path / "nothing.ddzn")
    with pytest.raises(TypeError):
        dz.Network(3)  # type: ignore[arg-type]


def test_a_checkpoint_with_weights_that_are_not_finite_is_refused_as_the_engine_refuses_them() -> None:
    from doudizhu import checkpoint
    from doudizhu.value_networks import build_all

    nets = build_all("small")
    weights = {name: net.state_dict() for name, net in nets.items()}
    payload = {"format": checkpoint.FORMAT, "model": "small", "nets": weights}
    TorchBot(payload)  # finite: it plays
    weights["landlord"] = {key: value * float("nan") for key, value in weights["landlord"].items()}
    with pytest.raises(ValueError, match=r"the checkpoint's landlord network holds weights that are not finite"):
        TorchBot(payload)


def test_a_network_the_engine_would_refuse_is_never_written(net_file: Path, tmp_path: Path) -> None:
    play, bid = network_file.modules(dz.Network(net_file))
    path = tmp_path / "kept.ddzn"
    network_file.write(path, play, bid, {"kept": True})
    kept = path.read_bytes()
    spoiled = network_file.modules(dz.Network(net_file))[0]["landlord"]
    with torch.no_grad():
        next(spoiled.parameters()).fill_(float("nan"))
    for nets, says in [({**play, "landlord": spoiled}, "not a finite number"), ({}, "no play network"),
                       ({**play, "nobody": play["landlord"]}, "unknown tensor play.nobody")]:
        with pytest.raises(dz.NetworkError, match=f"^{re.escape(str(path))}: .*{says}"):
            network_file.write(path, nets, bid, {"kept": False})
    assert path.read_bytes() == kept and [p.name for p in tmp_path.iterdir()] == ["kept.ddzn"]


def test_networks_of_any_float_type_are_written_as_float32(net_file: Path, tmp_path: Path) -> None:
    # A bfloat16 module raised torch's "Got unsupported ScalarType BFloat16" (NumPy has none).
    play, bid = network_file.modules(dz.Network(net_file))
    for dtype in (torch.bfloat16, torch.float16, torch.float64):
        moved = {name: copy.deepcopy(net).to(dtype) for name, net in play.items()}
        network_file.write(tmp_path / "moved.ddzn", moved, bid, {})
        read = network_file.modules(dz.Network(tmp_path / "moved.ddzn"))[0]
        for name, net in moved.items():
            for key, value in net.state_dict().items():
                assert torch.equal(read[name].state_dict()[key], value.float()), (dtype, name, key)


def test_a_file_whose_name_is_no_utf_8_is_read_as_open_reads_it(net_file: Path, tmp_path: Path) -> None:
    # A name of bytes no UTF-8 reads back as surrogates, which pybind11 could not encode:
    # "Unable to cast Python instance of type str"; the error naming one failed to decode.
    name = os.fsdecode(bytes(tmp_path / "net") + b"\xff.ddzn")
    with open(name, "wb") as file:
        file.write(net_file.read_bytes())
    assert dz.Network(name).tensors().keys() == dz.Network(net_file).tensors().keys()
    assert dz.choose_action(dz.Game(seed=1), Neural(name), 0) == dz.choose_action(dz.Game(seed=1), Neural(net_file), 0)
    missing = os.fsdecode(bytes(tmp_path / "gone") + b"\xfe.ddzn")
    with pytest.raises(dz.NetworkError, match=re.escape(f"{missing}: cannot open the file")):
        dz.Network(missing)


def test_a_file_that_cannot_be_written_is_named_not_its_temporary(net_file: Path, tmp_path: Path) -> None:
    play, bid = network_file.modules(dz.Network(net_file))
    path = tmp_path / "no such folder" / "x.ddzn"  # the error named x.ddzn.<pid>.<thread>.partial
    with pytest.raises(FileNotFoundError, match=f"cannot write {re.escape(repr(str(path)))}: No such file"):
        network_file.write(path, play, bid, {})


@pytest.mark.parametrize("metadata, error, says", [
    ({"a": float("nan")}, ValueError, "metadata: Out of range float"),  # was written as NaN, which is no JSON
    ({"a": [float("inf")]}, ValueError, "metadata: Out of range float"),
    (None, TypeError, "metadata must be a dict, not NoneType"),  # was "'NoneType' object is not iterable"
    ([1, 2], TypeError, "metadata must be a dict, not list"),
    ({1: 2, (1, 2): 3}, TypeError, r"metadata's keys must be str, not int \(1\)"),  # was "'<' not supported"
    ({"a": object()}, TypeError, "metadata: Object of type object is not JSON serializable"),
])
def test_metadata_json_cannot_hold_is_refused_by_name_before_anything_is_written(
        net_file: Path, tmp_path: Path, metadata: object, error: type[Exception], says: str) -> None:
    play, bid = network_file.modules(dz.Network(net_file))
    with pytest.raises(error, match=says):
        network_file.write(tmp_path / "x.ddzn", play, bid, metadata)  # type: ignore[arg-type]
    assert not list(tmp_path.iterdir())


def test_a_path_is_read_only_as_the_regular_file_it_names(net_file: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # opened for reading, it would wait for a writer
    for path in (fifo, Path("/dev/zero"), tmp_path):  # /dev/zero never ends
        with pytest.raises(dz.NetworkError, match="not a regular file"):
            dz.Network(path)
    sparse = tmp_path / "sparse.ddzn"
    with open(sparse, "wb") as file:
        file.truncate(2**31)  # 2 GB of no bytes on disk: refused by its first eight, not read whole
    with pytest.raises(dz.NetworkError, match="no DDZNEURL magic"):
        dz.Network(sparse)
    with open(sparse, "r+b") as file:
        file.write(b"DDZNEURL")
    with pytest.raises(dz.NetworkError, match="format version 0"):  # the header first
        dz.Network(sparse)
    with open(sparse, "r+b") as file:
        file.write(b"DDZNEURL" + struct.pack("<II", 1, 2**20 + 1))
    with pytest.raises(dz.NetworkError, match="1048577 bytes of metadata, more than 1048576"):
        dz.Network(sparse)
    with open(sparse, "r+b") as file:
        file.write(b"DDZNEURL" + struct.pack("<II", 1, 2))
    with pytest.raises(dz.NetworkError, match="2147483648 bytes, more than any network this engine reads"):
        dz.Network(sparse)
    with pytest.raises(ValueError, match="embedded null byte"):  # never the file before the NUL
        dz.Network(f"{net_file}\0.other")
    with pytest.raises(ValueError, match="embedded null byte"):
        Neural(f"{net_file}\0.other").act(dz.Game(seed=1, rules=dz.Rules.preset("douzero")))


def test_the_shipped_network_plays_without_pytorch() -> None:
    """'neural' in a process where importing torch fails: it plays whole games of both presets."""
    code = ("import sys; sys.modules['torch'] = None\n"
            "import doudizhu as dz\n"
            "for preset in ('standard', 'douzero'):\n"
            "    r = dz.evaluate('neural', 'random', deals=10, rules=dz.Rules.preset(preset))\n"
            "    assert r.games > 0, r\n"
            "print('ok', 'torch' in sys.modules and sys.modules['torch'] is None)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ok", "True"]


def test_a_torchbot_outside_its_setting_is_refused_before_the_first_deal(net_file: Path) -> None:
    # It was refused at its first decision, after the other seats had played.
    gymnasium_env = pytest.importorskip("doudizhu.envs.gymnasium")
    calls: list[int] = []

    class Counting:
        def act(self, game: dz.Game) -> dz.Action:
            calls.append(1)
            return game.legal_actions()[0]

    laizi = dz.Rules.preset("laizi")
    setting = "the neural bots play DouZero's setting only"
    with pytest.raises(ValueError, match=setting):
        dz.selfplay(4, policy=[Counting(), "heuristic", TorchBot(net_file)], rules=laizi)
    with pytest.raises(ValueError, match=setting):
        dz.evaluate(TorchBot(net_file), Counting(), deals=2, rules=laizi)
    with pytest.raises(ValueError, match=f"{setting}.*\nraised by the bot TorchBot checking the rules"):
        gymnasium_env.DouDizhuEnv(opponents=TorchBot(net_file), rules=laizi)  # as selfplay and evaluate raise it
    assert calls == []
    assert len(dz.selfplay(1, policy=[Counting(), "heuristic", TorchBot(net_file)], rules=dz.Rules.preset("douzero")))


def test_torchbot_goes_out_when_it_can_in_a_batch_as_the_engine_does(net_file: Path) -> None:
    # The engine's policies take a play that empties the hand; the batch's choice must too.
    engine, torch_bot = Neural(net_file, endgame=False), TorchBot(net_file)
    env = dz.envs.VectorEnv(16, features="douzero", learners="all", opponents="random", seed=5)
    batch, outs = env.reset(), 0
    for _ in range(300):
        choices = torch_bot.choose_batch(batch, env)
        for b in range(len(batch)):
            game = env.game(int(batch.env[b]))
            legal = batch.legal_actions(b)
            if any(a.move is not None and a.move.cards == game.hand(game.to_move) for a in legal):
                outs += 1
                assert legal[choices[b]].move.cards == game.hand(game.to_move) and legal[choices[b]] == engine.act(game)
        batch = env.step(choices)
    assert outs >= 20
