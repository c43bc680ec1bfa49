"""One version: pyproject's, seen through the installed metadata by the package and the CLI."""

from __future__ import annotations

import importlib.metadata
import pathlib
import re
import subprocess
import sys
import sysconfig

import pytest

import doudizhu as dz

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_version_is_the_installed_metadata() -> None:
    assert dz.__version__ == importlib.metadata.version("doudizhu-engine")
    assert re.fullmatch(r"\d+\.\d+\.\d+\S*", dz.__version__)


def test_version_is_pyproject_s_when_run_from_this_tree() -> None:
    pyproject = ROOT / "pyproject.toml"
    if not pyproject.is_file():
        pytest.skip("not run from a source tree")
    match = re.search(r'(?m)^version = "([^"]+)"', pyproject.read_text(encoding="utf-8"))
    assert match is not None
    assert dz.__version__ == match.group(1)


def test_module_cli_prints_the_version() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "doudizhu", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"doudizhu-engine {dz.__version__}\n"


def test_console_script_prints_the_version() -> None:
    script = pathlib.Path(sysconfig.get_path("scripts")) / "doudizhu"
    if not script.exists():
        pytest.skip(f"no console script at {script}")
    done = subprocess.run([str(script), "--version"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"doudizhu-engine {dz.__version__}\n"

