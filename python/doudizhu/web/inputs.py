"""Reading requests: bounded bodies, JSON objects with typed fields, errors as ApiError.

Only the shape of a request is checked here (sizes, types, known fields); what a value
means (a preset, card text, an action, a record) is left to the engine, whose errors
the app turns into 422 answers with the engine's message.
"""

from __future__ import annotations

import json
from email.message import Message
from email.utils import collapse_rfc2231_value
from typing import Any

from starlette.requests import ClientDisconnect, Request

MAX_JSON = 256 * 1024  # a record of a long hand is a few kilobytes
MAX_UPLOAD = 16 * 1024 * 1024  # a saved selfplay run
JSON = "application/json"
BINARY = "application/octet-stream"
MAX_TEXT = 200  # an action as text


class ApiError(Exception):
    """An answer other than 200: ``{"error": message, **extra}`` with ``status``."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def digits(text: str) -> bool:
    """Whether ``text`` is ASCII digits alone: str.isdigit also takes digits that int() refuses
    (superscripts such as '²'), and no sign, space or exponent."""
    return text.isascii() and text.isdigit()


async def body(request: Request, limit: int, media_type: str) -> bytes:
    """The request body, declared as ``media_type`` (415 otherwise: a page of another site
    may send form and text bodies without asking, never this type), refused (413) past
    ``limit`` bytes without reading it all; a client that leaves before the body is whole
    gets 400 (which it will not read), and the server logs nothing of it."""
    _check_form(request, media_type)
    declared = request.headers.get("content-length")
    if declared is not None and not digits(declared):
        raise ApiError(400, "the Content-Length header must be digits alone")
    if declared is not None and whole(declared, "Content-Length", 413) > limit:
        raise ApiError(413, f"the request body is larger than the {limit} bytes allowed")
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise ApiError(413, f"the request body is larger than the {limit} bytes allowed")
            chunks.append(chunk)
    except ClientDisconnect as error:
        raise ApiError(400, "the client left before sending the whole body") from error
    return b"".join(chunks)


def _check_form(request: Request, media_type: str) -> None:
    """415 unless the body is declared as ``media_type``, in UTF-8 if JSON, and sent as it
    is (no Content-Encoding); 400 for two Content-Types."""
    if len(request.headers.getlist("content-type")) > 1:  # the first would be read, whatever the others said
        raise ApiError(400, "the request names more than one Content-Type")
    content_type = Message()  # the parameters read as MIME does: quoted values, which may hold ';'
    content_type["content-type"] = request.headers.get("content-type", "")
    declared_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if declared_type != media_type:
        raise ApiError(415, f"the body must be sent as {media_type}, "
                            + (f"not {declared_type[:60]}" if declared_type else "and this request names no type"))
    # JSON is UTF-8 (RFC 8259): a body read as another would say something else.
    charsets = [collapse_rfc2231_value(value).lower() for name, value in content_type.get_params([])[1:]
                if name.lower() == "charset"]  # charset*=utf-8''utf-8 (RFC 2231) too
    other = next((charset for charset in charsets if charset not in ("utf-8", "utf8")), None)  # utf8: WHATWG's alias
    if media_type == JSON and other is not None:
        raise ApiError(415, f"the body must be sent in UTF-8, not {other[:40]!r}")
    encodings = [token.strip().lower() for value in request.headers.getlist("content-encoding")
                 for token in value.split(",") if token.strip()]  # an empty item of a list is none (RFC 9110)
    encoded = next((encoding for encoding in encodings if encoding != "identity"), None)
    if encoded is not None:  # a compressed body is not read as what it encodes
        raise ApiError(415, f"the body must be sent as it is, not with the Content-Encoding {encoded[:40]!r}")


async def no_body(request: Request) -> None:
    """400 unless the request carries no body: a route that takes none refuses one rather
    than ignoring what it says."""
    try:
        async for chunk in request.stream():
            if chunk:
                raise ApiError(400, "this route takes no body")
    except ClientDisconnect as error:
        raise ApiError(400, "the client left before sending the whole body") from error


async def optional_body(request: Request, limit: int, media_type: str) -> bytes:
    """The body as :func:`body` reads it, or nothing from a request that declares no type
    and sends nothing (:func:`no_body`): for a route whose fields are all optional."""
    if "content-type" not in request.headers:
        await no_body(request)
        return b""
    return await body(request, limit, media_type)


def parse_json(data: bytes) -> Any:
    """The body as JSON text in UTF-8 (json.loads would also read UTF-16 and UTF-32 bytes)."""
    try:
        return json.loads(data.decode("utf-8"), object_pairs_hook=_once_each)
    except (ValueError, RecursionError) as error:  # RecursionError: nesting deeper than the parser goes
        raise ApiError(400, f"the body is not valid JSON: {str(error)[:120]}") from error


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose names are all different (of a repeated one the last would win,
    unseen): 400 naming a repeated one."""
    value: dict[str, Any] = {}
    for name, item in pairs:
        if name in value:
            raise ApiError(400, f"the field {name[:40]!r} is given more than once")
        value[name] = item
    return value


#: JSON's names for what parse_json gives.
_JSON_TYPES = {dict: "an object", list: "an array", str: "a string", int: "a number", float: "a number",
               bool: "true or false", type(None): "null"}


def json_object(data: bytes, fields: set[str]) -> dict[str, Any]:
    """The body as a JSON object holding no field but ``fields`` (an empty body is {})."""
    value = parse_json(data) if data.strip() else {}
    if not isinstance(value, dict):
        raise ApiError(400, f"the body must be a JSON object, not {_JSON_TYPES[type(value)]}")
    unknown = sorted(set(value) - fields)
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0][:40]!r}; fields: {', '.join(sorted(fields))}")
    return value


def record(data: bytes) -> dict[str, Any]:
    """The body as a record: a JSON object (its fields are the engine's to check)."""
    value = parse_json(data)
    if not isinstance(value, dict):
        raise ApiError(400, f"a record is a JSON object, not {_JSON_TYPES[type(value)]}")
    return value


def text(data: dict[str, Any], name: str, default: str | None = None) -> str:
    value = data.get(name, default)
    if not isinstance(value, str):
        raise ApiError(400, f"{name!r} must be a string")
    if len(value) > MAX_TEXT:
        raise ApiError(400, f"{name!r} is longer than {MAX_TEXT} characters")
    return value


def optional_text(data: dict[str, Any], name: str) -> str | None:
    """A string field that may be left out (or null), checked as :func:`text` checks one."""
    return None if data.get(name) is None else text(data, name)


def optional_int(value: Any, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, f"{name!r} must be an integer")
    return value


def optional_count(value: Any, name: str) -> int | None:
    """A count (an integer, 0 or more) or None; 400 otherwise: no game was ever at -1."""
    count = optional_int(value, name)
    if count is not None and count < 0:
        raise ApiError(400, f"{name!r} must be a count, 0 or more, not {count}")
    return count


def seed(value: Any) -> int | None:
    """A seed as a JSON integer or a string of digits (a browser's numbers are exact only to
    2**53; seeds go to 2**64-1); its range is the engine's to check."""
    if isinstance(value, str):
        if not digits(value):
            raise ApiError(400, "'seed' must be a whole number (digits alone, as a string)")
        return whole(value, "seed")
    return optional_int(value, "seed")


def whole(text: str, name: str, status: int = 400) -> int:
    """The number ``text`` (digits, perhaps a minus sign) writes; ``status`` past 24 digits,
    leading zeros not counted (past any range here, and int() refuses a text of more than
    4,300 digits, zeros too)."""
    sign, significant = ("-", text[1:]) if text.startswith("-") else ("", text)
    significant = significant.lstrip("0") or "0"
    if len(significant) > 24:
        raise ApiError(status, f"{name!r} has more than 24 digits: past any range it may have")
    return int(sign + significant)


def check_query(request: Request, names: tuple[str, ...]) -> None:
    """400 unless every query parameter is one of ``names``, given once (a misspelt one would
    be ignored, and of a repeated one the last would win)."""
    seen: set[str] = set()
    for name, _ in request.query_params.multi_items():
        if name not in names:
            takes = ", ".join(repr(n) for n in names) if names else "none"
            raise ApiError(400, f"unknown query parameter {name[:40]!r}: this route takes {takes}")
        if name in seen:
            raise ApiError(400, f"query parameter {name!r} is given more than once")
        seen.add(name)


def query_int(request: Request, name: str) -> int | None:
    """The integer query parameter ``name``, or None when it is absent (an empty value is
    refused: ``?seed=`` names no seed, and read as absent it would draw one)."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    if not digits(raw.removeprefix("-")):
        raise ApiError(400, f"{name!r} must be an integer")
    return whole(raw, name)


def text_list(data: dict[str, Any], name: str, longest: int) -> list[str] | None:
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, list) or len(value) > longest or not all(isinstance(v, str) for v in value):
        raise ApiError(400, f"{name!r} must be a list of at most {longest} names")
    return value


__all__ = ["BINARY", "JSON", "MAX_JSON", "MAX_TEXT", "MAX_UPLOAD", "ApiError", "body", "check_query", "json_object",
           "optional_int", "optional_text", "parse_json", "query_int", "seed", "text", "text_list", "whole"]
