"""A course and graded submission rows written straight to the database, for the services that
read a learner's or an assignment's work (no grader: the rows are what grading stores)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from app.models import Role, Submission, SubmissionKind, SubmissionStatus, User
from app.store import accounts as account_store
from graders.api import ExerciseCatalog, Verdict
from tests.app.course_catalog import build_catalog

GATE = "gru-update-gate"
RESET = "gru-reset-gate"
PRACTICE = "gru-step"
DUE = datetime(2026, 12, 1, 0, 0, tzinfo=UTC)  # 09:00 in Tokyo
NOW = DUE + timedelta(days=9)
COURSE = f'''
timezone = "Asia/Tokyo"

[[assignment]]
id = "gates"
title = "Gates"
opens = {(DUE - timedelta(days=30)).isoformat()}
due = {DUE.isoformat()}
late = {{ policy = "penalty", per_day = 0.5, floor = 0.25 }}
exercises = [{{ id = "{GATE}", weight = 2 }}, "{RESET}"]
'''
# What grading stores for a failed hidden test: its failure's fixed words
# (graders/checks/hidden.py).
HIDDEN_MESSAGE = "values: the output differs from the expected one beyond the tolerance"
# And, apart from the tests, what that test would have said as a public one.
FULL_MESSAGE = (
    "values: 4 of 8 elements (50.0%) outside tolerance (rtol=1e-07, atol=1e-09); worst at "
    "index [1, 2]: expected 0.25, got 0.75 (abs error 0.5, rel error 2)"
)


def course_catalog(tmp_path: Path) -> ExerciseCatalog:
    return ExerciseCatalog(build_catalog(tmp_path / "exercises", COURSE))


def learner(db: Session, name: str, section: str | None = None) -> User:
    user = account_store.create_user(session=db, name=name, role=Role.LEARNER)
    user.section = section
    db.flush()
    return user


def tests_of(score: float) -> list[dict[str, Any]]:
    """A public test worth 4 (passed) and a hidden one worth 6 (passed with a full score)."""
    hidden_passed = score >= 10
    return [
        {"name": "numerical example", "visibility": "public", "status": "passed",
         "points": 4.0, "max_points": 4.0, "failure": None, "message": ""},
        {"name": "batched inputs", "visibility": "hidden",
         "status": "passed" if hidden_passed else "failed",
         "points": 6.0 if hidden_passed else score - 4.0, "max_points": 6.0,
         "failure": None if hidden_passed else "values",
         "message": "" if hidden_passed else HIDDEN_MESSAGE},
    ]  # fmt: skip


def graded(
    db: Session, user: User, exercise: str, score: float, at: datetime, code: str = ""
) -> Submission:
    """A graded submission of ``score`` / 10 made at ``at``."""
    row = Submission(
        user_id=user.id,
        exercise_id=exercise,
        exercise_version="v1",
        kind=SubmissionKind.SUBMIT,
        code=code or f"def f(x):\n    return x  # {user.name} {score}\n",
        status=SubmissionStatus.DONE,
        verdict=Verdict.PASSED if score >= 10 else Verdict.FAILED,
        score=score,
        max_score=10.0,
        tests=tests_of(score),
        hidden_messages=None if score >= 10 else {"batched inputs": FULL_MESSAGE},
        output="",
        message="",
        attempts=1,
        created_at=at,
        finished_at=at + timedelta(seconds=1),
        duration_ms=12,
    )
    db.add(row)
    db.flush()
    return row
