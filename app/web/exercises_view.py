"""What the pages show of exercises: the catalog rows, best scores, the statement in a language."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from fastapi import Request

from app import crud
from app.api.deps import SessionDep
from app.models import User, utcnow
from app.services.exercises import is_visible
from app.services.markdown import render_markdown
from app.web.i18n import LANG_COOKIE, UI_LANGUAGES, browser_languages
from graders import Exercise, ExerciseCatalog, ExerciseError

logger = logging.getLogger(__name__)

LEADING_H1 = re.compile(r"\A\s*<h1>(.*?)</h1>\n?", re.DOTALL)
# Course-wide texts (the lesson page) live in this folder of the catalog; validation skips
# folders starting with "_", so it is never taken for an exercise.
COURSE_DIR = "_course"
LANGUAGES_OF_FILES = UI_LANGUAGES


@dataclass(frozen=True)
class Best:
    score: float
    max_score: float


@dataclass(frozen=True)
class CatalogRow:
    exercise: Exercise
    best: Best | None


def load_all(catalog: ExerciseCatalog, user: User | None) -> tuple[list[Exercise], list[str]]:
    """Every readable exercise ``user`` may see in course order, and one line per folder
    that is broken."""
    exercises: list[Exercise] = []
    problems: list[str] = []
    now = utcnow()
    for exercise_id in catalog.ids():
        try:
            exercise = catalog.load(exercise_id)
            if is_visible(catalog, exercise, user, now):
                exercises.append(exercise)
        except ExerciseError as exc:
            logger.warning("exercise.broken", extra={"exercise": exercise_id, "error": str(exc)})
            problems.append(f"{exercise_id}: {exc}")
    exercises.sort(key=lambda e: (e.order, e.id))
    return exercises, problems


def best_by_exercise(db: SessionDep, user_id: int) -> dict[str, Best]:
    return {b.exercise_id: Best(b.best_score, b.max_score)
            for b in crud.best_scores(session=db, user_id=user_id)}


def catalog_rows(exercises: list[Exercise], best: dict[str, Best]) -> list[CatalogRow]:
    return [CatalogRow(e, best.get(e.id)) for e in exercises]


def choose_language(request: Request, exercise: Exercise, asked: str | None) -> str:
    """``?lang=`` if the exercise has it, else the remembered choice, else the browser's."""
    return pick_language(request, exercise.languages or ("en",), asked)


def pick_language(request: Request, available: tuple[str, ...], asked: str | None) -> str:
    """``?lang=`` if ``available``, else the remembered choice, else the browser's."""
    for candidate in (asked, request.cookies.get(LANG_COOKIE)):
        if candidate in available:
            return candidate
    for code in browser_languages(request):
        if code in available:
            return code
    return "en" if "en" in available else available[0]


@dataclass(frozen=True)
class Statement:
    heading_html: str | None  # the statement's own "# title" (translated), if it opens with one
    body_html: str
    theory_html: str | None


def statement_in(exercise: Exercise, lang: str) -> Statement:
    """The statement and theory (if any) in ``lang``, rendered to HTML with math spans."""
    statement = exercise.statements.get(lang) or exercise.statements.get("en", "")
    theory = exercise.theories.get(lang) or exercise.theories.get("en")
    html = render_markdown(statement)
    heading = None
    match = LEADING_H1.match(html)
    if match:  # the page shows it as its <h1>, so the statement does not repeat it
        heading, html = match.group(1), html[match.end():]
    return Statement(heading, html, render_markdown(theory) if theory else None)


def lesson_languages(catalog: ExerciseCatalog) -> tuple[str, ...]:
    """The languages of the course's lesson page: ``lesson.md`` (en), ``lesson.<lang>.md``."""
    folder = catalog.root / COURSE_DIR
    return tuple(sorted(lang for lang in LANGUAGES_OF_FILES
                        if (folder / lesson_file_name(lang)).is_file()))


def lesson_file_name(lang: str) -> str:
    return "lesson.md" if lang == "en" else f"lesson.{lang}.md"


def lesson_in(catalog: ExerciseCatalog, lang: str) -> Statement:
    """The lesson page in ``lang``, rendered like a statement (it has no theory)."""
    html = render_markdown((catalog.root / COURSE_DIR / lesson_file_name(lang))
                           .read_text(encoding="utf-8"))
    match = LEADING_H1.match(html)
    if match is None:
        return Statement(None, html, None)
    return Statement(match.group(1), html[match.end():], None)
