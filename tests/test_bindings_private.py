"""What the bindings rely on beyond pybind11's and NumPy's documented interfaces.

Every such reliance lives in cpp/bindings/pybind_private.hpp (a new pybind11 major
version stops the build there); these tests check that no other file reaches into
pybind11's internals and exercise each reliance, so that an upgrade that changes one
fails here rather than misbehaving quietly.
"""

from __future__ import annotations

import gc
import re
from pathlib import Path

import numpy as np
import pytest

import doudizhu as dz
from doudizhu import Action, Cards, Game, Move, Rules

BINDINGS = Path(__file__).resolve().parent.parent / "cpp" / "bindings"
PRIVATE = re.compile(r"\bdetail::|npy_api|array_proxy|get_value_and_holder")


def test_only_one_file_reaches_into_pybind11() -> None:
    reaching = [p.name for p in sorted(BINDINGS.iterdir()) if PRIVATE.search(p.read_text())]
    assert reaching == ["pybind_private.hpp"]


@pytest.mark.parametrize("cls", [Cards, Rules, Move, Action, Game, dz.ActionSpace])
def test_an_instance_never_constructed_is_refused_by_name(cls: type) -> None:
    # constructed(): pybind11's registered mark, read by the caster and the fast paths.
    with pytest.raises(TypeError, match=cls.__name__):
        repr(cls.__new__(cls))


def test_an_argument_never_constructed_is_refused_by_name() -> None:
    for call, name in [(lambda: Cards("3") + Cards.__new__(Cards), "Cards"),
                       (lambda: Game(rules=Rules.__new__(Rules)), "Rules"),
                       (lambda: dz.legal_moves(Cards.__new__(Cards)), "Cards"),
                       (lambda: Game(seed=1).step(Action.__new__(Action)), "Action")]:
        with pytest.raises(TypeError, match=name):
            call()


def test_values_read_straight_from_their_instance_and_through_the_caster_agree() -> None:
    # stored_value() for an exact bound type; a subclass goes through pybind11's caster.
    class Labelled(Cards):
        pass

    assert Cards("33") + Cards("4") == Cards("334") == Cards("33") + Labelled("4")
    game = Game(seed=2)
    action = game.legal_actions()[0]
    game.step(action)
    assert game.history[-1][1] == action


def test_arrays_made_over_our_memory_own_it_and_are_writable() -> None:
    # array_over(): NumPy's C API, the array's base a capsule that frees the rows.
    hand = "33344455566789TJQKA"
    moves = dz.legal_moves_array(hand)
    assert moves.flags.writeable and moves.flags.c_contiguous and moves.base is not None
    gc.collect()
    assert dz.moves_from_array(moves) == dz.legal_moves(hand)
    view = moves[:3]
    del moves
    gc.collect()
    assert dz.moves_from_array(view) == dz.legal_moves(hand)[:3]  # the base keeps the rows alive


def test_contiguous_rows_are_read_as_they_are_and_others_converted() -> None:
    # is_c_contiguous_array(): the fast path of row arguments, checked against NumPy's own.
    game = Game(seed=5, rules=Rules.preset("douzero"))
    for _ in range(8):
        game.step(game.legal_actions()[0])
    rows = dz.actions_to_rows(game.history)
    doubled = np.repeat(rows, 2)
    strided = doubled[::2]
    assert not strided.flags.c_contiguous
    assert dz.actions_from_rows(strided) == dz.actions_from_rows(rows) == game.history


def test_a_hinted_argument_shows_its_type_and_is_converted_by_hand() -> None:
    # Hinted: pybind11's handle_type_name trait names the argument in the signature, while
    # any object reaches the binding, whose own conversion refuses it by name.
    assert (dz.classify.__doc__ or "").startswith("classify(cards: Cards | str | int")
    with pytest.raises(TypeError, match="cards must be"):
        dz.classify(1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules must be"):
        dz.classify("33", rules="douzero")  # type: ignore[arg-type]
