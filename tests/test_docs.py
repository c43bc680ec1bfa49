"""The documentation (docs/) builds without warnings, and the guide's examples run.

Both builds are Sphinx with warnings as errors: ``html`` (the pages and the API reference)
and ``doctest`` (the guide pages' doctest blocks, and README's short tour as the front page
includes it). Skipped without the ``docs`` extra (``pip install ".[docs]"``).
"""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

import pytest

pytest.importorskip("sphinx")
pytest.importorskip("myst_parser")

DOCS = pathlib.Path(__file__).resolve().parents[1] / "docs"


@pytest.mark.parametrize("builder", ["html", "doctest"])
def test_docs_build(builder: str, tmp_path: pathlib.Path) -> None:
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", builder]
    command += ["-d", str(tmp_path / "doctrees"), str(DOCS), str(tmp_path / builder)]
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    assert run.returncode == 0, f"{' '.join(command)}\n{run.stdout}\n{run.stderr}"
    if builder == "html":
        assert (tmp_path / "html" / "api" / "doudizhu.html").is_file()
        assert (tmp_path / "html" / "rules.html").is_file()
    else:
        output = (tmp_path / "doctest" / "output.txt").read_text(encoding="utf-8")
        ran = re.search(r"^ +(\d+) tests$", output, flags=re.M)
        assert ran and int(ran.group(1)) > 0, output  # the examples ran ...
        assert " 0 failures in tests" in output, output  # ... and passed
        # ... every page's that has any, the front page (README's tour) included
        pages = {"index"} | {
            f"guide/{page.stem}"
            for page in (DOCS / "guide").glob("*.md")
            if re.search(r"^```+\{(testcode|doctest)\}", page.read_text(encoding="utf-8"), flags=re.M)
        }
        tested = set(re.findall(r"^Document: (\S+)$", output, flags=re.M))
        assert pages <= tested, f"pages whose examples did not run: {sorted(pages - tested)}"
