"""DouZero-style features under every preset: the layout tables tile the arrays, every
block holds what encode.douzero_layout documents, the rows repeat the decision's part,
and hidden cards never change them. (DouZero's own setting is compared with DouZero
itself in test_encode.py.)"""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import random_game

import doudizhu as dz
from doudizhu import encode

# DouZero's features need a landlord: run_fast's refusal is tests/test_run_fast.py's.
PRESETS = [name for name in dz.Rules.presets() if not dz.Rules.preset(name).each_for_self]
DOUZERO_SETTING = {"standard", "douzero", "rlcard", "openspiel", "happy"}
PER_SEAT = ("played_", "last_action_", "cards_left_")  # documented as played_<p>, ...


def counts_of(plane: np.ndarray, decks: int) -> list[int]:
    """Card counts (ranks 3..2, black and red joker) read from a card plane, checking that
    each rank's slots are a thermometer."""
    assert plane.shape == (54 * decks,)
    counts, start = [], 0
    for r in range(15):
        size = 4 * decks if r < 13 else decks
        slots = plane[start : start + size]
        n = int(slots.sum())
        assert list(slots) == [1] * n + [0] * (size - n), slots
        counts.append(n)
        start += size
    return counts


def one_hot(block: np.ndarray) -> int:
    assert set(np.unique(block)) <= {0, 1} and block.sum() == 1, block
    return int(block.argmax())


def play_decisions(rules: dz.Rules, seeds: range, every: int = 3) -> list[dz.Game]:
    """Copies of seeded games at every `every`-th decision of their play."""
    out = []
    for seed in seeds:
        game = random_game(seed, rules, 0)
        rng = random.Random(seed)
        k = 0
        while game.phase != "over":
            if game.phase == "playing" and k % every == seed % every:
                out.append(game.copy())
            k += game.phase == "playing"
            game.step(rng.choice(game.legal_actions()))
    return out


def seat_at(game: dz.Game, position: int) -> int:
    assert game.landlord is not None
    return (game.landlord + position) % game.seats


def plays(game: dz.Game) -> list[tuple[int, dz.Action]]:
    return [(s, a) for s, a in game.history if a.type in (dz.ActionType.PLAY, dz.ActionType.PASS)]


def last_action(game: dz.Game, seat: int) -> list[int]:
    """The cards of the seat's latest play, zeros for a pass or none yet (DouZero's rule)."""
    for s, a in reversed(plays(game)):
        if s == seat:
            return list(a.move.cards.counts) if a.move else [0] * 15
    return [0] * 15


@pytest.mark.parametrize("preset", PRESETS)
def test_the_layout_tiles_the_arrays_and_is_documented(preset: str) -> None:
    rules = dz.Rules.preset(preset)
    layout = encode.douzero_layout(rules)
    assert layout.douzero == (preset in DOUZERO_SETTING)
    assert len(layout.positions) == rules.players and layout.positions[0] == "landlord"
    doc = encode.douzero_layout.__doc__ or ""
    for blocks in [*layout.x_no_action.values(), layout.action]:
        spans = list(blocks.values())
        assert spans[0].start == 0 and all(a.stop == b.start for a, b in zip(spans, spans[1:]))
        for name in blocks:
            per_seat = [prefix for prefix in PER_SEAT if name.startswith(prefix)]
            assert f"``{per_seat[0] + '<p>' if per_seat else name}``" in doc, name
    c = 54 * rules.decks
    assert layout.action_width == (2 * c if rules.wild else c)
    assert layout.z == (5, rules.players * c)
    if layout.douzero:
        assert [layout.width(p) for p in layout.positions] == list(dz._core.DOUZERO_X_WIDTHS)
        assert (layout.width("landlord"), layout.width("landlord_up"), layout.action_width) == (319, 430, 54)
    else:
        # The generalized layout: one order, every other position's played cards, last
        # action and cards left.
        for p, blocks in layout.x_no_action.items():
            others = [q for q in layout.positions if q != p]
            names = ["hand", "others", "last_move"]
            names += [f"{kind}_{q}" for kind in ("played", "last_action", "cards_left") for q in others]
            names += ["bombs"] + (["wild"] if rules.wild else [])
            assert list(blocks) == names
            peasant = (54 * rules.decks - rules.kitty_size) // rules.players  # a dealt hand
            for q in others:
                size = blocks[f"cards_left_{q}"].stop - blocks[f"cards_left_{q}"].start
                assert size == (peasant + rules.kitty_size if q == "landlord" else peasant)
            assert blocks["bombs"].stop - blocks["bombs"].start == 13 * rules.decks + 2


def test_the_documented_widths() -> None:
    widths = {
        name: tuple(encode.douzero_layout(dz.Rules.preset(name)).width(p) for p in ("landlord", "landlord_down"))
        for name in ("sanren", "laizi", "four_player")
    }
    assert widths == {"sanren": (429, 429), "laizi": (440, 443), "four_player": (1075, 1083)}
    assert encode.douzero_layout(dz.Rules.preset("four_player")).positions == (
        "landlord",
        "landlord_down",
        "landlord_across",
        "landlord_up",
    )
    assert encode.douzero_layout() == encode.douzero_layout(dz.Rules())


def check_blocks(obs: encode.DouZeroObservation, game: dz.Game) -> None:
    """Every block of one decision read back against the game."""
    rules, d = game.rules, game.rules.decks
    layout = encode.douzero_layout(rules)
    me = game.to_move
    assert me is not None and game.landlord is not None
    position = layout.positions[(me - game.landlord) % game.seats]
    assert obs["position"] == position and obs["seat"] == me
    blocks = layout.x_no_action[position]
    x, z = obs["x_no_action"], obs["z"]
    width = layout.width(position)
    assert x.shape == (width,) and x.dtype == np.int8 and z.shape == layout.z and z.dtype == np.int8
    legal = obs["legal_actions"]
    assert legal == game.legal_actions()
    assert obs["x_batch"].shape == (len(legal), width + layout.action_width) and obs["x_batch"].dtype == np.float32
    assert obs["z_batch"].shape == (len(legal), *layout.z) and obs["z_batch"].dtype == np.float32
    assert set(np.unique(obs["x_batch"])) <= {0.0, 1.0} and set(np.unique(z)) <= {0, 1}
    assert np.array_equal(obs["x_batch"][:, :width], np.broadcast_to(x, (len(legal), width)))
    assert all(np.array_equal(row, z) for row in obs["z_batch"])

    def cards(name: str) -> list[int]:
        return counts_of(x[blocks[name]], d)

    view = game.seat_view(me)
    assert cards("hand") == list(game.hand(me).counts)
    others = [game.hand(s) for s in range(game.seats) if s != me]
    assert cards("others") == [sum(h.counts[r] for h in others) for r in range(15)]
    assert cards("last_move") == (list(game.last.cards.counts) if game.last else [0] * 15)
    for p, name in enumerate(layout.positions):
        if name == position:
            continue
        seat = seat_at(game, p)
        assert cards(f"played_{name}") == list(view["played"][seat].counts)
        assert one_hot(x[blocks[f"cards_left_{name}"]]) == view["hand_sizes"][seat] - 1
        if f"last_action_{name}" in blocks:
            assert cards(f"last_action_{name}") == last_action(game, seat)
    assert one_hot(x[blocks["bombs"]]) == view["bombs"] + view["rockets"]
    if rules.wild:
        wild = x[blocks["wild"]]  # one-hot, two-hot under laizi2
        assert set(np.unique(wild)) <= {0, 1} and list(np.flatnonzero(wild)) == list(game.wild_ranks)
    else:
        assert "wild" not in blocks
    # z: the last 5 x seats plays and passes, oldest first, padded in front.
    moves = layout.z[0] * game.seats
    recent = plays(game)[-moves:]
    planes = z.reshape(moves, 54 * d)
    padding = moves - len(recent)
    assert not planes[:padding].any()
    for plane, (_, action) in zip(planes[padding:], recent):
        assert counts_of(plane, d) == (list(action.move.cards.counts) if action.move else [0] * 15)
    # The action part: the combination, and with wild cards the cards spent.
    for row, action in zip(obs["x_batch"], legal):
        part = row[width:]
        move = action.move
        assert counts_of(part[layout.action["action"]], d) == (list(move.cards.counts) if move else [0] * 15)
        if rules.wild:
            spent = counts_of(part[layout.action["action_spent"]], d)
            assert spent == (list(move.spent.counts) if move else [0] * 15)
            combination = part[layout.action["action"]]
            assert (not np.array_equal(combination, part[layout.action["action_spent"]])) == bool(
                move and move.stand_ins
            )


@pytest.mark.parametrize("preset", PRESETS)
def test_every_block_holds_what_the_layout_says(preset: str) -> None:
    rules = dz.Rules.preset(preset)
    games = play_decisions(rules, range(6), every=4)
    assert len(games) > 20
    for game in games:
        check_blocks(encode.douzero(game), game)
    batch = encode.douzero_batch(games)
    for got, game in zip(batch, games):
        want = encode.douzero(game)
        for key in ("x_batch", "z_batch", "x_no_action", "z"):
            assert np.array_equal(got[key], want[key]), key  # type: ignore[literal-required]


@pytest.mark.parametrize("preset", PRESETS)
def test_cards_the_seat_cannot_see_never_change_the_features(preset: str) -> None:
    rules = dz.Rules.preset(preset)
    moved = 0
    for game in play_decisions(rules, range(10), every=4):
        me = game.to_move
        assert me is not None
        want = encode.douzero(game)
        for world in dz.sample_worlds(game, me, 3, seed=len(game.history)):
            moved += any(world.hand(s) != game.hand(s) for s in range(game.seats))
            got = encode.douzero(world)
            assert got["position"] == want["position"] and got["legal_actions"] == want["legal_actions"]
            for key in ("x_batch", "z_batch", "x_no_action", "z"):
                assert np.array_equal(got[key], want[key]), key  # type: ignore[literal-required]
    assert moved > 0  # the worlds did deal the hidden cards otherwise


def test_four_players_others_are_the_three_other_hands() -> None:
    game = dz.Game(seed=3, rules=dz.Rules.preset("four_player"))
    while game.phase == "bidding":
        game.step(game.legal_actions()[-1])
    game.step(game.legal_actions()[-1])  # the landlord's first play
    obs = encode.douzero(game)
    layout = encode.douzero_layout(game.rules)
    me = game.to_move
    assert me is not None and obs["position"] == "landlord_down"
    union = dz.Cards(sum((game.hand(s) for s in range(4) if s != me), dz.Cards()))
    x = obs["x_no_action"]
    assert counts_of(x[layout.x_no_action["landlord_down"]["others"]], 2) == list(union.counts)
    assert sum(union.counts) == 108 - sum(game.hand(me).counts) - sum(game.last.cards.counts)  # type: ignore[union-attr]
    blocks = layout.x_no_action["landlord_down"]
    assert counts_of(x[blocks["played_landlord"]], 2) == list(game.last.cards.counts)  # type: ignore[union-attr]
    assert one_hot(x[blocks["cards_left_landlord"]]) == 33 - sum(game.last.cards.counts) - 1  # type: ignore[union-attr]
    assert one_hot(x[blocks["cards_left_landlord_across"]]) == 24


def test_a_laizi_action_spends_wild_cards_where_it_has_stand_ins() -> None:
    rules = dz.Rules.preset("laizi")
    layout = encode.douzero_layout(rules)
    soft = natural = 0
    for game in play_decisions(rules, range(10), every=5):
        obs = encode.douzero(game)
        width = layout.width(obs["position"])
        combination = obs["x_batch"][:, width + layout.action["action"].start : width + layout.action["action"].stop]
        spent = obs["x_batch"][:, width + layout.action["action_spent"].start :]
        for i, action in enumerate(obs["legal_actions"]):
            differs = not np.array_equal(combination[i], spent[i])
            assert differs == bool(action.move and action.move.stand_ins)
            soft += differs
            natural += action.move is not None and not differs
    assert soft > 0 and natural > 0


def test_what_the_features_cannot_describe_is_refused() -> None:
    four = dz.Rules.preset("four_player")
    with pytest.raises(ValueError, match="in play"):
        encode.douzero(dz.Game(seed=1, rules=four))
    with pytest.raises(ValueError, match="four seats"):
        encode.douzero(dz.Game.from_position(["3", "4"], landlord=0, to_move=0, rules=four))
    # More cards than the layout holds no position has: from_position refuses them first.
    with pytest.raises(ValueError, match="seat 1, not the landlord, holds 19 cards, more than the 17 dealt to it"):
        dz.Game.from_position(["3", "4445556667778889999", "T"], landlord=0, to_move=1)
    with pytest.raises(TypeError, match="rules must be a Rules"):
        encode.douzero_layout("laizi")  # type: ignore[arg-type]
