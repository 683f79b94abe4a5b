"""``numjudge users add|list|token|revoke|password|disable|enable|import|link|invite|reset``:
accounts, API tokens, rosters and their one-time sign-up links (handed out, or e-mailed)."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Annotated

import typer
from sqlalchemy.orm import Session

from app.cli.common import service_settings
from app.core.config import get_settings
from app.core.db import session_scope
from app.core.names import InvalidName, InvalidPassword, check_password
from app.models import MailState, Role, User
from app.services import accounts, invitations, roster
from app.services.accounts import NameTaken
from app.store import accounts as account_store

app = typer.Typer(help="Users and their API tokens.", no_args_is_help=True)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def _ask_password() -> str:
    secret: str = typer.prompt("password", hide_input=True, confirmation_prompt=True)
    try:
        return check_password(secret)
    except InvalidPassword as problem:
        raise _fail(str(problem)) from None


def _lifetime(expires: str | None) -> timedelta | None:
    try:
        return accounts.parse_duration(expires) if expires is not None else None
    except ValueError as problem:
        raise _fail(str(problem)) from None


def _user(session: Session, name: str) -> User:
    user = account_store.get_user_by_name(session=session, name=name)
    if user is None:
        raise _fail(f"no user {name!r}")
    return user


ExpiresOption = Annotated[
    str | None,
    typer.Option(
        "--expires",
        help="the token stops working after this long: 90d, 12h, 30m, 2w (default: never)",
    ),
]


@app.command("add")
def add(
    name: Annotated[
        str,
        typer.Argument(
            help="the user's name (2–32 letters, digits, . - _; unique whatever its case)"
        ),
    ],
    role: Annotated[Role, typer.Option(help="learner or instructor")] = Role.LEARNER,
    password: Annotated[
        bool, typer.Option("--password", help="also ask for a web sign-in password")
    ] = False,
    expires: ExpiresOption = None,
) -> None:
    """Create a user and print their API token, alone on the last line (shown once)."""
    lifetime = _lifetime(expires)
    secret = _ask_password() if password else None
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        try:
            user = accounts.create_account(session=session, name=name, role=role, password=secret)
        except (InvalidName, InvalidPassword) as problem:
            raise _fail(str(problem)) from None
        except NameTaken:
            raise _fail(f"user {name!r} already exists") from None
        _, token = accounts.issue_token(session=session, user=user, lifetime=lifetime)
        name = user.name
    typer.echo(f"created {role.value} {name!r}; API token (shown once, only its hash is kept):")
    typer.echo(token)


@app.command("list")
def list_users() -> None:
    """Every user: name, role, live tokens, created, disabled."""
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        users = account_store.list_users(session=session)
        typer.echo(f"{'name':<24} {'role':<11} {'tokens':>6}  {'created':<16}  disabled")
        for user in users:
            live = sum(t.revoked_at is None for t in user.tokens)
            disabled = f"{user.disabled_at:%Y-%m-%d %H:%M}" if user.disabled_at else "-"
            typer.echo(
                f"{user.name:<24} {user.role.value:<11} {live:>6}  "
                f"{user.created_at:%Y-%m-%d %H:%M}  {disabled}"
            )


@app.command("token")
def token(
    name: Annotated[str, typer.Argument(help="the user")], expires: ExpiresOption = None
) -> None:
    """Issue another API token for a user (printed alone on the last line)."""
    lifetime = _lifetime(expires)
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        row, secret = accounts.issue_token(
            session=session, user=_user(session, name), lifetime=lifetime
        )
        until = f", valid until {row.expires_at:%Y-%m-%d %H:%M} UTC" if row.expires_at else ""
    typer.echo(f"new API token for {name!r}{until} (shown once):")
    typer.echo(secret)


@app.command("revoke")
def revoke(
    name: Annotated[str, typer.Argument(help="the user")],
    prefix: Annotated[
        str | None,
        typer.Option(
            help="only the token starting with these characters, taken literally (default: all "
            "of the user's tokens and web sessions)"
        ),
    ] = None,
) -> None:
    """Revoke a user's API tokens and sign them out everywhere; their requests then get 401."""
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        tokens, sessions = accounts.revoke(
            session=session, user=_user(session, name), prefix=prefix
        )
    typer.echo(f"revoked {tokens} token(s) and {sessions} web session(s) of {name!r}")


@app.command("password")
def password(name: Annotated[str, typer.Argument(help="the user")]) -> None:
    """Set a user's web sign-in password (asked twice, never echoed); signs them out."""
    secret = _ask_password()
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        accounts.set_password(session=session, user=_user(session, name), password=secret)
    typer.echo(f"password of {name!r} set; their web sessions are ended")


@app.command("disable")
def disable(name: Annotated[str, typer.Argument(help="the user")]) -> None:
    """Refuse the user's sign-ins, tokens and sessions from now on (kept: ``enable``)."""
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        accounts.set_disabled(session=session, user=_user(session, name), disabled=True)
    typer.echo(f"{name!r} disabled: signed out, tokens refused")


@app.command("enable")
def enable(name: Annotated[str, typer.Argument(help="the user")]) -> None:
    """Let a disabled user sign in and use their live tokens again."""
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        accounts.set_disabled(session=session, user=_user(session, name), disabled=False)
    typer.echo(f"{name!r} enabled")


PublicUrl = Annotated[
    str | None,
    typer.Option(
        help="the address learners open, which the links start with (default: NUMJUDGE_PUBLIC_URL)"
    ),
]


def _links_base(public_url: str | None) -> str:
    """Where sign-up links point. Never guessed: a server may listen on any port or behind
    a proxy, and a link to the wrong address is only found when a learner opens it."""
    base = public_url or get_settings().public_url
    if base is None:
        raise _fail(
            "the links need the address your learners open: pass --public-url "
            "https://numjudge.example.edu or set NUMJUDGE_PUBLIC_URL (the Roster page "
            "shows links under the address it is served at)"
        )
    return base


@app.command("import")
def import_roster(
    roster_file: Annotated[
        Path,
        typer.Argument(
            help="CSV with a header row: username (required), display_name, email, section",
            exists=True,
            dir_okay=False,
            readable=True,
        ),
    ],
    links: Annotated[
        Path | None,
        typer.Option(
            help="write the sign-up links to this CSV (username, display_name, link) instead of "
            "printing them; it must not exist yet"
        ),
    ] = None,
    public_url: PublicUrl = None,
) -> None:
    """Create the roster's learners, each with a one-time sign-up link (shown once).

    Every row is checked first; with any problem nothing is created and each is printed as
    ``line N: ...``.
    """
    base = _links_base(public_url)
    try:
        text = roster_file.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise _fail(f"{roster_file} is not UTF-8 text") from None
    # Created (owner-only: the links sign people in) before anything is imported, so a file
    # that cannot be written never leaves learners whose links are lost.
    try:
        out = (
            os.fdopen(
                os.open(links, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600),
                "w",
                encoding="utf-8",
                newline="",
            )
            if links is not None
            else None
        )
    except FileExistsError:
        raise _fail(f"{links} exists; the links are written once, to a new file") from None
    except OSError as problem:
        raise _fail(f"cannot write {links}: {problem.strerror}") from None
    settings = service_settings(log=False)
    try:
        with session_scope(settings.database_url) as session:
            issued = roster.import_roster(
                session=session, text=text, link_days=settings.signup_link_days
            )
    except BaseException as failure:  # nothing imported: no links file either
        if out is not None and links is not None:
            out.close()
            links.unlink()
        if not isinstance(failure, roster.RosterRejected):
            raise
        for line_problem in failure.problems:
            typer.echo(f"{roster_file}: {line_problem}", err=True)
        raise _fail(f"{len(failure.problems)} problem(s); nothing was imported") from None
    body = roster.links_csv(issued, base)
    if out is not None:
        with out:
            out.write(body)
    typer.echo(
        f"imported {len(issued)} learner(s); their sign-up links expire in "
        f"{settings.signup_link_days} days and are shown only this once"
        + (f": written to {links}" if links is not None else ":"),
        err=links is None,
    )
    if links is None:
        typer.echo(body, nl=False)


@app.command("link")
def link(
    name: Annotated[str, typer.Argument(help="the learner")], public_url: PublicUrl = None
) -> None:
    """A new one-time sign-up link for a user (their earlier link stops working).

    Also a way back in for a learner who lost their password: the link sets a new one.
    """
    base = _links_base(public_url)
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        issued = roster.issue_link(
            session=session, user=_user(session, name), days=settings.signup_link_days
        )
    typer.echo(
        f"sign-up link for {name!r}, valid {settings.signup_link_days} days, "
        "shown once (any earlier link no longer works):"
    )
    typer.echo(issued.url(base))


@app.command("invite")
def invite(
    names: Annotated[
        list[str] | None,
        typer.Argument(
            help="the learners to invite (default: every learner who has not joined, whose "
            "account is active and who has an e-mail address)"
        ),
    ] = None,
    public_url: PublicUrl = None,
) -> None:
    """E-mail learners a new one-time sign-up link each, through the SMTP server of the
    settings (NUMJUDGE_SMTP_*); their earlier links stop working. One line per learner:
    sent, failed and why, or skipped and why; the roster shows the same."""
    base = _links_base(public_url)
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        learners = (
            [_user(session, name) for name in names]
            if names
            else invitations.pending_learners(session=session)
        )
        try:
            outcomes = invitations.invite(
                session=session, settings=settings, learners=learners, base_url=base
            )
        except invitations.MailNotConfigured as missing:
            raise _fail(str(missing)) from None
    for outcome in outcomes:
        state = "skipped" if outcome.state is None else outcome.state.value
        typer.echo(
            f"{outcome.username}: {state}" + (f": {outcome.reason}" if outcome.reason else "")
        )
    failed = sum(1 for outcome in outcomes if outcome.state is MailState.FAILED)
    sent = sum(1 for outcome in outcomes if outcome.state is MailState.SENT)
    typer.echo(f"{sent} sent, {failed} failed, {len(outcomes) - sent - failed} skipped", err=True)
    if failed:
        raise typer.Exit(1)


@app.command("reset")
def reset(
    name: Annotated[str, typer.Argument(help="the learner")], public_url: PublicUrl = None
) -> None:
    """Reset a learner's password: it stops working, they are signed out everywhere, and a
    one-time link (printed alone on the last line) lets them choose a new one. Their API
    tokens keep working (``revoke`` them if the account was taken over)."""
    base = _links_base(public_url)
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        learner = roster.find_learner(session=session, name=name)
        if learner is None:
            raise _fail(f"no learner {name!r} (instructors: numjudge users password)")
        try:
            issued = roster.act(
                session=session,
                user=learner,
                action=roster.RosterAction.RESET_PASSWORD,
                days=settings.signup_link_days,
            )
        except roster.ActionRefused:
            raise _fail(
                f"{name!r} has no password to reset (not joined yet: numjudge users link; "
                "disabled: numjudge users enable first)"
            ) from None
    assert issued is not None  # a reset always issues a link
    typer.echo(
        f"password of {name!r} reset; their sessions are ended. One-time link, valid "
        f"{settings.signup_link_days} days, shown once:"
    )
    typer.echo(issued.url(base))


def register(parent: typer.Typer) -> None:
    parent.add_typer(app, name="users")
