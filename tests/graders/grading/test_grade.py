"""graders/grading/grade.py: grading real submissions of gru-update-gate in a real sandbox."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graders.api import (
    ExerciseCatalog,
    Failure,
    GradeReport,
    PreparedExercise,
    Sandbox,
    Status,
    Verdict,
    Visibility,
    grade,
    load_exercise,
    prepare_exercise,
)
from graders.checks.advice import warning_advice
from graders.checks.batches import stack_outputs
from graders.checks.diagnosis import CHECK_HINTS, FLOAT_DTYPE_HINT
from graders.grading.plan import Audience
from graders.results import DiagnosisSource
from tests.graders.helpers import (
    GATE,
    GATE_HIDDEN,
    GATE_MISTAKES,
    GATE_PUBLIC,
    HIDDEN_VALUES,
    REPO,
    assert_matches_golden,
    edit,
    gate_solution,
    make_tiny_exercise,
    wrapped_solution,
    write,
)

DEFAULT = "rtol=1e-07, atol=1e-09"
HIDDEN_BATCH = (
    "batch consistency: the batched result differs from the results of single "
    "examples, or a single example raised (details are not shown for hidden tests)"
)
# A hidden test says only which kind of failure: not where NaN appeared, nor the warnings.
HIDDEN_FINITENESS = (
    "finiteness: NaN or Inf where finite values were expected; look for the "
    "operation that produced them (an overflow such as exp() of a large number, "
    "a square root or logarithm of a negative number, 0/0) (details are not "
    "shown for hidden tests)"
)
HIDDEN_EXCEPTION = "raised an exception (details are not shown for hidden tests)"
HIDDEN_MESSAGES = {
    Failure.WRONG_TYPE: "type: the output is not of the expected type (details are not shown "
    "for hidden tests)",
    Failure.WRONG_DTYPE: "dtype: the output does not have the expected dtype (details are not "
    "shown for hidden tests)",
    Failure.NON_FINITE: HIDDEN_FINITENESS,
    Failure.VALUES: HIDDEN_VALUES,
    Failure.EXCEPTION: HIDDEN_EXCEPTION,
    # No generator and no update in place in this exercise's cases: the text names neither.
    Failure.CHANGED_INPUT: "inputs: the call left an input other than the statement asks: an "
    "array changed in place (work on a copy, e.g. x = x.copy(), or build new arrays) (details "
    "are not shown for hidden tests)",
    Failure.INCONSISTENT_BATCH: HIDDEN_BATCH,
}
NOT_LOADED = "not run: the code could not be loaded"
# A self-contained correct solution, so that line numbers in messages are known.
OWN_SOLUTION = """\
import numpy as np


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return np.exp(-np.logaddexp(0.0, -(joined @ W_z.T + b_z)))
"""


def run(gate: PreparedExercise, sandbox: Sandbox, code: str, **kwargs: Any) -> GradeReport:
    report = grade(gate, code, sandbox, **kwargs)
    assert report.exercise == "gru-update-gate"
    assert report.version == gate.exercise.version
    assert report.duration_ms >= 0
    return report


def by_name(report: GradeReport) -> dict[str, Any]:
    return {t.name: t for t in report.tests}


def mistake_code(name: str) -> str:
    return (GATE / "mistakes" / f"{name}.py").read_text(encoding="utf-8")


def golden_dict(report: GradeReport) -> dict[str, Any]:
    # The version is a hash of the folder: any edit of a statement changes it. run() checks it.
    # The duration and the cost are measured, not computed.
    data = report.to_dict()
    del data["duration_ms"], data["version"], data["cost"]
    return data


# --- reference, starter, mistakes ---------------------------------------------------------


def test_reference_passes_with_full_score(gate: PreparedExercise, sandbox: Sandbox) -> None:
    report = run(gate, sandbox, gate_solution())
    assert report.verdict is Verdict.PASSED
    assert report.passed
    assert (report.score, report.max_score) == (26.0, 26.0)
    assert (report.message, report.output) == ("", "")
    assert [t.name for t in report.tests] == GATE_PUBLIC + GATE_HIDDEN
    assert [t.visibility for t in report.tests] == (
        [Visibility.PUBLIC] * 2 + [Visibility.HIDDEN] * 11
    )
    for test in report.tests:
        assert (test.status, test.points, test.message) == (Status.PASSED, test.max_points, "")
    assert report.diagnosis is None
    # What the whole run used, hidden cases too, for the instructor.
    assert report.cost is not None
    assert 0 < report.cost.cpu_ms < 1000 * gate.exercise.limits.time_s
    assert 0 < report.cost.memory_kb < 1024 * gate.exercise.limits.memory_mb


def test_starter_fails(gate: PreparedExercise, sandbox: Sandbox) -> None:
    report = run(gate, sandbox, gate.exercise.starter)
    assert report.verdict is Verdict.FAILED
    assert (report.score, report.max_score, report.message) == (0.0, 26.0, "")
    tests = by_name(report)
    assert tests["numerical example"].message == (
        f"values: 3 of 3 elements (100.0%) outside tolerance ({DEFAULT}); worst at index [0]: "
        "expected 0.7150421057, got 0 (abs error 0.715, rel error 1)"
    )
    assert tests["batch of two"].message == (
        f"values: 6 of 6 elements (100.0%) outside tolerance ({DEFAULT}); worst at index [0, 0]: "
        "expected 0.7150421057, got 0 (abs error 0.715, rel error 1)"
    )
    for name in GATE_HIDDEN:
        assert (tests[name].status, tests[name].points, tests[name].message) == (
            Status.FAILED,
            0.0,
            HIDDEN_VALUES,
        )
    assert report.diagnosis is None  # zeros are no known mistake


@pytest.mark.parametrize("name", GATE_MISTAKES)
def test_each_mistake_gets_its_hint_on_a_failing_hidden_case(
    gate: PreparedExercise, sandbox: Sandbox, name: str
) -> None:
    hint = next(m.hint for m in gate.exercise.mistakes if m.name == name)
    report = run(gate, sandbox, mistake_code(name))
    assert report.verdict is Verdict.FAILED
    failing = [t.name for t in report.tests if t.status is Status.FAILED]
    assert any(t.visibility is Visibility.HIDDEN for t in report.tests if t.name in failing)
    assert report.diagnosis is not None
    assert (report.diagnosis.hint, report.diagnosis.key) == (hint, name)
    assert report.diagnosis.cases == tuple(failing)
    for test in report.tests:
        if test.status is Status.PASSED:
            assert test.message == ""


def test_overflowing_sigmoid_fails_only_on_large_pre_activations(
    gate: PreparedExercise, sandbox: Sandbox
) -> None:
    report = run(gate, sandbox, mistake_code("overflowing_sigmoid"))
    failing = [t for t in report.tests if t.status is not Status.PASSED]
    assert [(t.name, t.failure, t.message) for t in failing] == [
        ("large pre activations", Failure.NON_FINITE, HIDDEN_FINITENESS)
    ]
    assert (report.score, report.max_score) == (23.0, 26.0)


# --- warnings are shown, never scored -----------------------------------------------------

NAIVE_SIGMOID = """\
import numpy as np


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return 1.0 / (1.0 + np.exp(-(joined @ W_z.T + b_z)))
"""


def test_an_overflow_that_does_not_change_the_values_is_noted_not_scored(
    gate: PreparedExercise, sandbox: Sandbox
) -> None:
    overflowing = NAIVE_SIGMOID.replace(
        "    return 1.0", "    np.exp(np.float64(1000.0))\n    return 1.0"
    )
    report = run(gate, sandbox, overflowing)
    assert (report.verdict, report.score) == (Verdict.PASSED, 26.0)
    noted = {t.name: t.message for t in report.tests if t.message}
    assert noted == dict.fromkeys(
        GATE_PUBLIC,
        "warning: RuntimeWarning: overflow encountered in exp (line 6, in update_gate)",
    )


def test_warnings_of_hidden_cases_are_not_noted(gate: PreparedExercise, sandbox: Sandbox) -> None:
    # The naive sigmoid overflows on "large pre activations" (hidden) only: the warning's
    # ufunc name would be a channel the code chooses.
    report = run(gate, sandbox, NAIVE_SIGMOID)
    assert (report.verdict, report.score) == (Verdict.PASSED, 26.0)
    assert [t.message for t in report.tests if t.message] == []


def test_warnings_the_code_silences_are_not_noted(gate: PreparedExercise, sandbox: Sandbox) -> None:
    silenced = NAIVE_SIGMOID.replace(
        "    return 1.0", "    with np.errstate(over='ignore'):\n        return 1.0"
    )
    report = run(gate, sandbox, silenced)
    assert report.verdict is Verdict.PASSED
    assert [t.message for t in report.tests if t.message] == []


def test_hidden_tests_show_no_warning_and_no_exception_text(
    gate: PreparedExercise, sandbox: Sandbox
) -> None:
    code = OWN_SOLUTION + textwrap.dedent("""
        import warnings
        _reference = update_gate


        class Leak0p53(Exception):
            pass


        def update_gate(x_t, h_prev, W_z, b_z):
            warnings.warn(f"h_prev starts with {h_prev.flat[0]}")
            if h_prev.shape == (1,):
                raise Leak0p53(str(h_prev))
            return _reference(x_t, h_prev, W_z, b_z)
    """)
    tests = by_name(run(gate, sandbox, code))
    public, hidden = tests["numerical example"], tests["batched"]
    line = code.splitlines().index('    warnings.warn(f"h_prev starts with {h_prev.flat[0]}")') + 1
    assert public.message == (
        f"warning: UserWarning: h_prev starts with 0.8 (line {line}, in update_gate)"
    )
    assert (hidden.status, hidden.message, hidden.failure) == (Status.PASSED, "", None)
    single = tests["single hidden unit"]
    assert (single.status, single.message, single.failure) == (
        Status.ERROR,
        HIDDEN_EXCEPTION,
        Failure.EXCEPTION,
    )


# --- hidden tests reveal nothing ----------------------------------------------------------

NUMBER_AFTER_EXPECTED_OR_GOT = re.compile(r"(expected|got)( an?)? [-\w.]*\d")


@pytest.mark.parametrize("name", ["starter", *GATE_MISTAKES])
def test_hidden_tests_show_no_expected_or_learner_values(
    gate: PreparedExercise, sandbox: Sandbox, name: str
) -> None:
    code = gate.exercise.starter if name == "starter" else mistake_code(name)
    report = run(gate, sandbox, code)
    for test in report.tests:
        if test.visibility is Visibility.HIDDEN and test.status is not Status.PASSED:
            assert test.failure is not None
            assert test.message == HIDDEN_MESSAGES[test.failure]
            assert not NUMBER_AFTER_EXPECTED_OR_GOT.search(test.message)
    public = [
        t for t in report.tests if t.visibility is Visibility.PUBLIC and t.status is Status.FAILED
    ]
    for test in public:
        assert NUMBER_AFTER_EXPECTED_OR_GOT.search(test.message), test.message


def test_hidden_scalar_type_message_does_not_show_the_learners_value(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    prepared = prepare_exercise(load_exercise(make_tiny_exercise(tmp_path)))
    code = (
        "import numpy as np\n\n\ndef count_above(x, threshold):\n"
        "    return float(np.sum(x > threshold)) + 0.5\n"
    )
    report = grade(prepared, code, sandbox)
    public, hidden = report.tests
    assert (public.status, public.message) == (
        Status.FAILED,
        "type: expected an integer, got float 2.5",
    )
    assert (hidden.status, hidden.failure) == (Status.FAILED, Failure.WRONG_TYPE)
    assert hidden.message == HIDDEN_MESSAGES[Failure.WRONG_TYPE]
    assert not re.search(r"\d", hidden.message), hidden.message


def test_tiny_exercise_integer_results(tmp_path: Path, sandbox: Sandbox) -> None:
    prepared = prepare_exercise(load_exercise(make_tiny_exercise(tmp_path)))
    right = grade(prepared, (tmp_path / "count-above" / "solution.py").read_text(), sandbox)
    assert (right.verdict, right.score, right.max_score) == (Verdict.PASSED, 3.0, 3.0)
    wrong = grade(prepared, prepared.exercise.starter, sandbox)
    assert wrong.tests[0].message == (
        f"values: 1 of 1 elements (100.0%) outside tolerance "
        f"({DEFAULT}); worst: expected 2, got 0 (abs error 2, "
        "rel error 1)"
    )
    assert wrong.tests[1].message == HIDDEN_VALUES


NONE_WHEN_EMPTY_CASES = """
import numpy as np

from graders.cases import case


@case(public=True)
def example(rng):
    return {"x": np.array([1.0, 2.0, 3.0]), "threshold": 1.5}


@case(public=True)
def nothing_above(rng):
    return {"x": np.array([1.0, 2.0]), "threshold": 5.0}


@case()
def hidden_nothing_above(rng):
    return {"x": np.array([-1.0, 0.0]), "threshold": 5.0}
"""


def test_an_array_where_none_is_expected_fails_that_test_alone(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    # The reference returns None when no value is above; the learner an empty array.
    folder = make_tiny_exercise(tmp_path, cases=NONE_WHEN_EMPTY_CASES)
    write(
        folder / "solution.py",
        """
        import numpy as np


        def count_above(x, threshold):
            above = x[x > threshold]
            return above if above.size else None
        """,
    )
    prepared = prepare_exercise(load_exercise(folder))
    code = "def count_above(x, threshold):\n    return x[x > threshold]\n"
    report = grade(prepared, code, sandbox)
    assert report.verdict is Verdict.FAILED
    assert [(t.status, t.failure, t.message) for t in report.tests] == [
        (Status.PASSED, None, ""),
        (Status.FAILED, Failure.WRONG_TYPE, "type: expected None, got numpy.ndarray of shape (0,)"),
        (Status.FAILED, Failure.WRONG_TYPE, HIDDEN_MESSAGES[Failure.WRONG_TYPE]),
    ]


def test_a_result_the_grader_cannot_judge_errs_its_own_test_alone(
    gate: PreparedExercise, monkeypatch: pytest.MonkeyPatch
) -> None:
    from graders.checks.compare import compare as original
    from graders.grading import grade as judge_module
    from graders.sandbox.protocol import Ending, RunResult, TaskOutcome

    unjudgeable = object()

    def compare(expected: Any, got: Any, *args: Any) -> Any:
        if got is unjudgeable:
            raise ValueError("the truth value of an array is ambiguous")
        return original(expected, got, *args)

    monkeypatch.setattr(judge_module, "compare", compare)
    first = TaskOutcome(ok=True, value=gate.cases[0].expected)
    outcomes = {0: first, **{i: TaskOutcome(ok=True, value=unjudgeable) for i in (1, 2, 3)}}
    report = judged(gate, RunResult(Ending.COMPLETED, outcomes=outcomes))
    assert report.verdict is Verdict.FAILED
    assert [(t.status, t.failure, t.message) for t in report.tests] == [
        (Status.PASSED, None, ""),
        (Status.ERROR, Failure.CRASHED, "the grader could not judge this test's result"),
    ]


# --- printed output -----------------------------------------------------------------------


def test_public_output_is_collected_and_hidden_output_is_not(
    gate: PreparedExercise, sandbox: Sandbox
) -> None:
    code = wrapped_solution("""
        print("loading")


        def update_gate(x_t, h_prev, W_z, b_z):
            print("shape", h_prev.shape)
            return _reference(x_t, h_prev, W_z, b_z)
    """)
    report = run(gate, sandbox, code)
    assert report.verdict is Verdict.PASSED
    assert report.output == (
        "loading\n\n--- numerical example ---\nshape (3,)\n\n"
        "--- batch of two ---\nshape (2, 3)\nshape (3,)\nshape (3,)\n"
    )
    public_only = run(gate, sandbox, code, public_only=True)
    assert public_only.output == report.output


def test_output_of_hidden_cases_only_is_empty(gate: PreparedExercise, sandbox: Sandbox) -> None:
    code = wrapped_solution("""
        def update_gate(x_t, h_prev, W_z, b_z):
            if h_prev.shape[-1] != 3:
                print("secret", W_z.sum())
            return _reference(x_t, h_prev, W_z, b_z)
    """)
    report = run(gate, sandbox, code)
    assert report.verdict is Verdict.PASSED
    assert report.output == ""


def test_public_only_grades_the_public_cases(gate: PreparedExercise, sandbox: Sandbox) -> None:
    report = run(gate, sandbox, gate_solution(), public_only=True)
    assert [t.name for t in report.tests] == GATE_PUBLIC
    assert (report.verdict, report.score, report.max_score) == (Verdict.PASSED, 2.0, 2.0)


# --- code that does not load or raises ----------------------------------------------------


def test_syntax_error(gate: PreparedExercise, sandbox: Sandbox) -> None:
    code = "import numpy as np\n\ndef update_gate(x_t, h_prev, W_z, b_z)\n    return h_prev\n"
    report = run(gate, sandbox, code)
    assert report.verdict is Verdict.ERROR
    assert report.message.startswith(
        "Your code could not be loaded: raised SyntaxError on line 3: "
    )
    assert "line 3" in report.message
    assert (report.score, report.max_score) == (0.0, 26.0)
    for test in report.tests:
        message = NOT_LOADED if test.visibility is Visibility.PUBLIC else HIDDEN_EXCEPTION
        assert (test.status, test.points, test.message, test.failure) == (
            Status.ERROR,
            0.0,
            message,
            Failure.EXCEPTION,
        )
    assert report.diagnosis is None


def test_missing_entry_function(gate: PreparedExercise, sandbox: Sandbox) -> None:
    report = run(
        gate, sandbox, "import numpy as np\n\n\ndef updategate(h, x, W, b):\n    return h\n"
    )
    assert report.verdict is Verdict.ERROR
    assert report.message == (
        "Your code could not be loaded: raised NameError: the code does "
        "not define a function named 'update_gate'"
    )
    assert {t.message for t in report.tests} == {NOT_LOADED, HIDDEN_EXCEPTION}


def test_exception_while_loading_names_type_line_and_message(
    gate: PreparedExercise, sandbox: Sandbox
) -> None:
    report = run(gate, sandbox, 'print("hello")\nx = {}\ny = x["missing"]\n')
    assert report.verdict is Verdict.ERROR
    assert report.message == "Your code could not be loaded: raised KeyError on line 3: 'missing'"
    assert report.output == "hello\n"


def test_exception_in_one_case(gate: PreparedExercise, sandbox: Sandbox) -> None:
    code = OWN_SOLUTION.replace(
        "    joined =",
        """\
    if h_prev.shape == (1,):
        return 1 / 0
    if h_prev.shape == (3,) and h_prev[0] == 0.8:
        raise KeyError("boom")
    joined =""",
    )
    assert code.splitlines()[7] == '        raise KeyError("boom")'
    report = run(gate, sandbox, code)
    assert report.verdict is Verdict.FAILED
    tests = by_name(report)
    example, single = tests["numerical example"], tests["single hidden unit"]
    assert (example.status, example.points, example.message) == (
        Status.ERROR,
        0.0,
        "raised KeyError on line 8: 'boom'",
    )
    assert (single.status, single.points, single.message) == (Status.ERROR, 0.0, HIDDEN_EXCEPTION)
    assert tests["batch of two"].message == (
        "batch consistency: the batch works, but a single example (batch item 0) raised "
        "KeyError on line 8: 'boom'"
    )
    assert tests["single hidden unit batched"].status is Status.FAILED
    passed = [t.name for t in report.tests if t.status is Status.PASSED]
    assert passed == [
        "unbatched more units than inputs",
        "unbatched more inputs than units",
        "batched",
        "batch of one",
        "wide layer",
        "large pre activations",
        "first step zero state",
        "positive bias initialisation",
    ]
    assert report.score == 2 + 2 + 3 + 2 + 3 + 3 + 2 + 2


# --- a diagnosis from the cases that raised -----------------------------------------------

PROJECTION_CASES = """
import numpy as np

from graders.cases import case


@case(public=True)
def one_vector(rng):
    return {"x": rng.normal(size=3), "W": rng.normal(size=(2, 3))}


@case(public=True, batch_axes={"x": 0})
def batch(rng):
    return {"x": rng.normal(size=(4, 3)), "W": rng.normal(size=(2, 3))}


@case(batch_axes={"x": 0})
def hidden_batch(rng):
    return {"x": rng.normal(size=(5, 3)), "W": rng.normal(size=(2, 3))}
"""


@pytest.fixture(scope="module")
def projection(tmp_path_factory: pytest.TempPathFactory) -> PreparedExercise:
    """``project(x, W) = x @ W.T``: a matrix written first is right for one vector and raises
    on a batch."""
    root = tmp_path_factory.mktemp("projection")
    folder = make_tiny_exercise(root, "project", PROJECTION_CASES)
    edit(folder / "exercise.toml", 'entry = "count_above"', 'entry = "project"')
    write(
        folder / "solution.py",
        """
        def project(x, W):
            return x @ W.T
    """,
    )
    write(
        folder / "starter.py",
        """
        def project(x, W):
            return 0 * x
    """,
    )
    return prepare_exercise(load_exercise(folder), mutant_cache=root / "cache")


def test_a_mutant_that_raises_where_the_learner_raises_is_the_diagnosis(
    projection: PreparedExercise, sandbox: Sandbox
) -> None:
    report = grade(projection, "def project(x, W):\n    return W @ x\n", sandbox)
    assert [t.status for t in report.tests] == [Status.PASSED, Status.ERROR, Status.ERROR]
    assert report.diagnosis is not None
    assert (report.diagnosis.key, report.diagnosis.cases) == (
        "transpose:3:11:swap",
        ("batch", "hidden batch"),
    )
    assert report.diagnosis.hint.startswith(
        "Your result equals the correct one with a matrix applied from the other side of the vector"
    )


@pytest.mark.parametrize(
    "code",
    [
        # Another exception on the public batch than the mutant's ValueError.
        "def project(x, W):\n    if x.ndim > 1:\n        raise KeyError(0)\n    return x @ W.T\n",
        # Raising everywhere tells nothing of which slip it was.
        "def project(x, W):\n    return W @ x.reshape(5, 3)\n",
    ],
)
def test_other_exceptions_name_nothing(
    projection: PreparedExercise, sandbox: Sandbox, code: str
) -> None:
    report = grade(projection, code, sandbox)
    assert report.verdict is not Verdict.PASSED
    assert report.diagnosis is None


# --- batch consistency --------------------------------------------------------------------


def test_right_on_batches_but_wrong_on_single_examples(
    gate: PreparedExercise, sandbox: Sandbox
) -> None:
    code = wrapped_solution("""
        def update_gate(x_t, h_prev, W_z, b_z):
            z = _reference(x_t, h_prev, W_z, b_z)
            return z if np.ndim(h_prev) == 2 else z + 1.0
    """)
    report = run(gate, sandbox, code)
    tests = by_name(report)
    assert tests["batch of two"].status is Status.FAILED
    assert tests["batch of two"].message == (
        "batch consistency: the batched result differs from the unbatched results stacked along "
        f"axis 0: values: 6 of 6 elements (100.0%) outside tolerance ({DEFAULT}); worst at index "
        "[0, 2]: expected 1.437823499, got 0.4378234991 (abs error 1, rel error 0.695)"
    )
    for name in ("batched", "batch of one", "wide layer", "positive bias initialisation"):
        assert (tests[name].status, tests[name].message) == (Status.FAILED, HIDDEN_BATCH)


def test_right_on_single_examples_but_wrong_on_batches(
    gate: PreparedExercise, sandbox: Sandbox
) -> None:
    # A wrong batched result already differs from the expected one: a plain values failure.
    code = wrapped_solution("""
        def update_gate(x_t, h_prev, W_z, b_z):
            z = _reference(x_t, h_prev, W_z, b_z)
            return z if np.ndim(h_prev) == 1 else z[::-1].copy()
    """)
    report = run(gate, sandbox, code)
    tests = by_name(report)
    assert tests["numerical example"].status is Status.PASSED
    assert tests["batch of two"].message == (
        f"values: 6 of 6 elements (100.0%) outside tolerance ({DEFAULT}); worst at index [0, 1]: "
        "expected 0.4950001667, got 0.6456563062 (abs error 0.151, rel error 0.304)"
    )
    assert tests["batched"].message == HIDDEN_VALUES
    assert tests["batch of one"].status is Status.PASSED  # reversing one row changes nothing


def test_single_examples_that_raise_in_a_hidden_batched_case(
    gate: PreparedExercise, sandbox: Sandbox
) -> None:
    code = wrapped_solution("""
        def update_gate(x_t, h_prev, W_z, b_z):
            if np.ndim(h_prev) == 1 and h_prev.shape[0] == 4:
                raise ValueError("only batches of four units")
            return _reference(x_t, h_prev, W_z, b_z)
    """)
    report = run(gate, sandbox, code)
    batched = by_name(report)["batched"]
    # Which batch item raised is the code's choice: a hidden test names only the kind, and
    # that an example may have raised (not only differed).
    assert "a single example raised" in batched.message
    assert (batched.status, batched.failure, batched.message) == (
        Status.FAILED,
        Failure.INCONSISTENT_BATCH,
        HIDDEN_BATCH,
    )


# --- in-place changes, dtype, type --------------------------------------------------------


def test_in_place_change_of_an_input_is_reported(gate: PreparedExercise, sandbox: Sandbox) -> None:
    code = wrapped_solution("""
        def update_gate(x_t, h_prev, W_z, b_z):
            z = _reference(x_t, h_prev, W_z, b_z)
            h_prev[...] = 0.0
            return z
    """)
    report = run(gate, sandbox, code)
    message = (
        "inputs: the function changed its input 'h_prev' in place; work on a copy (e.g. "
        "x = x.copy()) or build new arrays"
    )
    tests = by_name(report)
    for name, test in tests.items():
        if name == "first step zero state":  # h_prev is all zeros already: nothing changed
            assert test.status is Status.PASSED
        elif test.visibility is Visibility.PUBLIC:
            assert (test.status, test.message) == (Status.FAILED, message), name
        else:
            assert (test.status, test.failure, test.message) == (
                Status.FAILED,
                Failure.CHANGED_INPUT,
                HIDDEN_MESSAGES[Failure.CHANGED_INPUT],
            )


def test_in_place_change_of_two_inputs_names_both(gate: PreparedExercise, sandbox: Sandbox) -> None:
    code = wrapped_solution("""
        def update_gate(x_t, h_prev, W_z, b_z):
            z = _reference(x_t, h_prev, W_z, b_z)
            x_t += 1.0
            b_z *= 2.0
            return z
    """)
    report = run(gate, sandbox, code, public_only=True)
    assert report.tests[0].message == (
        "inputs: the function changed its input 'x_t', 'b_z' in place; work on a copy (e.g. "
        "x = x.copy()) or build new arrays"
    )


def test_no_mistake_hint_when_the_values_are_right(
    gate: PreparedExercise, sandbox: Sandbox
) -> None:
    # A mistake's hint describes a wrong output. When the learner's values equal the expected
    # ones (only an in-place change or batch consistency failed), a mistake that happens to be
    # right on this case (overflowing_sigmoid, float32_arithmetic) must not lend its hint; the
    # one check every failing test failed may (the in-place change), a mix of checks not.
    mutating = wrapped_solution("""
        def update_gate(x_t, h_prev, W_z, b_z):
            z = _reference(x_t, h_prev, W_z, b_z)
            h_prev[...] = 0.0
            return z
    """)
    inconsistent = wrapped_solution("""
        def update_gate(x_t, h_prev, W_z, b_z):
            z = _reference(x_t, h_prev, W_z, b_z)
            return z if np.ndim(h_prev) == 2 else z + 1.0
    """)
    report = run(gate, sandbox, mutating)
    assert report.verdict is Verdict.FAILED
    assert report.diagnosis is not None
    assert (report.diagnosis.hint, report.diagnosis.source, report.diagnosis.key) == (
        CHECK_HINTS[Failure.CHANGED_INPUT],
        DiagnosisSource.CHECK,
        "changed_input",
    )
    assert report.diagnosis.cases == tuple(
        t.name for t in report.tests if t.status is not Status.PASSED
    )
    report = run(gate, sandbox, inconsistent)
    assert report.verdict is Verdict.FAILED
    assert report.diagnosis is None


def test_float32_result_gets_the_dtype_message(gate: PreparedExercise, sandbox: Sandbox) -> None:
    code = OWN_SOLUTION.replace("return np.exp", "return np.float32(1) * np.exp").replace(
        "b_z)))", "b_z))).astype(np.float32)"
    )
    report = run(gate, sandbox, code)
    assert report.verdict is Verdict.FAILED
    assert {(t.status, t.message) for t in report.tests} == {
        (Status.FAILED, "dtype: float32, expected float64"),
        (Status.FAILED, HIDDEN_MESSAGES[Failure.WRONG_DTYPE]),
    }
    # The hint names both dtypes, read from the public cases alone.
    assert report.diagnosis is not None
    assert report.diagnosis.hint == FLOAT_DTYPE_HINT.format(got="float32", expected="float64")


def test_list_result_gets_the_type_message(gate: PreparedExercise, sandbox: Sandbox) -> None:
    code = OWN_SOLUTION.replace("b_z)))", "b_z))).tolist()")
    report = run(gate, sandbox, code)
    assert {(t.status, t.message) for t in report.tests} == {
        (
            Status.FAILED,
            "type: expected numpy.ndarray, got list; build it with np.array(...) "
            "or return the array itself",
        ),
        (Status.FAILED, HIDDEN_MESSAGES[Failure.WRONG_TYPE]),
    }


def test_none_result_gets_the_forgot_to_return_message(
    gate: PreparedExercise, sandbox: Sandbox
) -> None:
    code = OWN_SOLUTION.replace("    return np.exp", "    np.exp")
    report = run(gate, sandbox, code, public_only=True)
    assert [t.message for t in report.tests] == [
        "type: expected numpy.ndarray, got None; did the function forget to return?"
    ] * 2


def test_transposed_batch_gets_the_shape_message(gate: PreparedExercise, sandbox: Sandbox) -> None:
    code = OWN_SOLUTION.replace("b_z)))", "b_z))).T.copy()")
    report = run(gate, sandbox, code, public_only=True)
    assert [(t.status, t.message) for t in report.tests] == [
        (Status.PASSED, ""),
        (
            Status.FAILED,
            "shape: expected (2, 3), got (3, 2): transposed; with the axes in the "
            "expected order the values are right",
        ),
    ]


def test_dict_result_is_described_not_sent(gate: PreparedExercise, sandbox: Sandbox) -> None:
    code = OWN_SOLUTION.replace("    return np.exp", "    return {'z': 1}\n    np.exp")
    report = run(gate, sandbox, code, public_only=True)
    assert report.tests[0].message == "type: expected numpy.ndarray, got dict"


# --- golden reports -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["starter", "one_minus_z", "overflowing_sigmoid"])
def test_golden_report(gate: PreparedExercise, sandbox: Sandbox, name: str) -> None:
    code = gate.exercise.starter if name == "starter" else mistake_code(name)
    report = run(gate, sandbox, code)
    assert_matches_golden(f"gru-update-gate.{name}", golden_dict(report))
    again = GradeReport.from_dict(report.to_dict())
    assert again.to_dict() == report.to_dict()


def test_golden_helper_fails_instead_of_regenerating_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.graders import helpers

    monkeypatch.setattr(helpers, "GOLDEN", tmp_path)
    monkeypatch.delenv(helpers.REGEN_VARIABLE, raising=False)
    with pytest.raises(pytest.fail.Exception, match="NUMJUDGE_REGEN_GOLDEN=1"):
        helpers.assert_matches_golden("report", {"score": 1.0})
    assert not (tmp_path / "report.json").exists()
    (tmp_path / "report.json").write_text('{"score": 2.0}\n')
    with pytest.raises(AssertionError):
        helpers.assert_matches_golden("report", {"score": 1.0})
    assert (tmp_path / "report.json").read_text() == '{"score": 2.0}\n'
    monkeypatch.setenv(helpers.REGEN_VARIABLE, "1")
    helpers.assert_matches_golden("report", {"score": 1.0})
    assert (tmp_path / "report.json").read_text() == '{\n  "score": 1.0\n}\n'


def test_numpy_integer_result_is_accepted_for_an_integer(tmp_path: Path, sandbox: Sandbox) -> None:
    # np.sum(mask) returns numpy.int64, the most natural way to count.
    prepared = prepare_exercise(load_exercise(make_tiny_exercise(tmp_path)))
    code = (
        "import numpy as np\n\n\ndef count_above(x, threshold):\n    return np.sum(x > threshold)\n"
    )
    report = grade(prepared, code, sandbox)
    assert [(t.status, t.message) for t in report.tests] == [(Status.PASSED, "")] * 2


# --- judge: how a sandbox run becomes a report (pure) -------------------------------------


def judged(gate: PreparedExercise, run_result: Any, public_only: bool = True) -> GradeReport:
    from graders.grading.grade import judge
    from graders.grading.plan import plan_tasks
    from graders.sandbox.limits import SandboxLimits

    cases = gate.public_cases if public_only else gate.cases
    _tasks, plans = plan_tasks(cases)
    return judge(gate, plans, run_result, SandboxLimits(time_s=5), duration_ms=3)


def test_plan_tasks_adds_one_task_per_batch_item(gate: PreparedExercise) -> None:
    from graders.grading.plan import plan_tasks
    from graders.sandbox.harness import task_inputs
    from graders.sandbox.protocol import BatchItem, encode_tasks

    tasks, plans = plan_tasks(gate.public_cases)
    assert [(p.main, p.slices) for p in plans] == [(0, ()), (1, (2, 3))]
    assert [t.names for t in tasks] == [("x_t", "h_prev", "W_z", "b_z")] * 4
    assert tasks[2].args == ()
    assert tasks[2].item == BatchItem(0, (("x_t", 0), ("h_prev", 0)))
    # The sandbox derives a batch item's inputs from its main call's: the prepared slice.
    encoded = encode_tasks(tasks)
    wire = json.loads(encoded.json)
    assert "args" not in wire[2] and "args" not in wire[3]
    buffers = [memoryview(buffer) for buffer in encoded.buffers]
    main = task_inputs(wire[1], buffers, [])
    for item, task in enumerate(wire[2:]):
        derived = task_inputs(task, buffers, main)
        expected = gate.public_cases[1].slice_inputs[item]
        assert [value.tolist() for value in derived] == [
            value.tolist() for value in expected.values()
        ]
    assert main[1].tolist()[0] == [0.8, -0.3, 0.5]


def test_a_batch_item_is_what_take_gives_along_any_axis_as_a_read_only_view() -> None:
    from graders.sandbox.harness import batch_item

    batch = np.arange(24.0).reshape(2, 3, 4)
    batch.flags.writeable = False  # as inputs decoded from a frame are
    for axis in (0, 1, 2, -1, -3):
        for index in range(batch.shape[axis]):
            item, taken = batch_item(batch, index, axis), batch.take(index, axis=axis)
            assert item.shape == taken.shape
            assert item.tobytes() == taken.tobytes()
            assert not item.flags.writeable  # the call gets a copy (writable_copy)


def test_judge_timeout(gate: PreparedExercise) -> None:
    from graders.sandbox.protocol import Ending, RunResult, TaskOutcome

    first = TaskOutcome(ok=True, value=gate.cases[0].expected, stdout="hi\n")
    report = judged(gate, RunResult(Ending.TIMEOUT, outcomes={0: first}))
    assert report.verdict is Verdict.TIMEOUT
    assert report.message == "time limit exceeded (5 s of CPU time for the whole submission)"
    assert [(t.status, t.message) for t in report.tests] == [
        (Status.PASSED, ""),
        (Status.ERROR, "not run: time limit exceeded (5 s of CPU time for the whole submission)"),
    ]
    assert report.output == "--- numerical example ---\nhi\n"
    assert report.duration_ms == 3


def test_judge_wall_clock_limit_while_waiting(gate: PreparedExercise) -> None:
    from graders.sandbox.protocol import Ending, RunResult

    report = judged(gate, RunResult(Ending.WALL_LIMIT))
    assert report.verdict is Verdict.TIMEOUT
    assert report.message == (
        "wall-clock limit exceeded while waiting: after 11 s the code had "
        "spent most of that time sleeping or blocked, not computing (the "
        "time limit is 5 s of CPU time)"
    )
    assert {t.failure for t in report.tests} == {Failure.TIME_LIMIT}


@pytest.mark.parametrize("ending", ["TIMEOUT", "WALL_LIMIT"])
def test_during_a_hidden_case_computing_and_waiting_read_the_same(
    gate: PreparedExercise, ending: str
) -> None:
    # Whether the code spun or slept there could depend on a hidden input.
    from graders.sandbox.protocol import Ending, RunResult

    report = judged(gate, RunResult(Ending[ending], hidden_started_at=1.0), public_only=False)
    assert report.verdict is Verdict.TIMEOUT
    assert report.message == (
        "time limit exceeded during a hidden test (5 s of CPU time, or 11 "
        "s mostly spent waiting; details are not shown for hidden tests)"
    )


def test_judge_memory_error_while_loading(gate: PreparedExercise) -> None:
    from graders.sandbox.protocol import Ending, RunResult

    run_result = RunResult(Ending.LOAD_ERROR, load_error={"type": "MemoryError", "line": 2})
    report = judged(gate, run_result)
    assert report.verdict is Verdict.MEMORY_LIMIT
    assert report.message == "Your code could not be loaded: ran out of memory (MemoryError)"


def test_judge_memory_error_in_a_case(gate: PreparedExercise) -> None:
    from graders.sandbox.protocol import Ending, RunResult, TaskOutcome

    oom = TaskOutcome(ok=False, error={"type": "MemoryError", "message": "", "line": 5})
    outcomes = {i: oom for i in range(4)}
    report = judged(gate, RunResult(Ending.COMPLETED, outcomes=outcomes))
    assert report.verdict is Verdict.MEMORY_LIMIT
    assert {t.message for t in report.tests} == {"ran out of memory (MemoryError)"}


def test_judge_crash_and_protocol_error(gate: PreparedExercise) -> None:
    from graders.sandbox.protocol import Ending, RunResult

    crashed = judged(
        gate, RunResult(Ending.CRASHED, message="the process was killed by signal 9 SIGKILL")
    )
    assert crashed.verdict is Verdict.ERROR
    assert crashed.message == "the process was killed by signal 9 SIGKILL"
    assert crashed.tests[0].message == "not run: the process was killed by signal 9 SIGKILL"
    garbled = judged(gate, RunResult(Ending.PROTOCOL_ERROR, message="x"))
    assert garbled.message == (
        "the grader could not read your results (did the code write to "
        "the grader's channel, or fork?)"
    )


def test_judge_notes_cut_output(gate: PreparedExercise) -> None:
    from graders.sandbox.protocol import Ending, RunResult, TaskOutcome

    outcomes = {
        i: TaskOutcome(
            ok=True,
            value=(gate.cases[0].expected if i == 0 else None),
            stdout="x" * 3 if i == 0 else "",
        )
        for i in range(4)
    }
    run_result = RunResult(
        Ending.COMPLETED, outcomes=outcomes, load_stdout="start\n", dropped_chars=120
    )
    report = judged(gate, run_result)
    assert report.output == (
        "start\n\n--- numerical example ---\nxxx\n[... 120 more characters were cut]"
    )


# --- per-output batch axes ----------------------------------------------------------------


def test_stacking_takes_an_unbatched_output_element_as_it_is() -> None:
    states = [np.full((2, 3), float(i)) for i in range(4)]
    window = np.array([10.0, 2.0, 4.0])
    stacked = stack_outputs([(s, window) for s in states], (0, None))
    assert stacked[0].shape == (4, 2, 3)
    assert np.array_equal(stacked[0][3], states[3])
    assert stacked[1] is window


def test_stacking_refuses_a_wrong_number_of_output_axes() -> None:
    with pytest.raises(ValueError, match="2 outputs, but 3 output batch axes"):
        stack_outputs([(np.zeros(2), np.zeros(1))] * 2, (0, None, 1))


def test_a_shared_output_must_match_every_single_example(sandbox: Sandbox) -> None:
    prepared = ExerciseCatalog(REPO / "exercises").prepared("leaky-integrator")
    solution = (REPO / "exercises" / "leaky-integrator" / "solution.py").read_text()
    right = grade(prepared, solution, sandbox)
    assert right.verdict is Verdict.PASSED, right.to_dict()
    # A window that depends on the batch: right for every single sequence, wrong in a batch.
    wrong = solution + textwrap.dedent("""
        _reference = leaky_integrate

        def leaky_integrate(xs, alpha, s0):
            states, window = _reference(xs, alpha, s0)
            if np.ndim(xs) == 3 and np.ndim(alpha) < 2:
                window = window * 1.5
            return states, window
    """)
    report = grade(prepared, wrong, sandbox)
    failed = {t.name: t.message for t in report.tests if t.status is Status.FAILED}
    assert set(failed) == {"batch sharing a vector alpha", "batch sharing a scalar alpha"}


# --- an exercise whose warnings fail a test -----------------------------------------------

SIGMOID_CASES = """
import numpy as np

from graders.cases import case


@case(public=True)
def overflowing_example(rng):
    return {"a": np.array([-1000.0, 0.0, 2.0])}


@case(points=2)
def moderate(rng):
    return {"a": rng.normal(size=5)}


@case(points=2)
def hidden_overflow(rng):
    return {"a": rng.uniform(-1000.0, -750.0, size=4)}
"""
STABLE_SIGMOID = (
    "import numpy as np\n\n\ndef sigmoid(a):\n    return np.exp(-np.logaddexp(0.0, -a))\n"
)
OVERFLOWING_SIGMOID = (
    "import numpy as np\n\n\ndef sigmoid(a):\n    return 1.0 / (1.0 + np.exp(-a))\n"
)
# The warning says where the learner's code raised it; the advice names the learner's
# function that called exp.
WARNING_FAILS = (
    "warnings: the values are right, but the call raised RuntimeWarning: overflow "
    "encountered in exp (line 5, in sigmoid), and this exercise counts a warning as a "
    "failure; find the call of exp in sigmoid that warns and make it stay finite and quiet "
    "for every input (an overflow in exp calls for a stable sigmoid)"
)
HIDDEN_WARNING = (
    "warnings: the call raised a warning (e.g. an overflow), which this "
    "exercise counts as a failure (details are not shown for hidden tests)"
)


def sigmoid_exercise(root: Path, policy: str) -> PreparedExercise:
    folder = root / "sigmoid"
    write(
        folder / "exercise.toml",
        f"""
        id = "sigmoid"
        title = "A sigmoid"
        difficulty = "easy"
        tags = ["sigmoid"]
        entry = "sigmoid"

        [checks]
        warnings = "{policy}"
    """,
    )
    write(folder / "statement.md", "Write `sigmoid(a)`, finite and without a warning.\n")
    write(folder / "starter.py", "def sigmoid(a):\n    return a\n")
    write(folder / "solution.py", STABLE_SIGMOID)
    write(folder / "cases.py", SIGMOID_CASES)
    return prepare_exercise(load_exercise(folder))


def test_where_warnings_fail_an_overflow_fails_its_tests_public_and_hidden(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    prepared = sigmoid_exercise(tmp_path, "fail")
    report = grade(prepared, OVERFLOWING_SIGMOID, sandbox)
    assert (report.verdict, report.score, report.max_score) == (Verdict.FAILED, 2.0, 5.0)
    assert [(t.name, t.status, t.failure, t.message) for t in report.tests] == [
        ("overflowing example", Status.FAILED, Failure.WARNING, WARNING_FAILS),
        ("moderate", Status.PASSED, None, ""),
        ("hidden overflow", Status.FAILED, Failure.WARNING, HIDDEN_WARNING),
    ]
    # the values are right: no mistake to name, but the one check both tests failed
    assert report.diagnosis is not None
    assert (report.diagnosis.hint, report.diagnosis.cases, report.diagnosis.source) == (
        CHECK_HINTS[Failure.WARNING],
        ("overflowing example", "hidden overflow"),
        DiagnosisSource.CHECK,
    )


def test_where_warnings_fail_code_that_does_not_warn_passes(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    prepared = sigmoid_exercise(tmp_path, "fail")
    silenced = OVERFLOWING_SIGMOID.replace(
        "    return", "    with np.errstate(over='ignore'):\n        return"
    )
    for code in (STABLE_SIGMOID, silenced):
        report = grade(prepared, code, sandbox)
        assert (report.verdict, report.score) == (Verdict.PASSED, 5.0), code
        assert [t.message for t in report.tests] == ["", "", ""]


def test_where_warnings_fail_wrong_values_still_name_the_values(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    prepared = sigmoid_exercise(tmp_path, "fail")
    report = grade(prepared, OVERFLOWING_SIGMOID.replace("1.0 /", "2.0 /"), sandbox)
    public = report.tests[0]
    assert public.failure is Failure.VALUES
    assert public.message.startswith("values: ")
    assert public.message.endswith(
        " (warning: RuntimeWarning: overflow encountered in exp (line 5, in sigmoid))"
    )


def test_where_warnings_are_noted_the_same_overflow_costs_nothing(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    prepared = sigmoid_exercise(tmp_path, "note")
    report = grade(prepared, OVERFLOWING_SIGMOID, sandbox)
    assert (report.verdict, report.score) == (Verdict.PASSED, 5.0)
    assert [t.message for t in report.tests] == [
        "warning: RuntimeWarning: overflow encountered in exp (line 5, in sigmoid)",
        "",
        "",
    ]


def test_the_author_reads_hidden_messages_in_full_and_the_learner_does_not(
    gate: PreparedExercise, sandbox: Sandbox
) -> None:
    code = mistake_code("one_minus_z")
    learner = run(gate, sandbox, code)
    author = run(gate, sandbox, code, audience=Audience.AUTHOR)
    assert (author.verdict, author.score, author.diagnosis) == (
        learner.verdict,
        learner.score,
        learner.diagnosis,
    )
    hidden = [
        (a, b)
        for a, b in zip(learner.tests, author.tests, strict=True)
        if a.visibility is Visibility.HIDDEN
    ]
    assert hidden
    for learner_test, author_test in hidden:
        assert (author_test.visibility, author_test.status, author_test.failure) == (
            learner_test.visibility,
            learner_test.status,
            learner_test.failure,
        )
        assert learner_test.message == HIDDEN_VALUES
        assert author_test.message.startswith("values: ")
        assert NUMBER_AFTER_EXPECTED_OR_GOT.search(author_test.message), author_test.message
        assert "not shown" not in author_test.message
    # The learner's report keeps, apart from its tests, what the author's tests say.
    assert learner.hidden_messages == {
        a.name: a.message for _, a in hidden if a.status is not Status.PASSED
    }
    assert author.hidden_messages == {}


def test_a_failed_hidden_test_keeps_its_full_message_apart_from_its_fixed_one(
    gate: PreparedExercise, sandbox: Sandbox
) -> None:
    report = run(gate, sandbox, gate.exercise.starter)
    tests = by_name(report)
    assert set(report.hidden_messages) == set(GATE_HIDDEN)
    for name in GATE_HIDDEN:
        # What the test shows is unchanged: the fixed text of its category.
        assert (tests[name].status, tests[name].message) == (Status.FAILED, HIDDEN_VALUES)
        full = report.hidden_messages[name]
        # The full one is the public test's: counts, the worst element's index, both values.
        assert re.fullmatch(
            rf"values: \d+ of \d+ elements \([\d.]+%\) outside tolerance \({re.escape(DEFAULT)}\); "
            r"worst at index \[[\d, ]+\]: expected -?[\d.e+-]+, got 0 \(abs error .*\)",
            full,
        ), full
    # Never in the tests' JSON, which the API returns and the service stores as the tests.
    shown_json = json.dumps([t.to_dict() for t in report.tests])
    assert not any(full in shown_json for full in report.hidden_messages.values())
    assert GradeReport.from_dict(report.to_dict()).hidden_messages == report.hidden_messages


# --- [rules] forbid -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def counting_without_loops(tmp_path_factory: pytest.TempPathFactory) -> PreparedExercise:
    root = tmp_path_factory.mktemp("rules")
    folder = make_tiny_exercise(root)
    with (folder / "exercise.toml").open("a", encoding="utf-8") as file:
        file.write('\n[rules]\nforbid = ["python-loop", "numpy.count_nonzero", "import:scipy"]\n')
    return prepare_exercise(load_exercise(folder), mutant_cache=root / "cache")


LOOPING_COUNT = """\
import numpy as np
from numpy import count_nonzero as nz
print("loaded")


def count_above(x, threshold):
    return sum(1 for v in x if v > threshold) + nz(x > threshold) - nz(x > threshold)
"""
RULES_MESSAGE = (
    "rules: the code was not run, because it uses what this exercise forbids: "
    "line 7: a Python loop (generator expression); line 7: nz is "
    "numpy.count_nonzero"
)


def test_code_that_breaks_the_rules_is_not_run_and_each_use_is_named(
    counting_without_loops: PreparedExercise, sandbox: Sandbox
) -> None:
    report = grade(counting_without_loops, LOOPING_COUNT, sandbox)
    assert (report.verdict, report.score, report.message, report.output, report.diagnosis) == (
        Verdict.FAILED,
        0.0,
        RULES_MESSAGE,
        "",
        None,
    )  # nothing printed: it never ran
    assert [(t.status, t.failure, t.message) for t in report.tests] == [
        (Status.FAILED, Failure.FORBIDDEN, RULES_MESSAGE),
        (
            Status.FAILED,
            Failure.FORBIDDEN,
            "rules: the code uses what this exercise forbids "
            "(details are not shown for hidden tests)",
        ),
    ]


def test_code_that_keeps_the_rules_is_graded_as_usual(
    counting_without_loops: PreparedExercise, sandbox: Sandbox
) -> None:
    report = grade(
        counting_without_loops,
        "import numpy as np\n\n\ndef count_above(x, t):\n    return int((x > t).sum())\n",
        sandbox,
    )
    assert report.verdict is Verdict.PASSED


def test_a_syntax_error_is_reported_as_usual_under_rules(
    counting_without_loops: PreparedExercise, sandbox: Sandbox
) -> None:
    report = grade(counting_without_loops, "def count_above(x, t):\n    for v in x\n", sandbox)
    assert report.verdict is Verdict.ERROR
    assert report.message.startswith("Your code could not be loaded: raised SyntaxError")
    assert {t.failure for t in report.tests} == {Failure.EXCEPTION}


def test_code_too_nested_to_check_is_not_run(
    counting_without_loops: PreparedExercise, sandbox: Sandbox
) -> None:
    report = grade(counting_without_loops, "x = " + "-" * 100_000 + "1\n", sandbox)
    assert report.verdict is Verdict.FAILED
    assert report.message == (
        "rules: the code was not run, because the code is nested too "
        "deeply to check against this exercise's rules"
    )
    assert {t.failure for t in report.tests} == {Failure.FORBIDDEN}


@pytest.mark.parametrize(
    ("warnings", "tags", "advice"),
    [
        (
            ["RuntimeWarning: invalid value encountered in sqrt"],
            ("norms",),
            "find the call of sqrt that warns and make it stay finite and quiet for every input",
        ),
        (
            ["RuntimeWarning: overflow encountered in exp"],
            ("softmax",),
            "find the call of exp that warns and make it stay finite and quiet for every input",
        ),
        (
            [
                "RuntimeWarning: overflow encountered in exp",
                "RuntimeWarning: divide by zero encountered in log",
            ],
            ("sigmoid",),
            "find the calls of exp and log that warn and make them stay finite and quiet "
            "for every input "
            "(an overflow in exp calls for a stable sigmoid)",
        ),
        (
            ["UserWarning: careful"],
            ("sigmoid",),
            "find the operation that warns and make it stay finite and quiet for every input",
        ),
    ],
)
def test_warning_advice_names_the_function_and_a_sigmoid_only_where_there_is_one(
    warnings: list[str], tags: tuple[str, ...], advice: str
) -> None:
    assert warning_advice(warnings, tags) == advice
