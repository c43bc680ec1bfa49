"""The variant four_partner (docs/rules.md, "Four players with a partner") through the
Python API: the rule and preset, the landlord's choice, sides and settlement, positions,
records, self-play and evaluation, the command line."""

from __future__ import annotations

import copy
import io
import json
import pickle
import random
import re

import numpy as np
import pytest
from helpers import check_replay_and_undo, play_randomly, replay_selfplay_game, seeds
from hypothesis import given, settings

import doudizhu as dz
from doudizhu import Action, ActionType, Game, IllegalActionError, Rules

PARTNER = Rules.preset("four_partner")


def auctioned(seed: int = 5) -> Game:
    """A four_partner hand whose auction seat 0 won (three passes, then its bid of 2)."""
    game = Game(seed=seed, rules=PARTNER, first_bidder=1)
    for value in (0, 0, 0, 2):
        game.bid(value)
    return game


def side_of(game: Game, seat: int) -> bool:
    return seat in (game.landlord, game.partner)


# ---------------------------------------------------------------------- rule and preset
def test_preset_is_four_player_with_the_partner_field() -> None:
    assert "four_partner" in Rules.presets()
    assert Rules.preset("four_player").replace(partner=True) == PARTNER
    assert PARTNER.partner and not Rules.preset("four_player").partner
    assert PARTNER.to_dict()["partner"] is True
    assert Rules.preset("four_partner") == Rules(**PARTNER.to_dict())
    with pytest.raises(ValueError, match="rules: partner needs players=4"):
        Rules(partner=True)
    with pytest.raises(TypeError):
        Rules.preset("four_player").replace(partner=1)


# ------------------------------------------------------------------------ the choice
def test_a_partner_named_outside_the_partner_choice_is_refused_by_the_phase() -> None:
    game = dz.Game(seed=0)  # three seats, in the auction
    for seat in (1, 5):
        with pytest.raises(IllegalActionError, match="the auction is on: bid 1-3, or bid 0 to pass"):
            game.choose_partner(seat)


def test_the_landlord_chooses_after_the_kitty() -> None:
    game = auctioned()
    assert game.phase == "partner" and game.landlord == 0 and game.to_move == 0
    assert len(game.hand(0)) == 33 and game.partner is None
    legal = game.legal_actions()
    assert legal == [Action.partner(None), Action.partner(1), Action.partner(2), Action.partner(3)]
    assert [str(a) for a in legal] == ["alone", "partner 1", "partner 2", "partner 3"]
    assert all(a.type == ActionType.PARTNER for a in legal) and [a.value for a in legal] == [0, 2, 3, 4]
    before = game.hash
    with pytest.raises(IllegalActionError, match="its own partner"):
        game.choose_partner(0)
    with pytest.raises(IllegalActionError):
        game.bid(3)
    with pytest.raises(IllegalActionError):
        game.step("3")
    for seat in (4, -1, 2**70):  # was a plain ValueError saying 0..3, whatever the seats
        with pytest.raises(IllegalActionError, match=r"the partner must be a seat in 0\.\.3"):
            game.choose_partner(seat)
    with pytest.raises(TypeError, match="seat must be an int or None, not str"):
        game.choose_partner("2")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="partner 0"):
        game.step("partner 7")
    assert game.hash == before and game.phase == "partner"
    game.step("partner 2")
    assert game.phase == "playing" and game.partner == 2 and game.to_move == 0 and game.last is None
    for seat in range(4):  # public: every seat sees it
        assert game.seat_view(seat)["partner"] == 2 and game.infoset(seat).partner == 2
    game.undo()
    assert game.hash == before and game.partner is None
    game.choose_partner(None)
    assert game.phase == "playing" and game.partner is None and str(game.history[-1][1]) == "alone"


def test_actions_pickle_and_copy() -> None:
    for action in (Action.partner(None), Action.partner(3)):
        assert pickle.loads(pickle.dumps(action)) == action and copy.copy(action) == action
    with pytest.raises(ValueError):
        Action.partner(4)


def test_the_choice_is_only_for_the_partner_rule() -> None:
    game = Game(seed=5, rules=Rules.preset("four_player"), first_bidder=1)
    for value in (0, 0, 0, 2):
        game.bid(value)
    assert game.phase == "playing"
    with pytest.raises(IllegalActionError):
        game.choose_partner(2)


# ------------------------------------------------------------------------ settlement
def test_score_with_a_partner_is_two_against_two() -> None:
    won = dz.score(2, bombs=1, players=4, landlord=1, partner=3)
    assert won.payouts == (-4, 4, -4, 4) and won.partner == 3
    lost = dz.score(2, bombs=1, players=4, landlord=1, partner=3, landlord_won=False)
    assert lost.payouts == (4, -4, 4, -4)
    alone = dz.score(2, bombs=1, players=4, landlord=1)
    assert alone.payouts == (-4, 12, -4, -4) and alone.partner is None
    with pytest.raises(ValueError, match="partner"):
        dz.score(1, players=4, landlord=1, partner=1)
    with pytest.raises(ValueError, match="partner"):
        dz.score(1, players=3, landlord=1, partner=2)
    assert pickle.loads(pickle.dumps(won)) == won


def test_a_partner_going_out_wins_for_the_landlord() -> None:
    # Seat 1 (an opponent) leads, seat 2 (the partner) goes out over it.
    game = Game.from_position(["34", "36", "7", "38"], landlord=0, to_move=1, rules=PARTNER, partner=2)
    game.play("6")
    game.play("7")
    result = game.result
    assert result is not None and result.landlord_won and not result.spring and result.partner == 2
    assert result.payouts == (1, -1, 1, -1)


def test_spring_and_anti_spring_two_against_two() -> None:
    spring = Game.from_position(["34", "36", "7", "38"], landlord=0, to_move=0, rules=PARTNER, partner=2)
    for action in ("4", "pass", "7"):
        spring.step(action)
    assert spring.result is not None and spring.result.spring and spring.result.payouts == (2, -2, 2, -2)
    anti = Game.from_position(["34", "6", "57", "38"], landlord=0, to_move=0, rules=PARTNER, partner=2)
    anti.play("3")
    anti.play("6")
    assert anti.result is not None and anti.result.anti_spring and anti.result.payouts == (-2, 2, -2, 2)


def test_positions_check_the_partner() -> None:
    hands = ["3", "4", "5", "6"]
    with pytest.raises(ValueError, match="partner"):
        Game.from_position(hands, landlord=0, to_move=0, rules=Rules.preset("four_player"), partner=2)
    with pytest.raises(ValueError, match="partner"):
        Game.from_position(hands, landlord=0, to_move=0, rules=PARTNER, partner=0)
    game = Game.from_position(hands, landlord=0, to_move=0, rules=PARTNER, partner=3)
    replay = Game.from_record(json.loads(json.dumps(game.to_record())))
    assert replay.partner == 3 and replay.hash == game.hash
    # The partner holds no kitty: past the 25 dealt it is refused, and not called a peasant.
    with pytest.raises(ValueError, match="seat 1, not the landlord, holds 26 cards, more than the 25 dealt to it"):
        hands = ["3", "4" * 8 + "5" * 8 + "6" * 8 + "77", "8", "9"]
        Game.from_position(hands, landlord=0, to_move=0, rules=PARTNER, partner=1)


# ------------------------------------------------------------- random-game invariants
@settings(max_examples=30, deadline=None)
@given(seed=seeds)
def test_random_games_are_zero_sum_undo_and_replay(seed: int) -> None:
    game = Game(seed=seed, rules=PARTNER, first_bidder=seed % 4)
    hashes = [game.hash]
    play_randomly(game, random.Random(seed), each=lambda g: hashes.append(g.hash))
    result = game.result
    assert result is not None and sum(result.payouts) == 0
    if game.landlord is not None:
        assert result.partner == game.partner
        winner = game.winner
        assert winner is not None and result.landlord_won == side_of(game, winner)
        for seat, payout in enumerate(result.payouts):
            assert (payout > 0) == (side_of(game, seat) == result.landlord_won)
        stakes = {abs(p) for s, p in enumerate(result.payouts) if s != game.landlord}
        assert len(stakes) == 1
        stake = stakes.pop()
        assert abs(result.payouts[game.landlord]) == (stake if game.partner is not None else 3 * stake)
    check_replay_and_undo(game, hashes)


# ------------------------------------------------------------- self-play, evaluation
def test_selfplay_records_the_partner() -> None:
    result = dz.selfplay(200, policy="heuristic", seed=4, threads=2, rules=PARTNER, record=True)
    assert result.payouts.shape == (200, 4) and not result.payouts.sum(axis=1).any()
    partner = result.partner
    assert ((partner >= 0) | (partner == -1)).all() and (partner != result.landlord).all()
    assert 0 < (partner >= 0).sum() < 200  # the heuristic plays alone with some hands, not all
    for i in range(10):
        game = replay_selfplay_game(result, 4, i, PARTNER)
        assert game.result is not None and game.result.payouts == tuple(int(p) for p in result.payouts[i])
        assert (game.partner if game.partner is not None else -1) == partner[i]


def test_evaluation_counts_a_partnered_landlord_as_mixed() -> None:
    run = dz.evaluate("heuristic", "random", deals=20, rules=PARTNER, seed=3, threads=2)
    columns = run.columns
    whole_side = (columns["landlord"] == columns["seat"]) & (columns["partner"] < 0)
    assert run.by_role["landlord"].games == int((whole_side & ~columns["swapped"]).sum())
    assert run.by_role["peasants"].games == int((whole_side & columns["swapped"]).sum())
    assert sum(side.games for side in run.by_role.values()) == run.games


# ---------------------------------------------------------------------- command line
def test_cli_plays_the_preset() -> None:
    from doudizhu.cli import main

    out = io.StringIO()
    assert main(["play", "--auto", "--rules", "four_partner", "--seed", "6", "--policy", "heuristic"], out=out) == 0
    text = out.getvalue()
    assert re.search(r"alone|partner \d", text)
    payouts = [int(p) for p in re.findall(r"seat \d ([+-]\d+)", text.splitlines()[-1])]
    assert len(payouts) == 4 and sum(payouts) == 0
    assert np.all(np.array(payouts) != 0)


# ------------------------------------------------------------- action ids, encoding
def test_action_space_names_the_choice() -> None:
    space = dz.ActionSpace(PARTNER)
    four = dz.ActionSpace(Rules.preset("four_player"))
    assert space.size == four.size + 5  # alone and a partner for each of four seats
    choices = [Action.partner(None), *(Action.partner(seat) for seat in range(4))]
    ids = [space.id(a) for a in choices]
    assert ids == list(range(four.size, four.size + 5))
    assert [space.action(i) for i in ids] == choices
    with pytest.raises(ValueError, match="not in this action space"):
        four.id(Action.partner(2))


def test_observation_shows_the_partner_relative_to_the_seat() -> None:
    game = auctioned()
    layout = dz.encode.layout_for(PARTNER)
    assert layout["partner"].stop - layout["partner"].start == 5
    assert dz.encode.layout_for(Rules())["partner"].stop == dz.encode.layout_for(Rules())["partner"].start
    choosing = dz.encode.observation(game, 1)[layout["partner"]]
    assert list(choosing) == [0, 0, 0, 0, 1]  # the landlord is choosing
    game.choose_partner(2)
    for seat in range(4):
        block = dz.encode.observation(game, seat)[layout["partner"]]
        assert list(block) == [1.0 if k == (2 - seat) % 4 else 0.0 for k in range(4)] + [0.0]


@pytest.mark.parametrize("text", ["partner 9", "partner2", "partner 2", "bid 7", "bid 2"])
def test_a_bid_or_partner_in_a_phase_that_takes_none_is_refused_for_the_phase(text: str) -> None:
    # A malformed one ("partner 9") was told how partners are written, a well-formed one
    # that the phase is wrong: the phase is checked first (docs/rules.md), for both.
    playing = auctioned()
    playing.step("alone")
    bidding = Game(seed=5, rules=PARTNER, first_bidder=1)
    for game, phase in ((playing, "the hand is in play"), (bidding, "the auction is on")):
        if game is bidding and text.startswith("bid"):
            continue  # the auction's own action: its form is what is wrong, or nothing
        before = game.to_record()
        with pytest.raises(IllegalActionError, match=phase):
            game.step(text)
        assert game.to_record() == before
    with pytest.raises(IllegalActionError, match="a partner is written 'partner 0' to 'partner 3'"):
        auctioned().step("partner 9")  # in the partner phase: its form


def test_reprs_say_what_matters_in_a_line() -> None:
    # A Settlement's repr hid the partner; an IsmctsResult had the default repr; a
    # SelfPlayResult's printed every array in full.
    settled = dz.score(base=2, landlord=0, landlord_won=True, partner=2, players=4)
    assert repr(settled) == "Settlement(landlord_won=True, base=2, multiplier=1, partner=2, payouts=(2, -2, 2, -2))"
    game = auctioned()
    game.step("alone")
    found = dz.ismcts(game, 30)
    assert repr(found) == f"IsmctsResult(best={found.best!r}, actions={len(found.actions)}, simulations=30)"
    run = dz.selfplay(200, seed=1, rules=PARTNER, record=True)
    assert run.actions is not None and repr(run) == f"SelfPlayResult(games=200, seats=4, actions={len(run.actions)})"


def test_under_must_beat_the_heuristic_beats_its_partner_without_breaking_a_bomb() -> None:
    # Owed a play over its partner's 5, it played the lowest, a 6 of its five 6s.
    rules = PARTNER.replace(must_beat=True)
    game = Game.from_position(["3456789TJQK", "66664567", "8899TTJJQQ", "9TJQKA2"], landlord=0, to_move=1,
                              last="5", last_by=3, rules=rules, partner=2)
    assert [str(a) for a in game.legal_actions()] == ["6", "7", "6666", "66666"]
    for policy in ("fast_heuristic", "heuristic"):
        assert str(dz.choose_action(game, policy, 0)) == "7"
