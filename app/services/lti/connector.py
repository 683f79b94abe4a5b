"""Calling a platform's services (grade passback, the membership list): pylti1p3's
``ServiceConnector`` gets an access token by a client-credentials grant signed with the tool's
key, kept in the launch cache until shortly before it expires.

A token belongs to one registration: the platform grants it to a client id, and one issuer may
have several (hosted Canvas issues one client id per developer key under one issuer), so the
cache key names the issuer, the client id and the scopes. A platform may refuse a cached token
before it expires (it revoked its tokens, or changed its key): a service call answered 401 with
a cached token drops it and is made once more with a fresh one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from http import HTTPStatus
from typing import Any

import requests
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.service_connector import ServiceConnector, TServiceConnectorResponse
from sqlalchemy.orm import Session

from app.models import LtiPlatform
from app.services.lti.adapter import DatabaseCache, TimedSession, registration

SERVICE_ERRORS = (LtiException, requests.RequestException, KeyError, ValueError)
"""What a service call raises besides ``LtiServiceException`` (the platform's error answer)."""
SHORTEST_CACHED_S = 120
"""A token the platform gives for less than this is asked for again at each call."""


def _refused(exc: LtiServiceException) -> bool:
    return exc.response is not None and exc.response.status_code == HTTPStatus.UNAUTHORIZED


class _Connector(ServiceConnector):
    """pylti1p3's service connector with access tokens cached in the launch cache, per
    registration, and a refused cached token replaced once."""

    def __init__(self, platform: LtiPlatform, session: Session):
        super().__init__(registration(platform, session=session), TimedSession())
        self._platform = platform
        self._cache = DatabaseCache(session)
        self._cached_keys: set[str] = set()  # the tokens this connector took from the cache

    def _scope_key(self, scopes: Iterable[str]) -> str:
        parts = [self._platform.issuer, self._platform.client_id, *sorted(scopes)]
        return hashlib.sha256("\n".join(parts).encode()).hexdigest()

    @staticmethod
    def _cache_key(scope_key: str) -> str:
        return f"lti-token-{scope_key}"

    def _get_cached_access_token(self, scope_key: str) -> str | None:
        token = self._cache.get(self._cache_key(scope_key))
        if not token:
            return None
        self._cached_keys.add(scope_key)
        return str(token)

    def _cache_access_token(self, scope_key: str, access_token: str, expires_in: float) -> None:
        # A minute less than the platform says, so a token never expires on the way.
        if expires_in > SHORTEST_CACHED_S:
            self._cache.set(self._cache_key(scope_key), access_token, int(expires_in) - 60)

    def make_service_request(
        self, scopes: Sequence[str], url: str, *args: Any, **kwargs: Any
    ) -> TServiceConnectorResponse:
        """pylti1p3's call; after a 401 to a cached token, once more with a new token."""
        scope_key = self._scope_key(scopes)
        self._cached_keys.discard(scope_key)
        try:
            return super().make_service_request(scopes, url, *args, **kwargs)
        except LtiServiceException as exc:
            if not _refused(exc):
                raise
            self._cache.take(self._cache_key(scope_key))
            if scope_key not in self._cached_keys:
                raise  # a token the platform just granted: another one would fare no better
        return super().make_service_request(scopes, url, *args, **kwargs)


def connector(platform: LtiPlatform, *, session: Session) -> ServiceConnector:
    """A connector to the platform's services, signing with the tool's current key."""
    return _Connector(platform, session)


def failure(exc: Exception) -> str:
    """What went wrong in a service call, with the platform's answer when there was one."""
    if isinstance(exc, LtiServiceException):
        response = exc.response
        body = response.text[:300] if response is not None else ""
        status = response.status_code if response is not None else "no answer"
        return f"{exc} (HTTP {status}: {body})"
    return f"{type(exc).__name__}: {exc}"
