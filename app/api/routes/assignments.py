"""``GET /assignments`` and ``GET /assignments/{id}``: the course's assignments, with progress."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import CatalogDep, CurrentUser, SessionDep
from app.models import utcnow
from app.schemas import AssignmentOut, ErrorOut
from app.services import courses

router = APIRouter(prefix="/assignments", tags=["assignments"])


@router.get("", response_model=list[AssignmentOut])
def list_assignments(
    session: SessionDep, catalog: CatalogDep, user: CurrentUser
) -> list[AssignmentOut]:
    """Every assignment in course order, with due time, time left, state and score."""
    now = utcnow()
    return [
        courses.assignment_out(s, now)
        for s in courses.learner_standings(session=session, catalog=catalog, user=user, now=now)
    ]


@router.get(
    "/{assignment_id}",
    response_model=AssignmentOut,
    responses={404: {"model": ErrorOut, "description": "unknown assignment"}},
)
def get_assignment(
    assignment_id: str, session: SessionDep, catalog: CatalogDep, user: CurrentUser
) -> AssignmentOut:
    """One assignment with the user's best share of each exercise."""
    now = utcnow()
    return courses.assignment_out(
        courses.learner_standing(
            session=session, catalog=catalog, user=user, assignment_id=assignment_id, now=now
        ),
        now,
    )
