"""DouZero's checkpoints on our engine: DouZeroBot chooses as DouZero's own DeepAgent.

A randomly initialised network of DouZero 1.1.0's ``douzero.dmc.models``, saved as
DouZero saves it (``torch.save(model.state_dict(), path)``), is loaded by DouZeroBot and
by DouZero's ``DeepAgent``; in games played by DeepAgent inside DouZero's ``GameEnv``
(mirrored on our engine by bench/external_strength.py's adapter, which checks the legal
sets at every decision), DouZeroBot on the mirrored Game must choose the same cards at
every decision."""

from __future__ import annotations

import importlib
import pathlib
import sys
import types

import pytest

torch = pytest.importorskip("torch")
game_env = pytest.importorskip("douzero.env.game")


def _douzero_models() -> types.ModuleType:
    """douzero.dmc.models without douzero.dmc's __init__, which imports DouZero's trainer
    and through it GitPython (not a dependency of the networks)."""
    import douzero

    folder = pathlib.Path(douzero.__file__).parent / "dmc"
    package = types.ModuleType("douzero.dmc")
    package.__path__ = [str(folder)]
    sys.modules.setdefault("douzero.dmc", package)
    return importlib.import_module("douzero.dmc.models")


models = _douzero_models()
torch.set_num_threads(1)  # small matrices: one thread is fastest, and the tests run beside others
GAMES = 200
deep_agent = importlib.import_module("douzero.evaluation.deep_agent")

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "bench"))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import external_strength as es  # noqa: E402
from helpers import games_in_play  # noqa: E402

import doudizhu as dz  # noqa: E402
from doudizhu import encode  # noqa: E402
from doudizhu.bots import DouZeroBot  # noqa: E402
from doudizhu.neural import DouZeroNet, load_douzero_net  # noqa: E402

import peers  # noqa: E402


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pathlib.Path]:
    torch.manual_seed(7)
    folder = tmp_path_factory.mktemp("douzero")
    out = {}
    for position, model_class in models.model_dict.items():
        out[position] = folder / f"{position}.ckpt"
        torch.save(model_class().state_dict(), out[position])
    return out


def test_douzero_bot_chooses_as_deep_agent_at_every_decision(checkpoints: dict[str, pathlib.Path]) -> None:
    ours = DouZeroBot(**checkpoints)
    theirs = {p: deep_agent.DeepAgent(p, str(path)) for p, path in checkpoints.items()}
    compared = 0

    def choose(position: str):  # type: ignore[no-untyped-def]
        def pick(infoset, mirror, legal_by_mask):  # type: ignore[no-untyped-def]
            nonlocal compared
            cards = theirs[position].act(infoset)
            mine = ours.act(mirror.game)
            assert (mine.move.cards.mask if mine.move else 0) == peers.douzero_to_mask(cards)
            compared += 1
            return cards

        return pick

    stats = es.Stats()
    mirror_ref: list[es.Mirror | None] = [None]
    players = {p: es.Seat(p, mirror_ref, choose(p)) for p in es.POSITIONS}
    env = game_env.GameEnv(players)
    for deal in es.douzero_deals(GAMES, 11):
        mirror_ref[0] = es.Mirror(deal, stats)
        env.card_play_init(es._copy_deal(deal))
        while not env.game_over:
            env.step()
        assert mirror_ref[0].game.phase == "over"
        env.reset()
    assert compared > 3000 and stats.decisions == stats.checked + stats.kicker_trio_bug


def test_douzero_bot_plays_legal_moves_under_the_standard_rules(checkpoints: dict[str, pathlib.Path]) -> None:
    bot = DouZeroBot(**checkpoints)
    result = dz.selfplay(3, policy=[bot, "heuristic", "heuristic"], seed=2)
    assert len(result) == 3 and (result.payouts.sum(axis=1) == 0).all()


def test_douzero_bot_decides_many_games_in_one_pass_per_position(checkpoints: dict[str, pathlib.Path]) -> None:
    bot = DouZeroBot(**checkpoints)
    games = games_in_play(30, dz.Rules.preset("douzero"))
    one_by_one = [bot.act(game) for game in games]
    passes = {position: 0 for position in bot.nets}
    for position, net in bot.nets.items():
        net.register_forward_hook(lambda *_, position=position: passes.__setitem__(position, passes[position] + 1))
    assert bot.act_many(games) == one_by_one
    assert passes == {position: 1 for position in bot.nets}


def test_checkpoints_of_another_layout_are_refused(checkpoints: dict[str, pathlib.Path]) -> None:
    with pytest.raises(ValueError, match="landlord: not a DouZero landlord network"):
        load_douzero_net("landlord", checkpoints["landlord_up"])  # a farmer's 484 columns
    with pytest.raises(ValueError, match="position must be one of"):
        load_douzero_net("farmer", checkpoints["landlord_up"])
    state = DouZeroNet(373).state_dict()
    assert load_douzero_net("landlord", state).dense1.in_features == 373 + 128


def test_what_is_no_checkpoint_is_refused_naming_the_position_and_the_file(
        checkpoints: dict[str, pathlib.Path], tmp_path: pathlib.Path) -> None:
    (tmp_path / "empty.ckpt").write_bytes(b"")
    network = tmp_path / "x.ddzn"
    network.write_bytes(b"DDZNEURL" + bytes(16))
    torch.save([1, 2], tmp_path / "list.ckpt")
    for name, error in [("empty.ckpt", "EOFError"), ("x.ddzn", "UnpicklingError"), ("list.ckpt", "it holds a list")]:
        with pytest.raises(ValueError, match=f"landlord_up: .*{name}: not a checkpoint \\({error}"):  # was torch's
            DouZeroBot(checkpoints["landlord"], tmp_path / name, checkpoints["landlord_down"])
    for value in (5, None):  # was an AttributeError: no seek
        says = f"landlord: a checkpoint is a path or a state_dict, not {type(value).__name__}"
        with pytest.raises(TypeError, match=says):
            load_douzero_net("landlord", value)  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", ["sanren", "four_player", "laizi"])
def test_douzero_networks_refuse_the_widened_features(checkpoints: dict[str, pathlib.Path], preset: str) -> None:
    """DouZero's networks read DouZero's widths: the other presets' features are refused."""
    bot = DouZeroBot(**checkpoints)
    game = dz.Game(seed=4, rules=dz.Rules.preset(preset))
    while game.phase == "bidding":
        game.step(game.legal_actions()[-1])
    assert encode.douzero(game)["x_batch"].shape[0] == len(game.legal_actions())  # the features exist
    with pytest.raises(ValueError, match="DouZero's setting only"):
        bot.values(game)
