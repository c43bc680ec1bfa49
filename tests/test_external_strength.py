"""The external strength benchmark (bench/external_strength.py) stays runnable: five deals
of each kind of row, with the legal sets of DouZero's env and of our mirrored game
compared at every decision (the script raises on any difference)."""

from __future__ import annotations

import pathlib
import sys

import pytest

pytest.importorskip("douzero.env.game")
pytest.importorskip("rlcard.models.doudizhu_rule_models")

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "bench"))

import external_strength as es


@pytest.mark.parametrize("row", ["heuristic-rlcard_agent", "heuristic-rule_v1", "neural-rule_v1",
                                 "rlcard_agent-random"])
def test_five_deals_of_a_row_play_through_the_adapter(row: str) -> None:
    ours, other = es.ROWS[row]
    args = es.main_arguments(["--deals", "5", "--seed", "3"])
    deals = es.douzero_deals(5, 3)
    result = es.run_row(ours, other, deals, 3, args)
    assert result.deals == 5 and len(result.wp) == 5
    assert result.stats.decisions == result.stats.checked + result.stats.kicker_trio_bug > 100
    summary = result.summary()
    assert 0 <= summary["wp"] <= 1 and all(abs(a) >= 2 for a in result.adp if a)


def test_the_same_seed_gives_the_same_row() -> None:
    args = es.main_arguments(["--deals", "3", "--seed", "4"])
    deals = es.douzero_deals(3, 4)
    one = es.run_row("heuristic", "rlcard_agent", deals, 4, args)
    two = es.run_row("heuristic", "rlcard_agent", deals, 4, args)
    assert (one.wp, one.adp) == (two.wp, two.adp)


def test_the_deals_are_douzero_eval_data() -> None:
    for deal in es.douzero_deals(4, 0):
        assert len(deal["landlord"]) == 20 and len(deal["landlord_up"]) == len(deal["landlord_down"]) == 17
        assert sorted(deal["landlord"] + deal["landlord_up"] + deal["landlord_down"]) == sorted(
            [c for c in range(3, 15) for _ in range(4)] + [17] * 4 + [20, 30])
        assert all(deal["landlord"].count(c) >= deal["three_landlord_cards"].count(c) for c in set(deal["landlord"]))


def test_the_determinized_bot_plays_a_deal() -> None:
    args = es.main_arguments(["--deals", "1", "--worlds", "2"])
    result = es.run_row("determinized", "rlcard_agent", es.douzero_deals(1, 5), 5, args)
    assert result.deals == 1 and result.stats.our_decisions > 0
