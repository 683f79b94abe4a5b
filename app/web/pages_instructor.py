"""The instructor's pages: the gradebook (and its CSV), the submissions (filtered by learner,
exercise and assignment), one learner's record, validation."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response, status
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import RedirectResponse

from app.api.deps import SessionDep
from app.api.downloads import csv_download
from app.services import assignments, history, learner_record, roster, translations, validation
from app.services.exercises import exercise_list, visible_exercises
from app.services.gradebook import wide_csv
from app.services.standings.load import exercise_gradebook, max_points
from app.web import i18n
from app.web.deps import CatalogDep, InstructorDep
from app.web.errors import WebRoute, assignment_not_found, learner_not_found
from app.web.pages_assignments import schedule_clock
from app.web.pages_learn import VERDICT_NAMES, load_exercise
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
            "rows": exercise_gradebook(
                session=db,
                catalog=catalog,
                exercise_ids=[e.id for e in listing.exercises],
                section=section or None,
            ),
        },
    )


@router.get("/gradebook.csv")
def gradebook_export(
    user: InstructorDep, db: SessionDep, catalog: CatalogDep, section: str = ""
) -> Response:
    exercises = visible_exercises(catalog, user)
    maxima = {e.id: max_points(catalog, e) for e in exercises}
    rows = exercise_gradebook(
        session=db,
        catalog=catalog,
        exercise_ids=[e.id for e in exercises],
        section=section or None,
    )
    body = wide_csv(rows, exercises, maxima)
    name = f"numjudge-gradebook-{section}" if section else "numjudge-gradebook"
    return csv_download(body, f"{name}.csv")


@router.get("/exercises/{exercise_id}")
def exercise_submissions(exercise_id: str, _: InstructorDep) -> Response:
    """The submission list's older address: the list, filtered to the exercise."""
    return RedirectResponse(
        f"/instructor/submissions?{history.SubmissionFilter(exercise=exercise_id).query()}",
        status_code=status.HTTP_307_TEMPORARY_REDIRECT,
    )


@router.get("/submissions")
def submissions_page(
    request: Request,
    user: InstructorDep,
    db: SessionDep,
    catalog: CatalogDep,
    learner: str = "",
    exercise: str = "",
    assignment: str = "",
) -> Response:
    chosen = history.SubmissionFilter(learner.strip(), exercise, assignment)
    shown = load_exercise(catalog, exercise, user) if exercise else None
    try:
        listed = history.graded_submissions(
            session=db, catalog=catalog, chosen=chosen, limit=SUBMISSIONS_LIMIT
        )
    except assignments.LearnerNotFound:
        raise learner_not_found(chosen.learner) from None
    except assignments.AssignmentNotFound:
        raise assignment_not_found(assignment) from None
    return render(
        request,
        "instructor/submissions.html",
        {
            "nav": "gradebook",
            "exercise": shown,
            "chosen": chosen,
            "listed": listed,
            "limit": SUBMISSIONS_LIMIT,
            "exercises": visible_exercises(catalog, user),
            "learners": roster.learner_names(session=db),
        },
    )


@router.get("/learners/{name}")
def learner_page(
    request: Request, name: str, _: InstructorDep, db: SessionDep, catalog: CatalogDep
) -> Response:
    clock = schedule_clock(catalog.schedule())
    lang = i18n.preferred_language(request)
    try:
        record = learner_record.learner_record(
            session=db, catalog=catalog, name=name, now=clock["now"], lang=lang
        )
    except assignments.LearnerNotFound:
        raise learner_not_found(name) from None
    return render(
        request,
        "instructor/learner.html",
        {
            "nav": "assignments",
            "record": record,
            "verdict_names": VERDICT_NAMES,
            "full_feedback": True,
            "result_words": lambda sub: translations.result_words(
                sub,
                translations.exercise_words(catalog, sub.exercise_id, lang),
                instructor=True,
            ),
            "record_limit": learner_record.RECORD_LIMIT,
            **clock,
        },
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
