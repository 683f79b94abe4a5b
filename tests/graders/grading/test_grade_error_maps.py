"""The judge's error maps on a real exercise in the sandbox: gru-sequence's states drifting
along time."""

from __future__ import annotations

import pytest

from graders.api import (
    PictureKind,
    Sandbox,
    Status,
    Visibility,
    grade,
    load_exercise,
    prepare_exercise,
)
from graders.exercises import PreparedExercise
from tests.graders.helpers import REPO

# Every state a little off, more at each step: the recurrence drifts.
DRIFTING = (
    (REPO / "exercises" / "gru-sequence" / "solution.py")
    .read_text(encoding="utf-8")
    .replace("        states[..., t, :] = h\n", "        states[..., t, :] = h + 0.01 * (t + 1)\n")
)


@pytest.fixture(scope="module")
def sequence() -> PreparedExercise:
    return prepare_exercise(load_exercise(REPO / "exercises" / "gru-sequence"))


def test_a_drifting_recurrence_draws_its_error_along_time_and_batch(
    sequence: PreparedExercise, sandbox: Sandbox
) -> None:
    assert "states[..., t, :] = h + 0.01" in DRIFTING
    report = grade(sequence, DRIFTING, sandbox)
    tests = {t.name: t for t in report.tests}
    assert tests["worked example"].status is Status.FAILED
    assert tests["worked example"].error_map is None  # (3, 2): six elements, text only
    batch = tests["small batch"].error_map
    assert batch is not None and batch.kind is PictureKind.BATCH
    assert batch.shape == (2, 4, 3) and batch.axes == ("batch item (axis 0)",)
    # The message's worst element, error and tolerance (issue 39: the picture drew the largest
    # error, at the last step, where the message named the element furthest outside its
    # tolerance, a small state off by less).
    message = tests["small batch"].message
    index = "[" + ", ".join(map(str, batch.worst)) + "]"
    assert f"worst at index {index}:" in message
    assert f"abs error {batch.worst_error:.3g}," in message
    assert batch.tolerance is not None and f"({batch.tolerance.describe()})" in message
    assert max(batch.error[0]) == pytest.approx(0.04)  # the last step drifted most
    hidden = [t for t in report.tests if t.visibility is Visibility.HIDDEN]
    assert hidden and all(t.error_map is None for t in hidden)
    assert all("error_map" not in t.to_dict() for t in hidden)
