"""Action ids (ActionSpace) and the conversions to RLCard's action strings and OpenSpiel's
action ids, checked against the peers themselves where they are installed."""

from __future__ import annotations

import math
import pickle
import random

import numpy as np
import pytest
from helpers import BIDDINGS, PRESETS, VARIANTS, anything, max_hand, refused_or_ok, seeds
from hypothesis import given
from hypothesis import strategies as st

import doudizhu as dz
from doudizhu.actions import ActionSpace, from_openspiel, from_rlcard, to_openspiel, to_rlcard

import peers


def _space(name: str) -> ActionSpace:
    return ActionSpace(dz.Rules.preset(name))


# ---- the enumeration ----------------------------------------------------------------


@pytest.mark.parametrize("name", (*PRESETS, *VARIANTS, "run_fast"))
def test_moves_are_every_lead_of_the_deck_that_fits_a_hand(name: str) -> None:
    # The deck is no hand (legal_moves refuses more cards than the landlord holds): each
    # listed move is a lead of a hand of its own cards, and every lead of the hands of
    # seeded deals (with the kitty) is listed.
    space = _space(name)
    rules = dz.Rules.preset(name)
    listed = [space.move(i) for i in range(1, space.num_moves + 1)]
    assert len(listed) == len(set(listed))
    assert all(len(m.cards) <= max_hand(rules) and m in dz.legal_moves(m.cards, rules=rules) for m in listed)
    ids = set(listed)
    for seed in range(40):
        game = dz.Game(seed=seed, rules=rules)
        for seat in range(rules.players):
            bidding = game.phase == "bidding"  # else the landlord holds the kitty already
            hand = game.hand(seat) + (game.kitty if bidding and seat == seed % rules.players else dz.Cards())
            assert set(dz.legal_moves(hand, rules=rules)) <= ids
    order = [(m.kind, m.length, m.key, m.cards.mask) for m in listed]
    assert order == sorted(order)


@pytest.mark.parametrize("name", PRESETS)
def test_every_id_round_trips(name: str) -> None:
    space = _space(name)
    assert len(space) == space.size
    for i in range(len(space)):
        assert space.id(space.action(i)) == i
    move_ids = np.arange(1, space.num_moves + 1)
    rows = space.moves(move_ids)
    assert rows.dtype == dz.MOVE_DTYPE
    assert np.array_equal(space.ids(rows), move_ids)
    assert [space.id(m) for m in dz.moves_from_array(rows[:50])] == list(range(1, 51))


@pytest.mark.parametrize("name", [*PRESETS, *VARIANTS, "laizi", "laizi2", "four_partner", "run_fast"])
def test_every_moves_text_names_it_alone(name: str) -> None:
    # Exhaustive: the text of every move of the rules (records write it) reads back as that
    # move and no other. Under Run Fast 8,932 of 207,331 did not: an airplane short of
    # kickers and a full one of the same kind and key were both "/AIRPLANE_TWOS/3".
    rules = dz.Rules.preset(name)
    space = ActionSpace(rules)
    for i in range(1, space.num_moves + 1):
        action = space.action(i)
        assert dz.Move(action.text(rules), rules=rules) == action.move


def test_layout_pass_then_moves_then_bidding() -> None:
    for bidding, actions in (
        ("classic", [dz.Action.bid(v) for v in range(4)]),
        ("call_rob", [dz.Action.call(False), dz.Action.call(True), dz.Action.rob(False), dz.Action.rob(True)]),
        ("none", []),
    ):
        space = ActionSpace(dz.Rules(bidding=bidding))
        assert space.action(space.pass_id) == dz.Action.pass_()
        assert [space.action(i) for i in range(space.first_bid_id, len(space))] == actions
        assert space.num_moves == space.first_bid_id - 1


def test_rlcard_space_size_is_rlcards() -> None:
    utils = pytest.importorskip("rlcard.games.doudizhu.utils")
    assert len(_space("rlcard")) == len(utils.ID_2_ACTION)


def test_pickles_and_repr() -> None:
    space = _space("openspiel")
    copy = pickle.loads(pickle.dumps(space))
    assert copy.rules == space.rules and len(copy) == len(space)
    assert "size=" in repr(space)


# ---- masks ----------------------------------------------------------------------------


def _play_out(game: dz.Game, space: ActionSpace, rng: random.Random) -> int:
    """Plays random legal ids to the end, checking each mask; returns the steps."""
    steps = 0
    while game.phase != "over":
        mask = space.mask(game)
        legal = game.legal_actions()
        assert mask.dtype == np.bool_ and mask.shape == (len(space),)
        assert sorted(np.flatnonzero(mask)) == sorted(space.id(a) for a in legal)
        assert list(space.legal_ids(game)) == [space.id(a) for a in legal]
        game.step(space.action(rng.choice(np.flatnonzero(mask).tolist())))
        steps += 1
    assert not space.mask(game).any() and space.legal_ids(game).size == 0
    return steps


@pytest.mark.parametrize(
    ("name", "bidding"),
    [(name, bidding) for name in PRESETS for bidding in BIDDINGS] + [(name, None) for name in VARIANTS],
)
def test_masks_are_the_legal_actions(name: str, bidding: str | None) -> None:
    """Every bidding of the presets, and each variant with its own."""
    rules = dz.Rules.preset(name)
    rules = rules.replace(bidding=bidding) if bidding else rules
    space = ActionSpace(rules)
    rng = random.Random(f"{name}/{bidding}" if bidding else name)
    for seed in range(8):
        assert _play_out(dz.Game(seed=seed, rules=rules, first_bidder=seed % rules.players), space, rng) > 0


@pytest.mark.parametrize("preset", ["laizi", "laizi2"])
def test_wild_card_moves_are_a_combination_id_and_a_stand_in_id(preset: str) -> None:
    rules = dz.Rules.preset(preset)
    space = ActionSpace(rules)
    assert len(space) == len(ActionSpace(dz.Rules()))  # the combinations are the standard rules' moves
    rng = random.Random(3)
    pairs = 0
    for seed in range(30):
        game = dz.Game(seed=seed, rules=rules)
        while game.phase != "over":
            legal = game.legal_actions()
            ids, stand_ins = space.legal_ids(game), space.legal_stand_in_ids(game)
            assert len(set(zip(ids.tolist(), stand_ins.tolist()))) == len(legal)  # the pair names the move
            for action, i, s in zip(legal, ids.tolist(), stand_ins.tolist()):
                assert (space.id(action), space.stand_in_id(action, game.wild_ranks)) == (i, s)
                if 0 < i < space.first_bid_id:
                    assert space.with_stand_ins(i, s, game.wild_ranks) == action
                    pairs += s > 0
            game.step(rng.choice(legal))
    assert pairs > 100
    assert sum(math.comb(13 + k - 1, k) for k in range(5)) == ActionSpace.STAND_IN_IDS  # multisets of 0..4 ranks
    five = "5" if rules.wild == 1 else ("5", "9")  # the 5s wild (and under laizi2 the 9s)
    with pytest.raises(ValueError, match="stand-in id"):
        space.with_stand_ins(1, ActionSpace.STAND_IN_IDS ** rules.wild, five)
    with pytest.raises(ValueError, match="not a move"):
        space.with_stand_ins(0, 1, five)
    # Stand-ins that do not fit the combination are refused, never a malformed move.
    pair_of_3 = space.id(dz.Move("33"))
    assert str(space.with_stand_ins(pair_of_3, 1, five)) == "35=33"  # stand-in id 1: one 3
    straight = space.with_stand_ins(space.id(dz.Move("3456789")), 1, five)
    assert str(straight) == "4556789=3456789" and space.stand_in_id(straight) == 1
    three = "3" if rules.wild == 1 else ("3", "9")
    for stand_in, wild, reason in ((100, five, "not in the combination"), (1, three, "its own rank")):
        with pytest.raises(dz.MoveError, match=reason):
            space.with_stand_ins(pair_of_3, stand_in, wild)
    # Without wild cards, no wild rank (None) and nothing stood in for: the move itself.
    plain = ActionSpace(dz.Rules())
    assert plain.with_stand_ins(pair_of_3, 0, None) == plain.action(pair_of_3)
    with pytest.raises(ValueError, match=r"wild_rank: a wild rank needs rules with wild cards"):
        plain.with_stand_ins(pair_of_3, 0, "5")  # it was taken and ignored, and None refused
    with pytest.raises(ValueError, match=r"stand-in id must be in 0\.\.0"):
        plain.with_stand_ins(pair_of_3, 1, None)
    with pytest.raises(ValueError, match=r"wild_rank: the (wild rank|pair of wild ranks) is needed"):
        space.with_stand_ins(pair_of_3, 1, None)
    with pytest.raises(TypeError, match="wild_rank must be"):
        space.with_stand_ins(pair_of_3, 1, 2.0)
    if rules.wild == 1:  # a pair names two wild ranks, which these rules never have
        for pair in (("9", "5"), ("5", "9"), (6, 2)):
            with pytest.raises(ValueError, match="wild_rank: 2 ranks, and these rules have one wild rank"):
                space.with_stand_ins(pair_of_3, 1, pair)
    else:  # one rank where the stand-in id names what each of two stands in for
        with pytest.raises(ValueError, match="wild_rank: one rank, and these rules have two wild ranks"):
            space.with_stand_ins(pair_of_3, 1, "5")
    with pytest.raises(ValueError, match="3 ranks, and no rules have more than two wild ranks"):
        space.with_stand_ins(pair_of_3, 1, ("5", "9", "T"))


@given(seed=seeds, name=st.sampled_from(PRESETS + VARIANTS))
def test_masks_of_any_deal(seed: int, name: str) -> None:
    rules = dz.Rules.preset(name)
    _play_out(dz.Game(seed=seed, rules=rules), _space(name), random.Random(seed))


# ---- errors ---------------------------------------------------------------------------


def test_bad_ids_and_actions() -> None:
    space = ActionSpace()
    with pytest.raises(ValueError, match=r"action id must be in 0\.\."):
        space.action(len(space))
    with pytest.raises(ValueError, match="action id"):
        space.action(-1)
    with pytest.raises(TypeError, match="action id must be an int"):
        space.action("3")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a move"):
        space.move(0)
    with pytest.raises(ValueError, match="not in this action space"):
        space.id(dz.Action.call(True))  # classic bidding: no call
    with pytest.raises(ValueError, match="not in this action space"):
        space.id(dz.Move("333344", rules=dz.Rules.preset("rlcard")))  # four + a pair as solos
    with pytest.raises(TypeError, match="an Action or a Move"):
        space.id("333")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rules differ"):
        space.mask(dz.Game(seed=1, rules=dz.Rules.preset("rlcard")))
    with pytest.raises(TypeError, match="game must be a Game"):
        space.mask(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"ids\[1\]: .* is outside"):
        space.moves(np.array([1, len(space)]))
    with pytest.raises(ValueError, match=r"ids\[0\]: .*bid 2.*not a move"):
        space.moves([space.id(dz.Action.bid(2))])
    with pytest.raises(TypeError, match="ints"):
        space.moves(np.array([1.5]))
    rows = dz.moves_to_array([dz.Move("333344", rules=dz.Rules.preset("rlcard"))])
    with pytest.raises(ValueError, match=r"moves\[0\]: .*not in the action space"):
        space.ids(rows)


def test_empty_rows_are_passes() -> None:
    space = ActionSpace()
    rows = dz.moves_to_array([None, dz.Move("3")])
    assert list(space.ids(rows)) == [0, space.id(dz.Move("3"))]
    assert space.moves([0])["cards"][0] == 0


# ---- RLCard ---------------------------------------------------------------------------


def test_every_rlcard_string_maps_to_our_rlcard_move_and_back() -> None:
    utils = pytest.importorskip("rlcard.games.doudizhu.utils")
    space = _space("rlcard")
    ids = set()
    for text in utils.ID_2_ACTION:
        action = from_rlcard(text)
        assert to_rlcard(action) == text
        ids.add(space.id(action))
        if text != "pass":
            # RLCard's own reading of the cards (its type table) is ours.
            kind, length = peers.rlcard_reading(action.move.cards.mask)
            assert (action.move.kind.name, action.move.length) == (kind, length), text
    assert ids == set(range(len(space)))  # a bijection onto our rlcard space


@pytest.mark.parametrize("name", ["standard", "douzero"])
def test_rlcard_conversion_of_other_spaces(name: str) -> None:
    """Moves of other rules convert exactly when RLCard's rules have them."""
    rl = dz.Rules.preset("rlcard")
    space = _space(name)
    for i in range(1, space.num_moves + 1):
        move = space.move(i)
        if move in dz.classify(move.cards, rl):
            assert from_rlcard(to_rlcard(move)) == dz.Action.play(move)
        else:
            with pytest.raises(ValueError, match="not in RLCard's action space"):
                to_rlcard(move)


def test_rlcard_errors() -> None:
    with pytest.raises(ValueError, match="RLCard has no bidding"):
        to_rlcard(dz.Action.bid(1))
    for bad in ("43", "Pass", "BB", "33334", "", "3 3"):
        with pytest.raises(ValueError, match="not an RLCard action string"):
            from_rlcard(bad)
    with pytest.raises(TypeError):
        from_rlcard(3)  # type: ignore[arg-type]


# ---- OpenSpiel ------------------------------------------------------------------------


def _openspiel_text(action: dz.Action) -> str:
    """OpenSpiel's action_to_string form of an Action (learned from pyspiel)."""
    if action.type == dz.ActionType.PASS:
        return "Pass"
    if action.type == dz.ActionType.BID:
        return "Pass" if action.value == 0 else f"Bid {action.value}"
    move = action.move
    assert move is not None
    text = peers.text_to_openspiel(str(move.cards))
    if move.kind in (dz.MoveKind.AIRPLANE_SOLOS, dz.MoveKind.AIRPLANE_PAIRS):
        body = dz.Cards.from_counts([3 if move.key <= r < move.key + move.length else 0 for r in range(15)])
        kickers = move.cards - body
        text = str(body) + "-" + peers.text_to_openspiel(str(kickers))
    return text


def _pyspiel():
    return pytest.importorskip("pyspiel")


def test_every_openspiel_id_is_our_openspiel_move() -> None:
    pyspiel = _pyspiel()
    game = pyspiel.load_game("dou_dizhu")
    assert game.num_distinct_actions() == dz.actions.OPENSPIEL_NUM_ACTIONS
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    space = _space("openspiel")
    ours = set()
    for action_id in range(game.num_distinct_actions()):
        action = from_openspiel(action_id)
        assert _openspiel_text(action) == state.action_to_string(action_id), action_id
        assert to_openspiel(action) == action_id
        if action.type == dz.ActionType.PLAY:
            ours.add(space.id(action))
    assert ours == set(range(1, space.num_moves + 1))


def _bug_difference(game: dz.Game, theirs: set, mine: set) -> None:
    """The documented OpenSpiel bugs (docs/rules.md) are the only differences allowed: it never
    offers a straight, pair straight or airplane without kickers whose lowest rank the hand
    holds four of (airplanes with kickers it does), and offers bombs over the rocket."""
    hand = game.hand(game.to_move)
    for a in mine - theirs:
        m = a.move
        assert m is not None and m.kind in (dz.MoveKind.STRAIGHT, dz.MoveKind.PAIR_STRAIGHT, dz.MoveKind.AIRPLANE), a
        assert hand.counts[m.key] == 4, a
    for a in theirs - mine:
        assert game.last is not None and game.last.kind == dz.MoveKind.ROCKET, a
        assert a.move is not None and a.move.kind == dz.MoveKind.BOMB, a


@pytest.mark.parametrize("seed", range(40))
def test_openspiel_games_mirror_ours(seed: int) -> None:
    """Random OpenSpiel games replayed in our engine under the openspiel preset: at every
    turn pyspiel's legal ids are our legal actions (but for its documented bugs), and
    the hands settle to OpenSpiel's returns."""
    _pyspiel()
    rng = random.Random(seed)
    state, hands, kitty, start = peers.openspiel_deal(rng)
    game = dz.Game.from_deal(hands, kitty, first_bidder=start, rules=dz.Rules.preset("openspiel"))
    space = ActionSpace(game.rules)
    while not state.is_terminal():
        assert state.current_player() == game.to_move
        bidding = game.phase == "bidding"
        theirs = {from_openspiel(i, bidding=bidding) for i in state.legal_actions()}
        mine = set(game.legal_actions())
        _bug_difference(game, theirs, mine)
        choice = rng.choice(sorted(theirs & mine, key=space.id))
        state.apply_action(to_openspiel(choice))
        game.step(choice)
    assert game.phase == "over"
    assert game.result is not None
    assert list(game.result.payouts) == [int(r) for r in state.returns()]


# ---- hostile input --------------------------------------------------------------------

@given(value=anything)
def test_any_argument_gives_a_result_or_a_clear_error(value: object) -> None:
    space = ActionSpace()
    calls = (space.id, space.action, space.move, space.mask, space.legal_ids, space.ids, space.moves,
             to_rlcard, from_rlcard, to_openspiel, from_openspiel)
    for call in calls:
        refused_or_ok(call, value)


@given(text=st.text(alphabet="3456789TJQKA2BRXbr10 pas", max_size=24))
def test_rlcard_text_round_trips_or_is_refused(text: str) -> None:
    try:
        action = from_rlcard(text)
    except ValueError:
        return
    assert to_rlcard(action) == text
