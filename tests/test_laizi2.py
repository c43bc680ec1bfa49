"""Two wild ranks (laizi2) through the Python API: the preset, moves, the game, records,
self-play, encoders, action ids and what the table shows."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
from helpers import held_cards, play_randomly, replay_selfplay_game

import doudizhu as dz
from doudizhu import encode
from doudizhu.render import game_svg

LAIZI2 = dz.Rules.preset("laizi2")
FIVE_NINE = ("5", "9")


def test_the_preset_is_the_standard_rules_with_two_wild_ranks() -> None:
    assert "laizi2" in dz.Rules.presets()
    assert dz.Rules(wild=2) == LAIZI2
    assert LAIZI2.wild == 2 and LAIZI2.to_dict()["wild"] == 2
    assert repr(LAIZI2) == "Rules.preset('laizi2')"
    assert pickle.loads(pickle.dumps(LAIZI2)) == LAIZI2
    # True and False keep their meaning of a flag: one wild rank, none.
    assert dz.Rules(wild=True) == dz.Rules.preset("laizi") and dz.Rules(wild=False) == dz.Rules()
    for bad in (3, -1):
        with pytest.raises(ValueError, match="wild must be 0, 1 or 2"):
            dz.Rules(wild=bad)
    with pytest.raises(ValueError, match="one deck"):
        dz.Rules.preset("four_player").replace(wild=2)
    # Hands past 20 cards list millions of moves with wild cards (52 cards: 9.4M, 30 s).
    assert len(dz.Game(seed=1, rules=LAIZI2.replace(kitty_size=0)).hand(0)) == 18  # hands of 18 are played
    for kitty in (6, 24, 51):
        hand = (54 - kitty) // 3 + kitty
        with pytest.raises(ValueError, match=f"hands of at most 20 cards, not {hand} .kitty_size {kitty}"):
            dz.Rules(kitty_size=kitty, wild=2)
        with pytest.raises(ValueError, match="at most 20 cards"):
            dz.Rules(kitty_size=kitty, wild=1)


def test_moves_of_two_wild_ranks() -> None:
    tens = dz.Move("5599=TTTT", rules=LAIZI2, wild=FIVE_NINE)
    assert tens.soft and tens.wild_ranks == (2, 6) and tens.wilds == 4 and str(tens.spent) == "5599"
    assert tens.stand_in_groups == ((2, dz.Cards("TT")), (6, dz.Cards("TT")))
    with pytest.raises(dz.DoudizhuError, match="wild_ranks"):
        _ = tens.wild_rank
    # Cards of one wild rank: the laizi move, with its wild_rank.
    sevens = dz.Move("5777=7777", rules=LAIZI2, wild=FIVE_NINE)
    assert sevens == dz.Move("5777=7777", rules=dz.Rules.preset("laizi"), wild="5") and sevens.wild_rank == 2
    assert dz.Move("9777=7777", rules=LAIZI2, wild=FIVE_NINE).wild_ranks == (6,)
    moves = dz.legal_moves("5599", rules=LAIZI2, wild=FIVE_NINE)
    texts = [str(m) for m in moves]
    assert len(set(moves)) == len(moves) and len(set(texts)) == len(texts)
    assert {"5599=TTTT", "5599=5555", "5599=9999"} <= set(texts)
    assert "5555=9999" not in [str(m) for m in dz.legal_moves("5555", rules=LAIZI2, wild=FIVE_NINE)]
    # Round trips: text, pickles, NumPy rows.
    assert [dz.Move(str(m), m.kind, rules=LAIZI2, wild=FIVE_NINE) for m in moves] == moves
    assert [pickle.loads(pickle.dumps(m)) for m in moves] == moves
    rows = dz.moves_to_array(moves)
    assert rows.dtype.itemsize == 16 and (rows["stand_ins"] >> 16 != 0).any()
    assert dz.moves_from_array(rows, LAIZI2) == moves
    assert np.array_equal(dz.legal_moves_array("5599", rules=LAIZI2, wild=FIVE_NINE), rows)


@pytest.mark.parametrize(
    ("wild", "rules", "message"),
    [
        (("5", "5"), LAIZI2, "differ"),
        (("5", "9", "T"), LAIZI2, "3 ranks"),
        (FIVE_NINE, dz.Rules.preset("laizi"), "2 ranks"),
        ("5", LAIZI2, "these rules have two wild ranks"),  # one rank alone: no position of laizi2
        (("5",), LAIZI2, "these rules have two wild ranks"),
    ],
)
def test_bad_wild_ranks_are_clear_errors(wild: tuple[str, ...], rules: dz.Rules, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        dz.legal_moves("5599", rules=rules, wild=wild)


def test_a_laizi2_game_draws_two_wild_ranks_from_the_seed() -> None:
    games = [dz.Game(seed=s, rules=LAIZI2) for s in range(300)]
    for seed, game in enumerate(games[:20]):
        low, high = game.wild_ranks
        assert 0 <= low < high <= 12
        one = dz.Game(seed=seed, rules=dz.Rules.preset("laizi"))
        assert one.wild_rank in game.wild_ranks and one.wild_ranks == (one.wild_rank,)
        assert [str(game.hand(s)) for s in range(3)] == [str(one.hand(s)) for s in range(3)]
    assert len({g.wild_ranks for g in games}) > 60  # many of the 78 pairs
    game = games[3]
    with pytest.raises(dz.DoudizhuError, match="wild_ranks"):
        _ = game.wild_rank
    assert game.seat_view(0)["wild_ranks"] == game.wild_ranks == game.seat_view(0)["wild_rank"]
    assert dz.Game(seed=3).wild_ranks == ()
    with pytest.raises(ValueError, match="two wild ranks"):
        dz.Game.from_position(["5599", "3"], landlord=0, to_move=0, rules=LAIZI2, wild="5")


def test_a_soft_bomb_of_both_wild_ranks_in_play_scores_and_replays() -> None:
    game = dz.Game.from_position(["5599", "3", "4"], landlord=0, to_move=0, rules=LAIZI2, wild=FIVE_NINE)
    game.step("5599=TTTT")
    result = game.result
    assert result is not None and (result.bombs, result.multiplier, result.payouts) == (1, 4, (8, -4, -4))
    record = game.to_record()
    assert record["position"]["wild"] == ["5", "9"] and record["actions"] == ["5599=TTTT"]
    assert dz.Game.from_record(record).hash == game.hash


@pytest.mark.parametrize("seed", range(6))
def test_random_laizi2_games_keep_their_invariants_and_replay(seed: int) -> None:
    game = dz.Game(seed=seed, rules=LAIZI2, first_bidder=seed % 3)
    deck = held_cards(game)

    def check(game: dz.Game) -> None:
        if game.phase == "playing" and game.redeals == 0:
            assert held_cards(game) == deck  # every card in a hand or played, once

    play_randomly(game, random.Random(seed), each=check)
    result = game.result
    assert result is not None and sum(result.payouts) == 0
    record = game.to_record()
    assert all(len(deal["wild"]) == 2 for deal in record["deals"])
    replay = dz.Game.from_record(record)
    assert replay.hash == game.hash and replay.wild_ranks == game.wild_ranks


def test_laizi_records_from_before_two_wild_ranks_still_load() -> None:
    game = play_randomly(dz.Game(seed=4, rules=dz.Rules.preset("laizi")), random.Random(4))
    record = game.to_record()
    record["rules"]["wild"] = True  # as version-2 records wrote the flag
    assert dz.Game.from_record(record).hash == game.hash


def test_selfplay_rows_and_files_hold_both_wild_ranks(tmp_path) -> None:
    result = dz.selfplay(40, policy="random", seed=5, threads=2, rules=LAIZI2, record=True)
    assert ((result.wild >= 0) & (result.wild < result.wild_high) & (result.wild_high <= 12)).all()
    assert result.actions is not None and (result.actions["stand_ins_high"] != 0).any()
    for i in range(len(result)):
        game = replay_selfplay_game(result, 5, i, LAIZI2)
        assert game.wild_ranks == (result.wild[i], result.wild_high[i])
        assert game.result is not None and game.result.payouts == tuple(result.payouts[i])
    path = tmp_path / "run.npz"
    result.save(path)
    loaded = dz.SelfPlayResult.load(path)
    assert loaded.actions is not None and np.array_equal(loaded.actions, result.actions)
    assert np.array_equal(loaded.wild_high, result.wild_high)
    # A file of 16-byte rows (one wild rank, before the rows grew) loads as today's rows.
    laizi = dz.selfplay(10, seed=2, rules=dz.Rules.preset("laizi"), record=True)
    assert laizi.actions is not None
    old = np.ascontiguousarray(laizi.actions).view(np.uint64).reshape(-1, 3)[:, :2].reshape(-1)
    fields = {name: getattr(laizi, name) for name in ("hands", "kitty", "landlord", "landlord_won", "base",
                                                      "multiplier", "moves", "redeals", "wild", "payouts", "offsets")}
    np.savez(tmp_path / "old.npz", actions=old, **fields)
    assert np.array_equal(dz.SelfPlayResult.load(tmp_path / "old.npz").actions, laizi.actions)


def test_encoders_mark_both_wild_ranks() -> None:
    game = dz.Game(seed=9, rules=LAIZI2)
    block = encode.observation(game, 0)[encode.layout_for(LAIZI2)["wild"]]
    assert list(np.flatnonzero(block)) == list(game.wild_ranks)
    layout = encode.douzero_layout(LAIZI2)
    assert layout == encode.douzero_layout(dz.Rules.preset("laizi"))


def test_action_ids_name_every_legal_play() -> None:
    space = dz.ActionSpace(LAIZI2)
    game = dz.Game.from_position(["555999TTJ", "3", "4"], landlord=0, to_move=0, rules=LAIZI2, wild=FIVE_NINE)
    legal = [a for a in game.legal_actions() if a.move is not None]
    pairs = list(zip(space.legal_ids(game), space.legal_stand_in_ids(game)))
    assert len(set(pairs)) == len(legal)  # the pair (combination, stand-ins) names one play
    for action, (id_, stand_in) in zip(legal, pairs):
        assert space.with_stand_ins(id_, stand_in, game.wild_ranks) == action
        assert space.stand_in_id(action, game.wild_ranks) == stand_in
    assert max(stand_in for _, stand_in in pairs) >= dz.ActionSpace.STAND_IN_IDS  # nines standing in


def test_the_table_shows_both_wild_ranks() -> None:
    game = dz.Game(seed=3, rules=LAIZI2)
    assert game.wild_ranks == (3, 11)
    assert "the 6s and As wild" in game_svg(game)
