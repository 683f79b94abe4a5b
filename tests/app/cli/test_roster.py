"""``numjudge users import`` and ``numjudge users link`` through Typer's CliRunner."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from app.cli.main import app as cli
from app.core.config import get_settings
from app.core.db import session_scope
from app.models import SignupLink, User
from app.services import roster
from app.services.roster import LinkState
from app.store import accounts as account_store
from tests.app.smtp import smtp_server


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("NUMJUDGE_DATABASE_URL", url)
    monkeypatch.setenv("NUMJUDGE_QUEUE_URL", f"sqlite:///{tmp_path / 'q.db'}")
    monkeypatch.setenv("NUMJUDGE_PUBLIC_URL", "https://numjudge.example.edu")
    get_settings.cache_clear()
    yield url
    get_settings.cache_clear()


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "roster.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_bad_rows_are_reported_per_line_and_nothing_is_imported(env: str, tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "username,display_name,email,section\n"
        "ada,Ada Lovelace,ada@example.org,A\n"
        "ada,Ada twice,,A\n"
        "-x,Bad,,B\n"
        "alan,Alan,not-an-email,B\n",
    )
    links_file = tmp_path / "links.csv"
    result = CliRunner().invoke(cli, ["users", "import", str(path), "--links", str(links_file)])
    assert result.exit_code == 2
    assert not links_file.exists()
    lines = result.output.splitlines()
    assert f"{path}: line 3: 'ada' is also on line 2" in lines
    assert any(line.startswith(f"{path}: line 4: '-x' is not a valid username") for line in lines)
    assert f"{path}: line 5: 'not-an-email' is not an email address" in lines
    assert "error: 3 problem(s); nothing was imported" in lines
    with session_scope(env) as session:
        assert session.scalars(select(User)).all() == []


def test_import_writes_the_links_once_and_link_replaces_one(env: str, tmp_path: Path) -> None:
    path = write(tmp_path, "username,display_name,section\nada,Ada Lovelace,A\nalan,,B\n")
    links_file = tmp_path / "links.csv"
    runner = CliRunner()
    result = runner.invoke(cli, ["users", "import", str(path), "--links", str(links_file)])
    assert result.exit_code == 0, result.output
    assert "imported 2 learner(s)" in result.output
    rows = list(csv.DictReader(io.StringIO(links_file.read_text(encoding="utf-8"))))
    assert [(r["username"], r["display_name"]) for r in rows] == [
        ("ada", "Ada Lovelace"),
        ("alan", ""),
    ]
    prefix = "https://numjudge.example.edu/join/"
    assert all(r["link"].startswith(prefix) for r in rows)
    assert links_file.stat().st_mode & 0o077 == 0
    tokens = [r["link"].removeprefix(prefix) for r in rows]
    with session_scope(env) as session:
        assert len(session.scalars(select(SignupLink)).all()) == 2
        assert all(roster.find_link(session=session, token=t)[1] is LinkState.VALID for t in tokens)
    again = runner.invoke(cli, ["users", "import", str(path), "--links", str(links_file)])
    assert again.exit_code == 2 and "written once" in again.output
    printed = runner.invoke(cli, ["users", "import", str(path)])
    assert printed.exit_code == 2 and "line 2: the username 'ada' is taken" in printed.output
    nowhere = runner.invoke(
        cli,
        [
            "users",
            "import",
            str(write(tmp_path, "username\ncy\n")),
            "--links",
            str(tmp_path / "missing" / "links.csv"),
        ],
    )
    assert nowhere.exit_code == 2 and "cannot write" in nowhere.output
    with session_scope(env) as session:
        assert session.scalars(select(User).where(User.name == "cy")).all() == []

    fresh = runner.invoke(cli, ["users", "link", "ada"])
    assert fresh.exit_code == 0, fresh.output
    new_url = fresh.output.strip().splitlines()[-1]
    assert new_url.startswith(prefix) and new_url != rows[0]["link"]
    with session_scope(env) as session:
        assert roster.find_link(session=session, token=tokens[0])[1] is LinkState.UNKNOWN
        assert (
            roster.find_link(session=session, token=new_url.removeprefix(prefix))[1]
            is LinkState.VALID
        )


def test_links_are_printed_as_csv_without_a_links_file(env: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["users", "import", str(write(tmp_path, "username\ncy\n"))])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "username,display_name,link" in lines
    assert any(line.startswith("cy,,https://numjudge.example.edu/join/") for line in lines)


def test_links_need_the_address_learners_open(
    env: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NUMJUDGE_PUBLIC_URL")
    get_settings.cache_clear()
    path = write(tmp_path, "username\nada\n")
    runner = CliRunner()
    unknown = runner.invoke(cli, ["users", "import", str(path)])
    assert unknown.exit_code == 2 and "--public-url" in unknown.output
    imported = runner.invoke(
        cli, ["users", "import", str(path), "--public-url", "http://127.0.0.1:8123"]
    )
    assert imported.exit_code == 0, imported.output  # ada was not taken by the refused import
    assert "http://127.0.0.1:8123/join/" in imported.output
    fresh = runner.invoke(cli, ["users", "link", "ada", "--public-url", "https://n.example.edu"])
    assert fresh.output.strip().splitlines()[-1].startswith("https://n.example.edu/join/")


def test_reset_clears_a_joined_learners_password_and_prints_a_link(
    env: str, tmp_path: Path
) -> None:
    runner = CliRunner()
    assert (
        runner.invoke(cli, ["users", "import", str(write(tmp_path, "username\nada\n"))]).exit_code
        == 0
    )
    not_joined = runner.invoke(cli, ["users", "reset", "ada"])
    assert not_joined.exit_code == 2 and "has no password to reset" in not_joined.output
    assert runner.invoke(cli, ["users", "add", "prof", "--role", "instructor"]).exit_code == 0
    instructor = runner.invoke(cli, ["users", "reset", "prof"])
    assert instructor.exit_code == 2 and "no learner 'prof'" in instructor.output
    with session_scope(env) as session:
        ada = session.scalars(select(User).where(User.name == "ada")).one()
        account_store.set_password(session=session, user=ada, password="ada's password")

    result = runner.invoke(cli, ["users", "reset", "ada"])
    assert result.exit_code == 0, result.output
    url = result.output.strip().splitlines()[-1]
    assert url.startswith("https://numjudge.example.edu/join/")
    with session_scope(env) as session:
        ada = session.scalars(select(User).where(User.name == "ada")).one()
        assert ada.password_hash is None
        token = url.rsplit("/", 1)[1]
        assert roster.find_link(session=session, token=token)[1] is LinkState.VALID


def test_invite_e_mails_the_pending_learners_and_says_what_became_of_each(
    env: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(
        tmp_path,
        "username,display_name,email\n"
        "ada,Ada Lovelace,ada@example.org\n"
        "bob,Bob,bob@nowhere.example\n"
        "cy,Cy,\n",
    )
    assert CliRunner().invoke(cli, ["users", "import", str(path)]).exit_code == 0
    refused = CliRunner().invoke(cli, ["users", "invite"])
    assert refused.exit_code == 2 and "NUMJUDGE_SMTP_HOST" in refused.output
    with smtp_server() as (port, mailbox):
        mailbox.refused.add("bob@nowhere.example")
        monkeypatch.setenv("NUMJUDGE_SMTP_HOST", "127.0.0.1")
        monkeypatch.setenv("NUMJUDGE_SMTP_PORT", str(port))
        monkeypatch.setenv("NUMJUDGE_SMTP_SECURITY", "none")
        monkeypatch.setenv("NUMJUDGE_SMTP_FROM", "numjudge@example.edu")
        get_settings.cache_clear()
        result = CliRunner().invoke(cli, ["users", "invite"])
        named = CliRunner().invoke(cli, ["users", "invite", "cy"])
    lines = result.output.splitlines()
    assert result.exit_code == 1  # one failed
    assert "ada: sent" in lines
    assert any(line.startswith("bob: failed: 550") for line in lines)
    assert "1 sent, 1 failed, 0 skipped" in lines  # cy has no address: not pending
    assert named.exit_code == 0
    assert "cy: skipped: no e-mail address on the roster" in named.output.splitlines()
    assert len(mailbox.received) == 1  # bob's address was refused
    (body,) = mailbox.bodies("ada@example.org")
    token = body.split("https://numjudge.example.edu/join/")[1].split()[0]
    with session_scope(env) as session:
        assert roster.find_link(session=session, token=token)[1] is LinkState.VALID
