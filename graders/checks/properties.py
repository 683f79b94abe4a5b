"""A case's checks (``checks=`` of ``@case`` and ``@property_case``, graders/cases.py) run on
an output, on the trusted side and on decoded values only: which fail, and what each says.

The same function judges the learner's output, the known mistakes' and the mutants' outputs
(so a mistake is recognised by the checks it fails) and the mutants' outputs on probes.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from graders.cases import ExtraCheck, check_name


@dataclass(frozen=True)
class CheckFailure:
    """A check an output failed: its name (the author's, trusted) and its message (which may
    quote the output: for public tests and the author only)."""

    name: str
    message: str


def failed_checks(
    checks: Sequence[ExtraCheck], inputs: Mapping[str, Any], got: Any
) -> tuple[CheckFailure, ...]:
    """Every check ``got`` fails on ``inputs``, in the order declared.

    A check that raises on the output (a list where it expects an array, a ``Foreign``) fails
    with the exception named: the output is the learner's, and no check foresees all of it."""
    failures = []
    for check in checks:
        try:
            # The learner's numbers may overflow in the check's arithmetic: what the check
            # concludes tells it, not a warning of the grader's.
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                message = check(inputs, got)
        except Exception as exc:
            message = f"could not be evaluated on this output (raised {type(exc).__name__}: {exc})"
        if message:
            failures.append(CheckFailure(check_name(check), str(message)))
    return tuple(failures)


def failures_message(failures: Sequence[CheckFailure]) -> str:
    """A public test's message: each failing check by name, with what it says."""
    return "; ".join(f"check '{failure.name}': {failure.message}" for failure in failures)


def names_text(names: Sequence[str]) -> str:
    """``the check 'a'``, ``the checks 'a' and 'b'``: failing checks as a hidden test names
    them (the names alone)."""
    quoted = [f"'{name}'" for name in names]
    if len(quoted) == 1:
        return f"the check {quoted[0]}"
    return f"the checks {', '.join(quoted[:-1])} and {quoted[-1]}"
