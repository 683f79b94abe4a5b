"""LTI 1.3 launches from the test platform (tests/app/lti/platform.py): a real HTTP server
signing real id_tokens with its own keys, fetched by the tool through its key set URL."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.models import LtiAccount, LtiPlatform, Role, User, utcnow
from app.runtime.context import GradingRuntime
from app.services.lti import adapter
from app.store import accounts as account_store
from tests.app.lti.conftest import LAUNCH_URL, TOOL, launch, launch_form, signed_in_as
from tests.app.lti.platform import (
    INSTRUCTOR,
    LEARNER,
    LTI,
    TEACHING_ASSISTANT,
    Claims,
    Platform,
    SigningKey,
    read_form,
)
from tests.app.lti.platform import (
    User as LmsUser,
)

EXERCISE_PAGE = "/learn/adam"
ADA = LmsUser(sub="lms-user-1", roles=(LEARNER,), name="Ada Lovelace", email="ada@example.edu")


def _users(runtime: GradingRuntime) -> list[User]:
    with runtime.sessions() as session:
        return list(session.scalars(select(User).order_by(User.id)))


def test_a_learner_lands_on_the_linked_exercise_signed_in_to_a_new_account(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    answer = launch(client, platform, ADA, TOOL + EXERCISE_PAGE)
    assert answer.status_code == 303, answer.text
    assert answer.headers["location"] == EXERCISE_PAGE
    [user] = _users(runtime)
    assert user.role is Role.LEARNER and user.password_hash is None
    assert (user.display_name, user.email) == ("Ada Lovelace", "ada@example.edu")
    assert signed_in_as(client) == user.name
    assert client.get(EXERCISE_PAGE).status_code == 200


def test_the_next_launch_signs_in_the_same_account(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    launch(client, platform, ADA, TOOL + EXERCISE_PAGE)
    client.cookies.clear()
    assert signed_in_as(client) is None
    assert launch(client, platform, ADA, TOOL + "/course").headers["location"] == "/course"
    [user] = _users(runtime)
    assert signed_in_as(client) == user.name


ADMINISTRATOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Administrator"


@pytest.mark.parametrize("role", [INSTRUCTOR, TEACHING_ASSISTANT, ADMINISTRATOR])
def test_instructors_and_teaching_assistants_become_instructors(
    client: TestClient, runtime: GradingRuntime, platform: Platform, role: str
) -> None:
    teacher = LmsUser(sub="lms-teacher", roles=(role,), name="Grace Hopper")
    assert launch(client, platform, teacher, TOOL + "/").status_code == 303
    [user] = _users(runtime)
    assert user.role is Role.INSTRUCTOR
    assert 'href="/instructor/lti"' in client.get("/instructor/roster").text
    page = client.get("/instructor/lti")
    assert page.status_code == 200
    # the page's title is its name alone, and each section is there once
    assert "<title>LMS (LTI 1.3) · numjudge</title>" in page.text
    assert page.text.count('id="passbacks"') == 1
    for url in (TOOL + "/lti/login", LAUNCH_URL, TOOL + "/lti/jwks"):
        assert "<code id=" in page.text and f">{url}</code>" in page.text
    assert platform.issuer in page.text and platform.client_id in page.text


SYSTEM_ADMINISTRATOR = "http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator"
INSTITUTION_ADMINISTRATOR = (
    "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator"
)


@pytest.mark.parametrize(
    "roles",
    [(SYSTEM_ADMINISTRATOR,), (INSTITUTION_ADMINISTRATOR,), (INSTITUTION_ADMINISTRATOR, LEARNER)],
    ids=["system", "institution", "institution-and-course-learner"],
)
def test_the_sites_and_institutions_administrators_are_not_instructors(
    client: TestClient, runtime: GradingRuntime, platform: Platform, roles: tuple[str, ...]
) -> None:
    """Only the course's Administrator role makes an instructor (docs/lms.md): the site's and
    the institution's come with every launch of that person, a course they take included."""
    person = LmsUser(sub="lms-admin", roles=roles, name="Ada Admin")
    assert launch(client, platform, person, TOOL + "/").status_code == 303
    assert [user.role for user in _users(runtime)] == [Role.LEARNER]


def test_a_learner_cannot_open_the_lti_page(client: TestClient, platform: Platform) -> None:
    launch(client, platform, ADA, TOOL + "/")
    assert client.get("/instructor/lti").status_code == 403


def test_the_lms_promotes_an_account_to_instructor_but_never_demotes_it(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    launch(client, platform, ADA, TOOL + "/")
    promoted = LmsUser(sub=ADA.sub, roles=(INSTRUCTOR,))
    launch(client, platform, promoted, TOOL + "/")
    assert [u.role for u in _users(runtime)] == [Role.INSTRUCTOR]
    launch(client, platform, ADA, TOOL + "/")
    assert [u.role for u in _users(runtime)] == [Role.INSTRUCTOR]


def test_a_roster_account_with_the_lms_email_address_is_linked(
    client: TestClient, runtime: GradingRuntime, trusted_platform: Platform
) -> None:
    """From a platform trusted to link by e-mail address, whatever the address's case; the
    other paths are test_linking.py's."""
    with runtime.sessions() as session:
        ada = account_store.create_user(session=session, name="ada")
        account_store.set_profile(
            session=session, user=ada, display_name=None, email="ADA@example.edu", section="A"
        )
        session.commit()
    launch(client, trusted_platform, ADA, TOOL + "/")
    assert signed_in_as(client) == "ada"
    [user] = _users(runtime)
    assert (user.section, user.display_name) == ("A", "Ada Lovelace")
    with runtime.sessions() as session:
        assert session.scalars(select(LtiAccount.user_id)).all() == [user.id]


def test_a_target_on_another_site_lands_on_the_home_page(
    client: TestClient, platform: Platform
) -> None:
    answer = launch(client, platform, ADA, "https://evil.example/learn/adam")
    assert answer.headers["location"] == "/"


def test_a_new_platform_key_is_picked_up_at_the_next_launch(
    client: TestClient, platform: Platform
) -> None:
    launch(client, platform, ADA, TOOL + "/")
    platform.rotate_key()
    assert launch(client, platform, ADA, TOOL + "/").status_code == 303


def _refused(answer_status: int, text: str, reason: str) -> None:
    assert answer_status == 400, text
    assert "This launch from your LMS was refused" in text
    assert reason in text


def _expired(claims: Claims, headers: dict[str, str]) -> None:
    claims["iat"] = claims["exp"] = int(time.time()) - 600


def _other_issuer(claims: Claims, headers: dict[str, str]) -> None:
    claims["iss"] = "https://other-lms.example"


def _other_audience(claims: Claims, headers: dict[str, str]) -> None:
    claims["aud"] = "another-tool"


def _no_deployment(claims: Claims, headers: dict[str, str]) -> None:
    del claims[LTI + "deployment_id"]


def _unknown_deployment(claims: Claims, headers: dict[str, str]) -> None:
    claims[LTI + "deployment_id"] = "deployment-2"


def _unknown_key(claims: Claims, headers: dict[str, str]) -> None:
    headers["kid"] = SigningKey().kid


BAD_TOKENS: list[tuple[Callable[[Claims, dict[str, str]], None], str]] = [
    (_other_issuer, "Registration not found"),
    (_expired, "Signature has expired"),
    (_other_audience, "Registration not found"),
    (_no_deployment, "deployment_id"),
    (_unknown_deployment, "deployment-2"),
    (_unknown_key, "Unable to find public key"),
]


@pytest.mark.parametrize(("tamper", "reason"), BAD_TOKENS, ids=[t.__name__ for t, _ in BAD_TOKENS])
def test_a_bad_token_is_refused_with_a_page_and_signs_no_one_in(
    client: TestClient,
    runtime: GradingRuntime,
    platform: Platform,
    tamper: Callable[[Claims, dict[str, str]], None],
    reason: str,
) -> None:
    platform.tamper = tamper
    answer = launch(client, platform, ADA, TOOL + "/")
    _refused(answer.status_code, answer.text, reason)
    assert signed_in_as(client) is None
    assert _users(runtime) == []


def test_a_token_signed_with_another_key_under_the_platforms_kid_is_refused(
    client: TestClient, platform: Platform
) -> None:
    forger = SigningKey()

    def forge(claims: Claims, headers: dict[str, str]) -> None:
        platform.key, forger.kid = forger, platform.key.kid

    real = platform.key
    platform.tamper = forge
    answer = launch(client, platform, ADA, TOOL + "/")
    platform.key = real
    _refused(answer.status_code, answer.text, "Signature verification failed")


def test_a_replayed_launch_is_refused(client: TestClient, platform: Platform) -> None:
    fields = launch_form(client, platform, ADA, TOOL + "/")
    assert client.post(LAUNCH_URL, data=fields, follow_redirects=False).status_code == 303
    replay = client.post(LAUNCH_URL, data=fields, follow_redirects=False)
    _refused(replay.status_code, replay.text, "Invalid Nonce")
    client.cookies.clear()  # from another browser
    replay = client.post(LAUNCH_URL, data=fields, follow_redirects=False)
    _refused(replay.status_code, replay.text, "Invalid Nonce")
    assert signed_in_as(client) is None


def test_a_launch_without_the_login_is_refused(client: TestClient, platform: Platform) -> None:
    answer = client.post(LAUNCH_URL, data={"id_token": "a.b.c", "state": "state-1"})
    _refused(answer.status_code, answer.text, "State not found")


def test_a_login_from_an_unknown_platform_is_refused(
    client: TestClient, platform: Platform
) -> None:
    params = platform.login_initiation(ADA, TOOL + "/") | {"iss": "https://unknown.example"}
    answer = client.get("/lti/login", params=params)
    _refused(answer.status_code, answer.text, "Could not find registration details")


def test_a_launch_of_another_message_type_is_refused(
    client: TestClient, platform: Platform
) -> None:
    """numjudge takes resource-link and deep-linking launches (test_deep_linking.py)."""

    def review(claims: Claims, headers: dict[str, str]) -> None:
        claims[LTI + "message_type"] = "LtiSubmissionReviewRequest"
        claims[LTI + "for_user"] = {"user_id": ADA.sub}  # a valid one, as pylti1p3 checks

    platform.tamper = review
    answer = launch(client, platform, ADA, TOOL + "/")
    _refused(answer.status_code, answer.text, "resource-link and deep-linking launches only")


def test_a_disabled_account_is_not_signed_in(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    launch(client, platform, ADA, TOOL + "/")
    client.cookies.clear()
    with runtime.sessions() as session:
        [user] = session.scalars(select(User)).all()
        account_store.set_disabled_at(session=session, user=user, disabled_at=utcnow())
        session.commit()
    answer = launch(client, platform, ADA, TOOL + "/")
    _refused(answer.status_code, answer.text, "this account is disabled in numjudge")
    assert signed_in_as(client) is None


def test_a_login_initiation_without_an_issuer_is_refused(
    client: TestClient, platform: Platform
) -> None:
    params = platform.login_initiation(ADA, TOOL + "/")
    del params["iss"]
    answer = client.post("/lti/login", data=params)
    _refused(answer.status_code, answer.text, "Could not find issuer")


def test_over_https_the_login_cookies_survive_the_platforms_cross_site_post(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    secure = TestClient(client.app, base_url="https://testserver")
    platform.redirect_uris.add("https://testserver/lti/launch")
    params = platform.login_initiation(ADA, "https://testserver" + EXERCISE_PAGE)
    login = secure.get("/lti/login", params=params, follow_redirects=False)
    assert login.status_code == 302, login.text
    cookies = login.headers.get_list("set-cookie")
    assert {c.split("=", 1)[0] for c in cookies} == {"lti1p3-session-id", *_state_cookie(cookies)}
    for cookie in cookies:
        attributes = {part.strip().lower() for part in cookie.split(";")[1:]}
        assert {"secure", "httponly", "samesite=none"} <= attributes
    page = httpx.get(login.headers["location"])
    action, fields = read_form(page.text)
    assert action == "https://testserver/lti/launch"
    answer = secure.post(action, data=fields, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    assert answer.headers["location"] == EXERCISE_PAGE
    # Without the browser's session-id cookie, the launch's cache entries are not found.
    fields = launch_form(secure, platform, ADA, "https://testserver/", "https://testserver")
    secure.cookies.delete("lti1p3-session-id")
    answer = secure.post("https://testserver/lti/launch", data=fields, follow_redirects=False)
    _refused(answer.status_code, answer.text, "Missing cookie session-id")


def _state_cookie(cookies: list[str]) -> set[str]:
    names = {c.split("=", 1)[0] for c in cookies if c.startswith("lti1p3-state-")}
    assert len(names) == 1
    return names


def _issued_ahead(seconds: int) -> Callable[[Claims, dict[str, str]], None]:
    def ahead(claims: Claims, headers: dict[str, str]) -> None:
        claims["iat"] += seconds
        claims["exp"] += seconds

    return ahead


def test_a_platform_clock_a_little_ahead_is_allowed_a_minute(
    client: TestClient, platform: Platform
) -> None:
    """The IMS Security Framework allows some leeway for clock skew: a token issued 2 s in our
    future (an LMS whose clock runs ahead) is accepted, one issued two minutes ahead is not."""
    platform.tamper = _issued_ahead(2)
    assert launch(client, platform, ADA, TOOL + "/").status_code == 303
    client.cookies.clear()
    platform.tamper = _issued_ahead(120)
    answer = launch(client, platform, ADA, TOOL + "/")
    _refused(answer.status_code, answer.text, "The token is not yet valid (iat)")


def test_a_token_expired_within_the_leeway_is_accepted(
    client: TestClient, platform: Platform
) -> None:
    def expired_just_now(claims: Claims, headers: dict[str, str]) -> None:
        claims["exp"] = claims["iat"] = int(time.time()) - 30

    platform.tamper = expired_just_now
    assert launch(client, platform, ADA, TOOL + "/").status_code == 303


def _audiences(aud: list[str], azp: str | None) -> Callable[[Claims, dict[str, str]], None]:
    def several(claims: Claims, headers: dict[str, str]) -> None:
        claims["aud"] = [claims["aud"] if a == "ours" else a for a in aud]
        if azp is not None:
            claims["azp"] = claims["aud"][aud.index("ours")] if azp == "ours" else azp

    return several


@pytest.mark.parametrize(
    ("aud", "azp", "reason"),
    [
        (["ours", "another-tool"], None, "several audiences and no authorised party (azp)"),
        (["ours", "another-tool"], "another-tool", "Registration not found"),
        (["ours"], "another-tool", "authorised party (azp) is not one of its audiences"),
    ],
    ids=["several-without-azp", "azp-another-client", "azp-not-an-audience"],
)
def test_a_token_for_several_audiences_must_name_us_its_authorised_party(
    client: TestClient,
    runtime: GradingRuntime,
    platform: Platform,
    aud: list[str],
    azp: str | None,
    reason: str,
) -> None:
    """OpenID Connect Core 3.1.3.7, as the IMS Security Framework takes it up: a token with
    several audiences carries ``azp``, our client id; pylti1p3 alone took the first audience."""
    platform.tamper = _audiences(aud, azp)
    answer = launch(client, platform, ADA, TOOL + "/")
    _refused(answer.status_code, answer.text, reason)
    assert _users(runtime) == []


def test_a_token_for_several_audiences_naming_us_its_authorised_party_is_accepted(
    client: TestClient, platform: Platform
) -> None:
    platform.tamper = _audiences(["another-tool", "ours"], "ours")
    assert launch(client, platform, ADA, TOOL + "/").status_code == 303
    assert signed_in_as(client) is not None


@pytest.mark.parametrize(
    ("served", "reason"),
    [
        ({"error": "maintenance"}, "is not a JSON Web Key Set"),
        ([{"kty": "RSA"}], "is not a JSON Web Key Set"),
        ({"keys": "none"}, "is not a JSON Web Key Set"),
        ({"keys": [{"kid": "KID", "kty": "RSA", "alg": "RS256"}]}, "is not a valid JWK"),
    ],
    ids=["no-keys", "a-list", "keys-not-a-list", "a-key-without-its-values"],
)
def test_a_malformed_platform_key_set_refuses_the_launch(
    client: TestClient, runtime: GradingRuntime, platform: Platform, served: Any, reason: str
) -> None:
    """A key set URL answering JSON that is no key set (an LMS's error page in JSON, say) is
    the platform's fault: a refusal that says so, never a server error."""
    platform.key_set = json.loads(json.dumps(served).replace("KID", platform.key.kid))
    answer = launch(client, platform, ADA, TOOL + "/")
    _refused(answer.status_code, answer.text, reason)
    assert _users(runtime) == []


def test_a_key_set_url_that_never_answers_refuses_the_launch_at_the_timeout(
    client: TestClient, runtime: GradingRuntime, platform: Platform, monkeypatch: Any
) -> None:
    """A platform whose key set URL takes a connection and never answers held a server thread
    for ever (requests has no timeout of its own): the launch is refused at the timeout."""
    monkeypatch.setattr(adapter, "HTTP_TIMEOUT_S", 0.5)
    with socket.create_server(("127.0.0.1", 0)) as silent:  # the kernel accepts; no one reads
        host, port = silent.getsockname()[:2]
        with runtime.sessions() as session:
            row = session.scalars(select(LtiPlatform)).one()
            row.jwks_url = f"http://{host}:{port}/jwks"
            session.commit()
        # Without a timeout this call never returns (pytest-timeout ends the test).
        answer = launch(client, platform, ADA, TOOL + "/")
    _refused(answer.status_code, answer.text, "Error while fetching the public key URL")
    assert _users(runtime) == []
