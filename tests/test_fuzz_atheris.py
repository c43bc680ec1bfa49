"""A short run of the atheris fuzzer over the Python API (fuzz/atheris_api.py), when
atheris is installed (it is optional: `pip install atheris`; the hypothesis tests in
test_hostile_input.py cover the same ground without it)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("atheris")

HARNESS = pathlib.Path(__file__).resolve().parents[1] / "fuzz" / "atheris_api.py"


def test_atheris_short_run(tmp_path: pathlib.Path) -> None:
    runs = int(os.environ.get("DDZ_ATHERIS_RUNS", "3000"))
    (tmp_path / "corpus").mkdir()
    proc = subprocess.run(
        [sys.executable, str(HARNESS), f"-runs={runs}", "-max_total_time=20", "-rss_limit_mb=2048",
         f"-artifact_prefix={tmp_path}/", str(tmp_path / "corpus")],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    tail = (proc.stdout + proc.stderr)[-4000:]
    assert proc.returncode == 0, f"atheris found a crash:\n{tail}"
    assert "Done" in proc.stderr or "DONE" in proc.stderr, tail
