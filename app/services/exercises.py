"""Learner-facing views of exercises: never the solution, hidden inputs or expected outputs."""

from __future__ import annotations

from datetime import datetime

from app.models import User, utcnow
from app.schemas import ExerciseDetail, ExerciseSummary
from app.services.markdown import render_markdown
from graders.errors import ExerciseNotFound
from graders.exercises import Exercise, ExerciseCatalog


def is_visible(catalog: ExerciseCatalog, exercise: Exercise, user: User | None,
               now: datetime) -> bool:
    """Instructors see everything; learners neither drafts nor assignments not open yet."""
    if user is not None and user.is_instructor:
        return True
    if exercise.draft:
        return False
    assignment = catalog.course().assignment_of(exercise.id)
    return assignment is None or assignment.is_open(now)


def visible_exercises(catalog: ExerciseCatalog, user: User | None) -> list[Exercise]:
    """The exercises ``user`` may see and submit to, in course order."""
    now = utcnow()
    return [e for e in catalog.all() if is_visible(catalog, e, user, now)]


def load_visible(catalog: ExerciseCatalog, exercise_id: str, user: User | None) -> Exercise:
    """The exercise if ``user`` may see it; otherwise it does not exist for them."""
    exercise = catalog.load(exercise_id)
    if not is_visible(catalog, exercise, user, utcnow()):
        raise ExerciseNotFound(f"Exercise {exercise_id!r} not found")
    return exercise


def summary(exercise: Exercise) -> ExerciseSummary:
    return ExerciseSummary(
        id=exercise.id, title=exercise.title, difficulty=exercise.difficulty,  # type: ignore[arg-type]
        tags=list(exercise.tags), order=exercise.order, version=exercise.version,
        languages=list(exercise.languages), url=f"/exercises/{exercise.id}")


def pick_language(texts: dict[str, str], lang: str) -> tuple[str, str] | None:
    """``(lang, text)`` in the wanted language, else English, else any."""
    for candidate in (lang, "en", *sorted(texts)):
        if candidate in texts:
            return candidate, texts[candidate]
    return None


def detail(catalog: ExerciseCatalog, exercise_id: str, user: User | None,
           lang: str = "en") -> ExerciseDetail:
    exercise = load_visible(catalog, exercise_id, user)
    prepared = catalog.prepared(exercise_id)
    statement = pick_language(dict(exercise.statements), lang) or ("en", "")
    theory = pick_language(dict(exercise.theories), statement[0])
    return ExerciseDetail(
        **summary(exercise).model_dump(),
        entry=exercise.entry, source=exercise.source, time_limit_s=exercise.limits.time_s,
        memory_limit_mb=exercise.limits.memory_mb, language=statement[0],
        statement_markdown=statement[1], statement_html=render_markdown(statement[1]),
        theory_markdown=theory[1] if theory else None,
        theory_html=render_markdown(theory[1]) if theory else None,
        starter_code=exercise.starter,
        public_cases=[case.name for case in prepared.public_cases],
    )
