"""Submit under the schedule's bounds, in a real browser on a real server (issue 39, item 8): a
submission inside the cooldown is refused with the next time in the schedule's zone and the wait
in minutes, and Submit turns off, with its reason, once the budget's last one is counted."""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from app.models import Role
from tests.app.course_catalog import BROKEN, build_catalog, stamp
from tests.app.live import LiveServer
from tests.e2e.conftest import START_TIMEOUT_S, assert_accessible
from tests.e2e.test_learner_flow import RESULT_TIMEOUT_MS, set_code, sign_in

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]

LEARNER = ("lea", "correct horse")


def course_toml() -> str:
    now = datetime.now(UTC).replace(microsecond=0)
    window = f"opens = {stamp(now - timedelta(days=1))}\ndue = {stamp(now + timedelta(days=1))}"
    return f"""
timezone = "Pacific/Auckland"

[[assignment]]
id = "cooled"
title = "An hour between tries"
{window}
exercises = ["gru-update-gate"]
cooldown_minutes = 60

[[assignment]]
id = "once"
title = "One try"
{window}
exercises = ["gru-reset-gate"]
submissions = 1
"""


@pytest.fixture(scope="module")
def paced_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    work = tmp_path_factory.mktemp("paced")
    live = LiveServer(
        work,
        f"sqlite:///{work / 'numjudge.db'}",
        extra_env={
            "NUMJUDGE_SECRET_KEY": "e2e-" + os.urandom(16).hex(),
            "NUMJUDGE_EXERCISES_DIR": str(build_catalog(work / "exercises", course_toml())),
        },
    )
    live.start(timeout=START_TIMEOUT_S)
    try:
        live.add_user(LEARNER[0], Role.LEARNER, password=LEARNER[1])
        yield live.url
    finally:
        live.kill(signal.SIGTERM)


def submit_broken(page: Any) -> None:
    set_code(page, BROKEN)
    page.locator("#submit-button").click()


def test_a_refusal_names_the_next_time_and_submit_turns_off_when_spent(
    paced_url: str, browser: Any, tmp_path: Path
) -> None:
    page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    sign_in(page, paced_url, *LEARNER)

    page.goto(f"{paced_url}/learn/gru-update-gate")
    page.wait_for_selector("#editor .cm-editor")
    submit_broken(page)
    page.locator("#results .verdict").wait_for(timeout=RESULT_TIMEOUT_MS)
    submit_broken(page)
    # The first result's error (the broken code's) is an alert too: wait for the refusal.
    refusal = page.locator("#results .alert.error", has_text="Not graded yet")
    refusal.wait_for(timeout=RESULT_TIMEOUT_MS)
    # The time is the schedule's (Auckland: GMT+13 in summer, +12 in winter), not the browser's
    # (UTC); Intl may put a narrow no-break space before the zone.
    next_at = datetime.now(ZoneInfo("Pacific/Auckland")) + timedelta(hours=1)
    offset = next_at.utcoffset()
    assert offset is not None
    said = re.fullmatch(
        r"Not graded yet: your next graded submission is possible at (\d\d:\d\d)\s"
        rf"GMT\+{offset // timedelta(hours=1)} "
        r"\(in (59|60) minutes\)\. Run public tests works meanwhile\.",
        refusal.inner_text(),
    )
    assert said, refusal.inner_text()
    near = {(next_at - timedelta(minutes=m)).strftime("%H:%M") for m in range(3)}
    assert said.group(1) in near

    page.goto(f"{paced_url}/learn/gru-reset-gate")
    page.wait_for_selector("#editor .cm-editor")
    assert page.locator("#submit-button").is_enabled()
    assert not page.locator("#submit-blocked").is_visible()
    submit_broken(page)
    page.locator("#results .verdict").wait_for(timeout=RESULT_TIMEOUT_MS)
    assert page.locator("#submit-button").is_disabled()
    assert page.locator("#submit-blocked").is_visible()
    assert page.locator("#submit-button").get_attribute("aria-describedby") == "submit-blocked"
    assert_accessible(page)
    page.context.close()
