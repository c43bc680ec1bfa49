"""The game through the Python API: deals, bidding, play, scoring, records, undo."""

from __future__ import annotations

import copy
import enum
import json
import pathlib
import pickle
import random
import re

import pytest
from helpers import FULL_DECK, PRESETS, held_cards, play_randomly

import doudizhu as dz
from doudizhu import Game, IllegalActionError, Rules

import peers

MASK64 = (1 << 64) - 1


def reference_deal(seed: int, decks: int = 1, players: int = 3, kitty: int = 3) -> tuple[list[str], str]:
    """The documented deal (game.hpp), re-derived independently: splitmix64 seeds
    xoshiro256**, Lemire's bounded draw, Fisher-Yates from the top over the deck in rank
    order (4 x decks of each rank, then the jokers), then equal hands in seat order and the
    rest to the kitty: 17/17/17/3 (standard), 18/18/18/0 (sanren), 4 x 25 / 8 (four_player)."""
    state, x = [], seed
    for _ in range(4):
        x = (x + 0x9E3779B97F4A7C15) & MASK64
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        state.append(z ^ (z >> 31))

    def rotl(v: int, k: int) -> int:
        return ((v << k) | (v >> (64 - k))) & MASK64

    def next64() -> int:
        result = (rotl((state[1] * 5) & MASK64, 7) * 9) & MASK64
        t = (state[1] << 17) & MASK64
        state[2] ^= state[0]
        state[3] ^= state[1]
        state[1] ^= state[2]
        state[0] ^= state[3]
        state[2] ^= t
        state[3] = rotl(state[3], 45)
        return result

    def below(bound: int) -> int:
        product = (next64() >> 32) * bound
        if (product & 0xFFFFFFFF) < bound:
            threshold = (-bound % (1 << 32)) % bound
            while (product & 0xFFFFFFFF) < threshold:
                product = (next64() >> 32) * bound
        return product >> 32

    deck = peers.deck_ranks(decks)
    for i in range(len(deck) - 1, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    size = (len(deck) - kitty) // players

    def text(ranks: list[int]) -> str:
        return peers.mask_to_text(peers.ranks_to_mask(ranks))

    return [text(deck[size * s : size * s + size]) for s in range(players)], text(deck[size * players :])


@pytest.mark.parametrize(
    ("seed", "hands", "kitty"),
    [
        (0, ["334566667TTJQQKAA", "355778899TTJJA22R", "344578899QKKKA22B"], "4JQ"),
        (1, ["45668899TJJJQKA2R", "3445556678TTQKA22", "333477789JQKKAA2B"], "9TQ"),
        (42, ["3334455679QQKK2BR", "3455677788TJKKAAA", "668999TTTJJQQA222"], "48J"),
    ],
)
def test_golden_deals(seed: int, hands: list[str], kitty: str) -> None:
    game = Game(seed=seed)
    assert [str(game.hand(s)) for s in range(3)] == hands and str(game.kitty) == kitty
    assert reference_deal(seed) == (hands, kitty)


@pytest.mark.parametrize(("preset", "decks", "players", "kitty"),
                         [("standard", 1, 3, 3), ("sanren", 1, 3, 0), ("happy", 1, 3, 3), ("four_player", 2, 4, 8)])
def test_deals_follow_the_documented_shuffle(preset: str, decks: int, players: int, kitty: int) -> None:
    rules = Rules.preset(preset)
    for seed in (0, 1, 2, 3, 42, 2**63 + 11, MASK64):
        game = Game(seed=seed, rules=rules)
        hands, kitty_text = reference_deal(seed, decks, players, kitty)
        assert [str(game.hand(s)) for s in range(players)] == hands and str(game.kitty) == kitty_text
    assert len(hands[0]) == (54 * decks - kitty) // players


def test_classic_bidding_through_python() -> None:
    game = Game(seed=42)
    game.bid(1)
    game.bid(0)
    game.bid(2)
    assert (game.phase, game.to_move, game.bid_value) == ("bidding", 0, 2)
    with pytest.raises(IllegalActionError, match="bid must exceed 2"):
        game.bid(2)
    game.bid(0)
    assert (game.phase, game.landlord, game.bid_value, len(game.hand(2))) == ("playing", 2, 2, 20)


def test_three_passes_redeal_with_a_new_shuffle() -> None:
    game = Game(seed=5)
    first = [game.hand(s) for s in range(3)]
    for _ in range(3):
        game.bid(0)
    assert game.redeals == 1 and game.phase == "bidding"
    assert [game.hand(s) for s in range(3)] != first
    # The deal in play starts after the auction that threw the first in, and stays there
    # until an undo takes that auction back.
    assert game.deal_start == 3 == len(game.history)
    game.bid(1)
    assert game.deal_start == 3
    game.undo()
    game.undo()
    assert (game.redeals, game.deal_start) == (0, 0)


def test_openspiel_auction_fields() -> None:
    # OpenSpiel lets a passed player bid again and voids the hand when nobody bids.
    game = Game(seed=8, rules=Rules.preset("openspiel"))
    game.bid(0)
    game.bid(0)
    game.bid(1)
    assert game.to_move == 0 and [str(a) for a in game.legal_actions()] == ["bid 0", "bid 2", "bid 3"]
    void = Game(seed=8, rules=Rules.preset("openspiel"))
    for _ in range(3):
        void.bid(0)
    assert void.phase == "over" and void.result is not None and void.result.payouts == (0, 0, 0)


def test_call_and_rob_through_python() -> None:
    game = Game(seed=3, rules=Rules(bidding="call_rob", call_base=2))
    game.call(True)
    game.rob(True)
    game.rob(False)
    game.rob(True)  # the caller robs back
    assert (game.landlord, game.bid_value) == (0, 2 * 2 * 2)


def test_illegal_actions_name_the_reason_and_change_nothing() -> None:
    game = Game.from_deal(
        ["33334444555566667", "77788889999TTTTJJ", "JJQQQQKKKKAAAA222"], "2BR", landlord=0, seed=1
    )
    before = game.hash
    cases = [
        (lambda: game.pass_(), "the leader may not pass"),
        (lambda: game.play("77"), "not in hand"),
        (lambda: game.bid(1), "play a move or pass"),
        (lambda: game.play("34"), "no legal combination"),
    ]
    for action, message in cases:
        with pytest.raises(IllegalActionError, match=message):
            action()
        assert game.hash == before
    game.play("33")
    with pytest.raises(IllegalActionError, match="cards not in hand"):
        game.play("33")  # seat 1 to move now, and it holds no 3s
    with pytest.raises(IllegalActionError, match="does not beat 33"):
        game.play("7")
    assert issubclass(IllegalActionError, ValueError)


@pytest.mark.parametrize(("text", "message"), [
    ("passs", "'passs' is no action"), ("pass_", "'pass_' is no action"), ("Nope", "'Nope' is no action"),
    ("alone 3", "'alone 3' is no action"), ("bid3", "a bid is written 'bid 0'"),
    ("partner9", "the auction is on"),  # a partner, misspelt or not, meets the phase first
])
def test_a_misspelt_word_is_an_illegal_action_not_unreadable_cards(text: str, message: str) -> None:
    # A typo of a word was read as card text ("unknown card token 'p'"), a CardsError where
    # every other action text that names nothing legal is an IllegalActionError.
    game = Game(seed=1)
    with pytest.raises(IllegalActionError, match=message):
        game.step(text)
    with pytest.raises(dz.CardsError, match="unknown card token 'c' at position 0"):
        game.step("c3")  # a suit letter with no rank before it stays unreadable cards
    assert not game.history


def test_cards_play_as_their_text_does() -> None:
    by_text, by_cards, by_step = (Game.from_position(["3334", "5", "6"], 0, 0) for _ in range(3))
    by_text.play("333")
    by_cards.play(dz.Cards("333"))
    by_step.step(dz.Cards("333"))
    assert by_cards.hash == by_step.hash == by_text.hash
    with pytest.raises(IllegalActionError, match="does not beat 333") as refused:
        by_cards.play(dz.Cards("5"))  # seat 1's 5 cannot beat a trio
    with pytest.raises(IllegalActionError, match=re.escape(str(refused.value))):
        by_text.play("5")
    assert by_cards.hash == by_text.hash
    with pytest.raises(TypeError, match="an action is an Action, a Move, Cards or text, not int"):
        by_cards.play(5)  # type: ignore[arg-type]


def test_seed_example_and_score_function() -> None:
    s = dz.score(3, bombs=2)
    assert (s.multiplier, s.payouts) == (4, (24, -12, -12))
    s = dz.score(1, rockets=1, anti_spring=True, landlord_won=False, landlord=2)
    assert s.payouts == (4, 4, -8)
    assert dz.score(2, bombs=4, rockets=1, max_multiplier=8, landlord=1).multiplier == 8
    with pytest.raises(ValueError, match="spring needs the landlord to win"):
        dz.score(1, spring=True, landlord_won=False)


def test_a_settlements_repr_says_what_doubled_the_stake() -> None:
    # A bomb and a spring both double: the two settlements, unequal, printed alike.
    assert repr(dz.score(1, bombs=1)) == ("Settlement(landlord_won=True, base=1, multiplier=2, bombs=1, "
                                          "payouts=(4, -2, -2))")
    assert repr(dz.score(1, spring=True)) == ("Settlement(landlord_won=True, base=1, multiplier=2, spring=True, "
                                             "payouts=(4, -2, -2))")
    doubled = dz.score(2, rockets=1, anti_spring=True, landlord_won=False)
    assert repr(doubled) == ("Settlement(landlord_won=False, base=2, multiplier=4, rockets=1, anti_spring=True, "
                             "payouts=(-16, 8, 8))")
    happy = dz.Game(seed=3, rules=dz.Rules.preset("happy"))  # seat 2 is dealt both jokers
    while happy.result is None:
        happy.step(dz.choose_action(happy, "heuristic", 0))
    assert happy.result.start_bonuses == (("jokers", 2),)
    assert "start_bonuses=(('jokers', 2),), payouts=" in repr(happy.result)
    assert repr(dz.score(1)) == "Settlement(landlord_won=True, base=1, multiplier=1, payouts=(2, -1, -1))"


@pytest.mark.parametrize("settlement", [
    dz.score(1, bombs=20, players=4),  # an exact multiplier past the largest cap (10**6)
    dz.score(2**20 + 1),  # a base past the bound the pickle read (2**20; score takes 2**30)
    dz.score(2**20, bombs=19, players=4),  # payouts past 2**40
    dz.score(2**30, bombs=26, rockets=1, spring=True, players=4),  # the largest stake
    dz.score(3, bombs=5, max_multiplier=8),  # a cap below the product
], ids=["multiplier", "base", "payouts", "largest", "capped"])
def test_every_settlement_score_gives_pickles(settlement: dz.Settlement) -> None:
    # A four-player hand of 20 bombs settled, and refused to unpickle: "max_multiplier
    # must be between 0 (no cap) and 1000000" (its multiplier was read as a cap).
    assert pickle.loads(pickle.dumps(settlement)) == settlement


def test_a_pickled_settlement_out_of_range_is_no_settlement() -> None:
    state = dz.score(3, bombs=5, max_multiplier=8).__reduce__()[2]
    for index, value, says in [(8, 64, "the multiplier does not follow"), (8, 2**31, "multiplier must be in 1.."),
                               (0, 2**31, "base must be in 0..1073741824")]:
        broken = (*state[:index], value, *state[index + 1:])
        with pytest.raises(dz.RecordError, match=says):
            dz.Settlement.__new__(dz.Settlement).__setstate__(broken)
    with pytest.raises(ValueError, match=r"bombs must be in 0\.\.13"):
        dz.score(3, bombs=2**70)  # the decks' range, not an int's


@pytest.mark.parametrize("preset", PRESETS)
def test_random_games_keep_the_invariants(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(preset)
    for seed in range(250):
        game = Game(seed=seed, rules=rules, first_bidder=seed % 3)
        play_randomly(game, rng)
        result = game.result
        assert result is not None and sum(result.payouts) == 0
        assert held_cards(game) == FULL_DECK  # with the kitty of a void hand (openspiel)
        replay = Game.from_record(json.loads(json.dumps(game.to_record())))
        assert replay.hash == game.hash and replay.history == game.history


def test_undo_restores_hash_and_copies_are_independent() -> None:
    rng = random.Random(9)
    for seed in range(60):
        game = Game(seed=seed)
        hashes = [game.hash]
        snapshot = None
        while game.phase != "over":
            game.step(rng.choice(game.legal_actions()))
            hashes.append(game.hash)
            if snapshot is None and game.phase == "playing":
                snapshot = (game.copy(), game.hash, copy.deepcopy(game))
        for expected in reversed(hashes[:-1]):
            game.undo()
            assert game.hash == expected
        assert snapshot is not None and snapshot[0].hash == snapshot[1] == snapshot[2].hash
        with pytest.raises(IllegalActionError, match="nothing to undo"):
            game.undo()


@pytest.mark.parametrize("preset", PRESETS)
def test_a_pickled_game_is_the_same_hand_and_undoes_as_far(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(preset)
    for seed in range(40):
        game = Game(seed=seed, rules=rules, first_bidder=seed % rules.players)
        play_randomly(game, rng, steps=seed % 37)
        twin = pickle.loads(pickle.dumps(game))
        assert type(twin) is Game and twin.to_record() == game.to_record()
        assert (twin.hash, twin.phase, twin.legal_actions()) == (game.hash, game.phase, game.legal_actions())
        while game.history:  # the same line back to the deal
            game.undo()
            twin.undo()
            assert twin.hash == game.hash
    puzzle = Game.from_position(["3K", "A"], landlord=0, to_move=1, last="4", last_by=0)
    assert pickle.loads(pickle.dumps(puzzle)).to_record() == puzzle.to_record()


REDEALING = [name for name in Rules.presets() if Rules.preset(name).bidding != "none"
             and Rules.preset(name).redeal_when_nobody_bids]


@pytest.mark.parametrize("preset", REDEALING)
def test_a_world_pickles_with_its_redeals_and_plays_on_as_it_would(preset: str) -> None:
    # A world's redeals and earlier deals are no draws of its seed (hide_from), and its
    # deals show the real wild ranks: its record gives them, and the copy redeals alike.
    rules = Rules.preset(preset)
    redealt = 0
    for seed in range(12):
        real = Game(seed=seed, rules=rules)
        while real.phase == "bidding" and real.redeals < 2:
            real.step(real.legal_actions()[0])  # nobody bids: redeals
        redealt += real.redeals > 0
        for world in dz.sample_worlds(real, seed % real.seats, 2, seed):
            assert [deal[2] for deal in world.deals] == [deal[2] for deal in real.deals]
            twin = pickle.loads(pickle.dumps(world))
            assert (twin.deals, twin.hash, twin.seed) == (world.deals, world.hash, world.seed)
            for _ in range(3 * rules.players):  # more redeals, from the world's stream
                if world.phase != "bidding":
                    break
                world.step(world.legal_actions()[0])
                twin.step(world.history[-1][1])
            assert (twin.deals, twin.hash) == (world.deals, world.hash)
            while world.history:
                world.undo()
                twin.undo()
                assert twin.hash == world.hash
    assert redealt


def test_a_run_fast_world_pickles_with_its_first_leader() -> None:
    # The first leader is drawn from the seed, and a world's seed is drawn afresh: the
    # copy drew another leader (38 of 80 worlds), or refused the recorded plays.
    rules = Rules.preset("run_fast")
    rng = random.Random(3)
    for seed in range(20):
        game = Game(seed=seed, rules=rules)
        play_randomly(game, rng, steps=seed % 9)
        for world in dz.sample_worlds(game, seed % 3, 4, seed):
            twin = pickle.loads(pickle.dumps(world))
            assert (twin.to_move, twin.hash, twin.legal_actions()) == (world.to_move, world.hash, world.legal_actions())


def test_a_record_from_a_given_deal_gives_its_redeals() -> None:
    game = Game.from_deal(*Game(seed=5).deals[0][:2], seed=9)
    for _ in range(3):
        game.step("bid 0")
    record = game.to_record()
    other = Game(seed=77).deals[0]
    record["deals"][1] = {"hands": [str(hand) for hand in other[0]], "kitty": str(other[1])}
    replayed = Game.from_record(record)
    assert replayed.deals[1] == other and replayed.hand(0) == other[0][0]
    record["deals"][1]["kitty"] = "33"
    with pytest.raises(dz.RecordError, match=r"deals\[1\]: kitty: the kitty holds 3 cards"):
        Game.from_record(record)
    record["deals"][1] = game.to_record()["deals"][1]  # the seed's own redeal: the stream goes on past it
    replayed = Game.from_record(record)
    for _ in range(3):
        game.step("bid 0")
        replayed.step("bid 0")
    assert replayed.deals == game.deals


@pytest.mark.parametrize("preset", ["douzero", "rlcard", "four_player"])
def test_a_hand_without_an_auction_replays_from_its_first_bidder(preset: str) -> None:
    # Where nobody bids the first bidder is the landlord, and the record writes that seat
    # for both: the reader refused every first bidder but seat 0 (and so did pickle).
    rules = Rules.preset(preset).replace(bidding="none")
    hands, kitty, _ = Game(seed=0, rules=rules).deals[0]
    for seat in range(rules.players):
        for given in ({"first_bidder": seat}, {"landlord": seat}):
            game = Game.from_deal(hands, kitty, rules=rules, seed=0, **given)
            game.step(game.legal_actions()[0])
            for twin in (Game.from_record(game.to_record()), pickle.loads(pickle.dumps(game))):
                assert (twin.origin, twin.landlord, twin.hash) == (game.origin, seat, game.hash)
    record = Game.from_deal(hands, kitty, rules=rules, seed=0, first_bidder=1).to_record()
    record["landlord"] = 2
    with pytest.raises(dz.RecordError, match="first_bidder must be 0 with a given landlord"):
        Game.from_record(record)


@pytest.mark.parametrize(("to_move", "plays", "anti_spring"), [
    (2, ["3", "4", "5"], False),  # the landlord's one play a follow: no opening play (was an anti-spring)
    (0, ["4", "5"], True),  # the landlord's opening lead, and nothing after it
])
def test_an_anti_spring_is_the_landlords_opening_play_alone(to_move: int, plays: list[str], anti_spring: bool) -> None:
    game = Game.from_position(["4K", "5", "36"], landlord=0, to_move=to_move)
    for action in plays:
        game.step(action)
    assert game.result is not None and not game.result.landlord_won and game.result.anti_spring is anti_spring
    assert game.result.multiplier == (2 if anti_spring else 1)


def test_puzzle_positions() -> None:
    # Landlord (seat 0) holds 3 and K against one opponent holding A, who must beat a 4.
    game = Game.from_position(["3K", "A"], landlord=0, to_move=1, last="4", last_by=0)
    assert game.seats == 2 and [str(a) for a in game.legal_actions()] == ["pass", "A"]
    game.play("A")
    assert game.phase == "over" and game.winner == 1
    # The peasant wins; the landlord made no play from this position, so no anti-spring.
    assert game.result is not None and not game.result.anti_spring and game.result.payouts[:2] == (-1, 1)
    rec = game.to_record()
    assert Game.from_record(rec).hash == game.hash
    with pytest.raises(ValueError, match="last_by must differ"):
        Game.from_position(["3", "4"], landlord=0, to_move=1, last="5", last_by=1)
    with pytest.raises(dz.CardsError, match="the hands hold 5 cards of rank 3, the deck 4"):
        Game.from_position(["33", "333"], landlord=0, to_move=0)


def test_observation_hides_what_the_seat_cannot_know() -> None:
    game = Game(seed=11)
    obs = game.seat_view(1)
    assert obs["hand"] == game.hand(1) and obs["kitty"] is None and obs["landlord"] is None
    assert obs["hand_sizes"] == (17, 17, 17)
    game.bid(3)
    obs = game.seat_view(2)
    assert obs["kitty"] == game.kitty and obs["landlord"] == 0 and obs["hand_sizes"] == (20, 17, 17)
    assert [(seat, str(a)) for seat, a in obs["history"]] == [(0, "bid 3")]


def test_the_rule_books_example_record_is_the_record_of_its_hand() -> None:
    book = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    example = json.loads(book.split("## Records", 1)[1].split("```json", 1)[1].split("```", 1)[0])
    game = Game(seed=example["seed"])
    for action in example["actions"]:
        game.step(action)
    record = game.to_record()
    assert {k: v for k, v in example.items() if k != "rules"} == {k: v for k, v in record.items() if k != "rules"}
    assert example["rules"].keys() - {"..."} <= record["rules"].keys()
    assert all(record["rules"][k] == v for k, v in example["rules"].items() if k != "...")


def test_records_reject_tampering() -> None:
    game = Game(seed=4)
    play_randomly(game, random.Random(4))
    record = game.to_record()
    bad = json.loads(json.dumps(record))
    bad["actions"][-1] = "pass" if bad["actions"][-1] != "pass" else "bid 1"
    with pytest.raises(dz.RecordError, match=r"actions\[\d+\] \('pass'\) is illegal"):
        Game.from_record(bad)
    bad = json.loads(json.dumps(record))
    bad["deals"][0]["kitty"] = "333"
    with pytest.raises(ValueError):
        Game.from_record(bad)

    class Small(enum.IntEnum):
        FOUR = 4

    for field in ("seed", "version", "first_bidder"):  # integers are never enum members, here as in every call
        with pytest.raises(dz.RecordError, match=f"record.{field}: Small.FOUR is an enum member"):
            Game.from_record({**record, field: Small.FOUR})


def test_a_given_landlord_takes_no_first_bidder() -> None:
    # With the landlord given nobody bids: first_bidder was taken, unused, and recorded.
    hands, kitty, _ = Game(seed=3).deals[0]
    with pytest.raises(ValueError, match="first_bidder: landlord=seat skips the bidding"):
        Game.from_deal(hands, kitty, landlord=1, first_bidder=2)
    game = Game.from_deal(hands, kitty, landlord=1)
    record = game.to_record()
    assert record["first_bidder"] == 0 and Game.from_record(record).hash == game.hash  # such records still load
    for tampered in (2, True, 0.0):
        with pytest.raises(dz.RecordError, match="first_bidder must be 0 with a given landlord"):
            Game.from_record({**record, "first_bidder": tampered})


def test_a_deal_with_a_card_twice_is_a_cards_error_naming_its_rank() -> None:
    # Each hand fits the deck alone; together they hold a rank five times: CardsError, as
    # from_position says of its hands (it was a bare ValueError naming no rank).
    hands, kitty, _ = Game(seed=0).deals[0]
    with pytest.raises(dz.CardsError, match=r"hands, kitty: the hands and the kitty hold [5-8] cards of rank ., "
                                            r"the deck 4"):
        Game.from_deal([hands[0], hands[0], hands[2]], kitty)
    with pytest.raises(dz.CardsError, match=r"hands, kitty: the hands and the kitty hold [5-7] cards"):
        Game.from_deal(hands, str(hands[0])[:3])
    record = Game(seed=0).to_record()
    record["start"] = "deal"
    record["deals"][0]["hands"][1] = record["deals"][0]["hands"][0]
    with pytest.raises(dz.RecordError, match="the hands and the kitty hold"):
        Game.from_record(record)


@pytest.mark.parametrize(("preset", "where", "value", "match"), [
    ("laizi", ("deals", 0, "wild"), 2, r"deals\[0\]\.wild must be None, a rank's text"),  # not the rank index 2 (a 5)
    ("laizi", ("deals", 0, "wild"), ["5"], r"deals\[0\]\.wild must be"),
    ("laizi2", ("deals", 0, "wild"), [2, "9"], r"deals\[0\]\.wild\[0\] must be card text, not int"),
    ("standard", ("deals", 0, "hands"), [1, "3", "3"], r"deals\[0\]\.hands\[0\] must be card text"),  # not a mask
    ("standard", ("deals", 0, "kitty"), 7, r"deals\[0\]\.kitty must be card text"),
])
def test_records_take_cards_and_wild_ranks_as_text_only(preset: str, where: tuple[str, int, str], value: object,
                                                        match: str) -> None:
    record = Game(seed=1, rules=Rules.preset(preset)).to_record()
    record["start"] = "deal"
    record["deals"][0][where[2]] = value
    with pytest.raises(dz.RecordError, match=match):
        Game.from_record(record)
    position = Game.from_position(["3", "4"], landlord=0, to_move=0).to_record()
    position["position"]["last"] = 1
    with pytest.raises(dz.RecordError, match=r"position\.last must be card text, not int"):
        Game.from_record(position)


def test_records_of_long_auctions_name_the_redeal_that_does_not_follow() -> None:
    game = Game(seed=3, rules=Rules(max_redeals=10_000))
    for _ in range(3 * 599):  # nobody bids, 599 times: 599 redeals
        game.step("bid 0")
    record = json.loads(json.dumps(game.to_record()))
    assert len(record["deals"]) == 600 and Game.from_record(record).hash == game.hash
    for index in (1, 300, 599):
        bad = json.loads(json.dumps(record))
        bad["deals"][index] = bad["deals"][index - 1]
        with pytest.raises(dz.RecordError, match=rf"deals\[{index}\] is not the redeal that follows from the seed"):
            Game.from_record(bad)
    with pytest.raises(dz.RecordError, match="the actions lead to deal 599, which 'deals' lacks"):
        Game.from_record({**record, "deals": record["deals"][:-1]})
    with pytest.raises(dz.RecordError, match="'deals' holds 601 deals, but the actions lead to 600"):
        Game.from_record({**record, "deals": [*record["deals"], record["deals"][0]]})


def test_match_rotates_the_dealer_and_keeps_scores() -> None:
    match = dz.Match(seed=3)
    rng = random.Random(3)
    bidders = []
    for _ in range(6):
        game = match.new_hand()
        bidders.append(game.seat_view(0)["bidding"]["first_bidder"])
        play_randomly(game, rng)
        match.finish(game)
    assert bidders == [1, 2, 0, 1, 2, 0]
    assert sum(match.scores) == 0 and match.hands_played == 6
    assert match.scores == tuple(sum(s.payouts[i] for s in match.settlements) for i in range(3))


def test_a_match_says_how_it_was_made_and_where_it_stands() -> None:
    # Its repr was <doudizhu.match.Match object at 0x...>.
    match = dz.Match(seed=7, rules=dz.Rules.preset("douzero"), dealer=2)
    made = "<Match(seed=7, rules=Rules.preset('douzero'))"
    assert repr(match) == f"{made}: dealer 2, 0 hands played, scores (0, 0, 0)>"
    game = match.new_hand()
    assert repr(match).endswith("scores (0, 0, 0), a hand in play>")
    match.finish(_played_out(game))  # the match's own hand, stepped in place
    assert repr(match) == f"{made}: dealer 0, 1 hand played, scores {match.scores}>"  # the deal passed on


def _played_out(game: dz.Game) -> dz.Game:
    while game.result is None:
        game.step(dz.choose_action(game, "heuristic", 0))
    return game


def test_match_refuses_what_is_no_game_and_draws_a_seed_for_none() -> None:
    match = dz.Match(seed=None)
    assert 0 <= match.seed < 2**64 and dz.Match(seed=None).seed != match.seed
    game = match.new_hand()
    for not_a_game in (None, "x"):
        with pytest.raises(TypeError, match="game must be a Game"):
            match.finish(not_a_game)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not this match's current hand"):
        match.finish(game.copy())


def test_a_copied_match_goes_on_with_its_copy_of_the_open_hand() -> None:
    # A pickled or copied match held its own copy of the open hand and handed it to no one:
    # new_hand() said "finish the current hand first", finish(the original) was refused.
    match = dz.Match(seed=1)
    assert match.current_hand is None
    game = match.new_hand()
    assert match.current_hand is game
    # copy.copy too: it shared the scores, settlements and open hand, so a hand finished on
    # the copy was booked on the original (and finished on both, twice).
    for copied in (pickle.loads(pickle.dumps(match)), copy.deepcopy(match), copy.copy(match)):
        hand = copied.current_hand
        assert hand is not None and hand is not game and hand.hash == game.hash
        while hand.result is None:
            hand.step(dz.choose_action(hand, "random", 0))
        copied.finish(hand)
        assert copied.hands_played == 1 and copied.current_hand is None and sum(copied.scores) == 0
        copied.new_hand()
    assert match.hands_played == 0 and match.current_hand is game  # the original is its own
    assert match.scores == (0, 0, 0) and match.settlements == () and game.history == []


def test_a_matchs_record_of_itself_is_read_only() -> None:
    # Rules changed mid-match booked part of a hand and left the scores off zero; a dealer of
    # 7 was taken as it was.
    match = dz.Match(seed=1)
    for name, value in (("rules", dz.Rules.preset("four_player")), ("dealer", 7), ("seed", 3), ("settlements", [])):
        with pytest.raises(AttributeError):
            setattr(match, name, value)
