"""Batch consistency on batches of one (docs/authoring.md, "Batches of one"): batched-only
code is checked as written unless the exercise declares the unbatched form part of its
contract (``[checks] unbatched = true``)."""

from __future__ import annotations

from pathlib import Path

from graders.api import Failure, Sandbox, Status, grade, load_exercise, prepare_exercise
from tests.graders.helpers import write

SOFTMAX = """
import numpy as np


def softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
"""

CASES = """
import numpy as np

from graders.cases import case


@case(public=True, batch_axes={"z": 0})
def three_rows(rng):
    return {"z": np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0], [-1.0, 5.0, 2.0]])}


@case(batch_axes={"z": 0})
def random_rows(rng):
    return {"z": rng.normal(size=(4, 5))}
"""

# The usual batched softmax: along axis 1, which a single row does not have.
AXIS_ONE = SOFTMAX.replace("axis=-1", "axis=1")
# Right on any batch but a batch of one, whose batch axis it squeezes away.
SQUEEZED = SOFTMAX.replace("e = np.exp(z", "z = z.squeeze()\n    e = np.exp(z")


def softmax_exercise(root: Path, unbatched: bool) -> Path:
    folder = root / "softmax"
    checks = "\n[checks]\nunbatched = true\n" if unbatched else ""
    write(
        folder / "exercise.toml",
        f"""
        id = "softmax"
        title = "Softmax of each row"
        difficulty = "easy"
        tags = ["softmax"]
        entry = "softmax"
        {checks}
        """,
    )
    write(folder / "statement.md", "Write `softmax(z)` of each row of z, shape (N, C).\n")
    write(folder / "starter.py", "def softmax(z):\n    return z\n")
    write(folder / "solution.py", SOFTMAX)
    write(folder / "cases.py", CASES)
    return folder


def test_batched_only_code_passes_where_the_unbatched_form_is_not_promised(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    prepared = prepare_exercise(load_exercise(softmax_exercise(tmp_path, unbatched=False)))
    assert all(case.batches_of_one for case in prepared.cases)
    assert prepared.cases[0].slice_inputs[0]["z"].shape == (1, 3)
    report = grade(prepared, AXIS_ONE, sandbox)
    assert [t.status for t in report.tests] == [Status.PASSED, Status.PASSED]


def test_a_batch_of_one_told_apart_is_named_so(tmp_path: Path, sandbox: Sandbox) -> None:
    prepared = prepare_exercise(load_exercise(softmax_exercise(tmp_path, unbatched=False)))
    public, hidden = grade(prepared, SQUEEZED, sandbox).tests
    assert public.failure is Failure.INCONSISTENT_BATCH
    assert public.message.startswith(
        "batch consistency: the batched result differs from the results of batches of one "
        "joined along axis 0: shape: expected (9,), got (3, 3)"
    ), public.message
    assert hidden.failure is Failure.INCONSISTENT_BATCH


def test_where_the_unbatched_form_is_promised_each_row_is_called_alone(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    prepared = prepare_exercise(load_exercise(softmax_exercise(tmp_path, unbatched=True)))
    assert prepared.cases[0].slice_inputs[0]["z"].shape == (3,)
    public, hidden = grade(prepared, AXIS_ONE, sandbox).tests
    assert public.failure is Failure.INCONSISTENT_BATCH
    assert public.message.startswith(
        "batch consistency: the batch works, but a single example (batch item 0) raised "
    ), public.message
    assert hidden.failure is Failure.INCONSISTENT_BATCH
