"""The one message for a module behind an optional extra whose packages are missing."""

from __future__ import annotations

import importlib.util


class MissingExtra(ImportError):
    """An optional extra's packages are not installed (its message says what to install):
    what the command line reports in one line, where another ImportError is a fault."""


def missing_extra(module: str, needs: str, extra: str) -> MissingExtra:
    """The ImportError to raise from ``module`` when ``needs`` (installed by ``extra``) is absent."""
    return MissingExtra(
        f"{module} needs {needs}: pip install 'doudizhu-engine[{extra}]' "
        f"(from a checkout of the source: pip install '.[{extra}]')"
    )


def installed(package: str) -> bool:
    """Whether ``package`` can be imported, told without importing it (Ray takes seconds)."""
    try:
        return importlib.util.find_spec(package) is not None
    except (ImportError, ValueError):  # a parent that fails, or a module without a spec
        return False
