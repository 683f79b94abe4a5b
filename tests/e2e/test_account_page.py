"""The account page in a browser at a phone's, a laptop's and a wide screen's width: a learner
revokes an API token (refused at once) and changes their password."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Server, assert_accessible
from tests.e2e.test_layout import WIDTHS, page_width

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]

PASSWORD = "first-password-1"
NEW_PASSWORD = "second-password-2"


def sign_up(page: Any, url: str, name: str) -> None:
    page.goto(f"{url}/signup")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Repeat the password").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{url}/")


def new_token(page: Any) -> str:
    page.get_by_role("button", name="Create a new token").click()
    token: str = page.locator("#token").input_value()
    return token


def api_status(page: Any, url: str, token: str) -> int:
    answer = page.request.get(f"{url}/submissions", headers={"Authorization": f"Bearer {token}"})
    status: int = answer.status
    return status


@pytest.mark.parametrize("size", WIDTHS.values(), ids=WIDTHS.keys())
def test_a_learner_revokes_a_token_and_changes_the_password(
    server: Server, browser: Any, size: tuple[int, int], shots: Path
) -> None:
    url = server.url
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    name = f"acct{size[0]}"
    sign_up(page, url, name)
    menu = page.locator(".menu-toggle > summary")
    if menu.is_visible():  # a phone folds the menu
        menu.click()
    page.get_by_role("link", name="Account").click()
    page.wait_for_url(f"{url}/account")
    kept = new_token(page)
    revoked = new_token(page)
    page.goto(f"{url}/account")
    rows = page.locator("table.tokens tbody tr")
    assert rows.count() == 2
    assert page_width(page) <= size[0]
    assert_accessible(page)
    if size == WIDTHS["laptop"]:
        page.screenshot(path=shots / "account.png", full_page=True)

    assert api_status(page, url, revoked) == 200
    page.get_by_role("button", name=f"Revoke the token starting with {revoked[:10]}").click()
    done = page.locator("#token-done")
    done.wait_for()
    assert "The token was revoked" in done.inner_text()
    assert rows.count() == 1 and kept[:10] in rows.first.inner_text()
    assert api_status(page, url, revoked) == 401
    assert api_status(page, url, kept) == 200
    assert_accessible(page)

    page.get_by_label("Current password").fill("not my password")
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("Repeat the new password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Change the password").click()
    error = page.locator("#password-error")
    error.wait_for()
    assert "Your current password is not right" in error.inner_text()
    assert_accessible(page)
    page.get_by_label("Current password").fill(PASSWORD)
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("Repeat the new password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Change the password").click()
    page.locator("#password-done").wait_for()
    assert page_width(page) <= size[0]
    assert_accessible(page)
    page.goto(f"{url}/account")  # this browser stays signed in
    assert re.search(rf"Signed in as\s+{name}", page.locator(".user-menu").inner_text())

    other = browser.new_context().new_page()
    other.goto(f"{url}/login")
    other.get_by_label("Username").fill(name)
    other.get_by_label("Password").fill(NEW_PASSWORD)
    other.get_by_role("button", name="Sign in").click()
    other.wait_for_url(f"{url}/")
    other.context.close()
    assert errors == []
    context.close()
