"""The terminal game driven as a person drives it: through a pseudo-terminal (pexpect),
typing commands and reading the screen."""

from __future__ import annotations

import os
import pathlib
import re
import signal
import subprocess
import sys

import pytest

pexpect = pytest.importorskip("pexpect")

import doudizhu  # noqa: E402

PROMPT = r"(bid 0-3|call / decline|rob / no rob|your play \(help for commands\))> "
AGAIN = r"play again\? \[y/N\]> "


ENV = dict(os.environ, PYTHONPATH=str(pathlib.Path(doudizhu.__file__).parent.parent))  # this doudizhu, installed or not


def spawn(*args: str) -> pexpect.spawn:
    env = ENV
    return pexpect.spawn(sys.executable, ["-m", "doudizhu", "play", *args], env=env, encoding="utf-8", timeout=30)


def hint(child: pexpect.spawn) -> str:
    child.sendline("hint")
    child.expect(r"hint: ([^\r\n]+)\r\n")
    return str(child.match.group(1))


def leave(child: pexpect.spawn) -> int:
    """Waits for the program to end; its exit status."""
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in child.before
    return int(child.exitstatus)


def test_a_whole_hand_typed_at_the_keyboard() -> None:
    child = spawn("--seed", "7")
    child.expect(r"seed 7 \(--seed 7 replays this deal\)")
    child.expect(PROMPT)
    assert "your hand:" in child.before and "you (bidding)" in child.before
    child.sendline("")  # an empty line asks again
    child.expect(PROMPT)
    child.sendline("help")
    child.expect("quit, exit")
    child.expect(PROMPT)
    child.sendline("33333")
    child.expect("not allowed: ")
    undone = played = 0
    screens = []
    while True:
        if child.expect([PROMPT, AGAIN]) == 1:
            final = child.before
            break
        screens.append(child.before)
        action = hint(child)
        child.expect(PROMPT)
        child.sendline(action)
        played += 1
        if played == 3 and not undone:
            child.expect(PROMPT)
            child.sendline("undo")
            child.expect("undone")
            undone = played
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and undone
    assert re.search(r"payouts: you [+-]\d+, seat 1 [+-]\d+, seat 2 [+-]\d+", final)
    in_play = [s for s in screens if "playing, your turn" in s]
    assert in_play, "the person never played a card"
    for screen in in_play:
        assert "played so far:" in screen and "stake: base" in screen, screen
        assert re.search(r"\d+ bombs? so far", screen), screen
    assert any(re.search(r"you \((landlord|peasant)\)", s) for s in in_play)


def test_moves_are_grouped_by_kind() -> None:
    child = spawn("--seed", "7", "--rules", "douzero")  # no auction: the play starts at once
    child.expect(PROMPT)
    child.sendline("moves")
    child.expect(PROMPT)
    kinds = re.findall(r"^\s+(\w+):", child.before, flags=re.M)
    assert "solo" in kinds and "pair" in kinds and len(kinds) == len(set(kinds))
    child.sendline("quit")
    assert leave(child) == 0


@pytest.mark.parametrize(("how", "status"), [("quit", 0), ("exit", 0), ("ctrl-d", 0), ("ctrl-c", 130)])
def test_leaving_is_a_choice_not_a_failure(how: str, status: int) -> None:
    child = spawn("--seed", "3")
    child.expect(PROMPT)
    if how == "ctrl-d":
        child.sendeof()
    elif how == "ctrl-c":
        child.kill(signal.SIGINT)
    else:
        child.sendline(how)
    assert leave(child) == status


def test_a_fresh_deal_each_run_with_its_seed_printed() -> None:
    seeds = set()
    for _ in range(2):
        child = spawn()
        child.expect(r"seed (\d+) \(--seed")
        seeds.add(child.match.group(1))
        child.expect(PROMPT)
        child.sendline("exit")
        child.expect(pexpect.EOF)
    assert len(seeds) == 2


def test_auto_play_calls_no_seat_you() -> None:
    command = [sys.executable, "-m", "doudizhu", "play", "--auto", "--seed", "4"]
    out = subprocess.run(command, capture_output=True, text=True, check=True, env=ENV).stdout
    assert not re.search(r"\byou\b", out) and "payouts: seat 0" in out


def test_progress_bars_only_on_a_terminal() -> None:
    env = ENV
    done = subprocess.run([sys.executable, "-m", "doudizhu", "selfplay", "--games", "3000", "--threads", "1"],
                          capture_output=True, text=True, check=True, env=env)
    assert "\r" not in done.stderr and "3000 games in" in done.stdout
    child = pexpect.spawn(sys.executable, ["-m", "doudizhu", "selfplay", "--games", "3000", "--threads", "1"], env=env,
                          encoding="utf-8", timeout=60)
    child.expect(r"\r\[#+\] 3000/3000 games")
    child.expect(pexpect.EOF)
