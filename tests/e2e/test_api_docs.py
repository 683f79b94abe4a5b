"""``/docs`` in Chromium: the vendored Swagger UI lists the API with no request leaving the site
and no Content-Security-Policy violation (it works offline)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import Server

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]


def test_api_docs_work_offline_under_the_csp(server: Server, browser: Any) -> None:
    context = browser.new_context()
    page = context.new_page()
    elsewhere: list[str] = []
    refused: list[str] = []

    def only_this_site(route: Any) -> None:
        if route.request.url.startswith(server.url):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    context.route("**/*", only_this_site)
    page.on(
        "console",
        lambda message: (
            refused.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    try:
        response = page.goto(f"{server.url}/docs")
        assert response is not None and response.status == 200
        assert "script-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_selector(".opblock-summary-path[data-path='/submit']", timeout=30_000)
        paths = page.locator(".opblock-summary-path").all_inner_texts()
        assert any("/submissions/{submission_id}" in path for path in paths)
        assert page.locator(".info .title").inner_text().startswith("numjudge")
    finally:
        context.close()
    assert elsewhere == []
    assert refused == []
