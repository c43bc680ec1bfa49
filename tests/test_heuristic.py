"""The heuristic bot plays only on what its seat knows, and its hand-counted choices.

Honesty: at decisions of seeded games, the hidden cards are re-dealt
(``sample_worlds``: the seat's own hand, every card played and by whom, the hand sizes and
the shown kitty kept) and the heuristic must choose the same action in every world."""

from __future__ import annotations

import pytest

import doudizhu as dz
from doudizhu import Game, Rules
from doudizhu._core import choose_action


def heuristic(game: Game) -> dz.Action:
    return choose_action(game, "heuristic", 0)


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules.preset("douzero"), Rules(bidding="none"), Rules.preset("four_player"), Rules.preset("sanren")],
    ids=["standard", "douzero", "no-bidding", "four_player", "sanren"],
)
def test_the_heuristic_does_not_read_hidden_cards(rules: Rules) -> None:
    checked = 0
    for seed in range(12):
        game = Game(seed=seed, rules=rules, first_bidder=seed % rules.players)
        step = 0
        while game.phase != "over":
            choice = heuristic(game)
            if game.phase == "playing" and step % 3 == 0:
                seat = game.to_move
                assert seat is not None
                for world in dz.sample_worlds(game, seat, 6, seed=step):
                    assert world.hand(seat) == game.hand(seat)
                    assert heuristic(world) == choice, (seed, step, str(game.hand(seat)))
                    checked += 1
            game.step(choice)
            step += 1
    assert checked > 500


def test_the_heuristic_keeps_control_to_go_out() -> None:
    # A 2 nobody can beat (the other 2s and both jokers are played), then the 3: the
    # weakest-first lead (the 3) would let the opponent's single out.
    game = Game.from_position(["32", "4"], landlord=0, to_move=0)
    assert str(heuristic(game)) == "2"


def test_the_heuristic_goes_out_over_its_partner() -> None:
    game = Game.from_position(["33", "K", "A"], landlord=0, to_move=2, last="Q", last_by=1)
    assert str(heuristic(game)) == "A"
