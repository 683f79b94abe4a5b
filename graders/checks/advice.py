"""Advice in a failed test's message: what to do about numpy's warnings, where a call left
the generators it was given. Pure: strings in, a sentence out."""

from __future__ import annotations

import re
from collections.abc import Sequence


def generators_message(names: Sequence[str]) -> str:
    """What the inputs check says of generator arguments a call left elsewhere than the
    statement's draws leave them (a scenario's named by their step)."""
    if len(names) == 1:
        (name,) = names
        return (
            f"inputs: the generator '{name}' is not where the statement's draws leave it: "
            "draw from the generator itself (a copy leaves the caller's generator where it "
            "was), exactly the numbers the statement asks for"
        )
    quoted = ", ".join(f"'{name}'" for name in names)
    return (
        f"inputs: the generators {quoted} are not where the statement's draws leave them: "
        "draw from each itself (a copy leaves the caller's generator where it was), exactly "
        "the numbers the statement asks for"
    )


# numpy's floating-point warnings name the function: "overflow encountered in exp", then the
# harness says where the submission raised it: " (line 5, in softmax)".
WARNED_IN = re.compile(r"encountered in ([\w ]+?)(?: \(line \d+(?:, in (\w+))?\))?$")


def warning_advice(warnings: Sequence[str], tags: Sequence[str]) -> str:
    """What to do about the warnings a call raised, naming the functions numpy names and the
    learner's functions that called them; a sigmoid is suggested only in an exercise that has
    one (its tags say so)."""
    matches = [match for text in warnings if (match := WARNED_IN.search(text))]
    functions = list(dict.fromkeys(match.group(1) for match in matches))
    if not functions:
        return "find the operation that warns and make it stay finite and quiet for every input"
    callers = list(dict.fromkeys(match.group(2) for match in matches if match.group(2)))
    where = f" in {' and '.join(callers)}" if callers else ""
    calls = (
        "the call of {}{} that warns and make it"
        if len(functions) == 1
        else "the calls of {}{} that warn and make them"
    )
    advice = (
        f"find {calls.format(' and '.join(functions), where)} stay finite and quiet for every input"
    )
    if "exp" in functions and "sigmoid" in tags:
        advice += " (an overflow in exp calls for a stable sigmoid)"
    return advice
