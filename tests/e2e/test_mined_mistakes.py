"""Mistakes mined from a real class in a real headless Chromium: three learners' wrong answers
to a copy of gru-update-gate graded by the real server's sandbox, the class view lists their
groups, the instructor writes a hint for the largest (a refused name first, its reason shown),
the mistake file is written and validates, and the group's learners then read the hint on
their past submissions (screenshots ``mined-groups.png``, ``mined-group.png``)."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.models import Role
from graders.api import Sandbox
from graders.authoring.mistakes import check_mistakes
from graders.authoring.result import ValidationResult
from graders.exercises import load_exercise, prepare_exercise
from tests.app.conftest import EXERCISES
from tests.app.course_catalog import build_catalog
from tests.app.live import LiveServer
from tests.app.mined_class import EXERCISE, HALVED, HALVED_OTHERWISE, HINT, SQUARED
from tests.e2e.conftest import INSTRUCTOR, START_TIMEOUT_S, assert_accessible
from tests.e2e.test_learner_flow import sign_in

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(300)]

PASSWORD = "mined-answers-1"
JA_HINT = "シグモイドの前で前活性化が半分になっています。"
REDIAGNOSIS_S = 120


@dataclass(frozen=True)
class MiningServer:
    url: str
    folder: Path
    submissions: dict[str, str]
    """Learner name -> the id of their graded submission."""


@pytest.fixture(scope="module")
def mining_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MiningServer]:
    work = tmp_path_factory.mktemp("mining")
    course = (EXERCISES / "course.toml").read_text(encoding="utf-8")
    catalog = build_catalog(work / "exercises", course, copies=(EXERCISE,))
    live = LiveServer(
        work,
        f"sqlite:///{work / 'numjudge.db'}",
        extra_env={
            "NUMJUDGE_SECRET_KEY": "e2e-" + os.urandom(16).hex(),
            "NUMJUDGE_EXERCISES_DIR": str(catalog),
        },
    )
    live.start(timeout=START_TIMEOUT_S)
    try:
        live.add_user(INSTRUCTOR[0], Role.INSTRUCTOR, password=INSTRUCTOR[1])
        submissions = {}
        for name, code in (("ada", HALVED), ("bo", HALVED_OTHERWISE), ("cy", SQUARED)):
            with live.client(live.add_user(name, password=PASSWORD)) as client:
                answer = client.post(
                    "/submit", params={"wait": 30}, json={"exercise": EXERCISE, "code": code}
                )
            assert answer.status_code == 202 and answer.json()["verdict"] == "failed", answer.text
            assert answer.json()["diagnosis"] is None
            submissions[name] = answer.json()["id"]
        yield MiningServer(live.url, catalog / EXERCISE, submissions)
    finally:
        live.kill(signal.SIGTERM)


def test_an_instructor_turns_a_group_into_a_mistake(
    mining_server: MiningServer, browser: Any, shots: Path
) -> None:
    url, folder = mining_server.url, mining_server.folder
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    sign_in(page, url, *INSTRUCTOR)
    page.goto(f"{url}/instructor/analytics/{EXERCISE}")
    groups = page.locator("table[data-table=mined] tbody tr")
    assert groups.count() == 2
    largest = groups.first
    assert largest.locator("td").nth(0).inner_text() == "2"
    assert largest.locator("td").nth(1).inner_text() == "2"
    assert "numerical example" in largest.locator("td").nth(3).inner_text()
    assert largest.get_by_role("link", name="Submission").get_attribute("href") == (
        f"/history/{mining_server.submissions['ada']}"  # the shorter code of the two
    )
    page.screenshot(path=shots / "mined-groups.png", full_page=True)
    assert_accessible(page)

    largest.get_by_role("link", name="Write a hint").click()
    page.wait_for_url(f"{url}/instructor/analytics/{EXERCISE}/mistakes/*")
    assert "0.5 * (joined @ W_z.T + b_z)" in page.locator("pre.code").inner_text()
    assert_accessible(page)

    page.get_by_label("Name of the mistake").fill("missing_bias")  # the author's own
    page.get_by_label("Hint (English)").fill(HINT)
    page.get_by_label("Hint (日本語)").fill(JA_HINT)
    page.get_by_label("I have read the representative's code").check()
    page.get_by_role("button", name="Write the mistake").click()
    refused = page.locator("#mistake-refused")
    refused.wait_for()
    assert "mistakes/missing_bias.py already exists" in refused.inner_text()
    assert page.get_by_label("Hint (English)").input_value() == HINT  # kept to correct
    page.screenshot(path=shots / "mined-group.png", full_page=True)
    assert_accessible(page)

    page.get_by_label("Name of the mistake").fill("halved_preactivation")
    page.get_by_label("I have read the representative's code").check()
    page.get_by_role("button", name="Write the mistake").click()
    page.wait_for_url(f"{url}/instructor/analytics/{EXERCISE}?mistake=halved_preactivation")
    assert "halved_preactivation was written" in page.get_by_role("status").first.inner_text()

    mistake = folder / "mistakes" / "mined" / "halved_preactivation.py"
    assert mistake.read_text(encoding="utf-8").startswith(HALVED)
    with Sandbox(workers=1) as sandbox:
        result = ValidationResult(folder)
        check_mistakes(prepare_exercise(load_exercise(folder)), sandbox, result)
    assert result.problems == []

    for name in ("ada", "bo"):
        learner = browser.new_context().new_page()
        sign_in(learner, url, name, PASSWORD)
        deadline = time.monotonic() + REDIAGNOSIS_S
        hint = learner.locator(".hint.diagnosis")
        while True:
            learner.goto(f"{url}/history/{mining_server.submissions[name]}")
            if hint.count() or time.monotonic() > deadline:
                break
            learner.wait_for_timeout(500)
        assert HINT in hint.inner_text()
        assert learner.locator(".score").first.inner_text() == "0 / 26"  # the score it had
        learner.context.close()

    # cy's squared gate is diagnosed again last, and moves to the new version with its
    # group: until then the new version's class view lists nothing.
    rows = page.locator("table[data-table=mined] tbody tr")
    deadline = time.monotonic() + REDIAGNOSIS_S
    while True:
        page.goto(f"{url}/instructor/analytics/{EXERCISE}")
        if rows.count() or time.monotonic() > deadline:
            break
        page.wait_for_timeout(500)
    assert rows.count() == 1
    assert rows.first.get_by_role("link", name="Submission").get_attribute("href") == (
        f"/history/{mining_server.submissions['cy']}"
    )
    context.close()
