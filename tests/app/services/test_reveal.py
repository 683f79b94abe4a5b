"""When an assignment's hidden tests are revealed (app/services/reveal.py): once it has closed
for everyone, every extension included, and never while late work still scores."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
from sqlalchemy.orm import Session

from app.models import Role
from app.services.reveal import MAX_VALUE_CHARS, as_text, closed_for_everyone
from app.store import accounts as account_store
from app.store import extensions as extension_store
from graders.api import Assignment, LatePolicy, LatePolicyKind

DUE = datetime(2026, 12, 8, 23, 0, tzinfo=UTC)


def assignment(late: LatePolicy) -> Assignment:
    return Assignment(
        "shown", "Shown", DUE - timedelta(days=7), DUE, late, (), reveal_hidden_after_close=True
    )


def test_a_cutoff_closes_at_the_last_due_time_of_anyone(db: Session) -> None:
    cutoff = assignment(LatePolicy())
    assert not closed_for_everyone(session=db, assignment=cutoff, now=DUE)
    assert closed_for_everyone(session=db, assignment=cutoff, now=DUE + timedelta(seconds=1))
    ada = account_store.create_user(session=db, name="ada", role=Role.LEARNER)
    extension_store.set_extension(
        session=db, user=ada, assignment_id="shown", due=DUE + timedelta(days=2), granted_by="t"
    )
    db.flush()
    assert not closed_for_everyone(session=db, assignment=cutoff, now=DUE + timedelta(days=1))
    assert closed_for_everyone(session=db, assignment=cutoff, now=DUE + timedelta(days=2, hours=1))


def test_a_penalty_closes_once_late_work_scores_nothing_and_a_floor_never(db: Session) -> None:
    half = assignment(LatePolicy(LatePolicyKind.PENALTY, per_day=0.5, floor=0.0))
    assert not closed_for_everyone(session=db, assignment=half, now=DUE + timedelta(days=1))
    assert closed_for_everyone(session=db, assignment=half, now=DUE + timedelta(days=1, hours=1))
    floored = assignment(LatePolicy(LatePolicyKind.PENALTY, per_day=0.5, floor=0.2))
    assert not closed_for_everyone(session=db, assignment=floored, now=DUE + timedelta(days=400))


def test_values_are_shown_as_numpy_prints_them_long_ones_summarised() -> None:
    assert as_text(np.array([1.5, 2.0])) == "array([1.5, 2. ])"
    long = as_text(np.arange(10_000.0))
    assert "..." in long and len(long) < 200
    assert (
        as_text("x" * 10_000).endswith(" …") and len(as_text("x" * 10_000)) == MAX_VALUE_CHARS + 2
    )
