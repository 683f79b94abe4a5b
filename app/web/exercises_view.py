"""What the pages show of exercises: the catalog rows and the reader's language."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from fastapi import Request

from app.services.exercises import CourseGroup, fallback_language, lesson_languages, lesson_url
from app.services.standings.rules import ExerciseStanding
from app.web.i18n import LANG_COOKIE, browser_languages
from graders.api import (
    CourseFolder,
    CustomInputRefused,
    Exercise,
    PreparedExercise,
    input_names,
    max_input_bytes,
    parse_inputs,
)


@dataclass(frozen=True)
class CatalogRow:
    exercise: Exercise
    best: ExerciseStanding | None  # what the schedule counts of the learner's work


@dataclass(frozen=True)
class CatalogSection:
    """One course on the catalog page: its rows, and its lesson page if it has one."""

    course: CourseFolder
    lesson_url: str | None
    rows: list[CatalogRow]


def catalog_sections(
    groups: list[CourseGroup], best: dict[str, ExerciseStanding]
) -> list[CatalogSection]:
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


@dataclass(frozen=True)
class TryInputs:
    """The exercise page's custom inputs: whether it takes them, the entry's parameters (one
    field each, prefilled with the first public case's value when it is short), and how many
    MiB reading them all may allocate."""

    on: bool
    names: tuple[str, ...]
    examples: dict[str, str]
    max_mib: int


EXAMPLE_MAX_CHARS = 300
EXAMPLE_MAX_BYTES = 2**20
"""Reading a short example allocates a few hundred kB (graders/custom/parsing.py)."""


def try_inputs(prepared: PreparedExercise) -> TryInputs:
    examples = {}
    if prepared.public_cases:
        for name, value in prepared.public_cases[0].inputs.items():
            text = example_text(value)
            if text is not None:
                examples[name] = text
    return TryInputs(
        prepared.exercise.takes_custom_inputs,
        input_names(prepared),
        examples,
        max_input_bytes(prepared) // 2**20,
    )


def example_text(value: Any) -> str | None:
    """``value`` as an input expression, if it is short and reads back (``parse_inputs``)."""
    if isinstance(value, np.ndarray):
        body = np.array2string(value, separator=", ", threshold=50, precision=4)
        usual = value.dtype in (np.float64, np.int64)
        text = f"np.array({body})" if usual else f"np.array({body}, dtype='{value.dtype}')"
    else:
        text = repr(value.item() if isinstance(value, np.generic) else value)
    if len(text) > EXAMPLE_MAX_CHARS:
        return None
    try:
        parse_inputs({"x": text}, ("x",), EXAMPLE_MAX_BYTES)
    except CustomInputRefused:
        return None
    return text
