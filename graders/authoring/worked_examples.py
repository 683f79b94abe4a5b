"""Worked examples in statements, checked against the public case they come from.

A statement (in any language) marks a worked example with two lines that render as nothing
(Markdown link reference definitions, each after a blank line)::

    [//]: # (worked example: numerical example)

    With h_prev = [0.5, -0.2] ... the gate is z = [0.6225, 0.5498].

    [//]: # (end of worked example)

``numjudge validate`` then reads every decimal number between the two lines and requires it
to be one of the case's input values or of the reference's output values on it, to the digits
printed (a number printed with ``d`` decimals is within half a unit of its last digit of the
value); a wrong digit is named with its file, line, and the nearest right value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

OPENING = re.compile(r"^\[//\]: # \(worked example: (?P<case>[^)]+)\)\s*$")
CLOSING = re.compile(r"^\[//\]: # \(end of worked example\)\s*$")
NUMBER = re.compile(r"(?<![\w.])(?P<sign>[-\u2212])?(?P<digits>\d+\.(?P<decimals>\d+))(?![\w.])")
"""A decimal number, negative when a minus sign is right before it ("-0.25", "\u22120.25"):
after a space it is an operator ("1 - 0.25"). Integers (sizes, indices) are not read."""


@dataclass(frozen=True)
class PrintedNumber:
    line: int
    text: str
    value: float
    decimals: int


@dataclass(frozen=True)
class WorkedExample:
    """One marked block: the case it comes from and the numbers printed in it."""

    case: str
    line: int
    """The line of its opening marker."""
    numbers: tuple[PrintedNumber, ...]


class MarkerError(ValueError):
    """Markers that do not pair up, with the line that shows it."""


def worked_examples(text: str) -> list[WorkedExample]:
    """The marked worked examples of a statement; raises ``MarkerError`` (its message names
    the line) for an opening without its end or an end without its opening."""
    found: list[WorkedExample] = []
    current: tuple[str, int, list[PrintedNumber]] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        opening, closing = OPENING.match(line), CLOSING.match(line)
        if opening and current is not None:
            raise MarkerError(f"line {number}: a worked example opens inside another")
        if opening:
            current = (opening["case"].strip(), number, [])
        elif closing and current is None:
            raise MarkerError(f"line {number}: a worked example ends that never opened")
        elif closing and current is not None:
            found.append(WorkedExample(current[0], current[1], tuple(current[2])))
            current = None
        elif current is not None:
            current[2].extend(printed_numbers(line, number))
    if current is not None:
        raise MarkerError(f"line {current[1]}: a worked example never ends")
    return found


def printed_numbers(line: str, number: int) -> Iterator[PrintedNumber]:
    for match in NUMBER.finditer(line):
        value = float(match["digits"]) * (-1.0 if match["sign"] else 1.0)
        yield PrintedNumber(number, match.group(0), value, len(match["decimals"]))


def case_values(inputs: Mapping[str, Any], output: Any) -> np.ndarray:
    """Every number of a case's inputs and of the reference's output on it, flattened."""
    values = list(_numbers(list(inputs.values()))) + list(_numbers(output))
    return np.array(values, dtype=np.float64)


def _numbers(value: Any) -> Iterator[float]:
    if isinstance(value, Mapping):
        yield from _numbers(list(value.values()))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _numbers(item)
    elif isinstance(value, np.ndarray | int | float | np.number) and not isinstance(value, bool):
        array = np.asarray(value)
        if array.dtype.kind in "iuf":
            yield from array.astype(np.float64).ravel().tolist()


def nearest_wrong(
    printed: Sequence[PrintedNumber], values: np.ndarray
) -> list[tuple[PrintedNumber, float | None]]:
    """Each printed number that is none of ``values`` to its digits, with the nearest value
    (None when the case has no numbers at all)."""
    wrong: list[tuple[PrintedNumber, float | None]] = []
    for number in printed:
        if values.size == 0:
            wrong.append((number, None))
            continue
        half_unit = 0.5 * 10.0 ** (-number.decimals)
        distance = np.abs(values - number.value)
        if not (distance <= half_unit * (1 + 1e-9)).any():
            wrong.append((number, float(values[int(np.argmin(distance))])))
    return wrong
