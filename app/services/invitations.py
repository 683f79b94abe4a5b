"""Invitations: each learner's one-time sign-up link sent to them by e-mail through SMTP.

A learner who has not joined, whose account is active and who has an e-mail address gets a
new link (their earlier one stops working) in an e-mail written in English and Japanese. The
link's row keeps the e-mail's state for the roster: ``queued`` once the link is made (committed
before the server is called, so a process stopped mid-send leaves "queued", never nothing),
then ``sent`` or ``failed`` with the server's reason. The token itself is in no database: the
e-mail is its only copy, as the links CSV is for an import.

The SMTP server, its port, security, login and password and the sender come from the
settings (``NUMJUDGE_SMTP_*``: docs/teaching.md); without ``smtp_host`` nothing is sent.
"""

from __future__ import annotations

import logging
import smtplib
import ssl
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr
from enum import Enum

from sqlalchemy.orm import Session

from app.core.config import Settings, SmtpSecurity
from app.models import MailState, Role, User
from app.services.roster import IssuedLink, issue_link
from app.store import accounts as account_store

logger = logging.getLogger(__name__)

MAX_ERROR_CHARS = 300
SUBJECT = "Your numjudge sign-up link / numjudge の登録リンク"
BODY = """\
Hello {name},

your instructor has made you an account on numjudge, where you submit the course's
numpy exercises. Open this link to choose your password (it works once, for {days} days):

{url}

Your username is {username}. If the link has expired, ask your instructor for a new one.

---

{name} さん

担当の先生が numjudge（numpy の演習を提出するサイト）にあなたのアカウントを作りました。
次のリンクを開いてパスワードを決めてください（使えるのは一度だけで、{days} 日間有効です）。

{url}

ユーザー名は {username} です。リンクの期限が切れていたら、先生に新しいリンクを頼んでください。
"""


class Skipped(Enum):
    """Why a learner asked for gets no e-mail."""

    NOT_A_LEARNER = "not a learner on the roster"
    NO_EMAIL = "no e-mail address on the roster"
    JOINED = "already joined (a password reset sends no e-mail)"
    DISABLED = "the account is disabled"
    BAD_EMAIL = "the e-mail address holds a line break or another control character"


class MailNotConfigured(RuntimeError):
    """No SMTP server (``NUMJUDGE_SMTP_HOST``) or no sender address is set."""


@dataclass(frozen=True)
class Invitation:
    """What became of one learner's invitation: sent, failed (``reason``) or skipped."""

    username: str
    state: MailState | None  # None: skipped, no link was made
    reason: str = ""


def check_mail_settings(settings: Settings) -> str:
    """The sender address, or ``MailNotConfigured`` saying what is missing."""
    if settings.smtp_host is None:
        raise MailNotConfigured(
            "no SMTP server: set NUMJUDGE_SMTP_HOST (and NUMJUDGE_SMTP_PORT, _SECURITY, _USER, "
            "_PASSWORD, _FROM as your server needs; docs/teaching.md)"
        )
    sender = settings.smtp_from or settings.smtp_user
    if sender is None:
        raise MailNotConfigured("no sender address: set NUMJUDGE_SMTP_FROM")
    return sender


def skip_reason(user: User) -> Skipped | None:
    """Why ``user`` gets no invitation, or ``None`` if they do."""
    if user.role is not Role.LEARNER:
        return Skipped.NOT_A_LEARNER
    if not user.is_active:
        return Skipped.DISABLED
    if user.password_hash is not None:
        return Skipped.JOINED
    if not user.email:
        return Skipped.NO_EMAIL
    if _controls(user.email):
        return Skipped.BAD_EMAIL
    return None


def _controls(text: str) -> bool:
    return any(unicodedata.category(char) == "Cc" for char in text)


def _one_line(text: str) -> str:
    """``text`` with each control character a space. An LMS sends the names it holds as they
    are, and a line break in a header made building the message raise: every invitation of
    the request failed with it."""
    return "".join(" " if unicodedata.category(char) == "Cc" else char for char in text)


def pending_learners(*, session: Session) -> list[User]:
    """Every learner an invitation would reach: not joined, active, with an e-mail address."""
    learners = account_store.list_users(session=session, role=Role.LEARNER)
    return [user for user in learners if skip_reason(user) is None]


def invitation_email(
    sender: str, user: User, link: IssuedLink, url: str, days: int
) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = formataddr((_one_line(user.display_name or ""), user.email or ""))
    message["Subject"] = SUBJECT
    name = _one_line(user.display_name or user.name)
    message.set_content(BODY.format(name=name, days=days, url=url, username=link.username))
    return message


def send_all(settings: Settings, messages: Sequence[EmailMessage]) -> list[str]:
    """Hand ``messages`` to the SMTP server over one connection; each one's failure reason
    ("" when the server accepted it). A server that cannot be reached fails them all."""
    host = settings.smtp_host
    assert host is not None  # check_mail_settings ran first
    timeout = settings.smtp_timeout_s
    context = ssl.create_default_context()
    reasons: list[str] = []
    try:
        server = (
            smtplib.SMTP_SSL(host, settings.smtp_port, timeout=timeout, context=context)
            if settings.smtp_security is SmtpSecurity.TLS
            else smtplib.SMTP(host, settings.smtp_port, timeout=timeout)
        )
        with server:
            if settings.smtp_security is SmtpSecurity.STARTTLS:
                server.starttls(context=context)
            if settings.smtp_user is not None:
                password = settings.smtp_password
                server.login(settings.smtp_user, password.get_secret_value() if password else "")
            for message in messages:
                reasons.append(_send_one(server, message))
    except (OSError, smtplib.SMTPException) as failure:
        # Those not yet handed over fail alike (the connection is gone); those the server
        # accepted stay sent, even if saying goodbye failed.
        reasons += [_reason(failure)] * (len(messages) - len(reasons))
    return reasons


def _send_one(server: smtplib.SMTP, message: EmailMessage) -> str:
    """ "" once the server accepted ``message``; its reason where it refused it alone."""
    try:
        server.send_message(message)
    except (
        smtplib.SMTPRecipientsRefused,
        smtplib.SMTPSenderRefused,
        smtplib.SMTPDataError,
    ) as refused:
        return _reason(refused)
    return ""


def _reason(failure: Exception) -> str:
    if isinstance(failure, smtplib.SMTPResponseException):
        error = failure.smtp_error
        text = error.decode(errors="replace") if isinstance(error, bytes) else str(error)
        said = f"{failure.smtp_code} {text}"
    elif isinstance(failure, smtplib.SMTPRecipientsRefused):
        said = "; ".join(  # one recipient per message: the server's answer to it
            f"{code} {text.decode(errors='replace')}" for code, text in failure.recipients.values()
        )
    else:
        said = str(failure) or type(failure).__name__
    return said[:MAX_ERROR_CHARS]


def invite(
    *, session: Session, settings: Settings, learners: Sequence[User], base_url: str
) -> list[Invitation]:
    """E-mail each of ``learners`` who can be invited a new sign-up link; what became of each.

    Commits: the links and their "queued" state before the server is called, the outcome
    after. ``MailNotConfigured`` before anything is made when no server is set.
    """
    sender = check_mail_settings(settings)
    days = settings.signup_link_days
    outcomes: dict[str, Invitation] = {}
    to_send: list[tuple[User, EmailMessage]] = []
    for user in learners:
        reason = skip_reason(user)
        if reason is not None:
            outcomes[user.name] = Invitation(user.name, None, reason.value)
            continue
        link = issue_link(session=session, user=user, days=days)
        account_store.set_mail_state(session=session, user_id=user.id, state=MailState.QUEUED)
        to_send.append((user, invitation_email(sender, user, link, link.url(base_url), days)))
    session.commit()
    failures = send_all(settings, [message for _, message in to_send]) if to_send else []
    for (user, _), failure in zip(to_send, failures, strict=True):
        state = MailState.FAILED if failure else MailState.SENT
        account_store.set_mail_state(session=session, user_id=user.id, state=state, error=failure)
        outcomes[user.name] = Invitation(user.name, state, failure)
    session.commit()
    sent = sum(1 for outcome in outcomes.values() if outcome.state is MailState.SENT)
    logger.info("roster.invite", extra={"sent": sent, "failed": len(to_send) - sent})
    return [outcomes[user.name] for user in learners]
