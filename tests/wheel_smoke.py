"""The smoke test of an installed wheel (not a pytest module): run with the Python of a
fresh environment that holds only the wheel and its dependencies, from outside the
checkout, so that nothing but the installed package is imported.

    python tests/wheel_smoke.py

.ci/run runs it on the wheel it builds; cibuildwheel runs it on each release wheel."""

from __future__ import annotations

import importlib.metadata
import pathlib
import subprocess
import sys

import doudizhu as dz

here = pathlib.Path(dz.__file__).resolve()
assert "site-packages" in here.parts, f"doudizhu was imported from {here}, not from the installed wheel"
assert dz.__version__ == importlib.metadata.version("doudizhu-engine")

game = dz.Game(seed=1)
while game.phase != "over":
    game.step(dz.choose_action(game, "heuristic", 0))
assert game.result is not None and sum(game.result.payouts) == 0

result = dz.selfplay(2000, policy="heuristic", seed=1, threads=2)
assert len(result) == 2000 and (result.payouts.sum(axis=1) == 0).all()
assert len(dz.legal_moves("33344456789TJQKA2BR")) > 50
assert dz.evaluate("heuristic", "random", deals=50, rules=dz.Rules.preset("douzero")).wp > 0.8

# The learned policy's network ships inside the package and plays without PyTorch.
assert dz.evaluate("neural", "random", deals=50, rules=dz.Rules.preset("douzero")).wp > 0.8
assert dz.selfplay(20, policy="neural", seed=1, rules=dz.Rules.preset("standard")).payouts.shape == (20, 3)

# The web app's page ships inside the package (importing doudizhu.web needs the [web] extra).
static = here.parent / "web" / "static"
assert all((static / name).is_file() for name in ("index.html", "app.js", "style.css")), f"no page in {static}"

cli = subprocess.run([sys.executable, "-m", "doudizhu", "--version"], capture_output=True, text=True, check=True)
assert cli.stdout.strip() == f"doudizhu-engine {dz.__version__}"
print(f"wheel smoke test passed: doudizhu-engine {dz.__version__} from {here.parent}")
