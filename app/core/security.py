"""API tokens (random, stored as SHA-256) and web passwords (argon2)."""

from __future__ import annotations

import hashlib
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

TOKEN_PREFIX = "nj_"
_hasher = PasswordHasher()


def new_token() -> str:
    """A fresh API token (shown once; only its hash is stored)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """Tokens carry 256 random bits, so a fast unsalted hash is safe and indexable."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_display_prefix(token: str) -> str:
    return token[:10]


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False
