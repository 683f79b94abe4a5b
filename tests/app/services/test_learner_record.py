"""One learner's record: the course's counts and every graded submission, late ones marked."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from app.models import SubmissionKind
from app.services.courses import LearnerNotFound
from app.services.learner_record import learner_record
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
    assert step.best is not None and step.best.id == practice.id
    assert step.standing is None
    assert [e.exercise_id for e in record.exercises][:2] == [GATE, RESET]


def test_an_unknown_learner_is_named_in_the_error(db: Session, tmp_path: Path) -> None:
    with pytest.raises(LearnerNotFound, match="'nobody'"):
        learner_record(session=db, catalog=course_catalog(tmp_path), name="nobody", now=NOW)
