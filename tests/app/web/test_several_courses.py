"""Two courses in one exercises folder: the catalog page and GET /exercises group by course,
each course has its title and (if it has one) its lesson page, and an assignment may take
exercises of both courses into one gradebook."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.api.deps import get_catalog
from app.models import Role
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from app.store import accounts as account_store
from app.web import auth
from graders.api import ExerciseCatalog
from tests.app.conftest import EXERCISES, read_exercise_file
from tests.app.course_catalog import course_service
from tests.app.web.helpers import csrf_of, sign_in, sign_up

# A copy of gru-update-gate that names the second course: a course is what an exercise names.
SECOND = "numpy-gate"
FIRST = "gru-reset-gate"


def course_toml(now: datetime) -> str:
    return f"""
[[assignment]]
id = "mixed"
title = "One of each course"
opens = {(now - timedelta(days=1)).isoformat()}
due = {(now + timedelta(days=7)).isoformat()}
exercises = ["{FIRST}", {{ id = "{SECOND}", weight = 2 }}]
"""


@pytest.fixture
def service(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> Iterator[tuple[TestClient, GradingRuntime]]:
    now = datetime.now(UTC).replace(microsecond=0)
    with course_service(
        database_url,
        tmp_path,
        shared_grader,
        course_toml(now),
        elsewhere={SECOND: "numpy-foundations"},
    ) as service:
        yield service


def sections(html: str) -> dict[str, str]:
    """Each course section of the catalog page by course id, in page order."""
    found = re.findall(
        r'<section class="catalog-course" data-course="([^"]+)"(.*?)</section>', html, re.DOTALL
    )
    return dict(found)


def test_the_catalog_lists_each_course_under_its_title_with_its_lesson(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, _ = service
    html = client.get("/").text
    courses = sections(html)
    assert list(courses) == ["gated-recurrence", "numpy-foundations"]
    gated, numpy = courses.values()
    assert '<h2 id="course-gated-recurrence">Gated recurrent networks</h2>' in gated
    assert '<h2 id="course-numpy-foundations">numpy foundations</h2>' in numpy
    in_numpy = re.findall(r'data-exercise="([^"]+)"', numpy)
    assert SECOND in in_numpy and "gru-update-gate" not in in_numpy
    in_gated = re.findall(r'data-exercise="([^"]+)"', gated)
    assert in_gated[0] == "gated-unit" and SECOND not in in_gated  # the lesson's unit first
    assert 'href="/lesson"' in gated and 'href="/lesson/numpy-foundations"' in numpy
    ja = client.get("/", headers={"Accept-Language": "ja"}).text
    assert ">numpy の基礎</h2>" in ja and ">ゲート付き再帰ネットワーク</h2>" in ja


def test_each_course_has_its_lesson_url(
    service: tuple[TestClient, GradingRuntime], tmp_path: Path
) -> None:
    client, _ = service
    default = client.get("/lesson/gated-recurrence")
    assert default.status_code == 200
    assert "<h1>The lesson: gated units on the reading task</h1>" in default.text
    second = client.get("/lesson/numpy-foundations?lang=ja")
    assert second.status_code == 200
    assert "<h1>レッスン：numpy の基礎</h1>" in second.text
    client.cookies.clear()  # ?lang=ja is remembered: back to English pages
    (tmp_path / "exercises" / "_course-no-lesson").mkdir()  # a course without a lesson page
    for missing in ("/lesson/no-lesson", "/lesson/no-such-course"):
        page = client.get(missing)
        assert page.status_code == 404, missing
        assert "This course has no lesson page &#39;lesson.md&#39;." in page.text
    assert 'data-course="no-lesson"' not in client.get("/").text  # no exercises: not listed


def test_get_exercises_lists_course_after_course_with_each_course_named(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, _ = service
    listed = client.get("/exercises").json()
    courses = [e["course"] for e in listed]
    assert courses == sorted(courses, key=["gated-recurrence", "numpy-foundations"].index)
    by_id = {e["id"]: e for e in listed}
    assert (by_id[SECOND]["course"], by_id[SECOND]["course_title"]) == (
        "numpy-foundations",
        "numpy foundations",
    )
    assert (by_id[FIRST]["course"], by_id[FIRST]["course_title"]) == (
        "gated-recurrence",
        "Gated recurrent networks",
    )
    detail = client.get(f"/exercises/{SECOND}").json()
    assert detail["course"] == "numpy-foundations"


def test_an_assignment_takes_exercises_of_both_courses_into_one_gradebook(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    sign_up(client, "lea")
    token = csrf_of(client.get("/account").text)
    for exercise, source in ((FIRST, FIRST), (SECOND, "gru-update-gate")):
        response = client.post(
            "/submit?wait=30",
            headers={auth.CSRF_HEADER: token},
            json={"exercise": exercise, "code": read_exercise_file(source, "solution.py")},
        )
        assert response.json()["verdict"] == "passed", response.text
    standing = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", client.get("/course").text))
    assert "Total 3 / 3" in standing
    client.cookies.clear()
    with runtime.sessions() as session:
        account_store.create_user(
            session=session, name="prof", role=Role.INSTRUCTOR, password="a long password"
        )
        session.commit()
    sign_in(client, "prof", "a long password")
    page = client.get("/instructor/assignments/mixed").text
    assert f'href="/instructor/analytics/{FIRST}"' in page
    assert f'href="/instructor/analytics/{SECOND}"' in page
    row = page[page.index('data-user="lea"') :].split("</tr>")[0]
    assert re.sub(r"<[^>]+>|\s+", "", row).endswith("3/3")
    book = client.get("/instructor/gradebook").text
    header = re.findall(r'<th scope="colgroup" colspan="(\d+)" data-course="([^"]+)">', book)
    assert [course for _, course in header] == ["gated-recurrence", "numpy-foundations"]
    listed = client.get("/exercises").json()
    assert [int(count) for count, _ in header] == [
        sum(e["course"] == course for e in listed) for _, course in header
    ]


def test_a_broken_course_folder_keeps_every_exercise_listed(
    client: TestClient, tmp_path: Path
) -> None:
    root = tmp_path / "exercises"
    root.mkdir()
    (root / FIRST).symlink_to(EXERCISES / FIRST)
    (root / "_course-broken").mkdir()
    (root / "_course-broken" / "about.toml").write_text("title = [\n", encoding="utf-8")
    catalog = ExerciseCatalog(root)
    client.app.dependency_overrides[get_catalog] = lambda: catalog  # type: ignore[attr-defined]
    page = client.get("/")
    assert page.status_code == 200
    assert re.findall(r'data-exercise="([^"]+)"', page.text) == [FIRST]
    assert "<h2" not in page.text.split('class="catalog-course"')[1]  # one untitled course
    listed = client.get("/exercises").json()
    assert [(e["id"], e["course"], e["course_title"]) for e in listed] == [(FIRST, "default", "")]
