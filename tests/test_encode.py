"""Observation encoders: our own vector read back against the game, hidden cards never
leak, the batch equals the singles; DouZero's features against DouZero 1.1.0 itself."""

from __future__ import annotations

import math
import random
import re

import numpy as np
import pytest
from helpers import random_game, small_seeds, step_counts
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import doudizhu as dz
from doudizhu import encode
from doudizhu.encode import OBSERVATION_LAYOUT as L

import peers

RULES = [dz.Rules.preset(name) for name in dz.Rules.presets()] + [dz.Rules(bidding="call_rob")]
DECK_COUNTS = peers.FULL_DECK_COUNTS
# A seeded hand of any rules after some random actions, and a seat (taken modulo the seats).
RANDOM_GAMES = {"seed": small_seeds, "rules": st.sampled_from(RULES), "steps": step_counts, "seat": st.integers(0, 3)}


def plane_counts(plane: np.ndarray, decks: int = 1) -> list[int]:
    """Card counts from a card plane, checking that each rank is a thermometer."""
    assert plane.shape == (54 * decks,)
    counts = []
    for r in range(15):
        per_rank = 4 * decks
        start = per_rank * r if r < 13 else 13 * per_rank + (r - 13) * decks
        slots = plane[start : start + (per_rank if r < 13 else decks)]
        n = int(slots.sum())
        assert list(slots) == [1.0] * n + [0.0] * (len(slots) - n), slots
        counts.append(n)
    return counts


def one_hot_index(block: np.ndarray) -> int | None:
    """The index of the single 1 in a one-hot block, None when all zero."""
    assert set(np.unique(block)) <= {0.0, 1.0} and block.sum() <= 1
    return int(block.argmax()) if block.sum() else None


def check_against_game(obs: np.ndarray, game: dz.Game, seat: int) -> None:
    """Every block of `obs` read back and compared with what the game says."""
    n, d = game.seats, game.rules.decks
    layout_seats, most = max(n, 3), 20 if d == 1 else 33  # the most cards a hand holds
    L = encode.layout_for(game.rules)
    view = game.seat_view(seat)
    rel = [(seat + k) % n for k in range(n)]
    assert obs.shape == (max(s.stop for s in L.values()),) and obs.dtype == np.float32

    def counts(block: str) -> list[int]:
        return plane_counts(obs[L[block]], d)

    assert counts("hand") == list(game.hand(seat).counts)
    played = obs[L["played"]].reshape(layout_seats, 54 * d)
    sizes = obs[L["hand_sizes"]].reshape(layout_seats, most)
    for k in range(layout_seats):
        if k < n:
            assert plane_counts(played[k], d) == list(view["played"][rel[k]].counts)
            assert sizes[k].sum() == min(view["hand_sizes"][rel[k]], most)
            assert list(sizes[k]) == sorted(sizes[k], reverse=True)  # a thermometer
        else:
            assert not played[k].any() and not sizes[k].any()
    # Unseen: the other hands and the kitty while face down (in a dealt game, the deck less
    # the seat's hand and every card played; in a position, cards out of play are known).
    others = [game.hand(i) for i in range(n) if i != seat] + ([game.kitty] if game.landlord is None else [])
    assert counts("unseen") == [sum(h.counts[r] for h in others) for r in range(15)]
    if game.origin["start"] != "position":
        hands, kitty_dealt, _ = game.deals[-1]
        deck = [sum(h.counts[r] for h in hands) + kitty_dealt.counts[r] for r in range(15)]  # run_fast: 48 cards
        for r in range(15):
            in_play = game.hand(seat).counts[r] + sum(view["played"][i].counts[r] for i in range(n))
            assert counts("unseen")[r] == deck[r] - in_play
    kitty = counts("kitty")
    assert kitty == (list(game.kitty.counts) if game.landlord is not None else [0] * 15)
    landlord = one_hot_index(obs[L["landlord"]])
    assert landlord == (None if game.landlord is None else rel.index(game.landlord))
    to_move = one_hot_index(obs[L["to_move"]])
    assert to_move == (None if game.to_move is None else rel.index(game.to_move))
    phases = ["bidding", "playing", "over"]  # the partner's choice (four_partner) has no slot
    assert one_hot_index(obs[L["phase"]]) == (phases.index(game.phase) if game.phase in phases else None)
    last = game.last
    assert counts("last_move") == (list(last.cards.counts) if last else [0] * 15)
    assert one_hot_index(obs[L["last_kind"]]) == (int(last.kind) if last else None)
    assert one_hot_index(obs[L["last_by"]]) == (rel.index(game.last_by) if last else None)
    assert obs[L["bombs"]].sum() == view["bombs"] + view["rockets"]
    assert obs[L["multiplier"]][0] == pytest.approx(math.log2(game.multiplier))
    if game.phase != "bidding":
        assert obs[L["base"]][0] == pytest.approx(math.log2(game.bid_value) if game.bid_value else 0.0)
    if game.rules.bidding == "classic":
        assert one_hot_index(obs[L["bid"]]) == view["bidding"]["high_bid"]
    assert list(obs[L["seats_present"]]) == [1.0] * n + [0.0] * (layout_seats - n)
    assert list(np.flatnonzero(obs[L["wild"]])) == list(game.wild_ranks)  # one-hot, two-hot under laizi2
    assert set(np.unique(obs[L["wild"]])) <= {0.0, 1.0}
    leading = game.phase == "playing" and game.to_move == seat and game.last is None
    assert obs[L["leading"]][0] == float(leading)
    check_history(obs[L["history"]], game, seat)


def check_history(history: np.ndarray, game: dz.Game, seat: int) -> None:
    # Plays and passes (a redeal only ever follows bids); a position opens with its
    # move to beat and the passes after it.
    plays = [(s, a) for s, a in game.history if a.type in (dz.ActionType.PLAY, dz.ActionType.PASS)]
    position = game.to_record().get("position")
    if position and position["last"]:
        by, n = position["last_by"], game.seats
        opening = [(by, dz.Action.play(dz.Move(position["last"], rules=game.rules)))]
        opening += [((by + k) % n, dz.Action.pass_()) for k in range(1, (position["to_move"] - by) % n)]
        plays = opening + plays
    c, s = 54 * game.rules.decks, max(game.seats, 3)
    entries = history.reshape(encode.HISTORY_LENGTH, c + s + 1)
    recent = plays[::-1][: encode.HISTORY_LENGTH]
    for entry, (who, action) in zip(entries, recent):
        cards = action.move.cards.counts if action.move else (0,) * 15
        assert plane_counts(entry[:c], game.rules.decks) == list(cards)
        assert one_hot_index(entry[c : c + s]) == (who - seat) % game.seats
        assert entry[c + s] == float(action.type == dz.ActionType.PASS)
    assert not entries[len(recent) :].any()


@settings(max_examples=120, deadline=None)
@given(**RANDOM_GAMES, first_bidder=st.integers(0, 3))
def test_every_block_reads_back_as_the_game_says(
    seed: int, rules: dz.Rules, steps: int, first_bidder: int, seat: int
) -> None:
    first_bidder, seat = first_bidder % rules.players, seat % rules.players
    game = random_game(seed, rules, steps, first_bidder)
    check_against_game(encode.observation(game, seat), game, seat)
    if game.phase != "over":
        assert np.array_equal(encode.observation(game), encode.observation(game, game.to_move))


def hidden_twin(game: dz.Game, seat: int, shuffle_seed: int) -> dz.Game:
    """The same hand with the cards `seat` cannot see dealt differently among the others
    (each keeping its count and the cards it played; the landlord keeps the public kitty
    cards it still holds), replayed action for action: a world of :func:`sample_worlds`."""
    return dz.sample_worlds(game, seat, 1, seed=shuffle_seed)[0]


@settings(max_examples=120, deadline=None)
@given(**RANDOM_GAMES, shuffle_seed=small_seeds)
def test_cards_the_seat_cannot_see_never_change_its_observation(
    seed: int, rules: dz.Rules, steps: int, seat: int, shuffle_seed: int
) -> None:
    seat %= rules.players
    game = random_game(seed, rules, steps)
    assume((game.redeals == 0 and game.landlord is not None) or game.phase == "bidding")
    twin = hidden_twin(game, seat, shuffle_seed)
    assert twin.hand(seat) == game.hand(seat)
    assert np.array_equal(encode.observation(twin, seat), encode.observation(game, seat))


def test_the_hidden_twin_does_move_hidden_cards() -> None:
    """The invariance test is not vacuous: the twin's other hands do differ."""
    differ = 0
    for seed in range(20):
        game = random_game(seed, dz.Rules(bidding="none"), 10)
        twin = hidden_twin(game, 0, seed)
        differ += twin.hand(1) != game.hand(1)
        # and the observation of a seat that sees those cards does change
        if twin.hand(1) != game.hand(1):
            assert not np.array_equal(encode.observation(twin, 1), encode.observation(game, 1))
    assert differ >= 15


def test_a_two_hand_position_leaves_the_absent_seat_zero() -> None:
    game = dz.Game.from_position(["3K", "AA"], landlord=0, to_move=1, last="4", last_by=0)
    obs = encode.observation(game)
    check_against_game(obs, game, 1)
    assert list(obs[L["seats_present"]]) == [1, 1, 0]
    # The move to beat opens the history: seat 0 (one seat after the observer) played it.
    entry = obs[L["history"]][:58]
    assert plane_counts(entry[:54])[1] == 1 and list(entry[54:57]) == [0, 1, 0]
    assert obs[L["leading"]][0] == 0


def test_while_bidding_the_landlord_and_kitty_are_unknown() -> None:
    game = dz.Game(seed=5)
    game.bid(2)
    obs = encode.observation(game, 2)
    assert not obs[L["landlord"]].any() and not obs[L["kitty"]].any()
    assert one_hot_index(obs[L["bid"]]) == 2 and one_hot_index(obs[L["high_bidder"]]) == 1  # seat 0, two seats after 2
    assert plane_counts(obs[L["unseen"]]) == [c - h for c, h in zip(DECK_COUNTS, game.hand(2).counts)]


def test_call_and_rob_counts_robs_and_stake() -> None:
    game = dz.Game(seed=3, rules=dz.Rules(bidding="call_rob"))
    game.call(True)  # seat 0 calls
    game.rob(True)  # seat 1 robs: stake 2
    obs = encode.observation(game, 0)
    assert list(obs[L["robs"]]) == [1, 0, 0] and obs[L["base"]][0] == 1.0  # log2(2)
    assert one_hot_index(obs[L["high_bidder"]]) == 1 and one_hot_index(obs[L["bid"]]) == 1


def test_the_layout_tiles_the_vector_and_is_documented() -> None:
    blocks = sorted(L.values(), key=lambda s: s.start)
    assert blocks[0].start == 0 and blocks[-1].stop == encode.OBSERVATION_SHAPE[0]
    assert all(a.stop == b.start and a.stop > a.start for a, b in zip(blocks, blocks[1:]))
    doc = encode.observation_layout.__doc__ or ""
    assert all(f"``{name}``" in doc for name in L)
    two_decks = encode.observation_layout(4, 2)
    assert two_decks["hand"] == slice(0, 108) and two_decks["landlord"].stop - two_decks["landlord"].start == 4


ONE_LAYOUT = [r for r in RULES if r.players == 3]  # a batch shares one layout


def test_batch_equals_the_singles() -> None:
    games = [random_game(seed, ONE_LAYOUT[seed % len(ONE_LAYOUT)], seed % 60) for seed in range(40)]
    games.append(dz.Game.from_position(["3K", "AA"], landlord=0, to_move=1))
    seats = [seed % 3 if i < 40 else 1 for i, seed in enumerate(range(41))]
    batch = encode.observation_batch(games, seats)
    assert batch.shape == (41, *encode.OBSERVATION_SHAPE) and batch.dtype == np.float32
    for row, game, seat in zip(batch, games, seats):
        assert np.array_equal(row, encode.observation(game, seat))
    live = [g for g in games if g.phase != "over"]
    assert np.array_equal(encode.observation_batch(live), np.stack([encode.observation(g) for g in live]))
    assert np.array_equal(encode.observation_batch(live, 0), np.stack([encode.observation(g, 0) for g in live]))
    assert np.array_equal(
        encode.observation_batch(live, np.zeros(len(live), np.int64)), encode.observation_batch(live, 0)
    )
    assert encode.observation_batch([]).shape == (0, *encode.OBSERVATION_SHAPE)
    four = [random_game(seed, dz.Rules.preset("four_player"), seed) for seed in range(8)]
    assert np.array_equal(encode.observation_batch(four, 3), np.stack([encode.observation(g, 3) for g in four]))
    with pytest.raises(ValueError, match="another observation layout"):
        encode.observation_batch([games[0], four[0]])


def test_bad_arguments_are_clear_errors() -> None:
    game = dz.Game(seed=1)
    with pytest.raises(ValueError, match="seat"):
        encode.observation(game, 3)
    with pytest.raises(TypeError):
        encode.observation(game, "0")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"games\[1\] must be a Game"):
        encode.observation_batch([game, "game"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="sequence of Game"):
        encode.observation_batch(game)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one entry per game: 1 for 2 games"):
        encode.observation_batch([game, game], [0])
    with pytest.raises(ValueError, match=r"seats must be one-dimensional, not of shape \(1, 2\)"):
        encode.observation_batch([game, game], np.array([[0, 1]]))  # one row of two: not "one entry per game"
    over = random_game(0, dz.Rules(bidding="none"), 500)
    assert over.phase == "over"
    with pytest.raises(ValueError, match="give the seat"):
        encode.observation(over)
    check_against_game(encode.observation(over, 1), over, 1)
    with pytest.raises(ValueError, match=re.escape("2..8")):
        encode.observation_layout(1)


# ----------------------------------------------------------------------------------------
# DouZero's features against DouZero 1.1.0's own get_obs.

DOUZERO = dz.Rules.preset("douzero")
# Our seats in DouZero's setting: seat 0 the landlord, then the order of play.
DOUZERO_SEATS = {position: seat for seat, position in enumerate(peers.DOUZERO_POSITIONS)}


def random_deal(rng: random.Random) -> tuple[list[str], str]:
    deck = list(peers.FULL_DECK_TEXT)
    rng.shuffle(deck)
    return [" ".join(deck[17 * i : 17 * i + 17]) for i in range(3)], " ".join(deck[51:])


def row_set(x_batch: np.ndarray) -> set[bytes]:
    return {row.tobytes() for row in x_batch}


def compare_step(ours: encode.DouZeroObservation, theirs: dict, game: dz.Game) -> None:
    """Asserts that ours equals DouZero's observation of the same state. (The seeded games
    never meet DouZero's kicker-trio bug, docs/rules.md, where its list would differ.)"""
    assert ours["position"] == theirs["position"]
    assert DOUZERO_SEATS[ours["position"]] == ours["seat"] == game.to_move
    for key in ("x_no_action", "z"):
        assert ours[key].dtype == theirs[key].dtype and np.array_equal(ours[key], theirs[key]), key
    assert ours["x_batch"].dtype == theirs["x_batch"].dtype == np.float32
    assert ours["z_batch"].dtype == theirs["z_batch"].dtype == np.float32
    assert all(np.array_equal(row, theirs["z_batch"][0]) for row in ours["z_batch"])
    assert len(ours["x_batch"]) == len(ours["z_batch"]) == len(ours["legal_actions"])
    assert ours["legal_actions"] == game.legal_actions()
    assert row_set(ours["x_batch"]) == row_set(theirs["x_batch"])


def test_douzero_features_equal_douzero_at_every_step() -> None:
    pytest.importorskip("douzero")
    from douzero.env.env import get_obs

    rng = random.Random(20240501)
    steps = 0
    for _ in range(200):
        hands, kitty = random_deal(rng)
        game = dz.Game.from_deal(hands, kitty, landlord=0, rules=DOUZERO)
        env = peers.douzero_env([game.hand(s).mask for s in range(3)], dz.Cards(kitty).mask)
        while game.phase == "playing":
            compare_step(encode.douzero(game), get_obs(env.game_infoset), game)
            action = rng.choice(game.legal_actions())
            peers.douzero_play(env, action.move.cards.mask if action.move else 0)
            game.step(action)
            steps += 1
        assert env.game_over and env.get_winner() == ("landlord" if game.winner == 0 else "farmer")
    assert steps > 10_000


def test_douzero_batch_equals_the_singles_and_positions_follow_the_landlord() -> None:
    rng = random.Random(7)
    games = []
    for i in range(30):
        hands, kitty = random_deal(rng)
        game = dz.Game.from_deal(hands, kitty, landlord=0, rules=DOUZERO)
        for _ in range(i * 2):
            if game.phase == "playing":
                game.step(rng.choice(game.legal_actions()))
        if game.phase == "playing":
            games.append(game)
            # The same hand with every seat moved one place on: the landlord is seat 1.
            rotated = dz.Game.from_deal(hands[2:] + hands[:2], kitty, landlord=1, rules=DOUZERO)
            for _, action in game.history:
                rotated.step(action)
            a, b = encode.douzero(game), encode.douzero(rotated)
            assert b["seat"] == (a["seat"] + 1) % 3
            for key in ("x_batch", "z_batch", "x_no_action", "z"):
                assert np.array_equal(a[key], b[key])
    batch = encode.douzero_batch(games)
    assert len(batch) == len(games) >= 10
    for ours, game in zip(batch, games):
        single = encode.douzero(game)
        assert ours["position"] == single["position"] and ours["legal_actions"] == single["legal_actions"]
        for key in ("x_batch", "z_batch", "x_no_action", "z"):
            assert ours[key].dtype == single[key].dtype and np.array_equal(ours[key], single[key])
    assert encode.douzero_batch([]) == []


def test_douzero_features_outside_douzero_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="in play"):
        encode.douzero(dz.Game(seed=1))  # bidding
    with pytest.raises(ValueError, match="three seats"):
        encode.douzero(dz.Game.from_position(["3", "4"], landlord=0, to_move=0))
    with pytest.raises(ValueError, match="not the landlord, holds 18 cards"):  # no position holds more than the layout
        dz.Game.from_position(["3", "444555666777888999", "T"], landlord=0, to_move=1)
    with pytest.raises(ValueError, match=r"games\[1\]: .*in play"):
        encode.douzero_batch([dz.Game(seed=1, rules=DOUZERO), dz.Game(seed=1)])
    with pytest.raises(TypeError, match=r"games\[0\] must be a Game"):
        encode.douzero_batch([None])  # type: ignore[list-item]


def test_batches_read_games_that_another_thread_is_playing() -> None:
    """The batch calls release the GIL while filling, from copies taken under it: with one
    thread stepping and undoing the shared games, every row a reader gets is the game
    before or after that step, never a mix, and nothing crashes."""
    from concurrent.futures import ThreadPoolExecutor

    rng = random.Random(11)
    games = []
    for _ in range(60):
        hands, kitty = random_deal(rng)
        game = dz.Game.from_deal(hands, kitty, landlord=0, rules=DOUZERO)
        for _ in range(rng.randrange(30)):
            if game.phase == "playing":
                game.step(rng.choice(game.legal_actions()))
        if game.phase == "playing":
            games.append(game)
    before = encode.observation_batch(games, 0)
    for game in games:
        game.step(game.legal_actions()[-1])
    after = encode.observation_batch(games, 0)
    for game in games:
        game.undo()

    def work(i: int) -> bool:
        if i == 0:
            for _ in range(30):
                for game in games:
                    game.step(game.legal_actions()[-1])
                    game.undo()
            return True
        ok = True
        for _ in range(10):
            rows = encode.observation_batch(games, 0)
            ok &= all(np.array_equal(r, b) or np.array_equal(r, a) for r, b, a in zip(rows, before, after))
            encode.douzero_batch([g.copy() for g in games])
        return ok

    with ThreadPoolExecutor(3) as pool:
        assert all(pool.map(work, range(3)))
    assert np.array_equal(encode.observation_batch(games, 0), before)


@pytest.mark.parametrize("where", ["layout_for", "Match", "selfplay"])
def test_a_preset_name_for_rules_is_a_type_error_that_says_how(where: str) -> None:
    # encode.layout_for("douzero") was an AttributeError ('str' has no attribute 'players');
    # every reader of rules says what to give, from one check.
    call = {"layout_for": lambda: encode.layout_for("douzero"), "Match": lambda: dz.Match(rules="douzero"),
            "selfplay": lambda: dz.selfplay(1, rules="douzero")}[where]
    with pytest.raises(TypeError, match=r"rules must be a Rules or None, not str \(Rules.preset\(name\) gives a "):
        call()
    assert encode.layout_for(None) == encode.layout_for(dz.Rules()) == encode.OBSERVATION_LAYOUT
