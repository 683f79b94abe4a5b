"""The roster's actions on one learner: a new link, a password reset, disable and enable, each
confirmed on its own page and done by a CSRF-protected POST."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from app.models import Role
from app.runtime.context import GradingRuntime
from app.store import accounts as account_store
from tests.app.web.helpers import csrf_of, sign_in
from tests.app.web.test_roster_pages import PASSWORD, ROSTER, import_roster, links_of

LEARNER_PASSWORD = "ada's password"
ISSUED = re.compile(r'id="issued-link" type="text" readonly value="([^"]+)"')


def setup_roster(client: TestClient, runtime: GradingRuntime) -> dict[str, str]:
    with runtime.sessions() as session:
        account_store.create_user(
            session=session, name="teacher", role=Role.INSTRUCTOR, password=PASSWORD
        )
        session.commit()
    sign_in(client, "teacher", PASSWORD)
    return links_of(import_roster(client, ROSTER)[1])


def act(client: TestClient, name: str, action: str) -> tuple[int, str]:
    """Open the action's confirmation page, then confirm it."""
    confirm = client.get(f"/instructor/roster/{name}/{action}")
    assert confirm.status_code == 200, confirm.text
    done = client.post(
        f"/instructor/roster/{name}/{action}", data={"csrf_token": csrf_of(confirm.text)}
    )
    return done.status_code, done.text


def join(client: TestClient, link: str, password: str) -> int:
    path = "/" + link.split("/", 3)[3]
    page = client.get(path)
    if page.status_code != 200:
        return int(page.status_code)
    joined = client.post(
        path,
        data={"csrf_token": csrf_of(page.text), "password": password, "password2": password},
        follow_redirects=False,
    )
    return int(joined.status_code)


def row_of(html: str, name: str) -> str:
    return html[html.index(f'data-user="{name}"') :].split("</tr>")[0]


def test_each_action_asks_first_and_a_get_changes_nothing(
    client: TestClient, runtime: GradingRuntime
) -> None:
    setup_roster(client, runtime)
    row = row_of(client.get("/instructor/roster").text, "ada")
    assert 'href="/instructor/roster/ada/link"' in row
    assert 'href="/instructor/roster/ada/disable"' in row
    assert "/reset" not in row  # not joined yet: a new link, not a reset
    confirm = client.get("/instructor/roster/ada/disable")
    assert "Disable the account of ada?" in confirm.text
    assert "their API tokens are refused" in confirm.text
    assert 'action="/instructor/roster/ada/disable"' in confirm.text
    japanese = client.get("/instructor/roster/ada/disable", headers={"Accept-Language": "ja"})
    assert "ada のアカウントを無効にしますか？" in japanese.text
    with runtime.sessions() as session:
        ada = account_store.get_user_by_name(session=session, name="ada")
        assert ada is not None and ada.is_active
    forged = client.post("/instructor/roster/ada/disable", data={"csrf_token": "forged"})
    assert forged.status_code == 400
    with runtime.sessions() as session:
        ada = account_store.get_user_by_name(session=session, name="ada")
        assert ada is not None and ada.is_active


def test_a_new_link_replaces_the_old_one(client: TestClient, runtime: GradingRuntime) -> None:
    links = setup_roster(client, runtime)
    code, html = act(client, "ada", "link")
    assert code == 200
    assert "teacher made a new sign-up link for ada" in html
    match = ISSUED.search(html)
    assert match is not None
    new_link = match.group(1)
    assert new_link != links["ada"] and new_link.startswith("http://testserver/join/")
    assert new_link not in client.get("/instructor/roster").text  # shown once
    client.cookies.clear()
    assert join(client, links["ada"], LEARNER_PASSWORD) == 404
    assert join(client, new_link, LEARNER_PASSWORD) == 303


def test_a_reset_ends_the_old_password_and_its_link_sets_a_new_one(
    client: TestClient, runtime: GradingRuntime
) -> None:
    links = setup_roster(client, runtime)
    learner = TestClient(client.app)
    assert join(learner, links["ada"], LEARNER_PASSWORD) == 303
    assert learner.get("/account").status_code == 200
    row = row_of(client.get("/instructor/roster").text, "ada")
    assert 'href="/instructor/roster/ada/reset"' in row and "/ada/link" not in row
    code, html = act(client, "ada", "reset")
    assert code == 200 and "teacher reset the password of ada" in html
    match = ISSUED.search(html)
    assert match is not None
    # signed out at once, and the old password no longer signs in
    assert learner.get("/account", follow_redirects=False).status_code == 303
    login = learner.post(
        "/login",
        data={
            "csrf_token": csrf_of(learner.get("/login").text),
            "username": "ada",
            "password": LEARNER_PASSWORD,
        },
    )
    assert login.status_code == 400 and "Wrong username or password." in login.text
    assert join(learner, match.group(1), "a brand new one") == 303
    learner.cookies.clear()
    sign_in(learner, "ada", "a brand new one")
    # The roster says joined again once the reset's link is used.
    joined = row_of(client.get("/instructor/roster").text, "ada")
    assert 'data-joined="yes"' in joined and 'href="/instructor/roster/ada/reset"' in joined


def test_disable_refuses_sign_in_and_tokens_saying_so_and_enable_restores_them(
    client: TestClient, runtime: GradingRuntime
) -> None:
    links = setup_roster(client, runtime)
    learner = TestClient(client.app)
    assert join(learner, links["ada"], LEARNER_PASSWORD) == 303
    with runtime.sessions() as session:
        ada = account_store.get_user_by_name(session=session, name="ada")
        assert ada is not None
        _, token = account_store.create_token(session=session, user=ada)
        session.commit()
    bearer = {"Authorization": f"Bearer {token}"}
    assert learner.get("/submissions", headers=bearer).status_code == 200

    code, html = act(client, "ada", "disable")
    assert code == 200 and "teacher disabled the account of ada" in html
    row = row_of(html, "ada")
    assert 'data-account="disabled"' in row and 'href="/instructor/roster/ada/enable"' in row
    assert "/ada/disable" not in row and "/ada/link" not in row

    assert learner.get("/account", follow_redirects=False).status_code == 303  # signed out
    refused = learner.get("/submissions", headers=bearer)
    assert refused.status_code == 401 and "This account is disabled" in refused.json()["detail"]
    login = learner.post(
        "/login",
        data={
            "csrf_token": csrf_of(learner.get("/login").text),
            "username": "ada",
            "password": LEARNER_PASSWORD,
        },
    )
    assert login.status_code == 403 and "Your account is disabled" in login.text
    wrong = learner.post(
        "/login",
        data={
            "csrf_token": csrf_of(learner.get("/login").text),
            "username": "ada",
            "password": "not her password",
        },
    )
    assert wrong.status_code == 400 and "disabled" not in wrong.text  # no hint to a guesser
    # a stale page cannot disable twice
    assert client.get("/instructor/roster/ada/disable").status_code == 409

    code, html = act(client, "ada", "enable")
    assert code == 200 and "teacher enabled the account of ada" in html
    assert learner.get("/submissions", headers=bearer).status_code == 200
    sign_in(learner, "ada", LEARNER_PASSWORD)


def test_a_disabled_learners_link_says_so(client: TestClient, runtime: GradingRuntime) -> None:
    links = setup_roster(client, runtime)
    act(client, "alan", "disable")
    client.cookies.clear()
    page = client.get("/" + links["alan"].split("/", 3)[3])
    assert page.status_code == 403 and "Your account is disabled" in page.text


def test_actions_are_for_learners_and_instructors_only(
    client: TestClient, runtime: GradingRuntime
) -> None:
    links = setup_roster(client, runtime)
    assert client.get("/instructor/roster/teacher/disable").status_code == 404
    assert client.get("/instructor/roster/nobody/disable").status_code == 404
    assert client.get("/instructor/roster/ada/explode").status_code == 400
    learner = TestClient(client.app)
    assert join(learner, links["ada"], LEARNER_PASSWORD) == 303
    assert learner.get("/instructor/roster/alan/disable").status_code == 403
    assert (
        learner.post(
            "/instructor/roster/alan/disable",
            data={"csrf_token": csrf_of(learner.get("/account").text)},
        ).status_code
        == 403
    )
    with runtime.sessions() as session:
        alan = account_store.get_user_by_name(session=session, name="alan")
        assert alan is not None and alan.disabled_at is None
