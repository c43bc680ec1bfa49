"""The variant run_fast (docs/rules.md, "Run Fast") through the Python API: the preset and
its fields, the combinations, the rules of play by scenario (must-beat, the warning, the
first lead), the settlement (points per card, closed double, bombs), records and Match."""

from __future__ import annotations

import io
import math
import pickle
import random
import re
from math import comb

import numpy as np
import pytest
from helpers import check_replay_and_undo, play_randomly, replay_selfplay_game, seeds
from hypothesis import given, settings

import doudizhu as dz
import doudizhu.cli
from doudizhu import Action, Game, IllegalActionError, Move, MoveKind, NetworkError, Rules, Settlement
from doudizhu.bots import DeterminizedBot
from doudizhu.envs import VectorEnv

RUN_FAST = Rules.preset("run_fast")


def position(hands: list[str], to_move: int, last: str | None = None) -> Game:
    """A run_fast position: `last` (if any) was played by the seat before `to_move`."""
    last_by = None if last is None else (to_move + 2) % 3
    return Game.from_position(hands, landlord=None, to_move=to_move, last=last, last_by=last_by, rules=RUN_FAST)


def solo(text: str) -> Move:
    return Move(text, MoveKind.SOLO, rules=RUN_FAST)


# ---------------------------------------------------------------------- rule and preset
def test_preset_fields() -> None:
    assert "run_fast" in Rules.presets()
    d = RUN_FAST.to_dict()
    for flag in ("deck_48", "each_for_self", "must_beat", "single_card_warning", "trio_takes_two",
                 "four_with_three", "ace_trio_bomb", "bomb_pay"):
        assert d[flag] is True, flag
    assert d["shortest_pair_chain"] == 2 and d["four_with_two"] is False and d["bidding"] == "none"
    assert Rules(**d) == RUN_FAST
    with pytest.raises(dz.RulesError, match="deck_48 needs players=3"):
        RUN_FAST.replace(players=4, decks=2)
    with pytest.raises(dz.RulesError, match="each_for_self needs bidding none"):
        RUN_FAST.replace(bidding="classic")
    with pytest.raises(dz.RulesError, match="bomb_pay needs each_for_self"):
        Rules(bomb_pay=True)
    # A landlord's wild cards and start bonuses, which a game without one dealt and ignored.
    for field in ({"wild": 1}, {"wild": 2}, {"start_bonus": True}):
        with pytest.raises(ValueError, match="each_for_self is played without wild cards and start bonuses"):
            Rules(each_for_self=True, bidding="none", **field)
    assert pickle.loads(pickle.dumps(RUN_FAST)) == RUN_FAST


def test_new_kinds_keep_the_old_numbers() -> None:
    assert MoveKind.ROCKET == 13
    assert (MoveKind.TRIO_TWO, MoveKind.AIRPLANE_TWOS, MoveKind.FOUR_THREE) == (14, 15, 16)
    full = Move("33345", MoveKind.TRIO_TWO, rules=RUN_FAST)
    short = Move("3334", MoveKind.TRIO_TWO, rules=RUN_FAST)
    assert not full.is_short and short.is_short
    assert pickle.loads(pickle.dumps(short)) == short
    assert Move("4444567", MoveKind.FOUR_THREE, rules=RUN_FAST).key == 1
    aces = Move("AAA", MoveKind.BOMB, rules=RUN_FAST)
    assert aces.beats(Move("KKKK", MoveKind.BOMB, rules=RUN_FAST))


def test_an_airplane_short_of_kickers_is_named_by_its_length_where_its_key_is_not_enough() -> None:
    # 333344445556667 is three trios from 3 with six kickers, or (a last play, short of
    # kickers) four trios from 3 with three: the same kind and key. Both were written
    # "/AIRPLANE_TWOS/3", and a game's own record, and its pickle, did not replay.
    hands = ["7789TJJJQQKKKAA", "333344445556667", "5788899TTJQQKA2"]
    game = Game.from_deal(hands, "69T", rules=RUN_FAST, seed=0)
    texts = sorted(a.text(RUN_FAST) for a in game.legal_actions() if a.move and a.move.cards == dz.Cards(hands[1]))
    assert texts == ["333344445556667/AIRPLANE_TWOS/3/3", "333344445556667/AIRPLANE_TWOS/3/4",
                     "333344445556667/AIRPLANE_TWOS/4"]
    for text in texts:
        played = Game.from_deal(hands, "69T", rules=RUN_FAST, seed=0)
        played.step(text)
        assert [a.text(RUN_FAST) for _, a in played.history] == [text]
        assert Game.from_record(played.to_record()).history == played.history
        assert pickle.loads(pickle.dumps(played)).history == played.history
    assert Move("333344445556667/AIRPLANE_TWOS/3/4", rules=RUN_FAST).length == 4
    with pytest.raises(dz.MoveError, match="several readings"):
        Move("333344445556667/AIRPLANE_TWOS/3", rules=RUN_FAST)
    for bad in ("/AIRPLANE_TWOS/3/x", "/AIRPLANE_TWOS/3/04", "/AIRPLANE_TWOS/3/", "/AIRPLANE_TWOS/3/4/4"):
        with pytest.raises(ValueError, match="written /KIND/rank or /KIND/rank/length"):
            Move("333344445556667" + bad, rules=RUN_FAST)
    with pytest.raises(dz.MoveError, match="is no combination"):
        Move("333344445556667/AIRPLANE_TWOS/3/5", rules=RUN_FAST)


# ------------------------------------------------------------------- rules of play
def test_must_beat_forces_a_play() -> None:
    game = position(["3", "6K", "789"], 1, last="5")
    assert Action.pass_() not in game.legal_actions() and len(game.legal_actions()) == 2
    before = game.hash
    with pytest.raises(IllegalActionError, match="must_beat"):
        game.pass_()
    assert game.hash == before
    stuck = position(["3", "46", "789"], 1, last="K")
    assert stuck.legal_actions() == [Action.pass_()]


def test_short_last_cards_follow_a_full_trio_and_are_never_a_move_to_beat() -> None:
    full = Move("55534", MoveKind.TRIO_TWO, rules=RUN_FAST)
    assert [m.cards for m in dz.legal_moves("7778", last=full, rules=RUN_FAST)] == [dz.Cards("7778")]
    assert dz.legal_moves("77789", last=full, rules=RUN_FAST)[0].cards == dz.Cards("77789")
    assert dz.legal_moves("4448", last=full, rules=RUN_FAST) == []  # a body strictly higher, short or not
    game = position(["KKK", "99", "3456"], 0, last="36QQQ")
    assert [a.move.cards for a in game.legal_actions() if a.move] == [dz.Cards("KKK")]
    short = Move("5554", MoveKind.TRIO_TWO, rules=RUN_FAST)
    assert short.is_short
    for last in (short, "5554", "555", "666777"):
        with pytest.raises(dz.MoveError, match="only a hand's last cards, never a move to beat"):
            dz.legal_moves("66678", last=last, rules=RUN_FAST)
        with pytest.raises(dz.MoveError, match="never a move to beat"):
            position(["66678TTTT", "9", "JQ"], 0, last=last)
    with pytest.raises(dz.MoveError, match=r"other: .* never a move to beat"):  # beats() said True
        Move("66678", rules=RUN_FAST).beats(short)
    assert Move("KKK", rules=RUN_FAST).beats(full) and not full.beats(Move("66678", rules=RUN_FAST))
    assert [m.kind for m in dz.classify("3333", RUN_FAST)] == [MoveKind.BOMB]  # the bomb alone (docs/rules.md)


def test_run_fast_has_no_multiplier_to_cap() -> None:
    with pytest.raises(dz.RulesError, match="no multiplier to cap"):
        RUN_FAST.replace(max_multiplier=2)


@pytest.mark.parametrize("rules", [RUN_FAST, Rules(each_for_self=True, bidding="none")])
def test_the_stake_so_far_is_the_settlements_through_the_hand(rules: Rules) -> None:
    # Each seat for itself scores by cards: a bomb pays its own and doubles nothing. The
    # stake read in play said x2 after one, where the settlement says x1 (a rules review).
    game = Game.from_position(["33334", "56", "789"], None, to_move=0, rules=rules)
    game.step("3333")
    views = [game.seat_view(seat) for seat in range(3)]
    assert game.multiplier == 1 and {view["multiplier"] for view in views} == {1}
    for action in ("pass", "pass", "4"):
        game.step(action)
    assert game.result is not None and game.result.multiplier == game.multiplier == 1
    bomb = 2 * 10 if rules.bomb_pay else 0  # 10 from each other seat, under bomb_pay
    assert game.result.payouts[0] == 2 * 2 + 3 * 2 + bomb  # the cards left, doubled: those seats never played


def test_the_warning_forces_the_highest_solo() -> None:
    game = position(["3456", "5599K", "8"], 1)
    solos = [a.move for a in game.legal_actions() if a.move is not None and a.move.kind == MoveKind.SOLO]
    assert solos == [solo("K")]
    with pytest.raises(IllegalActionError, match="single_card_warning"):
        game.play(solo("5"))
    game.play(Move("55", MoveKind.PAIR, rules=RUN_FAST))  # other combinations stay free


def test_bomb_pays_and_closed_seats_pay_double() -> None:
    game = position(["33334", "56", "789"], 0)
    game.play(Move("3333", MoveKind.BOMB, rules=RUN_FAST))
    game.pass_()
    game.pass_()
    game.play(solo("4"))
    result = game.result
    assert result is not None and result.winner == 0 and result.landlord == -1
    assert result.payouts == (2 * 2 + 3 * 2 + 20, -2 * 2 - 10, -3 * 2 - 10)
    assert repr(result) == "Settlement(winner=0, bombs=1, payouts=(30, -14, -16))"  # the bomb paid 10 each
    assert pickle.loads(pickle.dumps(result)) == result


def test_a_rocket_collects_as_a_bomb_does_where_the_deck_has_jokers() -> None:
    # Run Fast's deck has no jokers; each_for_self rules with them treat the rocket, the
    # highest bomb, as a bomb for bomb_pay (the rule book says so).
    rules = Rules(each_for_self=True, bidding="none", bomb_pay=True)
    game = Game.from_position(["BR3", "4", "5"], None, 0, rules=rules)
    game.play("BR")
    game.pass_()
    game.pass_()
    game.play("3")
    result = game.result
    assert result is not None and (result.bombs, result.rockets) == (0, 1)
    assert result.payouts == (20, -10, -10)  # one card left each pays nothing


def test_one_card_left_pays_nothing() -> None:
    game = position(["3K", "4Q", "789"], 0)
    for text in ("3", "4", "9", "K"):
        game.play(solo(text))
    assert game.result is not None and game.result.payouts == (2, 0, -2)


def test_older_settlement_pickles_load() -> None:
    game = Game(seed=3)
    play_randomly(game, random.Random(3))
    result = game.result
    assert result is not None
    state = result.__getstate__()
    assert pickle.loads(pickle.dumps(result)) == result and len(state) == 14
    restored = Settlement.__new__(Settlement)
    restored.__setstate__(state[:12])  # the fields before run_fast
    assert restored == result and restored.winner is None


def test_a_pickled_settlement_s_payouts_must_be_what_it_settles_to() -> None:
    # With a landlord the payouts follow from the other fields: a pickle's own were read
    # past without a look (junk, or payouts summing to 300, gave the computed ones).
    game = Game(seed=3)
    play_randomly(game, random.Random(3))
    assert game.result is not None
    state = game.result.__getstate__()
    for payouts, says in (((100, 100, 100), "not what its other fields settle to"), ("junk", "one payout a seat")):
        with pytest.raises(dz.RecordError, match=says):  # what a file holds, as a record's settlement
            Settlement.__new__(Settlement).__setstate__((*state[:13], payouts))


@settings(max_examples=40, deadline=None)
@given(seed=seeds)
def test_first_lead_contains_a_three_or_the_lowest_card(seed: int) -> None:
    game = Game(seed=seed, rules=RUN_FAST, first_bidder=None)
    assert game.landlord is None and game.phase == "playing" and len(game.kitty) == 3
    assert all(len(game.hand(seat)) == 15 for seat in range(3))
    rank = game.lead_rank
    assert rank is not None and game.to_move is not None
    assert rank == 0  # three cards set aside leave a 3 dealt
    assert game.hand(game.to_move).count(rank) > 0
    assert all(a.move.cards.count(rank) > 0 for a in game.legal_actions() if a.move is not None)
    assert Game(seed=seed, rules=RUN_FAST, first_bidder=None).to_move == game.to_move


def test_first_bidder_none_opens_as_the_rules_do() -> None:
    # The default: seat 0 bids first where there is an auction; under run_fast the
    # holder of the 3 of spades leads, with a 3.
    assert Game(seed=1).to_move == 0 and Game(seed=1, first_bidder=None).to_move == 0
    opened = Game(seed=7, rules=RUN_FAST)
    assert opened.lead_rank is not None and opened.to_move == Game(seed=7, rules=RUN_FAST, first_bidder=None).to_move
    hands, kitty, _ = opened.deals[0]
    dealt = Game.from_deal(hands, kitty, rules=RUN_FAST, seed=7)
    assert dealt.lead_rank is not None
    with pytest.raises(ValueError, match="landlord is None"):
        Game.from_position(["3", "4", "5"], landlord=None, to_move=0)
    free = Game(seed=1, rules=RUN_FAST, first_bidder=2)
    assert free.to_move == 2 and free.lead_rank is None


# ------------------------------------------------------------- random games, records
@settings(max_examples=30, deadline=None)
@given(seed=seeds)
def test_random_games_records_round_trip(seed: int) -> None:
    game = Game(seed=seed, rules=RUN_FAST, first_bidder=None)
    hashes = [game.hash]
    play_randomly(game, random.Random(seed), each=lambda g: hashes.append(g.hash))
    result = game.result
    assert result is not None and sum(result.payouts) == 0 and result.winner == game.winner
    assert game.to_record()["first_bidder"] is None
    check_replay_and_undo(game, hashes)


def test_match_winner_leads_the_next_hand() -> None:
    match = dz.Match(seed=11, rules=RUN_FAST)
    winners: list[int] = []
    for _ in range(4):
        game = match.new_hand()
        if winners:
            assert game.to_move == winners[-1] and game.lead_rank is None
        else:
            assert game.lead_rank is not None
        play_randomly(game, random.Random(len(winners)))
        settlement = match.finish(game)
        assert settlement.winner is not None
        winners.append(settlement.winner)
    assert sum(match.scores) == 0 and match.hands_played == 4


# ------------------------------------------------------------- bots, self-play, evaluation
@pytest.mark.parametrize("policy", ["random", "fast_heuristic", "heuristic"])
def test_builtin_bots_play_legally(policy: str) -> None:
    result = dz.selfplay(60, policy=policy, seed=3, threads=2, rules=RUN_FAST, record=True)
    assert not result.payouts.sum(axis=1).any() and (result.landlord == -1).all()
    for i in range(len(result)):
        game = replay_selfplay_game(result, 3, i, RUN_FAST)  # every recorded action legal again
        assert game.result is not None and game.result.winner == result.winner[i]
        assert tuple(result.payouts[i]) == game.result.payouts


def test_search_bots_play_legally() -> None:
    result = dz.selfplay(2, policy="ismcts", seed=1, threads=1, rules=RUN_FAST)
    assert (result.winner >= 0).all()
    bot = DeterminizedBot(worlds=2, seed=1)  # the solver refuses these rules: playouts value every action
    game = Game(seed=5, rules=RUN_FAST, first_bidder=None)
    while game.phase != "over":
        game.step(bot.act(game))
    with pytest.raises(NetworkError, match="each_for_self"):
        dz.selfplay(1, policy="neural", rules=RUN_FAST)


def test_evaluation_counts_first_out_by_seats() -> None:
    ev = dz.evaluate("heuristic", "heuristic", deals=20, rules=RUN_FAST, seed=2, threads=2)
    assert list(ev.by_role) == ["one seat", "two seats"] and ev.void == 0
    assert ev.wp == pytest.approx(0.5) and ev.adp == 0  # a policy against itself: even
    won = ev.columns["a_won"]
    assert set(won.tolist()) <= {0, 1}
    one = ~ev.columns["swapped"]
    assert ev.by_role["one seat"].wp == pytest.approx(won[one].mean())


# ------------------------------------------------------------ action ids, features, worlds
def test_every_move_of_a_hand_has_an_action_id() -> None:
    space = dz.ActionSpace(RUN_FAST)
    assert space.num_moves == 207331  # the short trios and airplanes of last cards included
    for seed in range(30):
        game = Game(seed=seed, rules=RUN_FAST, first_bidder=None)
        rng = random.Random(seed)
        while game.phase != "over":
            legal = game.legal_actions()
            ids = [space.id(a) for a in legal]
            assert min(ids) >= 0 and len(set(ids)) == len(ids)
            game.step(rng.choice(legal))
    for text in ("3334", "AAA", "33344456"):
        hand = position([text, "5", "6"], 0)
        assert all(space.id(a) >= 0 for a in hand.legal_actions())


def test_every_action_id_is_a_move() -> None:
    space = dz.ActionSpace(RUN_FAST)
    for i in range(1, space.num_moves + 1):
        move = space.move(i)
        assert move in dz.classify(move.cards, rules=RUN_FAST), move


def test_both_jokers_kick_one_free_kicker_move_only_where_the_rules_say() -> None:
    # Kickers rule 5 holds for kickers of any ranks too: the two jokers are the rocket.
    plain = Rules(trio_takes_two=True, four_with_three=True)
    lifted = plain.replace(both_jokers_as_kickers=True)
    whole_hand = {"333BR": MoveKind.TRIO_TWO, "333444BR5": MoveKind.AIRPLANE_TWOS,
                  "333444BR": MoveKind.AIRPLANE_TWOS, "3333BR5": MoveKind.FOUR_THREE}  # 333444BR: short
    plain_space, lifted_space = dz.ActionSpace(plain), dz.ActionSpace(lifted)
    for text, kind in whole_hand.items():
        cards = dz.Cards(text)
        assert not [m for m in dz.legal_moves(cards, rules=plain) if m.cards == cards], text
        assert dz.classify(cards, rules=plain) == [], text
        (move,) = [m for m in dz.legal_moves(cards, rules=lifted) if m.cards == cards]
        assert move.kind == kind and dz.classify(cards, rules=lifted) == [move]
        assert lifted_space.id(Action.play(move)) > 0
        with pytest.raises(ValueError, match="not in this action space"):
            plain_space.id(Action.play(move))
    # One joker still kicks.
    assert [m.kind for m in dz.classify("333B5", rules=plain)] == [MoveKind.TRIO_TWO]


def test_douzero_features_are_refused_by_name() -> None:
    game = Game(seed=1, rules=RUN_FAST, first_bidder=None)
    with pytest.raises(ValueError, match="each_for_self"):
        dz.encode.douzero(game)
    with pytest.raises(ValueError, match="each_for_self"):
        VectorEnv(2, rules=RUN_FAST, features="douzero")
    with pytest.raises(ValueError, match="each_for_self"):  # no landlord to learn for
        VectorEnv(2, rules=RUN_FAST, learners="landlord")
    assert dz.encode.observation(game).shape == (1384,)


def test_sampled_worlds_keep_the_seat_s_knowledge() -> None:
    game = Game(seed=4, rules=RUN_FAST, first_bidder=None)
    play_randomly(game, random.Random(4), steps=12)
    seat = game.to_move
    assert seat is not None
    for world in dz.sample_worlds(game, seat, 6, seed=1):
        assert world.infoset_key(seat) == game.infoset_key(seat)
        assert world.hand(seat) == game.hand(seat) and world.history == game.history


def test_vector_env_plays_run_fast() -> None:
    env = VectorEnv(4, rules=RUN_FAST, learners="all", opponents="random", seed=2, mask=True)
    batch = env.reset()
    assert batch.observation.shape == (4, 1384)
    assert batch.mask is not None and batch.mask.shape[1] == 1 + 207331 and batch.mask.any(axis=1).all()
    for _ in range(60):  # the first legal action of each decision: the tables play on
        batch = env.step(np.zeros(len(batch.observation), np.int64))
        assert batch.mask is not None and batch.mask.any(axis=1).all()


def test_every_environment_opens_a_hand_by_the_rule_book() -> None:
    # The Gymnasium and PettingZoo envs dealt every hand with a random first_bidder, which
    # under run_fast is a seat leading freely (a later hand of a match): an opener without
    # the 3 of spades, no 3 to lead. VectorEnv and selfplay open as the rule book says.
    from doudizhu.envs.gymnasium import DouDizhuEnv
    from doudizhu.envs.pettingzoo import raw_env

    vector = VectorEnv(6, rules=RUN_FAST, features=None, learners="all", seed=0)
    vector.reset()
    games = [vector.game(i) for i in range(6)]
    for make in (lambda: raw_env(rules=RUN_FAST), lambda: DouDizhuEnv(rules=RUN_FAST)):
        env = make()
        for seed in range(6):
            env.reset(seed=seed)
            games.append(env.game)  # type: ignore[attr-defined]
    for game in games:  # the Gymnasium env's opponents may have played before the agent's turn
        start = game.copy()
        while start.history:
            start.undo()
        assert start.lead_rank == 0 and all("3" in action.text() for action in start.legal_actions())
        assert not game.history or game.history[0][1] in start.legal_actions()


# ------------------------------------------------------- the table: CLI, terminal, pictures
def test_command_line_plays_run_fast() -> None:
    out = io.StringIO()
    assert dz.cli.main(["play", "--rules", "run_fast", "--auto", "--seed", "3"], out=out) == 0
    text = out.getvalue()
    assert "(for itself)" in text and "went out first" in text and "landlord" not in text
    assert "(--rules run_fast --seed 3 replays this deal)" in text  # --seed alone dealt a standard hand


def test_pictures_name_seats_without_a_landlord() -> None:
    game = Game(seed=2, rules=RUN_FAST, first_bidder=None)
    assert {dz.render.role(game, seat) for seat in range(3)} == {"for itself"}
    play_randomly(game, random.Random(2))
    picture = dz.render.svg(game)
    assert f"seat {game.winner} wins" in picture and "landlord" not in picture


def test_worlds_before_the_first_lead_weigh_deals_by_who_leads() -> None:
    # Who leads tells the others it holds a 3 (the spade, or the lowest card dealt): worlds
    # ignored it, and 4.5% left the leader no 3 to lead (no legal action; playout crashed).
    game = Game(seed=65041223997127160, rules=RUN_FAST)
    assert game.to_move == 2 and str(game.hand(0)).count("3") == 0 and len(game.hand(1)) == 15
    worlds = dz.sample_worlds(game, 0, 20_000, seed=5)
    assert all(world.legal_actions() for world in worlds)
    # The 4 threes among the leader's 15 unknown cards, seat 1's 15 and the 3 set aside:
    # a deal with k at the leader and a aside gives this lead with chance k/4 + (a/4) k/(4-a).
    joint = {(k, a): comb(15, k) * comb(3, a) * comb(15, 4 - k - a) for k in range(5) for a in range(5 - k)}
    weight = {(k, a): n * k / (4 - a) for (k, a), n in joint.items() if a < 4}
    expected = sum(k * w for (k, _), w in weight.items()) / sum(weight.values())  # 2.27, against 2.0 unweighted
    mean = sum(str(world.hand(2)).count("3") for world in worlds) / len(worlds)
    assert abs(mean - expected) < 0.03
    dz.rollouts(game, "random", seed=3780542909747896237, seat=0)  # a world of it crashed here


def test_worlds_after_the_first_lead_still_weigh_deals_by_who_led() -> None:
    # Having been picked to lead says as much after the lead as before it: worlds drawn
    # after it weighed nothing (the leader's threes 1.31 on average where 1.58 is right).
    game = Game(seed=65041223997127160, rules=RUN_FAST)
    game.step("3")
    worlds = dz.sample_worlds(game, 0, 20_000, seed=5)
    # The 3 threes left among the leader's 14 unknown cards, seat 1's 15 and the 3 set
    # aside: with k at the leader (k + 1 dealt) and a aside, the lead's chance as above.
    joint = {(k, a): comb(14, k) * comb(3, a) * comb(15, 3 - k - a) for k in range(4) for a in range(4 - k)}
    weight = {(k, a): n * (k + 1) / (4 - a) for (k, a), n in joint.items()}
    expected = sum(k * w for (k, _), w in weight.items()) / sum(weight.values())
    mean = sum(str(world.hand(2)).count("3") for world in worlds) / len(worlds)
    assert abs(mean - expected) < 0.03


@pytest.mark.parametrize("rules", [RUN_FAST, Rules(must_beat=True)])
def test_worlds_keep_what_a_forced_pass_says_though_few_deals_do(rules: Rules) -> None:
    # Under must-beat seat 1's pass on the 3 says it held nothing higher: its three cards
    # are the other three 3s, one deal in C(17, 3) = 680 of seat 2's world draws. After 256
    # draws the last one stood, its pass illegal (2 worlds in 3) and its record not
    # replaying (pickling a bot's view failed); now such a draw is mended.
    game = Game.from_position(["3456789TJQKA245", "333", "55"], None if rules.each_for_self else 0, to_move=0,
                              rules=rules)
    game.step("3")
    game.step(dz.Action.pass_())
    worlds = dz.sample_worlds(game, 2, 40, seed=1)
    assert {str(world.hand(1)) for world in worlds} == {"333"}
    assert len({str(world.hand(0)) for world in worlds}) == 1  # the rest is seat 0's
    for world in worlds:
        assert Game.from_record(world.to_record()).history == game.history


def test_worlds_keep_a_pass_that_says_a_hand_of_two_decks_holds_no_trio() -> None:
    # Under must-beat with four_partner's two decks, seat 1's pass on 3335 says it held no
    # trio above the 3s and no bomb: at most two of nearly every rank. The mending walk
    # drew the card to give by rank alone (the highest half the time) and stalled on such
    # hands (36 of these 200 worlds stood unmended); it now draws by what beats the pass.
    game = Game(seed=dz.game_seed(7, 137), rules=Rules.preset("four_partner").replace(must_beat=True))
    for action in ("bid 3", "partner 2", "3335", "pass"):
        game.step(action)
    for world in dz.sample_worlds(game, 2, 200, seed=1):
        assert Game.from_record(world.to_record()).history == game.history
        assert max(str(world.hand(1)).count(rank) for rank in "456789TJQKA2") <= 2


def four_partner_must_beat_game(seed: int, index: int, actions: str) -> Game:
    # A hand under four_partner's rules with must-beat, the deal of self-play game `index`,
    # after `actions` (the fast heuristic's of 1d80f6a, written out: the bot changes).
    game = Game(seed=dz.game_seed(seed, index), rules=Rules.preset("four_partner").replace(must_beat=True))
    for action in re.findall(r"(?:bid|partner) \d|\S+", actions):
        game.step(action)
    return game


def test_worlds_move_cards_between_three_seats_where_a_pass_needs_it() -> None:
    # Seats 2, 3 and 0 each passed on AA, so none held a pair of 2s: the two unknown 2s lie
    # in two of them. From a world holding both in seat 3 no swap mends: its 2 can go only
    # to seat 0 (one card, a Q), and the Q only to seat 2 (seat 3 would hold four Qs, a
    # bomb over its pass on 5QQQ). The walk of single swaps left 25 of these 200 worlds
    # unmended; it now passes cards round three seats, or deals two seats' cards afresh.
    game = four_partner_must_beat_game(8, 17, (
        "bid 2 bid 3 partner 0 667788 pass 9999 pass JJJJ pass pass pass 3TTT 4KKK pass 9AAA 4222 pass pass 3333 "
        "pass pass pass 56789TJ pass 6789TJQ pass pass pass 5556 3666 pass 5QQQ pass pass pass 4449 pass 5557 pass "
        "pass pass 33 77 KK 22 pass pass pass 88 JJ KK AA pass pass pass 2 B pass R pass pass pass 444T pass pass "
        "QQQK pass"))
    assert [str(a) for _, a in game.history[51:55]] == ["AA", "pass", "pass", "pass"]
    for world in dz.sample_worlds(game, 1, 200, seed=1):
        assert Game.from_record(world.to_record()).history == game.history
        assert all(str(world.hand(seat)).count("2") <= 1 for seat in (0, 2, 3))


def test_worlds_keep_a_pass_on_a_straight_whose_fix_needs_two_seats_moved() -> None:
    # Seat 0 passed on 456789T and later played 89TJQK: it held no A. The three unknown As
    # must go to seats 2 and 3, seat 3 taking at most one (it passed on KK), and seat 2's
    # cards cannot go to seat 0 (a 7 makes 789TJQK): 64 of these 200 worlds stood unmended.
    game = four_partner_must_beat_game(7, 156, (
        "bid 0 bid 2 bid 3 partner 1 3456789 456789T pass QQQQ 2222 pass pass pass 345678 pass 89TJQK pass JJJJ "
        "pass pass pass 4TTT 5AAA pass pass pass 778899 pass pass pass 33 55 99 KK pass 22 pass RR pass pass"))
    assert str(game.history[6][1]) == "pass" and str(game.history[14][1]) == "89TJQK"
    for world in dz.sample_worlds(game, 1, 200, seed=1):
        assert Game.from_record(world.to_record()).history == game.history
        assert "A" not in str(world.hand(0))


@pytest.mark.parametrize("preset, wild", [("laizi", "3"), ("laizi2", ("3", "2"))])
def test_worlds_keep_a_pass_that_says_a_hand_holds_no_wild_card(preset: str, wild: object) -> None:
    # Seat 1 passed on a 9 under must-beat: it held no wild card, nothing above the 9 and
    # no bomb. The walk weighed the plays that beat by the combination they form, not the
    # cards they take, so it never gave the wild cards away, and measured every refused
    # pass under wild cards as 1 (no gradient): 81 and 93 of these 100 worlds stood unmended.
    game = Game.from_deal(["9TTTTJJJJQQQQKKKA", "44455566677788899", "3333456789KA222BR"], "AA2", landlord=0,
                          rules=Rules.preset(preset).replace(must_beat=True), seed=1, wild=wild)
    game.play("9")
    game.pass_()
    wild_ranks = {dz.rank_name(r) for r in game.wild_ranks}
    for world in dz.sample_worlds(game, 0, 100, seed=0):
        assert Game.from_record(world.to_record()).history == game.history
        assert not set(str(world.hand(1))) & (wild_ranks | set("TJQKA2BR"))


def test_worlds_move_a_wild_card_where_other_cards_must_follow_it() -> None:
    # Wild 4s: seat 2 passed on 9TJQKA holding the 4 of its later 4577=5777, so a second 4
    # and any pair make it a bomb; the unknown 4 must go to seat 0, whose passes on
    # 4577=5777 and 5888 then say it held no pair above the 7s, so those go the other
    # way. Each move alone refused a later pass more than the walk gained: 84 of these 200
    # worlds stood unmended, and sampling them took 11 ms each. The walk now keeps a step
    # that moves the first refused action later in the hand.
    game = Game(seed=5218, rules=Rules.preset("laizi").replace(must_beat=True))
    for step in range(11):
        game.step(dz.choose_action(game, "fast_heuristic", 5218 * 1000 + step))
    assert [str(a) for _, a in game.history[2:4]] == ["9TJQKA", "pass"] and dz.rank_name(game.wild_rank) == "4"
    for world in dz.sample_worlds(game, 1, 200, seed=0):
        assert Game.from_record(world.to_record()).history == game.history
        assert str(world.hand(2)).count("4") == 0


@pytest.mark.parametrize("rules", [RUN_FAST, RUN_FAST.replace(must_beat=False), Rules(must_beat=True, bidding="none")])
def test_every_world_of_whole_hands_replays_from_its_record(rules: Rules) -> None:
    # A world of every decision of 150 fast-heuristic hands: where 256 draws found none
    # whose passes and solos the rules allow (0.3% of worlds), the last stood, and a bot
    # pickling its view failed on it.
    for index in range(150):
        game = Game(seed=dz.game_seed(7, index), rules=rules)
        while game.to_move is not None:
            world = dz.sample_worlds(game, game.to_move, 1, seed=index)[0]
            assert Game.from_record(world.to_record()).history == game.history
            game.step(dz.choose_action(game, "fast_heuristic", index))


@pytest.mark.parametrize("rules", [Rules(single_card_warning=True), RUN_FAST.replace(must_beat=False)])
def test_worlds_keep_what_the_warning_says_of_a_solo(rules: Rules) -> None:
    # Under the warning a solo played while the next seat holds one card says that the
    # player held no higher card; without must-beat worlds ignored it (the K's player
    # given the A), and their records did not replay.
    game = Game.from_position(["35K", "A", "44"], None if rules.each_for_self else 0, to_move=0, rules=rules)
    game.step("K")
    worlds = dz.sample_worlds(game, 2, 40, seed=1)
    assert {str(world.hand(1)) for world in worlds} == {"A"}
    for world in worlds:
        assert Game.from_record(world.to_record()).history == game.history


@pytest.mark.parametrize("policy", ["heuristic", "fast_heuristic"])
@pytest.mark.parametrize("hand, bomb", [("33456778JJQKKKK", "KKKK"), ("3345677889JAAA", "AAA")])
def test_the_heuristic_leads_no_bomb_away_as_a_combination(policy: str, hand: str, bomb: str) -> None:
    # Its lead played KKKK as four with three (a bomb's pay given away for nothing), and
    # three aces as a trio with two: in 5,000 hands 405 such leads, none going out.
    game = position([hand, "5", "6"], to_move=0)
    chosen = dz.choose_action(game, policy, 0)
    assert chosen.move is not None and chosen.move.kind != MoveKind.BOMB
    assert not set(bomb) & set(str(chosen.move.spent)), chosen
    for _ in range(40):  # played on, the bomb leaves the hand whole or not at all
        if game.phase == "over":
            break
        if game.to_move == 0:
            move = dz.choose_action(game, policy, len(game.history)).move
            going_out = move is not None and move.spent == game.hand(0)
            assert move is None or going_out or str(move.spent) == bomb or not set(bomb) & set(str(move.spent)), move
        game.step(dz.choose_action(game, policy, len(game.history)))


@pytest.mark.parametrize("cards, says", [
    ("BR", "1 card of rank B, at most 0"), ("22", "2 cards of rank 2, at most 1"),
    ("AAAA", "4 cards of rank A, at most 3")])
def test_cards_the_48_card_deck_lacks_are_refused_naming_that_deck(cards: str, says: str) -> None:
    # The refusal said "at most 0 with 1 deck(s)" of a joker: the deck it meant went unsaid.
    with pytest.raises(dz.CardsError, match=f"{says} in Run Fast's 48-card deck \\(no jokers, three aces, one 2\\)"):
        dz.classify(cards, RUN_FAST)


def test_with_two_decks_one_of_the_eight_threes_leads() -> None:
    # Four seats for themselves with two decks: a seat holding k of the eight 3s leads with
    # chance k/8 (deals with every 3 dealt; 4,000 seeds, the rates within 4 standard errors).
    rules = Rules(players=4, decks=2, each_for_self=True, bidding="none", max_multiplier=0, kitty_size=8)
    leads: dict[int, list[int]] = {k: [0, 0] for k in range(9)}
    for seed in range(4000):
        game = Game(seed=seed, rules=rules)
        threes = [hand.count("3") for hand in game.deals[0][0]]
        if sum(threes) != 8:
            continue
        for seat, k in enumerate(threes):
            leads[k][0] += seat == game.to_move
            leads[k][1] += 1
    for k in (1, 2, 3):
        led, held = leads[k]
        assert held > 1000 and abs(led / held - k / 8) < 4 * math.sqrt(k / 8 * (1 - k / 8) / held)
