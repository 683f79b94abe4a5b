"""The checks of an exercise's texts: its metadata, its functions' arguments, its statements,
translations and worked examples."""

from __future__ import annotations

import copy
import inspect
import numbers
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from graders.authoring.result import ValidationResult, read
from graders.authoring.scaffold import PLACEHOLDERS, placeholder_title
from graders.authoring.worked_examples import (
    MarkerError,
    case_values,
    nearest_wrong,
    worked_examples,
)
from graders.cases import Variant, check_name
from graders.errors import ExerciseError
from graders.exercises import (
    Exercise,
    PreparedExercise,
    WarningPolicy,
    check_texts,
    entry_function,
    translation_problems,
)
from graders.exercises.preparation import own_names, variant_inputs
from graders.exercises.variants import unknown_placeholders
from graders.sandbox.runner import Sandbox
from graders.sandbox.scenario import read_program
from graders.scenarios import SCENARIO_INPUT


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
        check_output_rules(prepared, result)
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


def check_output_rules(prepared: PreparedExercise, result: ValidationResult) -> None:
    """A scenario's ``[[outputs]]`` rule applies to the compared values of its name: a name
    no case compares (a typo) would silently leave those values to the default rules."""
    compared = {
        own
        for case in prepared.cases
        for own in own_names(read_program(case.inputs[SCENARIO_INPUT])).values()
    }
    for rule in prepared.exercise.outputs:
        if rule.name not in compared:
            result.problems.append(
                f"exercise.toml [[outputs]]: name = {rule.name!r} is no value a case compares; "
                f"the compared ones are {', '.join(sorted(compared))}"
            )


SEEDS_DRAWN = range(64)
"""The learners' seeds validate draws a variant with."""


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
    for lang, text in sorted(exercise.statements.items()):
        name = "statement.md" if lang == "en" else f"statement.{lang}.md"
        for written in unknown_placeholders(text, prepared.variant):
            if prepared.variants is None:
                fix = "there is no @variant in cases.py to draw it; declare one or remove it"
            else:
                known = ", ".join(f"{{{{ variant.{n} }}}}" for n in prepared.variant)
                fix = f"a placeholder is one of {known}; correct it"
            result.problems.append(
                f"{name}: {written} is not a placeholder of a number of the exercise's "
                f"@variant and would reach learners as written; {fix}"
            )
    if prepared.variants is not None:
        try:
            # A learner's seed is any: a draw that is not a variant is found here, not by them.
            drawn = {tuple(sorted(prepared.variant_for(seed).items())) for seed in SEEDS_DRAWN}
        except ExerciseError as exc:
            result.problems.append(str(exc))
        else:
            result.notes.append(
                "variant: "
                + ", ".join(f"{k} = {v}" for k, v in prepared.variant.items())
                + f" by default; {len(drawn)} different ones in {len(SEEDS_DRAWN)} learners' draws"
            )
            default = tuple(sorted(prepared.variant.items()))
            for values in sorted(drawn - {default}):
                result.problems += drawn_variant_problems(prepared, dict(values))
    hidden = sum(1 for c in prepared.cases if not c.spec.public)
    if not hidden:
        result.problems.append("cases.py: has no hidden case; add cases without public=True")
    result.notes.append(
        f"{len(prepared.cases)} cases ({hidden} hidden), "
        f"{len(exercise.mistakes)} mistakes, languages: "
        f"{', '.join(exercise.languages)}"
    )


def drawn_variant_problems(prepared: PreparedExercise, variant: Variant) -> list[str]:
    """What a learner drawing ``variant`` would meet in the reference: an exception, a warning
    or NaN/Inf where the default's expected values are finite, on the cases taking it."""
    exercise = prepared.exercise
    shown = ", ".join(f"{k} = {v}" for k, v in variant.items())
    try:
        made = variant_inputs(exercise, variant)
    except ExerciseError as exc:
        return [f"@variant's draw {shown}: {exc}"]
    reference = entry_function(exercise.path / "solution.py", exercise.sandbox_entry)
    finite = {case.name: not _non_finite(case.expected) for case in prepared.cases}
    problems = []
    for name, inputs in made.items():
        where = f"solution.py: on case {name!r} with the drawn variant {shown}"
        # Recorded as a learner's call is watched (reference_warnings): every warning counts.
        with warnings.catch_warnings(record=True) as caught, np.errstate(all="warn"):
            warnings.simplefilter("always")
            try:
                output = reference(*copy.deepcopy(list(inputs.values())))
            except Exception as exc:  # the author's code: any exception is a problem
                problems.append(f"{where}, raises {type(exc).__name__}: {exc}")
                continue
        if caught:
            first = caught[0]
            problems.append(f"{where}, warns {first.category.__name__}: {first.message}")
        elif finite.get(name, True) and _non_finite(output):
            problems.append(
                f"{where}, returns NaN or Inf, which learners would be expected to match; "
                "draw only numbers the exercise is defined for"
            )
    return problems


def _non_finite(value: Any) -> bool:
    """Whether ``value`` (an output: arrays, numbers, containers of them) holds NaN or Inf."""
    if isinstance(value, Mapping):
        return any(_non_finite(v) for v in value.values())
    if isinstance(value, tuple | list):
        return any(_non_finite(v) for v in value)
    array = np.asarray(value) if isinstance(value, np.ndarray | numbers.Number) else None
    return array is not None and array.dtype.kind in "fc" and not np.isfinite(array).all()


def check_translations(
    prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult
) -> None:
    """Every language of the statement has the title, hints, test names and the checks' words
    too, and no translation names a mistake, test or check's text that is gone
    (graders/exercises/words.py)."""
    checks = {check_name(check) for case in prepared.cases for check in case.spec.checks}
    # A calls= count's name is read as a check's is: in its message ("... ('two per element')").
    checks |= {check_name(count) for case in prepared.cases for count in case.spec.calls.values()}
    cases_source = (prepared.exercise.path / "cases.py").read_text(encoding="utf-8")
    result.problems += translation_problems(
        prepared.exercise,
        (case.name for case in prepared.cases),
        check_texts(cases_source, sorted(checks)) + limit_hint_texts(prepared),
    )


def limit_hint_texts(prepared: PreparedExercise) -> list[str]:
    """The cases' ``limit_hint`` texts, as ``[checks]`` keys: a learner reads them after a
    failure's message (a brace written twice, since a key is read as a template)."""
    hints = dict.fromkeys(case.spec.limit_hint for case in prepared.cases if case.spec.limit_hint)
    return [hint.replace("{", "{{").replace("}", "}}") for hint in hints]


def check_worked_examples(
    prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult
) -> None:
    """Every number of a marked worked example, in every statement language, is an input of
    its public case or the reference's output on it, to the digits printed
    (graders/authoring/worked_examples.py)."""
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
            if case.spec.takes_variant:
                result.problems.append(
                    f"{where}: case {example.case!r} takes the learner's variant, so its "
                    "numbers differ per learner; write them with {{ variant.name }} "
                    "placeholders or mark a case without a variant"
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
