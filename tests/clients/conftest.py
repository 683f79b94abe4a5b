"""One real ``numjudge serve`` (SQLite database, SQLite queue) shared by the clients' tests."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.app.live import LiveServer

if TYPE_CHECKING:
    from playwright.sync_api import Browser

REPO = Path(__file__).resolve().parents[2]
EXERCISE = "gru-update-gate"


def exercise_file(relative: str) -> str:
    return (REPO / "exercises" / EXERCISE / relative).read_text(encoding="utf-8")


@dataclass(frozen=True)
class Learner:
    server: LiveServer
    token: str


@pytest.fixture(scope="session", autouse=True)
def english_and_nothing_saved(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The clients (and kernels and commands the tests start) read no saved login or language
    of the machine's user and speak English unless a test chooses otherwise."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setenv("NUMJUDGE_CONFIG_DIR", str(tmp_path_factory.mktemp("no-config")))
        for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("LANG", "C.UTF-8")
        yield


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    work = tmp_path_factory.mktemp("clients-server")
    server = LiveServer(work, f"sqlite:///{work / 'numjudge.db'}")
    server.start()
    yield server
    server.kill(signal.SIGTERM)


@pytest.fixture(scope="session")
def limited_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server that takes one submission per learner per minute."""
    work = tmp_path_factory.mktemp("clients-limited-server")
    server = LiveServer(
        work,
        f"sqlite:///{work / 'numjudge.db'}",
        extra_env={"NUMJUDGE_SUBMIT_RATE_PER_MINUTE": "1"},
    )
    server.start()
    yield server
    server.kill(signal.SIGTERM)


def new_learner(server: LiveServer, request: pytest.FixtureRequest) -> Learner:
    name = "".join(c for c in request.node.name if c.isalnum())[:40] + os.urandom(3).hex()
    return Learner(server, server.add_user(name)["Authorization"].split()[1])


@pytest.fixture
def limited_learner(limited_server: LiveServer, request: pytest.FixtureRequest) -> Learner:
    return new_learner(limited_server, request)


@pytest.fixture
def learner(live_server: LiveServer, request: pytest.FixtureRequest) -> Learner:
    """A learner of their own per test, so histories never mix."""
    return new_learner(live_server, request)


def screenshot(browser: Browser, html: str, path: Path, *, width: int = 1000) -> None:
    """Renders ``html`` in the run's Chromium and keeps a full-page screenshot."""
    page = browser.new_page(viewport={"width": width, "height": 600})
    try:
        page.set_content(html)
        page.screenshot(path=str(path), full_page=True)
    finally:
        page.close()
