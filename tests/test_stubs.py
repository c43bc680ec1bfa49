"""The .pyi stubs describe the extension as it is (mypy's stubtest)."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("mypy")


def test_stubs_match_the_extension() -> None:
    allowlist = pathlib.Path(__file__).with_name("stubtest-allowlist.txt")
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "doudizhu._core", "--allowlist", str(allowlist)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


TYPICAL_USE = '''
from typing import Literal

import doudizhu as dz
from doudizhu import encode

rules = dz.Rules().replace(bidding="none", decks=1, four_with_two=False)
fields = rules.to_dict()
bidding: str = fields["bidding"]
copies: int = fields["max_solo_kicker_copies"]
again = dz.Rules(**fields)
game = dz.Game(seed=1, rules=again)
phase: Literal["bidding", "partner", "playing", "over"] = game.phase
obs = game.seat_view(0)
hand: dz.Cards = obs["hand"]
sizes: tuple[int, ...] = obs["hand_sizes"]
last: dz.Move | None = obs["last"]
kitty: dz.Cards | None = obs["kitty"]
high_bidder: int | None = obs["bidding"]["high_bidder"]
history: list[tuple[int, dz.Action]] = obs["history"]
features: list[encode.DouZeroObservation] = encode.douzero_batch([game])
'''


def test_stubs_type_typical_use(tmp_path: pathlib.Path) -> None:
    script = tmp_path / "typical_use.py"
    script.write_text(TYPICAL_USE, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(script)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
