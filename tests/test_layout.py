"""The C++ core's layout: folders by layer, includes only downhill, no cycle between files.

The layer order is cmake/core_sources.cmake's DDZ_LAYERS (the one list the build uses),
with the bindings above every layer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CPP = ROOT / "cpp"
INCLUDE = re.compile(r'^#include "([a-z_]+)/([a-z_]+)\.hpp"', re.MULTILINE)


def layers() -> list[str]:
    text = (ROOT / "cmake" / "core_sources.cmake").read_text()
    found = re.search(r"^set\(DDZ_LAYERS ([a-z ]+)\)", text, re.MULTILINE)
    assert found, "cmake/core_sources.cmake names no DDZ_LAYERS"
    return [*found.group(1).split(), "bindings"]


def sources() -> Iterator[Path]:
    yield from sorted(CPP.glob("*/*.[ch]pp"))


def unit(path: Path) -> str:
    """A file's unit: a header and its .cpp are one."""
    return f"{path.parent.name}/{path.stem}"


def test_every_folder_is_a_layer_and_no_file_sits_outside_one() -> None:
    assert sorted(p.name for p in CPP.iterdir() if p.is_dir()) == sorted(layers())
    assert [p.name for p in CPP.iterdir() if p.is_file()] == []


def test_every_include_names_its_layer_and_exists() -> None:
    for path in sources():
        for line in path.read_text().splitlines():
            if line.startswith('#include "'):
                assert INCLUDE.match(line), f"{path.relative_to(ROOT)}: {line} (write layer/name.hpp)"
                target = CPP / line.split('"')[1]
                assert target.is_file(), f"{path.relative_to(ROOT)}: {line} names no header"


@pytest.mark.parametrize("path", list(sources()), ids=lambda p: str(p.relative_to(CPP)))
def test_includes_run_downhill(path: Path) -> None:
    order = layers()
    own = order.index(path.parent.name)
    for layer, name in INCLUDE.findall(path.read_text()):
        assert order.index(layer) <= own, f"{unit(path)} includes {layer}/{name}.hpp, a layer above it"


def test_no_cycle_between_units() -> None:
    edges: dict[str, set[str]] = {}
    for path in sources():
        here = unit(path)
        included = {f"{layer}/{name}" for layer, name in INCLUDE.findall(path.read_text())}
        edges.setdefault(here, set()).update(included - {here})
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            assert state.get(nxt) != 1, "include cycle: " + " -> ".join([*path, node, nxt])
            if nxt not in state:
                visit(nxt, [*path, node])
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [])
