"""README.md's course tables list every exercise of every course, in course order, under its
course: the first page an instructor reads tells the whole catalog, not part of it."""

from __future__ import annotations

import re
from pathlib import Path

from graders.api import ExerciseCatalog

REPO = Path(__file__).resolve().parents[1]


def test_the_readme_lists_every_exercise_under_its_course_in_course_order() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    courses = readme[readme.index("## Courses") : readme.index("The catalog page shows them")]
    # Each course's table follows the paragraph that names its folder.
    listed: dict[str | None, list[str]] = {}
    for folder, table in re.findall(
        r"\(`exercises/(_course[\w-]*)/`;(.*?)(?=\n\*\*|\Z)", courses, re.S
    ):
        course = None if folder == "_course" else folder.removeprefix("_course-")
        listed[course] = re.findall(r"^\| `([\w-]+)` \|", table, re.M)
    catalog = ExerciseCatalog(REPO / "exercises")
    expected: dict[str | None, list[str]] = {}
    for exercise in sorted(catalog.all(), key=lambda e: e.order):
        expected.setdefault(exercise.course, []).append(exercise.id)
    assert listed == expected
