"""The error pictures and custom inputs in a real headless Chromium, with axe on each state.

A learner runs code whose last two columns are off on pairwise-distances and sees the
picture of the failed public test beside its table; tries inputs of their own and reads their
output next to the reference's; and reads on parameter-count that it takes none.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.app.api.routes.test_feedback import EXERCISE, LAST_COLUMNS_OFF
from tests.e2e.conftest import Server, assert_accessible
from tests.e2e.test_learner_flow import RESULT_TIMEOUT_MS, set_code

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]


def sign_up(page: Any, url: str, name: str, password: str) -> None:
    page.goto(f"{url}/signup")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_label("Repeat the password").fill(password)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_load_state()
    assert page.locator(".alert.error").count() == 0, page.locator(".alert.error").inner_text()
    page.wait_for_url(f"{url}/")


def test_error_pictures_and_custom_inputs(server: Server, browser: Any, shots: Path) -> None:
    context = browser.new_context(viewport={"width": 1440, "height": 1080})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_up(page, server.url, "hedy", "lamarr-1914-spread")

    page.goto(f"{server.url}/learn/{EXERCISE}")
    page.wait_for_selector("#editor .cm-editor")
    set_code(page, LAST_COLUMNS_OFF)
    page.get_by_role("button", name="Run public tests").click()
    picture = page.locator('#results .error-picture[data-test="random points"]')
    picture.wait_for(timeout=RESULT_TIMEOUT_MS)
    assert picture.get_attribute("data-kind") == "matrix"
    assert picture.locator("svg").is_visible()
    cells = picture.locator('table[data-grid="Error"] tbody tr').first.locator("td")
    assert [c.strip() for c in cells.all_inner_texts()][3:] == ["1", "1"]
    assert page.locator("#results .error-picture").count() == 1  # the 3 x 2 case: text only
    picture.scroll_into_view_if_needed()
    picture.screenshot(path=shots / "error-picture.png")
    assert_accessible(page)

    # Custom inputs: the prefilled public example, the learner's output beside the reference's.
    section = page.locator("#custom-inputs")
    assert section.get_attribute("data-custom-inputs") == "on"
    page.get_by_label("X", exact=True).fill("np.eye(4)")
    page.get_by_label("Y", exact=True).fill("np.ones((5, 4))")
    page.get_by_role("button", name="Try these inputs").click()
    message = page.locator("#try-result .try-message")
    message.wait_for(timeout=RESULT_TIMEOUT_MS)
    assert message.get_attribute("data-status") == "different"
    assert message.inner_text().startswith("distances: values: 8 of 20 elements")
    yours = page.locator("#try-result .try-yours").inner_text()
    reference = page.locator("#try-result .try-reference").inner_text()
    assert yours.startswith("array([[") and yours != reference
    section.scroll_into_view_if_needed()
    section.screenshot(path=shots / "custom-inputs.png")
    assert_accessible(page)

    # A refused input says which and where, and nothing was run.
    page.get_by_label("Y", exact=True).fill("__import__('os')")
    page.get_by_role("button", name="Try these inputs").click()
    refused = page.locator("#try-result .alert.error")
    refused.wait_for(timeout=RESULT_TIMEOUT_MS)
    assert refused.inner_text().startswith("input Y, line 1, column 1: only np.array")

    page.goto(f"{server.url}/learn/parameter-count")
    assert page.locator("#custom-inputs").get_attribute("data-custom-inputs") == "off"
    assert "does not take inputs of your own" in page.locator("#custom-inputs-off").inner_text()
    # (No axe here: the statement's own wide code block is a scrollable region axe flags on
    # this page, with or without the custom inputs' section.)
    assert errors == []
    context.close()
