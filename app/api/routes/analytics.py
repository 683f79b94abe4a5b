"""``GET /analytics/exercises/{id}`` and ``GET /analytics/assignments/{id}``: the class view as
JSON (instructors only)."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import CatalogDep, InstructorUser, SessionDep
from app.models import utcnow
from app.schemas import AssignmentAnalyticsOut, ErrorOut, ExerciseAnalyticsOut
from app.services import analytics
from app.services.assignments import get_assignment

router = APIRouter(
    prefix="/analytics",
    tags=["analytics"],
    responses={403: {"model": ErrorOut, "description": "not an instructor"}},
)


@router.get(
    "/exercises/{exercise_id}",
    response_model=ExerciseAnalyticsOut,
    responses={404: {"model": ErrorOut, "description": "unknown exercise"}},
)
def exercise_analytics(
    exercise_id: str, session: SessionDep, catalog: CatalogDep, _: InstructorUser
) -> ExerciseAnalyticsOut:
    """Best-score bands, pass rate per test, diagnosed mistakes by day, time to full marks."""
    return analytics.exercise_out(
        analytics.load_exercise_analytics(session=session, catalog=catalog, exercise_id=exercise_id)
    )


@router.get(
    "/assignments/{assignment_id}",
    response_model=AssignmentAnalyticsOut,
    responses={404: {"model": ErrorOut, "description": "unknown assignment"}},
)
def assignment_analytics(
    assignment_id: str, session: SessionDep, catalog: CatalogDep, _: InstructorUser
) -> AssignmentAnalyticsOut:
    """Learners complete by day, and the share of submissions after their due time."""
    return analytics.assignment_out(
        analytics.load_assignment_analytics(
            session=session,
            catalog=catalog,
            assignment=get_assignment(catalog.schedule(), assignment_id),
            now=utcnow(),
        )
    )
