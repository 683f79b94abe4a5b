"""The account page: a learner lists and revokes their API tokens and changes their password."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from app.core.security import verify_password
from app.runtime.context import GradingRuntime
from app.store import accounts as account_store
from tests.app.web.helpers import csrf_of, sign_in, sign_up

PASSWORD = "correct horse"
NEW_PASSWORD = "battery staple"
NEW_TOKEN = re.compile(r'id="token" type="text" readonly value="([^"]+)"')


def new_token(client: TestClient) -> str:
    created = client.post(
        "/account/token", data={"csrf_token": csrf_of(client.get("/account").text)}
    )
    match = NEW_TOKEN.search(created.text)
    assert match is not None
    return match.group(1)


def token_ids(runtime: GradingRuntime, name: str) -> dict[str, int]:
    """The ids of the user's live tokens, by their shown prefix."""
    with runtime.sessions() as session:
        user = account_store.get_user_by_name(session=session, name=name)
        assert user is not None
        return {
            t.prefix: t.id
            for t in account_store.list_tokens(session=session, user=user)
            if t.revoked_at is None
        }


def change(
    client: TestClient, current: str, new: str, repeat: str | None = None
) -> tuple[int, str]:
    response = client.post(
        "/account/password",
        data={
            "csrf_token": csrf_of(client.get("/account").text),
            "current_password": current,
            "password": new,
            "password2": new if repeat is None else repeat,
        },
    )
    return response.status_code, response.text


def test_tokens_are_listed_and_a_revoked_one_gets_401_at_once(
    client: TestClient, runtime: GradingRuntime
) -> None:
    sign_up(client, "ada", PASSWORD)
    kept, revoked = new_token(client), new_token(client)
    assert client.get("/submissions", headers={"Authorization": f"Bearer {kept}"}).is_success
    page = client.get("/account").text
    ids = token_ids(runtime, "ada")
    assert len(ids) == 2
    for prefix, token_id in ids.items():
        row = page[page.index(f'data-token="{prefix}"') :].split("</tr>")[0]
        assert f'action="/account/tokens/{token_id}/revoke"' in row
        assert "–" in row  # never expires; the revoked one was never used
    kept_row = page[page.index(f'data-token="{kept[:10]}') :].split("</tr>")[0]
    assert len(re.findall(r"<td>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ", kept_row)) == 2  # made, used

    revoked_id = next(i for p, i in ids.items() if revoked.startswith(p))
    done = client.post(f"/account/tokens/{revoked_id}/revoke", data={"csrf_token": csrf_of(page)})
    assert done.status_code == 200 and "The token was revoked" in done.text
    assert f'action="/account/tokens/{revoked_id}/revoke"' not in done.text
    refused = client.get("/submissions", headers={"Authorization": f"Bearer {revoked}"})
    assert refused.status_code == 401
    assert refused.json()["detail"] == "Invalid, expired or revoked API token"
    assert client.get("/submissions", headers={"Authorization": f"Bearer {kept}"}).is_success

    again = client.post(
        f"/account/tokens/{revoked_id}/revoke", data={"csrf_token": csrf_of(done.text)}
    )
    assert again.status_code == 404 and "already revoked" in again.text
    kept_id = next(i for p, i in ids.items() if kept.startswith(p))
    forged = client.post(f"/account/tokens/{kept_id}/revoke", data={"csrf_token": "forged"})
    assert forged.status_code == 400
    assert client.get("/submissions", headers={"Authorization": f"Bearer {kept}"}).is_success


def test_nobody_revokes_anothers_token(client: TestClient, runtime: GradingRuntime) -> None:
    sign_up(client, "ada", PASSWORD)
    token = new_token(client)
    (token_id,) = token_ids(runtime, "ada").values()
    client.cookies.clear()
    sign_up(client, "bob", PASSWORD)
    response = client.post(
        f"/account/tokens/{token_id}/revoke",
        data={"csrf_token": csrf_of(client.get("/account").text)},
    )
    assert response.status_code == 404
    assert client.get("/submissions", headers={"Authorization": f"Bearer {token}"}).is_success


def test_changing_the_password_needs_the_current_one_and_signs_out_other_browsers(
    client: TestClient, runtime: GradingRuntime
) -> None:
    sign_up(client, "ada", PASSWORD)
    token = new_token(client)
    other = TestClient(client.app)
    sign_in(other, "ada", PASSWORD)

    code, html = change(client, "not it", NEW_PASSWORD)
    assert code == 400 and "Your current password is not right" in html
    code, html = change(client, PASSWORD, NEW_PASSWORD, repeat="battery stapler")
    assert code == 400 and "The two new passwords differ." in html
    code, html = change(client, PASSWORD, "short")
    assert code == 400 and "at least 8 characters" in html
    sign_in(TestClient(client.app), "ada", PASSWORD)  # nothing changed so far

    code, html = change(client, PASSWORD, NEW_PASSWORD)
    assert code == 200 and "Your password was changed." in html
    assert client.get("/account").status_code == 200  # this browser stays signed in
    assert other.get("/account", follow_redirects=False).status_code == 303
    assert client.get("/submissions", headers={"Authorization": f"Bearer {token}"}).is_success
    fresh = TestClient(client.app)
    old = fresh.post(
        "/login",
        data={
            "csrf_token": csrf_of(fresh.get("/login").text),
            "username": "ada",
            "password": PASSWORD,
        },
    )
    assert old.status_code == 400
    sign_in(fresh, "ada", NEW_PASSWORD)


def test_wrong_current_passwords_are_throttled_like_sign_ins(
    client: TestClient, runtime: GradingRuntime
) -> None:
    sign_up(client, "ada", PASSWORD)
    limit = runtime.settings.login_failures_per_name
    for _ in range(limit):
        assert change(client, "guess", NEW_PASSWORD)[0] == 400
    code, html = change(client, PASSWORD, NEW_PASSWORD)
    assert code == 429 and "Too many failed attempts" in html
    with runtime.sessions() as session:
        ada = account_store.get_user_by_name(session=session, name="ada")
        assert ada is not None and ada.password_hash is not None
        assert verify_password(ada.password_hash, PASSWORD)  # unchanged
