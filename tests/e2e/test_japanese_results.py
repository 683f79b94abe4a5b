"""A Japanese reader in a real Chromium: the catalog's titles, and a run's test names, messages
and hint in Japanese (the exercise's translation.ja.toml, the engine's messages.ja.toml)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import Server, assert_accessible
from tests.e2e.test_learner_flow import RESULT_TIMEOUT_MS, WRONG, set_code

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]

EXERCISE = "gru-update-gate"


@pytest.mark.parametrize("width", [390, 1366, 1920])
def test_a_japanese_reader_reads_the_results_in_japanese(
    server: Server, browser: Any, width: int
) -> None:
    url = server.url
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="ja-JP")
    page = context.new_page()
    name = f"hana{width}"
    page.goto(f"{url}/signup")
    page.locator("#username").fill(name)
    page.locator("#password").fill("sakura-no-hana")
    page.locator("#password2").fill("sakura-no-hana")
    page.locator("#password2").press("Enter")
    page.wait_for_url(f"{url}/")
    item = page.locator(f'.catalog-item[data-exercise="{EXERCISE}"]')
    assert item.locator("h3").inner_text() == "GRU の更新ゲート"
    assert_accessible(page)

    page.goto(f"{url}/learn/{EXERCISE}")
    page.wait_for_selector("#editor .cm-editor")
    set_code(page, WRONG)
    page.get_by_role("button", name="公開テストを実行").click()
    page.locator("#results .verdict").wait_for(timeout=RESULT_TIMEOUT_MS)
    hint = page.locator("#results .hint.diagnosis").inner_text()
    assert "あなたのゲートと期待されるゲートは、どの要素でも足すと 1 になります。" in hint
    assert "数値例" in hint and "numerical example" not in hint
    row = page.locator('#results tr[data-status="failed"]').first
    assert row.locator("td").first.inner_text() == "数値例"
    message = row.locator("td.message").inner_text()
    assert message.startswith("値：3 個中 3 個の要素（100.0%）が許容誤差")
    assert "outside" not in message
    assert_accessible(page)
    context.close()
