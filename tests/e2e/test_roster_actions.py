"""The roster's actions in a browser at a phone's, a laptop's and a wide screen's width: an
instructor disables a learner, enables them again and makes them a new sign-up link, each
confirmed on its own page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import INSTRUCTOR, Server, assert_accessible
from tests.e2e.test_layout import WIDTHS, page_width
from tests.e2e.test_learner_flow import sign_in

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]


def confirm(page: Any, name: str, label: str, question: str, button: str) -> None:
    """Open the action from the learner's row, check its page, confirm."""
    page.locator(f'tr[data-user="{name}"]').get_by_role("link", name=f"{label}: {name}").click()
    assert page.get_by_role("heading", level=1).inner_text() == question
    assert_accessible(page)
    page.get_by_role("button", name=button).click()
    page.locator("#roster-done").wait_for()


@pytest.mark.parametrize("size", WIDTHS.values(), ids=WIDTHS.keys())
def test_an_instructor_disables_enables_and_relinks_a_learner(
    server: Server, browser: Any, size: tuple[int, int], shots: Path
) -> None:
    url = server.url
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_in(page, url, *INSTRUCTOR)
    name = f"roster{size[0]}"
    page.goto(f"{url}/instructor/roster")
    page.get_by_label("Roster (CSV)").fill(
        f"username,display_name,email,section\n{name},Rosa Ster,{name}@example.org,E2E\n"
    )
    page.get_by_role("button", name="Import").click()
    page.locator("#links-heading").wait_for()
    row = page.locator(f'tr[data-user="{name}"]').last
    assert row.locator("[data-account]").get_attribute("data-account") == "active"

    confirm(page, name, "Disable", f"Disable the account of {name}?", "Disable the account")
    done = page.locator("#roster-done").inner_text()
    assert f"teacher disabled the account of {name}" in done
    row = page.locator(f'tr[data-user="{name}"]')
    assert row.locator("[data-account]").get_attribute("data-account") == "disabled"
    assert page_width(page) <= size[0]
    assert_accessible(page)

    confirm(page, name, "Enable", f"Enable the account of {name}?", "Enable the account")
    assert row.locator("[data-account]").get_attribute("data-account") == "active"

    confirm(page, name, "New link", f"Make a new sign-up link for {name}?", "Make a new link")
    link = page.get_by_label(f"Sign-up link for {name}").input_value()
    assert link.startswith(f"{url}/join/")
    assert page_width(page) <= size[0]
    assert_accessible(page)
    if size == WIDTHS["laptop"]:
        page.screenshot(path=shots / "roster.png", full_page=True)

    joining = browser.new_context().new_page()
    joining.goto(link)
    assert "Rosa Ster" in joining.locator("main").inner_text()
    joining.context.close()
    assert errors == []
    context.close()
