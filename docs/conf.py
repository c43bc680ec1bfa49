"""Sphinx configuration: the user guide (docs/guide/, the rule book and README's opening
sections, in MyST Markdown) and the API reference (autodoc over the package's docstrings,
with the signatures of the C++ extension taken from its stubs, python/doudizhu/_core.pyi).

Build (from the repository root, with the ``docs`` extra installed)::

    sphinx-build -W -b html docs build/docs/html
    sphinx-build -W -b doctest docs build/docs/doctest   # runs the guide's examples
"""

from __future__ import annotations

import ast
import doctest
import importlib.util
import os
import pathlib
import re
import sys

DOCS = pathlib.Path(__file__).resolve().parent
ROOT = DOCS.parent

# A checkout with the extension built in place (python/doudizhu/_core*.so, e.g. a symlink
# to build/dev) documents that tree; otherwise the installed package (CI: pip install .).
if list((ROOT / "python" / "doudizhu").glob("_core*.so")) or list((ROOT / "python" / "doudizhu").glob("_core*.pyd")):
    sys.path.insert(0, str(ROOT / "python"))

import doudizhu  # noqa: E402

project = "doudizhu"
author = "the doudizhu authors"
copyright = "the doudizhu authors, MIT License"
release = doudizhu.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
root_doc = "index"
html_theme = "alabaster"
html_title = f"doudizhu {release}"
html_static_path: list[str] = []

# MyST: heading anchors for the rule book's and README's own #links.
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]

# Optional dependencies are mocked when absent, so the build never needs them.
OPTIONAL = ["torch", "gymnasium", "pettingzoo"]
# DOUDIZHU_DOCS_MOCK=1 mocks them all, to check that build where they are installed.
autodoc_mock_imports = [
    name for name in OPTIONAL if os.environ.get("DOUDIZHU_DOCS_MOCK") == "1" or importlib.util.find_spec(name) is None
]

autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": True}
autodoc_member_order = "bysource"
# A class's signature is its __init__'s (pybind11 puts it in __init__'s docstring).
autoclass_content = "both"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
# Our own docstrings only: the environments' base classes (Gymnasium, PettingZoo) write
# theirs in another style, and are mocked when absent anyway.
autodoc_inherit_docstrings = False

nitpicky = False

# -- Doctests ------------------------------------------------------------------------
# The guide's {testcode}/{testoutput} and {doctest} blocks, and README's ```python blocks
# where index.md includes them (see readme_include below): each page's blocks run in order
# in one namespace, with these names already imported.
doctest_global_setup = """
import importlib.util as _util
import doudizhu as dz
from doudizhu import encode
_missing_envs = _util.find_spec("gymnasium") is None or _util.find_spec("pettingzoo") is None
"""
doctest_test_doctest_blocks = "default"
# Sphinx ignores an exception's message unless told: the guide quotes messages word for word.
doctest_default_flags = doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1


# -- README's opening sections on the front page ------------------------------------

README_LINKS = {
    "docs/": "/",  # the rule book and the guide; "/" is the documentation's root
}
FENCE = re.compile(r"^(```+|~~~+)(.*)$")


def _readme_for_docs(text: str) -> str:
    """README as the front page (docs/index.md) includes it: headings one level up, its
    Python examples as doctests, links into the tree resolved or made plain text."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = FENCE.match(line)
        if fence:
            mark, info = fence.group(1), fence.group(2).strip()
            end = i + 1
            while end < len(lines) and not lines[end].startswith(mark):
                end += 1
            body = lines[i + 1 : end]
            if info == "python":
                code = "\n".join(body)
                out.append(mark + "{testcode}")
                if "doudizhu.envs" in code:
                    out.append(":skipif: _missing_envs")
                    out.append("")
                out.extend(body)
                out.append(mark)
                if "print(" in code:  # whatever it prints: the example must only run
                    out.extend([mark + "{testoutput}", ":hide:", ":options: +ELLIPSIS", "", "...", mark])
            else:
                out.extend(lines[i : end + 1])
            i = end + 1
            continue
        if line.startswith("##"):
            line = line[1:]
        out.append(line)
        i += 1
    text = "\n".join(out) + "\n"

    def link(match: re.Match[str]) -> str:
        label, target = match.group(1), match.group(2)
        for prefix, replacement in README_LINKS.items():
            if target.startswith(prefix):
                return f"[{label}]({replacement}{target[len(prefix):]})"
        if "://" in target or target.startswith("#"):
            return match.group(0)
        return label  # a file of the source tree (bench/RESULTS.md): named, not linked

    return re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", link, text)


def readme_include(app, relative_path, parent_docname, content):
    if pathlib.Path(relative_path).name == "README.md":
        content[0] = _readme_for_docs(content[0])


# -- Signatures of the C++ extension from its stubs ----------------------------------


def _stub_signatures() -> dict[str, tuple[str, str | None]]:
    """Qualified name in doudizhu._core -> (argument list, return annotation), from _core.pyi.
    Overloaded names (several defs) keep pybind11's own signatures."""
    tree = ast.parse((ROOT / "python" / "doudizhu" / "_core.pyi").read_text(encoding="utf-8"))
    found: dict[str, list[tuple[str, str | None]]] = {}

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body, prefix + node.name + ".")
            elif isinstance(node, ast.FunctionDef):
                if any(isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list):
                    continue
                args = node.args
                if prefix and not any(
                    isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list
                ):
                    # drop self / cls
                    args = ast.arguments(
                        posonlyargs=args.posonlyargs[1:] if args.posonlyargs else [],
                        args=args.args[1:] if not args.posonlyargs else args.args,
                        vararg=args.vararg,
                        kwonlyargs=args.kwonlyargs,
                        kw_defaults=args.kw_defaults,
                        kwarg=args.kwarg,
                        defaults=args.defaults,
                    )
                returns = ast.unparse(node.returns) if node.returns else None
                found.setdefault(prefix + node.name, []).append((f"({ast.unparse(args)})", returns))

    visit(tree.body, "")
    return {name: sigs[0] for name, sigs in found.items() if len(sigs) == 1}


STUBS = _stub_signatures()


def stub_signature(app, what, name, obj, options, signature, return_annotation):
    """The stub's signature for an object of doudizhu._core (documented under any module)."""
    if signature is None:  # nothing to replace (autodoc found no signature at all)
        return None
    from doudizhu import _core

    parts = name.split(".")
    for i in range(1, len(parts)):
        path = parts[i:]
        found: object = _core
        for part in path:
            found = getattr(found, part, None)
        if found is None or found != obj:
            continue
        key = ".".join(path) + (".__init__" if what in ("class", "exception") else "")
        stub = STUBS.get(key)
        if stub and what in ("class", "exception"):
            return stub[0], None  # a constructor's "-> None" says nothing
        return stub
    return None


def setup(app):
    app.connect("include-read", readme_include)
    app.connect("autodoc-process-signature", stub_signature)
    return {"parallel_read_safe": True}
