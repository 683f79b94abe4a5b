"""pylti1p3's interfaces, backed by plain request data and the database.

pylti1p3 ships adapters for Django and Flask; these are the ones it needs for numjudge:

- ``ToolRequest``: the request's parameters (query and form), cookies and scheme;
- ``CookieJar``: the cookies pylti1p3 reads, and the ones it sets, for the page to send;
- ``LaunchCache``: pylti1p3's cache storage over ``lti_cache`` rows, shared by every process
  of the service (states, nonces and launch data);
- ``ToolSession``: pylti1p3's session service whose nonce check also uses the nonce up, so a
  replayed launch is refused (pylti1p3 only checks that the nonce was issued);
- ``DatabaseToolConf``: the registrations of ``lti_platforms`` with the tool's newest key pair;
- ``ToolLogin`` and ``ToolLaunch``: pylti1p3's OIDC login and message launch on them;
  ``ToolLaunch`` adds the checks of the IMS Security Framework (5.1.3) pylti1p3 leaves out: a
  token for several audiences names the tool's client id as its authorised party (``azp``),
  the clock may be a minute off either way (``CLOCK_LEEWAY_S``), and a platform's key set that
  is not a JSON Web Key Set refuses the launch rather than failing it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import jwt
import requests
from jwcrypto.common import JWException  # type: ignore[import-untyped]
from pylti1p3.cookie import CookieService
from pylti1p3.deployment import Deployment
from pylti1p3.exception import LtiKeyException, LtiMessageValidationException
from pylti1p3.launch_data_storage.cache import CacheDataStorage
from pylti1p3.message_launch import MessageLaunch
from pylti1p3.oidc_login import OIDCLogin
from pylti1p3.redirect import Redirect
from pylti1p3.registration import Registration, TKeySet
from pylti1p3.request import Request
from pylti1p3.session import SessionService
from pylti1p3.tool_config.abstract import ToolConfAbstract
from sqlalchemy.orm import Session

from app.core.text import is_storable
from app.models import LtiPlatform, utcnow
from app.services.lti import keys
from app.store import lti as lti_store

CACHE_LIFETIME = timedelta(days=1)
"""How long a cache entry lives when pylti1p3 names no time (its own default is a day)."""
CLOCK_LEEWAY_S = 60
"""How far the platform's clock may be from ours for a token's ``iat`` and ``exp``: the IMS
Security Framework allows "some small leeway" for clock skew; an LMS a few seconds ahead would
otherwise have every launch refused as issued in the future."""


HTTP_TIMEOUT_S = 20.0
"""How long a call to a platform (its key set, its token and service endpoints) may take."""


class TimedSession(requests.Session):
    """requests without a timeout waits for ever on a platform that does not answer, holding
    a server thread."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", HTTP_TIMEOUT_S)
        return super().request(*args, **kwargs)


class ToolRequest(Request):
    """A request as pylti1p3 reads it; a missing parameter reads as ``""``."""

    def __init__(self, params: Mapping[str, str], cookies: Mapping[str, str], secure: bool):
        self._params = dict(params)
        self._cookies = dict(cookies)
        self._secure = secure

    def is_secure(self) -> bool:
        return self._secure

    def get_param(self, key: str) -> str:
        return self._params.get(key, "")

    def get_cookie(self, name: str) -> str | None:
        return self._cookies.get(name)


@dataclass(frozen=True)
class PendingCookie:
    name: str
    value: str
    max_age: int | None


class CookieJar(CookieService):
    """pylti1p3's cookies, under its ``lti1p3-`` prefix; those it sets wait in ``pending``."""

    def __init__(self, request: ToolRequest):
        self._request = request
        self.pending: list[PendingCookie] = []

    def _name(self, name: str) -> str:
        return f"{self._cookie_prefix}-{name}"

    def get_cookie(self, name: str) -> str | None:
        return self._request.get_cookie(self._name(name))

    def set_cookie(self, name: str, value: str | int, exp: int | None = 3600) -> None:
        self.pending.append(PendingCookie(self._name(name), str(value), exp))


class DatabaseCache:
    """The cache object pylti1p3's ``CacheDataStorage`` calls (``get``, ``set``), plus ``take``."""

    def __init__(self, session: Session):
        self._session = session

    def get(self, key: str) -> Any:
        if not is_storable(key):  # a state or launch id from a request: never stored
            return None
        return lti_store.cache_get(session=self._session, key=key, now=utcnow())

    def set(self, key: str, value: Any, exp: int | None = None) -> None:
        now = utcnow()
        lifetime = timedelta(seconds=exp) if exp else CACHE_LIFETIME
        lti_store.cache_set(
            session=self._session, key=key, value=value, now=now, expires_at=now + lifetime
        )

    def take(self, key: str) -> bool:
        if not is_storable(key):
            return False
        return lti_store.cache_take(session=self._session, key=key, now=utcnow())


class LaunchCache(CacheDataStorage[Any]):
    def __init__(self, session: Session):
        super().__init__()
        self._database = DatabaseCache(session)

    def _get_cache(self) -> DatabaseCache:
        return self._database

    def take_value(self, key: str) -> bool:
        """Delete ``key``: whether it was there (under the same key rules as ``get_value``)."""
        return self._database.take(self._prepare_key(key))


class ToolSession(SessionService):
    def __init__(self, request: ToolRequest, cache: LaunchCache):
        super().__init__(request)
        self.set_data_storage(cache)

    def check_nonce(self, nonce: str) -> bool:
        """Whether ``nonce`` was issued by a login and not used yet; it is used from now on."""
        cache = self.data_storage
        assert isinstance(cache, LaunchCache)
        return cache.take_value(self._get_key("nonce", nonce))


def registration(platform: LtiPlatform, *, session: Session) -> Registration:
    key = keys.current(session=session)
    return (
        Registration()
        .set_issuer(platform.issuer)
        .set_client_id(platform.client_id)
        .set_key_set_url(platform.jwks_url)
        .set_auth_login_url(platform.auth_login_url)
        .set_auth_token_url(platform.token_url)
        .set_tool_private_key(key.private_pem)
        .set_tool_public_key(key.public_pem)
    )


def find_platform(*, session: Session, issuer: str, client_id: str) -> LtiPlatform | None:
    """The platform of ``issuer`` and ``client_id``; without a client id (the login initiation
    may omit it), the issuer's only registration. Both come from requests anyone can send:
    text no database stores (app/core/text.py) names no platform."""
    if not (is_storable(issuer) and is_storable(client_id)):
        return None
    if client_id:
        return lti_store.get_platform(session=session, issuer=issuer, client_id=client_id)
    found = lti_store.platforms_of_issuer(session=session, issuer=issuer)
    return found[0] if len(found) == 1 else None


class DatabaseToolConf(ToolConfAbstract[ToolRequest]):
    """Every issuer may have several client ids: lookups always go by issuer and client id.

    pylti1p3 takes a falsy registration or deployment for "not registered" and refuses the
    login or the launch with its own message, so the lookups return None then.
    """

    def __init__(self, session: Session):
        self._session = session

    def check_iss_has_one_client(self, iss: str) -> bool:
        return False

    def check_iss_has_many_clients(self, iss: str) -> bool:
        return True

    def find_registration_by_issuer(  # type: ignore[override]
        self, iss: str, *args: Any, **kwargs: Any
    ) -> Registration | None:
        return self.find_registration_by_params(iss, "")

    def find_registration_by_params(  # type: ignore[override]
        self, iss: str, client_id: str, *args: Any, **kwargs: Any
    ) -> Registration | None:
        platform = find_platform(session=self._session, issuer=iss, client_id=client_id)
        return registration(platform, session=self._session) if platform else None

    def find_deployment(self, iss: str, deployment_id: str) -> Deployment | None:
        return self.find_deployment_by_params(iss, deployment_id, "")

    def find_deployment_by_params(
        self, iss: str, deployment_id: str, client_id: str, *args: Any, **kwargs: Any
    ) -> Deployment | None:
        platform = find_platform(session=self._session, issuer=iss, client_id=client_id)
        if platform is None or deployment_id not in platform.deployment_ids:
            return None
        return Deployment().set_deployment_id(deployment_id)


class LocationRedirect(Redirect[str]):
    """pylti1p3's redirect as the bare URL: the page makes the response."""

    def __init__(self, location: str):
        self._location = location

    def do_redirect(self) -> str:
        return self._location

    def do_js_redirect(self) -> str:
        return self._location

    def set_redirect_url(self, location: str) -> None:
        self._location = location

    def get_redirect_url(self) -> str:
        return self._location


class ToolLogin(OIDCLogin[ToolRequest, DatabaseToolConf, ToolSession, CookieJar, str]):
    def get_redirect(self, url: str) -> Redirect[str]:
        return LocationRedirect(url)


class ToolLaunch(MessageLaunch[ToolRequest, DatabaseToolConf, ToolSession, CookieJar]):
    def _get_request_param(self, key: str) -> str:
        return self._request.get_param(key)

    def get_client_id(self) -> str:
        """The client id the token is for, which finds its registration: its audience, or, for a
        token with several audiences, its authorised party (``azp``), which must be one of them
        (OpenID Connect Core 3.1.3.7; pylti1p3 takes the first audience, whoever it is)."""
        body = self._get_jwt_body()
        aud, azp = body.get("aud"), body.get("azp")
        audiences = [str(a) for a in aud] if isinstance(aud, list) else [str(aud or "")]
        if azp is None:
            if len(audiences) > 1:
                raise LtiMessageValidationException(
                    "the token names several audiences and no authorised party (azp)"
                )
            return audiences[0]
        if str(azp) not in audiences:
            raise LtiMessageValidationException(
                "the token's authorised party (azp) is not one of its audiences"
            )
        return str(azp)

    def validate_jwt_signature(self) -> ToolLaunch:
        """pylti1p3's check of the signature and times, with ``CLOCK_LEEWAY_S`` of leeway."""
        public_key, algorithm = self.get_public_key()
        try:
            jwt.decode(
                self._get_id_token(),
                public_key,
                algorithms=[algorithm],
                options=self._jwt_verify_options,
                leeway=CLOCK_LEEWAY_S,
            )
        except jwt.InvalidTokenError as exc:
            raise LtiMessageValidationException(f"Can't decode id_token: {exc}") from exc
        return self

    def fetch_public_key(self, key_set_url: str) -> TKeySet:
        """The platform's key set; one without a list of keys is refused (pylti1p3 would fail
        reading it)."""
        key_set = super().fetch_public_key(key_set_url)
        keys = key_set.get("keys") if isinstance(key_set, dict) else None
        if not isinstance(keys, list) or not all(isinstance(key, dict) for key in keys):
            raise LtiKeyException(
                f"the platform's key set at {key_set_url} is not a JSON Web Key Set "
                "(an object with a list of keys)"
            )
        return key_set

    def get_public_key(self) -> tuple[str, str]:
        """The key that signed the token; a malformed key under its ``kid`` refuses it."""
        try:
            return super().get_public_key()
        except JWException as exc:
            raise LtiKeyException(
                f"the platform's key for this token is not a valid JWK: {exc}"
            ) from exc


def cached_launch(
    *, session: Session, cache: LaunchCache, request: ToolRequest, launch_id: str
) -> ToolLaunch:
    """The launch ``launch_id`` as the launch cache keeps it, for a page that answers it later
    (the deep-linking reply, the account-link page); pylti1p3 raises if it is unknown or gone."""
    launch = ToolLaunch.from_cache(
        launch_id,
        request,
        DatabaseToolConf(session),
        session_service=ToolSession(request, cache),
        cookie_service=CookieJar(request),
        launch_data_storage=cache,
    )
    assert isinstance(launch, ToolLaunch)  # from_cache builds the class it is called on
    return launch
