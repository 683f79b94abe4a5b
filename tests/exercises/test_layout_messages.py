"""Layout mix-ups in gated-unit get a message in words, not numpy's raw complaint.

gated-unit's sequences are batch-first, ``x`` of shape ``(N, T, D)``; a learner who reads them
time-first either raises a shape error (told with the case's shapes and where its batch is) or
returns the states time-first (told as two exchanged axes whose values are right). Hidden
tests still show only their category.
"""

from __future__ import annotations

from pathlib import Path

from graders.api import Failure, Sandbox, Status, Visibility, grade
from graders.checks.hidden import hidden_message
from graders.exercises import ExerciseCatalog

CATALOG = ExerciseCatalog(Path(__file__).resolve().parents[2] / "exercises")
LOOP = """
import numpy as np


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range({steps}):
        x_t = {x_t}
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1.0 - u) * a
        states.append(h)
    return np.stack(states, axis={axis})
"""
TIME_FIRST_INPUT = LOOP.format(steps="x.shape[0]", x_t="x[t]", axis=0)
TIME_FIRST_OUTPUT = LOOP.format(steps="x.shape[-2]", x_t="x[..., t, :]", axis=0)


def test_gated_unit_input_read_time_first_is_told_in_words(sandbox: Sandbox) -> None:
    report = grade(CATALOG.prepared("gated-unit"), TIME_FIRST_INPUT, sandbox)
    tests = {t.name: t for t in report.tests}
    assert tests["worked example"].status is Status.PASSED  # one sequence: nothing to confuse
    batch = tests["small batch"]
    assert (batch.status, batch.failure) == (Status.ERROR, Failure.EXCEPTION)
    assert batch.message.startswith(
        "the arrays' shapes do not fit together, which usually means a layout mix-up: this "
        "case's inputs have shapes x (2, 4, 2) with the batch along axis 0, h0 (2, 3) with the "
        "batch along axis 0, W_ux (3, 2),"
    )
    assert "which axis holds the batch and what each other axis holds" in batch.message
    assert batch.message.endswith(")") and "(raised ValueError on line " in batch.message
    for test in report.tests:
        if test.visibility is Visibility.HIDDEN and test.failure is not None:
            assert test.message == hidden_message(test.failure)


def test_gated_unit_states_returned_time_first_are_told_in_words(sandbox: Sandbox) -> None:
    report = grade(CATALOG.prepared("gated-unit"), TIME_FIRST_OUTPUT, sandbox)
    tests = {t.name: t for t in report.tests}
    assert tests["worked example"].status is Status.PASSED
    assert (tests["small batch"].failure, tests["small batch"].message) == (
        Failure.WRONG_SHAPE,
        "shape: expected (2, 4, 3), got (4, 2, 3): axes 0 and 1 exchanged; check which axis the "
        "statement puts first (time or batch, say); with the axes in the expected order the "
        "values are right",
    )
    hidden = tests["batch hidden neq input"]
    assert (hidden.failure, hidden.message) == (
        Failure.WRONG_SHAPE,
        hidden_message(Failure.WRONG_SHAPE),
    )
