"""Hidden tests revealed after the deadline: an assignment with ``reveal_hidden_after_close =
true`` in course.toml shows each learner, for their own graded submissions to its exercises,
the hidden cases' inputs and expected outputs once it has closed.

"Closed" is for everyone: the assignment's due time and every learner's extension have passed
and late work scores nothing for any of them (``AssignmentState.CLOSED`` at each of those due
times). Waiting for the last extension of anyone, not only the learner's own, keeps a learner
who has seen the hidden inputs from handing them to one who can still submit. A late policy
whose floor is above 0 never closes: nothing is revealed there (docs/teaching.md).

Each case shows the fixed message the learner's report said (graders/checks/hidden.py) and,
once revealed, the full message the test would have said as a public one: the grader keeps it
apart from the tests (``submissions.hidden_messages``), and nothing else shows it to a learner.
A submission graded before the full messages were kept shows the fixed one alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from app.models import Submission, SubmissionKind
from app.schemas import HiddenCaseOut, HiddenTestsOut
from app.services.standings.rules import AssignmentState, state_at
from app.store import extensions as extension_store
from graders.api import Assignment, ExerciseCatalog, Visibility

MAX_VALUE_CHARS = 4000
"""A revealed value longer than this is cut (a page of numbers is already more than enough)."""


@dataclass(frozen=True)
class HiddenCase:
    name: str
    inputs: tuple[tuple[str, str], ...]  # (argument, its value as text)
    expected: str
    status: str  # the learner's result on it, as stored ("" if the submission has none)
    message: str  # the fixed one the report showed
    full_message: str | None  # what it would have said as a public test (None: not kept)
    title: str = ""  # its name in the reader's words (translations.localised_reveal)


@dataclass(frozen=True)
class Reveal:
    """Whether a submission's hidden tests are shown, and if so, which."""

    enabled: bool  # its assignment reveals hidden tests once closed
    revealed: bool
    cases: tuple[HiddenCase, ...] = ()


def reveal_assignment(catalog: ExerciseCatalog, exercise_id: str) -> Assignment | None:
    """The assignment holding the exercise, if it reveals its hidden tests once closed."""
    assignment = catalog.schedule().assignment_of(exercise_id)
    return assignment if assignment is not None and assignment.reveal_hidden_after_close else None


def closed_for_everyone(*, session: Session, assignment: Assignment, now: datetime) -> bool:
    """The assignment's due time and every extension of it have passed, late work scoring
    nothing after any of them."""
    dues = [assignment.due] + [
        e.due for e in extension_store.list_extensions(session=session, assignment_id=assignment.id)
    ]
    return all(state_at(assignment, due, now) is AssignmentState.CLOSED for due in dues)


def as_text(value: Any) -> str:
    """A value as a learner reads it: numpy's own printing, long arrays summarised."""
    with np.printoptions(threshold=200, edgeitems=5, precision=8, linewidth=96):
        text = repr(value)
    return text if len(text) <= MAX_VALUE_CHARS else text[:MAX_VALUE_CHARS] + " …"


def hidden_tests(
    *, session: Session, catalog: ExerciseCatalog, submission: Submission, now: datetime
) -> Reveal:
    """The submission's hidden cases, if its assignment reveals them and has closed for
    everyone; a run (public cases only) reveals nothing. The caller checks that the reader
    may see the submission (their own, or an instructor)."""
    assignment = reveal_assignment(catalog, submission.exercise_id)
    if assignment is None:
        return Reveal(enabled=False, revealed=False)
    if submission.kind is not SubmissionKind.SUBMIT or not closed_for_everyone(
        session=session, assignment=assignment, now=now
    ):
        return Reveal(enabled=True, revealed=False)
    results: Mapping[str, dict[str, Any]] = {t["name"]: t for t in submission.tests or []}
    full_messages: Mapping[str, str] = submission.hidden_messages or {}
    # A hidden case may take the learner's variant: it is revealed as their submission met it.
    prepared = catalog.prepared(submission.exercise_id, submission.variant)
    cases = tuple(
        HiddenCase(
            case.name,
            tuple((name, as_text(value)) for name, value in case.inputs.items()),
            as_text(case.expected),
            str(results.get(case.name, {}).get("status", "")),
            str(results.get(case.name, {}).get("message", "")),
            full_messages.get(case.name),
        )
        for case in prepared.cases
        if not case.spec.public
        and results.get(case.name, {}).get("visibility", Visibility.HIDDEN.value)
        == Visibility.HIDDEN.value
    )
    return Reveal(enabled=True, revealed=True, cases=cases)


def hidden_tests_out(submission_id: str, reveal: Reveal) -> HiddenTestsOut:
    return HiddenTestsOut(
        submission=submission_id,
        reveals=reveal.enabled,
        revealed=reveal.revealed,
        cases=[
            HiddenCaseOut(
                name=c.name,
                inputs=dict(c.inputs),
                expected=c.expected,
                status=c.status or None,
                message=c.message,
                full_message=c.full_message,
            )
            for c in reveal.cases
        ],
    )
