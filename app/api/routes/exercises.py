"""``GET /exercises``, ``GET /exercises/{id}``: what a learner may see of an exercise;
``GET /exercises/{id}/public-inputs``: its public cases' inputs, for a client's guard;
``POST /exercises/{id}/try``: its entry function called on the learner's own inputs."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, status

from app.api.deps import (
    OPTIONAL_AUTH,
    CatalogDep,
    CurrentUser,
    OptionalUser,
    ReaderLanguage,
    RuntimeDep,
    SessionDep,
)
from app.models import utcnow
from app.schemas import (
    ErrorOut,
    ExerciseDetail,
    ExerciseSummary,
    PublicInputsOut,
    SubmissionBudgetOut,
    TryIn,
    TryOut,
)
from app.services import budgets, custom_inputs, public_inputs
from app.services import exercises as service
from graders.api import translate_message

router = APIRouter(prefix="/exercises", tags=["exercises"])


@router.get("", response_model=list[ExerciseSummary], openapi_extra=OPTIONAL_AUTH)
def list_exercises(
    catalog: CatalogDep, user: OptionalUser, lang: ReaderLanguage
) -> list[ExerciseSummary]:
    """Every exercise, course after course and each course in its order (re-read from disk
    when a folder changes); drafts and exercises of assignments not open yet only for
    instructors. Titles in the reader's language where the exercise has it, else English."""
    listing = service.exercise_list(catalog, user)
    return [
        service.summary(e, group.course, lang) for group in listing.courses for e in group.exercises
    ]


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
    db: SessionDep,
    lang: Annotated[str, Query(description="statement language; falls back to en")] = "en",
) -> ExerciseDetail:
    """Statement and theory (markdown and HTML), starter code and public case names."""
    return service.detail(db, catalog, exercise_id, user, lang)


@router.get(
    "/{exercise_id}/public-inputs",
    response_model=PublicInputsOut,
    openapi_extra=OPTIONAL_AUTH,
    responses={404: {"model": ErrorOut, "description": "unknown exercise"}},
)
def get_public_inputs(
    exercise_id: str, catalog: CatalogDep, user: OptionalUser, db: SessionDep
) -> PublicInputsOut:
    """The public cases' inputs (as the exercise page shows them), so that a client can check
    that the code it sends computes what the learner's own function computes."""
    return public_inputs.public_inputs(db, catalog, exercise_id, user)


@router.post(
    "/{exercise_id}/try",
    response_model=TryOut,
    responses={
        status.HTTP_403_FORBIDDEN: {
            "model": ErrorOut,
            "description": "the exercise does not take custom inputs",
        },
        status.HTTP_404_NOT_FOUND: {"model": ErrorOut, "description": "unknown exercise"},
        status.HTTP_413_CONTENT_TOO_LARGE: {"model": ErrorOut, "description": "code too large"},
        status.HTTP_422_UNPROCESSABLE_CONTENT: {
            "model": ErrorOut,
            "description": "empty code, or an input that is refused (the detail names it and "
            "the position)",
        },
        status.HTTP_429_TOO_MANY_REQUESTS: {
            "model": ErrorOut,
            "description": "over the learner's rate of runs, a try of the learner's still "
            "running, or as many tries running as the server allows; see Retry-After",
        },
    },
    summary="Call the entry function and the reference on inputs of your own",
)
def try_custom_inputs(
    exercise_id: str,
    body: TryIn,
    user: CurrentUser,
    session: SessionDep,
    runtime: RuntimeDep,
    lang: ReaderLanguage,
) -> TryOut:
    """Never a submission and never a case: the learner's inputs, their output and the
    reference's, with the same comparison message as a test (in the reader's language)."""
    report = custom_inputs.try_inputs(
        runtime=runtime,
        session=session,
        user=user,
        exercise_id=exercise_id,
        code=body.code,
        inputs=body.inputs,
    )
    shown = report.to_dict() | {"message": translate_message(report.message, lang)}
    return TryOut.model_validate(shown)


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
