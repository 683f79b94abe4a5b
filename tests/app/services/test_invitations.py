"""Invitations (app/services/invitations.py) sent through a real SMTP server: each learner's
e-mail carries a link that works, and the roster shows what became of it."""

from __future__ import annotations

import pytest
from pydantic import SecretStr
from sqlalchemy.orm import Session

from app.core.config import Settings, SmtpSecurity
from app.models import MailState, Role, User
from app.services import invitations, roster
from app.services.roster import LinkState
from app.store import accounts as account_store
from tests.app.live import free_port
from tests.app.smtp import Mailbox, smtp_server

BASE = "https://numjudge.example.edu"


@pytest.fixture
def db(committed_db: Session) -> Session:
    """``invite`` commits (the links before the server is called): its work stays until the
    database is wiped after the test."""
    return committed_db


def mail_settings(port: int, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "database_url": "sqlite://",
        "queue_url": "memory://",
        "smtp_host": "127.0.0.1",
        "smtp_port": port,
        "smtp_security": SmtpSecurity.NONE,
        "smtp_from": "Numerics <numjudge@example.edu>",
        "smtp_timeout_s": 10.0,
    }
    return Settings(**(values | overrides))  # type: ignore[arg-type]


def learner(db: Session, name: str, email: str | None) -> User:
    user = account_store.create_user(session=db, name=name, role=Role.LEARNER)
    account_store.set_profile(
        session=db, user=user, display_name=name.title(), email=email, section=None
    )
    return user


def link_in(mailbox: Mailbox, address: str) -> str:
    (body,) = mailbox.bodies(address)
    (url,) = [line for line in body.splitlines() if line.startswith(f"{BASE}/join/")][:1]
    assert body.count(url) == 2  # once in English, once in Japanese
    return url.removeprefix(f"{BASE}/join/")


def mail_state(db: Session) -> dict[str, tuple[MailState | None, str]]:
    """What the roster shows of each learner's invitation."""
    return {
        entry.user.name: (entry.mail_state, entry.mail_error) for entry in roster.roster(session=db)
    }


def test_each_pending_learner_gets_a_working_link_and_the_roster_says_sent(db: Session) -> None:
    ada, alan = learner(db, "ada", "ada@example.org"), learner(db, "alan", "alan@example.org")
    learner(db, "nomail", None)
    joined = learner(db, "grace", "grace@example.org")
    account_store.set_password(session=db, user=joined, password="a long password 1")
    with smtp_server(login=("mailer", "s3cret-pass")) as (port, mailbox):
        settings = mail_settings(port, smtp_user="mailer", smtp_password=SecretStr("s3cret-pass"))
        pending = invitations.pending_learners(session=db)
        assert [user.name for user in pending] == ["ada", "alan"]
        outcomes = invitations.invite(
            session=db, settings=settings, learners=pending, base_url=BASE
        )
    assert [(o.username, o.state) for o in outcomes] == [
        ("ada", MailState.SENT),
        ("alan", MailState.SENT),
    ]
    assert len(mailbox.received) == 2
    message = mailbox.to("ada@example.org")[0]
    assert message["From"] == "Numerics <numjudge@example.edu>"
    assert "numjudge の登録リンク" in str(message["Subject"])
    for user, address in ((ada, "ada@example.org"), (alan, "alan@example.org")):
        link, state = roster.find_link(session=db, token=link_in(mailbox, address))
        assert state is LinkState.VALID and link is not None and link.user_id == user.id
    states = mail_state(db)
    assert states["ada"] == (MailState.SENT, "") and states["alan"] == (MailState.SENT, "")
    assert states["nomail"] == (None, "") and states["grace"] == (None, "")


def test_a_refused_address_fails_with_the_servers_reason_and_the_others_are_sent(
    db: Session,
) -> None:
    users = [learner(db, "ada", "ada@example.org"), learner(db, "bob", "bob@nowhere.example")]
    with smtp_server() as (port, mailbox):
        mailbox.refused.add("bob@nowhere.example")
        outcomes = invitations.invite(
            session=db, settings=mail_settings(port), learners=users, base_url=BASE
        )
    assert [(o.username, o.state) for o in outcomes] == [
        ("ada", MailState.SENT),
        ("bob", MailState.FAILED),
    ]
    state, reason = mail_state(db)["bob"]
    assert state is MailState.FAILED
    assert "550" in reason and "mailbox unavailable" in reason
    assert [str(m["To"]) for m in mailbox.received] == ["Ada <ada@example.org>"]


def test_a_server_that_cannot_be_reached_fails_every_invitation_with_why(db: Session) -> None:
    users = [learner(db, "ada", "ada@example.org")]
    outcomes = invitations.invite(
        session=db, settings=mail_settings(free_port()), learners=users, base_url=BASE
    )
    assert [o.state for o in outcomes] == [MailState.FAILED]
    state, reason = mail_state(db)["ada"]
    assert state is MailState.FAILED and "refused" in reason.lower()


def test_a_wrong_smtp_password_fails_and_skipped_learners_say_why(db: Session) -> None:
    users = [learner(db, "ada", "ada@example.org"), learner(db, "cy", None)]
    with smtp_server(login=("mailer", "right")) as (port, mailbox):
        settings = mail_settings(port, smtp_user="mailer", smtp_password=SecretStr("wrong"))
        outcomes = invitations.invite(session=db, settings=settings, learners=users, base_url=BASE)
    assert outcomes[0].state is MailState.FAILED and "535" in outcomes[0].reason
    assert (outcomes[1].state, outcomes[1].reason) == (None, invitations.Skipped.NO_EMAIL.value)
    assert mailbox.received == []


def test_without_an_smtp_server_nothing_is_made(db: Session) -> None:
    ada = learner(db, "ada", "ada@example.org")
    settings = Settings(database_url="sqlite://", queue_url="memory://")
    with pytest.raises(invitations.MailNotConfigured, match="NUMJUDGE_SMTP_HOST"):
        invitations.invite(session=db, settings=settings, learners=[ada], base_url=BASE)
    assert account_store.signup_links(session=db, user_ids=[ada.id]) == {}


def test_the_smtp_password_is_one_of_the_secrets_no_log_shows() -> None:
    settings = mail_settings(25, smtp_password=SecretStr("never-in-a-log"))
    assert "never-in-a-log" in settings.secrets


def test_a_name_or_address_with_a_line_break_from_an_lms_stops_no_other_invitation(
    db: Session,
) -> None:
    """An LMS names its users as they like (a launch stores ``name`` and ``email`` as sent): a
    line break in one learner's name made building their message raise, and the whole
    invitation (every learner's, web and CLI) ended in a 500 with nothing sent."""
    ada = learner(db, "ada", "ada@example.org")
    account_store.set_profile(
        session=db,
        user=ada,
        display_name="Ada\r\nBcc: someone@example.net",
        email="ada@example.org",
        section=None,
    )
    odd = learner(db, "odd", "odd@example.org\r\nBcc: someone@example.net")
    alan = learner(db, "alan", "alan@example.org")
    with smtp_server() as (port, mailbox):
        outcomes = invitations.invite(
            session=db,
            settings=mail_settings(port),
            learners=[ada, odd, alan],
            base_url=BASE,
        )
    assert [(o.username, o.state) for o in outcomes] == [
        ("ada", MailState.SENT),
        ("odd", None),
        ("alan", MailState.SENT),
    ]
    assert outcomes[1].reason == invitations.Skipped.BAD_EMAIL.value
    assert len(mailbox.received) == 2
    (message,) = mailbox.to("ada@example.org")
    assert message["Bcc"] is None
    assert message["To"].addresses[0].addr_spec == "ada@example.org"
    assert "\n" not in message["To"].addresses[0].display_name
    assert len(mailbox.to("alan@example.org")) == 1
