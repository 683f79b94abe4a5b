"""A real ``numjudge serve`` on a free port with a temporary database, and headless Chromium.

Before the tests, the server grades the reference of gru-update-gate for a learner of its own
(through ``POST /submit``), so every test can run alone. Set ``NUMJUDGE_E2E_BASE_URL`` to drive
an already running server instead (its database must have the instructor and a learner
``grace`` with a passed gru-update-gate submission), and set
``NUMJUDGE_SCREENSHOTS=docs/screenshots`` to keep the screenshots in the repository (by
default they go to a temporary folder).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("NUMJUDGE_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
INSTRUCTOR = ("teacher", "teach-me-numpy")
GRADED_LEARNER = "grace"
"""A learner whose reference submission the server has graded before any test runs."""
START_TIMEOUT_S = 90.0


AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# CodeMirror's scroller holds a contenteditable (focusable) that axe does not count.
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
             .filter(v => v.nodes.length))""", [AXE_TAGS, AXE_ALLOWED])
    assert left == [], f"accessibility problems on {page.url}: {left}"


@dataclass(frozen=True)
class Server:
    url: str
    log: Path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _add_users(database_url: str) -> str:
    """The instructor, and a learner for whom it returns an API token."""
    from app.core.db import dispose_engines, session_scope, upgrade_database
    from app.models import Role
    from app.store import accounts as account_store

    upgrade_database(database_url)
    with session_scope(database_url) as session:
        account_store.create_user(session=session, name=INSTRUCTOR[0], role=Role.INSTRUCTOR,
                                  password=INSTRUCTOR[1])
        learner = account_store.create_user(session=session, name=GRADED_LEARNER, role=Role.LEARNER)
        _, token = account_store.create_token(session=session, user=learner)
    dispose_engines()
    return token


def _submit_reference(url: str, token: str) -> None:
    """Grade the reference of gru-update-gate for GRADED_LEARNER through the real API."""
    code = (ROOT / "exercises" / "gru-update-gate" / "solution.py").read_text(encoding="utf-8")
    answer = httpx.post(f"{url}/submit", params={"wait": 30}, timeout=40,
                        headers={"Authorization": f"Bearer {token}"},
                        json={"exercise": "gru-update-gate", "code": code})
    result = answer.json()
    if answer.status_code != 202 or result.get("verdict") != "passed":
        raise RuntimeError(f"the reference was not graded as passed: {answer.text[:2000]}")


def _wait_healthy(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"numjudge serve exited ({process.returncode}):\n"
                               f"{log.read_text(errors='replace')[-4000:]}")
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.25)
    raise RuntimeError(f"numjudge serve not healthy after {START_TIMEOUT_S}s:\n"
                       f"{log.read_text(errors='replace')[-4000:]}")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    external = os.environ.get("NUMJUDGE_E2E_BASE_URL")
    if external:
        yield Server(external.rstrip("/"), Path(os.devnull))
        return
    work = tmp_path_factory.mktemp("serve")
    database_url = f"sqlite:///{work / 'numjudge.db'}"
    env = {key: value for key, value in os.environ.items() if not key.startswith("NUMJUDGE_")}
    env |= {
        "NUMJUDGE_DATABASE_URL": database_url,
        "NUMJUDGE_QUEUE_URL": f"sqlite:///{work / 'queue.db'}",
        "NUMJUDGE_EXERCISES_DIR": str(ROOT / "exercises"),
        "NUMJUDGE_SECRET_KEY": "e2e-" + os.urandom(16).hex(),
        "NUMJUDGE_SIGNUP_OPEN": "true",
    }
    token = _add_users(database_url)
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = work / "serve.log"
    numjudge = shutil.which("numjudge", path=str(Path(sys.executable).parent)) or "numjudge"
    with log.open("wb") as out:
        process = subprocess.Popen([numjudge, "serve", "--host", "127.0.0.1", "--port", str(port)],
                                   cwd=work, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_healthy(url, process, log)
        _submit_reference(url, token)
        yield Server(url, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: `make e2e-deps` installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wanted = os.environ.get("NUMJUDGE_SCREENSHOTS")
    folder = (ROOT / wanted) if wanted else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
