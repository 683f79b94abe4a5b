"""The instructor's pages: the gradebook (and its CSV), one exercise's submissions, validation."""

from __future__ import annotations

from urllib.parse import quote

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool

from app.api.deps import SessionDep
from app.services import history, roster, validation
from app.services.exercises import exercise_list, visible_exercises
from app.services.gradebook import gradebook_rows, max_points, wide_csv
from app.web.deps import CatalogDep, InstructorDep
from app.web.errors import WebRoute
from app.web.pages_learn import load_exercise
from app.web.templating import render

router = APIRouter(prefix="/instructor", route_class=WebRoute, include_in_schema=False)

SUBMISSIONS_LIMIT = 1000


@router.get("/gradebook")
def gradebook_page(
    request: Request, user: InstructorDep, db: SessionDep, catalog: CatalogDep, section: str = ""
) -> Response:
    listing = exercise_list(catalog, user)
    return render(
        request,
        "instructor/gradebook.html",
        {
            "nav": "gradebook",
            "courses": listing.courses,
            "exercises": listing.exercises,
            "section": section,
            "sections": roster.sections(session=db),
            "rows": gradebook_rows(session=db, section=section or None),
        },
    )


@router.get("/gradebook.csv")
def gradebook_export(
    user: InstructorDep, db: SessionDep, catalog: CatalogDep, section: str = ""
) -> Response:
    exercises = visible_exercises(catalog, user)
    maxima = {e.id: max_points(catalog, e) for e in exercises}
    body = wide_csv(gradebook_rows(session=db, section=section or None), exercises, maxima)
    name = f"numjudge-gradebook-{section}" if section else "numjudge-gradebook"
    return Response(
        body,
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f"attachment; filename*=UTF-8''{quote(name)}.csv",
            "Cache-Control": "no-store",
        },
    )


@router.get("/exercises/{exercise_id}")
def exercise_submissions(
    request: Request, exercise_id: str, user: InstructorDep, db: SessionDep, catalog: CatalogDep
) -> Response:
    exercise = load_exercise(catalog, exercise_id, user)
    submissions = history.graded_submissions(
        session=db, exercise_id=exercise.id, limit=SUBMISSIONS_LIMIT
    )
    return render(
        request,
        "instructor/exercise.html",
        {"nav": "gradebook", "exercise": exercise, "submissions": submissions},
    )


@router.get("/validate")
async def validate_page(
    request: Request, _: InstructorDep, catalog: CatalogDep, exercise: str | None = None
) -> Response:
    """Every folder's latest result (the rest are checked in the background), or ``exercise``'s
    alone, checked now."""
    if exercise is None:
        results = validation.validation_views(catalog.root)
    else:
        one = await run_in_threadpool(validation.validate_one, catalog.root, exercise)
        results = [] if one is None else [one]
    pending = sum(result.state is validation.ValidationState.PENDING for result in results)
    return render(
        request,
        "instructor/validate.html",
        {
            "nav": "validate",
            "results": results,
            "pending": pending,
            "exercise": exercise,
            "stale": catalog.stale(),
        },
    )
