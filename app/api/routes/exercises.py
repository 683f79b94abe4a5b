"""``GET /exercises`` and ``GET /exercises/{id}``: what a learner may see of an exercise."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.api.deps import OPTIONAL_AUTH, CatalogDep, CurrentUser, OptionalUser, SessionDep
from app.models import utcnow
from app.schemas import ErrorOut, ExerciseDetail, ExerciseSummary, SubmissionBudgetOut
from app.services import budgets
from app.services import exercises as service

router = APIRouter(prefix="/exercises", tags=["exercises"])


@router.get("", response_model=list[ExerciseSummary], openapi_extra=OPTIONAL_AUTH)
def list_exercises(catalog: CatalogDep, user: OptionalUser) -> list[ExerciseSummary]:
    """Every exercise, course after course and each course in its order (re-read from disk
    when a folder changes); drafts and exercises of assignments not open yet only for
    instructors."""
    listing = service.exercise_list(catalog, user)
    return [service.summary(e, group.course) for group in listing.courses for e in group.exercises]


@router.get(
    "/{exercise_id}",
    response_model=ExerciseDetail,
    openapi_extra=OPTIONAL_AUTH,
    responses={404: {"model": ErrorOut, "description": "unknown exercise"}},
)
def get_exercise(
    exercise_id: str,
    catalog: CatalogDep,
    user: OptionalUser,
    lang: Annotated[str, Query(description="statement language; falls back to en")] = "en",
) -> ExerciseDetail:
    """Statement and theory (markdown and HTML), starter code and public case names."""
    return service.detail(catalog, exercise_id, user, lang)


@router.get(
    "/{exercise_id}/budget",
    response_model=SubmissionBudgetOut,
    responses={404: {"model": ErrorOut, "description": "unknown exercise"}},
)
def get_budget(
    exercise_id: str, session: SessionDep, catalog: CatalogDep, user: CurrentUser
) -> SubmissionBudgetOut:
    """The user's graded submissions left to the exercise, and when the next is possible."""
    exercise = service.load_visible(catalog, exercise_id, user)
    budget = budgets.submission_budget(
        session=session, catalog=catalog, user=user, exercise_id=exercise.id, now=utcnow()
    )
    return budgets.budget_out(exercise.id, budget)
