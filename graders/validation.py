"""``numjudge validate``: prove that an exercise folder is complete and its cases are sound."""

from __future__ import annotations

import contextlib
import copy
import inspect
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from graders.assignments import COURSE_FILE, Course, load_schedule
from graders.cases import CaseKind
from graders.checks.diagnosis import close_rows, flatten
from graders.checks.properties import failed_checks
from graders.checks.rules import Construct, Unreadable, find_violations
from graders.checks.timing import MIN_SPEED_CPU_S, SPEED_MARGIN, SPEED_RUNS, Speed
from graders.errors import GraderError
from graders.exercises import (
    COURSE_DIR_PREFIX,
    Exercise,
    Mistake,
    PreparedCase,
    PreparedExercise,
    WarningPolicy,
    call_entry,
    course_folders,
    course_of,
    entry_function,
    load_exercise,
    prepare_exercise,
    translation_problems,
)
from graders.grading.grade import grade
from graders.grading.plan import Audience, plan_tasks
from graders.grading.report import cost_of
from graders.grading.speed import reference_cpu
from graders.mutation.mutants import PREFIX
from graders.mutation.runs import same
from graders.mutation.score import SCORE_FLOOR, mutant_statuses, mutation_score
from graders.render import describe_cost
from graders.results import (
    DiagnosisSource,
    Failure,
    GradeReport,
    Status,
    TestResult,
    Verdict,
    Visibility,
)
from graders.samples import FINITE_DIFFERENCES, Expectation, Sample, read_samples
from graders.sandbox.runner import Sandbox
from graders.scaffold import PLACEHOLDERS, placeholder_title
from graders.worked_examples import MarkerError, case_values, nearest_wrong, worked_examples


@dataclass
class ValidationResult:
    path: Path
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    costs: list[str] = field(default_factory=list)
    """What the reference used, against the exercise's limits: the data to set them from."""

    @property
    def ok(self) -> bool:
        return not self.problems


def format_validation(name: str, result: ValidationResult) -> str:
    """``numjudge validate``'s lines for one folder (or the assignment schedule): ok/FAIL,
    notes, the reference's costs, problems."""
    mark = "ok  " if result.ok else "FAIL"
    lines = [f"{mark} {name}" + (f"  ({'; '.join(result.notes)})" if result.notes else "")]
    lines += [f"     {cost}" for cost in result.costs]
    lines += [f"     - {problem}" for problem in result.problems]
    return "\n".join(lines)


def validate_folder(path: Path, sandbox: Sandbox) -> ValidationResult:
    """Every check of one folder; problems say what to fix."""
    result = ValidationResult(path)
    try:
        exercise = load_exercise(path)
    except GraderError as exc:
        result.problems.append(str(exc))
        return result
    check_metadata(exercise, result)
    try:
        prepared = prepare_exercise(exercise)
    except GraderError as exc:
        result.problems.append(str(exc))
        return result
    checks: list[Callable[[PreparedExercise, Sandbox, ValidationResult], None]] = [
        check_arguments,
        check_statement,
        check_translations,
        check_worked_examples,
        check_rules,
        check_reference,
        check_case_costs,
        check_speed_rules,
        check_case_time_limits,
        check_starter,
        check_mistakes,
        check_mutants,
        check_determinism,
        check_samples,
    ]
    for check in checks:
        check(prepared, sandbox, result)
    return result


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def check_metadata(exercise: Exercise, result: ValidationResult) -> None:
    """What ``numjudge new`` left for the author to write: the title, the tags, the text."""
    if exercise.title == placeholder_title(exercise.id):
        result.problems.append(
            f"exercise.toml: the title is still the placeholder "
            f"{exercise.title!r}; write what the exercise is about"
        )
    if not exercise.tags:
        result.problems.append("exercise.toml: 'tags' is empty; add at least one tag")
    for lang, text in sorted(exercise.statements.items()):
        name = "statement.md" if lang == "en" else f"statement.{lang}.md"
        left = [placeholder for placeholder in PLACEHOLDERS if placeholder in text]
        if left:
            result.problems.append(
                f"{name}: still has the template's placeholder text "
                f"{left[0]!r}…; write the statement"
            )


def check_arguments(prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult) -> None:
    """Cases pass their inputs by position: their names must be the entry's parameters. (A
    scenario's steps pass theirs by name: a wrong one makes the reference raise.)"""
    exercise = prepared.exercise
    if exercise.scenarios:
        return
    reference = entry_function(exercise.path / "solution.py", exercise.sandbox_entry)
    try:
        parameters = list(inspect.signature(reference).parameters)
    except (TypeError, ValueError):  # a builtin or C function: nothing to compare with
        return
    for case in prepared.cases:
        names = list(case.inputs)
        if names != parameters[: len(names)]:
            result.problems.append(
                f"cases.py: case {case.name!r} gives ({', '.join(names)}) but "
                f"{exercise.entry}({', '.join(parameters)}) is called with them in that order; "
                "name and order the inputs as the entry function's parameters"
            )


def check_statement(prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult) -> None:
    exercise = prepared.exercise
    for name in exercise.names:
        if name not in exercise.statements.get("en", ""):
            what = "the entry function" if name == exercise.entry else "the function or class"
            result.problems.append(
                f"statement.md: never names {what} '{name}'; say what the learner must write"
            )
    if (
        exercise.warnings is WarningPolicy.FAIL
        and "warning" not in exercise.statements.get("en", "").lower()
    ):
        result.problems.append(
            "statement.md: never mentions warnings, but exercise.toml's "
            '[checks] warnings = "fail" fails a test whose call warns; '
            "say so in the statement"
        )
    hidden = sum(1 for c in prepared.cases if not c.spec.public)
    if not hidden:
        result.problems.append("cases.py: has no hidden case; add cases without public=True")
    result.notes.append(
        f"{len(prepared.cases)} cases ({hidden} hidden), "
        f"{len(exercise.mistakes)} mistakes, languages: "
        f"{', '.join(exercise.languages)}"
    )


def check_translations(
    prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult
) -> None:
    """Every language of the statement has the title, hints and test names too, and no
    translation names a mistake or test that is gone (graders/exercises/translations.py)."""
    result.problems += translation_problems(
        prepared.exercise, (case.name for case in prepared.cases)
    )


def check_worked_examples(
    prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult
) -> None:
    """Every number of a marked worked example, in every statement language, is an input of
    its public case or the reference's output on it, to the digits printed
    (graders/worked_examples.py)."""
    cases = {case.name: case for case in prepared.cases}
    checked = 0
    for file in sorted(prepared.exercise.path.glob("statement*.md")):
        try:
            examples = worked_examples(read(file))
        except MarkerError as exc:
            result.problems.append(f"{file.name}: {exc}")
            continue
        for example in examples:
            checked += 1
            where = f"{file.name}:{example.line}"
            case = cases.get(example.case)
            if case is None:
                result.problems.append(
                    f"{where}: a worked example of case {example.case!r}, which cases.py does "
                    "not declare"
                )
                continue
            if not case.spec.public:
                result.problems.append(
                    f"{where}: a worked example of case {example.case!r}, which is hidden: "
                    "its numbers would show a hidden test's inputs; use a public case"
                )
                continue
            values = case_values(case.inputs, case.expected)
            for number, nearest in nearest_wrong(example.numbers, values):
                closest = (
                    "it has no numbers"
                    if nearest is None
                    else f"the nearest is {nearest:.{number.decimals}f} ({nearest:.6g})"
                )
                result.problems.append(
                    f"{file.name}:{number.line}: {number.text} in the worked example of case "
                    f"{example.case!r} is neither one of its inputs nor of the reference's "
                    f"outputs on it, to the digits printed: {closest}"
                )
    if checked:
        result.notes.append(f"{checked} worked example(s)")


def failing_tests(report: GradeReport) -> str:
    """Every test that did not pass with its message: graded for the author
    (``Audience.AUTHOR``), a hidden test's message is the full one."""
    return (
        "; ".join(f"{t.name}: {t.message}" for t in report.tests if t.status is not Status.PASSED)
        or report.message
    )


def check_rules(prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult) -> None:
    """The reference, the starter and every mistake keep the exercise's rules: a learner who
    makes a known mistake is to read its hint, not be refused for how the mistake is written."""
    exercise = prepared.exercise
    files = [
        exercise.path / "solution.py",
        exercise.path / "starter.py",
        *(mistake.path for mistake in exercise.mistakes),
    ]
    for file in files:
        try:
            violations = find_violations(read(file), exercise.forbid)
        except Unreadable as exc:
            result.problems.append(f"{file.relative_to(exercise.path)}: {exc}")
            continue
        if violations:
            result.problems.append(
                f"{file.relative_to(exercise.path)}: breaks the exercise's [rules]: "
                + "; ".join(violation.message for violation in violations)
            )


def check_reference(prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult) -> None:
    exercise = prepared.exercise
    reference = entry_function(exercise.path / "solution.py", exercise.sandbox_entry)
    unstable = first_unstable_case(prepared, reference)
    if unstable is not None:
        result.problems.append(
            f"solution.py: is not deterministic: two calls on case "
            f"{unstable!r} return different outputs; the expected outputs "
            "must follow from the inputs alone (no unseeded random numbers)"
        )
        return
    report = grade(prepared, read(exercise.path / "solution.py"), sandbox, audience=Audience.AUTHOR)
    if report.verdict is not Verdict.PASSED:
        result.problems.append(
            f"solution.py: does not pass its own cases in the sandbox "
            f"({report.verdict.value}): {failing_tests(report)}"
        )
    if report.cost is not None:
        result.costs.append(f"reference: {describe_cost(report.cost, prepared.exercise.limits)}")
    if exercise.warnings is WarningPolicy.NOTE:  # under "fail" the cases above fail instead
        warned = reference_warnings(prepared, reference)
        if warned:
            result.problems.append(
                f'solution.py: warns ({"; ".join(warned)}); with warnings = "note" learners '
                "are not told, but a reference that overflows is numerically weak: make it "
                "warning-free (a stable formula, or np.errstate around a harmless overflow)"
            )


def check_case_costs(
    prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult
) -> None:
    """The costliest case: the reference run on each case alone (loading it included)."""
    exercise = prepared.exercise
    code = read(exercise.path / "solution.py")
    limits = sandbox.limits.with_exercise_limits(exercise.limits.time_s, exercise.limits.memory_mb)
    costs = [
        (
            case.name,
            cost_of(sandbox.run(code, exercise.sandbox_entry, plan_tasks([case])[0], limits)),
        )
        for case in prepared.cases
    ]
    measured = [(name, cost) for name, cost in costs if cost is not None]
    if measured:
        name, cost = max(measured, key=lambda item: (item[1].cpu_ms, item[1].memory_kb))
        result.costs.append(
            f"slowest case, run alone: {name!r}, {describe_cost(cost, exercise.limits)}"
        )


def check_speed_rules(
    prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult
) -> None:
    """The reference keeps each speed rule with room to spare: measured twice, as a learner's
    code is against the reference, the two measurements are within ``SPEED_MARGIN`` times
    closer than the rule; and it takes enough CPU time to be measured."""
    exercise = prepared.exercise
    cases = [case for case in prepared.cases if case.spec.max_slowdown is not None]
    if not cases:
        return
    limits = sandbox.limits.with_exercise_limits(exercise.limits.time_s, exercise.limits.memory_mb)
    first = reference_cpu(prepared, cases, sandbox, limits)
    second = reference_cpu(prepared, cases, sandbox, limits)
    for case in cases:
        rule = case.spec.max_slowdown or 0.0
        if case.name not in first or case.name not in second:
            result.problems.append(f"cases.py: speed case {case.name!r} could not be timed")
            continue
        speed = Speed(first[case.name], second[case.name])
        spread = max(speed.ratio, 1 / speed.ratio)
        result.costs.append(
            f"speed case {case.name!r}: the reference takes {speed.reference_s:.3f} s of CPU "
            f"time (best of {SPEED_RUNS} runs), {spread:.2f}x itself measured again; the rule "
            f"allows {rule:g}x"
        )
        if min(speed.code_s, speed.reference_s) < MIN_SPEED_CPU_S:
            result.problems.append(
                f"cases.py: speed case {case.name!r}: the reference takes only "
                f"{min(speed.code_s, speed.reference_s):.3f} s of CPU time, too little to "
                f"measure (at least {MIN_SPEED_CPU_S:g} s): make the input larger"
            )
        elif spread > rule / SPEED_MARGIN:
            result.problems.append(
                f"cases.py: speed case {case.name!r}: the reference measured against itself "
                f"is {spread:.2f}x, not within {rule:g}x / {SPEED_MARGIN:g}: the rule leaves "
                "too little room for measurement noise; allow more (max_slowdown) or make "
                "the input larger"
            )


def check_case_time_limits(
    prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult
) -> None:
    """The reference stays well within each case's own time limit: at most half of it, so
    that a learner's method as fast as the reference never meets the limit."""
    exercise = prepared.exercise
    cases = [case for case in prepared.cases if case.spec.time_s is not None]
    if not cases:
        return
    limits = sandbox.limits.with_exercise_limits(exercise.limits.time_s, exercise.limits.memory_mb)
    tasks, plans = plan_tasks(cases, Audience.AUTHOR)
    run = sandbox.run(read(exercise.path / "solution.py"), exercise.entry, tasks, limits)
    for plan in plans:
        limit = plan.case.spec.time_s or 0.0
        times = [run.case_cpu_s.get(first) for first in (plan.main, *plan.speed_runs)]
        if any(cpu is None for cpu in times):
            result.problems.append(
                f"cases.py: case {plan.case.name!r}: the reference was stopped at the case's "
                f"own limit (time_s={limit:g}): raise the limit, or make the case smaller"
            )
            continue
        used = max(cpu for cpu in times if cpu is not None)
        result.costs.append(
            f"case {plan.case.name!r}: the reference takes {used:.3f} s of CPU time of its "
            f"limit of {limit:g} s"
        )
        if used > limit / SPEED_MARGIN:
            result.problems.append(
                f"cases.py: case {plan.case.name!r}: the reference takes {used:.3f} s of CPU "
                f"time, more than half its own limit (time_s={limit:g}): raise the limit, or "
                "make the case smaller"
            )


def first_unstable_case(prepared: PreparedExercise, function: Callable[..., Any]) -> str | None:
    """The first case on which two calls of ``function`` (trusted code: the reference or a
    mistake) return different outputs, if any; in a property case, outputs that fail
    different checks (two right answers there are alike)."""
    for case in prepared.cases:
        try:
            first, second = call_entry(function, case.inputs), call_entry(function, case.inputs)
        except Exception:  # raising is an answer too; preparation told the reference's
            continue
        if case.spec.kind is CaseKind.PROPERTY:
            stable = failed_names(case, first) == failed_names(case, second)
        else:
            stable = same(first, second, case.table.tolerance)
        if not stable:
            return case.name
    return None


def failed_names(case: PreparedCase, output: Any) -> tuple[str, ...]:
    return tuple(failure.name for failure in failed_checks(case.spec.checks, case.inputs, output))


def reference_warnings(prepared: PreparedExercise, reference: Callable[..., Any]) -> list[str]:
    """``case: warning`` for the first warning the reference raises on each case, the way a
    learner's call is watched (a warning it silences is none)."""
    found = []
    for case in prepared.cases:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            reference(*copy.deepcopy(list(case.inputs.values())))
        if caught:
            first = caught[0]
            found.append(f"{case.name}: {first.category.__name__}: {first.message}")
    return found


def check_starter(prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult) -> None:
    report = grade(prepared, prepared.exercise.starter, sandbox, audience=Audience.AUTHOR)
    if report.verdict is Verdict.PASSED:
        result.problems.append("starter.py: passes every case; the starter must fail")
    elif report.verdict is not Verdict.FAILED:
        result.problems.append(
            f"starter.py: must import and run, but got {report.verdict.value}"
            f": {report.message or failing_tests(report)}"
        )


def check_mistakes(prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult) -> None:
    for mistake in prepared.exercise.mistakes:
        report = grade(prepared, read(mistake.path), sandbox)
        where = f"mistakes/{mistake.path.name}"
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
    unstable = first_unstable_case(prepared, entry_function(mistake.path, exercise.sandbox_entry))
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


def check_determinism(
    prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult
) -> None:
    again = prepare_exercise(prepared.exercise)
    code = read(prepared.exercise.path / "solution.py")
    first, second = grade(prepared, code, sandbox), grade(again, code, sandbox)
    if [t.to_dict() for t in first.tests] != [t.to_dict() for t in second.tests]:
        result.problems.append(
            "grading is not deterministic: two gradings of the reference "
            "differ (seed every random input from the rng argument)"
        )
    for before, after in zip(prepared.cases, again.cases, strict=True):
        if not _same_inputs(before.inputs, after.inputs):
            result.problems.append(
                f"cases.py: case {before.name!r} makes different inputs on "
                "each run; draw them from the rng argument"
            )


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


def _same_inputs(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return a.keys() == b.keys() and all(_same_value(a[k], b[k]) for k in a)


def _same_value(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
    if isinstance(a, float) and a != a and b != b:
        return True  # NaN inputs are the same input
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return _same_inputs(a, b)
    if isinstance(a, np.random.Generator):
        # Two generators seeded alike are two objects: the same input when in the same state.
        return _same_value(a.bit_generator.state, b.bit_generator.state)
    return bool(a == b)


def validate_course(root: Path) -> ValidationResult | None:
    """Check ``root/course.toml`` and the course folders against the exercise folders beside
    them; None if there is neither."""
    has_file = (root / COURSE_FILE).is_file()
    if not has_file and not any(p.name.startswith(COURSE_DIR_PREFIX) for p in root.iterdir()):
        return None
    result = ValidationResult(root / COURSE_FILE if has_file else root)
    ids = sorted(p.name for p in root.iterdir() if (p / "exercise.toml").is_file())
    exercises = _loadable(root, ids)
    try:
        course = load_schedule(root, ids)
        courses = course_folders(root)
    except GraderError as exc:
        result.problems.append(str(exc))
        return result
    for exercise in exercises:
        if course_of(courses, exercise.course) is None:
            result.problems.append(
                f"{exercise.id}: course {exercise.course!r} has no folder "
                f"{COURSE_DIR_PREFIX}{exercise.course}/; add it or correct the name"
            )
    assigned = {i for a in course.assignments for i in a.exercise_ids}
    drafts = sorted(e.id for e in exercises if e.draft and e.id in assigned)
    if drafts:
        result.problems.append(
            f"assignments name draft exercise(s) {', '.join(drafts)}, "
            "which learners cannot see; publish them or take them out"
        )
    result.problems.extend(_revealed_cases_reused(root, course))
    if len(courses) > 1:
        result.notes.append(f"courses {', '.join(c.id for c in courses)}")
    result.notes.append(
        f"{len(course.assignments)} assignment(s), "
        f"{len(set(ids) - assigned)} exercise(s) for practice only"
    )
    return result


def _revealed_cases_reused(root: Path, course: Course) -> list[str]:
    """An exercise of a later assignment whose ``cases.py`` is one a revealing assignment
    (``reveal_hidden_after_close``) shows once closed: its hidden inputs are public by then."""

    def cases(exercise_id: str) -> bytes | None:
        file = root / exercise_id / "cases.py"
        return file.read_bytes() if file.is_file() else None

    problems: list[str] = []
    for shown in (a for a in course.assignments if a.reveal_hidden_after_close):
        for exercise_id in shown.exercise_ids:
            revealed = cases(exercise_id)
            for later in (a for a in course.assignments if a.due > shown.due):
                problems.extend(
                    f"{other}: its cases.py is that of {exercise_id}, whose hidden tests "
                    f"assignment {shown.id!r} reveals once closed, before {later.id!r} is due; "
                    "give it new cases"
                    for other in later.exercise_ids
                    if revealed is not None and cases(other) == revealed
                )
    return problems


def _loadable(root: Path, ids: list[str]) -> list[Exercise]:
    exercises = []
    for exercise_id in ids:
        # A broken folder is reported by its own validation.
        with contextlib.suppress(GraderError):
            exercises.append(load_exercise(root / exercise_id))
    return exercises


def exercise_folders(paths: list[Path]) -> list[Path]:
    """The exercise folders named, or found one level below a named catalog folder."""
    folders = []
    for path in paths:
        if (path / "exercise.toml").is_file():
            folders.append(path)
        elif path.is_dir():
            folders += sorted(
                p for p in path.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))
            )
        else:
            folders.append(path)
    return folders
