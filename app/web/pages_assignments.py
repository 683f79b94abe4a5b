"""The assignment pages (/course, the schedule in course.toml): a learner's assignments; an
instructor's gradebooks per assignment and overall, extensions, the class view of an
exercise, and regrades."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request, Response, status
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import RedirectResponse

from app.api.deps import RuntimeDep, SessionDep
from app.api.downloads import csv_download, file_download
from app.models import utcnow
from app.services import (
    analytics,
    archive,
    assignments,
    extensions,
    gradebook,
    mining,
    regrades,
    roster,
    translations,
)
from app.services.lti import passback
from app.services.standings import load as standings
from app.web import i18n
from app.web.deps import CatalogDep, CsrfForm, InstructorDep, UserDep, WebDep, check_csrf
from app.web.errors import PageError, WebRoute, assignment_not_found
from app.web.i18n import N_
from app.web.templating import render
from graders.api import Assignment, AssignmentSchedule, ExerciseCatalog, words_in

router = APIRouter(route_class=WebRoute, include_in_schema=False)

SHOWN_GROUPS = 10
"""Groups of wrong answers without a hint listed on the class view, the largest first."""

FormStr = Annotated[str, Form()]


def _assignment(catalog: ExerciseCatalog, assignment_id: str) -> Assignment:
    try:
        return assignments.get_assignment(catalog.schedule(), assignment_id)
    except assignments.AssignmentNotFound:
        raise assignment_not_found(assignment_id) from None


def schedule_clock(schedule: AssignmentSchedule) -> dict[str, Any]:
    """What pages showing due times need: the schedule's zone and the time now."""
    return {"zone": schedule.zone, "zone_name": schedule.timezone, "now": utcnow()}


@router.get("/course")
def assignments_page(
    request: Request, user: UserDep, db: SessionDep, catalog: CatalogDep
) -> Response:
    now = utcnow()
    own = standings.learner_standings(session=db, catalog=catalog, user=user, now=now)
    lang = i18n.preferred_language(request)
    return render(
        request,
        "assignments.html",
        {
            "nav": "assignments",
            "standings": own,
            "exercise_titles": {e.id: words_in(e, lang).title for e in catalog.all()},
            **schedule_clock(catalog.schedule()),
        },
    )


@router.get("/instructor/assignments")
def overall_gradebook_page(
    request: Request, _: InstructorDep, db: SessionDep, catalog: CatalogDep, section: str = ""
) -> Response:
    table = standings.overall_gradebook(
        session=db, catalog=catalog, now=utcnow(), section=section or None
    )
    return render(
        request,
        "instructor/assignments.html",
        {
            "nav": "assignments",
            "table": table,
            "section": section,
            "sections": roster.sections(session=db),
            **schedule_clock(catalog.schedule()),
        },
    )


@router.get("/instructor/assignments.csv")
def overall_gradebook_csv(
    _: InstructorDep, db: SessionDep, catalog: CatalogDep, section: str = ""
) -> Response:
    table = standings.overall_gradebook(
        session=db, catalog=catalog, now=utcnow(), section=section or None
    )
    return csv_download(
        gradebook.write_csv(gradebook.overall_csv_rows(table)), "numjudge-assignments.csv"
    )


@router.get("/instructor/assignments/{assignment_id}.csv")
def assignment_gradebook_csv(
    assignment_id: str, _: InstructorDep, db: SessionDep, catalog: CatalogDep, section: str = ""
) -> Response:
    assignment = _assignment(catalog, assignment_id)
    rows = standings.assignment_gradebook(
        session=db,
        catalog=catalog,
        assignment=assignment,
        now=utcnow(),
        section=section or None,
    )
    return csv_download(
        gradebook.write_csv(
            gradebook.assignment_csv_rows(assignment, rows, catalog.schedule().zone)
        ),
        f"numjudge-{assignment.id}.csv",
    )


@router.get("/instructor/assignments/{assignment_id}/submissions.zip")
def assignment_archive(
    assignment_id: str,
    _: InstructorDep,
    db: SessionDep,
    catalog: CatalogDep,
    pick: archive.ArchivePick = archive.ArchivePick.BEST,
    section: str = "",
) -> Response:
    """Every learner's last or counted submission to each exercise, with code and feedback."""
    assignment = _assignment(catalog, assignment_id)
    file = archive.assignment_archive(
        session=db,
        catalog=catalog,
        assignment_id=assignment.id,
        pick=pick,
        section=section or None,
    )
    return file_download(
        file, f"{archive.archive_name(assignment.id, pick)}.zip", "application/zip"
    )


@router.get("/instructor/assignments/{assignment_id}")
def assignment_gradebook_page(
    request: Request,
    assignment_id: str,
    _: InstructorDep,
    db: SessionDep,
    catalog: CatalogDep,
    section: str = "",
) -> Response:
    assignment = _assignment(catalog, assignment_id)
    now = utcnow()
    rows = standings.assignment_gradebook(
        session=db, catalog=catalog, assignment=assignment, now=now, section=section or None
    )
    view = analytics.load_assignment_analytics(
        session=db, catalog=catalog, assignment=assignment, now=now
    )
    return render(
        request,
        "instructor/assignment.html",
        {
            "nav": "assignments",
            "assignment": assignment,
            "rows": rows,
            "view": view,
            "section": section,
            "sections": roster.sections(session=db),
            "chart": analytics.completion_chart(view),
            "budget": catalog.schedule().budget_of(assignment),
            **schedule_clock(catalog.schedule()),
        },
    )


@router.post("/instructor/assignments/{assignment_id}/extensions")
def extend_page(
    assignment_id: str,
    web: WebDep,
    runtime: RuntimeDep,
    user: InstructorDep,
    db: SessionDep,
    catalog: CatalogDep,
    learner: FormStr = "",
    until: FormStr = "",
    remove: FormStr = "",
    csrf_token: CsrfForm = "",
) -> Response:
    check_csrf(web, csrf_token)
    schedule = catalog.schedule()
    assignment = _assignment(catalog, assignment_id)
    try:
        target = assignments.find_user(session=db, name=learner)
    except assignments.LearnerNotFound:
        raise PageError(
            status.HTTP_400_BAD_REQUEST,
            N_("No such learner"),
            N_("There is no learner {name}."),
            name=repr(learner),
        ) from None
    if remove:
        extensions.remove_extension(session=db, learner=target, assignment=assignment)
    else:
        try:
            due = datetime.fromisoformat(until)
        except ValueError:
            raise PageError(
                status.HTTP_400_BAD_REQUEST,
                N_("Not a date and time"),
                N_("Give the new due time as a date and a time, such as {example}."),
                example="2026-12-20T23:59",
            ) from None
        if due.tzinfo is None:  # the form's datetime-local: the schedule's time zone
            due = due.replace(tzinfo=schedule.zone)
        try:
            extensions.extend(
                session=db, learner=target, assignment=assignment, due=due, granted_by=user.name
            )
        except extensions.ExtensionRefused as refused:
            raise PageError(
                status.HTTP_400_BAD_REQUEST,
                N_("Not an extension"),
                N_("The new due time is refused: {reason}."),
                reason=str(refused),
            ) from None
    # The LMS's gradebook follows the learner's new due time (committed first: the passback
    # reads it in a session of its own).
    db.commit()
    passback.request(runtime, user_id=target.id, exercise_ids=assignment.exercise_ids, at=utcnow())
    return RedirectResponse(
        f"/instructor/assignments/{assignment.id}", status_code=status.HTTP_303_SEE_OTHER
    )


@router.get("/instructor/analytics/{exercise_id}")
def class_view_page(
    request: Request,
    exercise_id: str,
    _: InstructorDep,
    db: SessionDep,
    catalog: CatalogDep,
    regraded: int | None = None,
    mistake: str = "",
) -> Response:
    words = translations.exercise_words(catalog, exercise_id, i18n.preferred_language(request))
    view = analytics.in_words(
        analytics.load_exercise_analytics(session=db, catalog=catalog, exercise_id=exercise_id),
        words,
    )
    stale = next(
        s
        for s in regrades.stale_exercises(session=db, catalog=catalog)
        if s.exercise_id == view.exercise_id
    )
    return render(
        request,
        "instructor/analytics.html",
        {
            "nav": "gradebook",
            "view": view,
            "stale": stale,
            "regraded": regraded,
            "charts": analytics.exercise_charts(view),
            "mined": mining.mine(session=db, catalog=catalog, exercise_id=view.exercise_id),
            "shown_groups": SHOWN_GROUPS,
            "case_titles": words.cases,
            "mistake": mistake,
        },
    )


@router.get("/instructor/analytics/{exercise_id}/{table}.csv")
def class_view_csv(
    exercise_id: str, table: str, _: InstructorDep, db: SessionDep, catalog: CatalogDep
) -> Response:
    view = analytics.load_exercise_analytics(session=db, catalog=catalog, exercise_id=exercise_id)
    tables = analytics.exercise_tables(view)
    if table not in tables:
        raise PageError(
            status.HTTP_404_NOT_FOUND,
            N_("No such table"),
            N_("The class view has no table {table}."),
            table=repr(table),
        )
    return csv_download(
        gradebook.write_csv(tables[table]), f"numjudge-{view.exercise_id}-{table}.csv"
    )


@router.post("/instructor/regrades/{exercise_id}")
async def regrade_page(
    exercise_id: str, web: WebDep, _: InstructorDep, runtime: RuntimeDep, csrf_token: CsrfForm = ""
) -> Response:
    check_csrf(web, csrf_token)
    queued = await run_in_threadpool(regrades.regrade, runtime=runtime, exercise_id=exercise_id)
    return RedirectResponse(
        f"/instructor/analytics/{exercise_id}?regraded={queued}",
        status_code=status.HTTP_303_SEE_OTHER,
    )
