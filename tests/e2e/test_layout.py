"""The exercise page and the gradebook at a phone's, a laptop's and a wide screen's width."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.conftest import INSTRUCTOR, Server
from tests.e2e.test_learner_flow import RESULT_TIMEOUT_MS, sign_in

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]

EXERCISE = "gru-update-gate"
WIDTHS = {"phone": (390, 844), "laptop": (1366, 768), "wide": (1920, 1080)}


def open_page(browser: Any, server: Server, size: tuple[int, int], path: str) -> Any:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    sign_in(page, server.url, *INSTRUCTOR)
    page.goto(f"{server.url}{path}")
    return page


def page_width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


@pytest.mark.parametrize("size", WIDTHS.values(), ids=WIDTHS.keys())
def test_the_exercise_page_fits_its_width(
    server: Server, browser: Any, size: tuple[int, int]
) -> None:
    page = open_page(browser, server, size, f"/learn/{EXERCISE}")
    page.wait_for_selector("#statement .katex")
    page.wait_for_selector("#editor .cm-editor")
    assert page_width(page) <= size[0]
    clipped = page.evaluate("""[...document.querySelectorAll('.math.block')]
        .filter(e => e.scrollHeight > e.clientHeight + 1).map(e => e.dataset.tex)""")
    assert clipped == []
    # The starter's lines (its TODO comment too) wrap inside the editor: nothing past its edge.
    assert page.evaluate("""(() => { const s = document.querySelector('#editor .cm-scroller');
        return s.scrollWidth <= s.clientWidth + 1; })()""")
    page.context.close()


@pytest.mark.parametrize("size", WIDTHS.values(), ids=WIDTHS.keys())
def test_the_gradebook_keeps_its_total_in_view(
    server: Server, browser: Any, size: tuple[int, int]
) -> None:
    page = open_page(browser, server, size, "/instructor/gradebook")
    total = page.locator("th.total")
    total.wait_for()
    assert page_width(page) <= size[0]
    box = total.bounding_box()
    assert box is not None and box["x"] + box["width"] <= size[0]
    tallest = page.evaluate("""Math.max(...[...document.querySelectorAll(
        '.gradebook th.exercise-col .title')].map(e => e.getBoundingClientRect().height /
        parseFloat(getComputedStyle(e).lineHeight)))""")
    assert tallest <= 2.05  # a long title takes two lines at most
    page.context.close()


def test_grading_shows_its_progress_and_marks_the_old_result(server: Server, browser: Any) -> None:
    page = open_page(browser, server, WIDTHS["laptop"], f"/learn/{EXERCISE}")
    page.wait_for_selector("#editor .cm-editor")
    run = page.get_by_role("button", name="Run public tests")
    run.click()
    page.locator("#results .verdict").wait_for(timeout=RESULT_TIMEOUT_MS)
    held: list[Any] = []
    # Hold the next run until the checks below are done.
    page.route("**/run?*", lambda route: held.append(route))
    run.click()
    progress = page.locator("#progress")
    progress.wait_for(state="visible")
    page.wait_for_function("/\\d\\.\\d s$/.test(document.getElementById('progress').textContent)")
    first = progress.inner_text()
    assert re.fullmatch(r"Running the public tests… \d+\.\d s", first)
    page.wait_for_function(
        "(t) => document.getElementById('progress').textContent !== t", arg=first
    )  # the elapsed time moves
    assert "stale" in (page.locator("#results").get_attribute("class") or "")
    assert page.locator("#results .stale-note").inner_text() == (
        "Previous result: it is replaced when the new one is ready."
    )
    assert len(held) == 1
    held[0].continue_()
    page.wait_for_selector("#progress", state="hidden", timeout=RESULT_TIMEOUT_MS)
    assert page.locator("#results .stale-note").count() == 0
    assert page.locator("#results .verdict").count() == 1
    page.context.close()
