"""The VS Code extension's tests (node) against a live server; its API types against the schema."""

from __future__ import annotations

import json
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
def test_l10n_bundle_has_every_sentence_of_the_sources(tmp_path: Path) -> None:
    """``l10n/bundle.l10n.json`` is what ``npm run l10n`` (@vscode/l10n-dev) extracts from the
    sources now: a sentence added without it would have no Japanese (the extension's test
    checks that ``bundle.l10n.ja.json`` translates every sentence of it)."""
    npm()
    subprocess.run(
        [str(BIN / "vscode-l10n-dev"), "export", "--outDir", str(tmp_path), "./src"],
        cwd=EXTENSION,
        check=True,
        capture_output=True,
        timeout=120,
    )
    extracted = json.loads((tmp_path / "bundle.l10n.json").read_text(encoding="utf-8"))
    committed = json.loads((EXTENSION / "l10n" / "bundle.l10n.json").read_text(encoding="utf-8"))
    assert extracted == committed, (
        "clients/vscode/l10n/bundle.l10n.json is out of date with the sources: run "
        "`npm run l10n` in clients/vscode and translate the new sentences in bundle.l10n.ja.json"
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
    assert "# fail 0" in report and "# pass 36" in report, report
    html = panel.read_text()
    assert 'data-verdict="failed"' in html
    screenshot(browser, html, shots / "vscode-results.png", width=900)
