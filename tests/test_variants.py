"""The variants sanren (no kitty), happy (start bonuses) and four_player (two decks)
through the Python API: presets, deals, bidding, play, settlement, records, self-play."""

from __future__ import annotations

import io
import json
import pathlib
import random
import re

import numpy as np
import pytest
from helpers import VARIANTS, deck, hand_size, hands, held_cards, move_key, replay_selfplay_game, seeds, sub_multisets
from helpers import play_randomly as play_randomly_from
from hypothesis import given, settings
from hypothesis import strategies as st

import doudizhu as dz
from doudizhu import Cards, Game, Move, MoveKind, Rules
from doudizhu._core import choose_action, game_seed
from doudizhu.cli import main


def assert_cards_conserved(game: Game) -> None:
    assert held_cards(game) == deck(game.rules)


def play_randomly(game: Game, rng: random.Random) -> None:
    play_randomly_from(game, rng, each=assert_cards_conserved)


# ---------------------------------------------------------------------------- presets
def test_presets_and_fields() -> None:
    assert set(VARIANTS) <= set(Rules.presets())
    sanren, happy, four = (Rules.preset(name) for name in VARIANTS)
    assert (sanren.kitty_size, sanren.players, sanren.decks, sanren.start_bonus) == (0, 3, 1, False)
    assert (happy.kitty_size, happy.start_bonus) == (3, True)
    assert (four.players, four.decks, four.kitty_size) == (4, 2, 8)
    assert repr(four) == "Rules.preset('four_player')"
    assert Rules(players=4, decks=2, kitty_size=8) == four
    assert Rules.preset("standard").replace(start_bonus=True) == happy


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"players": 5}, "players must be 3 or 4"),
        ({"decks": 2}, "decks must be 1 with 3 players and 2 with 4"),
        ({"players": 4}, "decks must be 1 with 3 players and 2 with 4"),
        ({"kitty_size": 4}, "kitty_size must leave"),
        ({"kitty_size": -1}, "kitty_size must leave"),
        ({"kitty_size": 54}, "kitty_size must leave"),
        ({"players": 4, "decks": 2, "kitty_size": 9}, "kitty_size must leave"),
    ],
)
def test_invalid_variant_fields(fields: dict[str, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Rules().replace(**fields)


def test_variant_fields_are_typed() -> None:
    with pytest.raises(TypeError, match="rules field 'players' must be an int"):
        Rules(players=True)
    with pytest.raises(TypeError, match="rules field 'kitty_size' must be an int"):
        Rules(kitty_size="3")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules field 'start_bonus' must be True or False"):
        Rules(start_bonus=1)  # type: ignore[arg-type]


def test_four_player_deals_are_checked() -> None:
    rules = Rules.preset("four_player")
    game = Game(seed=5, rules=rules)
    hands, kitty = [str(game.hand(s)) for s in range(4)], str(game.kitty)
    assert Game.from_deal(hands, kitty, rules=rules).hash == game.hash
    with pytest.raises(ValueError, match="hands: a deal has 4 hands"):
        Game.from_deal(hands[:3], kitty, rules=rules)
    with pytest.raises(ValueError, match="kitty: the kitty holds 8 cards"):
        Game.from_deal(hands, kitty[:7], rules=rules)
    # Seat 0's hand twice in place of seat 1's: the right sizes, but not the deck.
    with pytest.raises(dz.CardsError, match=r"the hands and the kitty hold (9|1\d) cards of rank ., the deck 8"):
        Game.from_deal([hands[0], hands[0], hands[2], hands[3]], kitty, rules=rules)


# ----------------------------------------------------------------------------- sanren
def test_sanren_deals_18_each_and_the_landlord_keeps_18() -> None:
    game = Game(seed=3, rules=Rules.preset("sanren"))
    assert [len(game.hand(s)) for s in range(3)] == [18, 18, 18] and len(game.kitty) == 0
    game.bid(3)
    assert game.landlord == 0 and len(game.hand(0)) == 18
    assert game.seat_view(1)["kitty"] == Cards("")


def test_sanren_from_deal_checks_the_sizes() -> None:
    hands = ["3456789TJQKA2222BR", "333444555666777888", "999TTTJJJQQQKKKAAA"]
    game = Game.from_deal(hands, "", landlord=0, rules=Rules.preset("sanren"))
    assert len(game.hand(0)) == 18
    with pytest.raises(ValueError, match="hands: each hand of a deal holds 18 cards"):
        Game.from_deal(
            ["33334444555566667", "77788889999TTTTJJ", "JJQQQQKKKKAAAA222"], "2BR", rules=Rules.preset("sanren")
        )
    with pytest.raises(ValueError, match="hands: each hand of a deal holds 17 cards"):
        Game.from_deal(hands, "", rules=Rules())


# ------------------------------------------------------------------------------ happy
HAPPY_HANDS = ["3456789TJQKA222BR", "33344455566677788", "8999TTTJJJQQQKKKA"]


def play_out_happy(game: Game) -> dz.Settlement:
    """The landlord (seat 0) goes out with the 12-straight, AA, 2222 and the rocket."""
    for cards in ("3456789TJQKA", "AA", "2222", "BR"):
        game.play(cards)
        while game.phase == "playing" and game.to_move != 0:
            game.pass_()
    assert game.result is not None
    return game.result


def test_happy_bonuses_double_once_each_and_are_named() -> None:
    result = play_out_happy(Game.from_deal(HAPPY_HANDS, "AA2", landlord=0, rules=Rules.preset("happy")))
    # Base 1: bomb, rocket, spring, both jokers and 3..A in seat 0's dealt hand: 2^5.
    assert result.start_bonuses == (("jokers", 0), ("straight", 0))
    assert (result.multiplier, result.payouts) == (32, (64, -32, -32))
    plain = play_out_happy(Game.from_deal(HAPPY_HANDS, "AA2", landlord=0))
    assert plain.start_bonuses == () and (plain.multiplier, plain.payouts) == (8, (16, -8, -8))


def test_happy_bonus_counts_for_a_peasant_and_only_the_dealt_cards() -> None:
    # Seat 1 is the landlord; seat 0, a peasant, was dealt the jokers and the straight.
    game = Game.from_deal(HAPPY_HANDS, "AA2", landlord=1, rules=Rules.preset("happy"))
    while game.phase != "over":
        game.step(game.legal_actions()[-1] if game.last is None else "pass")
    assert game.result is not None and game.result.start_bonuses == (("jokers", 0), ("straight", 0))
    # The 3..A straight completed by the kitty is no bonus: seat 0 was dealt no 7.
    hands = ["3456689TJQKA222BR", "33344455566777888", "999TTTJJJQQQKKKA2"]
    game = Game.from_deal(hands, "7AA", landlord=0, rules=Rules.preset("happy"))
    assert Cards("3456789TJQKA") <= game.hand(0)
    while game.phase != "over":
        game.step(game.legal_actions()[-1] if game.last is None else "pass")
    assert game.result is not None and game.result.start_bonuses == (("jokers", 0),)


def test_a_bonus_two_seats_held_names_both_and_doubles_once() -> None:
    game = Game(seed=1197, rules=Rules.preset("happy"), first_bidder=0)
    straight = Cards("3456789TJQKA")
    assert [straight <= game.hand(s) for s in range(3)] == [True, True, False]
    game.bid(3)
    while game.phase != "over":
        game.step(game.legal_actions()[0])
    result = game.result
    assert result is not None and result.start_bonuses == (("straight", 0), ("straight", 1))
    doublings = result.bombs + result.rockets + result.spring + result.anti_spring + 1  # one straight bonus
    assert result.multiplier == 2**doublings


def test_two_copies_of_a_joker_are_two_solo_kickers_where_a_rank_may_repeat() -> None:
    # docs/rules.md, kicker rule 7: never a kicker pair; as solos, like two 5s (rule 2).
    repeat = Rules.preset("four_player").replace(max_solo_kicker_copies=2)
    assert [m.kind for m in dz.classify("444555RR", repeat)] == [dz.MoveKind.AIRPLANE_SOLOS]
    assert dz.classify("444555RR", Rules.preset("four_player")) == []  # every preset: solos all differ
    assert all(m.kind != dz.MoveKind.AIRPLANE_PAIRS for m in dz.classify("444555BBRR", repeat))


def test_happy_bonuses_across_seeded_deals() -> None:
    """Over many seeded deals, the settlement names exactly the dealt hands with both
    jokers or with 3..A, and each bonus present doubles the multiplier once."""
    rules = Rules.preset("happy")
    straight = Cards("3456789TJQKA")
    seen = {"jokers": 0, "straight": 0}
    rng = random.Random(0)
    for seed in range(400):
        game = Game(seed=seed, rules=rules)
        play_randomly(game, rng)
        result = game.result
        assert result is not None
        dealt = [Cards(h) for h in game.to_record()["deals"][-1]["hands"]]  # the deal played, after any redeal
        expected = [("jokers", s) for s in range(3) if dealt[s].count("B") and dealt[s].count("R")]
        expected += [("straight", s) for s in range(3) if straight <= dealt[s]]
        assert result.start_bonuses == tuple(expected)
        bonus_kinds = {name for name, _ in expected}
        doublings = result.bombs + result.rockets + result.spring + result.anti_spring + len(bonus_kinds)
        assert result.multiplier == 2**doublings
        for name, _ in expected:
            seen[name] += 1
    assert seen["jokers"] > 50  # one deal in three holds both jokers in a hand (dealt 51 of 54)


# ------------------------------------------------------------------------ four_player
def test_four_player_deal_and_auction() -> None:
    rules = Rules.preset("four_player")
    game = Game(seed=1, rules=rules, first_bidder=3)
    assert game.seats == 4 and [len(game.hand(s)) for s in range(4)] == [25] * 4 and len(game.kitty) == 8
    game.bid(1)  # seat 3
    for _ in range(3):
        game.bid(0)  # seats 0, 1, 2
    assert (game.phase, game.landlord, game.bid_value, len(game.hand(3))) == ("playing", 3, 1, 33)
    assert game.seat_view(0)["hand_sizes"] == (25, 25, 25, 33)
    with pytest.raises(ValueError, match=r"first_bidder must be in 0\.\.3"):
        Game(seed=1, rules=rules, first_bidder=4)
    with pytest.raises(ValueError, match=r"first_bidder must be in 0\.\.2"):
        Game(seed=1, first_bidder=3)


def test_four_player_moves() -> None:
    rules = Rules.preset("four_player")
    assert [(m.kind, m.length) for m in dz.classify("33333333", rules)] == [(MoveKind.BOMB, 8)]
    assert [m.kind for m in dz.classify("BBRR", rules)] == [MoveKind.ROCKET]
    assert [(m.kind, m.key) for m in dz.classify("RR", rules)] == [(MoveKind.PAIR, 14)]
    assert dz.classify("BR", rules) == []
    assert Move("44444", rules=rules).beats(Move("2222", rules=rules))
    assert Move("BBRR", rules=rules).beats(Move("22222222", rules=rules))
    follows = dz.legal_moves("33333BB", last="22", rules=rules)
    assert sorted(str(m) for m in follows) == ["3333", "33333", "BB"]


@settings(max_examples=80, deadline=None)
@given(hand=hands(max_size=11, decks=2), other=hands(max_size=8, decks=2))
def test_four_player_generation_is_every_reading_of_every_sub_multiset(hand: Cards, other: Cards) -> None:
    """Leads are exactly the readings of the hand's sub-multisets; follows exactly the
    leads that beat the move to beat (up to 8 of a rank, joker pairs, the 4-joker rocket)."""
    rules = Rules.preset("four_player")
    leads = dz.legal_moves(hand, rules=rules)
    expected = {move_key(m) for sub in sub_multisets(hand) for m in dz.classify(sub, rules)}
    assert sorted(move_key(m) for m in leads) == sorted(expected)
    for last in dz.legal_moves(other, rules=rules)[:6]:
        follows = {move_key(m) for m in dz.legal_moves(hand, last=last, rules=rules)}
        assert follows == {move_key(m) for m in leads if m.beats(last)}


def test_four_player_settlement() -> None:
    assert dz.score(2, bombs=1, players=4, landlord=1).payouts == (-4, 12, -4, -4)
    assert dz.score(1, players=4, landlord=0, landlord_won=False).payouts == (-3, 1, 1, 1)
    with pytest.raises(ValueError, match=r"players must be in 3\.\.4"):
        dz.score(1, players=5)


def test_four_player_positions() -> None:
    rules = Rules.preset("four_player")
    game = Game.from_position(["33", "BB", "RR", "4"], landlord=0, to_move=1, last="22", last_by=0, rules=rules)
    assert game.seats == 4 and [str(a) for a in game.legal_actions()] == ["pass", "BB"]
    game.pass_()
    assert game.to_move == 2 and [str(a) for a in game.legal_actions()] == ["pass", "RR"]
    game.play("RR")
    # Base 1, no bomb; no anti-spring (the position began after the landlord's lead): 3 x 1.
    assert game.phase == "over" and game.result is not None and game.result.payouts == (-3, 1, 1, 1)
    with pytest.raises(ValueError, match="hands: a position has 2 or 4 hands"):
        Game.from_position(["33", "BB", "RR"], landlord=0, to_move=1, rules=rules)
    with pytest.raises(ValueError, match=r"hands: seat 0 holds no cards: every hand holds some \(a seat with none "):
        Game.from_position(["", "4"], landlord=0, to_move=0)
    with pytest.raises(ValueError, match="hands: a position has 2 or 3 hands"):
        Game.from_position(["33", "44", "55", "66"], landlord=0, to_move=1)


def test_four_player_match_rotates_over_four_seats() -> None:
    match = dz.Match(seed=2, rules=Rules.preset("four_player"), dealer=3)
    rng = random.Random(2)
    for _ in range(5):
        game = match.new_hand()
        play_randomly(game, rng)
        match.finish(game)
    assert len(match.scores) == 4 and sum(match.scores) == 0 and match.dealer == 0
    with pytest.raises(ValueError, match=r"dealer must be in 0\.\.3"):
        dz.Match(rules=Rules.preset("four_player"), dealer=4)


# -------------------------------------------------------- random-game invariants
@settings(max_examples=30, deadline=None)
@given(seed=seeds, preset=st.sampled_from(["standard", *VARIANTS]), first=st.integers(0, 3))
def test_random_games_conserve_cards_pay_zero_sum_and_replay(seed: int, preset: str, first: int) -> None:
    rules = Rules.preset(preset)
    game = Game(seed=seed, rules=rules, first_bidder=first % rules.players)
    play_randomly(game, random.Random(seed))
    result = game.result
    assert result is not None and len(result.payouts) == rules.players and sum(result.payouts) == 0
    if game.landlord is not None:
        landlord = game.landlord
        peasants = [p for s, p in enumerate(result.payouts) if s != landlord]
        assert len(set(peasants)) == 1 and result.payouts[landlord] == -(rules.players - 1) * peasants[0]
    record = json.loads(json.dumps(game.to_record()))
    assert len(record["deals"][0]["hands"]) == rules.players
    replay = Game.from_record(record)
    assert replay.hash == game.hash and replay.history == game.history
    assert replay.result is not None and replay.result.payouts == result.payouts
    assert replay.result.start_bonuses == result.start_bonuses


# ------------------------------------------------------------------------- self-play
@pytest.mark.parametrize("preset", VARIANTS)
def test_selfplay_of_each_variant(preset: str) -> None:
    rules = Rules.preset(preset)
    result = dz.selfplay(300, policy="heuristic", seed=4, threads=2, rules=rules, record=True)
    n = rules.players
    assert result.hands.shape == (300, n) and result.payouts.shape == (300, n)
    assert not result.payouts.sum(axis=1).any()
    for row, kitty in zip(result.hands[:20], result.kitty[:20]):
        assert [len(Cards(int(h))) for h in row] == [hand_size(rules)] * n
        assert sum((Cards(int(h)) for h in row), Cards(int(kitty))) == deck(rules)
    # The recorded actions replay to the same payouts through Game.
    assert result.actions is not None and result.offsets is not None
    for i in range(10):
        game = replay_selfplay_game(result, 4, i, rules)
        assert game.result is not None and game.result.payouts == tuple(int(p) for p in result.payouts[i])
    python = dz.selfplay(20, policy=lambda obs, legal: legal[-1], seed=4, rules=rules)
    assert python.payouts.shape == (20, n) and not python.payouts.sum(axis=1).any()
    with pytest.raises(ValueError, match=f"one per seat \\({n}\\)"):
        dz.selfplay(1, policy=["random"] * (7 - n), rules=rules)
    assert np.all(result.landlord >= 0)


# ------------------------------------------------------------------------ command line
@pytest.mark.parametrize("preset", VARIANTS)
def test_cli_plays_and_selfplays_each_variant(preset: str, tmp_path: pathlib.Path) -> None:
    rules = Rules.preset(preset)
    out = io.StringIO()
    assert main(["play", "--auto", "--rules", preset, "--seed", "6", "--policy", "heuristic"], out=out) == 0
    lines = out.getvalue().splitlines()
    dealt = [line for line in lines if re.match(r"\s+seat \d: ", line)][: rules.players]  # a redeal shows more
    assert [len(line.split(": ")[1]) for line in dealt] == [hand_size(rules)] * rules.players
    payouts = [int(p) for p in re.findall(r"seat \d ([+-]\d+)", lines[-1])]
    assert len(payouts) == rules.players and sum(payouts) == 0
    path = tmp_path / "games.npz"
    out = io.StringIO()
    assert main(["selfplay", "--games", "500", "--threads", "2", "--rules", preset, "--out", str(path)], out=out) == 0
    assert "500 games in" in out.getvalue()
    saved = dz.SelfPlayResult.load(path)
    assert saved.payouts.shape == (500, rules.players) and not saved.payouts.sum(axis=1).any()


def test_cli_names_the_start_bonuses() -> None:
    """The CLI's settlement line names each start bonus of the hand it played (replayed
    here with the CLI's own bot seeds)."""
    named = 0
    for seed in range(40):
        out = io.StringIO()
        assert main(["play", "--auto", "--rules", "happy", "--seed", str(seed)], out=out) == 0
        game = Game(seed=seed, rules=Rules.preset("happy"))
        step = 0
        while game.phase != "over":
            game.step(choose_action(game, "random", game_seed(game.seed, step)))
            step += 1
        assert game.result is not None
        expected = [f"start bonus: {name} in seat {seat}'s hand" for name, seat in game.result.start_bonuses]
        assert all(text in out.getvalue() for text in expected)
        assert ("start bonus" in out.getvalue()) == bool(expected)
        named += bool(expected)
    assert named >= 5  # about one hand in three deals both jokers to one seat
