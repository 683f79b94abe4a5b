"""The course pages in a real headless Chromium: a learner's assignments, the instructor's
gradebooks per assignment and overall, and the class view with its charts; the exercise
page's assignment banner, the archive download and the extension form."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest

from graders.api import ExerciseCatalog
from tests.e2e.conftest import GRADED_LEARNER, INSTRUCTOR, Server, assert_accessible
from tests.e2e.test_layout import WIDTHS, page_width
from tests.e2e.test_learner_flow import sign_in

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]

EXERCISE = "gru-update-gate"
ASSIGNMENT = "gru-by-hand"  # the bundled course's first assignment holds the update gate
ASSIGNMENTS = len(
    ExerciseCatalog(Path(__file__).resolve().parents[2] / "exercises").schedule().assignments
)


def test_a_learner_reads_the_assignments(server: Server, browser: Any, shots: Path) -> None:
    url = server.url
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(f"{url}/signup")
    page.get_by_label("Username").fill("cleo")
    page.get_by_label("Password", exact=True).fill("cleopatra-69")
    page.get_by_label("Repeat the password").fill("cleopatra-69")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{url}/")
    page.get_by_role("link", name="Assignments").click()
    page.wait_for_url(f"{url}/course")
    sections = page.locator("section.assignment")
    assert sections.count() == ASSIGNMENTS
    first = page.locator(f'section[data-assignment="{ASSIGNMENT}"]')
    assert first.locator("[data-state]").get_attribute("data-state") in {"open", "late", "closed"}
    row = first.locator(f'tr[data-exercise="{EXERCISE}"]')
    assert "Not submitted" in row.inner_text()
    row.get_by_role("link").click()
    page.wait_for_url(f"{url}/learn/{EXERCISE}")
    page.go_back()
    page.screenshot(path=shots / "assignments.png", full_page=True)
    assert_accessible(page)
    context.close()


def test_the_instructor_gradebooks_and_class_view(
    server: Server, browser: Any, shots: Path
) -> None:
    url = server.url
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    sign_in(page, url, *INSTRUCTOR)
    page.get_by_role("link", name="Assignments").click()
    page.wait_for_url(f"{url}/instructor/assignments")
    cell = page.locator(f'tr[data-user="{GRADED_LEARNER}"] td[data-assignment="{ASSIGNMENT}"]')
    got, most = (float(x) for x in cell.inner_text().split("/"))
    assert got >= 1 and most > got  # the update gate's weight of the assignment's total
    page.screenshot(path=shots / "gradebook-assignments.png", full_page=True)
    assert_accessible(page)

    page.get_by_role("link", name="A GRU by hand").click()
    page.wait_for_url(f"{url}/instructor/assignments/{ASSIGNMENT}")
    row = page.locator(f'tr[data-user="{GRADED_LEARNER}"]')
    assert row.locator(f'td[data-exercise="{EXERCISE}"]').inner_text().startswith("1")
    # Nobody has the whole assignment yet: the page says so instead of a flat line at zero.
    assert page.locator("figure.chart").count() == 0
    assert page.locator('[data-empty-chart="completion"]').inner_text() == (
        "No completions yet: no learner has full marks on every exercise."
    )
    page.screenshot(path=shots / "assignment.png", full_page=True)
    assert_accessible(page)

    page.get_by_role("link", name=EXERCISE, exact=True).first.click()
    page.wait_for_url(f"{url}/instructor/analytics/{EXERCISE}")
    assert page.locator("figure.chart svg").count() >= 2
    box = page.locator("figure.chart svg").first.bounding_box()
    assert box is not None and box["width"] > 200 and box["height"] > 100
    full = page.locator('table[data-table="scores"] tr', has_text="100 %")
    assert int(full.locator("td").nth(1).inner_text()) >= 1
    page.screenshot(path=shots / "class-view.png", full_page=True)
    assert_accessible(page)
    context.close()


@pytest.mark.parametrize("size", WIDTHS.values(), ids=WIDTHS.keys())
def test_the_learner_page_opens_from_the_gradebook(
    server: Server, browser: Any, shots: Path, size: tuple[int, int]
) -> None:
    url = server.url
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    sign_in(page, url, *INSTRUCTOR)
    page.goto(f"{url}/instructor/gradebook")
    page.locator(f'tr[data-user="{GRADED_LEARNER}"]').get_by_role(
        "link", name=GRADED_LEARNER, exact=True
    ).click()
    page.wait_for_url(f"{url}/instructor/learners/{GRADED_LEARNER}")
    assert page.get_by_role("heading", level=1).inner_text() == f"Learner {GRADED_LEARNER}"
    counted = page.locator(f'section[data-assignment="{ASSIGNMENT}"] tr#exercise-{EXERCISE}')
    assert counted.locator("td").nth(3).inner_text() == "1"  # graded submissions
    newest = page.locator(f"#submissions-{EXERCISE} details.record-submission").first
    assert newest.get_attribute("open") is not None  # the newest is open, its code shown
    assert "def " in newest.locator("pre.code").inner_text()
    assert newest.locator('tr[data-visibility="hidden"]').count() >= 1
    assert page_width(page) <= size[0]
    if size[0] == 1366:
        page.screenshot(path=shots / "learner.png", full_page=True)
    assert_accessible(page)

    # Its submission list: filtered to the learner, the filter in the form.
    page.get_by_role("link", name="Submission list").click()
    page.wait_for_url(f"{url}/instructor/submissions?learner={GRADED_LEARNER}")
    assert page.get_by_label("Learner").input_value() == GRADED_LEARNER
    rows = page.locator('table[data-table="submissions"] tbody tr')
    assert rows.count() >= 1
    assert {rows.nth(i).locator("td").nth(1).inner_text() for i in range(rows.count())} == {
        GRADED_LEARNER
    }
    assert page_width(page) <= size[0]
    assert_accessible(page)

    # A score of the gradebook leads to the learner's page, at the exercise's row.
    page.goto(f"{url}/instructor/gradebook")
    page.locator(f'tr[data-user="{GRADED_LEARNER}"] td[data-exercise="{EXERCISE}"] a').click()
    page.wait_for_url(f"{url}/instructor/learners/{GRADED_LEARNER}#exercise-{EXERCISE}")
    context.close()


def sign_up(page: Any, url: str, name: str) -> None:
    page.goto(f"{url}/signup")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password", exact=True).fill(f"{name}-password-69")
    page.get_by_label("Repeat the password").fill(f"{name}-password-69")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{url}/")


@pytest.mark.parametrize("size", WIDTHS.values(), ids=WIDTHS.keys())
def test_the_exercise_page_shows_its_assignment_and_the_lesson_knows_the_learner(
    server: Server, browser: Any, size: tuple[int, int]
) -> None:
    url = server.url
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    name = f"dana{size[0]}"
    sign_up(page, url, name)

    page.goto(f"{url}/lesson?lang=en")
    assert page.locator('a[href="/login"]').count() == 0  # signed in: no "Sign in"
    assert name in (page.locator("header").text_content() or "")  # folded on a phone
    assert page_width(page) <= size[0]
    assert_accessible(page)

    page.goto(f"{url}/learn/{EXERCISE}?lang=en")
    banner = page.locator(f'section.assignment-banner[data-assignment="{ASSIGNMENT}"]')
    assert banner.get_attribute("data-state") in {"upcoming", "open", "late", "closed"}
    text = banner.inner_text()
    assert "Due " in text and ("left" in text or "past due" in text or "opens" in text)
    assert "The assignment counts 0 % of this exercise's" in text  # nothing submitted yet
    assert banner.locator('a[href="/course"]').is_visible()
    assert page_width(page) <= size[0]
    assert_accessible(page)
    context.close()


@pytest.mark.parametrize("size", WIDTHS.values(), ids=WIDTHS.keys())
def test_an_instructor_downloads_the_submissions_and_extensions_keep_the_schedule_zone(
    server: Server, browser: Any, size: tuple[int, int]
) -> None:
    url = server.url
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, accept_downloads=True
    )
    page = context.new_page()
    sign_in(page, url, *INSTRUCTOR)
    page.goto(f"{url}/instructor/assignments/{ASSIGNMENT}")
    zone = ExerciseCatalog(Path(__file__).resolve().parents[2] / "exercises").schedule().timezone
    form = page.locator("form[data-archive]")
    form.get_by_label("the last submission").check()
    with page.expect_download() as download:
        form.get_by_role("button", name="Download submissions").click()
    archive = download.value
    assert archive.suggested_filename.endswith(".zip")
    with zipfile.ZipFile(archive.path()) as opened:
        names = opened.namelist()
    assert any(n.endswith("/index.csv") for n in names)
    assert any(f"/{GRADED_LEARNER}/" in n and n.endswith("/submission.py") for n in names), names

    # An extension is entered in the schedule's zone; one before the due time is refused, and
    # the page says why, naming both times.
    until = page.get_by_label(f"New due time ({zone})")
    assert until.is_visible()
    page.locator('form[action$="/extensions"] select[name="learner"]').select_option(GRADED_LEARNER)
    until.fill("2026-01-01T09:00")
    page.get_by_role("button", name="Extend").click()
    assert page.get_by_role("heading", level=1).inner_text() == "Not an extension"
    refusal = page.locator("main").inner_text()
    assert "an extension ends after the assignment's own due time" in refusal
    assert "2026-01-01 09:00" in refusal
    assert page_width(page) <= size[0]
    assert_accessible(page)
    context.close()
