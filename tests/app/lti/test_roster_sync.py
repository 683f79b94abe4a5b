"""LMS contexts and roster synchronisation (Names and Role Provisioning Services) against the
test platform: launches record their context and enrol their user, a context maps to a section,
and the roster follows the context's membership list, read page by page under an access token
the platform grants for the NRPS scope."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from typer.testing import CliRunner

from app.cli.main import app as cli
from app.core.config import get_settings
from app.models import (
    EnrolmentState,
    LtiContext,
    LtiEnrolment,
    Role,
    SyncState,
    User,
)
from app.runtime.context import GradingRuntime
from app.services.lti import contexts, roster_sync
from app.services.lti.roster_sync import RosterSyncFailed, SyncResult
from app.store import accounts as account_store
from tests.app.lti.conftest import PASSWORD, TOOL, account, choose, launch, links
from tests.app.lti.platform import (
    INSTRUCTOR,
    LEARNER,
    NRPS_CLAIM,
    TEACHING_ASSISTANT,
    Platform,
)
from tests.app.lti.platform import User as LmsUser

TEACHER = LmsUser(sub="lms-teacher", roles=(INSTRUCTOR,), name="Grace Hopper")
ADA = LmsUser(sub="lms-ada", roles=(LEARNER,), name="Ada Lovelace", email="ada@example.edu")
BOB = LmsUser(sub="lms-bob", roles=(LEARNER,), name="Bob Barker", email="bob@example.edu")
CAROL = LmsUser(sub="lms-carol", roles=(LEARNER,), name="Carol Shaw", email="carol@example.edu")
TED = LmsUser(sub="lms-ted", roles=(TEACHING_ASSISTANT,), name="Ted Nelson")

Row = tuple[str | None, str | None, Role, EnrolmentState | None]


def _people(runtime: GradingRuntime) -> dict[str, Row]:
    """Every account by its display name: e-mail, section, role, and enrolment in the course."""
    with runtime.sessions() as session:
        states = dict(session.execute(select(LtiEnrolment.user_id, LtiEnrolment.state)).all())
        return {
            user.display_name or user.name: (
                user.email,
                user.section,
                user.role,
                states.get(user.id),
            )
            for user in session.scalars(select(User))
        }


def _course(runtime: GradingRuntime) -> LtiContext:
    with runtime.sessions() as session:
        [course] = session.scalars(select(LtiContext)).all()
        session.expunge(course)
        return course


def _csrf(text: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', text)
    assert found is not None
    return found.group(1)


def _teacher_signed_in(client: TestClient, lms: Platform) -> int:
    """The teacher opens numjudge from the course (which records it); the course's number."""
    assert launch(client, lms, TEACHER, TOOL + "/instructor/lti").status_code == 303
    lms.tool_jwks = client.get("/lti/jwks").json()
    lms.enrol(TEACHER)
    page = client.get("/instructor/lti")
    found = re.search(r'action="/instructor/lti/courses/(\d+)/sync"', page.text)
    assert found is not None, page.text
    return int(found.group(1))


def _sync(runtime: GradingRuntime, course: int) -> SyncResult:
    with runtime.sessions() as session:
        return roster_sync.synchronise(session=session, context_id=course)


def _set_section(runtime: GradingRuntime, course: int, section: str | None) -> int:
    with runtime.sessions() as session:
        moved = contexts.set_section(session=session, context_id=course, section=section)
        session.commit()
        return moved


def test_a_launch_records_its_course_and_enrols_its_user(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    assert launch(client, platform, ADA, TOOL + "/").status_code == 303
    course = _course(runtime)
    assert (course.context_id, course.title, course.label) == ("course-1", "Numerics", "NUM101")
    assert course.memberships_url == platform.memberships_url
    assert course.section is None and course.sync_state is None
    assert _people(runtime) == {
        "Ada Lovelace": ("ada@example.edu", None, Role.LEARNER, EnrolmentState.ACTIVE)
    }
    # A later launch without the service keeps the list's address; one course, one enrolment.
    platform.tamper = lambda claims, headers: claims.pop(NRPS_CLAIM)
    assert launch(client, platform, ADA, TOOL + "/").status_code == 303
    assert _course(runtime).memberships_url == platform.memberships_url
    with runtime.sessions() as session:
        assert session.query(LtiEnrolment).count() == 1


def test_the_button_adds_the_courses_members_with_their_names_roles_and_section(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    course = _teacher_signed_in(client, platform)
    for member in (ADA, BOB, CAROL, TED):
        platform.enrol(member)
    page = client.get("/instructor/lti")
    assert "LMS contexts" in page.text and "Numerics" in page.text and "NUM101" in page.text
    answer = client.post(
        f"/instructor/lti/courses/{course}/section",
        data={"csrf_token": _csrf(page.text), "section": " A "},
        follow_redirects=False,
    )
    assert answer.status_code == 303 and answer.headers["location"] == "/instructor/lti#courses"
    assert _course(runtime).section == "A"

    synced = client.post(
        f"/instructor/lti/courses/{course}/sync", data={"csrf_token": _csrf(page.text)}
    )
    assert synced.status_code == 200, synced.text
    assert "4 added, 0 updated, 1 unchanged, 0 dropped" in synced.text
    assert "Ada Lovelace, Bob Barker, Carol Shaw, Ted Nelson" in synced.text
    assert platform.member_pages == 3  # five members, two a page
    assert _people(runtime) == {
        "Grace Hopper": (None, None, Role.INSTRUCTOR, EnrolmentState.ACTIVE),
        "Ada Lovelace": ("ada@example.edu", "A", Role.LEARNER, EnrolmentState.ACTIVE),
        "Bob Barker": ("bob@example.edu", "A", Role.LEARNER, EnrolmentState.ACTIVE),
        "Carol Shaw": ("carol@example.edu", "A", Role.LEARNER, EnrolmentState.ACTIVE),
        "Ted Nelson": (None, None, Role.INSTRUCTOR, EnrolmentState.ACTIVE),  # the TA
    }
    course_row = _course(runtime)
    assert (course_row.sync_state, course_row.sync_error) == (SyncState.SUCCEEDED, "")
    assert f'id="context-section-{course}" name="section" maxlength="32" value="A"' in synced.text

    # The synchronised learner's first launch signs in the account the sync made.
    learner = TestClient(client.app, base_url=TOOL)
    assert launch(learner, platform, ADA, TOOL + "/").status_code == 303
    assert len(_people(runtime)) == 5
    again = _sync(runtime, course)
    assert again == SyncResult(added=(), updated=(), unchanged=5, dropped=())


def test_a_member_dropped_is_marked_on_the_roster_and_active_again_when_re_added(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    course = _teacher_signed_in(client, platform)
    for member in (ADA, BOB, CAROL):
        platform.enrol(member)
    assert _sync(runtime, course).added == ("Ada Lovelace", "Bob Barker", "Carol Shaw")
    platform.unenrol(BOB.sub)
    platform.set_status(CAROL.sub, "Inactive")
    result = _sync(runtime, course)
    assert result.dropped == ("Bob Barker", "Carol Shaw") and result.unchanged == 2
    people = _people(runtime)
    assert people["Bob Barker"][3] is people["Carol Shaw"][3] is EnrolmentState.DROPPED
    assert people["Ada Lovelace"][3] is EnrolmentState.ACTIVE
    with runtime.sessions() as session:
        assert all(user.is_active for user in session.scalars(select(User)))  # none disabled

    roster = client.get("/instructor/roster").text
    rows = re.findall(r'<tr data-user="([^"]+)">(.*?)</tr>', roster, re.S)
    marked = {name for name, row in rows if 'data-lms="dropped"' in row}
    with runtime.sessions() as session:
        names = {u.display_name: u.name for u in session.scalars(select(User))}
    assert marked == {names["Bob Barker"], names["Carol Shaw"]}
    assert "dropped in the LMS" in roster

    platform.enrol(BOB)
    platform.set_status(CAROL.sub, "Deleted")
    result = _sync(runtime, course)
    assert result.added == ("Bob Barker",) and result.dropped == ()
    assert _people(runtime)["Bob Barker"][3] is EnrolmentState.ACTIVE
    roster = client.get("/instructor/roster").text
    assert roster.count('data-lms="dropped"') == 1  # Carol's


def test_the_lms_changes_a_members_name_and_promotes_but_never_demotes(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    course = _teacher_signed_in(client, platform)
    platform.enrol(ADA)
    _sync(runtime, course)
    platform.enrol(LmsUser(sub=ADA.sub, roles=(INSTRUCTOR,), name="Ada King", email=ADA.email))
    assert _sync(runtime, course).updated == ("Ada King",)
    assert _people(runtime)["Ada King"][2] is Role.INSTRUCTOR
    platform.enrol(LmsUser(sub=ADA.sub, roles=(LEARNER,), name="Ada King", email=ADA.email))
    assert _sync(runtime, course).unchanged == 2
    assert _people(runtime)["Ada King"][2] is Role.INSTRUCTOR


def test_the_courses_section_is_given_to_its_learners_at_launch_and_when_set(
    client: TestClient, runtime: GradingRuntime, trusted_platform: Platform
) -> None:
    platform = trusted_platform  # Bob's roster account is linked by his e-mail address
    with runtime.sessions() as session:
        bob = account_store.create_user(session=session, name="bob")
        account_store.set_profile(
            session=session, user=bob, display_name=None, email=BOB.email, section="B"
        )
        session.commit()
    assert launch(client, platform, BOB, TOOL + "/").status_code == 303
    assert _people(runtime)["Bob Barker"][1] == "B"  # no section mapped: left alone
    course = _course(runtime).id
    assert _set_section(runtime, course, "A") == 1  # Bob, at once
    assert launch(client, platform, ADA, TOOL + "/").status_code == 303
    assert launch(client, platform, TEACHER, TOOL + "/").status_code == 303
    people = _people(runtime)
    assert (people["Bob Barker"][1], people["Ada Lovelace"][1]) == ("A", "A")
    assert people["Grace Hopper"][1] is None  # instructors have no section
    assert _set_section(runtime, course, "  ") == 0
    assert _course(runtime).section is None
    _set_section(runtime, course, "A")
    assert _set_section(runtime, course, " - ") == 0  # the command line's and the page's "none"
    assert _course(runtime).section is None
    with runtime.sessions() as session, pytest.raises(contexts.InvalidSection):
        contexts.set_section(session=session, context_id=course, section="x" * 33)


def test_a_synchronisation_links_by_e_mail_address_only_as_a_launch_does(
    client: TestClient, runtime: GradingRuntime, trusted_platform: Platform
) -> None:
    """Ada's unused roster account is linked; Bob's account, which has a password, waits for
    Bob to sign in to it at his first launch; Carol's address has no account: a new one."""
    platform = trusted_platform
    account(runtime, "ada", ADA.email)
    account(runtime, "bob", "Bob@Example.edu", password=PASSWORD)
    course = _teacher_signed_in(client, platform)
    for member in (ADA, BOB, CAROL):
        platform.enrol(member)
    page = client.get("/instructor/lti")
    synced = client.post(
        f"/instructor/lti/courses/{course}/sync", data={"csrf_token": _csrf(page.text)}
    )
    assert synced.status_code == 200, synced.text
    assert "2 added, 0 updated, 1 unchanged, 0 dropped" in synced.text
    assert "they link it by signing in to it at their first launch" in synced.text
    assert "(or choose a new account): Bob Barker" in synced.text
    subjects = links(runtime)
    assert subjects[ADA.sub] == "ada" and subjects[CAROL.sub].startswith("lti-")
    assert BOB.sub not in subjects
    people = _people(runtime)
    assert people["Ada Lovelace"][3] is people["Carol Shaw"][3] is EnrolmentState.ACTIVE
    assert people["bob"] == ("Bob@Example.edu", None, Role.LEARNER, None)  # untouched

    learner = TestClient(client.app, base_url=TOOL)
    offered = launch(learner, platform, BOB, TOOL + "/")
    assert offered.status_code == 200 and "Link your numjudge account" in offered.text
    linked = choose(learner, offered, "sign-in", username="bob", password=PASSWORD)
    assert linked.status_code == 303, linked.text
    assert links(runtime)[BOB.sub] == "bob"
    assert _sync(runtime, course) == SyncResult(added=(), updated=(), unchanged=4, dropped=())


def test_a_synchronisation_from_an_untrusted_platform_leaves_an_unused_account_waiting(
    client: TestClient, runtime: GradingRuntime, platform: Platform, cli_env: CliRunner
) -> None:
    account(runtime, "ada", ADA.email.upper())
    course = _teacher_signed_in(client, platform)
    platform.enrol(ADA)
    synced = cli_env.invoke(cli, ["lti", "sync-roster", str(course)])
    assert synced.exit_code == 0, synced.output
    assert synced.output.splitlines() == [
        "0 added, 0 updated, 1 unchanged, 0 dropped",
        "waiting to sign in to link an account with their e-mail address: Ada Lovelace",
    ]
    assert ADA.sub not in links(runtime)
    assert _people(runtime)["ada"] == (ADA.email.upper(), None, Role.LEARNER, None)


def _refuse_the_tools_key(platform: Platform) -> None:
    platform.tool_jwks = {"keys": []}


def _take_the_list_down(platform: Platform) -> None:
    platform.memberships_down = True


@pytest.mark.parametrize(
    ("break_it", "reason"),
    [
        (_refuse_the_tools_key, "access token"),
        (_take_the_list_down, "HTTP 503: the course's members are not available now"),
    ],
    ids=["token-refused", "list-down"],
)
def test_a_failed_synchronisation_changes_nothing_and_says_why(
    client: TestClient,
    runtime: GradingRuntime,
    platform: Platform,
    break_it: Callable[[Platform], None],
    reason: str,
) -> None:
    for learner in (ADA, BOB):  # enrolled by their launches: no access token asked for yet
        assert launch(client, platform, learner, TOOL + "/").status_code == 303
    course = _teacher_signed_in(client, platform)
    assert _set_section(runtime, course, "A") == 2
    before = _people(runtime)
    platform.enrol(BOB)
    platform.enrol(CAROL)  # and Ada is gone
    break_it(platform)
    with pytest.raises(RosterSyncFailed, match=re.escape(reason)):
        _sync(runtime, course)
    assert _people(runtime) == before
    failed = _course(runtime)
    assert failed.sync_state is SyncState.FAILED and reason in failed.sync_error

    page = client.get("/instructor/lti")
    assert "synchronisation failed" in page.text and reason.split(":")[0] in page.text
    answer = client.post(
        f"/instructor/lti/courses/{course}/sync", data={"csrf_token": _csrf(page.text)}
    )
    assert answer.status_code == 502
    assert "The roster could not be synchronised" in answer.text
    assert "Nothing on the roster changed" in answer.text
    assert _people(runtime) == before


def test_a_course_without_the_names_and_roles_service_cannot_be_synchronised(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    platform.tamper = lambda claims, headers: claims.pop(NRPS_CLAIM)
    assert launch(client, platform, TEACHER, TOOL + "/").status_code == 303
    course = _course(runtime)
    assert course.memberships_url == ""
    with pytest.raises(RosterSyncFailed, match="offered no membership list"):
        _sync(runtime, course.id)
    page = client.get("/instructor/lti")
    assert "no names and roles service" in page.text
    assert platform.member_pages == 0


def test_the_page_refuses_a_course_that_does_not_exist_and_a_missing_csrf_token(
    client: TestClient, platform: Platform
) -> None:
    course = _teacher_signed_in(client, platform)
    csrf = _csrf(client.get("/instructor/lti").text)
    missing = client.post("/instructor/lti/courses/999999/sync", data={"csrf_token": csrf})
    assert missing.status_code == 404 and "There is no LMS context 999999" in missing.text
    forged = client.post(f"/instructor/lti/courses/{course}/sync", data={"csrf_token": "x"})
    assert forged.status_code == 400 and "This form has expired" in forged.text
    assert platform.member_pages == 0


@pytest.fixture
def cli_env(runtime: GradingRuntime, monkeypatch: pytest.MonkeyPatch) -> Iterator[CliRunner]:
    monkeypatch.setenv("NUMJUDGE_DATABASE_URL", runtime.settings.database_url)
    get_settings.cache_clear()
    yield CliRunner()
    get_settings.cache_clear()


def test_the_command_line_lists_courses_sets_sections_and_synchronises(
    client: TestClient, runtime: GradingRuntime, platform: Platform, cli_env: CliRunner
) -> None:
    course = _teacher_signed_in(client, platform)
    platform.enrol(ADA)
    listed = cli_env.invoke(cli, ["lti", "contexts"])
    assert listed.exit_code == 0, listed.output
    assert listed.output.splitlines() == [
        f"{course}\tNUM101\tNumerics\t{platform.issuer}\t1 active, 0 dropped\tsection -\t"
        "never synchronised"
    ]
    mapped = cli_env.invoke(cli, ["lti", "set-section", str(course), "A"])
    assert mapped.exit_code == 0 and "section A; 0 learner(s) moved" in mapped.output
    synced = cli_env.invoke(cli, ["lti", "sync-roster", str(course)])
    assert synced.exit_code == 0, synced.output
    assert synced.output.splitlines() == [
        "1 added, 0 updated, 1 unchanged, 0 dropped",
        "added: Ada Lovelace",
    ]
    assert _people(runtime)["Ada Lovelace"][1] == "A"
    listed = cli_env.invoke(cli, ["lti", "contexts"])
    assert "1 added, 0 updated, 1 unchanged, 0 dropped" in listed.output
    assert "2 active, 0 dropped\tsection A\tsynchronised " in listed.output
    unmapped = cli_env.invoke(cli, ["lti", "set-section", str(course), "-"])
    assert unmapped.exit_code == 0 and "no section" in unmapped.output
    assert _course(runtime).section is None

    missing = cli_env.invoke(cli, ["lti", "sync-roster", "999999"])
    assert missing.exit_code == 2 and "LMS context 999999 not found" in missing.output
    _take_the_list_down(platform)
    failed = cli_env.invoke(cli, ["lti", "sync-roster", str(course)])
    assert failed.exit_code == 1 and "HTTP 503" in failed.output


def test_the_command_line_synchronises_every_course_for_a_scheduler(
    client: TestClient, runtime: GradingRuntime, platform: Platform, cli_env: CliRunner
) -> None:
    course = _teacher_signed_in(client, platform)
    platform.enrol(ADA)
    synced = cli_env.invoke(cli, ["lti", "sync-roster", "--all"])
    assert synced.exit_code == 0, synced.output
    assert synced.output.splitlines() == [
        f"LMS context {course}: 1 added, 0 updated, 1 unchanged, 0 dropped",
        f"LMS context {course}: added: Ada Lovelace",
    ]
    neither = cli_env.invoke(cli, ["lti", "sync-roster"])
    both = cli_env.invoke(cli, ["lti", "sync-roster", str(course), "--all"])
    assert neither.exit_code == both.exit_code == 2
    assert "give an LMS context's number or --all" in neither.output
    _take_the_list_down(platform)
    failed = cli_env.invoke(cli, ["lti", "sync-roster", "--all"])
    assert failed.exit_code == 1 and f"LMS context {course}: error:" in failed.output
