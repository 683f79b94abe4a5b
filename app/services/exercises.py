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

from sqlalchemy.orm import Session

from app.models import User, utcnow
from app.schemas import CaseRuleOut, ExerciseDetail, ExerciseSummary, RuleOut
from app.services import variants
from app.services.markdown import render_markdown
from graders.api import (
    DEFAULT_COURSE_ID,
    CourseError,
    CourseFolder,
    Exercise,
    ExerciseCatalog,
    ExerciseError,
    ExerciseNotFound,
    PreparedExercise,
    course_of,
    default_course,
    fill_variant,
    words_in,
)

LEADING_H1 = re.compile(r"\A\s*<h1>(.*?)</h1>\n?", re.DOTALL)
LESSON_LANGUAGES = ("en", "ja")


def is_visible(
    catalog: ExerciseCatalog, exercise: Exercise, user: User | None, now: datetime
) -> bool:
    """Instructors see everything; learners neither drafts nor assignments not open yet."""
    if user is not None and user.is_instructor:
        return True
    if exercise.draft:
        return False
    assignment = catalog.schedule().assignment_of(exercise.id)
    return assignment is None or assignment.is_open(now)


@dataclass(frozen=True)
class CourseGroup:
    """One course of the catalog and the exercises of it the user may see, in course order."""

    course: CourseFolder
    exercises: list[Exercise]


@dataclass(frozen=True)
class ExerciseList:
    courses: list[CourseGroup]
    """What the user may see, by course, in course order (a course with nothing to see is
    left out)."""
    broken: list[str]
    """``"<id>: <problem>"`` per folder that cannot be read: for instructors' eyes only."""

    @property
    def exercises(self) -> list[Exercise]:
        """Every exercise the user may see: course after course, each in course order."""
        return [e for group in self.courses for e in group.exercises]


def exercise_list(catalog: ExerciseCatalog, user: User | None) -> ExerciseList:
    """The exercises ``user`` may see and submit to, by course, and (for an instructor) the
    broken folders."""
    survey = catalog.survey()
    now = utcnow()
    visible = [e for e in survey.exercises if is_visible(catalog, e, user, now)]
    broken = [f"{exercise_id}: {problem}" for exercise_id, problem in survey.broken.items()]
    courses, problem = readable_courses(catalog)
    if problem is not None:
        broken.append(problem)
    groups = {course.id: CourseGroup(course, []) for course in courses}
    for exercise in visible:
        groups[course_or_default(courses, exercise).id].exercises.append(exercise)
    return ExerciseList(
        [group for group in groups.values() if group.exercises],
        broken if _is_instructor(user) else [],
    )


def readable_courses(catalog: ExerciseCatalog) -> tuple[tuple[CourseFolder, ...], str | None]:
    """The catalog's courses, and the problem of a broken ``about.toml``: meanwhile every
    exercise is listed under one untitled course, so that none becomes unreachable."""
    try:
        return catalog.courses(), None
    except CourseError as exc:
        untitled = CourseFolder(DEFAULT_COURSE_ID, catalog.root, {"en": ""}, is_default=True)
        return (untitled,), str(exc)


def course_or_default(courses: tuple[CourseFolder, ...], exercise: Exercise) -> CourseFolder:
    """The exercise's course; the default one when it names none, or one that does not exist
    (validate refuses it; the exercise stays listed meanwhile)."""
    return course_of(courses, exercise.course) or default_course(courses)


def visible_exercises(catalog: ExerciseCatalog, user: User | None) -> list[Exercise]:
    """The exercises ``user`` may see and submit to: course after course, each in order."""
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


def summary(exercise: Exercise, course: CourseFolder, lang: str = "en") -> ExerciseSummary:
    """The exercise's and its course's titles in ``lang`` where they have it, else English."""
    return ExerciseSummary(
        id=exercise.id,
        course=course.id,
        course_title=course.title(lang),
        title=words_in(exercise, lang).title,
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


def statement_in(exercise: Exercise, lang: str, variant: Mapping[str, float]) -> Statement:
    """The statement and theory (if any) in ``lang`` or its fallback, as HTML with math spans,
    the statement showing the reader's ``variant`` (app.services.variants); a leading
    ``# title`` is split off (the page shows it as its heading)."""
    lang, text = variant_statement(exercise, lang, variant)
    theory = pick_language(exercise.theories, lang)
    return _split_heading(
        lang, render_markdown(text), render_markdown(theory[1]) if theory else None
    )


def find_course(catalog: ExerciseCatalog, course_id: str | None) -> CourseFolder | None:
    """The course ``course_id`` (None: the default course), or None if there is none."""
    return course_of(readable_courses(catalog)[0], course_id)


def lesson_url(course: CourseFolder) -> str:
    """Where a course's lesson page is served: ``/lesson`` for the default course."""
    return "/lesson" if course.is_default else f"/lesson/{course.id}"


def lesson_languages(course: CourseFolder) -> tuple[str, ...]:
    """The languages of the course's lesson page: ``lesson.md`` (en), ``lesson.<lang>.md``."""
    return tuple(sorted(lang for lang in LESSON_LANGUAGES if course.lesson_file(lang).is_file()))


def lesson_in(course: CourseFolder, lang: str) -> Statement:
    """The course's lesson page in ``lang``, rendered like a statement (it has no theory)."""
    text = course.lesson_file(lang).read_text(encoding="utf-8")
    return _split_heading(lang, render_markdown(text), None)


def variant_statement(
    exercise: Exercise, lang: str | None, variant: Mapping[str, float]
) -> tuple[str, str]:
    """``(lang, markdown)`` of the statement in ``lang`` or its fallback, with the reader's
    numbers in place of its ``{{ variant.<name> }}``."""
    lang, text = pick_language(exercise.statements, lang) or ("en", "")
    return lang, fill_variant(text, variant)


def detail(
    session: Session,
    catalog: ExerciseCatalog,
    exercise_id: str,
    user: User | None,
    lang: str = "en",
) -> ExerciseDetail:
    exercise = load_visible(catalog, exercise_id, user)
    try:
        prepared = catalog.prepared(exercise_id)
        variant = variants.learner_variant(
            session=session, catalog=catalog, user=user, exercise_id=exercise.id
        )
    except ExerciseError:  # cases.py or the solution fails: the same rule as a broken toml
        if _is_instructor(user):
            raise
        raise ExerciseNotFound(f"Exercise {exercise_id!r} not found") from None
    statement = variant_statement(exercise, lang, variant)
    theory = pick_language(exercise.theories, statement[0])
    return ExerciseDetail(
        **summary(
            exercise, course_or_default(readable_courses(catalog)[0], exercise), statement[0]
        ).model_dump(),
        entry=exercise.entry,
        source=exercise.source,
        time_limit_s=exercise.limits.time_s,
        memory_limit_mb=exercise.limits.memory_mb,
        language=statement[0],
        statement_markdown=statement[1],
        statement_html=render_markdown(statement[1]),
        theory_markdown=theory[1] if theory else None,
        theory_html=render_markdown(theory[1]) if theory else None,
        starter_code=exercise.starter_in(statement[0]),
        public_cases=[case.name for case in prepared.public_cases],
        forbidden=[
            RuleOut(rule=rule.text, description=rule.description) for rule in exercise.forbid
        ],
        case_rules=case_rules(prepared),
        custom_inputs=exercise.takes_custom_inputs,
        variant=variant,
    )


def case_rules(prepared: PreparedExercise) -> list[CaseRuleOut]:
    """The tests with a CPU-time rule of their own, for the page and the API to list."""
    return [
        CaseRuleOut(
            test=case.name, time_limit_s=case.spec.time_s, max_slowdown=case.spec.max_slowdown
        )
        for case in prepared.cases
        if case.spec.time_s is not None or case.spec.max_slowdown is not None
    ]
