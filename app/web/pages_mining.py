"""Mistakes mined from submissions (instructors only): one group of alike wrong submissions
that no hint explained, and the form that makes its representative a mistake of the exercise
with the instructor's hint (app/services/mining.py). The class view lists the groups."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request, Response, status
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import RedirectResponse

from app.api.deps import RuntimeDep, SessionDep
from app.runtime.engine import background_priority
from app.services import mining
from app.services.errors import NotFound
from app.web.deps import CatalogDep, CsrfForm, InstructorDep, WebDep, check_csrf
from app.web.errors import PageError, WebRoute
from app.web.i18n import N_
from app.web.templating import render

router = APIRouter(prefix="/instructor/analytics", route_class=WebRoute, include_in_schema=False)

LANGUAGE_FIELD = "hint_{lang}"
"""The form's field of the hint in one more language of the statement."""


def _no_group(exercise_id: str, key: str) -> PageError:
    return PageError(
        status.HTTP_404_NOT_FOUND,
        N_("No such group"),
        N_(
            "{exercise} has no group {group} of submissions without a hint: a hint may "
            "have been written for it since."
        ),
        exercise=exercise_id,
        group=repr(key),
    )


def _group(mined: mining.MinedExercise, key: str) -> mining.MistakeGroup:
    try:
        return mining.find_group(mined, key)
    except NotFound:
        raise _no_group(mined.exercise_id, key) from None


def _page(
    request: Request,
    mined: mining.MinedExercise,
    group: mining.MistakeGroup,
    *,
    problems: tuple[str, ...] = (),
    name: str = "",
    hints: dict[str, str] | None = None,
) -> Response:
    return render(
        request,
        "instructor/mistake_group.html",
        {
            "nav": "gradebook",
            "mined": mined,
            "group": group,
            "problems": problems,
            "name": name,
            "hints": hints or {},
            "field": LANGUAGE_FIELD,
        },
        status_code=status.HTTP_422_UNPROCESSABLE_CONTENT if problems else status.HTTP_200_OK,
    )


@router.get("/{exercise_id}/mistakes/{key}")
def group_page(
    request: Request,
    exercise_id: str,
    key: str,
    _: InstructorDep,
    db: SessionDep,
    catalog: CatalogDep,
) -> Response:
    mined = mining.mine(session=db, catalog=catalog, exercise_id=exercise_id)
    return _page(request, mined, _group(mined, key))


@router.post("/{exercise_id}/mistakes/{key}")
async def write_hint(
    request: Request,
    exercise_id: str,
    key: str,
    web: WebDep,
    _: InstructorDep,
    db: SessionDep,
    runtime: RuntimeDep,
    csrf_token: CsrfForm = "",
    name: Annotated[str, Form()] = "",
    hint: Annotated[str, Form()] = "",
    reviewed: Annotated[str, Form()] = "",
) -> Response:
    check_csrf(web, csrf_token)
    form = await request.form()
    languages = mining.other_languages(runtime.catalog.load(exercise_id))
    translated = {lang: str(form.get(LANGUAGE_FIELD.format(lang=lang), "")) for lang in languages}
    try:
        outcome, mined = await run_in_threadpool(
            lambda: mining.write_hint(
                session=db,
                catalog=runtime.catalog,
                limits=runtime.settings.sandbox_limits,
                exercise_id=exercise_id,
                group_key=key,
                name=name.strip(),
                hint=hint,
                translated=translated,
                reviewed=reviewed,
            )
        )
    except NotFound:
        raise _no_group(exercise_id, key) from None
    if not outcome.written:
        return _page(
            request,
            mined,
            _group(mined, key),
            problems=outcome.problems,
            name=name,
            hints={"en": hint, **translated},
        )
    mining.rediagnose_in_background(
        sessions=runtime.sessions,
        catalog=runtime.catalog,
        grade=runtime.grade,
        exercise_id=mined.exercise_id,
        mined_version=mined.version,
        batches=mining.rediagnosis_batches(mined, key),
        priority=background_priority(runtime.settings),
    )
    return RedirectResponse(
        f"/instructor/analytics/{mined.exercise_id}?mistake={name.strip()}",
        status_code=status.HTTP_303_SEE_OTHER,
    )
