"""The similarity reports (instructors only): ask for one, read it, its CSV, and one pair side by
side; the work is in app/services/similarity_jobs.py."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request, Response, status
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import RedirectResponse

from app.api.deps import RuntimeDep, SessionDep
from app.api.downloads import csv_download
from app.models import WorkScope
from app.services import similarity_jobs
from app.services.assignments import AssignmentNotFound
from app.services.errors import NotFound
from app.services.gradebook import write_csv
from app.services.similarity import (
    MAX_ANSWER_CHARS,
    MIN_FLAGGED,
    MIN_FLAGGED_BOTH,
    MIN_FLAGGED_STRUCTURE,
    NEAR_IDENTICAL,
    FlagKind,
    Measure,
)
from app.web.deps import CatalogDep, CsrfForm, InstructorDep, WebDep, check_csrf
from app.web.errors import PageError, WebRoute, assignment_not_found, exercise_not_found
from app.web.i18n import N_
from app.web.templating import render
from graders.api import ExerciseNotFound

router = APIRouter(prefix="/instructor/similarity", route_class=WebRoute, include_in_schema=False)

SHOWN_PAIRS = 50
"""Pairs listed per exercise on the page (every flagged one too); the CSV has them all."""
MEASURE_NAMES = {
    Measure.TOKENS: N_("tokens"),
    Measure.STRUCTURE: N_("structure"),
    Measure.BOTH: N_("tokens and structure together"),
}
FLAG_NAMES = {FlagKind.NEAR_IDENTICAL: N_("near-identical"), FlagKind.OUTLIER: N_("outlier")}
NAMES = {"measure_names": MEASURE_NAMES, "flag_names": FLAG_NAMES}


def _report(db: SessionDep, report_id: str) -> similarity_jobs.ReportView:
    try:
        return similarity_jobs.load_view(session=db, report_id=report_id)
    except NotFound:
        raise PageError(
            status.HTTP_404_NOT_FOUND,
            N_("No such report"),
            N_("There is no similarity report {report}."),
            report=repr(report_id),
        ) from None


@router.get("")
def similarity_index(
    request: Request, _: InstructorDep, db: SessionDep, catalog: CatalogDep
) -> Response:
    return render(
        request,
        "instructor/similarity_index.html",
        {
            "nav": "assignments",
            "assignments": catalog.schedule().assignments,
            "exercises": catalog.all(),
            "reports": similarity_jobs.recent(session=db),
        },
    )


@router.post("")
async def similarity_request(
    web: WebDep,
    user: InstructorDep,
    runtime: RuntimeDep,
    csrf_token: CsrfForm = "",
    scope: Annotated[WorkScope, Form()] = WorkScope.EXERCISE,
    target: Annotated[str, Form()] = "",
) -> Response:
    check_csrf(web, csrf_token)
    try:
        report_id = await run_in_threadpool(
            similarity_jobs.request_report,
            runtime=runtime,
            scope=scope,
            target=target,
            requested_by=user.name,
        )
    except ExerciseNotFound:
        raise exercise_not_found(target) from None
    except AssignmentNotFound:
        raise assignment_not_found(target) from None
    return RedirectResponse(
        f"/instructor/similarity/{report_id}", status_code=status.HTTP_303_SEE_OTHER
    )


@router.get("/{report_id}")
def similarity_report(
    request: Request, report_id: str, _: InstructorDep, db: SessionDep
) -> Response:
    report = _report(db, report_id)
    return render(
        request,
        "instructor/similarity.html",
        {
            "nav": "assignments",
            "report": report,
            "names": similarity_jobs.learner_names(session=db, report=report),
            "shown": SHOWN_PAIRS,
            "floors": {
                "tokens": MIN_FLAGGED,
                "structure": MIN_FLAGGED_STRUCTURE,
                "both": MIN_FLAGGED_BOTH,
            },
            "near_identical": NEAR_IDENTICAL,
            "measure_labels": {m.value: name for m, name in MEASURE_NAMES.items()},
            "max_chars": MAX_ANSWER_CHARS,
            **NAMES,
        },
    )


@router.get("/{report_id}/pairs.csv")
def similarity_csv(report_id: str, _: InstructorDep, db: SessionDep) -> Response:
    report = _report(db, report_id)
    name = f"numjudge-similarity-{report.target}"
    names = similarity_jobs.learner_names(session=db, report=report)
    rows = similarity_jobs.csv_rows(report.sections, names)
    return csv_download(write_csv(rows), f"{name}.csv")


@router.get("/{report_id}/{exercise_id}/{rank}")
def similarity_pair(
    request: Request, report_id: str, exercise_id: str, rank: int, _: InstructorDep, db: SessionDep
) -> Response:
    report = _report(db, report_id)
    try:
        pair = similarity_jobs.pair_view(
            session=db, report=report, exercise_id=exercise_id, rank=rank
        )
    except NotFound:
        raise PageError(
            status.HTTP_404_NOT_FOUND,
            N_("No such pair"),
            N_("The report has no pair {rank} for {exercise}."),
            rank=str(rank),
            exercise=exercise_id,
        ) from None
    return render(
        request,
        "instructor/similarity_pair.html",
        {
            "nav": "assignments",
            "report": report,
            "view": pair,
            "rank": rank,
            "names": similarity_jobs.learner_names(session=db, report=report),
            **NAMES,
        },
    )
