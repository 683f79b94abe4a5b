"""app/services/accounts.py and app/core/names.py: one rule for names and passwords, sign-in
that costs the same for every name, throttles in the database, the password-hashing cap."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from unittest import mock

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core import security
from app.core.config import Settings
from app.core.db import get_sessionmaker
from app.core.names import InvalidName, InvalidPassword, PasswordProblem, name_key
from app.models import ThrottleCounter, User, utcnow
from app.services import accounts
from app.services.accounts import HashingBusy, HashSlots, NameTaken
from app.services.throttle import Throttled
from app.store import accounts as account_store
from tests.app.conftest import wipe

SETTINGS = Settings(
    _env_file=None, login_failures_per_name=3, login_failures_per_address=5, signup_limit=2
)


@pytest.fixture
def slots() -> HashSlots:
    return HashSlots(2)


def sign_in(
    session: Session, slots: HashSlots, name: str, password: str, *, address: str
) -> User | None:
    """Sign in under this file's throttle settings."""
    return accounts.authenticate(
        session=session,
        settings=SETTINGS,
        slots=slots,
        address=address,
        name=name,
        password=password,
    )


def sign_up(session: Session, slots: HashSlots, name: str, password: str, *, address: str) -> User:
    """Sign up under this file's throttle settings."""
    return accounts.sign_up(
        session=session,
        settings=SETTINGS,
        slots=slots,
        address=address,
        name=name,
        password=password,
    )


def test_names_are_one_account_whatever_their_case_or_width(db: Session) -> None:
    accounts.create_account(session=db, name="admin")
    for twin in ("ADMIN", "Admin", "ａｄｍｉｎ", " admin "):
        with pytest.raises(NameTaken):
            accounts.create_account(session=db, name=twin)
    alice = accounts.create_account(session=db, name="Alice")
    assert (alice.name, alice.name_key) == ("Alice", "alice")
    assert account_store.get_user_by_name(session=db, name="ＡＬＩＣＥ") is alice
    assert name_key("ﬁle") == "file"  # NFKC first: the ligature is two letters


@pytest.mark.parametrize(
    "name", ["a", "a b", "ada!", "élodie", "-ada", "x" * 33, "ада", "ad\u200bmin", ""]
)
def test_names_outside_the_safe_set_are_refused(db: Session, name: str) -> None:
    with pytest.raises(InvalidName, match="2–32 letters"):
        accounts.create_account(session=db, name=name)


@pytest.mark.parametrize(
    ("password", "problem"),
    [
        ("seven77", PasswordProblem.TOO_SHORT),
        (" " * 8, PasswordProblem.BLANK),
        ("\t \n \u3000   ", PasswordProblem.BLANK),
        ("x" * 1025, PasswordProblem.TOO_LONG),
    ],
)
def test_weak_passwords_are_refused(db: Session, password: str, problem: PasswordProblem) -> None:
    with pytest.raises(InvalidPassword) as refused:
        accounts.create_account(session=db, name="ada", password=password)
    assert refused.value.problem is problem
    assert account_store.get_user_by_name(session=db, name="ada") is None


def test_sign_in_verifies_one_hash_for_known_and_unknown_names(
    db: Session, slots: HashSlots
) -> None:
    accounts.create_account(session=db, name="ada", password="lovelace-1815")
    accounts.create_account(session=db, name="bob")  # no password: web sign-in impossible
    with mock.patch(
        "app.services.accounts.verify_password", wraps=security.verify_password
    ) as verify:
        for name, password in (
            ("ada", "wrong-one"),
            ("nobody", "wrong-one"),
            ("bob", "whatever!"),
            ("ada", "lovelace-1815"),
        ):
            verify.reset_mock()
            user = sign_in(db, slots, name, password, address="198.51.100.1")
            assert verify.call_count == 1, name
            stored_hash = verify.call_args.args[0]
            assert stored_hash.startswith("$argon2id$"), name
            assert (user is not None) == (password == "lovelace-1815")


def test_sign_in_accepts_the_name_in_any_case(db: Session, slots: HashSlots) -> None:
    accounts.create_account(session=db, name="Ada", password="lovelace-1815")
    user = sign_in(db, slots, "ＡＤＡ", "lovelace-1815", address="a")
    assert user is not None and user.name == "Ada"


def test_failures_lock_a_name_only_for_the_address_that_failed(
    db: Session, slots: HashSlots
) -> None:
    accounts.create_account(session=db, name="ada", password="lovelace-1815")

    def attempt(address: str, name: str = "ada", password: str = "guess-guess") -> bool:
        return sign_in(db, slots, name, password, address=address) is not None

    for _ in range(3):
        assert not attempt("203.0.113.9", "ADA")  # one name, whatever its case
    with pytest.raises(Throttled) as locked:
        attempt("203.0.113.9", password="lovelace-1815")
    assert 0 < locked.value.retry_after_s <= 300
    assert attempt("198.51.100.7", password="lovelace-1815")  # ada elsewhere is not locked
    for name in ("bob", "carol"):  # the address may try other names, up to its own limit
        assert not attempt("203.0.113.9", name)
    with pytest.raises(Throttled):
        attempt("203.0.113.9", "dave")
    rows = db.scalars(select(ThrottleCounter)).all()
    assert rows and all(len(row.key_hash) == 64 for row in rows)  # no names or addresses


def test_a_success_clears_the_failures_of_that_name_and_address(
    db: Session, slots: HashSlots
) -> None:
    accounts.create_account(session=db, name="ada", password="lovelace-1815")
    for _ in range(2):
        sign_in(db, slots, "ada", "nope-nope", address="a")
    assert sign_in(db, slots, "ada", "lovelace-1815", address="a") is not None
    for _ in range(2):
        sign_in(db, slots, "ada", "nope-nope", address="a")
    assert sign_in(db, slots, "ada", "lovelace-1815", address="a") is not None


def test_sign_ups_per_address_are_limited(committed_db: Session, slots: HashSlots) -> None:
    for name in ("ann", "ben"):
        sign_up(committed_db, slots, name, "long enough", address="a")
    with pytest.raises(Throttled) as refused:
        sign_up(committed_db, slots, "cid", "long enough", address="a")
    assert 0 < refused.value.retry_after_s <= 3600
    assert account_store.get_user_by_name(session=committed_db, name="cid") is None
    sign_up(committed_db, slots, "cid", "long enough", address="b")


def test_a_failed_sign_up_does_not_count_against_the_address(
    committed_db: Session, slots: HashSlots
) -> None:
    """The throttle counts accounts made: a taken name or a short password costs nothing."""
    accounts.create_account(session=committed_db, name="taken")
    for name, password in (("taken", "long enough"), ("dan", "short"), ("Taken", "long enough")):
        with pytest.raises((NameTaken, InvalidPassword)):
            sign_up(committed_db, slots, name, password, address="c")
    for name in ("dan", "eve"):
        sign_up(committed_db, slots, name, "long enough", address="c")


def test_sign_ups_sent_at_once_never_pass_the_limit(database_url: str) -> None:
    """Eight sign-ups from one address at the same moment, each in a session of its own as
    eight processes would: only the limit's two make an account. (A check before the slow
    password hash and a count after it let them all through.)"""
    senders = 8
    address = f"at-once-{time.monotonic_ns()}"
    sessions = get_sessionmaker(database_url)
    start = threading.Barrier(senders)
    slots = HashSlots(senders)

    def send(index: int) -> bool:
        with sessions() as session:
            start.wait()
            try:
                sign_up(session, slots, f"{address}-{index}"[-32:], "long enough", address=address)
            except Throttled:
                return False
            session.commit()
            return True

    try:
        with ThreadPoolExecutor(max_workers=senders) as pool:
            made = list(pool.map(send, range(senders)))
    finally:
        wipe(database_url)  # committed as the processes would: other tests list the users
    assert made.count(True) == SETTINGS.signup_limit


def test_no_hash_beyond_the_cap(committed_db: Session) -> None:
    slots = HashSlots(1, wait_s=0.0)
    with slots.slot(), pytest.raises(HashingBusy) as busy:
        sign_up(committed_db, slots, "ann", "long enough", address="a")
    assert busy.value.retry_after_s == 1
    assert account_store.get_user_by_name(session=committed_db, name="ann") is None
    with slots.slot():
        pass  # released again after the refusal


def test_revoke_prefix_is_literal_and_tokens_expire(db: Session) -> None:
    ada = accounts.create_account(session=db, name="ada")
    row, token = accounts.issue_token(session=db, user=ada, lifetime=timedelta(days=90))
    assert row.expires_at is not None
    assert timedelta(days=89) < row.expires_at - utcnow() <= timedelta(days=90)
    # Each matches the token as a LIKE pattern and never as literal text: a token is "nj_"
    # then URL-safe base64, which has no "%", and its second letter is "j", not "_".
    for wildcard in ("nj_%", "%", "n__", "_"):
        assert not token.startswith(wildcard)
        assert accounts.revoke(session=db, user=ada, prefix=wildcard) == (0, 0)
    assert account_store.get_user_by_token(session=db, token=token) is ada
    row.expires_at = utcnow() - timedelta(seconds=1)
    db.flush()
    assert account_store.get_user_by_token(session=db, token=token) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("90d", timedelta(days=90)),
        ("12h", timedelta(hours=12)),
        ("30m", timedelta(minutes=30)),
        ("2w", timedelta(weeks=2)),
    ],
)
def test_durations(text: str, expected: timedelta) -> None:
    assert accounts.parse_duration(text) == expected


@pytest.mark.parametrize("text", ["90", "d", "0d", "-1d", "1y", "1.5d", "90 days"])
def test_bad_durations(text: str) -> None:
    with pytest.raises(ValueError, match="not a duration"):
        accounts.parse_duration(text)


def test_a_disabled_account_is_told_only_to_who_knows_its_password(
    db: Session, slots: HashSlots
) -> None:
    ada = accounts.create_account(session=db, name="ada", password="correct horse")
    accounts.set_disabled(session=db, user=ada, disabled=True)

    def login(password: str) -> User | None:
        return sign_in(db, slots, "ada", password, address="10.0.0.1")

    assert login("wrong guess") is None
    with pytest.raises(accounts.AccountDisabled):
        login("correct horse")
    accounts.set_disabled(session=db, user=ada, disabled=False)
    assert login("correct horse") is ada


def test_changing_a_password_needs_the_current_one(db: Session, slots: HashSlots) -> None:
    ada = accounts.create_account(session=db, name="ada", password="correct horse")
    account_store.create_web_session(session=db, user=ada, id_hash="a" * 64)

    def change(current: str, new: str) -> None:
        accounts.change_password(
            session=db,
            settings=SETTINGS,
            slots=slots,
            address="10.0.0.1",
            user=ada,
            current=current,
            new=new,
        )

    with pytest.raises(accounts.WrongPassword):
        change("nope", "battery staple")
    with pytest.raises(InvalidPassword):
        change("correct horse", "short")
    assert ada.password_hash is not None
    assert security.verify_password(ada.password_hash, "correct horse")
    change("correct horse", "battery staple")
    assert security.verify_password(ada.password_hash, "battery staple")
    assert account_store.delete_web_sessions(session=db, user_id=ada.id) == 0  # all ended
    for _ in range(SETTINGS.login_failures_per_name - 1):
        with pytest.raises(accounts.WrongPassword):
            change("guess", "a third one")
    with pytest.raises(Throttled):
        change("battery staple", "a third one")


def test_one_token_is_revoked_by_its_owner_only(db: Session) -> None:
    ada = accounts.create_account(session=db, name="ada")
    bob = accounts.create_account(session=db, name="bob")
    row, token = accounts.issue_token(session=db, user=ada)
    other_row, other = accounts.issue_token(session=db, user=ada)
    assert not accounts.revoke_token(session=db, user=bob, token_id=row.id)
    assert account_store.get_user_by_token(session=db, token=token) is ada
    assert accounts.revoke_token(session=db, user=ada, token_id=row.id)
    assert not accounts.revoke_token(session=db, user=ada, token_id=row.id)  # already
    assert account_store.get_user_by_token(session=db, token=token) is None
    assert account_store.get_user_by_token(session=db, token=other) is ada
    assert [t.id for t in accounts.active_tokens(session=db, user=ada)] == [other_row.id]


def test_a_request_beyond_the_hashing_line_is_refused_at_once() -> None:
    """One hash running and one request waiting fill a line of one: the next is refused
    without waiting, so a burst never holds the server's request threads."""
    slots = HashSlots(1, wait_s=60.0, line=1)
    running, release, refused = threading.Event(), threading.Event(), threading.Event()
    outcomes: list[str | HashingBusy] = []

    def hold() -> None:
        with slots.slot():
            running.set()
            release.wait(30)

    def ask() -> None:
        try:
            with slots.slot():
                outcomes.append("hashed")
        except HashingBusy as busy:
            outcomes.append(busy)
            refused.set()

    holder = threading.Thread(target=hold)
    holder.start()
    assert running.wait(10)
    askers = [threading.Thread(target=ask) for _ in range(2)]
    for asker in askers:
        asker.start()
    # Of two requests while the one hash runs, one waits in the line and the other is refused
    # while that hash still runs: at once, not after the 60 s wait.
    assert refused.wait(5)
    (busy,) = outcomes
    assert isinstance(busy, HashingBusy) and busy.retry_after_s == 1
    release.set()
    holder.join(10)
    for asker in askers:
        asker.join(10)
    assert outcomes[1:] == ["hashed"]  # the one in line had its turn
    with slots.slot():
        pass  # every place is given back
