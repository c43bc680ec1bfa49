"""Hostile input at the Python boundary.

Every public function is fed arbitrary strings (unicode, control characters, lone
surrogates, very long), ints (huge, negative), floats, None, bytes, containers, NumPy
arrays of the wrong dtype or shape, and objects of the wrong type. Only TypeError or
ValueError (IllegalActionError is a ValueError) may escape, always with a message, and a
refused action leaves the game exactly as it was (hash, history, record).

The end of the file holds the regression tests of the bugs this fuzzing found.
"""

from __future__ import annotations

import copy
import math
import pathlib
import pickle
import re
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable

import numpy as np
import pytest
from helpers import max_hand, refused_or_ok, seeds, step_counts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import doudizhu as dz
from doudizhu import MOVE_DTYPE, Cards, Game, IllegalActionError, Move, Rules
from doudizhu.envs import VectorEnv

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

RULES_FIELDS = [
    "four_with_two",
    "max_solo_kicker_copies",
    "kicker_trio_extends_airplane",
    "joker_kicks_four_with_two",
    "both_jokers_as_kickers",
    "pair_kickers_share_rank",
    "decks",
    "bidding",
    "passed_may_bid_again",
    "redeal_when_nobody_bids",
    "call_base",
    "max_multiplier",
]

SPECIAL: list[Any] = [
    None, True, False, 0, -1, 1, 3, 15, 16, 2**31 - 1, 2**31, -(2**31) - 1, 2**60 - 1, 2**60, 2**63, 2**64 - 1,
    2**64, -(2**64), 2**200, -(2**200), 0.0, -0.0, 1.5, 3.0, math.nan, math.inf, -math.inf, 1j,
    "", " ", ",", "\x00", "\x00\x01\x7f", "\ud800", "3\udc00", "\U0001f0a1", "3\u2660\u2660", "\u2660",
    "3" * 100_000, "pass", "PASS", "bid 3", "bid 9", "bid -1", "call", "decline", "rob", "no rob",
    "BR", "33", "10", "3s 3h", "33334444", "3/TRIO_SOLO/3", "3/", "/", "//", "3/XX/3", "3/SOLO/\ud800",
    b"33", bytearray(b"3"), memoryview(b"3"), [], [None], ["3", 5], [[]], {}, {"3": 1}, set(), frozenset({"3"}),
    (), ("3",), object(), range(3), Decimal("3"), Decimal("nan"), Fraction(1, 3),
    np.int64(-1), np.int64(3), np.uint64(2**64 - 1), np.float32(3), np.bool_(True), np.array([]),
    np.array([[1]]), np.array(["x"]), np.zeros(3, dtype=np.float16), np.array(3), Cards("3"), Rules(),
    Rules.preset("douzero"), Move("3"), dz.Action.pass_(), dz.Action.bid(1), dz.MoveKind.BOMB, Game,
]


def _surrogates(codes: list[int]) -> str:
    return "".join(map(chr, codes))


texts = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="3456789TJQKA2BRtjqkabrxXsShHdDcC10 ,/\u2660\u2665", max_size=30),
    st.lists(st.integers(0xD800, 0xDFFF), min_size=1, max_size=4).map(_surrogates),
    st.text(min_size=200, max_size=2000),
)
ints = st.one_of(st.integers(), st.integers(-(2**70), 2**70), st.integers(-3, 20))
arrays = hnp.arrays(
    dtype=st.one_of(hnp.scalar_dtypes(), hnp.unicode_string_dtypes(max_len=3), hnp.byte_string_dtypes(max_len=3)),
    shape=hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=4),
)
junk = st.one_of(
    st.sampled_from(SPECIAL),
    texts,
    ints,
    st.floats(),
    st.binary(max_size=16),
    st.lists(st.one_of(st.text(max_size=3), st.integers(), st.none()), max_size=20),
    st.dictionaries(st.text(max_size=8), st.one_of(st.integers(), st.text(max_size=3), st.none()), max_size=4),
    arrays,
)


def game_fingerprint(g: Game) -> tuple[Any, ...]:
    return (g.hash, [(s, str(a)) for s, a in g.history], g.to_record(), g.phase, g.to_move,
            [str(g.hand(i)) for i in range(g.seats)])


def played_game(seed: int, steps: int, rules: Rules | None = None) -> Game:
    g = Game(seed, rules=rules)
    for i in range(steps):
        actions = g.legal_actions()
        if not actions:
            break
        g.step(actions[(seed + 7 * i) % len(actions)])
    return g


# --- Cards ---------------------------------------------------------------------


@FAST
@given(junk)
def test_cards_from_anything(x: Any) -> None:
    c = refused_or_ok(Cards, x)
    if c is not None:
        assert isinstance(c, Cards)
        assert Cards(str(c)) == c
        assert 0 <= c.mask < 2**60
        assert all(0 <= n <= 8 for n in c.counts)


@FAST
@given(junk, junk)
def test_cards_methods(x: Any, y: Any) -> None:
    c = Cards("334BR")
    refused_or_ok(Cards.from_mask, x)
    refused_or_ok(Cards.from_counts, x)
    refused_or_ok(Cards.from_counts, [x] * 15)
    refused_or_ok(Cards.from_counts, [0] * 14 + [x])
    refused_or_ok(c.count, x)
    refused_or_ok(lambda: c + x)
    refused_or_ok(lambda: c - x)
    refused_or_ok(lambda: x + c)
    refused_or_ok(lambda: c <= x)
    refused_or_ok(lambda: c < x)
    refused_or_ok(lambda: c == x)
    refused_or_ok(lambda: (x, y) in {c: 1})
    assert c == Cards("334BR")  # immutable whatever happened


@FAST
@given(st.lists(ints, min_size=0, max_size=17))
def test_cards_from_counts_ints(counts: list[int]) -> None:
    c = refused_or_ok(Cards.from_counts, counts)
    if c is not None:
        assert list(c.counts) == counts


# --- Rules ---------------------------------------------------------------------


@FAST
@given(st.sampled_from(RULES_FIELDS), junk)
def test_rules_fields(field: str, value: Any) -> None:
    r = refused_or_ok(Rules, **{field: value})
    if r is not None:
        assert Rules(**r.to_dict()) == r
    base = Rules.preset("rlcard")
    refused_or_ok(base.replace, **{field: value})
    assert base == Rules.preset("rlcard")


@FAST
@given(texts, junk)
def test_rules_unknown_fields_and_presets(name: str, value: Any) -> None:
    if name not in RULES_FIELDS:
        with pytest.raises(TypeError):
            Rules(**{name: value})
    refused_or_ok(Rules.preset, name)
    refused_or_ok(Rules.preset, value)


# --- Moves and move generation ---------------------------------------------------


@FAST
@given(junk, junk, junk)
def test_move_and_classify(cards: Any, kind: Any, rules: Any) -> None:
    refused_or_ok(Move, cards)
    refused_or_ok(Move, cards, kind)
    refused_or_ok(Move, cards, rules=rules)
    refused_or_ok(Move, "3", kind=kind)
    refused_or_ok(dz.classify, cards)
    refused_or_ok(dz.classify, cards, rules)
    refused_or_ok(dz.classify, "33", rules=rules)
    refused_or_ok(Move("3").beats, cards)


@FAST
@given(junk, junk, junk)
def test_legal_moves_junk(hand: Any, last: Any, rules: Any) -> None:
    for fn in (dz.legal_moves, dz.legal_moves_array):
        refused_or_ok(fn, hand)
        refused_or_ok(fn, "33344456", last)
        refused_or_ok(fn, hand, last, rules)
        refused_or_ok(fn, "33344456", None, rules)
        refused_or_ok(fn, hand=hand, last=last)
        refused_or_ok(fn, "3", None, None, hand)  # too many arguments
        refused_or_ok(fn, "3", **{"rules": None, "extra": last})
        refused_or_ok(fn)


@FAST
@given(junk, junk, junk)
def test_legal_moves_batch_junk(hands: Any, lasts: Any, rules: Any) -> None:
    refused_or_ok(dz.legal_moves_batch, hands)
    refused_or_ok(dz.legal_moves_batch, hands, lasts, rules)
    refused_or_ok(dz.legal_moves_batch, np.array([0x111], dtype=np.uint64), lasts)
    refused_or_ok(dz.legal_moves_batch, np.array([0x111], dtype=np.uint64), None, rules)


@FAST
@given(arrays)
def test_legal_moves_batch_arrays(hands: np.ndarray) -> None:
    before = hands.copy()
    out = refused_or_ok(dz.legal_moves_batch, hands)
    assert hands.tobytes() == before.tobytes()  # never written to
    if out is not None:
        # Accepted only where every hand is a mask the int conversion gives exactly.
        assert hands.ndim == 1
        assert hands.size == 0 or hands.dtype.kind in "iu", f"{hands.dtype} hands accepted and converted: {hands!r}"


@FAST
@given(st.binary(min_size=0, max_size=16 * 6), st.sampled_from([None, Rules.preset("douzero")]))
def test_moves_from_array_garbage_rows(raw: bytes, rules: Rules | None) -> None:
    raw = raw[: len(raw) // 16 * 16]
    arr = np.frombuffer(raw, dtype=MOVE_DTYPE)
    moves = refused_or_ok(dz.moves_from_array, arr)
    if moves is None:
        return
    for m in moves:
        # Whatever came back behaves: text, repr, hashing, as `last`, as a play.
        str(m), repr(m), hash(m)
        assert Cards(str(m.cards)) == m.cards, "moves_from_array made a Move whose cards are no Cards"
        refused_or_ok(dz.legal_moves, "3333444455556666BR", m, rules)
        refused_or_ok(dz.legal_moves_batch, np.array([0x1111], dtype=np.uint64), dz.moves_to_array([m]), rules)
    refused_or_ok(dz.moves_from_array, arr.reshape(-1, 1) if len(arr) else arr.reshape(0, 1))
    refused_or_ok(dz.moves_from_array, np.frombuffer(raw, dtype=np.uint8))
    refused_or_ok(dz.moves_to_array, [raw])


# --- Game ------------------------------------------------------------------------


@FAST
@given(junk, junk, junk)
def test_game_constructors(seed: Any, rules: Any, seat: Any) -> None:
    refused_or_ok(Game, seed)
    refused_or_ok(Game, 1, rules)
    refused_or_ok(Game, 1, None, seat)
    refused_or_ok(Game, seed=seed, rules=rules, first_bidder=seat)
    record = Game(5).to_record()
    hands, kitty = record["deals"][0]["hands"], record["deals"][0]["kitty"]
    refused_or_ok(Game.from_deal, seed, kitty)
    refused_or_ok(Game.from_deal, hands, seed)
    refused_or_ok(Game.from_deal, hands, kitty, seat)
    refused_or_ok(Game.from_deal, hands, kitty, 0, seat)
    refused_or_ok(Game.from_deal, hands, kitty, rules=rules, seed=seed)
    refused_or_ok(Game.from_deal, [hands[0], hands[1], seed], kitty)
    refused_or_ok(Game.from_position, seed, 0, 0)
    refused_or_ok(Game.from_position, ["33", "44", "55"], seat, 0)
    refused_or_ok(Game.from_position, ["33", "44", "55"], 0, seat)
    refused_or_ok(Game.from_position, ["33", "44", "55"], 0, 1, seed)
    refused_or_ok(Game.from_position, ["33", "44", "55"], 0, 1, "6", seat)
    refused_or_ok(Game.from_position, ["33", "44", seed], 0, 1, rules=rules)


def _mangle(record: Any, path: list[Any], value: Any, delete: bool) -> Any:
    record = copy.deepcopy(record)
    node = record
    for key in path[:-1]:
        node = node[key]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return record


def _paths(node: Any, prefix: list[Any]) -> list[list[Any]]:
    out = []
    if isinstance(node, dict):
        for k, v in node.items():
            out.append([*prefix, k])
            out.extend(_paths(v, [*prefix, k]))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.append([*prefix, i])
            out.extend(_paths(v, [*prefix, i]))
    return out


RECORDS = [
    played_game(11, 30).to_record(),
    played_game(12, 8, Rules(bidding="call_rob")).to_record(),
    played_game(13, 40, Rules.preset("douzero")).to_record(),
    Game.from_position(["3345", "667", "8899"], 0, 1, last="5", last_by=0).to_record(),
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(RECORDS))), st.data(), junk, st.booleans())
def test_from_record_mangled(which: int, data: st.DataObject, value: Any, delete: bool) -> None:
    record = RECORDS[which]
    paths = _paths(record, [])
    path = data.draw(st.sampled_from(paths))
    mangled = _mangle(record, path, value, delete)
    g = refused_or_ok(Game.from_record, mangled)
    if g is not None:
        assert isinstance(g, Game)
        # What replays also records and replays again.
        assert Game.from_record(g.to_record()).to_record() == g.to_record()


@FAST
@given(junk)
def test_from_record_not_a_record(x: Any) -> None:
    refused_or_ok(Game.from_record, x)
    refused_or_ok(Game.from_record, {"format": x, "version": 1})
    refused_or_ok(Game.from_record, {"format": "doudizhu.record", "version": x})
    refused_or_ok(Game.from_record, {**RECORDS[0], "rules": x})
    refused_or_ok(Game.from_record, {**RECORDS[0], "extra": x})


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, st.integers(0, 60), junk, st.sampled_from(["standard", "douzero", "openspiel"]))
def test_refused_actions_change_nothing(seed: int, steps: int, x: Any, preset: str) -> None:
    rules = Rules.preset(preset)
    g = played_game(seed, steps, rules)
    before = game_fingerprint(g)
    legal = g.legal_actions()
    for call in (
        lambda: g.step(x),
        lambda: g.play(x),
        lambda: g.bid(x),
        lambda: g.call(x),
        lambda: g.rob(x),
        lambda: g.hand(x),
        lambda: g.seat_view(x),
        lambda: g.step(str(x)[:50]),
    ):
        try:
            call()
        except (TypeError, ValueError) as e:
            assert str(e)
            assert game_fingerprint(g) == before, f"a refused call changed the game ({type(e).__name__}: {e})"
            continue
        except Exception as e:
            pytest.fail(f"{type(e).__name__} escaped with {x!r:.200}: {e}")
        # Accepted: it must have been legal, and undo brings the game back.
        if game_fingerprint(g) != before:
            assert g.history[-1][1] in legal
            g.undo()
            assert game_fingerprint(g) == before


@FAST
@given(seeds, step_counts)
def test_illegal_actions_in_every_phase(seed: int, steps: int) -> None:
    g = played_game(seed, steps, Rules(bidding="call_rob") if seed % 2 else None)
    before = game_fingerprint(g)
    legal = set(g.legal_actions())
    candidates = [dz.Action.pass_(), dz.Action.bid(0), dz.Action.bid(3), dz.Action.call(True), dz.Action.rob(False),
                  "pass", "bid 2", "call", "rob", "33", "BR", "3333", "2222BR", Move("3"), Move("BR")]
    for a in candidates:
        action = a if isinstance(a, dz.Action) else None
        try:
            g.step(a)
        except IllegalActionError as e:
            assert str(e)
            assert action is None or action not in legal
            assert game_fingerprint(g) == before
        except (TypeError, ValueError) as e:
            assert str(e)
            assert game_fingerprint(g) == before
        else:
            assert g.history[-1][1] in legal
            g.undo()
            assert game_fingerprint(g) == before


@FAST
@given(junk, junk, junk, junk)
def test_score_junk(base: Any, bombs: Any, rockets: Any, flag: Any) -> None:
    for kwargs in ({"bombs": bombs}, {"rockets": rockets}, {"spring": flag}, {"landlord": bombs},
                   {"max_multiplier": rockets}, {"anti_spring": flag, "landlord_won": flag}):
        s = refused_or_ok(dz.score, base, **kwargs)
        if s is not None:
            assert sum(s.payouts) == 0
            assert 1 <= s.multiplier <= 2**30


@FAST
@given(st.integers(1, 2**31 - 1), st.integers(0, 2**31 - 1), st.integers(0, 1), st.integers(0, 2**31 - 1))
def test_score_large_counts(base: int, bombs: int, rockets: int, cap: int) -> None:
    s = refused_or_ok(dz.score, base, bombs=bombs, rockets=rockets, max_multiplier=cap)
    if s is not None:
        doublings = bombs + rockets
        want = min(2 ** min(doublings, 30), cap) if cap else 2 ** min(doublings, 30)
        assert s.multiplier == want
        assert s.payouts == (2 * base * want, -base * want, -base * want)


# --- Self-play ---------------------------------------------------------------------

needs_selfplay = pytest.mark.skipif(not hasattr(dz, "selfplay"), reason="self-play is not in this build")


@needs_selfplay
@FAST
@given(junk, junk)
def test_selfplay_junk(x: Any, y: Any) -> None:
    # Only values that cannot ask for a huge run: counts are kept small or refused.
    small = x if not isinstance(x, int) or isinstance(x, bool) or x < 0 or x > 2**62 else x % 3
    refused_or_ok(dz.selfplay, small)
    refused_or_ok(dz.selfplay, 2, policy=x)
    refused_or_ok(dz.selfplay, 2, seed=x)
    refused_or_ok(dz.selfplay, 2, threads=small if not isinstance(small, int) or isinstance(small, bool) else x)
    refused_or_ok(dz.selfplay, 2, rules=x, record=y)
    refused_or_ok(dz.selfplay, 2, first=small)
    refused_or_ok(dz.selfplay, 2, policy=lambda obs, legal: x)
    refused_or_ok(dz.actions_to_rows, x)
    refused_or_ok(dz.actions_to_rows, [(x, dz.Action.pass_())])
    refused_or_ok(dz.actions_to_rows, [(0, x)])
    refused_or_ok(dz.actions_from_rows, x)


@needs_selfplay
@FAST
@given(st.binary(min_size=0, max_size=16 * 4))
def test_actions_from_rows_garbage(raw: bytes) -> None:
    size = dz.ACTION_DTYPE.itemsize
    rows = np.frombuffer(raw[: len(raw) // size * size], dtype=dz.ACTION_DTYPE)
    pairs = refused_or_ok(dz.actions_from_rows, rows)
    for seat, action in pairs or []:
        assert 0 <= seat < 3
        str(action), repr(action), hash(action)
        if action.move is not None:
            assert Cards(str(action.move.cards)) == action.move.cards


@needs_selfplay
def test_selfplay_seed_must_be_an_int() -> None:
    # seed & MASK64 on a NumPy 0-d array raised OverflowError (not a ValueError).
    for seed in (np.array(False), np.array([1, 2]), 1.5, "1"):
        with pytest.raises((TypeError, ValueError)):
            dz.selfplay(2, seed=seed)  # type: ignore[arg-type]


@needs_selfplay
def test_selfplay_refuses_impossible_sizes() -> None:
    # 2**62 games raised ValueError('vector::_M_default_append'): typed, but naming nothing.
    with pytest.raises((ValueError, MemoryError)) as e:
        dz.selfplay(2**62)
    assert "games" in str(e.value)
    with pytest.raises(ValueError):
        dz.actions_to_rows([(999, dz.Action.pass_())])  # was stored as seat 231


# --- Regressions: bugs found by this fuzzing and by fuzz/ ------------------------


def test_regression_surrogates_are_value_errors() -> None:
    # pybind11's str -> std::string cast fails on a lone surrogate: RuntimeError escaped.
    for call in (lambda: Cards("\ud800"), lambda: Game(1).step("3\udc00"), lambda: Rules(bidding="\ud800"),
                 lambda: dz.legal_moves("\ud800")):
        with pytest.raises((TypeError, ValueError)):
            call()


def test_regression_huge_ints_are_typed_errors() -> None:
    # .cast<long>() of an out-of-range int: RuntimeError escaped.
    for call in (lambda: Cards.from_counts([2**70] + [0] * 14), lambda: Cards("3").count(2**70),
                 lambda: Game.from_position(["3", "4", "5"], 0, 1, last="6", last_by=2**80),
                 lambda: Game.from_position(["3", "4", "5"], 0, 1, last="6", last_by="x")):
        with pytest.raises((TypeError, ValueError)):
            call()


def test_regression_record_fields_are_checked() -> None:
    # Missing keys raised KeyError, wrong types RuntimeError.
    rec, pos = RECORDS[0], RECORDS[3]
    bad = [
        {**rec, "version": "1"}, {**rec, "version": 2**80}, {**rec, "deals": [{}]}, {**rec, "first_bidder": "0"},
        {**rec, "landlord": "0"}, {**rec, "format": "\ud800"},
        {**pos, "position": {k: v for k, v in pos["position"].items() if k != "last"}},
        {**pos, "position": {**pos["position"], "last": 5}}, {**pos, "position": {**pos["position"], "landlord": "x"}},
    ]
    for r in bad:
        with pytest.raises((TypeError, ValueError)):
            Game.from_record(r)


def test_a_sequence_changed_while_its_ints_are_read_is_read_as_it_was() -> None:
    # An item's __index__ emptied the list being read: the reader ran past its end (a
    # segfault in legal_moves_batch, ActionSpace.moves and VectorEnv.step).
    from doudizhu.envs import VectorEnv

    held: list[object] = []

    class Emptying(np.int64):
        def __index__(self) -> int:
            held.clear()
            return 1

    env = VectorEnv(2, seed=0)
    batch = env.reset()
    calls = ((dz.legal_moves_batch, [0, 1, 1]), (dz.ActionSpace().moves, None), (env.step, None))
    for call, offsets in calls:
        held[:] = [Emptying(1)] + [0] * (len(batch.env) - 1 if call == env.step else 1000)
        result = call(held)
        if offsets is not None:
            assert list(result[1][:3]) == offsets  # the hand "3", then empty hands

    class Classless(int):
        @property  # type: ignore[misc]
        def __class__(self) -> type:
            raise RuntimeError("no class")

    for call in (dz.legal_moves_batch, dz.ActionSpace().moves):  # the user's error, not a SystemError
        with pytest.raises(RuntimeError, match="no class"):
            call([Classless(1)])


def test_a_records_landlord_is_an_int_seat() -> None:
    # Under bidding "none" a landlord equal to the first bidder is read as the first
    # bidder's: 0.0 and False equal 0, and were taken for seat 0.
    deal = Game(seed=3).deals[0][:2]
    for landlord in (0, 2):
        record = Game.from_deal(*deal, landlord=landlord, rules=Rules(bidding="none")).to_record()
        assert Game.from_record(record).landlord == landlord
        for bad in (float(landlord), bool(landlord), str(landlord)):
            with pytest.raises(dz.RecordError, match="landlord must be a seat"):
                Game.from_record({**record, "landlord": bad})


def test_regression_position_with_an_empty_hand_is_refused() -> None:
    # A seat with no cards has already won; such a position used to be accepted and then
    # stick (a player to lead with nothing to play and no pass).
    with pytest.raises(ValueError):
        Game.from_position(["4", "", "5"], landlord=0, to_move=2, last="3", last_by=1)


def test_regression_call_rob_base_is_not_capped_at_255() -> None:
    # State::base was a uint8: call_base 100 robbed three times gave 255, not 800.
    g = Game(1, Rules(bidding="call_rob", call_base=100))
    g.call(True)
    g.rob(True)
    g.rob(True)
    g.rob(True)
    assert g.phase == "playing"
    assert g.bid_value == 800


def test_regression_score_does_not_overflow() -> None:
    # settle() added bombs + rockets in int: signed overflow (UB), multiplier 1.
    s = refused_or_ok(dz.score, 1, bombs=2**31 - 1, rockets=1)
    assert s is None or s.multiplier == 2**30


def test_regression_batch_refuses_non_integer_hands() -> None:
    # Float, bool and string arrays were converted silently: 1.5 -> 1, '33' -> mask 33.
    for hands in (np.array([1.5]), np.array(["33"]), np.array([True])):
        with pytest.raises(TypeError):
            dz.legal_moves_batch(hands)


def test_regression_moves_from_array_refuses_impossible_cards() -> None:
    row = np.frombuffer(bytes([0xFF] * 8 + [1, 200, 200] + [0] * 5), dtype=MOVE_DTYPE)
    with pytest.raises(ValueError):
        dz.moves_from_array(row)


def test_accepted_inputs_still_work() -> None:
    # The refusals above must not reject what the API documents.
    assert str(Cards("3s 3h 10 BJ rj")) == "33TBR"
    assert Cards.from_counts([1] * 13 + [1, 1]).mask == 0x111111111111111
    assert Cards(np.uint64(0x1)).mask == 1
    hands = np.array([0x111, 0x2], dtype=np.int64)
    moves, offsets = dz.legal_moves_batch(hands)
    assert list(offsets) == [0, 3, 5]
    moves2, offsets2 = dz.legal_moves_batch(hands.astype(np.uint64))
    assert np.array_equal(moves, moves2) and np.array_equal(offsets, offsets2)
    g = Game.from_record(RECORDS[0])
    assert g.to_record() == RECORDS[0]


def test_regression_position_hands_without_length() -> None:
    # Found by hypothesis in CI: a 0-d array passes as a sequence but cannot be iterated.
    with pytest.raises(TypeError, match="hands must be a list of hands"):
        dz.Game.from_position(np.array(False), 0, 0)  # type: ignore[arg-type]


# --- The vectorized environment ------------------------------------------------------

VECTOR_ENV_ARGS = ["num_envs", "rules", "features", "learners", "opponents", "seed", "threads", "mask"]


@FAST
@given(st.sampled_from(VECTOR_ENV_ARGS), junk)
def test_vector_env_arguments(name: str, value: Any) -> None:
    kwargs = {"num_envs": 2, name: value} if name != "num_envs" else {"num_envs": value}
    if isinstance(value, int) and name == "num_envs" and value > 64:
        return  # a valid size: building that many tables is not this test's business
    env = refused_or_ok(VectorEnv, **kwargs)
    if env is not None:
        env.reset()


@FAST
@given(junk)
def test_vector_env_choices(choices: Any) -> None:
    env = VectorEnv(2, seed=1)
    env.reset()
    before = [env.game(i).to_record() for i in range(2)]
    if refused_or_ok(env.step, choices) is None:
        assert [env.game(i).to_record() for i in range(2)] == before


# --- Issue 26: objects made by __new__ alone, typed refusals, bounded hands ----------


def _bound_classes() -> list[type]:
    """Every class of the C++ module, found rather than listed (pybind11's metaclass)."""
    return [c for c in vars(dz._core).values() if isinstance(c, type) and type(c).__name__ == "pybind11_type"]


@pytest.mark.parametrize("cls", _bound_classes(), ids=lambda c: c.__name__)
def test_uninitialised_instances_are_refused_naming_their_class(cls: type) -> None:
    # pybind11 handed the methods of `cls.__new__(cls)` uninitialised memory: garbage
    # values, and SIGSEGV where the fast paths read the value directly.
    blank = cls.__new__(cls)
    says = f"{cls.__name__} object is not initialised"
    for name, attribute in vars(cls).items():
        kind = type(attribute).__name__
        if kind == "pybind11_static_property":
            continue  # the class's, not an instance's
        if isinstance(attribute, property) or kind == "getset_descriptor":
            with pytest.raises(TypeError, match=says):
                getattr(blank, name)
        elif callable(attribute) and not name.startswith("__") and not isinstance(attribute, staticmethod):
            with pytest.raises(TypeError):  # not initialised, or an argument missing
                getattr(blank, name)()
    uses = {"__repr__": repr, "__str__": str, "__hash__": hash, "__eq__": lambda x: x == x, "__len__": len,
            "__bool__": bool, "__iter__": iter, "__copy__": copy.copy, "__deepcopy__": copy.deepcopy,
            "__getstate__": pickle.dumps}
    for name in set(uses) & set(vars(cls)):
        if vars(cls)[name] is not None:
            with pytest.raises(TypeError, match=says):
                uses[name](blank)


def test_uninitialised_values_are_refused_wherever_they_are_passed() -> None:
    cards, rules, move = Cards.__new__(Cards), Rules.__new__(Rules), Move.__new__(Move)
    action, game = dz.Action.__new__(dz.Action), Game.__new__(Game)
    calls: list[Callable[[], Any]] = [
        lambda: Cards("3") + cards, lambda: Cards(cards), lambda: Cards([cards]), lambda: Cards("3") == cards,
        lambda: dz.legal_moves(cards), lambda: dz.legal_moves_array(cards), lambda: dz.legal_moves("3", last=move),
        lambda: Game(rules=rules), lambda: dz.legal_moves("3", rules=rules), lambda: dz.ActionSpace(rules),
        lambda: Game(1).step(action), lambda: Game(1).step(move), lambda: dz.Action.play(move),
        lambda: Move("3").beats(move), lambda: dz.moves_to_array([move]), lambda: dz.encode.observation(game),
        lambda: dz.encode.observation_batch([game]), lambda: dz.solve(game), lambda: dz.sample_worlds(game, 0, 1),
        lambda: dz.ActionSpace().mask(game), lambda: dz.can_play("3", move),
        lambda: game.phase, lambda: game.legal_actions(), lambda: game.step("pass"), lambda: Game.copy(game),
        lambda: dz.rollouts(game), lambda: dz.rollouts([Game(1), game]), lambda: dz.ActionSpace().step(game, 0),
        lambda: game.infoset(0), lambda: game.infoset_key(0),
        lambda: Game(1).infoset(0) == dz.Infoset.__new__(dz.Infoset),
    ]
    for call in calls:
        with pytest.raises(TypeError, match="object is not initialised"):
            call()


def test_cards_counts_and_arrays_are_refused_in_the_projects_words() -> None:
    for counts, says in (({"3": -1}, "the count of '3' is negative"), ({"3": 16}, "the count of '3' is 16"),
                         ({"3": 9}, "9 cards of rank 3"), ({"3": 2**63}, r"is 2\*\*63 or more, more than the decks"),
                         ({"3": np.uint64(2**64 - 1)}, r"is 2\*\*63 or more"), ({"3": -(2**70)}, "is negative")):
        with pytest.raises(dz.CardsError, match=says):
            Cards(counts)
    with pytest.raises(dz.CardsError, match="the count of rank 3 is negative"):
        Cards.from_counts([-1] + [0] * 14)
    with pytest.raises(dz.CardsError, match=r"the count of rank 3 is 2\*\*63 or more"):
        Cards.from_counts([2**64] + [0] * 14)
    with pytest.raises(dz.CardsError, match="not all held"):
        Cards("3") - "4"
    # A NumPy array is an iterable of tokens, never an int (its __index__ made it one).
    assert Cards(np.array(["3", "4"])) == Cards("34")
    for array, says in ((np.array([3, 4]), "tokens must be str or Cards, not int64"),
                        (np.array(3), "cards must be Cards, card text"), (np.array([[1]]), "tokens must be")):
        with pytest.raises(TypeError, match=says):
            Cards(array)
    with pytest.raises(TypeError, match="seed must be an int or None, not ndarray"):
        Game(seed=np.array([5]))
    assert Game(seed=np.int64(5)).hash == Game(seed=5).hash


def test_a_numpy_timedelta_is_no_int_and_no_seconds() -> None:
    # numpy.timedelta64 is one of NumPy's integers: a time budget took one without a unit
    # as seconds, and an int parameter failed in NumPy's words, naming nothing.
    game = Game(seed=5, rules=dz.Rules(bidding="none"))
    before = game.history
    calls: list[tuple[Callable[[], Any], str]] = [
        (lambda: dz.ismcts(game, simulations=None, seconds=np.timedelta64(1)), "seconds must be a number of seconds"),
        (lambda: dz.solve(game, time_limit=np.timedelta64(1)), "time_limit must be a number of seconds"),
        (lambda: dz.ismcts(game, simulations=np.timedelta64(100)), "simulations must be an int, not timedelta64"),
        (lambda: dz.sample_worlds(game, np.timedelta64(1), 1, seed=1), "seat must be an int, not timedelta64"),
        (lambda: Game(seed=np.timedelta64(3)), "seed must be an int or None, not timedelta64"),
    ]
    for call, says in calls:
        with pytest.raises(TypeError, match=says):
            call()
    assert game.history == before


def test_wrong_types_are_named_in_the_projects_words() -> None:
    # pybind11 answered these with "incompatible function arguments" and its signatures.
    game = Game(1)
    calls: list[Callable[[], Any]] = [
        lambda: dz.solve("x"), lambda: dz.solve_moves(None), lambda: dz.sample_worlds(1, 0, 1),
        lambda: dz.playout("x"), lambda: dz.choose_action("x", "random", 0), lambda: dz.Action.play("33"),
        lambda: Move("3").beats("4"), lambda: Move("33", kind=1), lambda: Move("33", kind="PAIR"),
        lambda: dz.actions.from_openspiel(0, bidding=1), lambda: Cards.from_counts(5), lambda: Rules.preset(3),
        lambda: dz.encode.observation("x"), lambda: dz._core.encode_observation_layout("3"),
        lambda: dz._core.selfplay_run(1, [3, None, None]), lambda: dz._core.checked_int(1, 2, 0, 1),
        lambda: dz._core.selfplay_run(1, [None] * 3).apply([0], [3]),
        lambda: Cards.__new__(Cards).__setstate__("x"), lambda: Rules.__new__(Rules).__setstate__(()),
        lambda: Move.__new__(Move).__setstate__([1]), lambda: game.step(3),
        lambda: dz.rollouts("x"), lambda: dz.rollouts([game, 1]), lambda: dz.rollouts(game, copies=1.0),
        lambda: dz.rollouts(game, seat="0"), lambda: dz.rollouts(game, threads=None),
        lambda: dz.ActionSpace().step("x", 0), lambda: dz.ActionSpace().step(game, "0"),
        lambda: dz.ActionSpace().step(game, 0, stand_in_id=0.0), lambda: game.infoset("0"),
        lambda: game.infoset_key(None),
    ]
    for call in calls:
        with pytest.raises(TypeError) as caught:
            call()
        assert "incompatible function arguments" not in str(caught.value) and "Unable to cast" not in str(caught.value)
    with pytest.raises(TypeError, match="not supported between instances"):
        assert Cards("3") <= 5  # type: ignore[operator]
    with pytest.raises(ValueError, match="unknown preset '\\\\ud800'"):
        Rules.preset("\ud800")
    with pytest.raises(dz.MoveError, match="a pickled Move has 6 fields, not 1"):
        Move.__new__(Move).__setstate__((1,))
    # A lone surrogate in a name is no card text: not a CardsError.
    for call in (lambda: dz.selfplay(1, policy="\ud800"), lambda: Rules(bidding="\ud800")):
        with pytest.raises(ValueError) as refused:
            call()
        assert not isinstance(refused.value, dz.CardsError)


@pytest.mark.parametrize("preset", ["standard", "sanren", "four_player", "laizi", "laizi2"])
def test_a_hand_larger_than_a_seat_holds_is_refused_before_any_work(preset: str) -> None:
    # legal_moves of 53 cards under laizi2 listed 19,380,818 moves in 18 s and 3 GB.
    rules = Rules.preset(preset)
    largest = {"standard": 20, "sanren": 18, "four_player": 33, "laizi": 20, "laizi2": 20}[preset]
    deck = dz.Cards("3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR" * rules.decks)
    too_many = Cards.from_counts([min(c, 8) for c in deck.counts]) - Cards("B")
    hand = Cards(str(deck)[: largest])
    wild = (0, 1)[: rules.wild] or None
    says = f"hand: {len(too_many)} cards, more than a hand of these rules holds \\({largest}\\)"
    for call in (dz.legal_moves, dz.legal_moves_array):
        with pytest.raises(dz.CardsError, match=says):
            call(too_many, None, rules, wild)
        assert len(call(hand, None, rules, wild)) > 0
    with pytest.raises(dz.CardsError, match="hands\\[1\\]: " + says[len("hand: "):]):
        dz.legal_moves_batch(np.array([hand.mask, too_many.mask], np.uint64), rules=rules, wild=wild)
    with pytest.raises(dz.CardsError, match=says):
        dz.can_play(too_many, str(deck)[:1], rules=rules, wild=wild)
    longer = Cards(str(deck)[: largest + 1])
    with pytest.raises(dz.CardsError, match=r"hands: \d+ cards, more than a hand of these rules holds"):
        Game.from_position([longer, "B"], 0, 1, rules=rules, wild=wild)
    assert Game.from_position([hand, "B"], 0, 1, rules=rules, wild=wild).phase == "playing"


def test_positions_no_deal_reaches_are_refused() -> None:
    with pytest.raises(dz.CardsError, match="the hands and last hold 5 cards of rank 3, the deck 4"):
        Game.from_position(["3333", "4"], 0, 1, last="3", last_by=0)  # five threes
    with pytest.raises(ValueError, match="last_by is given without last"):
        Game.from_position(["3333", "4"], 0, 1, last_by=0)
    with pytest.raises(ValueError, match="seat 0, not the landlord, holds 18 cards, more than the 17 dealt to it"):
        Game.from_position(["333444555666777888", "9"], 1, 1)  # only the landlord holds more, by the kitty
    assert Game.from_position(["333444555666777888", "9"], 0, 1).hand(0) == Cards("333444555666777888")
    assert Game.from_position(["333", "4"], 0, 1, last="3", last_by=0).last == Move("3")


def test_an_evaluation_of_no_deal_is_refused() -> None:
    # evaluate(a, b, deals=0) reported wp == 0.0: a rate over no games.
    for call in (lambda: dz.evaluate("random", "random", deals=0),
                 lambda: dz._core.evaluation_run("random", None, 0)):
        with pytest.raises(ValueError, match=r"deals must be in 1\.\."):
            call()
    result = dz.evaluate("random", "random", deals=3, rules=Rules.preset("douzero"))
    assert result.by_role["mixed"].games == 0 and math.isnan(result.by_role["mixed"].wp)


def test_a_record_is_read_by_the_built_in_types_own_methods() -> None:
    # A Mapping that is no dict had its own items() run, a tuple subclass its own __iter__:
    # what they raised escaped as no RecordError (and an endless items() would hang).
    import collections.abc

    record = Game(seed=4).to_record()

    class Items(collections.abc.Mapping):  # type: ignore[type-arg]
        def __init__(self, data: dict[str, Any]) -> None:
            self.data = data

        def __getitem__(self, key: str) -> Any:
            return self.data[key]

        def __iter__(self) -> Any:
            return iter(self.data)

        def __len__(self) -> int:
            return len(self.data)

        def items(self) -> Any:
            raise KeyError("its own items ran")

    class Actions(tuple):  # type: ignore[type-arg]
        def __iter__(self) -> Any:
            raise RuntimeError("its own __iter__ ran")

    with pytest.raises(dz.RecordError, match=r"^record.rules: an Items is no JSON object \(a dict is\)"):
        Game.from_record({**record, "rules": Items(record["rules"])})
    with pytest.raises(TypeError, match="a record is a dict, not Items"):
        Game.from_record(Items(record))  # type: ignore[arg-type]
    actions = Actions(record["actions"])
    assert Game.from_record({**record, "actions": actions}).to_record() == record
    with pytest.raises(dz.RecordError, match="seed: seed must be an int, not float"):  # was "an int or None"
        Game.from_record({**record, "seed": 4.0})


def test_a_position_record_under_partner_rules_names_its_partner() -> None:
    # Without position.partner a four_partner record replayed as the landlord alone, with
    # other payouts: a damaged record taken for another hand.
    rules = Rules.preset("four_partner")
    game = Game.from_position(["39", "4", "55", "66"], 0, 0, rules=rules, partner=2)
    game.step("3")
    game.step("4")
    record = game.to_record()
    assert Game.from_record(record).result == game.result
    del record["position"]["partner"]
    with pytest.raises(dz.RecordError, match="'position' lacks the field\\(s\\) 'partner'"):
        Game.from_record(record)


def test_records_that_do_not_give_themselves_back_are_refused() -> None:
    record = Game(seed=3).to_record()
    nested: Any = "pass"
    for _ in range(600):
        nested = [nested]
    laizi = Game.from_deal(*Game(seed=3, rules=Rules.preset("laizi")).deals[0][:2], rules=Rules.preset("laizi"),
                           seed=3, wild=4).to_record()
    for bad, says in (({**record, "actions": [nested]}, "nested deeper than a record goes"),
                      ({**record, "seed": None}, "'seed' must be an int"),
                      ({**record, "version": 2.0}, "unsupported record version 2.0"),
                      ({**record, "version": True}, "unsupported record version True"),
                      ({**laizi, "deals": [{**laizi["deals"][0], "wild": None}]}, "'wild' must name"),
                      # ints past Python's limit on digits written out raised its ValueError
                      ({**record, "version": 10**5000}, "version an int that cannot be written out"),
                      ({**record, "start": 10**5000}, "not an int that cannot be written out"),
                      ({**laizi, "deals": [{**laizi["deals"][0], "wild": [10**5000]}]},
                       r"wild must be None, .* not a list that cannot be written out")):
        with pytest.raises(dz.RecordError, match=says):
            Game.from_record(bad)
    assert Game.from_record(laizi).to_record() == laizi


def test_the_largest_outputs_docs_rules_md_states_are_the_engines() -> None:
    # docs/rules.md states, under each preset, a hand of the largest size and how many
    # moves it lists: the bound a caller can plan for.
    text = (pathlib.Path(__file__).parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    row = r"^  \| (`[a-z_0-9`, ]+`) \| (\d+) \| ([\d,]+) \| `(\w+)`(?:, (\w+) and (\w+) wild|, (\w+) wild)?"
    rows = re.findall(row, text, re.MULTILINE)
    named = [preset for presets, *_ in rows for preset in re.findall(r"`(\w+)`", presets)]
    assert sorted(named) == sorted(Rules.presets())  # every preset, once
    names = {"threes": "3", "fives": "5", "kings": "K"}
    for presets, largest, moves, hand, *wild_names in rows:
        wild = [names[w] for w in wild_names if w] or None
        for preset in re.findall(r"`(\w+)`", presets):
            rules = Rules.preset(preset)
            assert len(Cards(hand)) == int(largest) == max_hand(rules)
            assert len(dz.legal_moves_array(hand, None, rules, wild)) == int(moves.replace(",", "")), preset


def test_a_refused_number_is_told_the_range_that_is_accepted() -> None:
    # Each message states the range the call accepts, not a wider guard's.
    with pytest.raises(ValueError, match=r"base must be in 1\.\.") as refused:
        dz.score(-1)
    with pytest.raises(ValueError, match=re.escape(str(refused.value))):
        dz.score(0)
    game = dz.Game(seed=1)
    for bid in (4, 256, -1, 2**70):  # no bid past 3, however large: the game's own verdict
        with pytest.raises(dz.IllegalActionError, match=r"bids are 1, 2 or 3 \(0 passes\)"):
            game.bid(bid)
    assert game.history == []
    with pytest.raises(ValueError, match=r"ids\[1\]: 9223372036854775808 is outside 0\.\.12346"):
        dz.ActionSpace().moves(np.array([5, 2**63], dtype=np.uint64))


@pytest.mark.parametrize("text", ["", "   ", "\t"])
def test_an_empty_action_says_what_an_action_is(text: str) -> None:
    for game in (dz.Game(seed=1), dz.Game.from_position(["33", "4", "5"], 0, 0)):
        before = game.hash
        with pytest.raises(dz.IllegalActionError, match=r"no action in .*: write cards, pass"):
            game.step(text)
        assert game.hash == before


def test_text_that_is_no_unicode_raises_what_an_unknown_name_raises() -> None:
    # A lone surrogate (bytes read with surrogateescape) has no UTF-8 form: refused with the
    # class an unknown value of the same argument gets, not one of its own.
    game = dz.Game(seed=1)
    cases = [
        (lambda text: dz.choose_action(game, text, 0), ValueError),
        (lambda text: dz.actions.from_rlcard(text), ValueError),
        (lambda text: dz.Rules(bidding=text), dz.RulesError),
        (lambda text: Cards(text), dz.CardsError),
    ]
    for call, error in cases:
        for text in ("\ud800", "nonsense"):
            with pytest.raises(error) as raised:
                call(text)
            assert type(raised.value) is error


def test_score_says_the_real_range_of_each_count() -> None:
    # A negative or huge count was refused as outside 0..1073741824 (an int's width), where
    # the decks allow 13 bombs a deck, one rocket, and Rules a cap up to 1,000,000.
    for kwargs, says in ((dict(bombs=-1), "bombs must be in 0..13"), (dict(bombs=2**31), "bombs must be in 0..13"),
                         (dict(rockets=-1), "rockets must be 0 or 1"),
                         (dict(max_multiplier=-1), r"max_multiplier must be between 0 \(no cap\) and 1000000"),
                         (dict(max_multiplier=2**40), r"max_multiplier must be between 0 \(no cap\) and 1000000")):
        with pytest.raises(ValueError, match=says):
            dz.score(1, **kwargs)
