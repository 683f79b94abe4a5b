"""What the pages show of exercises: the catalog rows and the reader's language."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

from app.services.exercises import CourseGroup, fallback_language, lesson_languages, lesson_url
from app.services.gradebook import Best
from app.web.i18n import LANG_COOKIE, browser_languages
from graders import CourseFolder, Exercise


@dataclass(frozen=True)
class CatalogRow:
    exercise: Exercise
    best: Best | None


@dataclass(frozen=True)
class CatalogSection:
    """One course on the catalog page: its rows, and its lesson page if it has one."""

    course: CourseFolder
    lesson_url: str | None
    rows: list[CatalogRow]


def catalog_sections(groups: list[CourseGroup], best: dict[str, Best]) -> list[CatalogSection]:
    return [
        CatalogSection(
            group.course,
            lesson_url(group.course) if lesson_languages(group.course) else None,
            [CatalogRow(e, best.get(e.id)) for e in group.exercises],
        )
        for group in groups
    ]


def pick_language(request: Request, available: tuple[str, ...], asked: str | None) -> str:
    """``?lang=`` if ``available``, else the remembered choice, else the browser's (then the
    services' fallback: English, else the first available)."""
    wanted = [asked, request.cookies.get(LANG_COOKIE), *browser_languages(request)]
    return fallback_language(available, wanted) or "en"


def choose_language(request: Request, exercise: Exercise, asked: str | None) -> str:
    return pick_language(request, exercise.languages or ("en",), asked)
