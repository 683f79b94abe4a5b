"""Fixtures of the LTI tests: the test platform, registered with the app under test."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import LtiAccount, Role, Submission
from app.models import User as Account
from app.runtime.context import GradingRuntime
from app.services.lti import platforms
from app.store import accounts as account_store
from tests.app.lti.platform import Platform, User, read_form, running_platform

TOOL = "http://testserver"
PASSWORD = "correct horse 7"
LAUNCH_URL = TOOL + platforms.LAUNCH_PATH


def register(
    session: Session, lms: Platform, client_id: str = "", *, match_email: bool = False
) -> None:
    """Register ``lms`` with the tool whose database ``session`` writes to (under
    ``client_id``: another of its registrations; its first by default; ``match_email``:
    trusted to link its users to unused accounts by e-mail address)."""
    platforms.add_platform(
        session=session,
        issuer=lms.issuer,
        client_id=client_id or lms.client_id,
        deployment_ids=[lms.deployment_id],
        jwks_url=lms.jwks_url,
        auth_login_url=lms.auth_url,
        token_url=lms.token_url,
        match_email=match_email,
    )
    session.commit()


@contextmanager
def registered_platform(
    runtime: GradingRuntime, *, match_email: bool = False
) -> Iterator[Platform]:
    """A test platform, registered with ``runtime``'s service (whose teardown wipes it); each
    one is another registration (its own issuer, keys and users)."""
    with running_platform() as lms:
        lms.redirect_uris.add(LAUNCH_URL)
        with runtime.sessions() as session:
            register(session, lms, match_email=match_email)
        yield lms


@pytest.fixture
def platform(runtime: GradingRuntime) -> Iterator[Platform]:
    """The test platform, registered with the ``runtime`` fixture's service."""
    with registered_platform(runtime) as lms:
        yield lms


@pytest.fixture
def trusted_platform(runtime: GradingRuntime) -> Iterator[Platform]:
    """Another test platform, registered as trusted to link by e-mail address
    (``--match-email``)."""
    with registered_platform(runtime, match_email=True) as lms:
        yield lms


def launch_form(
    client: TestClient,
    lms: Platform,
    user: User,
    target: str,
    tool: str = TOOL,
    *,
    link_id: str = "",
    deep_link: bool = False,
    client_id: str = "",
) -> dict[str, str]:
    """Open a link of ``lms`` as ``user`` up to the form the platform posts to the tool (at
    ``tool``: the client's base URL); ``link_id``, ``deep_link`` and ``client_id`` as
    ``login_initiation``'s."""
    initiation = lms.login_initiation(
        user, target, link_id=link_id, deep_link=deep_link, client_id=client_id
    )
    login = client.get("/lti/login", params=initiation, follow_redirects=False)
    assert login.status_code == 302, login.text
    page = httpx.get(login.headers["location"])  # the browser follows it to the platform
    assert page.status_code == 200, page.text
    action, fields = read_form(page.text)
    assert action == tool + platforms.LAUNCH_PATH
    return fields


def launch(
    client: TestClient,
    lms: Platform,
    user: User,
    target: str,
    *,
    link_id: str = "",
    deep_link: bool = False,
    client_id: str = "",
) -> httpx.Response:
    """The whole launch; the tool's answer to the platform's form post."""
    fields = launch_form(
        client, lms, user, target, link_id=link_id, deep_link=deep_link, client_id=client_id
    )
    answer: httpx.Response = client.post(LAUNCH_URL, data=fields, follow_redirects=False)
    return answer


def signed_in_as(client: TestClient) -> str | None:
    """The account the client's session is signed in as (None if it is not)."""
    page = client.get("/account", follow_redirects=False)
    if page.status_code != 200:
        return None
    text: str = page.text
    return text.split("Signed in as <strong>", 1)[1].split("</strong>", 1)[0]


def form_value(page: str, name: str) -> str:
    """The value of the page's field ``name``."""
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert found is not None, page
    return found.group(1)


def choose(client: TestClient, page: httpx.Response, choice: str, **fields: str) -> httpx.Response:
    """Press a button of the link page ``page`` (a launch's ``LinkOffered``): ``sign-in`` (with
    ``username`` and ``password``) or ``new``."""
    data = {
        "csrf_token": form_value(page.text, "csrf_token"),
        "launch_id": form_value(page.text, "launch_id"),
        "choice": choice,
    }
    answer: httpx.Response = client.post("/lti/link", data=data | fields, follow_redirects=False)
    return answer


def links(runtime: GradingRuntime) -> dict[str, str]:
    """Every LMS user's link: their subject, the account's name."""
    with runtime.sessions() as session:
        rows = session.execute(
            select(LtiAccount.subject, Account.name).join(Account, Account.id == LtiAccount.user_id)
        )
        return dict(rows.all())


def account(
    runtime: GradingRuntime,
    name: str,
    email: str,
    *,
    role: Role = Role.LEARNER,
    password: str | None = None,
    used: bool = False,
) -> int:
    """A learner account (or of ``role``) with ``email``; ``used``: it has a password
    (``PASSWORD``) and a submission, someone's real work."""
    with runtime.sessions() as session:
        user = account_store.create_user(
            session=session, name=name, role=role, password=PASSWORD if used else password
        )
        account_store.set_profile(
            session=session, user=user, display_name=None, email=email, section=None
        )
        if used:
            session.flush()
            session.add(
                Submission(
                    user_id=user.id, exercise_id="adam", exercise_version="1", code="# secret"
                )
            )
        session.commit()
        return user.id
