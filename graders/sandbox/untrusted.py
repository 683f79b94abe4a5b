"""What the trusted side does to everything a sandbox sent before anyone else sees it.

The harness caps printed text and messages inside the sandbox, but submitted code can forge
any frame, so the caps are applied again here, and text is made storable: lone surrogates
(which JSON can carry and UTF-8 cannot) and NUL characters (which PostgreSQL refuses) are
replaced.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from graders.sandbox.limits import SandboxLimits
from graders.values import Foreign

if TYPE_CHECKING:
    from graders.sandbox.protocol import RunResult, TaskOutcome

MAX_ERROR_CHARS = 4000
MAX_NAME_CHARS = 200
MAX_MESSAGE_CHARS = 500
MAX_MUTATED = 64
UNSTORABLE = re.compile("[\ud800-\udfff\x00]")


def storable(text: object, limit: int) -> str:
    """``text`` cut to ``limit`` characters, lone surrogates and NULs replaced by U+FFFD."""
    return UNSTORABLE.sub("\ufffd", str(text)[:limit])


def clean_error(error: Any) -> dict[str, Any] | None:
    """An exception's description with only the known fields, each of a known type and size."""
    if not isinstance(error, dict):
        return None
    line = error.get("line")
    return {
        "type": storable(error.get("type", "Exception"), MAX_NAME_CHARS),
        "message": storable(error.get("message", ""), MAX_ERROR_CHARS),
        "line": line if type(line) is int else None,
        "traceback": storable(error.get("traceback", ""), MAX_ERROR_CHARS),
    }


def clean_value(value: Any) -> Any:
    """A decoded output with its text parts storable (arrays and numbers pass unchanged)."""
    if isinstance(value, str):
        return storable(value, MAX_ERROR_CHARS)
    if isinstance(value, Foreign):
        return Foreign(
            storable(value.type_name, MAX_NAME_CHARS), storable(value.detail, MAX_NAME_CHARS)
        )
    if isinstance(value, tuple | list):
        items = [clean_value(item) for item in value]
        return tuple(items) if isinstance(value, tuple) else items
    return value


class PrintedText:
    """Printed text kept across the whole run up to the limit; the rest is counted as cut."""

    def __init__(self, limit: int) -> None:
        self.room = limit
        self.dropped = 0

    def keep(self, text: object) -> str:
        text = str(text)
        kept = text[: max(self.room, 0)]
        self.room -= len(kept)
        self.dropped += len(text) - len(kept)
        return storable(kept, len(kept))


def holds_no_text(outcome: TaskOutcome) -> bool:
    """Whether an outcome has nothing ``make_trustworthy`` would change: no text of any kind,
    and a value that ``clean_value`` returns as it is."""
    return (
        outcome.error is None
        and not outcome.stdout
        and not outcome.mutated
        and not outcome.warnings
        and not isinstance(outcome.value, str | Foreign | tuple | list)
    )


def make_trustworthy(result: RunResult, limits: SandboxLimits) -> None:
    """Cap and clean every text of a ``RunResult`` in place, as if its frames were forged."""
    printed = PrintedText(limits.max_stdout_chars)
    result.message = storable(result.message, MAX_MESSAGE_CHARS)
    result.load_stdout = printed.keep(result.load_stdout)
    if result.load_error is not None:
        result.load_error = clean_error(result.load_error) or {}
    for index in sorted(result.outcomes):
        outcome = result.outcomes[index]
        if holds_no_text(outcome):
            continue  # most hidden calls: nothing to cap or replace
        result.outcomes[index] = replace(
            outcome,
            value=clean_value(outcome.value),
            error=clean_error(outcome.error),
            stdout=printed.keep(outcome.stdout),
            mutated=tuple(storable(name, MAX_NAME_CHARS) for name in outcome.mutated)[:MAX_MUTATED],
            warnings=tuple(storable(text, MAX_NAME_CHARS) for text in outcome.warnings),
        )
    claimed = result.dropped_chars
    result.dropped_chars = printed.dropped + (
        claimed if type(claimed) is int and claimed > 0 else 0
    )
