"""Moves, classification and legal moves through the Python API."""

from __future__ import annotations

import collections
import pickle

import numpy as np
import pytest

import doudizhu as dz
from doudizhu import Cards, Move, MoveKind, Rules


def test_move_fields_and_text() -> None:
    move = Move("33344456")
    assert move.kind is MoveKind.AIRPLANE_SOLOS
    assert (move.key, move.length) == (0, 2)
    assert move.cards == Cards("33344456") and str(move) == "33344456"
    assert repr(move) == "Move('33344456', MoveKind.AIRPLANE_SOLOS, key=0, length=2)"
    assert pickle.loads(pickle.dumps(move)) == move
    assert hash(Move("3")) == hash(Move("3"))
    assert Move("BR").kind is MoveKind.ROCKET and Move("2222").length == 4


def test_move_needs_one_reading() -> None:
    with pytest.raises(ValueError, match="no combination"):
        Move("34")
    with pytest.raises(ValueError, match="several readings"):
        Move("333444555666", rules=Rules.preset("douzero"))
    plane = Move("333444555666", MoveKind.AIRPLANE, rules=Rules.preset("douzero"))
    assert plane.length == 4


def test_classify_lists_every_reading() -> None:
    douzero = Rules.preset("douzero")
    readings = dz.classify("333444555666", douzero)
    assert [(m.kind, m.key, m.length) for m in readings] == [
        (MoveKind.AIRPLANE, 0, 4),
        (MoveKind.AIRPLANE_SOLOS, 0, 3),
        (MoveKind.AIRPLANE_SOLOS, 1, 3),
    ]
    assert dz.classify("34") == []


def test_beats() -> None:
    assert Move("2222").beats(Move("33344456"))
    assert Move("BR").beats(Move("2222")) and not Move("2222").beats(Move("BR"))
    assert not Move("45678").beats(Move("345678"))


def test_legal_moves_lead_and_follow() -> None:
    # 3 solos, 2 pairs, 2 trios, 4 trio+solo, 2 trio+pair, 1 airplane (see the C++ tests).
    assert len(dz.legal_moves("3334445")) == 14
    follows = dz.legal_moves("3456BR", last="3")
    assert sorted(str(m) for m in follows) == ["4", "5", "6", "B", "BR", "R"]
    assert dz.legal_moves("3456BR", last=Move("BR")) == []
    assert dz.legal_moves("44KKKK", last=Cards("QQ")) == [Move("KK"), Move("KKKK")]


def test_text_last_with_several_readings_lists_them() -> None:
    with pytest.raises(ValueError, match="AIRPLANE_SOLOS") as info:
        dz.legal_moves("444555666777", last="333444555666", rules=Rules.preset("douzero"))
    assert "333444555666/AIRPLANE/3; 333444555666/AIRPLANE_SOLOS/3" in str(info.value)


def test_a_reading_is_named_by_the_rank_its_body_starts_from() -> None:
    """The text's third field is a rank in card text, never Move.key's index: with the two
    readings of 44447777 three ranks apart, '/4' must name the body of 4s, not key 4 (7s)."""
    rules = Rules(pair_kickers_share_rank=True)
    game = dz.Game.from_position(["44447777", "3"], landlord=0, to_move=0, rules=rules)
    with pytest.raises(dz.IllegalActionError) as info:
        game.step("44447777")
    listed = str(info.value).split(": ")[-1].split("; ")
    assert listed == ["44447777/FOUR_TWO_PAIRS/4", "44447777/FOUR_TWO_PAIRS/7"]
    for text, key in zip(listed, (1, 4)):  # the rank indices of 4 and 7
        taken = game.copy()
        taken.step(text)
        assert (taken.history[-1][1].move.kind, taken.history[-1][1].move.key) == (MoveKind.FOUR_TWO_PAIRS, key)
    with pytest.raises(dz.CardsError, match=r"/KIND/rank .* not '/FOUR_TWO_PAIRS/0'"):
        game.step("44447777/FOUR_TWO_PAIRS/0")
    assert game.history == []


def test_every_listed_reading_reads_back_to_itself() -> None:
    """The several-readings error lists texts a client can send back: each names its reading."""
    rules = Rules.preset("douzero")
    for cards in ("333444555666", "444555666777", "3334445556667778"):
        readings = dz.classify(cards, rules=rules)
        assert len(readings) > 1
        with pytest.raises(dz.MoveError) as info:
            Move(cards, rules=rules)
        listed = str(info.value).split(": ")[-1].split("; ")
        named = [Move(text, rules=rules) for text in listed]
        assert len(set(named)) == len(named) and set(named) == set(readings)


def test_kickers_are_what_the_body_leaves() -> None:
    """A kind with kickers: its body is `unit` cards of each rank from `key` for `length`
    ranks (docs/rules.md), the kickers the rest; other kinds have none."""
    unit = {MoveKind.TRIO_SOLO: 3, MoveKind.TRIO_PAIR: 3, MoveKind.TRIO_TWO: 3, MoveKind.AIRPLANE_SOLOS: 3,
            MoveKind.AIRPLANE_PAIRS: 3, MoveKind.AIRPLANE_TWOS: 3, MoveKind.FOUR_TWO_SOLOS: 4,
            MoveKind.FOUR_TWO_PAIRS: 4, MoveKind.FOUR_THREE: 4}
    seen = set()
    for name in ("standard", "douzero", "run_fast", "four_partner"):
        rules = Rules.preset(name)
        for seed in range(100):
            for move in dz.legal_moves(dz.Game(seed=seed, rules=rules).hand(0), rules=rules):
                if move.kind in unit:
                    body = "".join(dz.rank_name(r) * unit[move.kind] for r in range(move.key, move.key + move.length))
                    assert move.kickers == move.cards - body, (name, move)
                else:
                    assert not move.kickers, (name, move)
                seen.add(move.kind)
    assert set(unit) <= seen
    assert Move("3666").kickers == Cards("3") and not Move("4444").kickers and not Move("BR").kickers


def test_array_path_matches_the_list() -> None:
    hand = Cards("33344456789TJQKA2BR")
    moves = dz.legal_moves(hand)
    rows = dz.legal_moves_array(hand.mask)
    assert rows.dtype == dz.MOVE_DTYPE and len(rows) == len(moves)
    assert dz.moves_from_array(rows) == moves
    assert list(rows["cards"]) == [m.cards.mask for m in moves]
    assert list(rows["kind"]) == [int(m.kind) for m in moves]
    follow = dz.legal_moves_array(hand, last=Move("6"))
    assert dz.moves_from_array(follow) == dz.legal_moves(hand, Move("6"))


def test_batch_matches_one_call_per_position() -> None:
    hands = [Cards(t) for t in ("33344456789TJQKA2BR", "3456", "BR", "2222")]
    lasts = [None, Move("3"), Move("2222"), Move("33")]
    moves, offsets = dz.legal_moves_batch(np.array([h.mask for h in hands], np.uint64), dz.moves_to_array(lasts))
    assert offsets.dtype == np.int64 and len(offsets) == len(hands) + 1
    for i, (hand, last) in enumerate(zip(hands, lasts)):
        assert dz.moves_from_array(moves[offsets[i] : offsets[i + 1]]) == dz.legal_moves(hand, last)
    all_lead, lead_offsets = dz.legal_moves_batch([h.mask for h in hands])
    assert lead_offsets[-1] == sum(len(dz.legal_moves(h)) for h in hands) == len(all_lead)
    # Strided views (not C-contiguous) are read through a copy, with the same result.
    every_other = dz.moves_to_array([m for m in lasts for _ in range(2)])[::2]
    assert not every_other.flags.c_contiguous
    strided, strided_offsets = dz.legal_moves_batch(np.array([h.mask for h in hands], np.uint64), every_other)
    assert (strided == moves).all() and (strided_offsets == offsets).all()
    assert dz.moves_from_array(every_other[1:]) == lasts[1:]


def test_batch_results_outlive_later_batches() -> None:
    # The moves' buffer is handed to the returned array, or copied when it is much larger
    # than the moves: either way a later batch, of any size, leaves earlier results intact.
    hands = [Cards(t) for t in ("333444555666789TJQKA", "3456789TJQKA2BR", "33", "BR")]
    masks = np.array([h.mask for h in hands], np.uint64)
    sizes = [4, 1, 4, 4, 2, 4]
    results = [dz.legal_moves_batch(masks[:n]) for n in sizes]
    kept = [(moves.copy(), offsets.copy()) for moves, offsets in results]
    results += [dz.legal_moves_batch(masks[:n]) for n in reversed(sizes)]
    for (moves, offsets), (moves_then, offsets_then) in zip(results, kept):
        assert (moves == moves_then).all() and (offsets == offsets_then).all()
    for (moves, offsets), n in zip(results, sizes + sizes[::-1]):
        for i in range(n):
            assert dz.moves_from_array(moves[offsets[i] : offsets[i + 1]]) == dz.legal_moves(hands[i])


def test_bad_input_raises_typed_errors() -> None:
    with pytest.raises(ValueError, match="hand: 5 cards of rank 3"):
        dz.legal_moves("33333")
    with pytest.raises(ValueError, match="hand: too many cards of rank B"):
        dz.legal_moves("BBB")
    with pytest.raises(dz.CardsError, match=r"rank 3 \(at most 4\): '3' at position 4"):
        dz.legal_moves("333333333")  # past even two decks' 8: the rules' own limit, not the widest deck's
    with pytest.raises(dz.CardsError, match=r"hands: too many cards of rank 3 \(at most 4\)"):
        dz.Game.from_deal(["333333333", "", ""], "")
    with pytest.raises(ValueError, match="at most 1"):
        dz.legal_moves(Cards("BB"))  # two decks' jokers under one-deck rules
    with pytest.raises(ValueError, match="unknown card token 'Z'"):
        dz.legal_moves("3Z")
    with pytest.raises(ValueError, match="no combination"):
        dz.legal_moves("345", last="34")
    with pytest.raises(ValueError, match="is no move under these rules"):
        dz.legal_moves("345", last=Move("333345"), rules=Rules.preset("openspiel"))
    with pytest.raises(TypeError, match="hand must be"):
        dz.legal_moves(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="last must be"):
        dz.legal_moves("345", last=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules must be"):
        dz.legal_moves("345", rules="douzero")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"hands\[1\]"):
        dz.legal_moves_batch(np.array([1, 5], np.uint64))
    # NumPy reads a bool or an enum member among ints as its value (True was the hand "3"),
    # a 0-d array as its item, in any sequence; and a NumPy uint64 among ints as a float.
    for odd in (True, np.True_, MoveKind.PAIR, np.array(5), 5.0):
        for sequence in (list, tuple, collections.deque):
            with pytest.raises(TypeError, match=rf"hands .* holding a {type(odd).__name__} \(at 0\)"):
                dz.legal_moves_batch(sequence([odd, Cards("33").mask]))
    mixed = dz.legal_moves_batch([np.uint64(Cards("3").mask), Cards("33").mask])[1]
    assert list(mixed) == [0, 1, 3]
    for no_masks in ("abc", None, {1, 2}, iter([1])):  # a TypeError, as ActionSpace.moves gives
        with pytest.raises(TypeError, match="hands must hold int masks"):
            dz.legal_moves_batch(no_masks)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="1-d array of masks"):
        dz.legal_moves_batch(np.zeros((2, 2), np.uint64))
    with pytest.raises(ValueError, match="one row per hand"):
        dz.legal_moves_batch(np.array([1], np.uint64), dz.moves_to_array([None, None]))
    with pytest.raises(TypeError, match="MOVE_DTYPE"):
        dz.legal_moves_batch(np.array([1], np.uint64), np.zeros(1, np.uint64))
    bad = dz.moves_to_array([Move("4"), Move("3")])
    bad["kind"][1] = int(MoveKind.PAIR)
    with pytest.raises(ValueError, match=r"lasts\[1\]: 3 as PAIR \(rank 3, length 1\) is no move under any rules"):
        dz.legal_moves_batch(np.array([1, 1], np.uint64), bad)
    bad["kind"][1] = 99
    with pytest.raises(ValueError, match=r"lasts\[1\]: unknown move kind"):
        dz.legal_moves_batch(np.array([1, 1], np.uint64), bad)
    # A move under some rules, not these: four with two without four_with_two.
    four_two = dz.moves_to_array([Move("333345")])
    with pytest.raises(
        ValueError, match=r"lasts\[0\]: 333345 as FOUR_TWO_SOLOS \(rank 3, length 1\) is no move under these rules"
    ):
        dz.legal_moves_batch(np.array([1], np.uint64), four_two, Rules.preset("openspiel"))


def test_white_space_around_a_readings_parts_means_nothing() -> None:
    """As between card tokens: around the kind, the rank and the length alike."""
    douzero, run_fast = Rules.preset("douzero"), Rules.preset("run_fast")
    meant = Move("333444555666/AIRPLANE_SOLOS/3", rules=douzero)
    for text in ("333444555666 /AIRPLANE_SOLOS/3", "333444555666/ AIRPLANE_SOLOS /3",
                 "333444555666/AIRPLANE_SOLOS/ 3 \n"):
        assert Move(text, rules=douzero) == meant
    short = Move("333344445556667/AIRPLANE_TWOS/3/3", rules=run_fast)
    assert Move("333344445556667/AIRPLANE_TWOS /3/ 3 ", rules=run_fast) == short
    game = dz.Game.from_position(["333344445556667", "8", "9"], landlord=None, to_move=0, rules=run_fast)
    game.step("333344445556667/ AIRPLANE_TWOS/3 /3\t")
    assert game.history[-1][1].move == short


def test_str_and_repr_name_the_reading_where_cards_read_several_ways() -> None:
    """str() knows no rules: where any preset reads the cards several ways it writes the
    whole reading, so each of three legal actions prints apart and reads back."""
    rules = Rules.preset("douzero")
    game = dz.Game.from_position(["333444555666", "4", "7"], landlord=0, to_move=0, rules=rules)
    twelve = [a for a in game.legal_actions() if len(a.move.cards) == 12]
    assert len({str(a) for a in twelve}) == len({repr(a) for a in twelve}) == len({str(a.move) for a in twelve}) == 3
    for action in twelve:
        taken = game.copy()
        taken.step(str(action))
        assert taken.history[-1][1] == action
    assert str(Move("3334")) == "3334" and repr(dz.Game(seed=1).legal_actions()[1]) == "Action('bid 1')"
    # Rules of one's own: pair kickers of one rank make 33334444 two fours with two pairs.
    loose = Rules(pair_kickers_share_rank=True)
    own = dz.Game.from_position(["33334444", "5", "6"], landlord=0, to_move=0, rules=loose)
    fours = [a for a in own.legal_actions() if len(a.move.cards) == 8]
    assert len({str(a) for a in fours}) == 2
    for action in fours:
        taken = own.copy()
        taken.step(str(action))
        assert taken.history[-1][1] == action


def test_cards_past_the_rules_deck_are_refused_alike_everywhere() -> None:
    run_fast = Rules.preset("run_fast")
    message = "4 cards of rank A, at most 3 in Run Fast's 48-card deck"
    game = dz.Game.from_position(["3456789", "TJQ", "KKA"], landlord=None, to_move=0, rules=run_fast)
    for refused in (lambda: Move("AAAA", rules=run_fast), lambda: Move("AAAA/BOMB/A", rules=run_fast),
                    lambda: dz.can_play("3456789", "AAAA", rules=run_fast), lambda: game.step("AAAA")):
        with pytest.raises(dz.CardsError, match=message):
            refused()
    assert game.history == []
    three = dz.Game.from_position(["3", "4", "5"], 0, 0)
    for refused in (lambda: Move("33333"), lambda: Move("33333/BOMB/3"), lambda: three.step("33333")):
        with pytest.raises(dz.CardsError) as info:
            refused()
        assert str(info.value).split(": ", 1)[1] == "5 cards of rank 3, at most 4 in one deck"


def test_full_width_text_reads_as_ascii_everywhere() -> None:
    """What a Chinese keyboard types in full-width mode (and its ideographic space)."""
    assert Cards("\uff13\uff13\u3000\uff22\uff32") == Cards("33 BR") and Move("\uff13\uff13") == Move("33")
    game = dz.Game(seed=1)
    game.step("\uff42\uff49\uff44\u3000\uff12")
    assert game.history[-1][1] == dz.Action.bid(2)
    position = dz.Game.from_position(["3344", "5", "6"], landlord=0, to_move=0)
    position.step("\uff13\uff13")
    assert position.history[-1][1].move == Move("33")
    with pytest.raises(dz.CardsError, match="token '\uff3a' at position 1 in '\uff13\uff3a'"):  # as typed
        Cards("\uff13\uff3a")
    with pytest.raises(dz.CardsError, match="typed '\uff13\uff3a'"):
        Move("\uff13\uff3a")
    assert dz._core.half_width("\uff42\uff49\uff44\u3000\uff12\u00b3") == "bid 2\u00b3"  # full width only, not NFKC's ³


def test_refusals_quote_the_input_as_given() -> None:
    with pytest.raises(dz.MoveError, match="'BJRJ' is no combination"):
        Move("BJRJ")
    with pytest.raises(dz.MoveError, match="last: '  ' is no combination"):
        dz.legal_moves("3", last="  ")
    with pytest.raises(ValueError, match="not 'Z'"):
        dz.rank_name("Z")
    with pytest.raises(ValueError) as long:
        dz.actions.from_rlcard("\x1b" + "3" * 1000)
    assert len(str(long.value)) < 200 and "\\x1b" in str(long.value) and "1001 characters" in str(long.value)
