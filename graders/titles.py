"""Titles written once per language in a TOML file (a course's ``about.toml``, an assignment
of ``course.toml``): a string is the English title; a table gives one title per language and
must have ``en``, the title a reader of any other language falls back to."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from graders.errors import ExerciseError


def titles_by_language(value: Any, where: str, refusal: type[ExerciseError]) -> dict[str, str]:
    """``value`` as titles by language, stripped; ``refusal`` (the file's own error) naming
    ``where`` when it is neither a non-empty string nor a table of non-empty strings with
    ``en``."""
    titles = {"en": value} if isinstance(value, str) else value
    if (
        not isinstance(titles, dict)
        or not all(isinstance(t, str) and t.strip() for t in titles.values())
        or not isinstance(titles.get("en"), str)
    ):
        raise refusal(
            f"{where}: 'title' must be a string or a table of titles by language with 'en'"
        )
    return {lang: title.strip() for lang, title in titles.items()}


def title_in(titles: Mapping[str, str], lang: str) -> str:
    """The title in ``lang``, else the English one."""
    return titles.get(lang, titles["en"])
