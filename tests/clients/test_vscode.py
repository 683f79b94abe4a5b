"""The VS Code extension's tests (node) against a live server; its API types against the schema."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.clients.conftest import REPO, Learner, screenshot
from tests.clients.openapi_schema import schema_json

if TYPE_CHECKING:
    from playwright.sync_api import Browser

EXTENSION = REPO / "clients" / "vscode"
BIN = EXTENSION / "node_modules" / ".bin"


def npm() -> str:
    """npm, with the extension's packages installed (node and npm themselves are the
    ``vscode`` marker's: tests/needs.py)."""
    found = shutil.which("npm")
    if found is None or not (BIN / "tsc").exists():
        pytest.fail("npm or clients/vscode/node_modules is missing: run `make vscode-deps`")
    return found


@pytest.mark.vscode
def test_generated_api_types_match_the_services_schema(tmp_path: Path) -> None:
    npm()
    schema = tmp_path / "openapi.json"
    schema.write_text(schema_json())
    generated = tmp_path / "api-types.ts"
    subprocess.run(
        [str(BIN / "openapi-typescript"), str(schema), "-o", str(generated)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    committed = (EXTENSION / "src" / "api-types.ts").read_text()
    assert generated.read_text() == committed, (
        "clients/vscode/src/api-types.ts is out of date with the API: run `make vscode-types`"
    )


@pytest.mark.vscode
@pytest.mark.browser
def test_extension_and_its_client_against_a_live_server(
    learner: Learner, limited_learner: Learner, browser: Browser, tmp_path: Path, shots: Path
) -> None:
    panel = tmp_path / "panel.html"
    env = {
        **os.environ,
        "NUMJUDGE_TEST_SERVER": learner.server.url,
        "NUMJUDGE_TEST_TOKEN": learner.token,
        "NUMJUDGE_TEST_LIMITED_SERVER": limited_learner.server.url,
        "NUMJUDGE_TEST_LIMITED_TOKEN": limited_learner.token,
        "NUMJUDGE_TEST_EXERCISES": str(REPO / "exercises"),
        "NUMJUDGE_PANEL_HTML": str(panel),
    }
    done = subprocess.run(
        [npm(), "test", "--silent"],
        cwd=EXTENSION,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    report = done.stdout + done.stderr
    assert done.returncode == 0, report
    assert "# fail 0" in report and "# pass 28" in report, report
    html = panel.read_text()
    assert 'data-verdict="failed"' in html
    screenshot(browser, html, shots / "vscode-results.png", width=900)
