"""Regrades: submissions graded with an earlier version of an exercise, graded again.

A regrade keeps the submission's current report as an earlier report and queues the row
again with ``regrade`` set; the claim order puts every learner's own work first, so a regrade
runs on a grading thread no learner is waiting for. One wake-up is enough: the thread it
wakes keeps claiming until nothing is left (recovery sends another if it is lost).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy.orm import Session

from app.models import Submission, utcnow
from app.runtime.context import GradingRuntime
from app.runtime.queue import QueueUnavailable
from app.schemas import ReportOut, StaleExerciseOut
from app.services import views
from app.store import leases as lease_store
from app.store import regrades as regrade_store
from graders.api import ExerciseCatalog

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class StaleExercise:
    exercise_id: str
    title: str
    version: str
    stale: int  # graded submissions whose version is not ``version``


def stale_exercises(*, session: Session, catalog: ExerciseCatalog) -> list[StaleExercise]:
    """Every exercise with how many of its submissions an earlier version graded."""
    exercises = catalog.all()
    counts = regrade_store.count_stale(
        session=session, versions={e.id: e.version for e in exercises}
    )
    return [StaleExercise(e.id, e.title, e.version, counts[e.id]) for e in exercises]


def stale_exercise_out(row: StaleExercise) -> StaleExerciseOut:
    return StaleExerciseOut(
        exercise=row.exercise_id, title=row.title, version=row.version, stale=row.stale
    )


def regrade(*, runtime: GradingRuntime, exercise_id: str) -> int:
    """Queue every submission an earlier version graded; how many were queued."""
    exercise = runtime.catalog.load(exercise_id)  # ExerciseNotFound -> 404
    now = utcnow()
    with runtime.sessions() as session:
        ids = regrade_store.queue_regrades(
            session=session,
            exercise_id=exercise.id,
            version=exercise.version,
            now=now,
            lease_expires_at=now + timedelta(seconds=runtime.settings.queue_lease_s),
        )
        session.commit()
        if not ids:
            return 0
        logger.info(
            "regrade.queued",
            extra={"exercise": exercise.id, "count": len(ids), "version": exercise.version},
        )
        try:
            runtime.queue.enqueue(ids[0])
        except QueueUnavailable:
            lease_store.mark_unsent(session=session, submission_ids=ids[:1], now=now)
            session.commit()
    return len(ids)


def reports(*, session: Session, submission: Submission) -> list[ReportOut]:
    """Every report the submission had, oldest first; the last is its current one."""
    earlier = regrade_store.earlier_reports(session=session, submission_id=submission.id)
    return [*map(views.earlier_report_out, earlier), views.current_report_out(submission)]
