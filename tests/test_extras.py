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
        f"try:\n    import {module}\nexcept ImportError as e:\n    import doudizhu\n"
        "    print(isinstance(e, doudizhu.MissingExtra), e)\n"
    )
    out = _run(code)
    assert out.startswith("True ")  # doudizhu.MissingExtra, an ImportError (docs/rules.md)
    assert f"pip install 'doudizhu-engine[{extra}]'" in out and f"pip install '.[{extra}]'" in out


def test_import_doudizhu_needs_only_numpy() -> None:
    blocked = ["torch", "gymnasium", "pettingzoo", "ray", "douzero", "rlcard", "pexpect"]
    code = "import sys\n" + "".join(f"sys.modules[{name!r}] = None\n" for name in blocked)
    code += "import doudizhu, doudizhu.bots, doudizhu.encode, doudizhu.envs\nprint(doudizhu.Game(seed=1).phase)"
    assert _run(code).strip() == "bidding"


def test_without_torch_a_file_that_is_no_checkpoint_is_named_so(tmp_path: pathlib.Path) -> None:
    # Every folder, zip and .npz file was refused as "doudizhu.neural needs PyTorch": a user
    # was told to install the [train] extra for a file it could never read.
    saved = tmp_path / "games.npz"
    doudizhu.selfplay(3, seed=1, record=True).save(saved)
    (tmp_path / "run").mkdir()
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from doudizhu import cli\n"
        f"for name in ({str(saved)!r}, {str(tmp_path / 'run')!r}):\n"
        "    print(cli.main(['play', '--auto', '--policy', name]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV)
    assert done.stdout.split() == ["2", "2"] and "PyTorch" not in done.stderr
    assert "games.npz is neither a network file (it does not begin with DDZNEURL) nor a doudizhu.train checkpoint" \
        in done.stderr
    assert "run: a folder without a checkpoint.pt, so no doudizhu.train run" in done.stderr


def test_without_ray_a_training_run_on_ray_is_refused_before_its_folder(tmp_path: pathlib.Path) -> None:
    # The run's folder (and its parents, and the lock) were made before Ray was found missing.
    pytest.importorskip("torch", reason="the [train] extra is not installed")
    out = tmp_path / "deep" / "run"
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "from doudizhu import cli\n"
        f"print(cli.main(['train', '--out', {str(out)!r}, '--ray-address', 'local', '--minutes', '0.05']))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV)
    assert done.stdout.strip() == "2" and "pip install 'doudizhu-engine[ray]'" in done.stderr
    assert not (tmp_path / "deep").exists()
