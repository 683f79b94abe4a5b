"""``numjudge users add|list|token|revoke|password|disable|enable``: accounts and API tokens."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

import typer
from sqlalchemy.orm import Session

from app import crud
from app.cli.common import service_settings
from app.core.db import session_scope
from app.core.names import InvalidName, InvalidPassword, check_password
from app.models import Role, User
from app.services import accounts
from app.services.accounts import NameTaken

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
    user = crud.get_user_by_name(session=session, name=name)
    if user is None:
        raise _fail(f"no user {name!r}")
    return user


ExpiresOption = Annotated[str | None, typer.Option(
    "--expires", help="the token stops working after this long: 90d, 12h, 30m, 2w "
    "(default: never)")]


@app.command("add")
def add(
    name: Annotated[str, typer.Argument(help="the user's name (2–32 letters, digits, . - _; "
                                        "unique whatever its case)")],
    role: Annotated[Role, typer.Option(help="learner or instructor")] = Role.LEARNER,
    password: Annotated[bool, typer.Option(
        "--password", help="also ask for a web sign-in password")] = False,
    expires: ExpiresOption = None,
) -> None:
    """Create a user and print their API token, alone on the last line (shown once)."""
    lifetime = _lifetime(expires)
    secret = _ask_password() if password else None
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        try:
            user = accounts.create_account(session=session, name=name, role=role,
                                           password=secret)
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
        users = crud.list_users(session=session)
        typer.echo(f"{'name':<24} {'role':<11} {'tokens':>6}  {'created':<16}  disabled")
        for user in users:
            live = sum(t.revoked_at is None for t in user.tokens)
            disabled = f"{user.disabled_at:%Y-%m-%d %H:%M}" if user.disabled_at else "-"
            typer.echo(f"{user.name:<24} {user.role.value:<11} {live:>6}  "
                       f"{user.created_at:%Y-%m-%d %H:%M}  {disabled}")


@app.command("token")
def token(name: Annotated[str, typer.Argument(help="the user")],
          expires: ExpiresOption = None) -> None:
    """Issue another API token for a user (printed alone on the last line)."""
    lifetime = _lifetime(expires)
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        row, secret = accounts.issue_token(session=session, user=_user(session, name),
                                           lifetime=lifetime)
        until = f", valid until {row.expires_at:%Y-%m-%d %H:%M} UTC" if row.expires_at else ""
    typer.echo(f"new API token for {name!r}{until} (shown once):")
    typer.echo(secret)


@app.command("revoke")
def revoke(
    name: Annotated[str, typer.Argument(help="the user")],
    prefix: Annotated[str | None, typer.Option(
        help="only the token starting with these characters, taken literally (default: all "
        "of the user's tokens and web sessions)")] = None,
) -> None:
    """Revoke a user's API tokens and sign them out everywhere; their requests then get 401."""
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        tokens, sessions = accounts.revoke(session=session, user=_user(session, name),
                                           prefix=prefix)
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
