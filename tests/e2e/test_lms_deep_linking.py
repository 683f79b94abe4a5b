"""An LMS context in a browser, from "add an activity" to the gradebook: the test platform's
course page frames the tool; an instructor's deep-linking launch runs inside the frame (the
login, the platform's auto-posting form, the launch), numjudge's picker shows there, and the
picked work goes back to the platform's return URL, which checks the tool's signature and makes
the links; a learner opens one, submits on numjudge's page, and the score shows in the course's
gradebook. It is the walk docs/lms.md's "Checking a setup by hand" describes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.db import session_scope
from tests.app.lti.conftest import register
from tests.app.lti.platform import DL, Platform, running_platform
from tests.e2e.conftest import ROOT, Server, assert_accessible
from tests.e2e.test_learner_flow import RESULT_TIMEOUT_MS, set_code

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]

PASSBACK_TIMEOUT_MS = 60_000


@pytest.fixture
def lms(server: Server) -> Iterator[Platform]:
    if not server.database_url:
        pytest.skip("registering the test platform needs the server's database")
    with running_platform(tool=server.url) as platform:
        with session_scope(server.database_url) as session:
            register(session, platform)
        yield platform


def test_work_added_from_the_lms_reports_its_scores_to_the_lms_gradebook(
    server: Server, browser: Any, lms: Platform, shots: Path
) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 1000})
    page = context.new_page()
    errors: list[str] = []

    def watch(tab: Any) -> None:
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        tab.on(  # the tool's own requests (the platform serves no favicon)
            "response",
            lambda r: (
                errors.append(f"{r.status} {r.url}")
                if r.url.startswith(server.url) and r.status >= 400
                else None
            ),
        )

    watch(page)
    page.goto(lms.url + "/course")
    page.get_by_role("link", name="Add an activity as Terry Teacher").click()

    frame = page.frame_locator("iframe")
    heading = frame.get_by_role("heading", level=1)
    heading.wait_for()
    assert heading.inner_text() == "Add numjudge's work to your LMS context"
    [tool_frame] = [f for f in page.frames if f.url == server.url + "/lti/launch"]
    assert_accessible(tool_frame)
    page.screenshot(path=str(shots / "lms-deep-linking.png"))

    frame.get_by_label("The Adam optimiser as a class", exact=False).check()
    frame.get_by_label("The gated unit over a sequence", exact=False).check()
    frame.get_by_role("button", name="Add to the LMS context").click()
    frame.get_by_text("Links added.").wait_for()  # the platform's page, after its checks
    [reply] = lms.deep_link_replies
    urls = [item["url"] for item in reply[DL + "content_items"]]
    assert len(urls) == 2 and all(url.startswith(server.url + "/") for url in urls)
    frame.get_by_role("link", name="Back to the course").click()

    # The learner opens the Adam link from the course, in a tab of their own.
    adam = page.get_by_role("row", name="The Adam optimiser as a class", exact=False)
    assert adam.get_by_role("cell").nth(2).inner_text() == "2.0"  # the column's maximum
    with page.expect_popup() as opened:
        adam.get_by_role("link", name="Open as Lee Learner").click()
    learner = opened.value
    watch(learner)
    learner.wait_for_url(server.url + "/learn/adam")
    learner.wait_for_selector("#editor .cm-editor")
    set_code(learner, (ROOT / "exercises" / "adam" / "solution.py").read_text(encoding="utf-8"))
    learner.get_by_role("button", name="Submit").click()
    learner.locator('#results .verdict[data-verdict="passed"]').wait_for(timeout=RESULT_TIMEOUT_MS)

    # The passback goes through the queue: the gradebook shows the score once the LMS has it.
    waited_ms = 0
    while not lms.scores and waited_ms < PASSBACK_TIMEOUT_MS:
        page.wait_for_timeout(500)
        waited_ms += 500
    page.reload()
    adam = page.get_by_role("row", name="The Adam optimiser as a class", exact=False)
    assert adam.get_by_role("cell").nth(1).inner_text() == "2.0", lms.scores
    assert errors == []
    context.close()
