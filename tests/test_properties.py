"""Property tests: generation against brute force and the rules' own invariants."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

import doudizhu as dz
from doudizhu import Cards, Rules

PRESETS = [Rules.preset(name) for name in Rules.presets()]
DECK = [r for r in range(15) for _ in range(1 if r >= 13 else 4)]


@st.composite
def hands(draw: st.DrawFn, max_size: int = 20) -> Cards:
    picks = draw(st.lists(st.sampled_from(range(len(DECK))), unique=True, max_size=max_size))
    counts = [0] * 15
    for i in picks:
        counts[DECK[i]] += 1
    return Cards.from_counts(counts)


def sub_multisets(hand: Cards) -> list[Cards]:
    ranges = [range(c + 1) for c in hand.counts]
    return [Cards.from_counts(list(counts)) for counts in itertools.product(*ranges)]


def key(move: dz.Move) -> tuple[int, int, int, int]:
    return (move.cards.mask, int(move.kind), move.key, move.length)


@settings(max_examples=150, deadline=None)
@given(hand=hands(), rules=st.sampled_from(PRESETS))
def test_every_lead_is_a_reading_of_cards_in_hand(hand: Cards, rules: Rules) -> None:
    moves = dz.legal_moves(hand, rules=rules)
    assert len({key(m) for m in moves}) == len(moves)
    for move in moves:
        assert move.cards <= hand
        assert move in dz.classify(move.cards, rules)


@settings(max_examples=150, deadline=None)
@given(hand=hands(), other=hands(max_size=12), rules=st.sampled_from(PRESETS), pick=st.integers(0, 10**6))
def test_every_follow_beats_last_and_none_is_missed(hand: Cards, other: Cards, rules: Rules, pick: int) -> None:
    theirs = dz.legal_moves(other, rules=rules)
    if not theirs:
        return
    last = theirs[pick % len(theirs)]
    follows = dz.legal_moves(hand, last, rules)
    assert all(m.beats(last) for m in follows)
    assert {key(m) for m in follows} == {key(m) for m in dz.legal_moves(hand, rules=rules) if m.beats(last)}


@settings(max_examples=60, deadline=None)
@given(hand=hands(max_size=9), rules=st.sampled_from(PRESETS))
def test_small_hands_equal_brute_force(hand: Cards, rules: Rules) -> None:
    expected = {key(m) for sub in sub_multisets(hand) for m in dz.classify(sub, rules)}
    assert {key(m) for m in dz.legal_moves(hand, rules=rules)} == expected


@settings(max_examples=100, deadline=None)
@given(hand=hands())
def test_text_round_trips(hand: Cards) -> None:
    assert Cards(str(hand)) == hand
    assert Cards(str(hand).lower()) == hand
    assert Cards(" ".join(hand)) == hand
