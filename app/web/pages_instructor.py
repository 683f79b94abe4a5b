"""The instructor's pages: the gradebook (and its CSV), one exercise's submissions, validation."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool

from app import crud
from app.api.deps import SessionDep
from app.models import SubmissionKind
from app.web import exercises_view as view
from app.web.deps import CatalogDep, InstructorDep
from app.web.errors import WebRoute
from app.web.gradebook import gradebook_csv, gradebook_rows
from app.web.pages_learn import load_exercise
from app.web.templating import render
from app.web.validation_view import validate_all

router = APIRouter(prefix="/instructor", route_class=WebRoute, include_in_schema=False)

SUBMISSIONS_LIMIT = 1000


@router.get("/gradebook")
def gradebook_page(request: Request, user: InstructorDep, db: SessionDep,
                   catalog: CatalogDep) -> Response:
    exercises, _problems = view.load_all(catalog, user)
    return render(request, "instructor/gradebook.html", {
        "nav": "gradebook", "exercises": exercises, "rows": gradebook_rows(db)})


@router.get("/gradebook.csv")
def gradebook_export(user: InstructorDep, db: SessionDep, catalog: CatalogDep) -> Response:
    exercises, _problems = view.load_all(catalog, user)
    body = gradebook_csv(gradebook_rows(db), exercises)
    return Response(body, media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": 'attachment; filename="numjudge-gradebook.csv"',
        "Cache-Control": "no-store"})


@router.get("/exercises/{exercise_id}")
def exercise_submissions(request: Request, exercise_id: str, user: InstructorDep, db: SessionDep,
                         catalog: CatalogDep) -> Response:
    exercise = load_exercise(catalog, exercise_id, user)
    submissions = crud.list_submissions(session=db, exercise_id=exercise.id,
                                        kind=SubmissionKind.SUBMIT, limit=SUBMISSIONS_LIMIT)
    return render(request, "instructor/exercise.html", {
        "nav": "gradebook", "exercise": exercise, "submissions": submissions})


@router.get("/validate")
async def validate_page(request: Request, _: InstructorDep, catalog: CatalogDep) -> Response:
    results = await run_in_threadpool(validate_all, catalog.root)
    return render(request, "instructor/validate.html", {"nav": "validate", "results": results})
