"""What the pages show of exercises: the catalog rows and the reader's language."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

from app.services.exercises import fallback_language
from app.services.gradebook import Best
from app.web.i18n import LANG_COOKIE, browser_languages
from graders import Exercise


@dataclass(frozen=True)
class CatalogRow:
    exercise: Exercise
    best: Best | None


def catalog_rows(exercises: list[Exercise], best: dict[str, Best]) -> list[CatalogRow]:
    return [CatalogRow(e, best.get(e.id)) for e in exercises]


def pick_language(request: Request, available: tuple[str, ...], asked: str | None) -> str:
    """``?lang=`` if ``available``, else the remembered choice, else the browser's (then the
    services' fallback: English, else the first available)."""
    wanted = [asked, request.cookies.get(LANG_COOKIE), *browser_languages(request)]
    return fallback_language(available, wanted) or "en"


def choose_language(request: Request, exercise: Exercise, asked: str | None) -> str:
    return pick_language(request, exercise.languages or ("en",), asked)
