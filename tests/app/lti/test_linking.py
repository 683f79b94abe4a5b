"""Which account a new LMS user is linked to when an account has their e-mail address
(app/services/lti/accounts.py): an unused learner account, from a platform trusted for it;
otherwise only after its owner signs in through the launch's link page, or a new account they
choose. Against two registrations of the test platform: ``platform`` (not trusted, the
default) and ``trusted_platform`` (``--match-email``)."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.models import (
    EnrolmentState,
    LtiEnrolment,
    LtiGradeLink,
    Role,
    Submission,
    User,
)
from app.runtime.context import GradingRuntime
from app.services import roster
from app.services.accounts import HashSlots
from app.store import accounts as account_store
from tests.app.lti.conftest import (
    PASSWORD,
    TOOL,
    account,
    choose,
    form_value,
    launch,
    launch_form,
    links,
    registered_platform,
    signed_in_as,
)
from tests.app.lti.platform import INSTRUCTOR, LEARNER, Platform
from tests.app.lti.platform import User as LmsUser

EXERCISE_PAGE = "/learn/adam"
ADA = LmsUser(sub="lms-ada", roles=(LEARNER,), name="Ada Lovelace", email="ada@example.edu")
LINK_PAGE = "Link your numjudge account"


def _submit(runtime: GradingRuntime, user_id: int) -> str:
    with runtime.sessions() as session:
        submission = Submission(
            user_id=user_id, exercise_id="adam", exercise_version="1", code="x = 1  # Ada's"
        )
        session.add(submission)
        session.commit()
        return submission.id


def _user_names(runtime: GradingRuntime) -> list[str]:
    with runtime.sessions() as session:
        return list(session.scalars(select(User.name).order_by(User.id)))


def _offered(answer: httpx.Response) -> None:
    assert answer.status_code == 200, answer.text
    assert LINK_PAGE in answer.text
    assert "Continue with a new account" in answer.text


def test_a_learner_of_another_platform_sending_a_used_accounts_address_does_not_get_it(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    """The reported takeover: Ada uses numjudge (a password, a submission); a learner of a
    second registered platform sends her address (in another case) and must neither be signed
    in as her nor see her code."""
    ada = account(runtime, "ada", "ada@example.edu", password=PASSWORD)
    submission = _submit(runtime, ada)
    with registered_platform(runtime) as second:
        mallory = LmsUser(sub="lms-mallory", roles=(LEARNER,), email="ADA@Example.edu")
        answer = launch(client, second, mallory, TOOL + f"/history/{submission}")
    _offered(answer)
    assert signed_in_as(client) is None
    assert "Ada&#39;s" not in client.get(f"/history/{submission}").text
    assert links(runtime) == {}
    # The only way on without Ada's password: a new, empty account.
    wrong = choose(client, answer, "sign-in", username="ada", password="guess guess")
    assert wrong.status_code == 400 and "Wrong username or password." in wrong.text
    new = choose(client, answer, "new")
    assert new.status_code == 303, new.text
    [(subject, name)] = links(runtime).items()
    assert subject == mallory.sub and name.startswith("lti-") and signed_in_as(client) == name
    assert client.get(f"/history/{submission}").status_code == 404


def _password(runtime: GradingRuntime, user_id: int, client: TestClient) -> None:
    with runtime.sessions() as session:
        user = session.get(User, user_id)
        assert user is not None
        account_store.set_password(session=session, user=user, password=PASSWORD)
        session.commit()


def _submission(runtime: GradingRuntime, user_id: int, client: TestClient) -> None:
    _submit(runtime, user_id)


def _api_token(runtime: GradingRuntime, user_id: int, client: TestClient) -> None:
    with runtime.sessions() as session:
        user = session.get(User, user_id)
        assert user is not None
        account_store.create_token(session=session, user=user)
        session.commit()


def _joined_by_link(runtime: GradingRuntime, user_id: int, client: TestClient) -> None:
    """The learner chose a password with their sign-up link; the link's use alone counts (the
    password is cleared behind its back here)."""
    with runtime.sessions() as session:
        user = session.get(User, user_id)
        assert user is not None
        link = roster.issue_link(session=session, user=user, days=7)
        found, state = roster.find_link(session=session, token=link.token)
        assert found is not None and state is roster.LinkState.VALID
        roster.join(
            session=session,
            settings=runtime.settings,
            slots=HashSlots(1),
            address="testclient",
            link=found,
            password=PASSWORD,
        )
        account_store.set_password(session=session, user=user, password=None)
        session.commit()


USES: list[Callable[[GradingRuntime, int, TestClient], None]] = [
    _password,
    _submission,
    _api_token,
    _joined_by_link,
]


def test_a_trusted_platform_links_an_unused_roster_account_whatever_the_address_case(
    client: TestClient, runtime: GradingRuntime, trusted_platform: Platform
) -> None:
    account(runtime, "ada", "Ada@Example.EDU")
    shouting = LmsUser(sub=ADA.sub, roles=ADA.roles, name=ADA.name, email="ADA@example.edu")
    answer = launch(client, trusted_platform, shouting, TOOL + EXERCISE_PAGE)
    assert answer.status_code == 303 and answer.headers["location"] == EXERCISE_PAGE
    assert signed_in_as(client) == "ada"
    assert links(runtime) == {ADA.sub: "ada"}


@pytest.mark.parametrize("use", USES, ids=[use.__name__.strip("_") for use in USES])
def test_a_trusted_platform_does_not_link_an_account_in_use(
    client: TestClient,
    runtime: GradingRuntime,
    trusted_platform: Platform,
    use: Callable[[GradingRuntime, int, TestClient], None],
) -> None:
    use(runtime, account(runtime, "ada", ADA.email), client)
    _offered(launch(client, trusted_platform, ADA, TOOL + "/"))
    assert signed_in_as(client) is None
    assert links(runtime) == {} and _user_names(runtime) == ["ada"]


def test_an_untrusted_platform_does_not_link_even_an_unusedaccount(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    account(runtime, "ada", ADA.email)
    _offered(launch(client, platform, ADA, TOOL + "/"))
    assert links(runtime) == {} and _user_names(runtime) == ["ada"]


def test_e_mail_never_links_an_instructors_account_nor_an_lms_instructor(
    client: TestClient, runtime: GradingRuntime, trusted_platform: Platform
) -> None:
    account(runtime, "grace", "grace@example.edu", role=Role.INSTRUCTOR)
    grace = LmsUser(sub="lms-grace", roles=(LEARNER,), email="grace@example.edu")
    _offered(launch(client, trusted_platform, grace, TOOL + "/"))
    account(runtime, "ted", "ted@example.edu")  # an unused learner account
    ted = LmsUser(sub="lms-ted", roles=(INSTRUCTOR,), email="ted@example.edu")
    _offered(launch(client, trusted_platform, ted, TOOL + "/"))
    assert links(runtime) == {}


def test_the_second_platforms_user_with_a_linked_accounts_address_gets_a_newaccount(
    client: TestClient, runtime: GradingRuntime, trusted_platform: Platform, platform: Platform
) -> None:
    """An account another LMS user is linked to, without a password, is nobody's to sign in to:
    the address makes a new account, as an address no account has does."""
    account(runtime, "ada", ADA.email)
    launch(client, trusted_platform, ADA, TOOL + "/")
    client.cookies.clear()
    answer = launch(client, platform, ADA, TOOL + "/")
    assert answer.status_code == 303, answer.text
    ada, new = _user_names(runtime)
    assert ada == "ada" and new.startswith("lti-") and signed_in_as(client) == new


def test_signing_in_on_the_link_page_links_the_account_for_good(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    ada = account(runtime, "ada", ADA.email, password=PASSWORD)
    _submit(runtime, ada)
    page = launch(client, platform, ADA, TOOL + EXERCISE_PAGE)
    _offered(page)
    empty = choose(client, page, "sign-in", username="ada", password="")
    assert empty.status_code == 400 and "Enter your username and your password." in empty.text
    forged = client.post(
        "/lti/link",
        data={"csrf_token": "x", "launch_id": form_value(page.text, "launch_id"), "choice": "new"},
    )
    assert forged.status_code == 400 and "This form has expired" in forged.text
    linked = choose(client, page, "sign-in", username="ada", password=PASSWORD)
    assert linked.status_code == 303, linked.text
    assert linked.headers["location"] == EXERCISE_PAGE
    assert signed_in_as(client) == "ada"
    assert links(runtime) == {ADA.sub: "ada"}
    with runtime.sessions() as session:
        user = session.get(User, ada)
        assert user is not None and user.display_name == "Ada Lovelace"
        # The launch ended as a launch ends: the course and the grade link are kept.
        assert session.scalars(select(LtiEnrolment.state)).all() == [EnrolmentState.ACTIVE]
        assert session.scalars(select(LtiGradeLink.user_id)).all() == [ada]
    # The launch's id is used up (the signed-in session has a new CSRF token: the account
    # page's).
    again = client.post(
        "/lti/link",
        data={
            "csrf_token": form_value(client.get("/account").text, "csrf_token"),
            "launch_id": form_value(page.text, "launch_id"),
            "choice": "new",
        },
    )
    assert again.status_code == 400 and "already used" in again.text
    # From now on the LMS signs Ada in at once, in another browser too.
    client.cookies.clear()
    answer = launch(client, platform, ADA, TOOL + "/")
    assert answer.status_code == 303 and signed_in_as(client) == "ada"


def test_choosing_a_new_account_leaves_the_existing_one_alone(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    account(runtime, "ada", ADA.email, password=PASSWORD)
    page = launch(client, platform, ADA, TOOL + EXERCISE_PAGE)
    answer = choose(client, page, "new")
    assert answer.status_code == 303 and answer.headers["location"] == EXERCISE_PAGE
    [(subject, name)] = links(runtime).items()
    assert subject == ADA.sub and name.startswith("lti-") and signed_in_as(client) == name
    client.cookies.clear()
    assert launch(client, platform, ADA, TOOL + "/").status_code == 303
    assert signed_in_as(client) == name


def test_an_instructor_picks_work_before_linking_and_links_at_a_resource_launch(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    account(runtime, "grace", "grace@example.edu", role=Role.INSTRUCTOR, password=PASSWORD)
    grace = LmsUser(sub="lms-grace", roles=(INSTRUCTOR,), name="Grace", email="grace@example.edu")
    picker = launch(client, platform, grace, TOOL + "/lti/launch", deep_link=True)
    assert picker.status_code == 200 and "Add to the LMS context" in picker.text
    assert links(runtime) == {} and _user_names(runtime) == ["grace"]
    page = launch(client, platform, grace, TOOL + "/instructor/lti")
    linked = choose(client, page, "sign-in", username="grace", password=PASSWORD)
    assert linked.headers["location"] == "/instructor/lti"
    assert links(runtime) == {grace.sub: "grace"}
    page = client.get("/instructor/lti")
    assert page.status_code == 200
    assert '<td data-match-email="no">linked after signing in</td>' in page.text


def test_over_https_the_link_page_works_only_in_the_browser_that_launched(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    """Its launch's data is kept under the browser's pylti1p3 session cookie: the page's
    launch id is no use to another browser (docs/security.md)."""
    account(runtime, "ada", ADA.email, password=PASSWORD)
    secure = TestClient(client.app, base_url="https://testserver")
    platform.redirect_uris.add("https://testserver/lti/launch")
    fields = launch_form(secure, platform, ADA, "https://testserver/", "https://testserver")
    page = secure.post("https://testserver/lti/launch", data=fields, follow_redirects=False)
    _offered(page)
    session_id = secure.cookies["lti1p3-session-id"]
    secure.cookies.delete("lti1p3-session-id")
    elsewhere = choose(secure, page, "sign-in", username="ada", password=PASSWORD)
    assert elsewhere.status_code == 400 and "unknown, expired or already used" in elsewhere.text
    assert links(runtime) == {}
    secure.cookies.set("lti1p3-session-id", session_id, domain="testserver.local")
    here = choose(secure, page, "sign-in", username="ada", password=PASSWORD)
    assert here.status_code == 303, here.text
    assert links(runtime) == {ADA.sub: "ada"}
