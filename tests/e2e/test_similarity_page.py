"""The similarity report in a real headless Chromium: learners' answers to layer-norm graded
through the real server, an instructor asks for the report, reads the ranking with the planted
copy flagged and opens the pair side by side (screenshots ``similarity.png``,
``similarity-pair.png``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.app.services.similarity_answers import disguised_copy, honest_answers
from tests.e2e.conftest import INSTRUCTOR, Server, assert_accessible
from tests.e2e.test_learner_flow import sign_in

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(300)]

PASSWORD = "similar-answers-1"


def submit_as_new_learner(browser: Any, url: str, name: str, code: str) -> None:
    """Sign up as ``name`` and send ``code`` as a graded submission (the page's own API call)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{url}/signup")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Repeat the password").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{url}/")
    page.goto(f"{url}/learn/layer-norm")
    csrf = page.evaluate("JSON.parse(document.getElementById('exercise-config').textContent).csrf")
    answer = page.request.post(
        f"{url}/submit?wait=30",
        data={"exercise": "layer-norm", "code": code},
        headers={"X-CSRF-Token": csrf},
    )
    assert answer.status == 202, answer.text()
    context.close()


def test_an_instructor_reads_a_similarity_report(server: Server, browser: Any, shots: Path) -> None:
    url = server.url
    codes = honest_answers(7, seed=2, shared_steps=1)
    for i, code in enumerate(codes):
        submit_as_new_learner(browser, url, f"sim-learner-{i}", code)
    submit_as_new_learner(browser, url, "sim-copier", disguised_copy(codes[3]))

    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    sign_in(page, url, *INSTRUCTOR)
    page.goto(f"{url}/instructor/similarity")
    assert_accessible(page)
    page.get_by_label("Exercise").select_option("layer-norm")
    page.get_by_role("button", name="Compare the answers").first.click()
    page.wait_for_url(f"{url}/instructor/similarity/*")
    deadline = time.monotonic() + 120
    while page.locator('[data-state="queued"]').count() and time.monotonic() < deadline:
        page.wait_for_timeout(300)
        page.reload()
    assert page.locator('[data-state="done"]').count() == 1
    first = page.locator("tr[data-pair]").first
    assert first.get_attribute("data-pair") == "sim-copier|sim-learner-3"
    assert first.get_attribute("data-flagged") == "1"
    assert page.locator("tr[data-flagged]").count() == 1
    # Why: a badge per measure that flagged it, and each measure's fence, none above 90 %.
    assert first.locator("[data-reason]").count() >= 2
    fences = page.locator("tr[data-measure]")
    assert fences.count() == 3
    assert all(float(f.get_attribute("data-fence") or 1) <= 0.9 for f in fences.all())
    page.locator("details").first.evaluate("d => d.open = true")
    page.screenshot(path=shots / "similarity.png", full_page=True)
    assert_accessible(page)

    first.get_by_role("link").click()
    page.wait_for_url(f"{url}/instructor/similarity/*/layer-norm/1")
    assert page.locator(".similarity-code mark").count() >= 2
    assert page.locator("tr[data-shared]").count() >= 1
    page.screenshot(path=shots / "similarity-pair.png", full_page=True)
    assert_accessible(page)
    pair_url, report_url = page.url, page.url.rsplit("/", 2)[0]
    for width in (390, 1920):  # a phone and a wide screen: the tables scroll or stretch
        page.set_viewport_size({"width": width, "height": 900})
        for shown in (report_url, pair_url):
            page.goto(shown)
            assert page.locator("[data-reason]").count() >= 2
            assert_accessible(page)
    context.close()
