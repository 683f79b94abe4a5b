"""app/services/standings/marks.py and load.late_submissions: a submission's mark follows the
learner's own due time."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import Session

from app.models import Submission, SubmissionKind
from app.services.standings.load import late_submissions
from app.services.standings.marks import assignment_mark
from app.store import accounts as account_store
from app.store import extensions as extension_store
from graders.api import AssignmentSchedule
from tests.app.services.test_standings_rules import DUE, GATES


def test_a_submissions_mark_follows_the_learners_own_due_time(db: Session) -> None:
    schedule = AssignmentSchedule((GATES,))
    ada = account_store.create_user(session=db, name="ada")
    on_time = assignment_mark(
        session=db, schedule=schedule, user_id=ada.id, exercise_id="reset", submitted_at=DUE
    )
    assert on_time is not None
    assert (on_time.assignment_id, on_time.due, on_time.weight) == ("gates", DUE, 3.0)
    assert (on_time.late, on_time.factor, on_time.points(5.0, 10.0)) == (False, 1.0, 1.5)
    two_days = DUE + timedelta(days=1, hours=1)
    late = assignment_mark(
        session=db, schedule=schedule, user_id=ada.id, exercise_id="reset", submitted_at=two_days
    )
    assert late is not None and late.late and late.factor == 0.6  # two started days late
    assert late.points(10.0, 10.0) == 1.8 and late.points(None, 10.0) is None
    assert (
        assignment_mark(
            session=db, schedule=schedule, user_id=ada.id, exercise_id="other", submitted_at=DUE
        )
        is None
    )
    rows = [
        Submission(
            id="a",
            user_id=ada.id,
            exercise_id="reset",
            created_at=two_days,
            kind=SubmissionKind.SUBMIT,
        ),
        Submission(
            id="b",
            user_id=ada.id,
            exercise_id="other",
            created_at=two_days,
            kind=SubmissionKind.SUBMIT,
        ),
        Submission(
            id="c",
            user_id=ada.id,
            exercise_id="reset",
            created_at=two_days,
            kind=SubmissionKind.RUN,
        ),
    ]
    assert late_submissions(session=db, schedule=schedule, submissions=rows) == {"a"}
    extension_store.set_extension(
        session=db, user=ada, assignment_id="gates", due=two_days, granted_by="prof"
    )
    extended = assignment_mark(
        session=db, schedule=schedule, user_id=ada.id, exercise_id="reset", submitted_at=two_days
    )
    assert extended is not None and extended.due == two_days
    assert (extended.late, extended.factor) == (False, 1.0)
    assert late_submissions(session=db, schedule=schedule, submissions=rows) == set()
