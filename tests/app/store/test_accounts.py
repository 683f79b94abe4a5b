"""Accounts: tokens stored hashed and revoked, passwords hashed with Argon2, users found by
name and locked, web sessions deleted, the service's secrets and roster handoffs kept."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.db import get_engine
from app.core.security import hash_token, verify_password
from app.models import ApiToken, Role, RosterHandoff, WebSessionRecord, utcnow
from app.store import accounts as account_store
from app.store import submissions as submission_store
from tests.app.store.helpers import add_submission

MINUTE = timedelta(minutes=1)


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


def test_a_user_is_found_by_name_whatever_its_case(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    account_store.create_user(session=db, name="adam")
    assert account_store.get_user_by_name(session=db, name="ADA") is ada
    assert account_store.get_user_by_name(session=db, name="ad") is None


@pytest.mark.parametrize("name", ["ada\x00", "a" * 65])
def test_a_name_no_account_can_have_finds_no_one(db: Session, name: str) -> None:
    # PostgreSQL refuses NUL in text, and the name key column is 64 characters long.
    account_store.create_user(session=db, name="ada")
    assert account_store.get_user_by_name(session=db, name=name) is None


def test_a_changed_role_is_stored(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    account_store.set_role(session=db, user=ada, role=Role.INSTRUCTOR)
    db.expire_all()
    assert [u.name for u in account_store.list_users(session=db, role=Role.INSTRUCTOR)] == ["ada"]


@pytest.mark.parametrize(
    ("which", "deleted", "left"),
    [
        ({"id_hash": "ada-old"}, 1, {"ada-new", "bob-old", "bob-edge"}),
        ({"user_id": "ada"}, 2, {"bob-old", "bob-edge"}),
        # A session seen at the very cutoff was seen since: it stays.
        ({"seen_before": "cutoff"}, 2, {"ada-new", "bob-edge"}),
        ({"user_id": "ada", "seen_before": "cutoff"}, 1, {"ada-new", "bob-old", "bob-edge"}),
    ],
)
def test_web_sessions_are_deleted_one_by_user_or_by_age(
    db: Session, which: dict[str, str], deleted: int, left: set[str]
) -> None:
    users = {name: account_store.create_user(session=db, name=name) for name in ("ada", "bob")}
    now = utcnow()
    cutoff = now - timedelta(hours=1)
    for id_hash, seen in (
        ("ada-old", cutoff - MINUTE),
        ("ada-new", now),
        ("bob-old", cutoff - MINUTE),
        ("bob-edge", cutoff),
    ):
        user = users[id_hash.split("-")[0]]
        record = account_store.create_web_session(session=db, user=user, id_hash=id_hash)
        record.last_seen_at = seen
    db.flush()
    criteria: dict[str, Any] = {
        "id_hash": which.get("id_hash"),
        "user_id": users[which["user_id"]].id if "user_id" in which else None,
        "seen_before": cutoff if "seen_before" in which else None,
    }
    assert account_store.delete_web_sessions(session=db, **criteria) == deleted
    db.expire_all()
    assert set(db.scalars(select(WebSessionRecord.id_hash))) == left


def test_a_secret_is_stored_once_and_then_only_read(db: Session) -> None:
    first = account_store.get_or_create_secret(session=db, name="cookie", value="one")
    again = account_store.get_or_create_secret(session=db, name="cookie", value="two")
    other = account_store.get_or_create_secret(session=db, name="other", value="three")
    assert (first, again, other) == ("one", "one", "three")


def test_a_handoff_is_read_by_its_owner_with_its_handle_until_it_expires(db: Session) -> None:
    ines = account_store.create_user(session=db, name="ines", role=Role.INSTRUCTOR)
    ivan = account_store.create_user(session=db, name="ivan", role=Role.INSTRUCTOR)
    now = utcnow()
    account_store.put_handoff(
        session=db, handle_hash="live", user=ines, sealed="links", expires_at=now + MINUTE
    )
    account_store.put_handoff(
        session=db, handle_hash="gone", user=ines, sealed="old links", expires_at=now - MINUTE
    )
    assert account_store.get_handoff(session=db, handle_hash="live", user=ines) == "links"
    assert account_store.get_handoff(session=db, handle_hash="live", user=ivan) is None
    assert account_store.get_handoff(session=db, handle_hash="gone", user=ines) is None
    assert account_store.get_handoff(session=db, handle_hash="none", user=ines) is None
    # The next import's handoff removes the expired ones.
    account_store.put_handoff(
        session=db, handle_hash="next", user=ivan, sealed="more", expires_at=now + MINUTE
    )
    db.expire_all()
    assert set(db.scalars(select(RosterHandoff.id_hash))) == {"live", "next"}


@pytest.mark.slow  # waits half a second on the clock for the second locker
def test_a_locked_user_makes_a_second_locker_wait_and_then_read_what_the_first_committed(
    committed_db: Session, database_url: str
) -> None:
    # The submission budget's promise (app.services.submissions): two submissions at once
    # are counted one after the other, never both against the same count.
    ada = account_store.create_user(session=committed_db, name="ada")
    committed_db.commit()
    ada_id = ada.id
    account_store.lock_user(session=committed_db, user_id=ada_id)
    add_submission(committed_db, ada)
    counted: list[int] = []
    locked = threading.Event()

    def second() -> None:
        with Session(get_engine(database_url)) as other:
            account_store.lock_user(session=other, user_id=ada_id)
            locked.set()
            counted.append(len(submission_store.list_submissions(session=other, user_id=ada_id)))
            other.rollback()

    worker = threading.Thread(target=second)
    worker.start()
    waited = not locked.wait(timeout=0.5)
    committed_db.commit()
    worker.join(timeout=30)
    assert waited
    assert counted == [1]
