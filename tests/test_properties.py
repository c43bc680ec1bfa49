"""Property tests: generation against brute force and the rules' own invariants."""

from __future__ import annotations

from helpers import hands, in_deck, max_hand, sub_multisets
from helpers import move_key as key
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import doudizhu as dz
from doudizhu import Cards, Rules

PRESETS = [Rules.preset(name) for name in Rules.presets()]


@settings(max_examples=150, deadline=None)
@given(hand=hands(), rules=st.sampled_from(PRESETS))
def test_every_lead_is_a_reading_of_cards_in_hand(hand: Cards, rules: Rules) -> None:
    # A hand a seat holds (sanren: 18; run_fast: 15 of its 48 cards, no kitty taken).
    assume(len(hand) <= max_hand(rules) and in_deck(hand, rules))
    moves = dz.legal_moves(hand, rules=rules)
    assert len({key(m) for m in moves}) == len(moves)
    for move in moves:
        assert move.cards <= hand
        assert move in dz.classify(move.cards, rules)


@settings(max_examples=150, deadline=None)
@given(hand=hands(), other=hands(max_size=12), rules=st.sampled_from(PRESETS), pick=st.integers(0, 10**6))
@example(hand=Cards(""), other=Cards("333"), rules=Rules.preset("run_fast"), pick=21914)  # a short trio as last
def test_every_follow_beats_last_and_none_is_missed(hand: Cards, other: Cards, rules: Rules, pick: int) -> None:
    assume(len(hand) <= max_hand(rules) and in_deck(hand, rules) and in_deck(other, rules))
    # A short move (run_fast's trio with fewer kickers) is a hand's last cards: it ends the
    # hand, so it is never a move to beat (refused as one: MoveError).
    theirs = [move for move in dz.legal_moves(other, rules=rules) if not move.is_short]
    if not theirs:
        return
    last = theirs[pick % len(theirs)]
    follows = dz.legal_moves(hand, last, rules)
    assert all(m.beats(last) for m in follows)
    assert {key(m) for m in follows} == {key(m) for m in dz.legal_moves(hand, rules=rules) if m.beats(last)}


@settings(max_examples=60, deadline=None)
@given(hand=hands(max_size=9), rules=st.sampled_from(PRESETS))
def test_small_hands_equal_brute_force(hand: Cards, rules: Rules) -> None:
    assume(in_deck(hand, rules))
    # A short trio (run_fast) is a move of the last cards only: of the whole hand.
    expected = {key(m) for sub in sub_multisets(hand) for m in dz.classify(sub, rules) if not m.is_short or sub == hand}
    assert {key(m) for m in dz.legal_moves(hand, rules=rules)} == expected


@settings(max_examples=100, deadline=None)
@given(hand=hands())
def test_text_round_trips(hand: Cards) -> None:
    assert Cards(str(hand)) == hand
    assert Cards(str(hand).lower()) == hand
    assert Cards(" ".join(hand)) == hand
