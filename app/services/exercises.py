"""Learner-facing views of exercises: never the solution, hidden inputs or expected outputs.

One rule for who sees an exercise (instructors everything; learners neither drafts nor
assignments not open yet), one exercise list, and one language fallback (the first wanted
language the exercise has, else English, else its first language) for the API and the pages.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from app.models import User, utcnow
from app.schemas import ExerciseDetail, ExerciseSummary, RuleOut
from app.services.markdown import render_markdown
from graders import Exercise, ExerciseCatalog, ExerciseError, ExerciseNotFound

LEADING_H1 = re.compile(r"\A\s*<h1>(.*?)</h1>\n?", re.DOTALL)
# Course-wide texts (the lesson page) live in this folder of the catalog; validation skips
# folders starting with "_", so it is never taken for an exercise.
COURSE_DIR = "_course"
LESSON_LANGUAGES = ("en", "ja")


def is_visible(
    catalog: ExerciseCatalog, exercise: Exercise, user: User | None, now: datetime
) -> bool:
    """Instructors see everything; learners neither drafts nor assignments not open yet."""
    if user is not None and user.is_instructor:
        return True
    if exercise.draft:
        return False
    assignment = catalog.course().assignment_of(exercise.id)
    return assignment is None or assignment.is_open(now)


@dataclass(frozen=True)
class ExerciseList:
    exercises: list[Exercise]
    """What the user may see, in course order."""
    broken: list[str]
    """``"<id>: <problem>"`` per folder that cannot be read: for instructors' eyes only."""


def exercise_list(catalog: ExerciseCatalog, user: User | None) -> ExerciseList:
    """The exercises ``user`` may see and submit to, and (for an instructor) the broken ones."""
    survey = catalog.survey()
    now = utcnow()
    instructor = _is_instructor(user)
    return ExerciseList(
        [e for e in survey.exercises if is_visible(catalog, e, user, now)],
        [f"{exercise_id}: {problem}" for exercise_id, problem in survey.broken.items()]
        if instructor
        else [],
    )


def visible_exercises(catalog: ExerciseCatalog, user: User | None) -> list[Exercise]:
    """The exercises ``user`` may see and submit to, in course order."""
    return exercise_list(catalog, user).exercises


def _is_instructor(user: User | None) -> bool:
    return user is not None and user.is_instructor


def load_visible(catalog: ExerciseCatalog, exercise_id: str, user: User | None) -> Exercise:
    """The exercise if ``user`` may see it; otherwise it does not exist for them.

    A broken folder raises ``ExerciseError`` (naming the file and field) for an instructor,
    who can fix it; for a learner it does not exist.
    """
    try:
        exercise = catalog.load(exercise_id)
    except ExerciseError:
        if _is_instructor(user):
            raise
        raise ExerciseNotFound(f"Exercise {exercise_id!r} not found") from None
    if not is_visible(catalog, exercise, user, utcnow()):
        raise ExerciseNotFound(f"Exercise {exercise_id!r} not found")
    return exercise


def summary(exercise: Exercise) -> ExerciseSummary:
    return ExerciseSummary(
        id=exercise.id,
        title=exercise.title,
        difficulty=exercise.difficulty,  # type: ignore[arg-type]
        tags=list(exercise.tags),
        order=exercise.order,
        version=exercise.version,
        languages=list(exercise.languages),
        url=f"/exercises/{exercise.id}",
    )


def fallback_language(available: Iterable[str], wanted: Iterable[str | None]) -> str | None:
    """The first of ``wanted`` that is ``available``, else English, else the first available."""
    have = sorted(available)
    for candidate in (*wanted, "en", *have):
        if candidate in have:
            return candidate
    return None


def pick_language(texts: Mapping[str, str], lang: str | None) -> tuple[str, str] | None:
    """``(lang, text)`` in the wanted language, else English, else any."""
    chosen = fallback_language(texts, [lang])
    return (chosen, texts[chosen]) if chosen is not None else None


@dataclass(frozen=True)
class Statement:
    lang: str
    heading_html: str | None  # the statement's own "# title" (translated), if it opens with one
    body_html: str
    theory_html: str | None


def _split_heading(lang: str, html: str, theory_html: str | None) -> Statement:
    match = LEADING_H1.match(html)
    if match is None:
        return Statement(lang, None, html, theory_html)
    return Statement(lang, match.group(1), html[match.end() :], theory_html)


def statement_in(exercise: Exercise, lang: str) -> Statement:
    """The statement and theory (if any) in ``lang`` or its fallback, as HTML with math spans;
    a leading ``# title`` is split off (the page shows it as its heading)."""
    lang, text = pick_language(exercise.statements, lang) or ("en", "")
    theory = pick_language(exercise.theories, lang)
    return _split_heading(
        lang, render_markdown(text), render_markdown(theory[1]) if theory else None
    )


def lesson_file_name(lang: str) -> str:
    return "lesson.md" if lang == "en" else f"lesson.{lang}.md"


def lesson_languages(catalog: ExerciseCatalog) -> tuple[str, ...]:
    """The languages of the course's lesson page: ``lesson.md`` (en), ``lesson.<lang>.md``."""
    folder = catalog.root / COURSE_DIR
    return tuple(
        sorted(lang for lang in LESSON_LANGUAGES if (folder / lesson_file_name(lang)).is_file())
    )


def lesson_in(catalog: ExerciseCatalog, lang: str) -> Statement:
    """The lesson page in ``lang``, rendered like a statement (it has no theory)."""
    text = (catalog.root / COURSE_DIR / lesson_file_name(lang)).read_text(encoding="utf-8")
    return _split_heading(lang, render_markdown(text), None)


def detail(
    catalog: ExerciseCatalog, exercise_id: str, user: User | None, lang: str = "en"
) -> ExerciseDetail:
    exercise = load_visible(catalog, exercise_id, user)
    try:
        prepared = catalog.prepared(exercise_id)
    except ExerciseError:  # cases.py or the solution fails: the same rule as a broken toml
        if _is_instructor(user):
            raise
        raise ExerciseNotFound(f"Exercise {exercise_id!r} not found") from None
    statement = pick_language(exercise.statements, lang) or ("en", "")
    theory = pick_language(exercise.theories, statement[0])
    return ExerciseDetail(
        **summary(exercise).model_dump(),
        entry=exercise.entry,
        source=exercise.source,
        time_limit_s=exercise.limits.time_s,
        memory_limit_mb=exercise.limits.memory_mb,
        language=statement[0],
        statement_markdown=statement[1],
        statement_html=render_markdown(statement[1]),
        theory_markdown=theory[1] if theory else None,
        theory_html=render_markdown(theory[1]) if theory else None,
        starter_code=exercise.starter,
        public_cases=[case.name for case in prepared.public_cases],
        forbidden=[
            RuleOut(rule=rule.text, description=rule.description) for rule in exercise.forbid
        ],
    )
