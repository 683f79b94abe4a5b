"""The course pages in a real headless Chromium: a learner's assignments, the instructor's
gradebooks per assignment and overall, and the class view with its charts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graders import ExerciseCatalog
from tests.e2e.conftest import GRADED_LEARNER, INSTRUCTOR, Server, assert_accessible
from tests.e2e.test_layout import WIDTHS, page_width
from tests.e2e.test_learner_flow import sign_in

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]

EXERCISE = "gru-update-gate"
ASSIGNMENT = "gru-by-hand"  # the bundled course's first assignment holds the update gate
ASSIGNMENTS = len(
    ExerciseCatalog(Path(__file__).resolve().parents[2] / "exercises").course().assignments
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
