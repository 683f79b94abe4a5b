"""The names LMS users have in their LMS, on the instructors' pages beside the accounts' own
(``lti-`` and 16 hex digits tell an instructor nothing): the three gradebooks and their CSVs,
the assignment's extension form, and the similarity report, its CSV and its pairs."""

from __future__ import annotations

import csv
import io

from fastapi.testclient import TestClient

from app.models import User, WorkScope
from app.runtime.context import GradingRuntime
from app.services import similarity_jobs
from app.store import accounts as account_store
from tests.app.conftest import read_exercise_file
from tests.app.lti.conftest import TOOL, launch
from tests.app.lti.platform import INSTRUCTOR, LEARNER, Platform
from tests.app.lti.platform import User as LmsUser

EXERCISE = "adam"
LEARNERS = (
    LmsUser(sub="lms-ada", roles=(LEARNER,), name="Ada Lovelace"),
    LmsUser(sub="lms-bea", roles=(LEARNER,), name="Bea Beaumont"),
)
TEACHER = LmsUser(sub="lms-teacher", roles=(INSTRUCTOR,), name="Grace Hopper")


def _account_names(runtime: GradingRuntime) -> dict[str, str]:
    """The LMS learners' account names, by their LMS names."""
    with runtime.sessions() as session:
        return {
            str(user.display_name): user.name
            for user in session.query(User)
            if user.display_name in {learner.name for learner in LEARNERS}
        }


def _submitted_by_each(client: TestClient, runtime: GradingRuntime, platform: Platform) -> None:
    for learner in LEARNERS:
        assert launch(client, platform, learner, TOOL + "/learn/" + EXERCISE).is_redirect
    for name in _account_names(runtime).values():
        with runtime.sessions() as session:
            user = account_store.get_user_by_name(session=session, name=name)
            assert user is not None
            _, token = account_store.create_token(session=session, user=user)
            session.commit()
        answer = client.post(
            "/submit",
            params={"wait": 60},
            headers={"Authorization": f"Bearer {token}"},
            json={"exercise": EXERCISE, "code": read_exercise_file(EXERCISE, "solution.py")},
        )
        assert answer.json()["status"] == "done", answer.text
    assert launch(client, platform, TEACHER, TOOL + "/").is_redirect


def _csv(client: TestClient, url: str) -> list[list[str]]:
    answer = client.get(url)
    assert answer.status_code == 200, answer.text
    return list(csv.reader(io.StringIO(answer.text)))


def test_the_gradebooks_and_the_similarity_report_show_the_lms_names(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    _submitted_by_each(client, runtime, platform)
    accounts = _account_names(runtime)
    assert sorted(accounts) == ["Ada Lovelace", "Bea Beaumont"]
    assert all(name.startswith("lti-") for name in accounts.values())
    [assignment] = [a for a in runtime.catalog.schedule().assignments if EXERCISE in a.exercise_ids]
    for page in ("/instructor/gradebook", "/instructor/assignments"):
        text = client.get(page).text
        for lms_name, account in accounts.items():
            shown = f'">{account}</a> <span class="muted learner-name">{lms_name}</span>'
            assert shown in text, page
    text = client.get(f"/instructor/assignments/{assignment.id}").text
    for lms_name, account in accounts.items():
        assert f'">{account}</a> <span class="muted learner-name">{lms_name}</span>' in text
        assert f'<option value="{account}">{account} · {lms_name}</option>' in text
    for url in (
        "/instructor/gradebook.csv",
        "/instructor/assignments.csv",
        f"/instructor/assignments/{assignment.id}.csv",
    ):
        table = _csv(client, url)
        assert table[0][:2] == ["learner", "name"]
        named = {row[0]: row[1] for row in table[2:]}
        assert {account: named[account] for account in accounts.values()} == {
            account: lms_name for lms_name, account in accounts.items()
        }, url

    with runtime.sessions() as session:
        report = similarity_jobs.compute_now(
            session=session,
            catalog=runtime.catalog,
            scope=WorkScope.EXERCISE,
            target=EXERCISE,
            requested_by=TEACHER.name,
            settings=runtime.settings,
        )
    url = f"/instructor/similarity/{report.id}"
    text = client.get(url).text
    pair = client.get(f"{url}/{EXERCISE}/1").text
    for lms_name, account in accounts.items():
        assert f'{account} <span class="muted learner-name">{lms_name}</span>' in text
        assert f'">{account}</a> <span class="muted learner-name">{lms_name}</span>' in pair
    [header, row] = _csv(client, f"{url}/pairs.csv")
    assert header[-2:] == ["name_a", "name_b"]
    assert {row[1]: row[-2], row[2]: row[-1]} == {
        account: lms_name for lms_name, account in accounts.items()
    }
