"""The signatures help() shows are the real ones: those of _core.pyi.

pybind11 writes each function's signature into its docstring from the C++ parameter
types. The bindings take most arguments as handles they convert by hand (so that errors
name the argument), and name their Python types with `Hinted` (cpp/bindings/arg_types.hpp).
These tests hold every such signature to the stubs, parameter by parameter, so neither
can drift from the other, and keep pybind11's `object` and C++ type names out of them.
"""

from __future__ import annotations

import ast
import pydoc
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import doudizhu as dz
from doudizhu import _core

STUBS = Path(_core.__file__).resolve().parent / "_core.pyi"
if not STUBS.exists():  # an installed wheel keeps the stubs beside the package
    STUBS = Path(dz.__file__).resolve().parent / "_core.pyi"

# What pybind11 spells out in a signature, and how _core.pyi spells it.
SPELLINGS = [
    (re.compile(r"\bdoudizhu\.(_core\.)?"), ""),
    (re.compile(r"\bnumpy\.typing\."), "npt."),
    (re.compile(r"\bnumpy\."), "np."),
    (re.compile(r"\b(collections\.abc|typing|typing_extensions)\."), ""),
    (re.compile(r"\bnp\.bool_\b"), "np.bool"),
]
# A parameter pybind11 shows as `object` (a dunder's) is one the stubs may call Any.
ANY = {"object": "Any"}
SIGNATURE = re.compile(r"^(?:\d+\. )?(\w+)\((.*)\) -> (.*)$")


def spelled(annotation: str) -> str:
    for pattern, replacement in SPELLINGS:
        annotation = pattern.sub(replacement, annotation)
    return annotation.replace(" ", "")


def stub_signatures() -> dict[str, list[dict[str, str]]]:
    """Each function's parameters and return, name to annotation, with aliases expanded."""
    tree = ast.parse(STUBS.read_text())
    aliases = {node.target.id: ast.unparse(node.value) for node in tree.body
               if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None}

    def expand(text: str) -> str:
        for _ in range(3):  # aliases of aliases
            for name, value in aliases.items():
                text = re.sub(rf"\b{name}\b", value, text)
        return spelled(text)

    found: dict[str, list[dict[str, str]]] = {}

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body, prefix + node.name + ".")
            elif isinstance(node, ast.FunctionDef):
                args = node.args
                params = {a.arg: expand(ast.unparse(a.annotation))
                          for a in args.posonlyargs + args.args + args.kwonlyargs if a.annotation is not None}
                if node.returns is not None:
                    params["->"] = expand(ast.unparse(node.returns))
                found.setdefault(prefix + node.name, []).append(params)

    visit(tree.body, "")
    return found


def runtime_signatures() -> Iterator[tuple[str, str]]:
    """(qualified name, a signature line pybind11 wrote) for every bound function."""
    def lines(name: str, function: object) -> Iterator[tuple[str, str]]:
        for line in (getattr(function, "__doc__", None) or "").splitlines():
            if SIGNATURE.match(line.strip()):
                yield name, line.strip()

    for name, value in vars(_core).items():
        if isinstance(value, type):
            for member, attribute in vars(value).items():
                function = attribute.__func__ if isinstance(attribute, staticmethod) else attribute
                if callable(function) and not isinstance(function, type):
                    yield from lines(f"{name}.{member}", function)
        elif callable(value):
            yield from lines(name, value)


def parameters(signature: str) -> dict[str, str]:
    match = SIGNATURE.match(signature)
    assert match, signature
    _, inside, returns = match.groups()
    params = {"->": spelled(returns)}
    depth, start, pieces = 0, 0, []
    for i, char in enumerate(inside + ","):
        depth += (char in "[(") - (char in "])")
        if char == "," and depth == 0:
            pieces.append(inside[start:i].strip())
            start = i + 1
    for piece in filter(None, pieces):
        if piece in ("/", "*") or ":" not in piece:
            continue
        name, annotation = piece.split(":", 1)
        params[name.strip()] = spelled(annotation.split(" = ")[0])
    return params


STUB = stub_signatures()
# The dunders pybind11 adds (__repr__, __getstate__, ...) are not in the stubs: nothing to hold.
SIGNATURES = sorted((name, line) for name, line in runtime_signatures() if name in STUB)


def test_every_bound_function_has_a_signature_to_check() -> None:
    names = {name for name, _ in SIGNATURES}
    assert {"classify", "Game.__init__", "Cards.__init__", "ActionSpace.step", "solve"} <= names
    public = {name for name, _ in runtime_signatures() if not name.split(".")[-1].startswith("_")}
    assert public <= set(STUB), public - set(STUB)


@pytest.mark.parametrize(("name", "signature"), SIGNATURES, ids=[f"{n}:{i}" for i, (n, _) in enumerate(SIGNATURES)])
def test_the_signature_help_shows_is_the_stubs(name: str, signature: str) -> None:
    shown = parameters(signature)
    member = name.split(".")[-1]
    stubs = STUB[name]
    if member == "__init__" or not member.startswith("__"):
        # `object` only where the stubs say object too (a Python player may be any object).
        untyped = [key for key, value in shown.items() if value == "object"]
        assert all(any(stub.get(key) == "object" for stub in stubs) for key in untyped), signature
    assert not re.search(r"\bddz::|\bstd::|pybind11", signature), signature
    named = {key: value for key, value in shown.items() if not re.fullmatch(r"arg\d+|self|->", key)}
    for stub in stubs:
        if all(stub.get(key) in (value, ANY.get(value)) for key, value in named.items()) and set(named) <= set(stub):
            return
    pytest.fail(f"{signature}\n  shown  {named}\n  stubs  {stubs}")


def test_help_names_the_package_and_the_real_types() -> None:
    text = pydoc.plain(pydoc.render_doc(dz))
    assert "classify(cards: Cards | str | int" in text.replace("doudizhu.", "")
    assert ": object" not in re.sub(r"(memo|arg0): object", "", text)
    assert "doudizhu._core.Game" not in text
