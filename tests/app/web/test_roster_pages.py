"""The roster page (import with per-line problems, links shown once) and /join/{token}."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from urllib.parse import unquote

from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from app.core.config import SmtpSecurity
from app.models import Role, SignupLink, Submission, SubmissionKind, SubmissionStatus, User, utcnow
from app.runtime.context import GradingRuntime
from app.store import accounts as account_store
from tests.app.smtp import smtp_server
from tests.app.web.helpers import csrf_of, sign_in

PASSWORD = "teach-me-numpy"
ROSTER = (
    "username,display_name,email,section\nada,Ada Lovelace,ada@example.org,A\nalan,Alan Turing,,B\n"
)


def sign_in_instructor(client: TestClient, runtime: GradingRuntime) -> None:
    with runtime.sessions() as session:
        account_store.create_user(
            session=session, name="teacher", role=Role.INSTRUCTOR, password=PASSWORD
        )
        session.commit()
    sign_in(client, "teacher", PASSWORD)


def import_roster(client: TestClient, text: str) -> tuple[int, str]:
    token = csrf_of(client.get("/instructor/roster").text)
    response = client.post("/instructor/roster", data={"csrf_token": token, "roster_text": text})
    return response.status_code, response.text


def learners(runtime: GradingRuntime) -> int:
    with runtime.sessions() as session:
        return (
            session.scalar(select(func.count()).select_from(User).where(User.role == Role.LEARNER))
            or 0
        )


def links_of(html: str) -> dict[str, str]:
    """The sign-up links of the page's download (a data: URL), by username."""
    match = re.search(r'href="data:text/csv;charset=utf-8,([^"]+)"', html)
    assert match, "no download of the links"
    rows = csv.DictReader(io.StringIO(unquote(match.group(1).replace("&amp;", "&"))))
    return {row["username"]: row["link"] for row in rows}


def test_bad_rows_are_listed_by_line_and_nothing_is_imported(
    client: TestClient, runtime: GradingRuntime
) -> None:
    sign_in_instructor(client, runtime)
    code, html = import_roster(client, ROSTER + "ada,Again,,A\nbad name,,,\n")
    assert code == 400
    problems = html[html.index('id="roster-problems"') :].split("</div>")[0]
    assert "Line 4:" in problems and "&#39;ada&#39; is also on line 2" in problems
    assert "Line 5:" in problems and "is not a valid username" in problems
    assert "ada,Ada Lovelace" in html  # the text is kept to be corrected
    assert learners(runtime) == 0


def test_links_are_shown_once_and_join_signs_the_learner_in(
    client: TestClient, runtime: GradingRuntime
) -> None:
    assert client.get("/instructor/roster", follow_redirects=False).status_code in {303, 401}
    sign_in_instructor(client, runtime)
    code, html = import_roster(client, ROSTER)
    assert code == 200, html
    links = links_of(html)
    assert set(links) == {"ada", "alan"}
    assert links["ada"] in html  # also in the table
    again = client.get("/instructor/roster").text
    assert links["ada"] not in again and "data:text/csv" not in again
    row = again[again.index('data-user="ada"') :].split("</tr>")[0]
    assert "Ada Lovelace" in row and ">A<" in row and 'data-joined="no"' in row
    only_b = client.get("/instructor/roster?section=B").text
    assert 'data-user="alan"' in only_b and 'data-user="ada"' not in only_b

    client.cookies.clear()
    path = "/" + links["ada"].split("/", 3)[3]
    page = client.get(path)
    assert page.status_code == 200 and "Ada Lovelace" in page.text
    token = csrf_of(page.text)
    short = client.post(path, data={"csrf_token": token, "password": "short", "password2": "short"})
    assert short.status_code == 400 and "at least 8 characters" in short.text
    joined = client.post(
        path,
        data={"csrf_token": token, "password": "ada's password", "password2": "ada's password"},
        follow_redirects=False,
    )
    assert joined.status_code == 303
    assert "Signed in as <strong>ada</strong>" in client.get("/").text
    used = client.get(path)
    assert used.status_code == 410 and "already used" in used.text
    client.cookies.clear()
    sign_in(client, "ada", "ada's password")

    client.cookies.clear()
    sign_in(client, "teacher", PASSWORD)
    listing = client.get("/instructor/roster").text
    assert 'data-joined="yes"' in listing[listing.index('data-user="ada"') :].split("</tr>")[0]


def test_expired_and_unknown_links_say_so(client: TestClient, runtime: GradingRuntime) -> None:
    sign_in_instructor(client, runtime)
    links = links_of(import_roster(client, ROSTER)[1])
    with runtime.sessions() as session:
        session.execute(update(SignupLink).values(expires_at=utcnow() - timedelta(seconds=1)))
        session.commit()
    client.cookies.clear()
    path = "/" + links["alan"].split("/", 3)[3]
    expired = client.get(path)
    assert expired.status_code == 410 and "has expired" in expired.text
    refused = client.post(
        path,
        data={"csrf_token": "x", "password": "long enough pass", "password2": "long enough pass"},
    )
    assert refused.status_code == 410
    with runtime.sessions() as session:
        alan = account_store.get_user_by_name(session=session, name="alan")
        assert alan is not None and alan.password_hash is None
    unknown = client.get("/join/not-a-token", headers={"Accept-Language": "ja"})
    assert unknown.status_code == 404 and "この登録リンクは無効です" in unknown.text


def test_the_gradebook_and_its_csv_filter_by_section(
    client: TestClient, runtime: GradingRuntime
) -> None:
    sign_in_instructor(client, runtime)
    import_roster(client, ROSTER)
    with runtime.sessions() as session:
        for name, score in (("ada", 1.0), ("alan", 2.0)):
            user = account_store.get_user_by_name(session=session, name=name)
            assert user is not None
            session.add(
                Submission(
                    user_id=user.id,
                    exercise_id="gru-update-gate",
                    exercise_version="v",
                    code="",
                    kind=SubmissionKind.SUBMIT,
                    status=SubmissionStatus.DONE,
                    score=score,
                    max_score=2.0,
                )
            )
        session.commit()
    page = client.get("/instructor/gradebook?section=A").text
    assert 'data-user="ada"' in page and 'data-user="alan"' not in page
    assert '<option value="B" >B</option>' in page or 'value="B"' in page
    assert 'href="/instructor/gradebook.csv?section=A"' in page
    exported = client.get("/instructor/gradebook.csv?section=B")
    assert [r["learner"] for r in csv.DictReader(io.StringIO(exported.text))] == ["(max)", "alan"]
    assert "numjudge-gradebook-B.csv" in exported.headers["content-disposition"]
    everyone = client.get("/instructor/gradebook.csv")
    assert {"ada", "alan"} <= {r["learner"] for r in csv.DictReader(io.StringIO(everyone.text))}


def test_a_class_of_500_fits_in_one_form(client: TestClient, runtime: GradingRuntime) -> None:
    rows = [
        f"learner{i:03d}.smith,Learner {i:03d} Smith-Jones,"
        f"learner{i:03d}.smith@university.example.edu,Section-{i % 4}"
        for i in range(500)
    ]
    sign_in_instructor(client, runtime)
    code, html = import_roster(client, "\n".join(["username,display_name,email,section", *rows]))
    assert code == 200, html[:500]
    assert len(links_of(html)) == 500 and learners(runtime) == 500


def test_the_import_redirects_so_reloading_its_links_imports_nothing_again(
    client: TestClient, runtime: GradingRuntime
) -> None:
    sign_in_instructor(client, runtime)
    token = csrf_of(client.get("/instructor/roster").text)
    posted = client.post(
        "/instructor/roster",
        data={"csrf_token": token, "roster_text": ROSTER},
        follow_redirects=False,
    )
    assert posted.status_code == 303
    where = posted.headers["location"]
    assert where.startswith("/instructor/roster/imported/")
    first, reload = client.get(where), client.get(where)
    assert first.status_code == reload.status_code == 200
    assert links_of(first.text) == links_of(reload.text) and set(links_of(first.text)) == {
        "ada",
        "alan",
    }
    assert learners(runtime) == 2
    # The sealed links are readable only under the handle, and only by their instructor.
    with runtime.sessions() as session:
        account_store.create_user(
            session=session, name="other", role=Role.INSTRUCTOR, password=PASSWORD
        )
        session.commit()
    assert client.get("/instructor/roster/imported/not-the-handle").status_code == 410
    client.cookies.clear()
    sign_in(client, "other", PASSWORD)
    assert client.get(where).status_code == 410


def test_invitations_are_e_mailed_from_the_roster_and_their_state_is_shown(
    client: TestClient, runtime: GradingRuntime
) -> None:
    sign_in_instructor(client, runtime)
    page = client.get("/instructor/roster").text
    assert "NUMJUDGE_SMTP_HOST" in page and 'action="/instructor/roster/invite"' not in page
    import_roster(client, ROSTER + "bob,Bob,bob@nowhere.example,B\n")
    with smtp_server() as (port, mailbox):
        mailbox.refused.add("bob@nowhere.example")
        runtime.settings.smtp_host = "127.0.0.1"
        runtime.settings.smtp_port = port
        runtime.settings.smtp_security = SmtpSecurity.NONE
        runtime.settings.smtp_from = "numjudge@example.edu"
        page = client.get("/instructor/roster").text
        assert "(2 learner(s))" in page  # ada and bob have addresses, alan none
        sent = client.post(
            "/instructor/roster/invite",
            data={"csrf_token": csrf_of(page)},
            follow_redirects=False,
        )
    assert sent.status_code == 303
    assert sent.headers["location"] == "/instructor/roster?sent=1&failed=1#invitations"
    listing: str = client.get(sent.headers["location"]).text
    assert "Sign-up links e-mailed: 1; not sent: 1" in listing

    def row(name: str) -> str:
        return listing[listing.index(f'data-user="{name}"') :].split("</tr>")[0]

    assert 'data-mail="sent"' in row("ada")
    assert 'data-mail="failed"' in row("bob") and "550" in row("bob")
    assert 'data-mail=""' in row("alan")
    assert len(mailbox.received) == 1  # bob's address was refused
    (body,) = mailbox.bodies("ada@example.org")
    path = "/join/" + body.split("/join/")[1].split()[0]
    client.cookies.clear()
    assert client.get(path).status_code == 200
