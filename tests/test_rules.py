"""Rules: presets, keyword fields, immutability and errors."""

from __future__ import annotations

import pickle

import pytest

import doudizhu as dz
from doudizhu import Rules


def test_presets_hold_the_measured_fields() -> None:
    # docs/rules.md, "Rule presets".
    assert Rules() == Rules.preset("standard")
    douzero, rlcard, openspiel = (Rules.preset(n) for n in ("douzero", "rlcard", "openspiel"))
    copies = (douzero.max_solo_kicker_copies, rlcard.max_solo_kicker_copies, openspiel.max_solo_kicker_copies)
    assert copies == (4, 3, 3)
    assert douzero.four_with_two and rlcard.four_with_two and not openspiel.four_with_two
    assert douzero.kicker_trio_extends_airplane and openspiel.kicker_trio_extends_airplane
    assert not rlcard.kicker_trio_extends_airplane
    assert douzero.joker_kicks_four_with_two and rlcard.joker_kicks_four_with_two
    assert douzero.both_jokers_as_kickers and not rlcard.both_jokers_as_kickers
    assert not any(Rules.preset(n).pair_kickers_share_rank for n in Rules.presets())
    assert Rules().max_solo_kicker_copies == 1 and not Rules().joker_kicks_four_with_two


def test_fields_replace_repr_and_pickle() -> None:
    custom = Rules(max_solo_kicker_copies=2, four_with_two=False)
    assert custom.max_solo_kicker_copies == 2 and not custom.four_with_two
    assert custom.replace(four_with_two=True) == Rules(max_solo_kicker_copies=2)
    assert repr(Rules.preset("rlcard")) == "Rules.preset('rlcard')"
    assert "max_solo_kicker_copies=2" in repr(custom)
    assert pickle.loads(pickle.dumps(custom)) == custom
    assert hash(Rules()) == hash(Rules.preset("standard"))
    assert Rules.preset("douzero").to_dict()["both_jokers_as_kickers"] is True


def test_bad_fields_raise_and_leave_rules_unchanged() -> None:
    base = Rules()
    with pytest.raises(TypeError, match="unknown rules field 'jokers'"):
        base.replace(jokers=True)
    with pytest.raises(TypeError, match="must be True or False"):
        Rules(four_with_two=1)
    with pytest.raises(TypeError, match="must be an int"):
        Rules(max_solo_kicker_copies=True)
    with pytest.raises(dz.RulesError, match="between 1 and 4"):
        Rules(max_solo_kicker_copies=5)
    for huge in (2**70, -2**70):  # past an int: the field's own range
        with pytest.raises(dz.RulesError, match="call_base must be between 1 and 1000"):
            Rules(call_base=huge)
    with pytest.raises(dz.RulesError, match=r"max_multiplier must be between 0 \(no cap\) and 1000000"):
        Rules(max_multiplier=2**31)
    with pytest.raises(dz.RulesError, match="unknown preset 'tencent'"):
        Rules.preset("tencent")
    # A preset's name where the fields go: pybind's words listed the constructor's signature.
    with pytest.raises(TypeError, match=r"Rules takes its fields by name .* not a positional str: Rules.preset"):
        Rules("douzero")  # type: ignore[misc]
    with pytest.raises(TypeError, match=r"Rules.replace takes its fields by name .* positional dict: give a dict's "):
        Rules().replace({"bidding": "none"})  # type: ignore[misc]
    with pytest.raises(TypeError, match=r"unknown rules field 'preset' \(Rules.preset\(name\) gives a preset\)"):
        Rules(preset="douzero")  # type: ignore[call-arg]

    class Unprintable:
        def __repr__(self) -> str:
            raise RuntimeError("a repr that raises")

    with pytest.raises(TypeError, match=r"not a positional Unprintable$"):  # no repr taken: the refusal stays
        Rules(Unprintable())  # type: ignore[misc]
    for call in (lambda: Rules.preset("x" * 10_000), lambda: Rules(bidding="x" * 10_000),
                 lambda: Rules.preset("x" * 9_999 + "\udcff")):  # a lone surrogate fell back to the whole repr
        with pytest.raises(dz.RulesError, match=r"'xxx.*\.\.\. \(10000 characters\)") as refused:
            call()  # a long name quoted as an excerpt with its length, not 10,000 characters
        assert len(str(refused.value)) < 300
    with pytest.raises(AttributeError):
        base.four_with_two = False  # type: ignore[misc]
    assert base == Rules()


def test_values_an_error_shows_never_run_their_repr_past_need() -> None:
    class Raising(str):
        def __repr__(self) -> str:
            raise RuntimeError("a str subclass's repr")

    with pytest.raises(dz.RulesError, match=r"unknown preset 'a\\udcff'"):
        Rules.preset(Raising("a\udcff"))  # its repr replaced the refusal

    class Unwritable:
        def __repr__(self) -> str:
            raise RuntimeError("a key's repr")

    with pytest.raises(TypeError, match="unknown rules field a Unwritable that cannot be written out"):
        Rules.__new__(Rules).__setstate__({Unwritable(): 1})

    class Interrupted:
        def __repr__(self) -> str:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):  # Ctrl-C in a repr is not the value's fault: it goes on
        Rules.__new__(Rules).__setstate__({Interrupted(): 1})
    with pytest.raises(TypeError, match=r"unknown rules field \(10+\.\.\. \(4303 characters\)$"):
        Rules.__new__(Rules).__setstate__({(10**4299,): 1})  # a tuple's repr past 80 bytes: cut
    # Quotes and backslashes are escaped: a newline and the text a\x0ab quoted alike.
    messages = set()
    for name in ("a\nb", "a\\x0ab", "it's"):
        with pytest.raises(dz.RulesError) as refused:
            Rules.preset(name)
        messages.add(str(refused.value))
    assert len(messages) == 3 and any("'it\\'s'" in m for m in messages)


def test_fields_read_ints_and_bools_as_every_argument_does() -> None:
    import numpy as np

    from doudizhu import MoveKind

    assert Rules(max_redeals=np.int64(7), wild=np.bool_(True)) == Rules(max_redeals=7, wild=True)
    with pytest.raises(TypeError, match="'max_redeals' must be an int"):
        Rules(max_redeals=MoveKind.PAIR)  # an enum member is no count
    with pytest.raises(TypeError, match="'decks' must be an int"):
        Rules(decks=2.0)  # type: ignore[arg-type]
    with pytest.raises(dz.RulesError, match="'bidding' must be 'classic', 'call_rob' or 'none'"):
        Rules(bidding="Classic")
    with pytest.raises(TypeError, match="'bidding' must be a str"):
        Rules(bidding=0)  # type: ignore[arg-type]


# --- choices the rule book states (docs/rules.md) -------------------------------------------


def _second_deal(rules: Rules) -> tuple[tuple[dz.Cards, ...], dz.Cards]:
    game = dz.Game(seed=11, rules=rules, first_bidder=2)
    for _ in range(rules.players):
        game.bid(0)
    assert game.redeals == 1 and game.to_move == 2  # the same seat bids first again
    hands, kitty, _ = game.deals[1]
    return tuple(hands), kitty


def test_a_seeds_first_deal_is_every_presets_and_its_redeals_follow_the_wild_draws() -> None:
    standard, laizi, laizi2 = Rules(), Rules.preset("laizi"), Rules.preset("laizi2")
    firsts = {str(dz.Game(seed=11, rules=r).deals[0][:2]) for r in (standard, laizi, laizi2)}
    assert len(firsts) == 1
    assert _second_deal(standard) == _second_deal(Rules.preset("happy"))  # no draw between deals
    assert _second_deal(standard) != _second_deal(laizi) != _second_deal(laizi2)


def test_two_decks_keep_the_one_deck_kicker_rule_for_jokers() -> None:
    four = Rules.preset("four_player")
    assert dz.classify("333444BR", rules=four) == []  # B and R: never two kickers of one combination
    copies = four.replace(max_solo_kicker_copies=2)
    assert [m.kind for m in dz.classify("444555RR", rules=copies)] == [dz.MoveKind.AIRPLANE_SOLOS]


def test_the_warning_with_wild_cards_asks_for_the_highest_rank_held() -> None:
    warned = Rules.preset("laizi").replace(single_card_warning=True)
    game = dz.Game.from_position(["59K", "3", "4"], landlord=0, to_move=0, rules=warned, wild="5")
    solos = [str(a) for a in game.legal_actions() if a.move is not None and a.move.kind == dz.MoveKind.SOLO]
    assert solos == ["K", "5=K"]  # the wild 5 as the K, never above it
    game = dz.Game.from_position(["553", "3", "4"], landlord=0, to_move=0, rules=warned, wild="5")
    assert [str(a) for a in game.legal_actions() if a.move is not None and a.move.kind == dz.MoveKind.SOLO] == ["5"]
