"""Property cases (``@property_case``): judged by their checks alone, each failing check named
(a hidden test its name only), and mistakes recognised by the checks they fail; graded in a
real sandbox on the column-basis fixture (tests/graders/property_exercises.py)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graders.api import (
    Failure,
    GradeReport,
    PreparedExercise,
    Sandbox,
    Status,
    Verdict,
    grade,
    load_exercise,
    prepare_exercise,
)
from graders.authoring.validation import validate_folder
from graders.cases import CaseKind, collect_cases, property_case
from graders.checks.hidden import hidden_message
from graders.checks.properties import failed_checks
from tests.graders.helpers import REPO, make_tiny_exercise, write
from tests.graders.property_exercises import (
    BASIS_CASES,
    BASIS_SOLUTION,
    DROPOUT_SOLUTION,
    KEEP_WITH_P,
    make_column_basis,
    make_random_dropout,
)

HIDDEN = ["tall full rank", "dependent columns", "wide of rank three"]


@pytest.fixture(scope="module")
def basis_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_column_basis(tmp_path_factory.mktemp("ex"))


@pytest.fixture(scope="module")
def basis(basis_folder: Path) -> PreparedExercise:
    return prepare_exercise(load_exercise(basis_folder))


def graded(prepared: PreparedExercise, code: str, sandbox: Sandbox) -> GradeReport:
    return grade(prepared, textwrap.dedent(code), sandbox)


def messages(report: GradeReport) -> dict[str, str]:
    return {test.name: test.message for test in report.tests}


def test_another_right_answer_passes(basis: PreparedExercise, sandbox: Sandbox) -> None:
    # Not the reference's basis: its columns reversed, negated and rotated within the space.
    code = (
        BASIS_SOLUTION
        + """

_reference = column_basis


def column_basis(a):
    q = -_reference(a)[:, ::-1]
    c, s = np.cos(0.3), np.sin(0.3)
    if q.shape[1] >= 2:
        q[:, :2] = q[:, :2] @ np.array([[c, -s], [s, c]])
    return q
"""
    )
    report = graded(basis, code, sandbox)
    assert report.verdict is Verdict.PASSED, messages(report)
    assert report.score == report.max_score == 7


def test_each_failing_check_is_named_and_a_hidden_test_names_only_the_checks(
    basis: PreparedExercise, sandbox: Sandbox
) -> None:
    report = graded(basis, "def column_basis(a):\n    return a.tolist()\n", sandbox)
    assert messages(report)["two columns"] == (
        "check 'orthonormal columns': expected a 2-d array with 3 rows, got list None; "
        "check 'spans the columns': expected a 2-d array with 3 rows, got list None"
    )
    both = ("orthonormal columns", "spans the columns")
    for test in report.tests:
        assert (test.status, test.failure, test.points) == (Status.FAILED, Failure.PROPERTY, 0)
        if test.name in HIDDEN:
            assert test.message == hidden_message(Failure.PROPERTY, both)
    assert messages(report)["tall full rank"] == (
        "property: the output fails the checks 'orthonormal columns' and 'spans the columns' "
        "(details are not shown for hidden tests)"
    )
    # A list fails what a transposed basis (a mutant) fails, but it is no such slip.
    assert report.diagnosis is None


def test_a_mistake_is_recognised_by_the_checks_it_fails(
    basis: PreparedExercise, sandbox: Sandbox
) -> None:
    # The not_normalised mistake in another spelling: a @ v is u scaled by the singular values.
    code = """
    import numpy as np


    def column_basis(a):
        _, s, vt = np.linalg.svd(a, full_matrices=False)
        rank = int((s > 1e-10 * s[0]).sum())
        return a @ vt[:rank].T
    """
    report = graded(basis, code, sandbox)
    assert messages(report)["two columns"] == (
        "check 'orthonormal columns': q.T @ q differs from the identity by up to 6"
    )
    assert messages(report)["dependent columns"] == (
        "property: the output fails the check 'orthonormal columns' "
        "(details are not shown for hidden tests)"
    )
    assert report.diagnosis is not None
    assert report.diagnosis.key == "not_normalised"
    assert report.diagnosis.cases == ("two columns", *HIDDEN)


def test_a_mistake_caught_on_some_cases_only_is_told_by_them(
    basis: PreparedExercise, sandbox: Sandbox
) -> None:
    # Right where the columns are independent: QR there is an orthonormal basis.
    code = """
    import numpy as np


    def column_basis(a):
        return np.linalg.qr(a, mode="reduced")[0]
    """
    report = graded(basis, code, sandbox)
    assert {t.name: t.failure for t in report.tests} == {
        "two columns": None,
        "tall full rank": None,
        "dependent columns": Failure.PROPERTY,
        "wide of rank three": Failure.PROPERTY,
    }
    assert report.diagnosis is not None and report.diagnosis.key == "every_column"


def test_property_cases_judge_the_candidates_by_their_checks(basis: PreparedExercise) -> None:
    dependent = next(c for c in basis.cases if c.name == "dependent columns")
    assert dependent.spec.kind is CaseKind.PROPERTY
    assert dependent.table.checked is not None
    assert dependent.table.checked["every_column"].failed == {"spans the columns"}
    assert dependent.table.checked["not_normalised"].failed == {"orthonormal columns"}
    assert {"every_column", "not_normalised"} <= dependent.table.wrong


def test_validate_accepts_mistakes_caught_only_by_checks(
    basis_folder: Path, sandbox: Sandbox
) -> None:
    result = validate_folder(basis_folder, sandbox)
    assert result.problems == []
    assert result.notes == [
        "4 cases (3 hidden), 2 mistakes, languages: en",
        "mutation score 100% (7 of 7 non-equivalent mutants fail a hidden case)",
    ]


def test_validate_names_mistakes_that_fail_the_same_checks(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    folder = make_column_basis(tmp_path)
    write(
        folder / "mistakes" / "twice_as_long.py",
        'HINT = "twice as long"\n\n'
        + BASIS_SOLUTION
        + "\n\n_reference = column_basis\n\n\ndef column_basis(a):\n"
        "    return 2 * _reference(a)\n",
    )
    result = validate_folder(folder, sandbox)
    assert result.problems == [
        f"mistakes/{name}.py: its hint is not the diagnosis of its own output (it gives the "
        f"same outputs as {other}.py on every case; add a case that tells them apart)"
        for name, other in (
            ("not_normalised", "twice_as_long"),
            ("twice_as_long", "not_normalised"),
        )
    ]


def test_a_check_that_raises_on_the_output_fails_naming_the_exception() -> None:
    def positive(inputs: Any, got: Any) -> str | None:
        return None if got.min() > 0 else "not positive"

    (failure,) = failed_checks([positive], {}, "text")
    assert failure.name == "positive"
    assert failure.message == (
        "could not be evaluated on this output (raised AttributeError: 'str' object has no "
        "attribute 'min')"
    )
    assert failed_checks([positive], {}, np.ones(3)) == ()


def test_a_property_case_needs_named_checks() -> None:
    def positive(inputs: Any, got: Any) -> str | None:
        return None

    def declare(**options: Any) -> None:
        @property_case(**options)
        def example(rng: np.random.Generator) -> dict[str, Any]:
            return {"x": np.ones(2)}

    (spec,) = collect_cases(lambda: declare(checks=[positive], points=2))
    assert (spec.kind, spec.checks, spec.points, spec.public) == (
        CaseKind.PROPERTY,
        (positive,),
        2.0,
        False,
    )
    with pytest.raises(ValueError, match="at least one check"):
        collect_cases(lambda: declare(checks=[]))
    with pytest.raises(ValueError, match="named functions with different names"):
        collect_cases(lambda: declare(checks=[lambda inputs, got: None]))
    with pytest.raises(ValueError, match="named functions with different names"):
        collect_cases(lambda: declare(checks=[positive, positive]))


CHECKED_CASES = """
import numpy as np

from graders.cases import case


def a_python_int(inputs, got):
    return None if type(got) is int else f"expected int, got {type(got).__name__}"


@case(public=True, checks=[a_python_int])
def example(rng):
    return {"x": np.array([1.0, 2.0, 3.0]), "threshold": 1.5}


@case(points=2, checks=[a_python_int])
def random_values(rng):
    return {"x": rng.normal(size=10), "threshold": 0.0}
"""


def test_a_check_of_a_reference_case_fails_as_a_property_not_as_values(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    # The values equal the reference's; the case's own check fails.
    prepared = prepare_exercise(load_exercise(make_tiny_exercise(tmp_path, cases=CHECKED_CASES)))
    code = (
        "import numpy as np\n\ndef count_above(x, threshold):\n    return np.sum(x > threshold)\n"
    )
    report = graded(prepared, code, sandbox)
    assert [(t.name, t.failure) for t in report.tests] == [
        ("example", Failure.PROPERTY),
        ("random values", Failure.PROPERTY),
    ]
    assert messages(report) == {
        "example": "check 'a python int': expected int, got int64",
        "random values": "property: the output fails the check 'a python int' "
        "(details are not shown for hidden tests)",
    }


def test_the_authoring_guides_example_is_the_fixture(
    basis: PreparedExercise, sandbox: Sandbox
) -> None:
    guide = (REPO / "docs" / "authoring.md").read_text(encoding="utf-8")
    section = guide.split("## Property cases: checks without a reference")[1].split("\n## ")[0]
    blocks = re.findall(r"```\w*\n(.*?)```", section, re.S)
    solution, cases, public, hidden = blocks[1:5]
    assert solution.removeprefix("# solution.py\n").strip() == BASIS_SOLUTION.strip()
    assert cases.removeprefix("# cases.py\n").strip() == BASIS_CASES.strip()
    learner = re.search(r"\(`(a @ vt\[:rank\]\.T)`", section)
    assert learner is not None
    code = BASIS_SOLUTION.replace("return u[:, :rank]", f"return {learner.group(1)}").replace(
        "u, s, _ =", "u, s, vt ="
    )
    report = graded(basis, code, sandbox)
    assert messages(report)["two columns"] == public.strip()
    assert messages(report)["tall full rank"] == hidden.strip()
    assert report.diagnosis is not None and report.diagnosis.key == "not_normalised"
    assert f'"{report.diagnosis.hint}"' in " ".join(section.split())


@pytest.fixture(scope="module")
def free_dropout(tmp_path_factory: pytest.TempPathFactory) -> PreparedExercise:
    return prepare_exercise(load_exercise(make_random_dropout(tmp_path_factory.mktemp("ex"))))


def test_random_output_is_judged_by_its_statistics(
    free_dropout: PreparedExercise, sandbox: Sandbox
) -> None:
    # Another order of the draws than the reference's: other values, the same statistics.
    transposed = DROPOUT_SOLUTION.replace("rng.random(x.shape)", "rng.random(x.shape[::-1]).T")
    report = graded(free_dropout, transposed, sandbox)
    assert report.verdict is Verdict.PASSED, messages(report)
    report = graded(free_dropout, KEEP_WITH_P, sandbox)
    assert messages(report)["a fifth"] == (
        "check 'a share p dropped': 0.802 of the entries are dropped, expected 0.2 within 0.027"
    )
    assert messages(report)["most"] == hidden_message(Failure.PROPERTY, ("a share p dropped",))
    assert report.diagnosis is not None and report.diagnosis.key == "keep_with_p"


def test_validate_accepts_a_random_output_judged_by_its_statistics(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    result = validate_folder(make_random_dropout(tmp_path), sandbox)
    assert result.problems == []
    assert result.notes == [
        "2 cases (1 hidden), 1 mistakes, languages: en",
        "mutation score 100% (5 of 5 non-equivalent mutants fail a hidden case)",
    ]
