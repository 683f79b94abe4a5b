"""Deep linking in a browser, as an LMS shows it: the test platform's course page frames the
tool; an instructor's deep-linking launch runs inside the frame (the login, the platform's
auto-posting form, the launch), numjudge's picker shows there, and the picked work goes back to
the platform's return URL, which checks the tool's signature and makes the links."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest

from app.core.db import session_scope
from app.services.lti import platforms
from tests.app.lti.conftest import register
from tests.app.lti.platform import DL, INSTRUCTOR, Platform, User, running_platform
from tests.e2e.conftest import Server, assert_accessible

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]

GRACE = User(sub="lms-grace-e2e", roles=(INSTRUCTOR,), name="Grace Hopper")


@pytest.fixture
def lms(server: Server) -> Iterator[Platform]:
    if not server.database_url:
        pytest.skip("registering the test platform needs the server's database")
    with running_platform() as platform:
        platform.redirect_uris.add(server.url + platforms.LAUNCH_PATH)
        with session_scope(server.database_url) as session:
            register(session, platform)
        yield platform


def test_the_picker_works_inside_the_lms_frame(
    server: Server, browser: Any, lms: Platform, shots: Path
) -> None:
    lms.tool_jwks = httpx.get(server.url + platforms.JWKS_PATH).json()
    launch_url = server.url + platforms.LAUNCH_PATH
    login = (
        server.url
        + "/lti/login?"
        + urlencode(lms.login_initiation(GRACE, launch_url, deep_link=True))
    )
    context = browser.new_context(viewport={"width": 1366, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(  # the tool's own requests (the platform serves no favicon)
        "response",
        lambda r: (
            errors.append(f"{r.status} {r.url}")
            if r.url.startswith(server.url) and r.status >= 400
            else None
        ),
    )
    page.goto(lms.url + "/course?" + urlencode({"tool": login}))

    frame = page.frame_locator("iframe")
    heading = frame.get_by_role("heading", level=1)
    heading.wait_for()
    assert heading.inner_text() == "Add numjudge's work to your LMS course"
    [tool_frame] = [f for f in page.frames if f.url == launch_url]
    assert_accessible(tool_frame)
    page.screenshot(path=str(shots / "lms-deep-linking.png"))

    frame.get_by_label("The Adam optimiser as a class", exact=False).check()
    frame.get_by_label("The gated unit over a sequence", exact=False).check()
    frame.get_by_role("button", name="Add to the LMS course").click()
    frame.get_by_text("Links added.").wait_for()  # the platform's page, after its checks

    [reply] = lms.deep_link_replies
    urls = [item["url"] for item in reply[DL + "content_items"]]
    assert len(urls) == 2 and all(url.startswith(server.url + "/") for url in urls)
    assert len(lms.line_items) == 2
    assert errors == []
