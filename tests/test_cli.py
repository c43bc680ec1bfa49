"""The command line."""

from __future__ import annotations

import re

import pytest

from doudizhu.cli import main


def test_moves_lists_leads_and_follows(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "3456BR", "--last", "3"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "6 moves for 3456BR over 3:"
    assert "rocket" in out and "(or pass)" in out


def test_bad_input_is_reported_not_raised(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "3Z"]) == 2
    assert "unknown card token 'Z'" in capsys.readouterr().err


def test_demo_plays_a_whole_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    payouts = [int(p) for p in re.findall(r"seat \d ([+-]\d+)", out.splitlines()[-1])]
    assert len(payouts) == 3 and sum(payouts) == 0
    assert main(["demo", "--seed", "5"]) == 0
    assert capsys.readouterr().out == out  # the seed fixes deal and play
