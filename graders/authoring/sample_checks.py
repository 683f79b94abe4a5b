"""The checks of an exercise's samples (samples.toml): each graded like a submission, and the
gradients they state checked against finite differences or the complex step."""

from __future__ import annotations

from graders.authoring.result import ValidationResult, failing_tests, read
from graders.authoring.samples import FINITE_DIFFERENCES, Expectation, Sample, read_samples
from graders.checks.rules import Construct
from graders.errors import GraderError
from graders.exercises import (
    Exercise,
    PreparedExercise,
)
from graders.grading.grade import grade
from graders.grading.plan import Audience
from graders.results import (
    Verdict,
)
from graders.sandbox.runner import Sandbox


def check_samples(prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult) -> None:
    """Each of ``samples/`` graded like a submission gets the result its header states."""
    try:
        samples = read_samples(prepared.exercise.path)
    except GraderError as exc:
        result.problems.append(str(exc))
        return
    if prepared.exercise.gradients:
        check_finite_differences(samples, result)
        check_complex_step(prepared.exercise, result)
    for sample in samples:
        code = read(sample.path)
        got = Expectation.of(grade(prepared, code, sandbox))
        if got.matches(sample.expected):
            continue
        # Graded again for the author: the hidden tests' messages in full.
        again = grade(prepared, code, sandbox, audience=Audience.AUTHOR)
        details = failing_tests(again)
        result.problems.append(
            f"samples/{sample.name}: expected {sample.expected.describe()}, "
            f"got {got.describe()}"
            + unsteady(got, Expectation.of(again))
            + (f": {details}" if details else "")
        )
    if samples:
        result.notes.append(f"{len(samples)} sample(s)")


def unsteady(got: Expectation, again: Expectation) -> str:
    """What to add when the grading that shows the messages disagrees with the one that was
    judged: its messages (a speed rule's ratio above the bound, say) would otherwise contradict
    the result quoted before them."""
    if again.matches(got):
        return ""
    return (
        f", then {again.describe()} when graded again to show the messages below: the sample "
        "is near a speed rule's bound or a time limit, whose CPU time varies between gradings; "
        "keep it clearly on one side (a looser or tighter rule, a larger case, a slower or "
        "faster method)"
    )


def check_complex_step(exercise: Exercise, result: ValidationResult) -> None:
    """A gradient exercise forbids complex numbers: the complex step is exact to rounding, so
    neither a tolerance nor a case's time tells it from the derivation."""
    if not any(rule.target == Construct.COMPLEX_NUMBER.value for rule in exercise.forbid):
        result.problems.append(
            "exercise.toml: [checks] gradients = true asks for [rules] forbid = "
            '["complex-number"]: the complex step computes the gradients numerically, exact '
            "to rounding, and no tolerance tells it apart"
        )


def check_finite_differences(samples: tuple[Sample, ...], result: ValidationResult) -> None:
    """A gradient exercise keeps a finite-difference solution that must not pass: its grading
    (``check_samples``) then proves that the hidden cases need the derivation."""
    sample = next((s for s in samples if s.name == FINITE_DIFFERENCES), None)
    if sample is None:
        result.problems.append(
            f"samples/{FINITE_DIFFERENCES}: missing; exercise.toml's [checks] gradients = true "
            "asks for a sample computing the gradients by central differences of the loss, "
            "expected to fail: add it, with a hidden case too large for it to finish within "
            "its limit"
        )
    elif sample.expected.verdict is Verdict.PASSED:
        result.problems.append(
            f"samples/{FINITE_DIFFERENCES}: expects verdict=passed, but in a gradient exercise "
            "finite differences must not pass: add a hidden case too large for them to finish "
            "within its limit (a case's time_s), then expect verdict=timeout"
        )
