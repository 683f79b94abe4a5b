"""Words a learner understands (issue 39, item 8): no exercise version on their pages, the
account page links to the clients the site serves (no repository paths), and Submit is off,
with the reason shown, once the schedule's budget is used up."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.api.deps import get_settings_dep
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from tests.app.course_catalog import budget_course_toml, course_service, send, user
from tests.app.web.helpers import make_instructor, sign_in, sign_up, submit, text_of

WHEEL = "numjudge_client-0.3.0-py3-none-any.whl"
SUBMIT_OFF = "Submit is off: you have used every graded submission"


def test_a_learner_sees_no_exercise_version_and_an_instructor_does(
    client: TestClient, runtime: GradingRuntime
) -> None:
    sign_up(client, "ada")
    submit(client, "gru-update-gate", "solution.py")
    own = client.get("/submissions", params={"exercise": "gru-update-gate"}).json()[0]
    version = runtime.catalog.load("gru-update-gate").version
    learner_page = client.get(f"/history/{own['id']}").text
    assert "exercise version" not in learner_page and version not in learner_page
    client.cookies.clear()
    make_instructor(runtime, client)
    instructor_page = client.get(f"/history/{own['id']}").text
    assert f"exercise version <code>{version}</code>" in instructor_page


def offering(client: TestClient, runtime: GradingRuntime, folder: Path) -> None:
    """Serve the clients built into ``folder``."""
    settings = runtime.settings.model_copy(update={"clients_dir": folder})
    client.app.dependency_overrides[get_settings_dep] = lambda: settings  # type: ignore[attr-defined]


def test_the_account_page_names_no_repository_path_and_says_to_ask_without_clients(
    client: TestClient,
) -> None:
    sign_up(client, "ada")
    page = client.get("/account").text
    for repository_words in ("./clients/python", "make vsix", "clients/vscode", "checkout"):
        assert repository_words not in page
    assert "does not offer the notebook client or the VS Code extension" in page
    client.cookies.set("numjudge_lang", "ja")
    assert "コースの担当者に問い合わせてください。" in client.get("/account").text


def test_the_account_page_links_to_the_clients_the_site_serves(
    client: TestClient, runtime: GradingRuntime, tmp_path: Path
) -> None:
    folder = tmp_path / "clients"
    folder.mkdir()
    (folder / WHEEL).write_bytes(b"PK wheel")
    (folder / "numjudge.vsix").write_bytes(b"PK vsix")
    (folder / "secret.txt").write_text("not offered")
    offering(client, runtime, folder)
    sign_up(client, "ada")
    page = client.get("/account").text
    server = "http://testserver"
    assert (
        f"pip install {server}/downloads/{WHEEL}\n\n%load_ext numjudge_client\n"
        f"%numjudge login {server}\n%numjudge starter gru-update-gate"
    ) in page
    assert "<code>%%numjudge submit gru-update-gate</code> is graded." in page
    assert f'<a href="/downloads/{WHEEL}" id="download-notebook">{WHEEL}</a>' in page
    assert '<a href="/downloads/numjudge.vsix" id="download-vscode" download>' in page
    assert "code --install-extension numjudge.vsix" in page
    assert f"set <code>numjudge.serverUrl</code> to {server}, then run" in page
    assert "clients-missing" not in page
    wheel = client.get(f"/downloads/{WHEEL}")
    assert wheel.status_code == 200 and wheel.content == b"PK wheel"
    assert WHEEL in wheel.headers["content-disposition"]
    assert client.get("/downloads/secret.txt").status_code == 404
    assert client.get("/downloads/..%2Fclients%2Fsecret.txt").status_code == 404
    client.cookies.set("numjudge_lang", "ja")
    japanese = client.get("/account").text
    assert f"<code>numjudge.serverUrl</code> を {server} に設定してから" in japanese


@pytest.fixture
def service(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> Iterator[tuple[TestClient, GradingRuntime]]:
    with course_service(
        database_url, tmp_path, shared_grader, budget_course_toml(title="One try", submissions=1)
    ) as running:
        yield running


def test_submit_is_off_with_the_reason_once_the_budget_is_used(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    ada = user(runtime, "ada")
    sign_in(client, "ada", "correct horse")
    before = client.get("/learn/gru-update-gate").text
    assert 'id="submit-button" title="Ctrl/⌘ + Enter">' in before
    assert 'id="submit-blocked" hidden>' in before
    assert send(client, ada) == 202
    after = client.get("/learn/gru-update-gate").text
    assert 'disabled aria-describedby="submit-blocked">' in after
    assert 'id="submit-blocked">' in after and SUBMIT_OFF in text_of(after)
    client.cookies.set("numjudge_lang", "ja")
    assert "提出はできません：" in client.get("/learn/gru-update-gate").text
