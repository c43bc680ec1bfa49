"""The command line."""

from __future__ import annotations

import io
import pathlib
import re

import pytest

from doudizhu import SelfPlayResult
from doudizhu.cli import main


def run(*argv: str, read: object = input) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out, read=read)  # type: ignore[arg-type]
    return code, out.getvalue()


def test_moves_lists_leads_and_follows() -> None:
    code, out = run("moves", "3456BR", "--last", "3")
    assert code == 0 and out.splitlines()[0] == "6 moves for 3456BR over 3:"
    assert "rocket" in out and "(or pass)" in out


def test_bad_input_is_reported_not_raised(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("moves", "3Z")[0] == 2
    assert "unknown card token 'Z'" in capsys.readouterr().err


def test_auto_play_prints_a_whole_hand_and_the_seed_fixes_it() -> None:
    code, out = run("play", "--auto", "--seed", "5")
    assert code == 0
    payouts = [int(p) for p in re.findall(r"seat \d ([+-]\d+)", out.splitlines()[-1])]
    assert len(payouts) == 3 and sum(payouts) == 0
    assert run("play", "--auto", "--seed", "5")[1] == out


def test_interactive_play_with_a_scripted_player() -> None:
    out = io.StringIO()
    asked: list[str] = []

    def read(prompt: str) -> str:
        # Ask for the moves, try something illegal once, then play the first legal one.
        asked.append(prompt)
        if len(asked) == 2:
            return "33333"
        last_line = out.getvalue().rstrip().splitlines()[-1]
        if prompt.startswith("play again"):
            return "n"
        if last_line.startswith("hint: "):
            return last_line[len("hint: "):]
        return "hint"

    assert main(["play", "--seed", "3"], out=out, read=read) == 0
    text = out.getvalue()
    assert "your hand:" in text and "17 cards" in text and "stake: base" in text
    assert "not allowed:" in text
    assert re.search(r"payouts: you [+-]\d+", text)


def test_end_of_input_stops_cleanly() -> None:
    def read(prompt: str) -> str:
        raise EOFError

    code, out = run("play", "--seed", "3", read=read)
    assert code == 0 and out.rstrip().endswith("bye")  # leaving is a choice, not a failure


def test_selfplay_summary_and_file(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.npz"
    code, out = run("selfplay", "--games", "3000", "--threads", "2", "--seed", "4", "--out", str(path))
    assert code == 0 and "3000 games in" in out and "landlord win rate" in out
    assert "\r" not in capsys.readouterr().err  # no progress frames off a terminal (tests/test_terminal.py: on one)
    saved = SelfPlayResult.load(path)
    assert len(saved) == 3000 and saved.actions is not None


def test_train_takes_the_presets_the_networks_encode_and_refuses_the_rest(tmp_path: pathlib.Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    for preset in ("laizi", "four_player", "sanren"):
        with pytest.raises(SystemExit) as stop:
            run("train", "--recipe", "neural", "--rules", preset, "--out", str(tmp_path))
        assert stop.value.code == 2 and "invalid choice" in capsys.readouterr().err
    assert run("train", "--rules", "rlcard", "--out", str(tmp_path))[0] == 2  # DMC: the douzero preset only
    assert "'dmc' trains the douzero preset" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())  # nothing was trained
