"""One learner's record: what the schedule counts and every graded submission, late ones marked;
the late marks of any list of submissions."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from app.models import SubmissionKind
from app.services import learner_record as learner_record_module
from app.services.assignments import LearnerNotFound
from app.services.learner_record import learner_record
from app.services.standings.load import late_submissions
from app.store import extensions as extension_store
from tests.app.services.graded_rows import (
    DUE,
    GATE,
    NOW,
    PRACTICE,
    RESET,
    course_catalog,
    graded,
    learner,
)


def test_every_exercise_with_its_count_and_each_submission_newest_first(
    db: Session, tmp_path: Path
) -> None:
    lea, other = learner(db, "lea"), learner(db, "max")
    on_time = graded(db, lea, GATE, 5, DUE - timedelta(hours=1))
    late = graded(db, lea, GATE, 10, DUE + timedelta(hours=2))
    practice = graded(db, lea, PRACTICE, 3, DUE)
    graded(db, other, GATE, 10, DUE - timedelta(days=1))  # another learner's: not in lea's
    run = graded(db, lea, GATE, 10, DUE)
    run.kind = SubmissionKind.RUN  # runs of the public tests are not graded work
    db.flush()

    record = learner_record(session=db, catalog=course_catalog(tmp_path), name="lea", now=NOW)

    assert record.learner.id == lea.id and record.submissions == 3 and not record.truncated
    (gates,) = record.assignments
    assert gates.standing.assignment.id == "gates"
    gate, reset = gates.exercises
    assert [r.submission.id for r in gate.submissions] == [late.id, on_time.id]
    assert [r.late for r in gate.submissions] == [True, False]
    # Half of the late 10/10 ties the on-time 5/10: the on-time one counts, not late.
    assert gate.standing is not None
    assert (gate.standing.share, gate.standing.late, gate.standing.attempts) == (0.5, False, 2)
    assert gate.standing.points == 1.0
    assert reset.standing is not None
    assert (reset.exercise_id, reset.submissions, reset.standing.attempts) == (RESET, (), 0)
    # Practice: every exercise in no assignment, in the catalog's order, none late.
    assert GATE not in [e.exercise_id for e in record.practice]
    step = next(e for e in record.practice if e.exercise_id == PRACTICE)
    assert [(r.submission.id, r.late) for r in step.submissions] == [(practice.id, False)]
    # Practice counts the best graded score, no late policy.
    assert step.standing is not None and step.standing.counted is not None
    assert step.standing.counted.submission_id == practice.id and not step.standing.late
    assert [e.exercise_id for e in record.exercises][:2] == [GATE, RESET]


def test_an_unknown_learner_is_named_in_the_error(db: Session, tmp_path: Path) -> None:
    with pytest.raises(LearnerNotFound, match="'nobody'"):
        learner_record(session=db, catalog=course_catalog(tmp_path), name="nobody", now=NOW)


def test_late_marks_follow_each_learners_own_due_time(db: Session, tmp_path: Path) -> None:
    lea, max_ = learner(db, "lea"), learner(db, "max")
    schedule = course_catalog(tmp_path).schedule()
    extension_store.set_extension(
        session=db, user=max_, assignment_id="gates", due=DUE + timedelta(days=1), granted_by="t"
    )
    rows = [
        graded(db, lea, GATE, 10, DUE + timedelta(hours=1)),  # late
        graded(db, lea, RESET, 10, DUE),  # exactly on time
        graded(db, max_, GATE, 10, DUE + timedelta(hours=1)),  # within the extension
        graded(db, max_, RESET, 10, DUE + timedelta(days=2)),  # after it
        graded(db, lea, PRACTICE, 10, DUE + timedelta(days=3)),  # practice: never late
    ]
    late = late_submissions(session=db, schedule=schedule, submissions=rows)
    assert late == {rows[0].id, rows[3].id}


def test_a_long_record_keeps_the_newest_and_says_it_cut(
    db: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lea = learner(db, "lea")
    graded(db, lea, GATE, 5, DUE - timedelta(hours=2))
    newest = graded(db, lea, GATE, 6, DUE - timedelta(hours=1))
    monkeypatch.setattr(learner_record_module, "RECORD_LIMIT", 1)
    record = learner_record(session=db, catalog=course_catalog(tmp_path), name="lea", now=NOW)
    assert record.truncated and record.submissions == 1
    assert record.assignments[0].exercises[0].submissions[0].submission.id == newest.id
    # What the schedule counts still comes from every graded submission.
    assert record.assignments[0].exercises[0].standing is not None
    assert record.assignments[0].exercises[0].standing.attempts == 2
