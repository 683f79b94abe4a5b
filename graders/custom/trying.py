"""A learner's own inputs answered by their code and by the reference, side by side.

Both run in the sandbox, one call each on the same inputs: the learner's code as for a run of
the public tests, the reference too (trusted code, but the inputs are the learner's, so it is
held to the same limits). Nothing of a case, public or hidden, is sent or read: the inputs are
the learner's own, parsed on the trusted side (graders/custom/parsing.py). The comparison is
the judge's own, with the exercise's declared outputs and the public cases' loosest
tolerance.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

import numpy as np

from graders.checks.compare import Tolerance, compare
from graders.checks.error_map import ErrorMap, error_map
from graders.checks.rules import Unreadable, find_violations, violations_message
from graders.custom.parsing import parse_inputs
from graders.errors import CustomInputRefused, TryOutputTooLarge
from graders.exercises import PreparedExercise
from graders.grading.report import describe_error, unfinished_reason
from graders.grading.speed import reference_code
from graders.sandbox.limits import SandboxLimits
from graders.sandbox.protocol import Ending, RunResult, Task, encode_tasks
from graders.sandbox.runner import Sandbox

logger = logging.getLogger(__name__)

MAX_SHOWN_CHARS = 4_000
"""How much of each output's text is kept: enough to read, bounded to send."""
INPUT_SHARE = 8
"""Building the inputs may allocate at most this part of the exercise's memory limit."""
MAX_OUTPUT_MB = 1
"""What each call of a try may send back, in MiB: the sandbox's result budget
(``SandboxLimits.max_output_mb``, whose smallest value this is), checked on each frame's sizes
before the trusted side reads its arrays. A try shows at most ``MAX_SHOWN_CHARS`` of each
output; 1 MiB is 131 072 float64s, a 362 × 362 matrix, far more than a learner reads, and keeps
what the outputs cost far under what the inputs may (an eighth of the input cap would be 8 MiB
for a 512 MB exercise: with the comparison's copies, another 64 MiB per try)."""
MAX_OUTPUT_BYTES = MAX_OUTPUT_MB * 2**20
OUTPUT_COPIES = 8
"""The bytes a try holds at its peak per byte of ``MAX_OUTPUT_BYTES``: both outputs, the
comparison's temporaries and the error's picture (6.9 measured for two 360 × 360 matrices that
differ everywhere, tests/graders/custom/test_trying.py)."""


class TryStatus(Enum):
    """How the learner's output compares with the reference's on their own inputs."""

    SAME = "same"
    """The same output, within the public cases' loosest tolerance."""
    DIFFERENT = "different"
    """Both returned, the outputs differ: the message says how."""
    ERROR = "error"
    """The learner's call did not return a value (an exception, a limit, rules broken)."""
    REFERENCE_ERROR = "reference_error"
    """The reference did not return a value for these inputs: they are outside what the
    statement promises."""


@dataclass(frozen=True)
class TryReport:
    """What a try shows: both outputs as text, the comparison's message, and the error's
    picture data when the values differ; and the CPU time its calls took in the sandbox, which
    the learner's budget of tries counts and ``to_dict`` leaves out (the reference's time on
    chosen inputs is the reference's)."""

    status: TryStatus
    message: str
    yours: str
    reference: str
    output: str = ""
    error_map: ErrorMap | None = None
    sandbox_cpu_s: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "message": self.message,
            "yours": self.yours,
            "reference": self.reference,
            "output": self.output,
            "error_map": self.error_map.to_dict() if self.error_map else None,
        }


def input_names(prepared: PreparedExercise) -> tuple[str, ...]:
    """The entry function's parameters, as the cases call it."""
    return tuple(prepared.cases[0].inputs) if prepared.cases else ()


def max_input_bytes(prepared: PreparedExercise) -> int:
    """How many bytes numpy may allocate to build the inputs in all (graders/custom/costs.py):
    an ``INPUT_SHARE`` of the exercise's memory limit (each call copies its inputs once more in
    the sandbox)."""
    return prepared.exercise.limits.memory_mb * 2**20 // INPUT_SHARE


def try_memory_bound(prepared: PreparedExercise) -> int:
    """The bytes one try holds on the trusted side at its peak: its inputs twice (the arrays
    ``max_input_bytes`` charges, and their bytes as encoded for the sandbox) and
    ``OUTPUT_COPIES`` of the outputs' cap."""
    return 2 * max_input_bytes(prepared) + OUTPUT_COPIES * MAX_OUTPUT_BYTES


def try_inputs(
    prepared: PreparedExercise, code: str, texts: dict[str, str], sandbox: Sandbox
) -> TryReport:
    """Call ``code``'s entry function and the reference's on the inputs ``texts`` (one
    expression per parameter). Raises ``CustomInputRefused`` for an input that is not read
    or an exercise that takes none, ``TryOutputTooLarge`` for a call that returns more than
    ``MAX_OUTPUT_MB``; engine faults as ``Sandbox.run``."""
    exercise = prepared.exercise
    if not exercise.takes_custom_inputs:
        raise CustomInputRefused(f"exercise {exercise.id!r} does not take custom inputs")
    names = input_names(prepared)
    values = parse_inputs(texts, names, max_input_bytes(prepared))
    limits = replace(
        sandbox.limits.with_exercise_limits(exercise.limits.time_s, exercise.limits.memory_mb),
        max_output_mb=min(MAX_OUTPUT_MB, sandbox.limits.max_output_mb),
    )
    tasks = encode_tasks([Task(names, tuple(values.values()))])
    reference = sandbox.run(reference_code(prepared), exercise.entry, tasks, limits)
    refuse_too_large(reference, limits, "the reference's", " (choose smaller inputs)", [reference])
    reference_value, reference_text = returned(reference, limits, "the reference", lines=False)
    try:
        violations = find_violations(code, exercise.forbid)
    except Unreadable as exc:
        message = f"rules: the code was not run, because {exc}"
        return TryReport(TryStatus.ERROR, message, "", "", sandbox_cpu_s=cpu_s(reference))
    if violations:
        message = violations_message(violations)
        return TryReport(
            TryStatus.ERROR, message, "", reference_text, sandbox_cpu_s=cpu_s(reference)
        )
    yours = sandbox.run(code, exercise.sandbox_entry, tasks, limits)
    refuse_too_large(yours, limits, "your code's", "", [reference, yours])
    your_value, your_text = returned(yours, limits, "your code")
    output = yours.load_stdout + "".join(o.stdout for o in yours.outcomes.values())
    yours_shown = "" if your_value is NOTHING else your_text
    report = TryReport(
        TryStatus.ERROR,
        your_text,
        yours_shown,
        reference_text,
        output[:MAX_SHOWN_CHARS],
        sandbox_cpu_s=cpu_s(reference) + cpu_s(yours),
    )
    if reference_value is NOTHING:  # the inputs are outside what the statement promises
        message = f"the reference gave no output for these inputs: {reference_text}"
        return replace(report, status=TryStatus.REFERENCE_ERROR, message=message)
    if your_value is NOTHING:
        return report
    result = compare(reference_value, your_value, tolerance(prepared), None, exercise.outputs)
    if result.passed:
        return replace(report, status=TryStatus.SAME, message="the same output as the reference")
    picture = error_map(result.deviation, tags=exercise.tags) if result.deviation else None
    return replace(report, status=TryStatus.DIFFERENT, message=result.message, error_map=picture)


def refuse_too_large(
    run: RunResult, limits: SandboxLimits, whose: str, advice: str, runs: list[RunResult]
) -> None:
    """``TryOutputTooLarge`` when ``run`` sent back more than a try's outputs may hold, with
    the sandbox CPU that ``runs`` took."""
    if run.ending is Ending.OUTPUT_LIMIT:
        raise TryOutputTooLarge(
            f"{whose} output for these inputs is too large for a try: a try's outputs may be "
            f"at most {limits.max_output_mb} MiB each{advice}",
            sum(cpu_s(r) for r in runs),
        )


def tolerance(prepared: PreparedExercise) -> Tolerance:
    """The loosest of the public cases' tolerances: code that passes them passes a try."""
    cases = prepared.public_cases
    if not cases:
        return Tolerance()
    return Tolerance(max(c.spec.rtol for c in cases), max(c.spec.atol for c in cases))


def cpu_s(run: RunResult) -> float:
    """The CPU time a call took in the sandbox (0 when it reported none)."""
    return run.usage.cpu_s if run.usage is not None else 0.0


NOTHING = object()
"""No value came back from a call."""


def returned(
    run: RunResult, limits: SandboxLimits, whose: str, *, lines: bool = True
) -> tuple[Any, str]:
    """The value the one call returned and its text, or ``NOTHING`` and why there is none.
    ``lines=False`` leaves out the line an exception was raised on: the reference's lines are
    its source's, which the learner does not read (inputs chosen to fail at each step would
    map them out)."""

    def error_text(error: dict[str, Any] | None) -> str:
        shown = {k: v for k, v in (error or {}).items() if lines or k != "line"}
        return describe_error(shown)

    if run.ending is Ending.LOAD_ERROR:
        return NOTHING, f"{whose} could not be loaded: {error_text(run.load_error)}"
    outcome = run.outcomes.get(0)
    if outcome is None:
        unfinished = unfinished_reason(run, limits)
        return NOTHING, f"{whose}: {unfinished[1] if unfinished else 'no result came back'}"
    if not outcome.ok:
        return NOTHING, f"{whose} {error_text(outcome.error)}"
    return outcome.value, as_text(outcome.value)


def as_text(value: Any) -> str:
    """A value as numpy prints it, long arrays summarised, cut at ``MAX_SHOWN_CHARS``."""
    with np.printoptions(threshold=200, edgeitems=4, precision=6):
        text = repr(value)
    if len(text) > MAX_SHOWN_CHARS:
        text = text[:MAX_SHOWN_CHARS] + " …"
    return text
