"""The laizi (wild card) preset through the Python API: moves, the game, records, self-play."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
from helpers import held_cards, play_randomly, replay_selfplay_game

import doudizhu as dz

LAIZI = dz.Rules.preset("laizi")
FIVE, SEVEN = 2, 4  # rank indices


def test_the_preset_is_the_standard_rules_with_wild_cards() -> None:
    assert "laizi" in dz.Rules.presets()
    assert LAIZI.wild and not dz.Rules().wild
    assert dz.Rules(wild=True) == LAIZI
    assert repr(LAIZI) == "Rules.preset('laizi')"
    assert pickle.loads(pickle.dumps(LAIZI)) == LAIZI


def test_wild_moves_counted_by_hand() -> None:
    # 7775 with the 5s wild (worked out in tests/cpp/test_wild.cpp): 14 solos, 2 pairs,
    # 2 trios, the soft bomb, 12 trios with a solo.
    moves = dz.legal_moves("7775", rules=LAIZI, wild="5")
    assert len(moves) == 31
    assert len(set(moves)) == 31
    texts = {str(m) for m in moves}
    assert {"5=3", "5", "7", "5=7", "57=77", "577=777", "5777", "5777=7778", "5777=7777"} <= texts
    bomb = dz.Move("5777=7777", rules=LAIZI, wild="5")
    assert bomb in moves and bomb.soft and bomb.kind == dz.MoveKind.BOMB
    assert (str(bomb.spent), str(bomb.cards), bomb.wilds, str(bomb.stand_ins), bomb.wild_rank) == (
        "5777",
        "7777",
        1,
        "7",
        FIVE,
    )
    natural = dz.Move("7777")
    assert (natural.wilds, natural.wild_rank, natural.soft, natural.spent) == (0, None, False, natural.cards)
    # The wild rank may be given as an index too; a hand without wild cards has its natural moves.
    assert dz.legal_moves("7775", rules=LAIZI, wild=FIVE) == moves
    assert dz.legal_moves("77789", rules=LAIZI, wild="5") == dz.legal_moves("77789")


def test_soft_bombs_beat_non_bombs_and_lose_to_natural_bombs() -> None:
    soft7 = dz.Move("5777=7777", rules=LAIZI, wild="5")
    soft8 = dz.Move("5888=8888", rules=LAIZI, wild="5")
    assert soft7.beats(dz.Move("22")) and soft8.beats(soft7) and not soft7.beats(soft8)
    assert dz.Move("3333").beats(soft8) and not soft8.beats(dz.Move("3333"))
    assert dz.Move("BR").beats(soft8)
    assert [str(m) for m in dz.legal_moves("3333BR", last=soft7, rules=LAIZI, wild="5")] == ["3333", "BR"]
    assert [str(m) for m in dz.legal_moves("7775", last="88", rules=LAIZI, wild="5")] == ["5777=7777"]
    assert dz.legal_moves("7775", last="3333", rules=LAIZI, wild="5") == []
    # Text with wild cards works as the move to beat.
    assert [str(m) for m in dz.legal_moves("5555", last="5666=6666", rules=LAIZI, wild="5")] == ["5555"]


def test_bad_wild_arguments_are_clear_errors() -> None:
    assert dz.legal_moves("7775", rules=LAIZI) == dz.legal_moves("7775")  # no rank is wild
    with pytest.raises(ValueError, match="needs rules with wild cards"):
        dz.legal_moves("7775", wild="5")
    # A value of the wrong type is a TypeError under any rules (without wild cards it was a
    # ValueError, floats and bools included), and an empty sequence names no rank under any.
    for rules in (dz.Rules(), LAIZI, dz.Rules.preset("laizi2")):
        for wrong in (2.0, b"5", ("5", True), ("5", "9", None)):  # the third item's type too
            with pytest.raises(TypeError, match="wild must be"):
                dz.legal_moves("7775", rules=rules, wild=wrong)
        assert dz.legal_moves("7775", rules=rules, wild=()) == dz.legal_moves("7775")
    with pytest.raises(ValueError, match=r"wild must be in 0\.\.12"):
        dz.legal_moves("7775", rules=LAIZI, wild=13)
    with pytest.raises(ValueError, match=r"wild must name one rank of 3\.\.2 as card text does"):
        dz.legal_moves("7775", rules=LAIZI, wild="B")
    assert dz.legal_moves("TTT", rules=LAIZI, wild="10") == dz.legal_moves("TTT", rules=LAIZI, wild="T")
    with pytest.raises(TypeError, match="wild must be an int"):
        dz.legal_moves("7775", rules=LAIZI, wild=2.0)
    with pytest.raises(dz.MoveError, match="is no combination under these rules"):
        dz.Move("5777=8888", rules=LAIZI, wild="5")  # a 7 cannot become an 8
    with pytest.raises(dz.MoveError, match="is no combination under these rules"):
        dz.Move("5555=7777", rules=LAIZI, wild="5")  # four wild cards are no soft bomb
    with pytest.raises(dz.MoveError, match=r"standing in for others .* no wild rank is given"):
        dz.Move("5=3", rules=LAIZI)  # not 'no combination': what is missing is the wild rank
    four_partner = dz.Game(seed=5, rules=dz.Rules.preset("four_partner"), first_bidder=1)
    for value in (0, 0, 0, 2):
        four_partner.bid(value)  # the landlord names a partner next
    with pytest.raises(dz.IllegalActionError, match=r"'partner 0' to 'partner 3' .*under four_partner rules"):
        four_partner.step("partner 4")
    with pytest.raises(TypeError, match="wild must be an int, not bool"):
        dz.legal_moves("7775", rules=LAIZI, wild=True)
    with pytest.raises(ValueError, match="needs rules with wild cards"):
        dz.Move("5777=7777", wild="5")
    soft = dz.Move("5777=7777", rules=LAIZI, wild="5")
    cards, kind, key, length, subs, _ = soft.__getstate__()
    with pytest.raises(ValueError, match="pickled Move"):
        dz.Move.__new__(dz.Move).__setstate__((cards, kind, key, length, subs, 4))  # 7s cannot stand for 7s
    rows = dz.actions_to_rows([(0, dz.Action.play(soft))])
    assert dz.actions_from_rows(rows) == [(0, dz.Action.play(soft))]
    rows["stand_ins"][0] = 0xFFFF
    with pytest.raises(dz.MoveError, match=r"rows\[0\]: a move's wild cards: the stood-in ranks must be ranks 3\.\.2"):
        dz.actions_from_rows(rows)  # said as such: described, the garbled stand-ins read as cards no deck holds
    with pytest.raises(ValueError, match="is no move under these rules"):
        dz.legal_moves("3333", last=soft)  # the standard rules have no wild cards
    with pytest.raises(ValueError, match="another rank"):
        dz.legal_moves("3333", last=soft, rules=LAIZI, wild="6")


def test_wild_moves_round_trip_through_arrays_pickles_and_text() -> None:
    moves = dz.legal_moves("355577", rules=LAIZI, wild="5")
    assert any(m.wilds == 2 for m in moves)
    rows = dz.moves_to_array(moves)
    assert set(rows.dtype.names or ()) >= {"stand_ins", "wild_rank"}
    assert dz.moves_from_array(rows) == moves
    assert np.array_equal(dz.legal_moves_array("355577", rules=LAIZI, wild="5"), rows)
    assert [pickle.loads(pickle.dumps(m)) for m in moves] == moves
    assert [dz.Move(str(m), m.kind, rules=LAIZI, wild="5") for m in moves if m.wilds] == [m for m in moves if m.wilds]
    bad = rows.copy()
    bad["wild_rank"][0] = 3  # a wild rank on a move without stand-ins
    with pytest.raises(ValueError, match="moves\\[0\\]"):
        dz.moves_from_array(bad)
    batch, offsets = dz.legal_moves_batch(np.array([dz.Cards("355577").mask], np.uint64), rules=LAIZI, wild="5")
    assert np.array_equal(batch, rows) and list(offsets) == [0, len(rows)]


def test_a_laizi_game_draws_its_wild_rank_from_the_seed() -> None:
    a, b = dz.Game(seed=11, rules=LAIZI), dz.Game(seed=11, rules=LAIZI)
    assert a.wild_rank is not None and 0 <= a.wild_rank <= 12 and a.wild_rank == b.wild_rank
    assert dz.Game(seed=11).wild_rank is None
    assert [str(a.hand(s)) for s in range(3)] == [str(dz.Game(seed=11).hand(s)) for s in range(3)]
    assert len({dz.Game(seed=s, rules=LAIZI).wild_rank for s in range(200)}) == 13
    assert a.seat_view(0)["wild_rank"] == a.wild_rank
    record = a.to_record()
    assert record["deals"][0]["wild"] == "3456789TJQKA2"[a.wild_rank]
    deal = record["deals"][0]
    same = dz.Game.from_deal(deal["hands"], deal["kitty"], rules=LAIZI, seed=11)
    assert same.wild_rank == a.wild_rank and same.hash == a.hash
    assert dz.Game.from_deal(deal["hands"], deal["kitty"], rules=LAIZI, wild="T").wild_rank == 7
    with pytest.raises(ValueError, match="needs rules with wild cards"):
        dz.Game.from_deal(deal["hands"], deal["kitty"], wild="T")
    for no_rank in ([], ()):  # names no rank: refused, not read as None's draw from the seed
        with pytest.raises(ValueError, match="empty sequence names no rank"):
            dz.Game.from_deal(deal["hands"], deal["kitty"], rules=LAIZI, seed=11, wild=no_rank)
    tampered = dict(record, start="deal", deals=[dict(deal, wild=[])])
    with pytest.raises(dz.RecordError, match=r"deals\[0\]\.wild must be None, a rank's text or a list of two"):
        dz.Game.from_record(tampered)


def test_a_soft_bomb_in_play_applies_undoes_scores_and_replays() -> None:
    game = dz.Game.from_position(["7775", "3", "4"], landlord=0, to_move=0, rules=LAIZI, wild="5")
    before = game.hash
    assert dz.Move("5777=7777", rules=LAIZI, wild="5") in [a.move for a in game.legal_actions()]
    game.step("5777=7777")
    assert game.phase == "over" and game.winner == 0
    result = game.result
    assert result is not None
    # Base 1, the soft bomb doubles, the spring doubles: each peasant pays 4.
    assert (result.bombs, result.spring, result.multiplier, result.payouts) == (1, True, 4, (8, -4, -4))
    assert str(game.seat_view(0)["played"][0]) == "5777"
    record = game.to_record()
    assert record["position"]["wild"] == "5" and record["actions"] == ["5777=7777"]
    assert dz.Game.from_record(record).hash == game.hash
    game.undo()
    assert game.hash == before
    with pytest.raises(dz.IllegalActionError):
        game.step("5777=8888")
    with pytest.raises(dz.IllegalActionError):  # a position with no rank wild
        dz.Game.from_position(["7775", "3"], landlord=0, to_move=0, rules=LAIZI).step("5777=7777")


def _random_game(seed: int) -> dz.Game:
    """A laizi hand played out by uniformly random actions, checking each step."""
    game = dz.Game(seed=seed, rules=LAIZI, first_bidder=seed % 3)
    deck = sum(
        (dz.Cards(h) for h in game.to_record()["deals"][0]["hands"]), dz.Cards(game.to_record()["deals"][0]["kitty"])
    )

    def check(game: dz.Game) -> None:
        if game.phase == "playing" and game.redeals == 0:
            assert held_cards(game) == deck  # every card in a hand or played, once

    return play_randomly(game, random.Random(seed), each=check)


@pytest.mark.parametrize("seed", range(12))
def test_random_laizi_games_keep_their_invariants(seed: int) -> None:
    game = _random_game(seed)
    result = game.result
    assert result is not None
    assert sum(result.payouts) == 0
    plays = [a.move for _, a in game.history if a.move is not None]
    bombs = sum(m.kind == dz.MoveKind.BOMB for m in plays)
    assert result.bombs == bombs  # soft and natural bombs alike
    spent = sum((m.spent for m in plays), dz.Cards())
    assert spent == sum(game.seat_view(0)["played"], dz.Cards())
    replay = dz.Game.from_record(game.to_record())
    assert replay.hash == game.hash and replay.result is not None and replay.result.payouts == result.payouts
    while game.history:
        game.undo()
    assert game.hash == dz.Game(seed=seed, rules=LAIZI, first_bidder=seed % 3).hash


def test_selfplay_records_replay_exactly() -> None:
    result = dz.selfplay(60, policy=["heuristic", "random", "random"], seed=5, threads=2, rules=LAIZI, record=True)
    assert result.wild.dtype == np.int8 and ((result.wild >= 0) & (result.wild <= 12)).all()
    assert (result.payouts.sum(axis=1) == 0).all()
    assert result.actions is not None and result.offsets is not None
    assert (result.actions["stand_ins"] != 0).any()  # some plays had wild cards standing in
    for i in range(len(result)):
        game = replay_selfplay_game(result, 5, i, LAIZI)
        assert game.wild_rank == result.wild[i]
        assert game.result is not None and game.result.payouts == tuple(result.payouts[i])
    python = dz.selfplay(3, policy=lambda obs, legal: legal[-1], seed=5, rules=LAIZI)
    assert list(python.wild) == list(dz.selfplay(3, seed=5, rules=LAIZI).wild)
