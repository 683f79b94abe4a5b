"""A class imported and invited in a browser at a phone's, a laptop's and a wide screen's
width: the import moves on to its links' page (a reload imports nothing again), the roster box
is as wide as its card, and Invite by e-mail reaches the suite's SMTP server, the roster
saying so for each learner."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import INSTRUCTOR, Server, assert_accessible
from tests.e2e.test_layout import WIDTHS, page_width
from tests.e2e.test_learner_flow import sign_in

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]


@pytest.mark.parametrize("size", WIDTHS.values(), ids=WIDTHS.keys())
def test_an_instructor_imports_a_class_and_e_mails_its_links(
    server: Server, browser: Any, size: tuple[int, int]
) -> None:
    if server.mailbox is None:
        pytest.skip("an external server: its e-mail is not this suite's to read")
    url = server.url
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_in(page, url, *INSTRUCTOR)
    page.goto(f"{url}/instructor/roster")
    box = page.get_by_label("Roster (CSV)")
    form = page.locator("form", has=box)
    # As wide as its card, whatever the screen: a class is pasted into it, not typed.
    assert box.bounding_box()["width"] >= 0.9 * form.bounding_box()["width"]
    assert box.bounding_box()["height"] >= 200
    name = f"invite{size[0]}"
    box.fill(f"username,display_name,email\n{name},In Vite,{name}@example.org\n")
    page.get_by_role("button", name="Import").click()
    page.locator("#links-heading").wait_for()
    assert "/instructor/roster/imported/" in page.url
    shown = page.locator(f'.roster-links tr[data-user="{name}"] code').inner_text()
    page.reload()  # no resubmission: the same links, nothing imported twice
    assert page.locator(f'.roster-links tr[data-user="{name}"] code').inner_text() == shown
    assert page.locator("#roster-problems").count() == 0
    assert page_width(page) <= size[0]
    assert_accessible(page)

    page.goto(f"{url}/instructor/roster")
    page.get_by_role("button", name="Send the invitations").click()
    page.locator("#invited").wait_for()
    row = page.locator(f'tr[data-user="{name}"]')
    assert row.locator("[data-mail]").get_attribute("data-mail") == "sent"
    assert page_width(page) <= size[0]
    assert_accessible(page)
    (body,) = server.mailbox.bodies(f"{name}@example.org")
    link = body.split(f"{url}/join/")[1].split()[0]
    joining = browser.new_context().new_page()
    joining.goto(f"{url}/join/{link}")
    assert "In Vite" in joining.locator("main").inner_text()
    joining.context.close()
    assert errors == []
    context.close()
