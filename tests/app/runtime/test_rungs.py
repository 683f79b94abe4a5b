"""An exercise's first rung (app/runtime/rungs.py): from its own code's gradings, rounded up to
the fixed set, once per version; never below what that code took."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

from app.runtime import rungs
from graders.api import CpuPriority, ExerciseCatalog, GradeReport, PreparedExercise, Verdict
from tests.app.conftest import EXERCISES


class SlowOwnCode:
    """Grades by advancing the clock the measure reads by ``ms`` per grading."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, ms: float) -> None:
        self.now, self.ms, self.graded = 0.0, ms, 0
        monkeypatch.setattr(time, "perf_counter", lambda: self.now)

    def __call__(
        self, prepared: PreparedExercise, code: str, public_only: bool, priority: CpuPriority
    ) -> GradeReport:
        assert not public_only and priority is CpuPriority.NORMAL  # as a learner's submission
        self.graded += 1
        self.now += self.ms / 1000
        return GradeReport(
            exercise=prepared.exercise.id,
            version=prepared.exercise.version,
            verdict=Verdict.PASSED,
            duration_ms=1,
        )


@pytest.fixture(scope="module")
def prepared() -> PreparedExercise:
    return ExerciseCatalog(EXERCISES).prepared("gru-update-gate")


@pytest.mark.parametrize("ms", [1.0, 10.0, 30.0, 70.0])
def test_the_rung_covers_the_exercises_own_code_with_its_margin(
    monkeypatch: pytest.MonkeyPatch, prepared: PreparedExercise, ms: float
) -> None:
    grade = SlowOwnCode(monkeypatch, ms)
    first_rungs = rungs.FirstRungs(grade)
    rung = first_rungs.measure(prepared)
    own = timedelta(milliseconds=ms) * rungs.MARGIN + rungs.SERVICE_ALLOWANCE
    assert rung in rungs.FIRST_RUNGS and rung >= own
    # The smallest that does: one rung lower would hold the exercise's own code back.
    assert all(lower < own for lower in rungs.FIRST_RUNGS if lower < rung)
    # Measured once per version: later gradings of it ask the stored rung.
    measured = grade.graded
    assert first_rungs.measure(prepared) == rung == first_rungs.known(prepared.exercise.version)
    assert grade.graded == measured


def test_own_code_slower_than_every_rung_keeps_the_first_step(
    monkeypatch: pytest.MonkeyPatch, prepared: PreparedExercise
) -> None:
    assert rungs.FirstRungs(SlowOwnCode(monkeypatch, 400)).measure(prepared) == rungs.FIRST_STEP


def test_without_a_grader_or_before_measuring_every_rung_is_the_first_step(
    prepared: PreparedExercise,
) -> None:
    assert rungs.FirstRungs().measure(prepared) == rungs.FIRST_STEP
    assert rungs.FirstRungs().known(prepared.exercise.version) == rungs.FIRST_STEP
