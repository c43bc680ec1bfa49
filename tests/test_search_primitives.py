"""Primitives for writing a search: batch rollouts, information sets and their keys,
stepping by action id (issue 29, item 2).

Rollouts are checked row by row against ``playout`` on the row's stream, and against
themselves on other thread counts; information sets against the worlds of their seat
(every world has the seat's) and against the seat's view (the keys of two positions are
equal exactly when their views and histories are); steps by id against ``legal_ids``."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest
from helpers import BIDDINGS, small_seeds, step_counts
from hypothesis import given, settings
from hypothesis import strategies as st

import doudizhu as dz
from doudizhu._core import choose_action

PRESETS = ("standard", "laizi", "laizi2", "happy", "sanren", "four_player")


def played_game(seed: int, steps: int, rules: dz.Rules | None = None, policy: str = "random") -> dz.Game:
    game = dz.Game(seed=seed, rules=rules)
    for i in range(steps):
        if game.phase == "over":
            break
        game.step(choose_action(game, policy, seed + i))
    return game


# ----------------------------------------------------------------------------- rollouts
def test_each_row_is_a_playout_on_its_stream() -> None:
    games = [played_game(seed, 12) for seed in range(5)]
    payouts = dz.rollouts(games, "random", seed=9, copies=3)
    assert payouts.dtype == np.int64 and payouts.shape == (15, 3)
    for row in range(15):
        end = dz.playout(games[row // 3], "random", seed=dz.game_seed(9, row))
        assert tuple(payouts[row]) == end.result.payouts
    assert all(game.phase != "over" for game in games)  # the games are copied, not played


@settings(max_examples=15, deadline=None)
@given(seed=small_seeds, steps=step_counts, threads=st.integers(2, 4), preset=st.sampled_from(PRESETS))
def test_rollouts_are_the_same_on_any_threads(seed: int, steps: int, threads: int, preset: str) -> None:
    game = played_game(seed, steps, dz.Rules.preset(preset))
    for seat in (None, seed % game.seats):
        one = dz.rollouts(game, "random", seed=seed, copies=130, seat=seat)
        assert one.shape == (130, game.seats)
        assert (one.sum(axis=1) == 0).all()
        assert (dz.rollouts(game, "random", seed=seed, copies=130, seat=seat, threads=threads) == one).all()


def test_rollouts_of_worlds_value_a_position_for_its_seat() -> None:
    game = played_game(4, 14, dz.Rules(bidding="none"), "fast_heuristic")
    worlds = dz.rollouts(game, "fast_heuristic", seed=1, copies=200, seat=game.to_move)
    real = dz.rollouts(game, "fast_heuristic", seed=1, copies=200)
    # The hidden cards move between worlds, and the fast heuristic plays each its own way.
    assert len({tuple(row) for row in worlds}) > 1
    assert not (worlds == real).all()
    # A world of the landlord's seat never changes who is landlord: payouts keep their signs.
    lord = game.landlord
    assert all(row[lord] == -sum(row[s] for s in range(3) if s != lord) for row in worlds)


def test_rollouts_take_a_policy_per_seat_and_refuse_mixed_seats() -> None:
    game = played_game(2, 10)
    assert dz.rollouts(game, ["random", "heuristic", "fast_heuristic"], copies=4).shape == (4, 3)
    puzzle = dz.Game.from_position(["332", "A2"], landlord=0, to_move=0)
    assert dz.rollouts([puzzle] * 2, "heuristic").shape == (2, 2)
    with pytest.raises(ValueError, match="same seats"):
        dz.rollouts([game, puzzle])
    assert dz.rollouts([]).shape == (0, 0)


def test_rollouts_refuse_bad_values_naming_them() -> None:
    game = played_game(2, 10)
    for kwargs, says in (({"copies": 0}, "copies"), ({"copies": 10**9}, "copies"), ({"threads": 0}, "threads"),
                         ({"seat": 3}, "seat"), ({"policy": "nope"}, "nope"), ({"policy": ["random"] * 2}, "per seat")):
        with pytest.raises(ValueError, match=says):
            dz.rollouts(game, **kwargs)
    with pytest.raises(ValueError, match="at most"):
        dz.rollouts([game] * 1000, copies=10**6)


def test_a_finished_game_pays_its_result() -> None:
    game = played_game(3, 500)
    assert game.phase == "over"
    assert (dz.rollouts(game, copies=3, seat=1) == np.array([game.result.payouts] * 3)).all()


# ----------------------------------------------------------------------- information sets
@settings(max_examples=40, deadline=None)
@given(seed=small_seeds, steps=step_counts, preset=st.sampled_from(PRESETS), bidding=st.sampled_from(BIDDINGS))
def test_every_world_of_a_seat_has_its_infoset(seed: int, steps: int, preset: str, bidding: str) -> None:
    rules = dz.Rules.preset(preset)
    if preset != "four_player":
        rules = rules.replace(bidding=bidding)
    game = played_game(seed, steps, rules)
    for seat in range(game.seats):
        mine = game.infoset(seat)
        assert mine.key == game.infoset_key(seat)
        worlds = dz.sample_worlds(game, seat, 25, seed=seed)
        assert {world.infoset_key(seat) for world in worlds} == {mine.key}
        assert all(world.infoset(seat) == mine and hash(world.infoset(seat)) == hash(mine) for world in worlds)
        assert all(world.seat_view(seat) == game.seat_view(seat) for world in worlds)


def test_keys_are_equal_exactly_when_what_the_seat_knows_is() -> None:
    # The oracle is written here from the public API: the seat's view (the rules and the
    # deals thrown in among it) with the whole history. Positions of a few deals, every seat.
    by_key: dict[int, object] = {}
    known: dict[object, int] = {}
    for seed in range(30):
        rules = dz.Rules(bidding=BIDDINGS[seed % 3])
        game = dz.Game(seed=seed % 10, rules=rules)  # three rules on one deal
        rng = random.Random(seed)
        while True:
            for seat in range(3):
                view = game.seat_view(seat)
                oracle = (seat, repr(sorted(view.items())), tuple((s, str(a)) for s, a in game.history))
                key = game.infoset_key(seat)
                assert by_key.setdefault(key, oracle) == oracle
                assert known.setdefault(oracle, key) == key
            if game.phase == "over":
                break
            game.step(rng.choice(game.legal_actions()))
    assert len(by_key) > 1000


def test_keys_tell_apart_what_a_seat_saw_of_the_deals_thrown_in() -> None:
    # Its own hand and the wild rank of each deal nobody bid on: seen, so known.
    laizi = dz.Rules.preset("laizi")
    hands, kitty = dz.Game(seed=11, rules=laizi).deals[0][:2]
    games = [dz.Game.from_deal(dealt, kitty, rules=laizi, seed=99, wild=wild)
             for dealt, wild in (([*hands], 3), ([hands[1], hands[0], hands[2]], 3), ([*hands], 5))]
    for game in games:
        for _ in range(3):
            game.bid(0)
    a, swapped, other_wild = games
    assert a.deals[1] == swapped.deals[1] == other_wild.deals[1] and a.history == swapped.history
    assert [a.infoset_key(seat) == swapped.infoset_key(seat) for seat in range(3)] == [False, False, True]
    assert [a.infoset(seat) == swapped.infoset(seat) for seat in range(3)] == [False, False, True]
    assert [a.seat_view(seat) == swapped.seat_view(seat) for seat in range(3)] == [False, False, True]
    assert a.seat_view(0)["thrown_in"] == ((hands[0], (3,)),)
    assert all(a.infoset_key(seat) != other_wild.infoset_key(seat) for seat in range(3))
    for seat in range(3):
        assert {world.infoset_key(seat) for world in dz.sample_worlds(a, seat, 20, seed=seat)} == {a.infoset_key(seat)}


def test_the_infoset_is_the_seat_view() -> None:
    game = played_game(6, 30)
    view = game.infoset(2)
    assert view.to_dict() == game.seat_view(2)
    for name, value in game.seat_view(2).items():
        assert getattr(view, name) == value
    assert isinstance(view, dz.Infoset) and view.seat == 2 and view.hand == game.hand(2)
    assert copy.copy(view) == view and copy.deepcopy(view) == view and view != game.infoset(1)
    assert view != view.to_dict() and view != view.key
    assert len({view, game.infoset(2), copy.copy(view)}) == 1
    with pytest.raises(AttributeError):
        view.seat = 0  # type: ignore[misc]
    assert repr(view).startswith("<Infoset of seat 2, playing")


def test_the_view_tells_apart_what_the_infoset_does() -> None:
    # The dict left out the rules and the cards a position leaves out of play: games its
    # seat tells apart had equal views.
    dealt = dz.Game(seed=5), dz.Game(seed=5, rules=dz.Rules.preset("openspiel"))
    positions = [dz.Game.from_position(hands, 0, to_move=0) for hands in (["3", "4", "5"], ["3", "6", "7"])]
    for a, b in (dealt, positions):
        assert a.infoset(0) != b.infoset(0) and a.seat_view(0) != b.seat_view(0)
    assert dealt[1].seat_view(0)["rules"] == dz.Rules.preset("openspiel") and dealt[0].seat_view(0)["start"] is None
    assert [game.seat_view(0)["unseen"] for game in positions] == [dz.Cards("45"), dz.Cards("67")]
    assert positions[0].seat_view(0)["start"] == {"last": None, "last_by": None, "to_move": 0}


def test_an_infoset_hides_what_its_seat_cannot_see() -> None:
    game = dz.Game(seed=8)  # in the auction: the kitty lies face down
    view = game.infoset(0)
    assert view.kitty is None and view.hand_sizes == (17, 17, 17)
    text = repr(view.to_dict())
    for seat in (1, 2):
        assert str(game.hand(seat)) not in text


# ---------------------------------------------------------------------------- step by id
@settings(max_examples=30, deadline=None)
@given(seed=small_seeds, steps=step_counts, preset=st.sampled_from(PRESETS), data=st.data())
def test_step_by_id_takes_the_legal_action_of_its_ids(seed: int, steps: int, preset: str, data: st.DataObject) -> None:
    game = played_game(seed, steps, dz.Rules.preset(preset))
    space = dz.ActionSpace(game.rules)
    if game.phase == "over":
        before = game.to_record()
        with pytest.raises(dz.IllegalActionError):
            space.step(game, 0)
        assert game.to_record() == before
        return
    legal = game.legal_actions()
    i = data.draw(st.integers(0, len(legal) - 1))
    ids, stand_ins = space.legal_ids(game), space.legal_stand_in_ids(game)
    by_action = game.copy()
    by_action.step(legal[i])
    assert space.step(game, int(ids[i]), int(stand_ins[i])) == legal[i]
    assert game.to_record() == by_action.to_record()


def test_an_id_that_is_not_legal_now_changes_nothing() -> None:
    game = played_game(5, 20, dz.Rules(bidding="none"))
    space = dz.ActionSpace(game.rules)
    legal = set(space.legal_ids(game).tolist())
    before = game.to_record()
    refused = [i for i in range(space.size) if i not in legal]
    for i in refused[:: max(1, len(refused) // 500)]:
        with pytest.raises(dz.IllegalActionError, match=f"id {i} .* is not legal now"):
            space.step(game, i)
    with pytest.raises(dz.IllegalActionError, match="stand-in id 1"):
        space.step(game, min(legal), 1)
    assert game.to_record() == before
    with pytest.raises(ValueError, match=r"outside|must be in"):
        space.step(game, space.size)
    with pytest.raises(ValueError, match="rules differ"):
        dz.ActionSpace(dz.Rules.preset("laizi")).step(game, 0)
    assert game.to_record() == before


@pytest.mark.parametrize("preset", ["standard", "laizi", "laizi2"])
def test_a_world_undone_past_a_redeal_and_replayed_is_the_same_world(preset: str) -> None:
    # Taking a redeal again dealt from the world's fresh stream, not the world's own deal:
    # every hand changed (and the replay was often illegal). Under wild cards the world's
    # deal lost its wild ranks, and the redeal came back with none.
    game = dz.Game(seed=1, rules=dz.Rules.preset(preset))
    for _ in range(3):
        game.bid(0)  # nobody bids: a redeal
    game.bid(3)
    game.step(game.legal_actions()[0])
    for world in [game, *dz.sample_worlds(game, 0, 20, seed=0)]:
        again = world.copy()
        history = world.history
        for _ in history:
            again.undo()
        for _, action in history:
            again.step(action)
        assert again.hash == world.hash and [again.hand(s) for s in range(3)] == [world.hand(s) for s in range(3)]
        assert again.wild_ranks == game.wild_ranks and again.infoset_key(0) == game.infoset_key(0)


def test_a_world_never_takes_back_a_real_deal_that_undo_took_back() -> None:
    game = dz.Game(seed=1)
    for _ in range(3):
        game.bid(0)
    real = [game.hand(s) for s in range(3)]
    game.undo()  # the redeal taken back: the game keeps its deal, to deal it again
    game.bid(0)
    assert [game.hand(s) for s in range(3)] == real
    game.undo()
    for world in dz.sample_worlds(game, 0, 20, seed=1):
        world.bid(0)
        assert world.hand(0) != real[0] or [world.hand(s) for s in (1, 2)] != real[1:]
