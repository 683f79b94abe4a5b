"""The courses of an exercises folder: one folder of texts per course beside the exercises.

    exercises/
      _course/                      the default course: every exercise that names no course
        about.toml                  id = "gated-recurrence", title = { en = "…", ja = "…" }
        lesson.md, lesson.ja.md     its lesson page (optional)
      _course-numpy-foundations/    course "numpy-foundations" (the id follows "_course-")
        about.toml                  title = { en = "…", ja = "…" }, order = 2
      softmax-cross-entropy/
        exercise.toml               course = "numpy-foundations"

Every exercise stays a folder of ``exercises/`` with an id unique across courses, so ids,
paths and URLs do not depend on the course; an exercise's ``course`` field only groups it.
``about.toml`` holds ``title`` (a string, or a table of titles by language with ``en``),
``order`` (courses are listed by it, then by id) and, in ``_course/`` only, ``id`` (the other
folders' ids are their names). A folder without ``about.toml`` is a course titled by its id; a
catalog without ``_course/about.toml`` has an untitled default course ``DEFAULT_COURSE_ID``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from graders.errors import CourseError
from graders.titles import title_in, titles_by_language

DEFAULT_COURSE_DIR = "_course"
COURSE_DIR_PREFIX = "_course-"
ABOUT_FILE = "about.toml"
COURSE_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,62}")
DEFAULT_COURSE_ID = "default"
"""The default course's id when ``_course/about.toml`` gives none."""


@dataclass(frozen=True)
class CourseFolder:
    """One course: its id, titles and the folder of its own texts (lesson, glossary)."""

    id: str
    path: Path
    titles: Mapping[str, str] = field(default_factory=dict)
    """Title by language; English is always there: without ``about.toml`` a course is titled
    by its id, the default course is untitled (``""``)."""
    order: int = 1000
    is_default: bool = False
    """The course of every exercise whose ``exercise.toml`` names none."""

    def title(self, lang: str) -> str:
        """The title in ``lang``, else English."""
        return title_in(self.titles, lang)

    def lesson_file(self, lang: str) -> Path:
        """Where the lesson page in ``lang`` is (it may not exist)."""
        return self.path / ("lesson.md" if lang == "en" else f"lesson.{lang}.md")


def course_folders(root: Path) -> tuple[CourseFolder, ...]:
    """The courses of the exercises folder ``root``, the default one always among them, in
    course order. Raises ``CourseError`` naming the file and field of a broken ``about.toml``."""
    courses = [_read_folder(root / DEFAULT_COURSE_DIR, None)]
    if root.is_dir():
        for path in sorted(root.iterdir()):
            if path.is_dir() and path.name.startswith(COURSE_DIR_PREFIX):
                courses.append(_read_folder(path, path.name.removeprefix(COURSE_DIR_PREFIX)))
    ids = [c.id for c in courses]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise CourseError(f"course id(s) used by two course folders: {', '.join(repeated)}")
    return tuple(sorted(courses, key=lambda c: (c.order, not c.is_default, c.id)))


def default_course(courses: tuple[CourseFolder, ...]) -> CourseFolder:
    """The course of the exercises that name none (``course_folders`` always has one)."""
    return next(c for c in courses if c.is_default)


def course_of(courses: tuple[CourseFolder, ...], course_id: str | None) -> CourseFolder | None:
    """The course an exercise names (None: the default course); None when there is no such
    course (validate refuses the exercise)."""
    if course_id is None:
        return default_course(courses)
    return next((c for c in courses if c.id == course_id), None)


def _read_folder(path: Path, folder_id: str | None) -> CourseFolder:
    where = f"{path.name}/{ABOUT_FILE}"
    if folder_id is not None and not COURSE_ID.fullmatch(folder_id):
        raise CourseError(
            f"{path.name}: a course folder is '_course-' and an id of lower-case letters, "
            "digits and dashes"
        )
    file = path / ABOUT_FILE
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8")) if file.is_file() else {}
    except tomllib.TOMLDecodeError as exc:
        raise CourseError(f"{where}: not valid TOML: {exc}") from None
    allowed = {"title", "order"} | ({"id"} if folder_id is None else set())
    unknown = set(data) - allowed
    if unknown:
        raise CourseError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    course_id = folder_id if folder_id is not None else data.get("id", DEFAULT_COURSE_ID)
    if not isinstance(course_id, str) or not COURSE_ID.fullmatch(course_id):
        raise CourseError(f"{where}: 'id' must be lower-case letters, digits and dashes")
    order = data.get("order", 1000)
    if isinstance(order, bool) or not isinstance(order, int):
        raise CourseError(f"{where}: 'order' must be an integer")
    # An untitled default course (a catalog of a few exercises) shows no heading; any other
    # course needs a name to be told apart.
    titles = (
        titles_by_language(data["title"], where, CourseError)
        if "title" in data
        else {"en": folder_id or ""}
    )
    return CourseFolder(course_id, path, titles, order, folder_id is None)
