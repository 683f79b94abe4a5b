"""Calling a platform's services (grade passback, the membership list): pylti1p3's
``ServiceConnector`` gets an access token by a client-credentials grant signed with the tool's
key, kept in the launch cache until shortly before it expires."""

from __future__ import annotations

from typing import Any

import requests
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.service_connector import ServiceConnector
from sqlalchemy.orm import Session

from app.models import LtiPlatform
from app.services.lti.adapter import DatabaseCache, registration

HTTP_TIMEOUT_S = 20.0
SERVICE_ERRORS = (LtiException, requests.RequestException, KeyError, ValueError)
"""What a service call raises besides ``LtiServiceException`` (the platform's error answer)."""


class _TimedSession(requests.Session):
    """requests without a timeout waits for ever on a platform that does not answer."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", HTTP_TIMEOUT_S)
        return super().request(*args, **kwargs)


class _Connector(ServiceConnector):
    """pylti1p3's service connector with access tokens cached in the launch cache."""

    def __init__(self, platform: LtiPlatform, session: Session):
        super().__init__(registration(platform, session=session), _TimedSession())
        self._cache = DatabaseCache(session)

    def _get_cached_access_token(self, scope_key: str) -> str | None:
        token = self._cache.get(f"lti-token-{scope_key}")
        return str(token) if token else None

    def _cache_access_token(self, scope_key: str, access_token: str, expires_in: float) -> None:
        # A minute less than the platform says, so a token never expires on the way.
        if expires_in > 120:
            self._cache.set(f"lti-token-{scope_key}", access_token, int(expires_in) - 60)


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
