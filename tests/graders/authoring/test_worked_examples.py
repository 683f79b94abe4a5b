"""graders/authoring/worked_examples.py: a statement's marked worked example checked by validate
against the public case it comes from, in every language."""

from __future__ import annotations

from pathlib import Path

import pytest

from graders.api import Sandbox, load_exercise, prepare_exercise
from graders.authoring.result import ValidationResult
from graders.authoring.texts import check_worked_examples
from graders.authoring.validation import validate_folder
from graders.authoring.worked_examples import MarkerError, worked_examples
from tests.graders.helpers import write
from tests.graders.typed_exercises import make_folder

SOLUTION = """
import numpy as np


def scale(x, a):
    return a * x
"""

CASES = """
import numpy as np

from graders.cases import case


@case(public=True)
def small(rng):
    return {"x": np.array([0.5, -1.25]), "a": 2.0}


@case(points=2)
def hidden_one(rng):
    return {"x": rng.normal(size=3), "a": 0.5}
"""

STATEMENT = """Write `scale(x, a)`, which multiplies every entry of `x` by `a`.

[//]: # (worked example: small)

With $x = [0.5, -1.25]$ and $a = 2.0$, `scale(x, a)` returns {result}.

[//]: # (end of worked example)

Numbers outside the example, such as 3.14, are not checked.
"""


def make_scale(root: Path, english: str, japanese: str) -> Path:
    folder = make_folder(root, "scale", "scale", "", SOLUTION, CASES)
    write(folder / "statement.md", STATEMENT.format(result=english))
    write(folder / "statement.ja.md", STATEMENT.format(result=japanese))
    return folder


def checked(folder: Path, sandbox: Sandbox) -> ValidationResult:
    result = ValidationResult(folder)
    check_worked_examples(prepare_exercise(load_exercise(folder)), sandbox, result)
    return result


def test_right_numbers_pass_in_every_language(tmp_path: Path, sandbox: Sandbox) -> None:
    # Printed to fewer digits, or with a Unicode minus: each is a value of the case.
    result = checked(make_scale(tmp_path, "[1.0, -2.50]", "[1.00, \u22122.5]"), sandbox)
    assert (result.problems, result.notes) == ([], ["2 worked example(s)"])


def test_a_wrong_digit_is_named_with_its_file_line_and_the_nearest_right_value(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    result = checked(make_scale(tmp_path, "[1.0, -2.50]", "[1.0, \u22122.55]"), sandbox)
    assert result.problems == [
        "statement.ja.md:5: \u22122.55 in the worked example of case 'small' is neither one "
        "of its inputs nor of the reference's outputs on it, to the digits printed: the "
        "nearest is -2.50 (-2.5)"
    ]


def test_validate_fails_on_a_wrong_number(tmp_path: Path, sandbox: Sandbox) -> None:
    folder = make_scale(tmp_path, "[1.0, -2.40]", "[1.0, -2.5]")
    problems = validate_folder(folder, sandbox).problems
    assert [p for p in problems if p.startswith("statement")] == [
        "statement.md:5: -2.40 in the worked example of case 'small' is neither one of its "
        "inputs nor of the reference's outputs on it, to the digits printed: the nearest is "
        "-2.50 (-2.5)"
    ]


def test_a_worked_example_must_come_from_a_declared_public_case(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    folder = make_scale(tmp_path, "[1.0, -2.5]", "[1.0, -2.5]")
    write(
        folder / "statement.md",
        STATEMENT.format(result="[1.0, -2.5]").replace("example: small", "example: hidden one"),
    )
    write(
        folder / "statement.ja.md",
        STATEMENT.format(result="[1.0, -2.5]").replace("example: small", "example: tiny"),
    )
    assert checked(folder, sandbox).problems == [
        "statement.ja.md:3: a worked example of case 'tiny', which cases.py does not declare",
        "statement.md:3: a worked example of case 'hidden one', which is hidden: its numbers "
        "would show a hidden test's inputs; use a public case",
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[//]: # (worked example: small)\n0.5\n", "line 1: a worked example never ends"),
        (
            "0.5\n[//]: # (end of worked example)\n",
            "line 2: a worked example ends that never opened",
        ),
        (
            "[//]: # (worked example: small)\n[//]: # (worked example: small)\n",
            "line 2: a worked example opens inside another",
        ),
    ],
)
def test_markers_must_pair_up(text: str, message: str) -> None:
    with pytest.raises(MarkerError, match=message):
        worked_examples(text)


def test_only_decimal_numbers_are_read_and_a_spaced_minus_is_an_operator() -> None:
    (example,) = worked_examples(
        "[//]: # (worked example: small)\n"
        "x[1] of a (2, 3) array is 1 - 0.25 = 0.75, and -1.5 is negative; v2.0 is a name\n"
        "[//]: # (end of worked example)\n"
    )
    assert [(n.line, n.text, n.value, n.decimals) for n in example.numbers] == [
        (2, "0.25", 0.25, 2),
        (2, "0.75", 0.75, 2),
        (2, "-1.5", -1.5, 1),
    ]
