"""A one-time sign-up link (``/join/<token>``) sent by two browsers at once, against a live
server: its learner and whoever else read it (a shared links CSV, a mail preview). Both found it
valid before either had set a password, so both set one and both were signed in (2 of 2 in the
hostile review, 2 of 4 where the hashing line refused two); now one is, the other is told the
link was used."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.core.db import session_scope
from app.models import Role
from app.services import roster
from app.store import accounts as account_store
from tests.app.live import LiveServer

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path, f"sqlite:///{tmp_path / 'numjudge.db'}", workers=1)
    live.start()
    try:
        yield live
    finally:
        live.kill()


def issue_link(server: LiveServer, name: str) -> str:
    with session_scope(server.database_url) as session:
        user = account_store.create_user(session=session, name=name, role=Role.LEARNER)
        return roster.issue_link(session=session, user=user, days=14).token


@pytest.mark.slow
def test_a_sign_up_link_sent_twice_at_once_signs_in_one_browser(server: LiveServer) -> None:
    token = issue_link(server, "ada")
    browsers = [httpx.Client(base_url=server.url, timeout=60) for _ in range(2)]
    forms = []
    for number, browser in enumerate(browsers):
        page = browser.get(f"/join/{token}")
        assert page.status_code == 200
        match = CSRF.search(page.text)
        assert match
        password = f"password number {number}"
        forms.append({"csrf_token": match.group(1), "password": password, "password2": password})
    start = threading.Barrier(len(browsers))
    answers: list[httpx.Response | None] = [None] * len(browsers)

    def join(number: int) -> None:
        start.wait()
        answers[number] = browsers[number].post(f"/join/{token}", data=forms[number])

    threads = [threading.Thread(target=join, args=(n,)) for n in range(len(browsers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    codes = sorted(answer.status_code for answer in answers if answer is not None)
    assert codes == [303, 410], codes
    assert browsers[0].get(f"/join/{token}").status_code == 410
    for browser in browsers:
        browser.close()
