"""The README's Python examples run as written, and its links lead somewhere."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
TEXT = README.read_text(encoding="utf-8")


def test_readme_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", TEXT, flags=re.S)
    assert blocks, "README has no Python examples"
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)  # our own docs


def test_readme_links_resolve() -> None:
    """Every link into the repository names a file or folder that exists, and every guide
    page is linked (README's table of what the package does points to each)."""
    targets = [target.split("#")[0] for target in re.findall(r"\]\(([^)\s]+)\)", TEXT)]
    local = [target for target in targets if "://" not in target and target]
    assert local, "README links nothing in the repository"
    missing = [target for target in local if not (ROOT / target).exists()]
    assert not missing, f"README links to missing paths: {missing}"
    guide = {f"docs/guide/{page.name}" for page in (ROOT / "docs" / "guide").glob("*.md")}
    assert guide - set(local) == set(), f"guide pages README does not link: {sorted(guide - set(local))}"
