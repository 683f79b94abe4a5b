"""A real ``numjudge serve`` (``tests.app.live``) with a temporary database, and headless
Chromium.

Before the tests, the server grades the reference of gru-update-gate for a learner of its own
(through ``POST /submit``), so every test can run alone. Set ``NUMJUDGE_E2E_BASE_URL`` to drive
an already running server instead (its database must have the instructor and a learner
``grace`` with a passed gru-update-gate submission), and set
``NUMJUDGE_SCREENSHOTS=docs/screenshots`` to keep the screenshots in the repository (by
default they go to a temporary folder).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.models import Role
from tests.app.live import LiveServer
from tests.app.smtp import Mailbox, smtp_server

ROOT = Path(__file__).resolve().parents[2]
INSTRUCTOR = ("teacher", "teach-me-numpy")
GRADED_LEARNER = "grace"
"""A learner whose reference submission the server has graded before any test runs."""
START_TIMEOUT_S = 90.0


AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# CodeMirror's scroller holds a contenteditable (focusable) that axe does not count as such.
AXE_ALLOWED = {"scrollable-region-focusable": "#editor"}


def assert_accessible(page: Any) -> None:
    """No WCAG 2.1 A/AA violation that axe-core finds on the page as it is now."""
    page.evaluate(AXE.read_text(encoding="utf-8"))
    left = page.evaluate(
        """([tags, allowed]) => axe.run(document, {runOnly: {type: "tag", values: tags},
                                                  elementRef: true})
             .then(r => r.violations.map(v => ({id: v.id, impact: v.impact,
               nodes: v.nodes.filter(n => !(allowed[v.id] && n.element.closest(allowed[v.id])))
                             .map(n => n.target.join(" ") + ": " + n.failureSummary)}))
             .filter(v => v.nodes.length))""",
        [AXE_TAGS, AXE_ALLOWED],
    )
    assert left == [], f"accessibility problems on {page.url}: {left}"


@dataclass(frozen=True)
class Server:
    url: str
    database_url: str = ""  # "" for a server this suite did not start
    mailbox: Mailbox | None = None  # what the suite's SMTP server received (its own server)


def _submit_reference(server: LiveServer, headers: dict[str, str]) -> None:
    """Grade the reference of gru-update-gate for GRADED_LEARNER through the real API."""
    code = (ROOT / "exercises" / "gru-update-gate" / "solution.py").read_text(encoding="utf-8")
    with server.client(headers) as client:
        answer = client.post(
            "/submit", params={"wait": 30}, json={"exercise": "gru-update-gate", "code": code}
        )
    result = answer.json()
    if answer.status_code != 202 or result.get("verdict") != "passed":
        raise RuntimeError(f"the reference was not graded as passed: {answer.text[:2000]}")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    external = os.environ.get("NUMJUDGE_E2E_BASE_URL")
    if external:
        yield Server(external.rstrip("/"))
        return
    work = tmp_path_factory.mktemp("serve")
    with smtp_server() as (smtp_port, mailbox):
        live = LiveServer(
            work,
            f"sqlite:///{work / 'numjudge.db'}",
            extra_env={
                "NUMJUDGE_SECRET_KEY": "e2e-" + os.urandom(16).hex(),
                "NUMJUDGE_SIGNUP_OPEN": "true",
                "NUMJUDGE_SMTP_HOST": "127.0.0.1",
                "NUMJUDGE_SMTP_PORT": str(smtp_port),
                "NUMJUDGE_SMTP_SECURITY": "none",
                "NUMJUDGE_SMTP_FROM": "numjudge@example.edu",
                # The instructor's pages read every exercise's points (the gradebook's CSV,
                # validate): prepared on demand, the 26 took that request past the browser's
                # 30 s on a loaded host. As a deployment does, this server prepares them first.
                "NUMJUDGE_PREPARE_AT_START": "true",
            },
        )
        live.start(timeout=START_TIMEOUT_S)
        try:
            live.add_user(INSTRUCTOR[0], Role.INSTRUCTOR, password=INSTRUCTOR[1])
            _submit_reference(live, live.add_user(GRADED_LEARNER))
            yield Server(live.url, live.database_url, mailbox)
        finally:
            live.kill(signal.SIGTERM)
