"""The tool's RSA key pairs: the newest signs what the tool sends to a platform (service
tokens, deep-linking responses); the JWKS publishes it and the one before it, since platforms
cache a tool's key set and a message signed just before a rotation must still verify."""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from pylti1p3.registration import Registration
from sqlalchemy.orm import Session

from app.models import LtiKey
from app.store import lti as lti_store

KEY_BITS = 2048
PUBLISHED_KEYS = 2


def _new_pair() -> tuple[str, str]:
    private = rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)
    private_pem = private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode("ascii")
    public_pem = (
        private.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode("ascii")
    )
    return private_pem, public_pem


def rotate(*, session: Session) -> LtiKey:
    """A new key pair that signs from now on; the previous one stays published."""
    private_pem, public_pem = _new_pair()
    return lti_store.add_key(session=session, private_pem=private_pem, public_pem=public_pem)


def current(*, session: Session) -> LtiKey:
    """The signing key pair, made on first use."""
    keys = lti_store.newest_keys(session=session, limit=1)
    return keys[0] if keys else rotate(session=session)


def key_id(key: LtiKey) -> str:
    """The key's ``kid``: its RFC 7638 thumbprint, as pylti1p3 computes it when it signs."""
    return str(Registration.get_jwk(key.public_pem)["kid"])


def jwks(*, session: Session) -> dict[str, list[dict[str, Any]]]:
    """The tool's public key set (the newest key made on first use)."""
    current(session=session)
    keys = lti_store.newest_keys(session=session, limit=PUBLISHED_KEYS)
    return {"keys": [dict(Registration.get_jwk(key.public_pem)) for key in keys]}
