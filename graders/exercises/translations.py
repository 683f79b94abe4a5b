"""An exercise's words in its other languages: ``translation.<lang>.toml`` beside the statement.

A report carries English words (the stored rows and old clients keep them): the tests' names,
the hint of the mistake that explains the failures. The title, the hints and the tests' names
in another language live in one file per language, read here without running any code::

    title = "GRU の更新ゲート"

    [hints]   # mistake file name (mistakes/<name>.py) -> its HINT in this language
    bias_subtracted = "…"

    [cases]   # test name as reports show it (the case function's name, "_" read as " ")
    "worked example" = "計算例"

``numjudge validate`` refuses an exercise whose statement has a language its translation file
does not cover (a missing title, hint or test name), or whose file names a mistake or test
that does not exist (graders/validation.py: ``check_translations``). A reader's page turns a
report's English words into their language through ``words_in`` (a word with no translation
stays English).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graders.errors import ExerciseError

if TYPE_CHECKING:  # the model holds translations; only the lookups need the exercise
    from graders.exercises.model import Exercise

TRANSLATION_STEM = "translation"
TRANSLATION_FIELDS = frozenset({"title", "hints", "cases"})


def translation_file(lang: str) -> str:
    return f"{TRANSLATION_STEM}.{lang}.toml"


@dataclass(frozen=True)
class Translation:
    """One ``translation.<lang>.toml``: the exercise's title, hints and test names in ``lang``."""

    lang: str
    title: str
    hints: Mapping[str, str] = field(default_factory=dict)
    """A mistake's name (its file's stem) -> its hint in ``lang``."""
    cases: Mapping[str, str] = field(default_factory=dict)
    """A test's name as reports show it -> its name in ``lang``."""


def read_translations(path: Path) -> dict[str, Translation]:
    """Every ``translation.<lang>.toml`` of the exercise folder ``path``, by language."""
    translations = {}
    for file in sorted(path.glob(f"{TRANSLATION_STEM}.*.toml")):
        lang = file.name.split(".")[1]
        translations[lang] = _read_translation(f"{path.name}/{file.name}", file, lang)
    return translations


def _read_translation(where: str, file: Path, lang: str) -> Translation:
    try:
        table = tomllib.loads(file.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ExerciseError(f"{where}: not valid TOML: {exc}") from None
    unknown = set(table) - TRANSLATION_FIELDS
    if unknown:
        raise ExerciseError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    title = table.get("title", "")
    if not isinstance(title, str):
        raise ExerciseError(f"{where}: field 'title' must be a string")
    return Translation(
        lang=lang,
        title=title.strip(),
        hints=_texts(where, "hints", table),
        cases=_texts(where, "cases", table),
    )


def _texts(where: str, key: str, table: dict[str, Any]) -> dict[str, str]:
    texts = table.get(key, {})
    if not isinstance(texts, dict) or not all(isinstance(v, str) for v in texts.values()):
        raise ExerciseError(f"{where}: [{key}] must be a table of strings")
    return {name: text.strip() for name, text in texts.items()}


def translation_problems(exercise: Exercise, case_names: Iterable[str]) -> list[str]:
    """What keeps the exercise from speaking each language of its statement: a missing
    translation file, title, hint or test name, or a stale key (a mistake or test that is
    gone, a file for a language the statement does not have)."""
    cases = list(case_names)
    mistakes = [mistake.name for mistake in exercise.mistakes]
    problems = []
    for lang in exercise.languages:
        if lang != "en" and lang not in exercise.translations:
            problems.append(
                f"{translation_file(lang)}: missing; statement.{lang}.md gives the exercise "
                f"this language, so its title, hints and test names need it too"
            )
    for lang, translation in sorted(exercise.translations.items()):
        name = translation_file(lang)
        if lang not in exercise.statements:
            problems.append(f"{name}: there is no statement.{lang}.md; remove it or add one")
            continue
        if not translation.title:
            problems.append(f"{name}: 'title' is missing; write the exercise's title")
        problems += _key_problems(name, "hints", "mistake", mistakes, translation.hints)
        problems += _key_problems(name, "cases", "test", cases, translation.cases)
    return problems


def _key_problems(
    name: str, section: str, what: str, wanted: list[str], texts: Mapping[str, str]
) -> list[str]:
    missing = [key for key in wanted if not texts.get(key)]
    stale = sorted(set(texts) - set(wanted))
    problems = []
    if missing:
        problems.append(
            f"{name}: [{section}] has no text for {what}(s) {', '.join(map(repr, missing))}"
        )
    if stale:
        problems.append(
            f"{name}: [{section}] names {what}(s) that do not exist: "
            f"{', '.join(map(repr, stale))} (renamed or removed?)"
        )
    return problems


@dataclass(frozen=True)
class ExerciseWords:
    """The English words a report of the exercise carries, in one reader's language."""

    title: str
    cases: Mapping[str, str] = field(default_factory=dict)
    hints: Mapping[str, str] = field(default_factory=dict)
    """A hint's English text -> its translation."""

    def case(self, name: str) -> str:
        return self.cases.get(name, name)

    def hint(self, text: str) -> str:
        return self.hints.get(text, text)


def words_in(exercise: Exercise, lang: str) -> ExerciseWords:
    """The exercise's title, test names and hints in ``lang``; English (as reports carry
    them) where it has no translation, so a hint rewritten since a report stays readable."""
    translation = exercise.translations.get(lang)
    if translation is None:
        return ExerciseWords(exercise.title)
    return ExerciseWords(
        title=translation.title or exercise.title,
        cases=dict(translation.cases),
        hints={
            mistake.hint: translation.hints[mistake.name]
            for mistake in exercise.mistakes
            if translation.hints.get(mistake.name)
        },
    )
