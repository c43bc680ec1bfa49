"""Every input means exactly what it says, or is refused: one regression test per defect
the boundary review found (card text, Python values, records, the stake, bytes and memory,
reconstruction, messages), and property tests of the text grammar."""

from __future__ import annotations

import copy
import json
import os
import pickle
import random
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from helpers import UNDER_ASAN, play_randomly
from hypothesis import given
from hypothesis import strategies as st

import doudizhu as dz
from doudizhu import Cards, Game, Move, MoveKind, Rules

# --- card text ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("QRJ8", "8JQR"),  # a run is one card per character: the jack is not swallowed
        ("K2RJ3", "3JK2R"),
        ("BJ", "JB"),  # the whole text is a run too
        ("rj", "JR"),
        ("BJ RJ", "BR"),  # whole tokens of multi-token text are the long joker names
        ("3 4 bj", "34B"),
        ("3,BJ,rJ", "3BR"),
        ("3BJ RJ", "3JBR"),  # inside a run, never
        ("10 J Q", "TJQ"),
        ("3♠3♥3♦", "333"),
        ("3♠️ 4♥️", "34"),  # suit symbols with the emoji variation selector
        ("ts jh", "TJ"),
    ],
)
def test_card_text_reads_every_card(text: str, expected: str) -> None:
    assert str(Cards(text)) == expected


def test_every_entry_point_reads_a_run_one_card_per_character() -> None:
    assert len(dz.legal_moves("QRJ8")) == len(dz.legal_moves(Cards("8JQR")))
    assert dz.classify("RJ") == []  # a red joker and a jack are no combination
    assert str(Move("QJT98").cards) == "89TJQ"
    game = Game.from_position(["QRJ8", "3"], landlord=0, to_move=0)
    assert len(game.hand(0)) == 4
    assert Cards(["BJ", "RJ"]) == Cards("BR")  # each element of a list is a whole token


def test_action_words_are_not_read_as_cards() -> None:
    game = Game(seed=1)
    with pytest.raises(dz.IllegalActionError, match="bid 0"):
        game.step("bid")  # once read as the black joker and "id"
    assert game.history == []
    game.step("BID 2")
    assert game.bid_value == 2


@given(st.lists(st.sampled_from("3456789TJQKA2"), max_size=17), st.integers(0, 1), st.integers(0, 1), st.randoms())
def test_hands_in_any_spelling_parse_to_the_cards_written(
    ranks: list[str], black: int, red: int, rnd: random.Random
) -> None:
    cards = ranks + ["B"] * black + ["R"] * red
    expected = Cards(Counter(cards))
    rnd.shuffle(cards)
    spelled = []
    for c in cards:
        if c in "BR" and rnd.random() < 0.5:
            c += "J"  # a long name, used only where it is a whole token below
        elif c == "T" and rnd.random() < 0.3:
            c = rnd.choice(["10", "x", "t"])
        elif c not in "BR" and rnd.random() < 0.3:
            c += rnd.choice(["s", "h", "D", "c", "♠", "♥", "♦", "♣"])
        spelled.append(c.lower() if rnd.random() < 0.3 else c)
    separator = rnd.choice([" ", ", ", ",", "  "])
    if len(spelled) >= 2 or not any(t.upper() in ("BJ", "RJ") for t in spelled):
        assert Cards(separator.join(spelled)) == expected
    assert Cards(spelled) == expected


@given(st.integers(0, (1 << 60) - 1))
def test_any_mask_is_cards_exactly_when_two_decks_hold_it(mask: int) -> None:
    # Cards reads against the widest deck: eight of each rank, two of each joker.
    counts = [(mask >> 4 * rank) & 0xF for rank in range(15)]
    fits = all(n <= 8 for n in counts[:13]) and all(n <= 2 for n in counts[13:])
    try:
        cards = Cards.from_mask(mask)
    except dz.CardsError:
        assert not fits
        return
    assert fits and list(cards.counts) == counts and Cards(str(cards)) == cards


# --- Python values -----------------------------------------------------------------------


def test_a_mapping_is_rank_to_count() -> None:
    assert Cards(Counter("33334")) == Cards("33334")
    assert Cards({"3": 4}) == Cards("3333")
    assert Cards({"t": 2, "BJ": 1, "10": 1}) == Cards("TTTB")
    with pytest.raises(dz.CardsError, match="not one card"):
        Cards({"33": 1})
    with pytest.raises(ValueError, match="count"):
        Cards({"3": -1})
    with pytest.raises(TypeError, match="count"):
        Cards({"3": True})
    with pytest.raises(dz.CardsError, match="cards of rank 3"):
        Cards({"3": 9})


@pytest.mark.parametrize("value", [True, False, MoveKind.PAIR, 1.0, np.float64(1.0), np.bool_(True)])
def test_bools_enums_and_floats_are_no_ints(value: object) -> None:
    with pytest.raises(TypeError):
        Cards(value)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Game(seed=value)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Game(seed=1).bid(value)  # type: ignore[arg-type]


def test_call_and_rob_take_a_strict_bool() -> None:
    game = Game(seed=1, rules=Rules(bidding="call_rob"))
    for bad in (None, 0.5, 1, "yes"):
        with pytest.raises(TypeError, match="True or False"):
            game.call(bad)  # type: ignore[arg-type]
    assert game.history == []
    game.call(np.bool_(True))
    assert game.history[0][1] == dz.Action.call(True)


def test_numpy_integers_are_ints() -> None:
    assert Cards(np.uint64(Cards("33").mask)) == Cards("33")
    game = Game(seed=np.int64(5))
    game.bid(np.int8(1))
    assert game.bid_value == 1
    assert len(dz.selfplay(np.int64(3), seed=np.uint64(2))) == 3


# --- seeds: one range everywhere ---------------------------------------------------------


@pytest.mark.parametrize("seed", [-1, 2**64, 2**64 + 42, 10**5000], ids=["-1", "2**64", "2**64+42", "10**5000"])
def test_seeds_outside_the_range_are_refused_everywhere(seed: int) -> None:
    # 10**5000: past Python's 4,300 digits, the message itself raised ("Exceeds the limit").
    game = Game(seed=3)
    calls = [
        lambda: Game(seed=seed),
        lambda: dz.selfplay(1, seed=seed),
        lambda: dz.Match(seed=seed),
        lambda: dz.sample_worlds(game, 0, 1, seed=seed),
        lambda: dz.playout(game, seed=seed),
        lambda: dz.rollouts(game, seed=seed),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=r"seed must be in 0\.\.2\*\*64-1"):
            call()
    record = game.to_record()
    record["seed"] = seed
    with pytest.raises(dz.RecordError, match=r"seed must be in 0\.\.2\*\*64-1"):
        Game.from_record(record)


@pytest.mark.parametrize("seed", [0, 2**63, 2**64 - 1])
def test_seeds_at_the_ends_of_the_range_work_everywhere(seed: int) -> None:
    game = Game(seed=seed)
    assert game.seed == seed
    assert Game.from_record(game.to_record()).seed == seed
    assert len(dz.sample_worlds(game, 0, 2, seed=seed)) == 2
    dz.playout(game, seed=seed)
    assert dz.rollouts(game, seed=seed, copies=2).shape == (2, 3)
    assert len(dz.selfplay(2, seed=seed)) == 2


def test_a_seed_of_none_draws_one_where_a_seed_starts_a_stream_only() -> None:
    # Where a seed starts random draws, None draws it; where it names what a run dealt
    # (a game's deal seed, a game of a run), a drawn one would name nothing: refused.
    game = Game(seed=3)
    assert len(dz.sample_worlds(game, 0, 2, seed=None)) == 2
    assert dz.rollouts(game, seed=None, copies=2).shape == (2, 3)
    assert dz.playout(game, seed=None).phase == "over"
    for call, name in ((lambda: dz.game_seed(None, 1), "seed"), (lambda: dz.game_seed(1, None), "index"),
                       (lambda: dz.choose_action(game, "random", None), "seed")):
        with pytest.raises(TypeError, match=f"{name} must be an int, not NoneType"):
            call()


# --- records -----------------------------------------------------------------------------


def _record(seed: int = 4, rules: Rules | None = None) -> dict:
    game = Game(seed=seed, rules=rules)
    play_randomly(game, random.Random(seed))
    return json.loads(json.dumps(game.to_record()))


def _tampered(change) -> dict:  # type: ignore[no-untyped-def]
    record = _record()
    change(record)
    return record


def _set(path: list, value: object):  # type: ignore[no-untyped-def]
    def change(record: dict) -> None:
        target = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _delete(path: list):  # type: ignore[no-untyped-def]
    def change(record: dict) -> None:
        target = record
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


TAMPERINGS = {
    "format": (_set(["format"], "other"), "format"),
    "no format": (_delete(["format"]), "format"),
    "version 1": (_set(["version"], 1), "version"),
    "version True": (_set(["version"], True), "version"),
    "version text": (_set(["version"], "2"), "version"),
    "start": (_set(["start"], "magic"), "start"),
    "no start": (_delete(["start"]), "start"),
    "extra key": (_set(["comment"], "hi"), "unknown field.*'comment'"),
    "no rules": (_delete(["rules"]), "lacks.*'rules'"),
    "rules not a dict": (_set(["rules"], "standard"), "'rules' must be a dict"),
    "rules lack a field": (_delete(["rules", "max_solo_kicker_copies"]), "lacks.*'max_solo_kicker_copies'"),
    "rules extra field": (_set(["rules", "jokers_wild"], True), "unknown field.*'jokers_wild'"),
    "rules bad value": (_set(["rules", "players"], 5), "rules"),
    "rules bad type": (_set(["rules", "four_with_two"], 1), "rules"),
    "seed negative": (_set(["seed"], -1), "seed"),
    "seed float": (_set(["seed"], 4.0), "seed"),
    "seed other": (_set(["seed"], 5), "deals\\[0\\] is not the deal of seed 5"),
    "no seed": (_delete(["seed"]), "lacks.*'seed'"),
    "first bidder": (_set(["first_bidder"], 3), "first_bidder"),
    "landlord on a seeded hand": (_set(["landlord"], 0), "landlord"),
    "deals empty": (_set(["deals"], []), "'deals' is empty"),
    "deals not a list": (_set(["deals"], {}), "'deals' must be a list"),
    "deal other kitty": (_set(["deals", 0, "kitty"], "333"), "deals\\[0\\]"),
    "deal extra key": (_set(["deals", 0, "dealer"], 1), "unknown field.*'dealer'"),
    "deal wild without wild cards": (_set(["deals", 0, "wild"], None), "unknown field.*'wild'"),
    "deal no hands": (_delete(["deals", 0, "hands"]), "lacks.*'hands'"),
    "actions not a list": (_set(["actions"], "pass"), "'actions' must be a list"),
    "action not text": (_set(["actions", 0], 1), "actions\\[0\\] must be action text"),
    "action unreadable": (_set(["actions", 0], "bid x"), "actions\\[0\\].*bid"),
    "action illegal": (_set(["actions", -1], "pass"), "is illegal"),
    "action extra": (lambda r: r["actions"].append("pass"), "illegal"),
    "no actions": (_delete(["actions"]), "lacks.*'actions'"),
    "not JSON": (_set(["actions", 0], object()), "no JSON value"),
}


@pytest.mark.parametrize("name", sorted(TAMPERINGS))
def test_tampered_records_are_refused_naming_the_field(name: str) -> None:
    change, message = TAMPERINGS[name]
    with pytest.raises(dz.RecordError, match=message):
        Game.from_record(_tampered(change))


def test_a_seeded_records_deal_is_read_as_card_text() -> None:
    # Card text means the same in any case, order or with suits, in records too: the seed's
    # deal written another way is still the seed's deal, and other cards are not.
    record = _record(seed=42)
    game = Game.from_record(record)
    kitty = record["deals"][0]["kitty"]
    for written in (kitty.lower(), kitty[::-1], " ".join(card + "s" for card in kitty)):
        rewritten = json.loads(json.dumps(record))
        rewritten["deals"][0]["kitty"] = written
        rewritten["deals"][0]["hands"][0] = rewritten["deals"][0]["hands"][0][::-1]
        assert Game.from_record(rewritten).hash == game.hash
    other = json.loads(json.dumps(record))
    other["deals"][0]["kitty"], other["deals"][0]["hands"][0] = (record["deals"][0]["hands"][0][:3],
                                                                  record["deals"][0]["hands"][0][3:] + kitty)
    with pytest.raises(dz.RecordError, match=r"deals\[0\] is not the deal of seed 42"):
        Game.from_record(other)


def test_a_long_unreadable_action_is_quoted_as_an_excerpt() -> None:
    record = _record()
    record["actions"][0] = "3" * 250_000
    with pytest.raises(dz.RecordError, match=r"actions\[0\] \('3333") as refused:
        Game.from_record(record)
    assert len(str(refused.value)) < 400  # the whole action was echoed back (a web upload's 422 of 250 KB)


def test_a_given_deal_says_so_and_replays() -> None:
    deal = Game(seed=9).to_record()["deals"][0]
    game = Game.from_deal(deal["hands"], deal["kitty"], landlord=1, rules=Rules.preset("douzero"), seed=3)
    record = game.to_record()
    assert record["start"] == "deal" and record["landlord"] == 1
    assert Game.from_record(json.loads(json.dumps(record))).hash == game.hash
    record["start"] = "seed"
    record["landlord"] = None
    with pytest.raises(dz.RecordError, match="not the deal of seed 3"):
        Game.from_record(record)


def test_a_position_record_replays() -> None:
    game = Game.from_position(["333444", "5"], landlord=0, to_move=1, last="4", last_by=0)
    record = json.loads(json.dumps(game.to_record()))
    assert record["start"] == "position"
    assert Game.from_record(record).hash == game.hash


def test_replay_runs_none_of_the_records_objects() -> None:
    # Once a str subclass mutated the list of actions while the C++ replay walked it
    # (a heap-use-after-free under ASan); replay now copies the record first.
    record = _record()
    actions = record["actions"]

    class Sneaky(str):
        def __eq__(self, other: object) -> bool:
            actions.clear()
            return str.__eq__(self, other)

        __hash__ = str.__hash__

        def lower(self) -> str:
            actions.clear()
            return str.lower(self)

    record["actions"] = [Sneaky(a) for a in actions]
    record["deals"][0]["kitty"] = Sneaky(record["deals"][0]["kitty"])
    replayed = Game.from_record(record)
    assert len(replayed.history) == len(record["actions"])


# --- the stake ----------------------------------------------------------------------------


def _readings(game: Game) -> set[tuple[int, int]]:
    seat = game.to_move if game.to_move is not None else 0
    obs = game.seat_view(seat)
    encoded = dz.encode.observation(game, seat)
    layout = dz.encode.layout_for(game.rules)
    base_block = float(encoded[layout["base"]][0])
    multiplier_block = float(encoded[layout["multiplier"]][0])
    assert base_block == (np.float32(np.log2(game.bid_value)) if game.bid_value > 0 else 0.0)
    assert multiplier_block == np.float32(np.log2(game.multiplier))
    return {(game.bid_value, game.multiplier), (obs["base"], obs["multiplier"])}


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(bidding="call_rob", call_base=4),
        Rules(bidding="none"),
        Rules.preset("openspiel"),
        Rules.preset("four_player"),
        Rules(max_multiplier=4),
    ],
    ids=["classic", "call_rob", "none", "openspiel", "four_player", "capped"],
)
def test_every_reading_of_the_stake_agrees_at_every_step(rules: Rules) -> None:
    for seed in range(8):
        game = Game(seed=seed, rules=rules)
        rnd = random.Random(seed)
        while game.phase != "over":
            assert len(_readings(game)) == 1
            game.step(rnd.choice(game.legal_actions()))
        result = game.result
        assert result is not None
        if result.landlord >= 0:
            assert result.base == game.bid_value


def test_the_stake_before_anyone_bids_is_zero() -> None:
    game = Game(seed=1, rules=Rules(bidding="call_rob", call_base=4))
    assert (game.bid_value, game.seat_view(0)["base"]) == (0, 0)
    game.call(True)
    assert (game.bid_value, game.seat_view(0)["base"]) == (4, 4)
    classic = Game(seed=1)
    classic.bid(2)
    assert classic.seat_view(1)["base"] == 2


def test_the_multiplier_is_exact_or_refused() -> None:
    with pytest.raises(ValueError, match=r"bombs must be in 0\.\.13"):
        dz.score(3, bombs=40)
    with pytest.raises(ValueError, match="rockets"):
        dz.score(3, rockets=2)
    assert dz.score(1, bombs=13, rockets=1, spring=True).multiplier == 2**15
    assert dz.score(1, bombs=26, rockets=1, players=4).multiplier == 2**27
    with pytest.raises(ValueError, match=r"partner must be none, or with 4 seats a seat in 0\.\.3 other than the"):
        dz.score(1, players=4, landlord=0, partner=0)
    assert dz.score(1, players=4, landlord=0, partner=None) == dz.score(1, players=4, landlord=0)


def test_a_position_holding_more_cards_than_the_deck_is_a_cards_error() -> None:
    run_fast = dz.Rules.preset("run_fast")
    with pytest.raises(dz.CardsError, match="hands: the hands hold 5 cards of rank 3, the deck 4"):
        Game.from_position(["3333", "3", "4"], landlord=None, to_move=0, rules=run_fast)
    with pytest.raises(dz.CardsError, match="hands: the hands hold 2 cards of rank 2, the deck 1"):
        Game.from_position(["2", "2", "4"], landlord=None, to_move=0, rules=run_fast)
    with pytest.raises(dz.CardsError, match="the hands and last hold 6 cards of rank 3"):
        Game.from_position(["333", "3", "4"], landlord=0, to_move=0, last="33", last_by=1)
    with pytest.raises(dz.CardsError, match="the hands hold 4 cards of rank B, the deck 2"):
        Game.from_position(["B"] * 4, landlord=0, to_move=0, rules=dz.Rules.preset("four_player"))


def test_a_position_whose_last_player_held_more_than_its_share_is_refused() -> None:
    """A deal cannot reach a seat that played `last` from more cards than it was dealt."""
    with pytest.raises(ValueError, match=r"^last: seat 1's hand \(17 cards\) and its last play \(1\) come to 18, more"):
        Game.from_position(["KK", "33334444555566667", "A"], landlord=0, to_move=2, last="8", last_by=1)
    with pytest.raises(ValueError, match=r"come to 19, more than the 17"):
        Game.from_position(["KK", "3", "A"], landlord=0, to_move=2, last="444555666777888999", last_by=1)
    with pytest.raises(ValueError, match=r"seat 0's hand \(17 cards\) and its last play \(4\) come to 21, .* the 20"):
        Game.from_position(["44445555666677778", "3", "A"], landlord=0, to_move=2, last="9999", last_by=0)
    # Exactly the share: a peasant's 16 and its one card, the landlord's 17 and a trio.
    Game.from_position(["KK", "3333444455556666", "A"], landlord=0, to_move=2, last="8", last_by=1)
    Game.from_position(["44445555666677778", "3", "A"], landlord=0, to_move=2, last="999", last_by=0)


def test_a_finished_games_repr_names_no_seat_to_move() -> None:
    game = dz.playout(Game(seed=2), "fast_heuristic", seed=0)
    assert game.to_move is None and repr(game).startswith("<Game over, hands ")
    assert repr(Game(seed=2)).startswith("<Game bidding, to move ")


# --- bytes and memory ---------------------------------------------------------------------


def test_equal_batches_are_equal_byte_for_byte() -> None:
    hands = np.array([Cards("33344456789TJQKA2BR").mask, Cards("3456").mask], np.uint64)
    first, _ = dz.legal_moves_batch(hands)
    garbage = np.frombuffer(bytes(range(256)) * 1000, np.uint8).copy()  # dirty the heap
    del garbage
    second, _ = dz.legal_moves_batch(hands)
    assert first.tobytes() == second.tobytes()
    assert dz.legal_moves_array("33344456").tobytes() == dz.legal_moves_array("33344456").tobytes()
    pair = dz.moves_to_array([Move("33")]).tobytes()
    assert pair[8:] == bytes([int(MoveKind.PAIR), 0, 1, 0, 0, 0, 0, 0])  # kind, key, length, wild, stand-ins, zero


_LARGE_BATCH = """
import ctypes, ctypes.util, os, numpy as np, doudizhu as dz
def resident_mb():
    return int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
trim = ctypes.CDLL(ctypes.util.find_library("c")).malloc_trim  # hand freed pages back, as glibc would later
dz.legal_moves_batch(np.array([dz.Cards("33").mask], np.uint64))
trim(0)
before = resident_mb()
hands = np.full(4_000_000, dz.Cards("3").mask, np.uint64)
moves, offsets = dz.legal_moves_batch(hands)
del hands, moves, offsets
dz.legal_moves_batch(np.array([dz.Cards("33").mask], np.uint64))
trim(0)
print(resident_mb() - before)
"""


@pytest.mark.skipif(UNDER_ASAN, reason="ASan's allocator keeps freed memory in quarantine")
def test_a_large_batch_gives_its_memory_back() -> None:
    """The batch call keeps its copies of the hands for the thread's next call only when
    small: a batch of millions once held 24 bytes a hand for the thread's whole life. (In a
    fresh process: what other tests freed moves glibc's thresholds, and with them where
    this batch's blocks land.)"""
    done = subprocess.run([sys.executable, "-c", _LARGE_BATCH], capture_output=True, text=True, check=True, timeout=120)
    assert float(done.stdout) < 30  # was 92 MB


def test_more_tables_than_memory_holds_are_refused() -> None:
    """Linux would grant the allocation and end the process when the tables are written."""
    memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    if memory >= 2**20 * 26_000:
        pytest.skip("this machine holds the most tables VectorEnv takes")
    from doudizhu.envs import VectorEnv

    with pytest.raises(dz.TooLargeError,
                       match=r"num_envs: 1048576 tables \(at least \d+ MB\) is more than this machine's"):
        VectorEnv(2**20)


def test_move_rows_have_zero_padding() -> None:
    rows = dz.legal_moves_array("33344456789TJQKA2BR", rules=Rules.preset("laizi"), wild="3")
    raw = rows.view(np.uint8).reshape(-1, 16)
    assert (raw[:, 14:] == 0).all()


@pytest.mark.skipif(UNDER_ASAN, reason="ASan's quarantine keeps freed memory")
def test_interning_is_bounded() -> None:
    import resource

    laizi = Rules.preset("laizi")
    rnd = random.Random(0)
    deck = list("3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222")

    def churn(n: int) -> None:
        for _ in range(n):
            rnd.shuffle(deck)
            dz.legal_moves("".join(deck[:12]), rules=laizi, wild=rnd.choice("3456789TJQKA2"))

    churn(400)  # fills the cache
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    churn(1500)
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kb < 64 * 1024, f"RSS grew by {grown_kb} kB over fresh hands"


def test_a_table_where_nobody_bids_ends() -> None:
    game = Game(seed=0, rules=Rules(max_redeals=3))
    while game.phase == "bidding":
        game.bid(0)
    assert game.phase == "over" and game.redeals == 3
    assert game.result is not None and game.result.payouts == (0, 0, 0) and game.landlord is None
    with pytest.raises(ValueError, match="max_redeals"):
        Rules(max_redeals=10_001)
    many = Game(seed=0)
    while many.phase == "bidding":
        many.bid(0)
    assert many.redeals == Rules().max_redeals


# --- reconstruction -----------------------------------------------------------------------


def test_rows_and_pickles_that_are_no_move_are_refused() -> None:
    rows = dz.moves_to_array([Move("3")])
    rows["kind"][0] = int(MoveKind.ROCKET)
    with pytest.raises(dz.MoveError, match="no move under any rules"):
        dz.moves_from_array(rows)
    with pytest.raises(dz.MoveError):
        Move.__new__(Move).__setstate__((1, 13, 0, 1, 0, 0))  # a 3 as a rocket
    with pytest.raises(dz.MoveError, match="6 fields"):
        Move.__new__(Move).__setstate__((1, 13, 0, 1))  # the old four-field form, unchecked then
    rows = dz.moves_to_array([Move("333345")])  # four with two solos
    with pytest.raises(dz.MoveError, match="under these rules"):
        dz.moves_from_array(rows, rules=Rules.preset("openspiel"))  # which has no four-with-two
    assert dz.moves_from_array(rows, rules=Rules()) == [Move("333345")]
    # Cards no deck holds are said so (bits past the ranks showed as no cards; every bit of
    # the ranks as 289 characters).
    for mask, says in ((1 << 62, "bits set outside the 15 ranks"), (2**64 - 1, "bits set outside the 15 ranks"),
                       ((1 << 60) - 1, "15 cards of rank 3, at most 8 in 2 decks")):
        rows["cards"][0] = mask
        for rules in (None, Rules()):
            with pytest.raises(dz.MoveError, match=rf"^moves\[0\]: cards: {says[:20]}"):
                dz.moves_from_array(rows, rules=rules)


def test_a_move_of_no_cards_is_no_move_and_an_empty_row_is_none() -> None:
    with pytest.raises(dz.MoveError, match="holds cards"):
        Move.__new__(Move).__setstate__((0, int(MoveKind.PAIR), 0, 1, 0, 0))
    rows = dz.moves_to_array([Move("33"), None])
    assert dz.moves_from_array(rows) == [Move("33"), None]  # None round-trips as the empty row
    rows["cards"][0] = 0  # a pair of no cards
    for rules in (None, Rules()):
        with pytest.raises(dz.MoveError, match=r"moves\[0\]: a move of no cards"):
            dz.moves_from_array(rows, rules=rules)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_every_pickle_protocol_pickles_or_refuses(protocol: int) -> None:
    # Below protocol 2, pickle rebuilds through the base class, which aborted the process.
    for value in (Cards("33"), Rules.preset("laizi"), dz.Action.bid(2), Move("33"), MoveKind.PAIR):
        assert pickle.loads(pickle.dumps(value, protocol=protocol)) == value
    space = dz.ActionSpace(Rules.preset("douzero"))
    assert pickle.loads(pickle.dumps(space, protocol=protocol)).num_moves == space.num_moves
    game = Game(seed=1)
    game.step("bid 2")
    assert pickle.loads(pickle.dumps(game, protocol=protocol)).to_record() == game.to_record()

    class MyGame(Game):
        pass

    with pytest.raises(TypeError, match=r"cannot pickle '.*MyGame' object: a Game pickles as its record"):
        pickle.dumps(MyGame(seed=1), protocol=protocol)
    for unpicklable in (game.infoset(0), dz.bots.shipped_network()):
        with pytest.raises(TypeError, match=f"cannot pickle 'doudizhu.{type(unpicklable).__name__}' object"):
            pickle.dumps(unpicklable, protocol=protocol)


def test_reduce_called_directly_reduces_as_pickle_does() -> None:
    # object's __reduce__ is protocol 0's, which builds pybind11's base class: that aborted
    # the process (std::terminate) for every engine class.
    game = Game(seed=1)
    for value in (Cards("33"), Rules.preset("laizi"), dz.Action.bid(2), Move("33"), game.result or game.rules, game):
        rebuild, args, *state = value.__reduce__()
        copy = rebuild(*args)
        if state:
            copy.__setstate__(state[0])
        assert (copy.to_record() == game.to_record()) if value is game else copy == value
    with pytest.raises(TypeError, match=r"cannot pickle 'doudizhu\.Infoset' object"):
        game.infoset(0).__reduce__()


def test_action_rows_that_are_no_action_are_refused() -> None:
    rows = dz.actions_to_rows([(0, dz.Action.bid(2))])
    rows["value"][0] = 7
    with pytest.raises(dz.MoveError, match="rows\\[0\\]: a bid action's value 7 is past 3"):
        dz.actions_from_rows(rows)  # named by its type, not as "bid 0"
    rows = dz.actions_to_rows([(0, dz.Action.partner(1))])
    rows["value"][0] = 7
    with pytest.raises(dz.MoveError, match="a partner action's value 7 is past 4"):
        dz.actions_from_rows(rows)
    for field in ("cards", "kind", "stand_ins"):  # each named: it said "cards" of a row that held none
        rows = dz.actions_to_rows([(0, dz.Action.pass_())])
        rows[field][0] = 1
        with pytest.raises(dz.MoveError, match="only a play holds cards, a kind, a key, a length or stand-ins"):
            dz.actions_from_rows(rows)


def test_actions_and_settlements_copy_and_pickle() -> None:
    game = Game(seed=2)
    play_randomly(game, random.Random(2))
    history = copy.deepcopy(game.history)
    assert history == game.history
    assert pickle.loads(pickle.dumps(game.history)) == game.history
    result = game.result
    assert result is not None
    assert copy.copy(result) == result and pickle.loads(pickle.dumps(result)) == result
    # Values, as the tour says: a settlement hashes as its equals (it was unhashable).
    assert hash(pickle.loads(pickle.dumps(result))) == hash(result) and len({result, copy.copy(result)}) == 1
    assert len({dz.score(1), dz.score(1, bombs=1), dz.score(1)}) == 2
    with pytest.raises(TypeError, match=r"Action takes no arguments to make one: Action\.play\(move\)"):
        dz.Action("bid 2")  # type: ignore[call-arg]  # what its repr reads as: say how one is made
    with pytest.raises(ValueError, match="value"):
        dz.Action.__new__(dz.Action).__setstate__((2, 9, None))  # a bid of 9
    with pytest.raises(dz.MoveError, match="only a play holds cards"):
        dz.Action.__new__(dz.Action).__setstate__((1, 0, Move("3")))  # a pass with cards


# --- messages -----------------------------------------------------------------------------


def test_messages_are_short_valid_and_nul_safe() -> None:
    with pytest.raises(dz.CardsError) as cut:
        Cards("Z123456♠" * 10)
    cut.value.args[0].encode("utf-8")  # valid UTF-8, never cut inside a character
    with pytest.raises(dz.CardsError) as nul:
        Cards("33\x00Z")
    assert "\\x00" in str(nul.value)
    for unseen, shown in [("\u202e", "\\u202e"), ("\u200b", "\\u200b"), ("\u0085", "\\u0085"), ("\ufeff", "\\ufeff"),
                          ("\xa0", "\\u00a0"), ("\u2028", "\\u2028")]:  # U+3000 separates, as full-width text
        with pytest.raises(dz.CardsError) as hidden:  # a terminal would not show it, or would reorder the line
            Cards(f"3{unseen}4")
        assert unseen not in str(hidden.value) and shown in str(hidden.value)
    with pytest.raises(dz.CardsError, match="'3♠Z'"):  # what a terminal shows stays as it is
        Cards("3♠Z")
    with pytest.raises(dz.CardsError) as huge:
        Cards("3" * 5 + "Z" * 5_000_000)
    assert len(str(huge.value)) < 300 and "5000005 characters" in str(huge.value)


def test_argument_errors_are_sentences_naming_the_argument() -> None:
    with pytest.raises(TypeError, match="seed must be an int"):
        dz.Match(seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules must be a Rules"):
        dz.Match(rules="douzero")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="games must be in"):
        dz.selfplay(2**63)


def test_the_error_classes_are_value_errors() -> None:
    for error in (dz.CardsError, dz.MoveError, dz.IllegalActionError, dz.RecordError, dz.NetworkError, dz.RulesError):
        assert issubclass(error, dz.DoudizhuError) and issubclass(error, ValueError)
    game = Game(seed=1)
    with pytest.raises(dz.CardsError):
        game.step("3Z")  # unreadable text
    with pytest.raises(dz.IllegalActionError):
        game.step("33")  # readable, not legal now


@pytest.mark.skipif(UNDER_ASAN, reason="ASan's allocator aborts where malloc fails")
def test_counts_past_memory_are_refused_by_name() -> None:
    # Under a 3 GB address space the allocations fail: a TooLargeError naming the count (a
    # ValueError as other counts out of range, and a MemoryError), not std::bad_alloc's bare one.
    script = """
import resource
import doudizhu as dz
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
for name, call in [("games", lambda: dz.selfplay(90_000_000)),
                   ("deals", lambda: dz.evaluate("random", "random", deals=60_000_000))]:
    try:
        call()
    except dz.TooLargeError as error:
        assert isinstance(error, ValueError) and isinstance(error, MemoryError)
        assert str(error).startswith(name + ": ") and "more than memory can hold" in str(error), error
    else:
        raise AssertionError(name + " ran")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_an_array_numpy_refuses_is_refused_by_name_not_read_as_empty() -> None:
    # A refusal of NumPy's gave pybind11's py::array(), an empty array, not a null one: the
    # hands or ids were read as none, and an empty answer came back.
    class Refusing:
        def __array__(self, dtype: object = None, copy: object = None) -> np.ndarray:
            raise TypeError("no array of mine")

    with pytest.raises(TypeError, match=r"^hands must be a 1-d array"):
        dz.legal_moves_batch(Refusing())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^ids must be a 1-d array"):
        dz.ActionSpace().moves(Refusing())  # type: ignore[arg-type]
    # No ids at all, whatever the dtype, are none (as no hands are): an empty structured array
    # was pybind11's "cannot create a pybind11::array_t from a nullptr".
    assert len(dz.ActionSpace().moves(np.zeros(0, dtype=[("a", "i4"), ("b", "i4")]))) == 0


def test_a_memory_error_of_the_callers_own_code_is_not_taken_for_a_count() -> None:
    # Reading the games ran the sequence's own __getitem__ inside the memory guard, and its
    # MemoryError became "games: 3 games are more than memory can hold".
    from collections.abc import Sequence

    class Games(Sequence):  # type: ignore[type-arg]
        def __len__(self) -> int:
            return 3

        def __getitem__(self, index: object) -> Game:  # type: ignore[override]
            if index == 2:
                raise MemoryError("the cache of my own is full")
            return Game(seed=1)

    with pytest.raises(MemoryError, match="the cache of my own is full") as raised:
        dz.encode.observation_batch(Games())
    assert not isinstance(raised.value, dz.TooLargeError)


def test_a_0d_array_where_items_are_wanted_is_refused_by_name() -> None:
    # A 0-d array passes for a sequence: reading its items raised "iteration over a 0-d
    # array" or "len() of unsized object", naming no argument.
    import doudizhu.envs

    game = Game(seed=0, rules=dz.Rules(bidding="none"))
    name, zero = np.array("random"), np.array(0)
    calls = {
        "policy": [lambda: dz.rollouts(game, name), lambda: dz.playout(game, name),
                   lambda: dz._core.selfplay_run(2, policy=name), lambda: doudizhu.envs.VectorEnv(2, opponents=name)],
        "seats": [lambda: dz.encode.observation_batch([game], zero)],
        "counts": [lambda: dz.Cards.from_counts(zero)],
        "games": [lambda: dz.encode.observation_batch(np.array(game, dtype=object), 0),
                  lambda: dz.rollouts(np.array(game, dtype=object))],
    }
    for what, refused in calls.items():
        for call in refused:
            with pytest.raises(TypeError, match=f"^(opponents: )?{what} must be"):
                call()


_PAST_MEMORY = """
import resource, sys
import doudizhu as dz
resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))
game = dz.Game(seed=1, rules=dz.Rules(max_redeals=3000))
for _ in range(3 * 2999):
    game.bid(0)  # a world copies every deal thrown in: about 1 MB each here
calls = {"sample_worlds": lambda: dz.sample_worlds(game, 0, 2000),
         "rollouts": lambda: dz.rollouts([dz.Game(seed=1)] * 3_000_000),
         "observation_batch": lambda: dz.encode.observation_batch([dz.Game(seed=1)] * 300_000)}
try:
    calls[sys.argv[1]]()
except dz.TooLargeError as error:
    print(error)
"""


@pytest.mark.skipif(UNDER_ASAN, reason="AddressSanitizer maps terabytes of shadow memory: no address-space cap")
@pytest.mark.parametrize(("call", "says"), [("sample_worlds", "n: 2000 worlds of this game are"),
                                            ("rollouts", "games: 3000000 games are"),
                                            ("observation_batch", "games: 300000 games' observations are")])
def test_work_past_memory_is_refused_naming_its_argument(call: str, says: str) -> None:
    # Within their documented ranges these ran out of memory with a bare
    # "MemoryError: std::bad_alloc" (or NumPy's for the array of the answer), naming nothing.
    done = subprocess.run([sys.executable, "-c", _PAST_MEMORY, call], capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{says} more than memory can hold\n", "")
