"""``numjudge users add|list|token|revoke|password``: accounts and their API tokens."""

from __future__ import annotations

from typing import Annotated

import typer

from app import crud
from app.cli.common import service_settings
from app.core.db import session_scope
from app.models import Role

app = typer.Typer(help="Users and their API tokens.", no_args_is_help=True)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


@app.command("add")
def add(
    name: Annotated[str, typer.Argument(help="the user's name (unique)")],
    role: Annotated[Role, typer.Option(help="learner or instructor")] = Role.LEARNER,
    password: Annotated[bool, typer.Option(
        "--password", help="also ask for a web sign-in password")] = False,
) -> None:
    """Create a user and print their API token, alone on the last line (shown once)."""
    name = name.strip()
    if not name or len(name) > 64:
        raise _fail("the name must have 1 to 64 characters")
    secret = typer.prompt("password", hide_input=True,
                          confirmation_prompt=True) if password else None
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        if crud.get_user_by_name(session=session, name=name) is not None:
            raise _fail(f"user {name!r} already exists")
        user = crud.create_user(session=session, name=name, role=role, password=secret)
        _, token = crud.create_token(session=session, user=user)
    typer.echo(f"created {role.value} {name!r}; API token (shown once, only its hash is kept):")
    typer.echo(token)


@app.command("list")
def list_users() -> None:
    """Every user: name, role, live tokens, created."""
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        users = crud.list_users(session=session)
        typer.echo(f"{'name':<24} {'role':<11} {'tokens':>6}  created")
        for user in users:
            live = sum(t.revoked_at is None for t in user.tokens)
            typer.echo(f"{user.name:<24} {user.role.value:<11} {live:>6}  "
                       f"{user.created_at:%Y-%m-%d %H:%M}")


@app.command("token")
def token(name: Annotated[str, typer.Argument(help="the user")]) -> None:
    """Issue another API token for a user (printed alone on the last line)."""
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        user = crud.get_user_by_name(session=session, name=name)
        if user is None:
            raise _fail(f"no user {name!r}")
        _, secret = crud.create_token(session=session, user=user)
    typer.echo(f"new API token for {name!r} (shown once):")
    typer.echo(secret)


@app.command("revoke")
def revoke(
    name: Annotated[str, typer.Argument(help="the user")],
    prefix: Annotated[str | None, typer.Option(
        help="only the token starting with this (default: all of the user's tokens)")] = None,
) -> None:
    """Revoke a user's API tokens; requests with them then get 401."""
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        user = crud.get_user_by_name(session=session, name=name)
        if user is None:
            raise _fail(f"no user {name!r}")
        count = crud.revoke_tokens(session=session, user=user, prefix=prefix)
    typer.echo(f"revoked {count} token(s) of {name!r}")


@app.command("password")
def password(name: Annotated[str, typer.Argument(help="the user")]) -> None:
    """Set a user's web sign-in password (asked twice, never echoed)."""
    secret = typer.prompt("password", hide_input=True, confirmation_prompt=True)
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        user = crud.get_user_by_name(session=session, name=name)
        if user is None:
            raise _fail(f"no user {name!r}")
        crud.set_password(session=session, user=user, password=secret)
    typer.echo(f"password of {name!r} set")
