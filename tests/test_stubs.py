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
