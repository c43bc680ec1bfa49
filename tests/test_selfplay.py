"""Self-play: determinism across threads, records that replay, files, the Python hook."""

from __future__ import annotations

import dataclasses
import io
import os
import pathlib
import pkgutil
import random
import re
import threading
import types
import zipfile
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from helpers import FULL_DECK, replay_selfplay_game, spoiled_zips

import doudizhu as dz
import doudizhu.envs
from doudizhu import Action, Game, Rules, SelfPlayResult, lockstep
from doudizhu.bots import Heuristic, Neural


def arrays(result: SelfPlayResult) -> dict[str, Any]:
    return {f.name: getattr(result, f.name) for f in dataclasses.fields(result)}


def assert_same(a: SelfPlayResult, b: SelfPlayResult) -> None:
    for name, value in arrays(a).items():
        other = arrays(b)[name]
        assert (value is None) == (other is None), name
        if value is not None:
            assert np.array_equal(value, other), name


def test_the_same_seed_gives_the_same_games_whatever_the_threads() -> None:
    one = dz.selfplay(600, seed=11, threads=1, record=True)
    assert_same(one, dz.selfplay(600, seed=11, threads=2, record=True))
    assert_same(one, dz.selfplay(600, seed=11, threads=5, record=True))
    assert not np.array_equal(one.hands, dz.selfplay(600, seed=12, threads=1).hands)


@pytest.mark.parametrize("preset", ["standard", "douzero", "openspiel"])
def test_games_are_whole_and_zero_sum(preset: str) -> None:
    result = dz.selfplay(2000, seed=3, rules=Rules.preset(preset))
    assert len(result) == 2000
    assert np.all(result.payouts.sum(axis=1) == 0)
    dealt = np.bitwise_or.reduce(result.hands, axis=1)  # disjoint hands: the sum is the union
    assert np.all(result.hands.sum(axis=1, dtype=np.uint64) + result.kitty == np.uint64(FULL_DECK.mask))
    assert dealt.shape == (2000,)
    assert np.all(result.moves > 0) or preset == "openspiel"
    assert 0.3 < result.landlord_win_rate < 0.8


def test_records_replay_to_the_same_outcomes() -> None:
    result = dz.selfplay(150, seed=9, rules=Rules(bidding="call_rob"), record=True)
    assert result.actions is not None and result.offsets is not None
    for i in range(len(result)):
        game = replay_selfplay_game(result, 9, i, Rules(bidding="call_rob"))
        assert game.result is not None
        assert game.result.payouts == tuple(result.payouts[i])
        assert (game.landlord, game.result.multiplier, game.redeals) == (
            result.landlord[i],
            result.multiplier[i],
            result.redeals[i],
        )


def test_parts_put_together_equal_one_run() -> None:
    whole = dz.selfplay(300, seed=21, record=True)
    parts = [dz.selfplay(n, seed=21, first=k, record=True) for k, n in ((0, 100), (100, 150), (250, 50))]
    assert_same(whole, SelfPlayResult.concatenate(parts))


def test_save_load_and_concatenate(tmp_path: pathlib.Path) -> None:
    a = dz.selfplay(40, seed=1, record=True)
    b = dz.selfplay(30, seed=2, record=True)
    a.save(tmp_path / "a.npz")
    assert_same(a, SelfPlayResult.load(tmp_path / "a.npz"))
    both = SelfPlayResult.concatenate([a, b])
    assert len(both) == 70 and both.offsets is not None and both.actions is not None
    assert both.offsets[-1] == len(both.actions)
    tail = both.actions[both.offsets[40] : both.offsets[41]]
    assert b.actions is not None and b.offsets is not None
    assert np.array_equal(tail, b.actions[b.offsets[0] : b.offsets[1]])


def test_concatenate_refuses_parts_it_cannot_join_whole() -> None:
    # A part without actions made the join drop every part's actions silently; a generator,
    # a part of another type or of another table size raised NumPy's or Python's own errors.
    recorded, bare = dz.selfplay(3, seed=1, record=True), dz.selfplay(2, seed=2)
    four = dz.selfplay(2, seed=3, rules=Rules.preset("four_partner"))
    with pytest.raises(ValueError, match=r"parts\[1\] has no actions"):
        SelfPlayResult.concatenate([recorded, bare])
    with pytest.raises(ValueError, match=r"parts\[1\] has 4 seats, parts\[0\] 3"):
        SelfPlayResult.concatenate([bare, four])
    with pytest.raises(TypeError, match=r"parts\[1\] must be a SelfPlayResult, not str"):
        SelfPlayResult.concatenate([bare, "x"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="parts must be a sequence of SelfPlayResult, not generator"):
        SelfPlayResult.concatenate(p for p in [bare])  # type: ignore[arg-type]
    assert len(SelfPlayResult.concatenate([bare, bare])) == 4


@pytest.mark.parametrize("path", [b"/tmp/x.npz", None, 3])
def test_save_refuses_what_names_no_file(path: Any) -> None:
    says = f"path must be a str, an os.PathLike or a binary file object, not {type(path).__name__}$"
    with pytest.raises(TypeError, match=says):
        dz.selfplay(1, seed=1).save(path)


def test_a_save_that_fails_leaves_the_old_file_whole(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "run.npz"
    dz.selfplay(20, seed=1).save(path)
    before = path.read_bytes()

    def disk_full(file: Any, **arrays: Any) -> None:
        file.write(b"PK\x03\x04 half a zip")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(np, "savez_compressed", disk_full)
    with pytest.raises(OSError, match="No space left"):
        dz.selfplay(30, seed=2).save(path)
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["run.npz"]


def test_writers_of_one_path_at_once_each_write_it_whole(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "run.npz"
    runs = [dz.selfplay(20, seed=seed) for seed in (1, 2)]
    errors: list[BaseException] = []

    def save_often(run: SelfPlayResult) -> None:
        try:
            for _ in range(40):
                run.save(path)
        except BaseException as error:  # reported by the assertion below
            errors.append(error)

    writers = [threading.Thread(target=save_often, args=(run,)) for run in runs]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    assert errors == [] and [p.name for p in tmp_path.iterdir()] == ["run.npz"]
    assert any(SelfPlayResult.load(path).hands.tolist() == run.hands.tolist() for run in runs)


def last_legal(observation: dict[str, Any], legal: Sequence[Action]) -> Action:
    return legal[-1]  # bids 3 at once, then plays the last move listed


def test_a_python_policy_plays_the_same_deals() -> None:
    hooked = dz.selfplay(20, policy=last_legal, seed=4, record=True)
    built_in = dz.selfplay(20, seed=4)
    same_deal = (hooked.redeals == 0) & (built_in.redeals == 0)
    assert same_deal.any()
    assert np.array_equal(hooked.hands[same_deal], built_in.hands[same_deal])
    assert np.all(hooked.payouts.sum(axis=1) == 0)
    rng = random.Random(0)
    uniform = dz.selfplay(10, policy=lambda obs, legal: rng.choice(legal), seed=4)
    assert len(uniform) == 10


class FastBot:
    """The fast heuristic as a Python bot that decides one game a call: deterministic."""

    def act(self, game: Game) -> Action:
        return dz.choose_action(game, "fast_heuristic", 0)


class BatchedFastBot:
    """The same choices, many games a call (``act_many``); keeps each call's size."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def act(self, game: Game) -> Action:
        raise AssertionError("the runners ask a batching bot through act_many")

    def act_many(self, games: Sequence[Game]) -> list[Action]:
        self.calls.append(len(games))
        return [dz.choose_action(game, "fast_heuristic", 0) for game in games]


class PeekingBot:
    """Plays the first legal action and keeps, at each decision, the hands it was shown."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, int, list[int]]] = []  # (seat, actions so far, every hand)

    def act(self, game: Game) -> Action:
        self.seen.append((game.to_move, len(game.history), [game.hand(s).mask for s in range(3)]))  # type: ignore[arg-type]
        return game.legal_actions()[0]


@pytest.mark.parametrize("preset", ["standard", "douzero", "four_player"])
def test_python_seats_play_on_the_core_runner_as_the_builtin_they_copy(preset: str) -> None:
    # FastBot decides in Python what fast_heuristic decides in C++: the same games, one
    # runner whoever sits, and the batching bot is asked for many tables a call.
    rules, seed, games = Rules.preset(preset), 6, 70
    batched = BatchedFastBot()
    players: list[Any] = [batched, "random", batched, "heuristic"][: rules.players]
    builtin = ["fast_heuristic" if p is batched else p for p in players]
    result = dz.selfplay(games, policy=players, seed=seed, rules=rules, record=True, threads=2)
    expected = dz.selfplay(games, policy=builtin, seed=seed, rules=rules, record=True, threads=1)
    assert result.payouts.tolist() == expected.payouts.tolist()
    assert result.moves.tolist() == expected.moves.tolist()
    assert result.actions is not None and expected.actions is not None
    assert result.actions.tobytes() == expected.actions.tobytes()
    python_seats = int(np.isin(result.actions["seat"], [0, 2]).sum())
    assert sum(batched.calls) == python_seats and max(batched.calls) > games // 4


def test_evaluate_batches_a_bot_and_scores_as_its_builtin_twin() -> None:
    rules, seed, deals = Rules(), 2, 12
    batched = BatchedFastBot()
    result = dz.evaluate(batched, "random", deals=deals, rules=rules, seed=seed, threads=2)
    twin = dz.evaluate("fast_heuristic", "random", deals=deals, rules=rules, seed=seed, threads=1)
    for name, column in twin.columns.items():
        assert result.columns[name].tolist() == column.tolist(), name
    assert max(batched.calls) > deals  # a call for tables of several deals


def test_a_python_player_sees_its_own_hand_and_redealt_others() -> None:
    rules, games = Rules.preset("douzero"), 20
    bot = PeekingBot()
    result = dz.selfplay(games, policy=[bot, "random", "random"], seed=4, rules=rules, record=True)
    assert result.actions is not None and result.offsets is not None
    real = []  # (actions so far, every hand) of the real games at each of the bot's decisions
    for g in range(games):
        game = Game(seed=dz.game_seed(4, g), rules=rules, first_bidder=g % 3)
        for seat, action in dz.actions_from_rows(result.actions[result.offsets[g]:result.offsets[g + 1]]):
            if seat == 0:
                real.append((len(game.history), [game.hand(s).mask for s in range(3)]))
            game.step(action)
    # The bot was asked across tables in batches: match its decisions to the real ones by
    # their point in the hand and its own hand, which it must see as it is.
    seen = sorted((n, hands) for _, n, hands in bot.seen)
    assert [(n, hands[0]) for n, hands in seen] == sorted((n, hands[0]) for n, hands in real)
    others = {(n, hands[0]): hands[1:] for n, hands in real}
    assert sum(hands[1:] != others[(n, hands[0])] for n, hands in seen) > len(seen) // 2


class RebuildingBot:
    """Tries every way back to the real hands from the game it is handed: the seed's deal,
    the deals thrown in before, and undo back to the start. In the auction, where 34
    cards are out of sight, a world that deals them as they really are is no accident."""

    def __init__(self) -> None:
        self.tries: list[list[int]] = []  # hands of seats 1 and 2 each way found

    def act(self, game: Game) -> Action:
        rebuilt = Game(seed=game.seed, rules=game.rules)
        self.tries.append([rebuilt.hand(s).mask for s in (1, 2)])
        if game.phase == "bidding":
            self.tries.append([hands[s].mask for hands, _, _ in game.deals for s in (1, 2)])
            copy = game.copy()
            while copy.history:
                copy.undo()
            self.tries.append([copy.hand(s).mask for s in (1, 2)])
        return game.legal_actions()[0]  # passes in the auction: redeals, whose earlier deals stay in the game


def test_no_way_back_to_the_real_hands_from_a_handed_game() -> None:
    rules, games = Rules(), 30
    bot = RebuildingBot()
    result = dz.selfplay(games, policy=[bot, "random", "random"], seed=6, rules=rules, record=True)
    assert result.actions is not None and result.offsets is not None
    real = set()  # every hand a real deal of the run dealt to seats 1 and 2
    for g in range(games):
        game = Game(seed=dz.game_seed(6, g), rules=rules, first_bidder=g % 3)
        for _, action in dz.actions_from_rows(result.actions[result.offsets[g]:result.offsets[g + 1]]):
            game.step(action)
        real |= {hands[s].mask for hands, _, _ in game.deals for s in (1, 2)}
    assert any(len(hands) > 2 for hands in bot.tries)  # redeals were handed
    assert not any(real & set(hands) for hands in bot.tries)


def test_a_table_run_checks_every_action_before_applying_any() -> None:
    run = dz._core.selfplay_run(4, [None, "random", "random"], seed=1, rules=Rules.preset("douzero"))
    tables, players = run.advance()
    assert len(tables) == 4 and set(players.tolist()) == {0}
    views = run.views(tables)
    good = [view.legal_actions()[0] for view in views]
    illegal = dz.Action.bid(3)
    for bad_tables, bad_actions, error in [
        ([tables[0], tables[0]], good[:2], "given twice"),
        (tables, [*good[:3], illegal], "not legal"),
        (tables, good[:3], "one action for each table"),
        ([99, *tables[1:]], good, "not waiting"),
    ]:
        with pytest.raises(ValueError, match=error):
            run.apply(bad_tables, bad_actions)
        assert [len(view.history) for view in run.views(tables)] == [len(view.history) for view in views]
    with pytest.raises(TypeError, match="Action"):
        run.apply(tables, ["pass"] * 4)
    with pytest.raises(ValueError, match="not over"):
        run.result()
    run.apply(tables, good)
    with pytest.raises(ValueError, match="not waiting"):
        run.views(tables)  # played on: the bot's seat is not to move at every table


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match=r"games must be in 0\.\.1000000000000"):
        dz.selfplay(-1)
    with pytest.raises(ValueError, match="unknown policy 'smart'"):
        dz.selfplay(1, policy="smart")
    with pytest.raises(ValueError, match="threads"):
        dz.selfplay(1, threads=0)
    with pytest.raises(ValueError, match="one per seat"):
        dz.selfplay(1, policy=["random", "heuristic"])
    with pytest.raises(TypeError, match="callable"):
        dz.selfplay(1, policy=3)  # type: ignore[arg-type]
    # Bytes were read as one policy per seat, a bot's class as a bot ("act() missing ...").
    with pytest.raises(TypeError, match="not bytes"):
        dz.selfplay(1, policy=b"neural")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not bytes"):
        dz.playout(dz.Game(seed=1), b"neural")
    with pytest.raises(TypeError, match=r"rollout: .* not bytes"):
        dz.ismcts(dz.Game(seed=1), rollout=b"neural")
    with pytest.raises(TypeError, match=r"opponents: .* not bytearray"):
        dz.envs.VectorEnv(2, opponents=bytearray(b"random"))
    with pytest.raises(TypeError, match=r"policy: Neural is a class; give a bot, such as Neural\(\)"):
        dz.selfplay(1, policy=Neural)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"Heuristic is a class"):
        dz.evaluate(Heuristic, "random", deals=1)  # type: ignore[arg-type]
    never_bids = dz.selfplay(1, policy=lambda obs, legal: legal[0])  # always passes the auction
    assert never_bids.redeals[0] == dz.Rules().max_redeals and never_bids.landlord[0] == -1  # the hand ends void
    with pytest.raises(dz.IllegalActionError, match=r"the policy .<lambda>. at seat \d returned .*, not one of the"):
        dz.selfplay(
            1, policy=lambda obs, legal: Action.bid(3) if legal[0].type != dz.ActionType.BID else Action.pass_()
        )


@pytest.mark.parametrize("heuristic_lands", [True, False])
def test_the_heuristic_beats_random_on_both_sides(heuristic_lands: bool) -> None:
    # Fixed landlord (game i: seat i % 3); the heuristic plays seat 0, or seats 1 and 2.
    policy = ["heuristic", "random", "random"] if heuristic_lands else ["random", "heuristic", "heuristic"]
    result = dz.selfplay(1500, policy=policy, seed=17, rules=Rules(bidding="none"))
    seat0_lands = result.landlord == 0
    # Where seat 0 is the landlord, and where it is a peasant facing a landlord of the other policy.
    seat0_wins_as_landlord = result.landlord_won[seat0_lands].mean()
    seat0_wins_as_peasant = 1 - result.landlord_won[~seat0_lands].mean()
    if heuristic_lands:
        assert seat0_wins_as_landlord > 0.85 and seat0_wins_as_peasant > 0.8
    else:
        assert seat0_wins_as_landlord < 0.1 and seat0_wins_as_peasant < 0.45


def test_heuristic_players_bid_and_stay_legal() -> None:
    result = dz.selfplay(2000, policy="heuristic", seed=5, record=True)
    assert np.all(result.payouts.sum(axis=1) == 0) and result.redeals.mean() < 0.5
    game = Game.from_position(["33", "4", "KK"], landlord=0, to_move=2, last="4", last_by=1)
    assert str(dz._core.choose_action(game, "heuristic", 0)) == "pass"  # the partner's 4 stands
    game = Game.from_position(["3", "K", "5"], landlord=1, to_move=1, last="4", last_by=0)
    assert str(dz._core.choose_action(game, "heuristic", 0)) == "K"  # going out never waits
    game = Game.from_position(["3", "2222K", "5"], landlord=1, to_move=1, last="4", last_by=0)
    assert str(dz._core.choose_action(game, "heuristic", 0)) == "K"  # no bomb where a K will do


# --- Saved runs read back as untrusted files ------------------------------------------
# SelfPlayResult.load raised EOFError, BadZipFile, zlib.error, NotImplementedError,
# KeyError and IndexError on files that are not saved runs, and loaded arrays of
# different lengths; each is one RecordError naming what is wrong now.

RUN = dz.selfplay(6, seed=3, record=True)


def _saved(result: SelfPlayResult = RUN) -> bytes:
    buffer = io.BytesIO()
    result.save(buffer)  # type: ignore[arg-type]
    return buffer.getvalue()


def _arrays(result: SelfPlayResult = RUN) -> dict[str, Any]:
    """The arrays of a saved run, as a test changes them before writing them back."""
    with np.load(io.BytesIO(_saved(result))) as data:
        return {name: data[name] for name in data.files}


def _written(**arrays: Any) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _load(data: bytes) -> SelfPlayResult:
    return SelfPlayResult.load(io.BytesIO(data))


def test_saved_runs_read_back_equal(tmp_path: pathlib.Path) -> None:
    for result in (RUN, dz.selfplay(4, seed=1), dz.selfplay(3, seed=2, record=True, rules=dz.Rules.preset("laizi2")),
                   dz.selfplay(2, seed=5, record=True, rules=dz.Rules.preset("four_player")), dz.selfplay(0),
                   dz.selfplay(60, seed=1, record=True, rules=dz.Rules.preset("openspiel"))):  # void hands among them
        result.save(tmp_path / "run.npz")
        loaded = SelfPlayResult.load(tmp_path / "run.npz")
        for field in dataclasses.fields(SelfPlayResult):
            mine, theirs = getattr(result, field.name), getattr(loaded, field.name)
            assert (mine is None and theirs is None) or np.array_equal(mine, theirs), field.name
    with pytest.raises(FileNotFoundError):  # a path that is not there is no bad file
        SelfPlayResult.load(tmp_path / "missing.npz")


def test_files_of_older_formats_still_load() -> None:
    arrays = _arrays()
    del arrays["wild"], arrays["wild_high"]  # from before wild cards
    arrays["actions"] = arrays["actions"][:, :2].reshape(-1)  # rows of 16 bytes, saved flat
    loaded = _load(_written(**arrays))
    assert (loaded.wild == -1).all() and (loaded.wild_high == -1).all()
    assert dz.actions_from_rows(loaded.actions) == dz.actions_from_rows(RUN.actions)


def _spoiled(arrays: dict[str, Any], **changes: Any) -> bytes:
    return _written(**{**{k: v for k, v in arrays.items() if k not in changes or changes[k] is not None},
                       **{k: v for k, v in changes.items() if v is not None}})


def _zip_cases() -> list[tuple[bytes, str]]:
    spoiled = spoiled_zips(_saved())
    npy = io.BytesIO()
    np.save(npy, np.zeros(3))
    huge = io.BytesIO()  # a header that claims a terabyte, among the other members
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<u8", "fortran_order": False, "shape": (2**37, 3)})
    with zipfile.ZipFile(huge, "w") as archive:
        for name, array in _arrays().items():
            member = io.BytesIO()
            np.save(member, array)
            archive.writestr(f"{name}.npy", header.getvalue() + b"\0" * 48 if name == "hands" else member.getvalue())
    alone = io.BytesIO()  # one member, unreadable: the names are checked before any data is read
    with zipfile.ZipFile(alone, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("hands.npy", b"\0" * 1_000_000)
    zeros = {name: np.zeros((200_000, 3) if name in ("hands", "payouts") else 200_000, array.dtype)
             for name, array in _arrays().items() if name not in ("actions", "offsets")}
    inflating = io.BytesIO()  # every column consistent, 14 MB of zeros in a few kilobytes
    np.savez_compressed(inflating, **zeros)
    lying = io.BytesIO()  # 'hands' alone of 200,000 games: seen in the headers, before any data
    np.savez_compressed(lying, **{**_arrays(), "hands": zeros["hands"]})
    return [
        (inflating.getvalue(), "it expands"), (lying.getvalue(), "'payouts' has shape (6, 3), not (200000, 3)"),
        (spoiled["empty"], "BadZipFile"), (spoiled["cut short"], "BadZipFile"),
        (spoiled["unknown compression"], "compression"), (spoiled["corrupt data"], "Error"),
        (npy.getvalue(), "BadZipFile"),
        (huge.getvalue(), "'hands' claims 3298534883328 bytes of data"),
        (alone.getvalue(), "'base' is missing"),
    ]


@pytest.mark.parametrize("source", [3, None, b"run.npz"])
def test_a_source_that_is_no_path_or_file_is_a_type_error(source: object) -> None:
    with pytest.raises(TypeError, match=f"path must be a str, an os.PathLike or a binary file object, not "
                                        f"{type(source).__name__}"):
        SelfPlayResult.load(source)  # type: ignore[arg-type]


def test_a_progress_that_is_not_callable_is_refused_before_any_game(monkeypatch: pytest.MonkeyPatch) -> None:
    played = []
    monkeypatch.setattr(dz._core.TableRun, "advance", lambda run: played.append(run))
    with pytest.raises(TypeError, match="progress must be a function, not int"):
        dz.evaluate("random", "random", deals=3, progress=5)  # type: ignore[arg-type]
    assert played == []


def test_a_path_that_is_no_regular_file_is_refused_before_it_is_read(tmp_path: pathlib.Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # opened for reading, it would wait for a writer
    for path in (fifo, pathlib.Path("/dev/zero")):  # and this one never ends
        with pytest.raises(dz.RecordError, match="is no regular file"):
            SelfPlayResult.load(path)


def _array_cases() -> list[tuple[bytes, str]]:
    a = _arrays()
    hands = a["hands"].copy()
    hands[2, 0] ^= 1  # a three more in one hand
    offsets = a["offsets"].copy()
    offsets[3] = offsets[2] - 1
    actions = a["actions"].copy()
    actions[5] = np.uint64(2**64 - 1)
    payouts = a["payouts"].copy()
    payouts[1, 0] += 1
    wild, high = np.full(6, 7, np.int8), np.full(6, 3, np.int8)
    flags = a["landlord_won"].copy()
    flags.view(np.uint8)[4] = 2  # NumPy would read it as True
    wrapping = a["payouts"].copy()
    wrapping[0] = [2**63 - 1, 2**63 - 1, 2]  # sums to 2**64: 0 in int64
    void = np.flatnonzero(a["payouts"].any(axis=1))[0]  # a hand that was played, made void
    played = np.flatnonzero(a["landlord"] >= 0)[0]
    rolled = a["payouts"].copy()
    rolled[played] = -rolled[played]  # the stakes turned round: zero-sum still, and the landlord's sign wrong
    crowded = np.concatenate([np.zeros(6, np.int64), a["offsets"][-1:]])  # every action in the last game
    pickled = io.BytesIO()
    np.savez(pickled, **{**a, "landlord": np.array([object()] * 6)}, allow_pickle=True)
    return [
        (_spoiled(a, landlord=None), "'landlord' is missing"),
        (_spoiled(a, landlord=np.array(1, np.int8)), "'landlord' has shape ()"),
        (_spoiled(a, landlord=a["landlord"][:5]), "'landlord' has shape (5,), not (6,)"),
        (_spoiled(a, landlord=a["landlord"].astype(np.float64)), "'landlord' holds float64, not int8"),
        (pickled.getvalue(), "'landlord' holds object"),
        (_spoiled(a, evil=np.zeros(2)), "'evil.npy', which save does not write"),
        (_spoiled(a, hands=a["hands"][:, :2]), "'hands' has shape (6, 2)"),
        (_spoiled(a, offsets=None), "'actions' and 'offsets' are saved together"),
        (_spoiled(a, landlord=np.full(6, 3, np.int8)), "'landlord' of game 0 is 3, outside -1..2"),
        (_spoiled(a, multiplier=np.zeros(6, np.int32)), "'multiplier' of game 0 is 0"),
        (_spoiled(a, wild=wild, wild_high=high), "wild ranks (7, 3) are not (lower, higher)"),
        (_spoiled(a, payouts=payouts), "game 1's payouts do not sum to zero"),
        (_spoiled(a, payouts=wrapping), "game 0's payouts go past 1152921504606846976"),
        (_spoiled(a, hands=hands), "game 2's hands and kitty are not a deal"),
        (_spoiled(a, offsets=offsets), "'offsets' do not cut"),
        (_spoiled(a, offsets=a["offsets"][:-1]), "'offsets' has shape (6,), not (7,)"),
        (_spoiled(a, actions=actions), "'actions' rows["),
        (_spoiled(a, actions=a["actions"][:, :1]), "'actions' has shape"),
        (_spoiled(a, landlord_won=flags), "'landlord_won' of game 4 is the byte 2, not 0 or 1"),
        (_spoiled(a, landlord=np.where(np.arange(6) == void, -1, a["landlord"]).astype(np.int8)),
         f"game {void} has neither landlord nor winner (a void hand), yet payouts"),
        (_spoiled(a, offsets=crowded), f"game 0 records fewer actions than its {a['moves'][0]} moves"),
        (_spoiled(a, payouts=rolled),
         f"game {played}'s landlord {'won' if a['landlord_won'][played] else 'lost'}, yet its payout is"),
    ]


@pytest.mark.parametrize(("data", "says"), _zip_cases() + _array_cases(),
                         ids=lambda x: "" if isinstance(x, bytes) else x)
def test_a_file_that_is_no_saved_run_is_refused_naming_what_is_wrong(data: bytes, says: str) -> None:
    # Before: EOFError, BadZipFile, zlib.error, NotImplementedError, KeyError('landlord'),
    # IndexError, and arrays of different lengths loaded (landlord_win_rate then raised).
    with pytest.raises(dz.RecordError, match="not a saved selfplay .npz: .*" + re.escape(says)):
        _load(data)


def test_each_module_of_the_package_is_what_its_name_imports() -> None:
    # `import doudizhu.x as m` binds the package's attribute x: a function named x would hide the module.
    modules = {info.name for info in pkgutil.iter_modules(dz.__path__)}
    shadowed = [name for name in modules if hasattr(dz, name) and not isinstance(getattr(dz, name), types.ModuleType)]
    assert not shadowed
    assert callable(dz.selfplay) and callable(dz.evaluate) and callable(lockstep.run_tables)  # names the guide uses


@pytest.mark.parametrize("rules", [Rules.preset("happy"), Rules(max_multiplier=2)])
def test_a_recorded_game_replayed_under_rules_that_score_otherwise_is_refused(rules: Rules) -> None:
    # Rules that deal and play alike but score otherwise (happy's doubling, a cap) gave back
    # a game settled otherwise than the run's row, without a word, when rules were forgotten.
    result = dz.selfplay(60, policy="heuristic", seed=9, rules=rules, record=True)
    refused = 0
    for i in range(len(result)):
        assert list(result.game(i, seed=9, rules=rules).result.payouts) == result.payouts[i].tolist()
        try:
            game = result.game(i, seed=9)  # Rules(): the same deal, perhaps another settlement
        except ValueError as error:
            assert f"game {i} is not the run's" in str(error)
            assert re.search(r"its (payouts|multiplier|base) is", str(error))
            refused += 1
        else:  # where Rules() settles alike, the game is the run's
            assert list(game.result.payouts) == result.payouts[i].tolist()
    assert refused > 0


@pytest.mark.parametrize("preset", ["standard", "run_fast", "four_partner", "laizi2"])
def test_a_recorded_game_comes_back_as_a_game_played_to_its_end(preset: str) -> None:
    rules = Rules.preset(preset)
    result = dz.selfplay(40, policy="random", seed=7, rules=rules, record=True, first=5)
    assert preset == "run_fast" or result.redeals.any()  # redealt hands come back too
    for i in range(len(result)):
        game = result.game(i, seed=7, rules=rules, first=5)
        assert game.result is not None and list(game.result.payouts) == result.payouts[i].tolist()
        assert game.to_record()["actions"] == [str(action) for _, action in game.history]
    with pytest.raises(ValueError, match="game 3 is not the run's with seed 8"):
        result.game(3, seed=8, rules=rules, first=5)
    with pytest.raises(ValueError, match="record=True"):
        dz.selfplay(1, rules=rules).game(0, rules=rules)


@pytest.mark.parametrize("column", ["landlord_won", "partner", "winner", "moves", "redeals", "wild", "landlord"])
def test_a_replayed_game_is_held_against_every_column_of_its_row(column: str) -> None:
    # A file whose landlord_won, partner, winner, moves, redeals or wild contradicted the
    # replay loaded and replayed without a word (its landlord win rate changed with them).
    rules = Rules.preset("laizi")
    result = dz.selfplay(3, policy="random", seed=2, rules=rules, record=True)
    saved = getattr(result, column)
    saved[0] = (not saved[0]) if saved.dtype == np.bool_ else (saved[0] + 1 if saved[0] < 2 else 0)
    with pytest.raises(ValueError, match=f"game 0 is not the run's .*: its {column} is"):
        result.game(0, seed=2, rules=rules)
    result.game(1, seed=2, rules=rules)  # the others are still the run's


def test_a_replayed_game_whose_saved_actions_stop_early_is_refused() -> None:
    # Its actions cut (and its moves made to agree) the replay ended unfinished: an assert.
    result = dz.selfplay(3, policy="random", seed=2, record=True)
    offsets = result.offsets.copy()
    kept = np.ascontiguousarray(np.concatenate([result.actions[: offsets[0] + 5], result.actions[offsets[1]:]]),
                                dtype=result.actions.dtype)
    offsets[1:] -= offsets[1] - offsets[0] - 5
    moves = result.moves.copy()
    moves[0] = 0
    cut = dataclasses.replace(result, actions=kept, offsets=offsets, moves=moves)
    with pytest.raises(ValueError, match=r"game 0 is not the run.s .*: its saved actions end before the hand does"):
        cut.game(0, seed=2)
    assert cut.game(1, seed=2).result is not None


def test_a_directory_entry_that_swallows_the_entries_after_it_is_refused() -> None:
    # Python's zipfile stops listing at a comment length that runs over the next entries;
    # the run then read as one saved without its actions, with no error.
    data = bytearray(_saved())
    end = data.rfind(b"PK\x05\x06")
    directory = int.from_bytes(data[end + 16:end + 20], "little")  # where the central directory starts
    entry = data.rfind(b"PK\x01\x02", 0, data.find(b"payouts.npy", directory))  # payouts' entry there
    data[entry + 33] = 1  # its comment's length, 256 more: the entries after it are inside
    with pytest.raises(dz.RecordError, match=r"its end record counts \d+ members, and its directory lists \d+"):
        _load(bytes(data))
    assert _load(_saved()).actions is not None
