"""An exercise's words in its other languages: ``translation.<lang>.toml`` beside the statement.

A report carries English words (the stored rows and old clients keep them): the tests' names,
the hint of the mistake that explains the failures. The title, the hints and the tests' names
in another language live in one file per language, read here without running any code::

    title = "GRU の更新ゲート"
    source = "Cho ら, 2014, https://arxiv.org/abs/1406.1078"   # with exercise.toml's source

    [hints]   # mistake file name (mistakes/<name>.py) -> its HINT in this language
    bias_subtracted = "…"

    [cases]   # test name as reports show it (the case function's name, "_" read as " ")
    "worked example" = "計算例"

    [tags]    # a tag of exercise.toml -> its name in this language
    gates = "ゲート"

    [checks]  # a check's name, or a message it returns as cases.py writes it -> in this language
    "orthonormal columns" = "列が正規直交"
    "the residual is {residual:.3g}" = "残差は {residual:.3g} です"   # fields as in the f-string

Reading them is here; what they cover and how a reader's page uses them is in
``graders.exercises.words``, which reads the exercise that holds them.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graders.errors import ExerciseError

TRANSLATION_STEM = "translation"
TRANSLATION_FIELDS = frozenset({"title", "source", "hints", "cases", "tags", "checks"})


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
    source: str = ""
    """Where the exercise comes from, in ``lang`` (a work's title as it was published)."""
    tags: Mapping[str, str] = field(default_factory=dict)
    """A tag of ``exercise.toml`` -> its name in ``lang``."""
    checks: Mapping[str, str] = field(default_factory=dict)
    """A check's name, or a message its function returns (its f-string's text as cases.py
    writes it, ``{error:.3g}`` and all) -> that text in ``lang``, with the same fields."""


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
    title, source = (table.get(key, "") for key in ("title", "source"))
    for key, value in (("title", title), ("source", source)):
        if not isinstance(value, str):
            raise ExerciseError(f"{where}: field '{key}' must be a string")
    return Translation(
        lang=lang,
        title=title.strip(),
        hints=_texts(where, "hints", table),
        cases=_texts(where, "cases", table),
        source=source.strip(),
        tags=_texts(where, "tags", table),
        checks=_texts(where, "checks", table),
    )


def _texts(where: str, key: str, table: dict[str, Any]) -> dict[str, str]:
    texts = table.get(key, {})
    if not isinstance(texts, dict) or not all(isinstance(v, str) for v in texts.values()):
        raise ExerciseError(f"{where}: [{key}] must be a table of strings")
    return {name: text.strip() for name, text in texts.items()}
