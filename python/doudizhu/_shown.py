"""A value as an error message quotes it: what a caller passed, whatever it is."""

from __future__ import annotations


def shown(value: object) -> str:
    """``value``'s repr, cut short (an int of 400 digits, a list of thousands of items); a
    value whose repr cannot be written (an int past Python's limit on digits, a user's
    class whose ``__repr__`` raises) is named by its type, so the message stands."""
    try:
        text = repr(value)
    except Exception:
        return f"{a_type(value)} that cannot be written out"
    return text if len(text) <= 40 else f"{text[:20]}...{text[-8:]}"


def a_type(value: object) -> str:
    """``value``'s type with its article: "an int", "a Move" (a class may have no name)."""
    name = type(value).__name__
    return f"{'an' if name[:1] and name[0] in 'aeiouAEIOU' else 'a'} {name}"
