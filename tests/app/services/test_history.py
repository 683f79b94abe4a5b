"""The instructors' submission list: filtered by learner, exercise and assignment, late work
marked, and the links' query strings that keep the filter."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from app.models import SubmissionKind
from app.services.assignments import AssignmentNotFound, LearnerNotFound
from app.services.history import SubmissionFilter, graded_submissions
from tests.app.services.graded_rows import (
    DUE,
    GATE,
    PRACTICE,
    RESET,
    course_catalog,
    graded,
    learner,
)


def test_the_filter_narrows_the_list_and_marks_late_work(db: Session, tmp_path: Path) -> None:
    catalog = course_catalog(tmp_path)
    lea, max_ = learner(db, "lea"), learner(db, "max")
    early = graded(db, lea, GATE, 5, DUE - timedelta(hours=3))
    late = graded(db, lea, RESET, 10, DUE + timedelta(hours=1))
    practice = graded(db, lea, PRACTICE, 10, DUE + timedelta(hours=2))
    other = graded(db, max_, GATE, 10, DUE - timedelta(hours=2))
    graded(db, lea, GATE, 10, DUE).kind = SubmissionKind.RUN  # a run is never listed
    db.flush()

    def ids(**chosen: str) -> list[str]:
        listed = graded_submissions(
            session=db, catalog=catalog, chosen=SubmissionFilter(**chosen), limit=100
        )
        assert listed.late <= {s.id for s in listed.submissions}
        return [s.id for s in listed.submissions]

    assert ids() == [practice.id, late.id, other.id, early.id]
    assert ids(learner="lea") == [practice.id, late.id, early.id]
    assert ids(exercise=GATE) == [other.id, early.id]
    assert ids(assignment="gates", learner="lea") == [late.id, early.id]
    everything = graded_submissions(session=db, catalog=catalog, chosen=SubmissionFilter(), limit=2)
    assert [s.id for s in everything.submissions] == [practice.id, late.id]  # the newest
    assert everything.late == {late.id}  # practice work is never late
    assert [a.id for a in everything.assignments] == ["gates"]
    with pytest.raises(LearnerNotFound):
        ids(learner="nobody")
    with pytest.raises(AssignmentNotFound):
        ids(assignment="nope")


def test_a_link_narrows_the_filter_and_keeps_the_rest() -> None:
    chosen = SubmissionFilter(learner="lea", assignment="gates")
    assert chosen.query() == "learner=lea&assignment=gates"
    assert chosen.query(exercise="a b") == "learner=lea&exercise=a+b&assignment=gates"
    assert chosen.query(learner="max") == "learner=max&assignment=gates"
    assert SubmissionFilter().query() == ""
