"""Statements say what their grader does with warnings, one policy for the default course.

An exercise's ``[checks] warnings`` (graders.exercises.WarningPolicy) decides whether a test
whose call warns fails; its statements must tell the learner which: one that fails warnings
mentions them, one that only notes them and still talks about warnings says they cost no
points, a statement that asks for warning-free results belongs to an exercise that fails
warnings, and one that speaks of overflow says what a warning costs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from graders.api import Sandbox, Verdict, grade
from graders.exercises import ExerciseCatalog, WarningPolicy

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"
CATALOG = ExerciseCatalog(EXERCISES)
WARNING = {"en": "warning", "ja": "警告"}
COSTS_NOTHING = {"en": "costs no points", "ja": "減点はなく"}
WARNING_FREE = {"en": "warning-free", "ja": "警告も出さないように"}
OVERFLOW = {"en": "overflow", "ja": "オーバーフロー"}
NAIVE_SIGMOID = '''
import numpy as np


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    """The textbook sigmoid: finite, but exp(-q) overflows (with a warning) for q < -709."""
    h = h0
    states = []
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = 1.0 / (1.0 + np.exp(-(x_t @ W_ux.T + h @ W_uh.T + b_u)))
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1.0 - u) * a
        states.append(h)
    return np.stack(states, axis=-2)
'''


@pytest.mark.parametrize("exercise_id", CATALOG.ids())
def test_each_statement_says_what_its_grader_does_with_warnings(exercise_id: str) -> None:
    exercise = CATALOG.load(exercise_id)
    for lang, text in exercise.statements.items():
        if lang not in WARNING:
            continue
        text = text.lower()
        # Where a statement warns of overflow, the learner must know what a warning costs.
        assert OVERFLOW[lang] not in text or WARNING[lang] in text, lang
        if exercise.warnings is WarningPolicy.FAIL:
            assert WARNING[lang] in text, lang
        else:
            assert WARNING_FREE[lang] not in text, lang
            assert WARNING[lang] not in text or COSTS_NOTHING[lang] in text, lang


def test_the_default_course_has_one_warnings_policy() -> None:
    # Warnings are noted, never scored, in every exercise of the gated-recurrence course: a
    # sigmoid split on the sign with np.where warns with right values, and must not pass one
    # exercise and fail the next.
    policies = {e.id: e.warnings for e in CATALOG.all() if e.course is None}
    assert set(policies.values()) == {WarningPolicy.NOTE}, policies


def test_gated_unit_notes_a_naive_sigmoids_warning_on_a_public_case(sandbox: Sandbox) -> None:
    report = grade(CATALOG.prepared("gated-unit"), NAIVE_SIGMOID, sandbox)
    assert report.verdict is Verdict.PASSED
    noted = {t.name: t.message for t in report.tests if t.message}
    assert noted == {
        "saturated gates": "warning: RuntimeWarning: overflow encountered in exp (line 11, in "
        "gated_unit)"
    }
