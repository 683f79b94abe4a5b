"""Accounts: tokens stored hashed and revoked, passwords hashed with Argon2."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.security import hash_token, verify_password
from app.models import ApiToken, Role
from app.store import accounts as account_store


def test_tokens_are_stored_hashed_and_can_be_revoked(db: Session) -> None:
    user = account_store.create_user(session=db, name="ada")
    row, token = account_store.create_token(session=db, user=user)
    stored = db.scalars(select(ApiToken)).one()
    assert stored.token_hash == hash_token(token) and token not in stored.token_hash
    assert token.startswith("nj_") and row.prefix == token[:10]
    assert account_store.get_user_by_token(session=db, token=token) is user
    assert account_store.get_user_by_token(session=db, token=token + "x") is None
    assert account_store.revoke_tokens(session=db, user=user) == 1
    assert account_store.get_user_by_token(session=db, token=token) is None


def test_revoke_by_prefix_keeps_the_others(db: Session) -> None:
    user = account_store.create_user(session=db, name="ada")
    _, first = account_store.create_token(session=db, user=user)
    _, second = account_store.create_token(session=db, user=user)
    assert account_store.revoke_tokens(session=db, user=user, prefix=first[:10]) == 1
    assert account_store.get_user_by_token(session=db, token=first) is None
    assert account_store.get_user_by_token(session=db, token=second) is user


def test_passwords_use_argon2(db: Session) -> None:
    user = account_store.create_user(
        session=db, name="ada", role=Role.INSTRUCTOR, password="s3cret!"
    )
    assert user.password_hash is not None and user.password_hash.startswith("$argon2")
    assert user.is_instructor
    assert verify_password(user.password_hash, "s3cret!")
    assert not verify_password(user.password_hash, "wrong")
    assert account_store.create_user(session=db, name="bob").password_hash is None
