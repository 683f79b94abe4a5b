"""A real SMTP server for the tests (aiosmtpd on a free local port), which keeps what it
accepts, refuses the recipients it is told to and asks for a login when given one."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, Envelope, LoginPassword, Session

from tests.app.live import free_port


@dataclass
class Mailbox:
    """What the server accepted, and whom it refuses (``550``)."""

    refused: set[str] = field(default_factory=set)
    received: list[EmailMessage] = field(default_factory=list)

    async def handle_RCPT(
        self, server: Any, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if address in self.refused:
            return f"550 5.1.1 <{address}>: mailbox unavailable"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or b""
        self.received.append(message_from_bytes(content, policy=policy.default))
        return "250 Message accepted"

    def to(self, address: str) -> list[EmailMessage]:
        return [message for message in self.received if address in str(message["To"])]

    def bodies(self, address: str) -> list[str]:
        """The text of each message to ``address``."""
        return [str(message.get_content()) for message in self.to(address)]


@contextmanager
def smtp_server(login: tuple[str, str] | None = None) -> Iterator[tuple[int, Mailbox]]:
    """A running server on 127.0.0.1 and its mailbox; with ``login``, AUTH with any other user
    or password is refused (over the plain connection: a test server only)."""
    mailbox = Mailbox()

    def authenticate(
        server: Any, session: Session, envelope: Envelope, mechanism: str, data: Any
    ) -> AuthResult:
        ok = (
            isinstance(data, LoginPassword)
            and (
                data.login.decode(),
                data.password.decode(),
            )
            == login
        )
        # handled=False: the server answers the refusal itself (535).
        return AuthResult(success=ok, handled=False)

    port = free_port()
    options: dict[str, Any] = (
        {"authenticator": authenticate, "auth_require_tls": False} if login is not None else {}
    )
    controller = Controller(mailbox, hostname="127.0.0.1", port=port, **options)
    controller.start()
    try:
        yield port, mailbox
    finally:
        controller.stop()
