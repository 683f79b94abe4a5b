"""``POST /submit``, ``POST /run``, ``GET /submissions/{id}`` (its reports, its hidden tests
once revealed), ``GET /submissions``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, status

from app.api.deps import (
    CatalogDep,
    CredentialsDep,
    CurrentUser,
    ReaderLanguage,
    RuntimeDep,
    SessionDep,
    SettingsDep,
    VisibleSubmission,
)
from app.models import SubmissionKind, utcnow
from app.schemas import (
    ErrorOut,
    HiddenTestsOut,
    ReportOut,
    SubmissionIn,
    SubmissionOut,
    SubmissionSummary,
)
from app.services import history, regrades, reveal, translations, views
from app.services import submissions as service
from app.services.standings import load as standings

router = APIRouter(tags=["submissions"])

ERRORS: dict[int | str, dict[str, Any]] = {
    status.HTTP_401_UNAUTHORIZED: {"model": ErrorOut, "description": "no or bad token"},
    status.HTTP_403_FORBIDDEN: {
        "model": ErrorOut,
        "description": "the schedule's graded submissions of this exercise are used up (a "
        "submit): final, no retry is accepted",
    },
    status.HTTP_404_NOT_FOUND: {"model": ErrorOut, "description": "unknown exercise"},
    status.HTTP_413_CONTENT_TOO_LARGE: {"model": ErrorOut, "description": "code too large"},
    status.HTTP_422_UNPROCESSABLE_CONTENT: {
        "model": ErrorOut,
        "description": "empty code, a bad body, or a reused Idempotency-Key",
    },
    status.HTTP_429_TOO_MANY_REQUESTS: {
        "model": ErrorOut,
        "description": "over a per-learner limit (waiting, rate) or the schedule's pace (graded "
        "submissions per day, cooldown); the detail says which, Retry-After when to retry",
    },
}
WaitQuery = Annotated[
    float,
    Query(
        ge=0,
        description="hold the answer up to this many seconds "
        "(at most 30) until the result is final",
    ),
]
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=64,
        description="a client-chosen key: sending the same key again answers the submission it "
        "made instead of making another",
    ),
]


@router.post(
    "/submit",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=SubmissionOut,
    responses=ERRORS,
    summary="Submit code for grading on every case",
)
async def submit(
    body: SubmissionIn,
    credentials: CredentialsDep,
    runtime: RuntimeDep,
    lang: ReaderLanguage,
    wait: WaitQuery = 0,
    idempotency_key: IdempotencyKey = None,
) -> SubmissionOut:
    """Queues the code; answers at once (``status: queued``) or, with ``?wait=``, when done."""
    result = await service.accept_and_wait(
        runtime=runtime,
        credentials=credentials,
        exercise_id=body.exercise,
        code=body.code,
        kind=SubmissionKind.SUBMIT,
        wait_s=wait,
        idempotency_key=idempotency_key,
    )
    return translations.localised_result(result, runtime.catalog, lang)


@router.post(
    "/run",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=SubmissionOut,
    responses=ERRORS,
    summary="Try code on the public cases (never scored)",
)
async def run(
    body: SubmissionIn,
    credentials: CredentialsDep,
    runtime: RuntimeDep,
    lang: ReaderLanguage,
    wait: WaitQuery = 0,
    idempotency_key: IdempotencyKey = None,
) -> SubmissionOut:
    """Grades the public cases only and shows what the code printed; kept in the history."""
    result = await service.accept_and_wait(
        runtime=runtime,
        credentials=credentials,
        exercise_id=body.exercise,
        code=body.code,
        kind=SubmissionKind.RUN,
        wait_s=wait,
        idempotency_key=idempotency_key,
    )
    return translations.localised_result(result, runtime.catalog, lang)


@router.get(
    "/submissions/{submission_id}",
    response_model=SubmissionOut,
    responses={404: {"model": ErrorOut, "description": "unknown or not yours"}},
)
def get_submission(
    submission: VisibleSubmission, session: SessionDep, catalog: CatalogDep, lang: ReaderLanguage
) -> SubmissionOut:
    """One result; a learner sees only their own, an instructor sees all. ``late`` and
    ``counts_for``: what its assignment makes of a graded submission."""
    return translations.localised_result(
        service.answer(session, catalog, submission), catalog, lang
    )


@router.get(
    "/submissions/{submission_id}/reports",
    response_model=list[ReportOut],
    responses={404: {"model": ErrorOut, "description": "unknown or not yours"}},
)
def get_reports(submission: VisibleSubmission, session: SessionDep) -> list[ReportOut]:
    """Every report the submission had, oldest first: a regrade keeps the earlier ones."""
    return regrades.reports(session=session, submission=submission)


@router.get(
    "/submissions/{submission_id}/hidden",
    response_model=HiddenTestsOut,
    responses={404: {"model": ErrorOut, "description": "unknown or not yours"}},
)
def get_hidden_tests(
    submission: VisibleSubmission, session: SessionDep, catalog: CatalogDep
) -> HiddenTestsOut:
    """The hidden tests' inputs and expected outputs, once the submission's assignment closed
    for everyone (``reveal_hidden_after_close``); ``revealed`` false and no case before."""
    shown = reveal.hidden_tests(
        session=session, catalog=catalog, submission=submission, now=utcnow()
    )
    return reveal.hidden_tests_out(submission.id, shown)


@router.get("/submissions", response_model=list[SubmissionSummary])
def list_submissions(
    session: SessionDep,
    user: CurrentUser,
    settings: SettingsDep,
    catalog: CatalogDep,
    exercise: Annotated[str | None, Query(description="only this exercise")] = None,
    limit: Annotated[int | None, Query(ge=1, le=1000)] = None,
    kind: Annotated[SubmissionKind | None, Query(description="submit or run")] = None,
) -> list[SubmissionSummary]:
    """Your own history, newest first; ``late`` marks graded submissions made after your due
    time."""
    rows = history.own_history(
        session=session,
        user=user,
        exercise_id=exercise,
        kind=kind,
        limit=limit or settings.history_limit,
    )
    late = standings.late_submissions(
        session=session, schedule=catalog.schedule(), submissions=rows
    )
    return [views.submission_summary(row, late=row.id in late) for row in rows]
