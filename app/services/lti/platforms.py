"""The LMSs registered as LTI 1.3 platforms, and the tool's URLs an LMS administrator pastes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from sqlalchemy.orm import Session

from app.models import LtiPlatform
from app.services.errors import NotFound
from app.store import lti as lti_store

LOGIN_PATH = "/lti/login"
LAUNCH_PATH = "/lti/launch"
JWKS_PATH = "/lti/jwks"


class InvalidPlatform(ValueError):
    """A registration with a missing value or a URL that is not http(s)."""


class PlatformExists(ValueError):
    """That issuer already has a registration with that client id."""


@dataclass(frozen=True)
class ToolUrls:
    """What the LMS's tool registration asks for."""

    login: str  # OpenID Connect login initiation URL
    launch: str  # redirect URI and target link URI
    jwks: str  # the tool's public key set


def tool_urls(base_url: str) -> ToolUrls:
    base = base_url.rstrip("/")
    return ToolUrls(login=base + LOGIN_PATH, launch=base + LAUNCH_PATH, jwks=base + JWKS_PATH)


def _check_url(name: str, url: str) -> str:
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InvalidPlatform(f"{name} must be an http(s) URL, not {url!r}")
    return url.strip()


def add_platform(
    *,
    session: Session,
    issuer: str,
    client_id: str,
    deployment_ids: Sequence[str],
    jwks_url: str,
    auth_login_url: str,
    token_url: str,
    match_email: bool = False,
) -> LtiPlatform:
    """Register an LMS (``InvalidPlatform``, ``PlatformExists``); ``match_email``: trust it to
    link its users to unused accounts by e-mail address (app/services/lti/accounts.py)."""
    issuer, client_id = issuer.strip(), client_id.strip()
    deployments = [d.strip() for d in deployment_ids if d.strip()]
    if not issuer or not client_id:
        raise InvalidPlatform("the issuer and the client id are required")
    if not deployments:
        raise InvalidPlatform("give at least one deployment id")
    if lti_store.get_platform(session=session, issuer=issuer, client_id=client_id) is not None:
        raise PlatformExists(f"{issuer} already has a registration with client id {client_id}")
    return lti_store.add_platform(
        session=session,
        issuer=issuer,
        client_id=client_id,
        deployment_ids=deployments,
        jwks_url=_check_url("the platform's key set URL", jwks_url),
        auth_login_url=_check_url("the authentication request URL", auth_login_url),
        token_url=_check_url("the access token URL", token_url),
        match_email=match_email,
    )


def update_platform(
    *,
    session: Session,
    platform_id: int,
    add_deployments: Sequence[str] = (),
    remove_deployments: Sequence[str] = (),
    jwks_url: str | None = None,
    auth_login_url: str | None = None,
    token_url: str | None = None,
    match_email: bool | None = None,
) -> LtiPlatform:
    """Change a registration: its deployment ids (an LMS gives one per place the tool is
    installed), its URLs and whether it links by e-mail address (``NotFound``,
    ``InvalidPlatform``). Its issuer and client id stay: accounts and scores are kept per
    registration; another client id is another one."""
    platform = lti_store.get_platform_by_id(session=session, platform_id=platform_id)
    if platform is None:
        raise NotFound(f"platform {platform_id} not found")
    gone = {d.strip() for d in remove_deployments}
    deployments = [d for d in platform.deployment_ids if d not in gone]
    deployments += [
        d.strip() for d in add_deployments if d.strip() and d.strip() not in deployments
    ]
    if not deployments:
        raise InvalidPlatform("a registration keeps at least one deployment id")
    platform.deployment_ids = deployments
    if jwks_url is not None:
        platform.jwks_url = _check_url("the platform's key set URL", jwks_url)
    if auth_login_url is not None:
        platform.auth_login_url = _check_url("the authentication request URL", auth_login_url)
    if token_url is not None:
        platform.token_url = _check_url("the access token URL", token_url)
    if match_email is not None:
        platform.match_email = match_email
    session.flush()
    return platform


def list_platforms(*, session: Session) -> list[LtiPlatform]:
    return lti_store.list_platforms(session=session)
