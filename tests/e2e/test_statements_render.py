"""Every exercise's statement and theory render in the browser, in every language it has."""

from __future__ import annotations

import re
from typing import Any

import pytest

from graders.api import ExerciseCatalog
from tests.e2e.conftest import INSTRUCTOR, ROOT, Server
from tests.e2e.test_learner_flow import sign_in

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]

PAGES = [
    (exercise.id, lang)
    for exercise in ExerciseCatalog(ROOT / "exercises").all()
    for lang in exercise.languages
]


@pytest.fixture(scope="module")
def page(server: Server, browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 1366, "height": 850})
    signed_in = context.new_page()
    sign_in(signed_in, server.url, *INSTRUCTOR)
    yield signed_in
    context.close()


@pytest.mark.parametrize(("exercise_id", "lang"), PAGES)
def test_math_renders_without_errors(
    server: Server, page: Any, exercise_id: str, lang: str
) -> None:
    page.goto(f"{server.url}/learn/{exercise_id}?lang={lang}")
    page.wait_for_load_state("load")
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    counts = page.evaluate("""() => ({
        math: document.querySelectorAll('.math').length,
        rendered: document.querySelectorAll('.math[data-rendered]').length,
        errors: [...document.querySelectorAll('.katex-error')].map(e => e.textContent)})""")
    assert counts["math"] > 0, "the statement shows no math at all"
    assert counts["errors"] == [], f"KaTeX could not render: {counts['errors']}"
    assert counts["rendered"] == counts["math"]
    prose = page.locator(".prose").first.inner_text()
    assert "$$" not in prose, "a display formula was left as raw text"
    if lang == "ja":  # a line break inside a Japanese sentence must not become a space
        assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff] [\u3040-\u30ff\u4e00-\u9fff]", prose)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_lesson_page_renders_its_math(server: Server, page: Any, lang: str) -> None:
    page.goto(f"{server.url}/lesson?lang={lang}")
    page.wait_for_load_state("load")
    counts = page.evaluate("""() => ({
        math: document.querySelectorAll('#lesson .math').length,
        rendered: document.querySelectorAll('#lesson .math[data-rendered]').length,
        errors: [...document.querySelectorAll('.katex-error')].map(e => e.textContent)})""")
    assert counts["math"] > 10 and counts["errors"] == []
    assert counts["rendered"] == counts["math"]
    assert page.locator("#lesson table").count() == 5
    prose = page.locator("#lesson").inner_text()
    if lang == "ja":
        assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff] [\u3040-\u30ff\u4e00-\u9fff]", prose)
