"""Modules behind an optional extra say, when its packages are missing, which extra to
install, from PyPI and from a checkout; `import doudizhu` itself needs only NumPy."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

import doudizhu

ENV = dict(os.environ, PYTHONPATH=str(pathlib.Path(doudizhu.__file__).parent.parent))


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=ENV).stdout


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [("doudizhu.envs.gymnasium", "gymnasium", "envs"), ("doudizhu.envs.pettingzoo", "pettingzoo", "envs"),
     ("doudizhu.neural", "torch", "train"), ("doudizhu.train", "torch", "train"),
     ("doudizhu.value_networks", "torch", "train"), ("doudizhu.checkpoint", "torch", "train"),
     ("doudizhu.network_file", "torch", "train")],
)
def test_a_module_behind_a_missing_extra_names_the_extra(module: str, blocked: str, extra: str) -> None:
    # A fresh interpreter in which the extra's package cannot be imported.
    code = (
        f"import sys; sys.modules[{blocked!r}] = None\n"
        f"try:\n    import {module}\nexcept ImportError as e:\n    print(e)\n"
    )
    out = _run(code)
    assert f"pip install 'doudizhu-engine[{extra}]'" in out and f"pip install '.[{extra}]'" in out


def test_import_doudizhu_needs_only_numpy() -> None:
    blocked = ["torch", "gymnasium", "pettingzoo", "ray", "douzero", "rlcard", "pexpect"]
    code = "import sys\n" + "".join(f"sys.modules[{name!r}] = None\n" for name in blocked)
    code += "import doudizhu, doudizhu.bots, doudizhu.encode, doudizhu.envs\nprint(doudizhu.Game(seed=1).phase)"
    assert _run(code).strip() == "bidding"
