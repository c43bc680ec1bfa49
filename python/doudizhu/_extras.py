"""The one message for a module behind an optional extra whose packages are missing."""

from __future__ import annotations


def missing_extra(module: str, needs: str, extra: str) -> ImportError:
    """The ImportError to raise from ``module`` when ``needs`` (installed by ``extra``) is absent."""
    return ImportError(
        f"{module} needs {needs}: pip install 'doudizhu-engine[{extra}]' "
        f"(from a checkout of the source: pip install '.[{extra}]')"
    )
