"""Cards: parsing, canonical text, multiset arithmetic and errors."""

from __future__ import annotations

import pickle
import re

import numpy as np
import pytest

import doudizhu as dz
from doudizhu import Cards


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("65443433", "33344456"),
        ("rb", "BR"),
        ("BJ RJ", "BR"),
        ("t 10 x X", "TTTT"),
        ("3s 3h 3d 3c", "3333"),
        ("3♠ 3♥ 10♦ A♣", "33TA"),
        ("2,2,a", "A22"),
        ("", ""),
    ],
)
def test_text_forms_parse_to_canonical_text(text: str, canonical: str) -> None:
    assert str(Cards(text)) == canonical


def test_constructors_agree() -> None:
    cards = Cards("33344456BR")
    assert Cards.from_mask(cards.mask) == cards
    assert Cards.from_counts(cards.counts) == cards
    assert Cards(["3", "3", "3", "4", "4", "4", "5", "6", "BJ", "RJ"]) == cards
    assert Cards(cards) == cards
    assert cards.counts == (3, 3, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1)
    assert cards.mask == 0x3 | 0x3 << 4 | 1 << 8 | 1 << 12 | 1 << 52 | 1 << 56


def test_multiset_operations() -> None:
    hand = Cards("33344456")
    assert len(hand) == 8
    assert hand.count("3") == 3 and hand.count(1) == 3 and hand.count("T") == 0
    assert Cards("334") <= hand and not Cards("3333") <= hand
    assert Cards("334") < hand and not hand < hand and hand >= Cards("56")
    assert hand - "3456" == Cards("3344")
    assert hand + "BR" == Cards("33344456BR")
    assert list(Cards("T3")) == ["3", "T"]
    assert not Cards("") and Cards("3")
    assert {Cards("43"), Cards("34")} == {Cards("34")}
    assert repr(hand) == "Cards('33344456')"
    assert pickle.loads(pickle.dumps(hand)) == hand


def test_in_asks_for_a_rank_as_count_does() -> None:
    # `in` iterated the card characters: 0 in Cards("3") and "10" in Cards("T") were False
    # where count() said 1, and "33" in a hand quietly False.
    hand = Cards("3TTB")
    for rank in range(15):
        assert (rank in hand) == (hand.count(rank) > 0)
    assert "t" in hand and "10" in hand and "B" in hand and "R" not in hand and np.int8(0) in hand
    with pytest.raises(ValueError, match="rank must name one rank"):
        assert "33" not in hand
    with pytest.raises(TypeError, match="rank must be an int, not Cards"):
        assert Cards("3") not in hand  # a subset is Cards("3") <= hand


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("3451", "'1'"),
        ("33Z", "'Z'"),
        ("Bs", "'s'"),
    ],
)
def test_bad_tokens_are_named(bad: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Cards(bad)


def test_bad_inputs_raise_typed_errors() -> None:
    with pytest.raises(ValueError, match="rank 3"):
        Cards("3" * 9)  # more than two decks hold
    with pytest.raises(dz.CardsError, match="counts: the count of rank 3 is negative"):
        Cards.from_counts([-1] + [0] * 14)
    with pytest.raises(TypeError, match="count of rank 4"):
        Cards.from_counts([0, True] + [0] * 13)
    assert Cards.from_counts(np.array([0, 2] + [0] * 13)) == Cards("44")  # NumPy counts are ints
    with pytest.raises(ValueError, match="counts: 9 cards of rank 3"):
        Cards.from_counts([9] + [0] * 14)
    with pytest.raises(dz.CardsError, match="15 entries"):
        Cards.from_counts([1, 2])
    with pytest.raises(ValueError, match=re.escape("0..2")):
        Cards.from_mask(-1)
    with pytest.raises(ValueError, match=re.escape("0..2")):
        Cards.from_mask(1 << 64)
    with pytest.raises(TypeError):
        Cards.from_mask("33")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Cards(3.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Cards(True)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Cards([3, 4])  # type: ignore[list-item]
    with pytest.raises(dz.CardsError, match="not all held"):
        Cards("34") - "5"
    with pytest.raises(ValueError, match="rank 3"):
        Cards("33333333") + "3"
