"""The checks of the mistakes an exercise names and of its mutants: each known mistake fails
and is diagnosed as itself, and the cases kill enough of the reference's mutants."""

from __future__ import annotations

from graders.authoring.mutation_score import SCORE_FLOOR, mutant_statuses, mutation_score
from graders.authoring.reference import first_unstable_case
from graders.authoring.result import ValidationResult, read
from graders.checks.diagnosis import close_rows, flatten
from graders.exercises import (
    Mistake,
    PreparedCase,
    PreparedExercise,
    entry_function,
)
from graders.grading.grade import grade
from graders.mutation.mutants import PREFIX
from graders.results import (
    DiagnosisSource,
    Failure,
    GradeReport,
    Status,
    TestResult,
    Visibility,
)
from graders.sandbox.runner import Sandbox


def check_mistakes(prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult) -> None:
    for mistake in prepared.exercise.mistakes:
        report = grade(prepared, read(mistake.path), sandbox)
        where = mistake.path.relative_to(prepared.exercise.path).as_posix()
        if any(test.failure is Failure.FORBIDDEN for test in report.tests):
            continue  # check_rules names it
        caught = [t for t in report.tests if t.visibility is Visibility.HIDDEN and catches(t)]
        if not caught:
            result.problems.append(
                f"{where}: fails no hidden case; add a hidden case it gets wrong"
            )
        elif report.diagnosis is None or report.diagnosis.hint != mistake.hint:
            why = why_not_diagnosed(prepared, mistake, report)
            result.problems.append(
                f"{where}: its hint is not the diagnosis of its own output ({why})"
            )


def catches(test: TestResult) -> bool:
    """Whether a hidden test tells a mistake from the reference: it failed, or the mistake
    raised there (docs/authoring.md, "Hints": any exception on a hidden case counts; running
    out of memory or time does not, as it depends on the limits as much as on the code)."""
    return test.status is Status.FAILED or test.failure is Failure.EXCEPTION


AFTER_VALUES = frozenset(
    {Failure.INCONSISTENT_BATCH, Failure.CHANGED_INPUT, Failure.WARNING, Failure.SLOW}
)
"""Failures only ever told once the values matched (graders/grading/grade.py)."""


def why_not_diagnosed(prepared: PreparedExercise, mistake: Mistake, report: GradeReport) -> str:
    """Why a mistake's own output does not get its hint, from what can be shown of it."""
    exercise = prepared.exercise
    others = [
        m.path.name
        for m in exercise.mistakes
        if m.hint != mistake.hint
        and all(same_output(case, m.name, mistake.name) for case in prepared.cases)
    ]
    if others:
        return (
            f"it gives the same outputs as {', '.join(others)} on every case; add a case "
            "that tells them apart"
        )
    if not any(mistake.name in case.table.wrong for case in prepared.cases):
        # Candidates are matched on values, and in property cases on the checks they fail
        # (graders/checks/diagnosis.py): one right everywhere explains nothing, and a check's
        # fixed hint speaks for such code.
        failures = sorted({t.failure.value for t in report.tests if t.failure is not None})
        return (
            f"its values equal the reference's on every case (and it passes every property "
            f"case's checks) and it fails only on {', '.join(failures)}: a mistake can only "
            "be the diagnosis of wrong values or of failed checks, and the check's own "
            "message tells the learner; delete the file, or make it a mistake in the values"
        )
    # A mined mistake is a learner's code: never called outside the sandbox, not even to ask.
    unstable = (
        None
        if mistake.mined
        else first_unstable_case(prepared, entry_function(mistake.path, exercise.sandbox_entry))
    )
    if unstable is not None:
        return (
            f"its output is not deterministic: two calls on case {unstable!r} return "
            "different outputs"
        )
    failures = sorted({t.failure.value for t in report.tests if t.failure is not None})
    by_check = report.diagnosis is not None and report.diagnosis.source is DiagnosisSource.CHECK
    if by_check or set(failures) <= {failure.value for failure in AFTER_VALUES}:
        return (
            f"its failures are check-only: on every test it fails its values are right and it "
            f"fails only on {', '.join(failures)}: a mistake can only be the diagnosis of wrong "
            "values or of failed checks, and the check's own message tells the learner; delete "
            "the file, or make it a mistake in the values"
        )
    if report.diagnosis is None and all(t.failure is Failure.EXCEPTION for t in report.tests):
        # Code that raises everywhere tells nothing of its mistake: any slip with shapes raises
        # on every case (graders/checks/diagnosis.py).
        return (
            "it raises on every case and returns on none, and code that raises everywhere gets "
            "no diagnosis (any slip with shapes would); delete the file, or make it a mistake "
            "that returns on some case"
        )
    shown = report.diagnosis.key if report.diagnosis is not None else "none"
    return (
        f"the diagnosis is {shown}: another mistake or a mutant fits its output as well "
        f"(numjudge grade {exercise.id} {mistake.path} shows which tests it fails)"
    )


def check_mutants(prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult) -> None:
    """The hidden cases catch at least SCORE_FLOOR of the reference's non-equivalent mutants."""
    if all(case.spec.public for case in prepared.cases):
        return  # check_statement asks for hidden cases first
    if prepared.mutant_failure is not None:
        result.problems.append(
            f"cases.py: {prepared.mutant_failure}; without them there is "
            "no mutation score and no mutant can be a diagnosis"
        )
        return
    score = mutation_score(prepared)
    result.notes.append(score.describe())
    if score.share < SCORE_FLOOR:
        missed = [
            f"{s.mutant.key} ({s.mutant.meaning.removeprefix(PREFIX).rstrip('.')})"
            for s in mutant_statuses(prepared)
            if not s.equivalent and not s.hidden_killers
        ]
        result.problems.append(
            f"cases.py: the {score.describe()}, below "
            f"{SCORE_FLOOR:.0%}; add hidden cases that catch "
            f"{'; '.join(missed)} (numjudge mutants {prepared.exercise.id})"
        )


def same_output(case: PreparedCase, first: str, second: str) -> bool:
    """Whether two candidates are alike on ``case``: the same values, or in a property case
    the same structure and checks failed (both raised: alike too)."""
    if case.table.checked is not None:
        checked = case.table.checked
        return checked.get(first) == checked.get(second)
    flats = [flatten(case.outputs[key]) if key in case.outputs else None for key in (first, second)]
    if flats[0] is None or flats[1] is None or flats[0][0] != flats[1][0]:
        return flats[0] is None and flats[1] is None
    return bool(close_rows(flats[0][1][None, :], flats[1][1], case.table.tolerance)[0])
