"""graders/exercises/courses.py: the course folders beside the exercises, and the course an
exercise names."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from graders.api import CourseError, ExerciseCatalog, ExerciseError, load_exercise
from graders.authoring.validation import validate_course
from graders.exercises import course_folders, course_of
from tests.graders.helpers import EXERCISES, GATE, edit


def add_course(root: Path, folder: str, about: str | None, lesson: str | None = None) -> Path:
    path = root / folder
    path.mkdir()
    if about is not None:
        (path / "about.toml").write_text(about, encoding="utf-8")
    if lesson is not None:
        (path / "lesson.md").write_text(lesson, encoding="utf-8")
    return path


def add_exercise(root: Path, exercise_id: str, course: str | None) -> Path:
    folder = root / exercise_id
    shutil.copytree(GATE, folder, ignore=shutil.ignore_patterns("__pycache__"))
    edit(folder / "exercise.toml", 'id = "gru-update-gate"', f'id = "{exercise_id}"')
    if course is not None:
        edit(folder / "exercise.toml", "order = 10", f'order = 10\ncourse = "{course}"')
    return folder


def test_a_catalog_without_course_folders_has_one_untitled_default_course(
    tmp_path: Path,
) -> None:
    (course,) = course_folders(tmp_path)
    assert (course.id, course.title("en"), course.is_default) == ("default", "", True)
    assert course_of((course,), None) is course
    assert course_of((course,), "numpy-foundations") is None


def test_courses_are_read_from_their_folders_in_course_order(tmp_path: Path) -> None:
    add_course(tmp_path, "_course", 'id = "first"\ntitle = "First"\norder = 2\n')
    add_course(tmp_path, "_course-second", 'title = { en = "Second", ja = "二番目" }\norder = 1\n')
    add_course(tmp_path, "_course-third", None)
    courses = course_folders(tmp_path)
    assert [(c.id, c.title("en"), c.title("ja"), c.is_default) for c in courses] == [
        ("second", "Second", "二番目", False),
        ("first", "First", "First", True),
        ("third", "third", "third", False),
    ]
    assert courses[0].lesson_file("ja") == tmp_path / "_course-second" / "lesson.ja.md"
    assert course_of(courses, None) is courses[1]
    assert course_of(courses, "third") is courses[2]


@pytest.mark.parametrize(
    ("folder", "about", "problem"),
    [
        ("_course-x", 'id = "y"\n', r"_course-x/about.toml: unknown field\(s\) id"),
        ("_course-x", "title = 3\n", "'title' must be a string or a table"),
        ("_course-x", 'title = { ja = "x" }\n', "'title' must be a string or a table"),
        ("_course-x", 'order = "2"\n', "'order' must be an integer"),
        ("_course-x", "title = [\n", "not valid TOML"),
        ("_course-Big", "", "a course folder is '_course-' and an id"),
        ("_course", 'id = "Not An Id"\n', "'id' must be lower-case"),
        ("_course", 'id = "x"\n', "course id.s. used by two course folders: x"),
    ],
)
def test_a_broken_course_folder_is_named_with_its_field(
    tmp_path: Path, folder: str, about: str, problem: str
) -> None:
    if folder == "_course":
        add_course(tmp_path, "_course-x", "")
    add_course(tmp_path, folder, about)
    with pytest.raises(CourseError, match=problem):
        ExerciseCatalog(tmp_path).courses()


def test_an_exercise_names_its_course_and_validate_refuses_an_unknown_one(
    tmp_path: Path,
) -> None:
    add_course(tmp_path, "_course-second", 'title = "Second"\n')
    assert load_exercise(add_exercise(tmp_path, "in-default", None)).course is None
    assert load_exercise(add_exercise(tmp_path, "in-second", "second")).course == "second"
    result = validate_course(tmp_path)
    assert result is not None and result.ok, result and result.problems
    assert result.notes[0] == "courses default, second"
    add_exercise(tmp_path, "in-nowhere", "third")
    result = validate_course(tmp_path)
    assert result is not None and result.problems == [
        "in-nowhere: course 'third' has no folder _course-third/; add it or correct the name"
    ]


def test_a_course_field_that_is_no_course_id_is_refused(tmp_path: Path) -> None:
    folder = add_exercise(tmp_path, "odd", "Numpy Foundations")
    with pytest.raises(ExerciseError, match="field 'course' must be a course id"):
        load_exercise(folder)


def test_the_bundled_exercises_name_courses_that_exist() -> None:
    catalog = ExerciseCatalog(EXERCISES)
    courses = catalog.courses()
    assert [c.id for c in courses][:2] == ["gated-recurrence", "numpy-foundations"]
    assert all(course_of(courses, e.course) is not None for e in catalog.all())
    assert catalog.load("gru-update-gate").course is None
