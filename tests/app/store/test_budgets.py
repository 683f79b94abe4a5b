"""Budgets: a learner's graded submissions to one exercise, counted in total and since a time."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import Session

from app.models import SubmissionKind, SubmissionStatus, utcnow
from app.store import accounts as account_store
from app.store import budgets as budget_store
from tests.app.store.helpers import add_submission


def test_graded_count_counts_the_learners_submissions_to_the_exercise_and_the_recent_ones(
    db: Session,
) -> None:
    ada = account_store.create_user(session=db, name="ada")
    bob = account_store.create_user(session=db, name="bob")
    now = utcnow()
    since = now - timedelta(hours=1)
    old, at_since, latest = (add_submission(db, ada) for _ in range(3))
    old.created_at, old.status = now - timedelta(hours=2), SubmissionStatus.DONE
    at_since.created_at = since  # "at or after" the time asked for
    latest.created_at = now - timedelta(minutes=10)  # still waiting: it counts too
    # Neither a run, another exercise nor another learner's submission counts, however new.
    for row in (
        add_submission(db, ada, kind=SubmissionKind.RUN),
        add_submission(db, ada, exercise="gru-step"),
        add_submission(db, bob),
    ):
        row.created_at = now
    db.flush()
    count = budget_store.graded_count(
        session=db, user_id=ada.id, exercise_id="gru-update-gate", since=since
    )
    assert (count.total, count.since, count.last_at) == (3, 2, latest.created_at)
    assert count.last_at is not None and count.last_at.tzinfo is not None


def test_graded_count_of_a_learner_without_submissions_is_zero(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    assert budget_store.graded_count(
        session=db, user_id=ada.id, exercise_id="gru-update-gate", since=utcnow()
    ) == budget_store.GradedCount(total=0, since=0, last_at=None)
