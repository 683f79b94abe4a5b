"""The learner's pages: the catalog, an exercise, the history and one submission."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from fastapi import APIRouter, Depends, Request, Response, status
from fastapi.responses import RedirectResponse
from sqlalchemy.orm import Session

from app.api.deps import SessionDep
from app.models import Submission, User, utcnow
from app.services import (
    budgets,
    error_pictures,
    history,
    regrades,
    release,
    reveal,
    translations,
    variants,
)
from app.services import exercises as exercises_service
from app.services.exercises import load_visible
from app.services.standings import load as standings
from app.services.standings.rules import ExerciseStanding
from app.web import exercises_view as view
from app.web import i18n
from app.web.deps import CatalogDep, UserDep, WebDep, get_web_context
from app.web.errors import PageError, WebRoute, exercise_not_found
from app.web.i18n import N_
from app.web.pages_account import safe_next
from app.web.pages_assignments import schedule_clock
from app.web.templating import render
from graders.api import (
    CourseFolder,
    Exercise,
    ExerciseCatalog,
    ExerciseError,
    ExerciseNotFound,
    ExerciseWords,
    words_in,
)

router = APIRouter(route_class=WebRoute, include_in_schema=False)

HISTORY_LIMIT = 500
LANG_COOKIE_MAX_AGE_S = 365 * 24 * 3600
VERDICT_NAMES = {
    "passed": N_("Passed"),
    "failed": N_("Failed"),
    "error": N_("Error"),
    "timeout": N_("Time limit exceeded"),
    "memory_limit": N_("Memory limit exceeded"),
    "queued": N_("Queued"),
    "running": N_("Running"),
}


def load_exercise(catalog: ExerciseCatalog, exercise_id: str, user: User | None) -> Exercise:
    try:
        return load_visible(catalog, exercise_id, user)
    except ExerciseNotFound:
        raise exercise_not_found(exercise_id) from None
    except ExerciseError as exc:
        raise PageError(
            status.HTTP_500_INTERNAL_SERVER_ERROR,
            N_("This exercise is broken"),
            N_("Exercise {exercise} cannot be shown; tell your instructor: {problem}"),
            exercise=repr(exercise_id),
            problem=str(exc),
        ) from None


@router.get("/")
def catalog_page(request: Request, web: WebDep, db: SessionDep, catalog: CatalogDep) -> Response:
    listing = exercises_service.exercise_list(catalog, web.user)
    best = (
        standings.own_standings(
            session=db,
            catalog=catalog,
            user=web.user,
            exercise_ids=[e.id for e in listing.exercises],
        )
        if web.user
        else {}
    )
    return render(
        request,
        "catalog.html",
        {
            "nav": "catalog",
            "problems": listing.broken,
            "sections": view.catalog_sections(listing.courses, best),
        },
    )


@router.get("/learn/{exercise_id}")
def exercise_page(
    request: Request,
    exercise_id: str,
    web: WebDep,
    user: UserDep,
    db: SessionDep,
    catalog: CatalogDep,
    lang: str | None = None,
) -> Response:
    exercise = load_exercise(catalog, exercise_id, user)
    chosen = view.choose_language(request, exercise, lang)
    ui_lang = chosen if chosen in i18n.UI_LANGUAGES else i18n.preferred_language(request)
    variant = variants.learner_variant(
        session=db, catalog=catalog, user=user, exercise_id=exercise.id
    )
    statement = exercises_service.statement_in(exercise, chosen, variant)
    clock = schedule_clock(catalog.schedule())
    budget = budgets.submission_budget(
        session=db, catalog=catalog, user=user, exercise_id=exercise.id, now=clock["now"]
    )
    config: dict[str, Any] = {
        "exercise": exercise.id,
        "version": exercise.version,
        "starter": exercise.starter_in(chosen),
        "user": user.id,
        "csrf": web.session.csrf,
        "runUrl": "/run?wait=10",
        "submitUrl": "/submit?wait=10",
        "maxCodeBytes": web.settings.max_code_bytes,
        "loginUrl": f"/login?next=/learn/{exercise.id}&expired=1",
        "historyUrl": "/history/__ID__",
        "historyListUrl": f"/history?exercise={exercise.id}",
        "picturesUrl": "/history/__ID__/pictures",
        "tryUrl": f"/exercises/{exercise.id}/try",
        "standingUrl": f"/learn/{exercise.id}/standing?lang={ui_lang}",
        "messages": i18n.script_messages(ui_lang),
        # A refused submission's next time is shown in the schedule's zone, in the reader's words.
        "zone": clock["zone_name"],
        "uiLang": ui_lang,
    }
    response = render(
        request,
        "exercise.html",
        {
            "exercise": exercise,
            "lang": chosen,
            "ui_lang": ui_lang,
            "statement": statement,
            "variant": variant,
            **_standing(db, catalog, user, exercise, clock["now"]),
            "budget": budget,
            "budget_spent": budget is not None and budget.blocked_by is budgets.Limit.TOTAL,
            "case_rules": exercises_service.case_rules(catalog.prepared(exercise.id)),
            "case_titles": words_in(exercise, ui_lang).cases,
            "try_inputs": view.try_inputs(catalog.prepared(exercise.id)),
            "config": config,
            **clock,
        },
    )
    if lang == chosen:
        remember_language(response, chosen)
    return response


def _standing(
    db: Session, catalog: ExerciseCatalog, user: User, exercise: Exercise, now: datetime
) -> dict[str, Any]:
    """What the exercise page shows of the learner's standing (``_exercise_standing.html``
    and the assignment's banner)."""
    return {
        "best": standings.own_standings(
            session=db, catalog=catalog, user=user, exercise_ids=[exercise.id]
        ).get(exercise.id),
        "assignment": standings.assigned_exercise_standing(
            session=db, catalog=catalog, user=user, exercise_id=exercise.id, now=now
        ),
    }


@router.get("/learn/{exercise_id}/standing")
def exercise_standing_fragment(
    request: Request,
    exercise_id: str,
    user: UserDep,
    db: SessionDep,
    catalog: CatalogDep,
    lang: str | None = None,
) -> Response:
    """The exercise page's standing, drawn again after a graded submission (exercise.js):
    the banner then says what the schedule counts now, without a reload."""
    exercise = load_exercise(catalog, exercise_id, user)
    clock = schedule_clock(catalog.schedule())
    ui_lang = lang if lang in i18n.UI_LANGUAGES else i18n.preferred_language(request)
    return render(
        request,
        "_exercise_standing_fragment.html",
        {
            "exercise": exercise,
            "ui_lang": ui_lang,
            **_standing(db, catalog, user, exercise, clock["now"]),
            **clock,
        },
    )


# get_web_context puts the signed-in user where render() finds it, for the page's menu.
@router.get("/lesson", dependencies=[Depends(get_web_context)])
def lesson_page(request: Request, catalog: CatalogDep, lang: str | None = None) -> Response:
    """The default course's lesson (the course of exercises that name none)."""
    return _lesson(request, exercises_service.find_course(catalog, None), lang)


@router.get("/lesson/{course_id}")
def course_lesson_page(
    request: Request, course_id: str, catalog: CatalogDep, lang: str | None = None
) -> Response:
    return _lesson(request, exercises_service.find_course(catalog, course_id), lang)


def _lesson(request: Request, course: CourseFolder | None, lang: str | None) -> Response:
    available = exercises_service.lesson_languages(course) if course is not None else ()
    if course is None or not available:
        raise PageError(
            status.HTTP_404_NOT_FOUND,
            N_("Lesson not found"),
            N_("This course has no lesson page {page}."),
            page=repr("lesson.md"),
        )
    chosen = view.pick_language(request, available, lang)
    response = render(
        request,
        "lesson.html",
        {
            "nav": "lesson",
            "lang": chosen,
            "languages": available,
            "ui_lang": chosen if chosen in i18n.UI_LANGUAGES else i18n.preferred_language(request),
            "page": exercises_service.lesson_in(course, chosen),
        },
    )
    if lang == chosen:
        remember_language(response, chosen)
    return response


def remember_language(response: Response, lang: str) -> None:
    response.set_cookie(
        i18n.LANG_COOKIE, lang, max_age=LANG_COOKIE_MAX_AGE_S, samesite="lax", httponly=True
    )


@router.get("/language/{lang}")
def choose_language(lang: str, next: str = "/") -> Response:
    """The pages' language switch: remember ``lang`` and go back to where the reader was."""
    response = RedirectResponse(safe_next(next), status_code=status.HTTP_303_SEE_OTHER)
    if lang in i18n.UI_LANGUAGES:
        remember_language(response, lang)
    return response


@dataclass
class HistoryGroup:
    exercise_id: str
    title: str
    best: float | None = None
    submissions: list[Submission] = field(default_factory=list)


def group_history(
    submissions: list[Submission],
    exercises: list[Exercise],
    lang: str,
    counted: Mapping[str, ExerciseStanding],
) -> list[HistoryGroup]:
    """Submissions grouped per exercise, in course order; newest first inside a group; each
    titled in ``lang`` with its best as the schedule counts it (``counted``: the standings, late
    policy and regrades applied), as the catalog and the exercise page show it."""
    titles = {e.id: words_in(e, lang).title for e in exercises}
    order = {e.id: i for i, e in enumerate(exercises)}
    groups: dict[str, HistoryGroup] = {}
    for sub in submissions:
        group = groups.setdefault(
            sub.exercise_id,
            HistoryGroup(sub.exercise_id, titles.get(sub.exercise_id, sub.exercise_id)),
        )
        group.submissions.append(sub)
        standing = counted.get(sub.exercise_id)
        group.best = None if standing is None else standing.score
    return sorted(groups.values(), key=lambda g: (order.get(g.exercise_id, 1 << 30), g.title))


@router.get("/history")
def history_page(
    request: Request,
    user: UserDep,
    db: SessionDep,
    catalog: CatalogDep,
    exercise: str | None = None,
) -> Response:
    exercises = exercises_service.visible_exercises(catalog, user)
    submissions = history.own_history(
        session=db, user=user, exercise_id=exercise or None, limit=HISTORY_LIMIT
    )
    now = utcnow()
    counted = standings.own_standings(
        session=db, catalog=catalog, user=user, exercise_ids=[e.id for e in exercises]
    )
    return render(
        request,
        "history.html",
        {
            "nav": "history",
            "exercises": exercises,
            "selected": exercise or "",
            "groups": group_history(
                [release.seen_by_learner(sub, now) for sub in submissions],
                exercises,
                i18n.preferred_language(request),
                counted,
            ),
        },
    )


def visible_submission(db: SessionDep, user: User, submission_id: str) -> Submission:
    """The submission as ``user`` may see it now (an instructor reads the row's exact times);
    a page error if it is not theirs to see."""
    sub = history.visible_submission(session=db, user=user, submission_id=submission_id)
    if sub is None:
        raise PageError(
            status.HTTP_404_NOT_FOUND,
            N_("Submission not found"),
            N_("There is no submission {submission} of yours."),
            submission=repr(submission_id),
        )
    return sub if user.is_instructor else release.seen_by_learner(sub, utcnow())


@router.get("/history/{submission_id}/pictures")
def error_pictures_fragment(
    request: Request, submission_id: str, user: UserDep, db: SessionDep, catalog: CatalogDep
) -> Response:
    """The pictures of a result's failed public tests, for the exercise page to show under a
    result it drew itself (exercise.js), in the reader's language."""
    sub = visible_submission(db, user, submission_id)
    lang = i18n.preferred_language(request)
    words = translations.exercise_words(catalog, sub.exercise_id, lang)
    pictures = error_pictures.in_language(
        error_pictures.of_submission(session=db, submission=sub), lang, words.cases
    )
    return render(request, "_error_pictures.html", {"pictures": pictures})


@router.get("/history/{submission_id}")
def submission_page(
    request: Request, submission_id: str, user: UserDep, db: SessionDep, catalog: CatalogDep
) -> Response:
    sub = visible_submission(db, user, submission_id)
    lang = i18n.preferred_language(request)
    try:
        exercise = catalog.load(sub.exercise_id)
        words, limits = words_in(exercise, lang), exercise.limits
    except ExerciseError:
        words, limits = ExerciseWords(sub.exercise_id, lang=lang), None
    own = sub.user_id == user.id
    back = (
        (f"/history?exercise={sub.exercise_id}", N_("Your submissions"))
        if own
        else (
            f"/instructor/submissions?{history.SubmissionFilter(exercise=sub.exercise_id).query()}",
            N_("All submissions"),
        )
    )
    return render(
        request,
        "submission.html",
        {
            "nav": "history" if own else "gradebook",
            "sub": sub,
            "title": words.title,
            **translations.result_words(sub, words, instructor=user.is_instructor),
            "back_url": back[0],
            "back_label": back[1],
            "verdict_names": VERDICT_NAMES,
            # What the run used, hidden cases included: how long hidden cases take is not the
            # learner's to know (docs/security.md).
            "show_cost": user.is_instructor,
            # Which version graded it is the authors' word; a learner reads "(now)" instead.
            "show_version": user.is_instructor,
            "full_feedback": user.is_instructor,
            "limits": limits,
            "reports": regrades.reports(session=db, submission=sub) if sub.regrade else [],
            "pictures": error_pictures.in_language(
                error_pictures.of_submission(session=db, submission=sub), lang, words.cases
            ),
            "reveal": translations.localised_reveal(
                reveal.hidden_tests(session=db, catalog=catalog, submission=sub, now=utcnow()),
                words,
            ),
        },
    )
