"""Secrets kept out of every log line: a URL is shown without its password, and each
formatted line is checked for the secrets this process was configured with, so a URL or key
that reaches a message some other way (an exception's text, a library's log) is masked too."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import unquote, urlsplit, urlunsplit

MASK = "***"


def mask_url(url: str) -> str:
    """``url`` with its password replaced by ``***`` (``redis://:***@queue:6379/0``)."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    userinfo, _, host = parts.netloc.rpartition("@")
    user, has_password, _ = userinfo.partition(":")
    if not has_password:
        return url
    return urlunsplit(parts._replace(netloc=f"{user}:{MASK}@{host}"))


def url_secrets(url: str) -> list[str]:
    """The password in ``url`` as written and percent-decoded (none: an empty list)."""
    userinfo, at, _ = urlsplit(url).netloc.rpartition("@")
    _, has_password, password = userinfo.partition(":")
    if not at or not has_password or not password:
        return []
    return list(dict.fromkeys([password, unquote(password)]))


class Redactor:
    """Replaces each of ``secrets`` in a text by ``***``; the longest first, so a secret that
    contains another is masked whole."""

    def __init__(self, secrets: Iterable[str]) -> None:
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, MASK)
        return text
