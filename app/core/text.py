"""Text every database stores and every reader decodes, checked where text comes in.

PostgreSQL refuses the NUL character in text, and a lone surrogate (``\\ud800``-``\\udfff``,
which JSON's ``\\u`` escapes can carry and Python decodes) is no text UTF-8 can encode. Either
reaches the database as a 500; checked at the door, it is a 422 or a refusal naming the field,
and a look-up by such text finds nothing (nothing stored holds it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

UNSTORABLE = "text no database stores (a NUL character or a lone surrogate)"
"""How a refusal names such text, after "the LMS sent" or "holds"."""


class UnstorableText(ValueError):
    """The text holds a NUL character or a lone surrogate; the message says which."""


def check_storable(value: str) -> str:
    """``value`` if every database stores it, else ``UnstorableText``."""
    if "\x00" in value:
        raise UnstorableText("must not contain the NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise UnstorableText("must not contain a lone surrogate (\\ud800-\\udfff)") from None
    return value


def is_storable(value: str) -> bool:
    """Whether every database stores ``value``."""
    try:
        check_storable(value)
    except UnstorableText:
        return False
    return True


def first_unstorable(value: object, path: str = "") -> str | None:
    """Where a decoded JSON value first holds unstorable text, in a key or a string, as a path
    (``members[2].email``; a key is named by its parent), or None."""
    if isinstance(value, str):
        return None if is_storable(value) else path or "the value"
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not is_storable(str(key)):
                return f"a key of {path}" if path else "a key"
            found = first_unstorable(item, f"{path}.{key}" if path else str(key))
            if found is not None:
                return found
    elif isinstance(value, Sequence) and not isinstance(value, bytes | bytearray):
        for index, item in enumerate(value):
            found = first_unstorable(item, f"{path}[{index}]")
            if found is not None:
                return found
    return None
