"""Deep linking against the test platform: an instructor picks numjudge's work in the LMS, the
platform checks the tool's signed response and makes links with gradebook columns, and a
learner's score reaches the column of the link they opened."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import httpx
from fastapi.testclient import TestClient

from app.models import LtiGradeLink, User
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from app.store import accounts as account_store
from tests.app.course_catalog import course_service
from tests.app.lti.conftest import LAUNCH_URL, TOOL, launch, registered_platform
from tests.app.lti.platform import DL, INSTRUCTOR, LEARNER, Platform, read_form
from tests.app.lti.platform import User as LmsUser
from tests.app.lti.test_passback import _submit, _until

GRACE = LmsUser(sub="lms-grace", roles=(INSTRUCTOR,), name="Grace Hopper")
ADA = LmsUser(sub="lms-ada", roles=(LEARNER,), name="Ada Lovelace")
EXERCISE = "adam"
ASSIGNMENT = "numpy-foundations"
CHOICE = re.compile(r'<input type="(\w+)" name="item" value="([^"]+)"')
BOTH = [f"exercise:{EXERCISE}", f"assignment:{ASSIGNMENT}"]


def _picker(client: TestClient, lms: Platform) -> httpx.Response:
    """Grace adds an activity in the LMS: the tool's answer to the deep-linking launch."""
    lms.tool_jwks = client.get("/lti/jwks").json()
    return launch(client, lms, GRACE, LAUNCH_URL, deep_link=True)


def _offered(page: str) -> tuple[str, dict[str, str], list[tuple[str, str]]]:
    """The picker's form action, its hidden fields and its (input type, value) choices."""
    action, fields = read_form(page)
    return action, fields, CHOICE.findall(page)


def _framed_by(answer: httpx.Response, origin: str) -> bool:
    policy = dict(
        directive.strip().split(" ", 1)
        for directive in answer.headers["content-security-policy"].split(";")
    )
    return policy["frame-ancestors"] == f"'self' {origin}" and origin in policy["form-action"]


LEAVING_LINKS = re.compile(r'href="(/|/login|/signup|/language/[^"]*)"')


def _keeps_the_frame(page: str) -> bool:
    """No link on a framed page takes the frame away from its task (to the site's home page,
    signing in or another language's copy of a launch that cannot be loaded again)."""
    return LEAVING_LINKS.search(page) is None


def _reply(client: TestClient, launch_id: str, items: list[str]) -> httpx.Response:
    answer: httpx.Response = client.post(
        "/lti/deep-link", data={"launch_id": launch_id, "item": items}
    )
    return answer


def test_picked_work_becomes_lms_links_whose_scores_reach_their_columns(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    picker = _picker(client, platform)
    assert picker.status_code == 200, picker.text
    assert _framed_by(picker, platform.url)  # the LMS shows the picker in its frame
    assert _keeps_the_frame(picker.text)
    assert not _keeps_the_frame(client.get("/").text)  # other pages have those links
    action, fields, choices = _offered(picker.text)
    assert action == "/lti/deep-link" and fields["launch_id"]
    assert ("checkbox", f"assignment:{ASSIGNMENT}") in choices
    assert ("checkbox", f"exercise:{EXERCISE}") in choices
    assert "Week 3" in picker.text  # what the LMS said it is adding

    reply = _reply(
        client, fields["launch_id"], [f"exercise:{EXERCISE}", f"assignment:{ASSIGNMENT}"]
    )
    assert reply.status_code == 200, reply.text
    assert _framed_by(reply, platform.url)
    assert _keeps_the_frame(reply.text)
    return_url, returned = read_form(reply.text)
    assert return_url == platform.deep_link_return_url
    # The browser posts it to the LMS, which checks the signature and makes the links.
    made = httpx.post(return_url, data=returned)
    assert made.status_code == 200, made.text
    [response] = platform.deep_link_replies
    items = response[DL + "content_items"]
    assert [item["url"] for item in items] == [
        f"{TOOL}/learn/{EXERCISE}",
        f"{TOOL}/course?assignment={ASSIGNMENT}",
    ]
    exercise_link, assignment_link = list(platform.line_items)
    assert platform.line_items[exercise_link]["scoreMaximum"] == 2.0  # its weight there
    assert platform.line_items[exercise_link]["resourceId"] == f"exercise:{EXERCISE}"
    assert platform.line_items[assignment_link]["scoreMaximum"] > 2.0
    assert platform.line_items[assignment_link]["label"]

    # The same response twice would make the links twice: the launch is answered once.
    again = _reply(client, fields["launch_id"], [f"exercise:{EXERCISE}"])
    assert again.status_code == 400 and "already answered" in again.text

    # Ada opens the new exercise link, submits, and her score reaches its column.
    client.cookies.clear()
    landed = launch(client, platform, ADA, "", link_id=exercise_link)
    assert landed.headers["location"] == f"/learn/{EXERCISE}"
    with runtime.sessions() as session:
        ada = session.query(User).filter(User.display_name == ADA.name).one()
        _, token = account_store.create_token(session=session, user=ada)
        session.commit()
    _submit(client, {"Authorization": f"Bearer {token}"}, "solution.py")
    [(lineitem, score)] = _until(lambda: list(platform.scores), "the score reached the LMS")
    assert lineitem == platform.lineitem_url(exercise_link)
    assert score["scoreGiven"] == score["scoreMaximum"] == 2.0
    with runtime.sessions() as session:
        [link] = session.query(LtiGradeLink).all()
        assert link.resource_link_id == exercise_link


def test_an_lms_that_takes_one_link_gets_a_choice_of_one(
    client: TestClient, platform: Platform
) -> None:
    platform.accept_multiple = False
    picker = _picker(client, platform)
    _, fields, choices = _offered(picker.text)
    assert {kind for kind, _ in choices} == {"radio"}
    two = _reply(client, fields["launch_id"], BOTH)
    assert two.status_code == 400 and "pick one" in two.text
    assert _framed_by(two, platform.url)  # the refusal shows in the LMS's frame
    one = _reply(client, fields["launch_id"], [f"exercise:{EXERCISE}"])
    assert one.status_code == 200, one.text  # a refused reply did not use the launch up


def test_a_reply_needs_a_pick_and_work_of_the_course(
    client: TestClient, platform: Platform
) -> None:
    _, fields, _ = _offered(_picker(client, platform).text)
    nothing = _reply(client, fields["launch_id"], [])
    assert nothing.status_code == 400 and "pick at least one" in nothing.text
    gone = _reply(client, fields["launch_id"], ["exercise:no-such-exercise"])
    assert gone.status_code == 400 and "no longer in the course" in gone.text
    forged = _reply(client, "lti1p3-launch-not-issued", [f"exercise:{EXERCISE}"])
    assert forged.status_code == 400 and "unknown, expired" in forged.text


def test_learners_cannot_add_work(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    answer = launch(client, platform, ADA, LAUNCH_URL, deep_link=True)
    assert answer.status_code == 400
    assert "only an instructor or a teaching assistant" in answer.text
    assert _framed_by(answer, platform.url)  # the refusal shows in the LMS's frame
    assert _keeps_the_frame(answer.text)
    with runtime.sessions() as session:
        assert session.query(User).count() == 0  # no account for a refused launch


def test_the_return_url_must_be_a_web_address(client: TestClient, platform: Platform) -> None:
    def bad_return(claims: dict[str, object], _: dict[str, str]) -> None:
        settings = claims[DL + "deep_linking_settings"]
        assert isinstance(settings, dict)
        settings["deep_link_return_url"] = "javascript:alert(1)"

    platform.tamper = bad_return
    answer = _picker(client, platform)
    assert answer.status_code == 400 and "not an http(s) URL" in answer.text
    assert urlsplit(platform.url).netloc not in answer.headers["content-security-policy"]


def test_a_japanese_instructor_picks_from_japanese_titles(
    client: TestClient, platform: Platform
) -> None:
    """The picker speaks the reader's language, and the links it makes carry the titles the
    instructor chose from."""
    client.headers["Accept-Language"] = "ja"
    picker = _picker(client, platform)
    assert "numjudge の課題を LMS コンテキストに追加" in picker.text
    assert "クラスとしての Adam オプティマイザ" in picker.text
    _, fields, _ = _offered(picker.text)
    reply = _reply(client, fields["launch_id"], [f"exercise:{EXERCISE}"])
    return_url, returned = read_form(reply.text)
    assert httpx.post(return_url, data=returned).status_code == 200
    [item] = platform.deep_link_replies[0][DL + "content_items"]
    assert item["title"] == item["lineItem"]["label"] == "クラスとしての Adam オプティマイザ"


def test_the_picker_groups_exercises_by_course_and_offers_no_draft(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> None:
    with (
        course_service(database_url, tmp_path, shared_grader, None, drafts=("gate-draft",)) as (
            client,
            runtime,
        ),
        registered_platform(runtime) as lms,
    ):
        page = _picker(client, lms).text
        _, _, choices = _offered(page)
        assert ("checkbox", "exercise:gru-update-gate") in choices
        assert all("gate-draft" not in value for _, value in choices)
        assert not any(value.startswith("assignment:") for _, value in choices)  # none here
        assert "<legend>Exercises: numpy foundations</legend>" in page
        numpy_part = page.split("<legend>Exercises: numpy foundations</legend>", 1)[1]
        assert 'value="exercise:adam"' in numpy_part.split("</fieldset>", 1)[0]
