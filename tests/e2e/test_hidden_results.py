"""A failed hidden test on the exercise page, at a phone's, a laptop's and a desktop's width: its
points and its failure's category are shown (as the API and the CLI give them), never its
values, and the page passes axe."""

from __future__ import annotations

from typing import Any

import pytest

from graders.checks.hidden import HIDDEN_MESSAGES
from graders.results import Failure
from tests.e2e.conftest import Server, assert_accessible
from tests.e2e.test_learner_flow import RESULT_TIMEOUT_MS, WRONG, set_code

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]

EXERCISE = "gru-update-gate"


@pytest.mark.parametrize("width", [390, 1366, 1920])
def test_a_failed_hidden_test_shows_its_points_and_category(
    server: Server, browser: Any, width: int
) -> None:
    url = server.url
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{url}/signup")
    page.locator("#username").fill(f"hidden{width}")
    page.locator("#password").fill("no-peeking-please")
    page.locator("#password2").fill("no-peeking-please")
    page.locator("#password2").press("Enter")
    page.wait_for_url(f"{url}/")

    page.goto(f"{url}/learn/{EXERCISE}")
    page.wait_for_selector("#editor .cm-editor")
    set_code(page, WRONG)
    page.get_by_role("button", name="Submit").click()
    page.locator('#results .verdict[data-verdict="failed"]').wait_for(timeout=RESULT_TIMEOUT_MS)
    row = page.locator('#results tr[data-visibility="hidden"][data-status="failed"]').first
    assert row.locator(".badge.hidden-test").inner_text() == "Hidden test"
    got, worth = (float(x) for x in row.locator("td.num").inner_text().split("/"))
    assert got == 0 < worth
    message = row.locator("td.message").inner_text()
    assert HIDDEN_MESSAGES[Failure.VALUES] in message  # 1 - z: right shapes, wrong values
    assert "expected" not in message.replace(HIDDEN_MESSAGES[Failure.VALUES], "")
    assert row.is_visible()
    assert_accessible(page)
    context.close()
