"""``numjudge lti add-platform|update-platform|platforms|rotate-key|passbacks|resend|contexts|
set-section|sync-roster``: the LMSs numjudge is an LTI 1.3 tool of, the tool's key pair, the
scores sent to the LMSs' gradebooks, and the LMS contexts with their sections and roster
synchronisation."""

from __future__ import annotations

from typing import Annotated

import typer
from sqlalchemy.orm import Session

from app.cli.common import service_settings
from app.core.db import session_scope
from app.models import LtiPlatform, PassbackState
from app.services.errors import NotFound
from app.services.lti import contexts, keys, passback, platforms, roster_sync
from app.services.lti.platforms import InvalidPlatform, PlatformExists

app = typer.Typer(help="LTI 1.3: the LMSs numjudge is a tool of.", no_args_is_help=True)
MATCH_EMAIL_HELP = (
    "trust the LMS's e-mail addresses: link its learners to unused learner accounts with the "
    "same address (a roster import's); off: they sign in to such an account to link it"
)


@app.command("add-platform")
def add_platform(
    issuer: Annotated[str, typer.Option(help="the platform's issuer (Moodle: its site URL)")],
    client_id: Annotated[str, typer.Option(help="the client id the LMS gave the tool")],
    deployment: Annotated[
        list[str], typer.Option(help="a deployment id the LMS gave the tool (repeat for more)")
    ],
    jwks_url: Annotated[str, typer.Option(help="the platform's public key set URL")],
    auth_url: Annotated[str, typer.Option(help="the platform's authentication request URL")],
    token_url: Annotated[str, typer.Option(help="the platform's access token URL")],
    match_email: Annotated[bool, typer.Option(help=MATCH_EMAIL_HELP)] = False,
) -> None:
    """Register an LMS: launches from it are accepted from now on."""
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        try:
            platform = platforms.add_platform(
                session=session,
                issuer=issuer,
                client_id=client_id,
                deployment_ids=deployment,
                jwks_url=jwks_url,
                auth_login_url=auth_url,
                token_url=token_url,
                match_email=match_email,
            )
        except (InvalidPlatform, PlatformExists) as problem:
            typer.echo(f"error: {problem}", err=True)
            raise typer.Exit(2) from None
        typer.echo(
            f"platform {platform.id}: {platform.issuer} (client id {platform.client_id})"
            + _matching(platform)
        )


@app.command("update-platform")
def update_platform(
    number: Annotated[int, typer.Argument(help="the platform's number (numjudge lti platforms)")],
    add_deployment: Annotated[
        list[str] | None, typer.Option(help="a deployment id to accept too (repeat for more)")
    ] = None,
    remove_deployment: Annotated[
        list[str] | None, typer.Option(help="a deployment id to refuse from now on")
    ] = None,
    jwks_url: Annotated[str | None, typer.Option(help="the platform's new key set URL")] = None,
    auth_url: Annotated[str | None, typer.Option(help="its new authentication URL")] = None,
    token_url: Annotated[str | None, typer.Option(help="its new access token URL")] = None,
    match_email: Annotated[bool | None, typer.Option(help=MATCH_EMAIL_HELP)] = None,
) -> None:
    """Change a registration's deployment ids, URLs or linking by e-mail address (its issuer
    and client id stay)."""
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        try:
            platform = platforms.update_platform(
                session=session,
                platform_id=number,
                add_deployments=add_deployment or (),
                remove_deployments=remove_deployment or (),
                jwks_url=jwks_url,
                auth_login_url=auth_url,
                token_url=token_url,
                match_email=match_email,
            )
        except (NotFound, InvalidPlatform) as problem:
            typer.echo(f"error: {problem}", err=True)
            raise typer.Exit(2) from None
        typer.echo(_described(platform))


@app.command("platforms")
def list_platforms(
    public_url: Annotated[
        str | None, typer.Option(help="the service's address (default: NUMJUDGE_PUBLIC_URL)")
    ] = None,
) -> None:
    """The tool's URLs to paste into an LMS, then the registered platforms."""
    settings = service_settings(log=False)
    base = public_url or settings.public_url
    if base is None:
        typer.echo("(give --public-url or set NUMJUDGE_PUBLIC_URL to print the tool's URLs)")
    else:
        urls = platforms.tool_urls(base)
        typer.echo(f"login URL:        {urls.login}")
        typer.echo(f"launch URL:       {urls.launch}")
        typer.echo(f"deep linking URL: {urls.launch}")
        typer.echo(f"JWKS URL:         {urls.jwks}")
    with session_scope(settings.database_url) as session:
        for platform in platforms.list_platforms(session=session):
            typer.echo(_described(platform))


def _described(platform: LtiPlatform) -> str:
    return (
        f"platform {platform.id}: {platform.issuer} client id {platform.client_id} "
        f"deployments {', '.join(platform.deployment_ids)}" + _matching(platform)
    )


def _matching(platform: LtiPlatform) -> str:
    return ", links unused accounts by e-mail address" if platform.match_email else ""


@app.command("rotate-key")
def rotate_key() -> None:
    """A new key pair signs from now on; the previous one stays in the JWKS until the next
    rotation, so platforms that cached the key set keep verifying."""
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        key = keys.rotate(session=session)
        typer.echo(f"new key {keys.key_id(key)}")


@app.command("passbacks")
def list_passbacks(
    failed: Annotated[bool, typer.Option(help="only the passbacks that failed")] = False,
) -> None:
    """The scores sent to the LMSs' gradebooks: one line per LMS link and learner, the latest
    changed first, with the last score sent and the last failure's reason."""
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        shown = passback.passbacks(session=session, state=PassbackState.FAILED if failed else None)
        for item in shown:
            sent = (
                f"sent {item.score_given:g}/{item.score_maximum:g} at {item.sent_at:%Y-%m-%d %H:%M}"
                if item.sent_at is not None
                else "never sent"
            )
            typer.echo(
                f"{item.id}\t{item.state.value}\t{item.user_name}\t{item.scope.value} "
                f"{item.target}\t{sent}\t{item.attempts} attempt(s)\t{item.platform}"
                + (f"\t{item.error}" if item.error else "")
            )


@app.command("resend")
def resend(
    link: Annotated[int | None, typer.Argument(help="the passback's number (first column)")] = None,
    failed: Annotated[bool, typer.Option(help="resend every failed passback")] = False,
) -> None:
    """Send a learner's counted score to the LMS again, through the task queue (a worker or
    the service consumes it: the queue must be the service's, not memory://)."""
    from app.runtime.context import build_runtime

    if (link is None) == (not failed):
        typer.echo("error: give a passback's number or --failed", err=True)
        raise typer.Exit(2)
    runtime = build_runtime(service_settings(log=False))
    if link is None:
        typer.echo(f"queued {passback.resend_failed(runtime)} passback(s) again")
        return
    try:
        passback.resend(runtime, link_id=link)
    except NotFound as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"queued passback {link} again")


@app.command("contexts")
def list_contexts() -> None:
    """The LMS contexts numjudge was opened from: number, label and title, platform, members,
    the section each maps to, and the last roster synchronisation."""
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        for known in contexts.known_contexts(session=session):
            if known.synced_at is None:
                synced = "never synchronised"
            else:
                outcome = known.sync_error or _counts(known.sync_counts)
                synced = f"synchronised {known.synced_at:%Y-%m-%d %H:%M}: {outcome}"
            typer.echo(
                f"{known.id}\t{known.label or '-'}\t{known.title or known.context_id}\t"
                f"{known.platform}\t{known.active} active, {known.dropped} dropped\t"
                f"section {known.section or '-'}\t{synced}"
                + ("" if known.has_roster_service else "\tno names and roles service")
            )


@app.command("set-section")
def set_section(
    context: Annotated[
        int, typer.Argument(help="the LMS context's number (numjudge lti contexts)")
    ],
    section: Annotated[str, typer.Argument(help="a numjudge section, or - for none")],
) -> None:
    """Put the LMS context's learners in a section, now and at each launch and synchronisation
    (- : leave their sections alone from now on)."""
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        try:
            moved = contexts.set_section(session=session, context_id=context, section=section)
        except (NotFound, contexts.InvalidSection) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
    named = section.strip()
    shown = "no section" if named in ("", contexts.NO_SECTION) else f"section {named}"
    typer.echo(f"LMS context {context}: {shown}; {moved} learner(s) moved")


@app.command("sync-roster")
def sync_roster(
    context: Annotated[
        int | None, typer.Argument(help="the LMS context's number (numjudge lti contexts)")
    ] = None,
    every: Annotated[
        bool, typer.Option("--all", help="every LMS context whose LMS offers its member list")
    ] = False,
) -> None:
    """Synchronise the roster with the LMS context's members: new members get an
    account, members gone or inactive are marked dropped (their accounts are kept). With
    --all (for a scheduler), every LMS context whose launches offered a member list; the exit
    status is 1 if one of them failed."""
    if (context is None) == (not every):
        typer.echo("error: give an LMS context's number or --all", err=True)
        raise typer.Exit(2)
    settings = service_settings(log=False)
    with session_scope(settings.database_url) as session:
        numbers = (
            [context]
            if context is not None
            else [c.id for c in contexts.known_contexts(session=session) if c.has_roster_service]
        )
        failed = False
        for number in numbers:
            failed |= not _sync_one(session, number, named=every)
    if failed:
        raise typer.Exit(1)


def _sync_one(session: Session, number: int, *, named: bool) -> bool:
    """Synchronise one LMS context and say how it went (``named``: each line names it)."""
    prefix = f"LMS context {number}: " if named else ""
    try:
        result = roster_sync.synchronise(session=session, context_id=number)
    except NotFound as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    except roster_sync.RosterSyncFailed as exc:
        typer.echo(f"{prefix}error: {exc}", err=True)
        return False
    typer.echo(prefix + _counts(result.counts))
    changes = {
        "added": result.added,
        "updated": result.updated,
        "dropped": result.dropped,
        "waiting to sign in to link an account with their e-mail address": result.waiting,
    }
    for heading, names in changes.items():
        if names:
            typer.echo(f"{prefix}{heading}: {', '.join(names)}")
    return True


def _counts(counts: tuple[int, int, int, int]) -> str:
    return "{} added, {} updated, {} unchanged, {} dropped".format(*counts)


def register(parent: typer.Typer) -> None:
    parent.add_typer(app, name="lti")
