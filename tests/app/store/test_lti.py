"""LTI 1.3 in the store: platforms, the tool's keys, the launch cache, LMS users' links and
which accounts are in use, grade links and their passback attempts, contexts and enrolments."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import (
    EnrolmentState,
    LtiContext,
    LtiEnrolment,
    LtiGradeLink,
    LtiPlatform,
    PassbackState,
    SyncState,
    User,
    WorkScope,
    utcnow,
)
from app.store import accounts as account_store
from app.store import lti as lti_store
from tests.app.store.helpers import add_submission

MINUTE = timedelta(minutes=1)
ACTIVE, DROPPED = EnrolmentState.ACTIVE, EnrolmentState.DROPPED


def _platform(
    db: Session, issuer: str = "https://lms.example", client_id: str = "c1"
) -> LtiPlatform:
    return lti_store.add_platform(
        session=db,
        issuer=issuer,
        client_id=client_id,
        deployment_ids=["d1", "d2"],
        jwks_url=f"{issuer}/jwks",
        auth_login_url=f"{issuer}/auth",
        token_url=f"{issuer}/token",
    )


def _users(db: Session, *names: str) -> list[User]:
    return [account_store.create_user(session=db, name=name) for name in names]


# --- platforms and keys ------------------------------------------------------------------------


def test_a_platform_is_found_by_its_issuer_and_client_id(db: Session) -> None:
    first = _platform(db, client_id="c1")
    second = _platform(db, client_id="c2")
    other = _platform(db, issuer="https://other.example", client_id="c1")
    db.expire_all()
    found = lti_store.get_platform(session=db, issuer="https://lms.example", client_id="c2")
    assert found is second and found.deployment_ids == ["d1", "d2"] and not found.match_email
    assert lti_store.get_platform(session=db, issuer="https://lms.example", client_id="c3") is None
    assert lti_store.list_platforms(session=db) == [first, second, other]


def test_the_newest_keys_come_first_up_to_the_limit(db: Session) -> None:
    keys = [
        lti_store.add_key(session=db, private_pem=f"private {n}", public_pem=f"public {n}")
        for n in range(3)
    ]
    newest = lti_store.newest_keys(session=db, limit=2)
    assert [k.public_pem for k in newest] == ["public 2", "public 1"]
    assert lti_store.newest_keys(session=db, limit=5) == keys[::-1]


# --- the launch cache --------------------------------------------------------------------------


def test_a_cached_value_is_read_until_it_expires_and_a_second_set_replaces_it(db: Session) -> None:
    now = utcnow()
    lti_store.cache_set(session=db, key="state", value={"n": 1}, now=now, expires_at=now + MINUTE)
    lti_store.cache_set(session=db, key="state", value={"n": 2}, now=now, expires_at=now + MINUTE)
    assert lti_store.cache_get(session=db, key="state", now=now) == {"n": 2}
    assert lti_store.cache_get(session=db, key="state", now=now + MINUTE) is None
    assert lti_store.cache_get(session=db, key="missing", now=now) is None


def test_setting_a_cached_value_deletes_the_expired_ones(db: Session) -> None:
    now = utcnow()
    lti_store.cache_set(session=db, key="old", value=1, now=now, expires_at=now + MINUTE)
    lti_store.cache_set(session=db, key="kept", value=2, now=now, expires_at=now + 3 * MINUTE)
    later = now + 2 * MINUTE
    lti_store.cache_set(session=db, key="new", value=3, now=later, expires_at=later + MINUTE)
    db.expire_all()
    # Read as of the first time, when "old" was live: only its deletion hides it now.
    assert [lti_store.cache_get(session=db, key=k, now=now) for k in ("old", "kept", "new")] == [
        None,
        2,
        3,
    ]


def test_a_cached_nonce_is_taken_once_and_never_when_expired(db: Session) -> None:
    now = utcnow()
    lti_store.cache_set(session=db, key="live", value=1, now=now, expires_at=now + MINUTE)
    lti_store.cache_set(session=db, key="stale", value=1, now=now, expires_at=now + MINUTE)
    assert lti_store.cache_take(session=db, key="live", now=now)
    assert not lti_store.cache_take(session=db, key="live", now=now)
    assert lti_store.cache_get(session=db, key="live", now=now) is None
    assert not lti_store.cache_take(session=db, key="stale", now=now + MINUTE)
    assert not lti_store.cache_take(session=db, key="missing", now=now)


# --- LMS users ---------------------------------------------------------------------------------


def test_an_lms_user_is_linked_to_one_account_per_platform(db: Session) -> None:
    first, second = _platform(db, client_id="c1"), _platform(db, client_id="c2")
    ada, bob, carol = _users(db, "ada", "bob", "carol")
    lti_store.link_user(session=db, platform=first, subject="s-ada", user=ada)
    lti_store.link_user(session=db, platform=second, subject="s-ada", user=bob)
    db.expire_all()
    assert lti_store.linked_user(session=db, platform=first, subject="s-ada") is ada
    assert lti_store.linked_user(session=db, platform=second, subject="s-ada") is bob
    assert lti_store.linked_user(session=db, platform=first, subject="s-bob") is None
    ids = [ada.id, bob.id, carol.id]
    assert lti_store.linked_user_ids(session=db, user_ids=ids) == {ada.id, bob.id}
    assert lti_store.linked_user_ids(session=db, user_ids=[carol.id]) == set()


def test_users_with_an_email_are_found_whatever_its_case_the_oldest_first(db: Session) -> None:
    ada, bob, ann, _ = _users(db, "ada", "bob", "ann", "nobody")
    for user, email in (
        (ada, "Ada@Example.org"),
        (bob, "bob@example.org"),
        (ann, "ada@example.org"),
    ):
        account_store.set_profile(
            session=db, user=user, display_name=None, email=email, section=None
        )
    assert lti_store.users_with_email(session=db, email=" ADA@example.ORG ") == [ada, ann]
    assert lti_store.users_with_email(session=db, email="carol@example.org") == []


def test_an_email_is_matched_whatever_the_case_of_its_accented_letters(db: Session) -> None:
    # SQLite's lower() folds ASCII letters only: compared there, an LMS user's "Éva@…" missed
    # the roster's "éva@…", and app.services.lti.accounts made a second account for her.
    (eva,) = _users(db, "eva")
    account_store.set_profile(
        session=db, user=eva, display_name=None, email="Éva@example.org", section=None
    )
    assert lti_store.users_with_email(session=db, email="éva@example.org") == [eva]
    assert lti_store.users_with_email(session=db, email=" ÉVA@EXAMPLE.ORG") == [eva]


@pytest.mark.parametrize(
    ("stored", "asked"),
    [
        ("strasse@example.org", "straße@example.org"),
        ("eva@example.org", "ｅｖａ@example.org"),  # full-width letters
        ("eva@example.org", "éva@example.org"),
        # A sign or a capital that lower-cases to an ASCII letter: the Kelvin sign is "k"
        # and "İ" is "i" plus a dot in Python's lower case, and neither is the ASCII letter.
        ("kate@example.org", "\u212aate@example.org"),
        ("\u212aate@example.org", "kate@example.org"),
        ("ilker@example.org", "\u0130lker@example.org"),
    ],
)
def test_an_email_that_only_folds_or_normalises_to_anothers_is_not_theirs(
    db: Session, stored: str, asked: str
) -> None:
    # A match links an LMS user to the roster's account: two mailboxes are two people.
    (owner,) = _users(db, "owner")
    account_store.set_profile(session=db, user=owner, display_name=None, email=stored, section=None)
    assert lti_store.users_with_email(session=db, email=asked) == []


def test_used_accounts_are_those_with_a_password_submission_token_used_link_or_lms_link(
    db: Session,
) -> None:
    platform = _platform(db)
    names = ("password", "submitted", "revoked", "signed_up", "mailed", "linked", "idle", "other")
    users = dict(zip(names, _users(db, *names), strict=True))
    account_store.set_password(session=db, user=users["password"], password="s3cret!")
    add_submission(db, users["submitted"])
    account_store.create_token(session=db, user=users["revoked"])
    account_store.revoke_tokens(session=db, user=users["revoked"])
    for name in ("signed_up", "mailed"):
        account_store.replace_signup_link(
            session=db, user=users[name], expires_at=utcnow() + MINUTE
        )
    link = account_store.signup_links(session=db, user_ids=[users["signed_up"].id])
    account_store.claim_signup_link(session=db, link=link[users["signed_up"].id], now=utcnow())
    lti_store.link_user(session=db, platform=platform, subject="s", user=users["linked"])
    add_submission(db, users["other"])  # used, but not asked about
    asked = [users[n].id for n in names if n != "other"]
    used = lti_store.used_user_ids(session=db, user_ids=asked)
    assert used == {
        users[n].id for n in ("password", "submitted", "revoked", "signed_up", "linked")
    }


# --- grade links and passbacks -----------------------------------------------------------------


def _save_link(
    db: Session,
    platform: LtiPlatform,
    user: User,
    *,
    resource: str = "r1",
    target: str = "gru-step",
    minutes_ago: int = 0,
) -> LtiGradeLink:
    return lti_store.save_grade_link(
        session=db,
        platform=platform,
        resource_link_id=resource,
        user=user,
        subject=f"s-{user.name}",
        scope=WorkScope.EXERCISE,
        target=target,
        lineitem=f"https://lms.example/items/{resource}",
        lineitems="https://lms.example/items",
        scopes=["score"],
        now=utcnow() - timedelta(minutes=minutes_ago),
    )


def test_saving_a_launchs_grade_link_again_updates_it_and_keeps_its_passback_state(
    db: Session,
) -> None:
    platform = _platform(db)
    ada, bob = _users(db, "ada", "bob")
    link = _save_link(db, platform, ada, target="gru-step", minutes_ago=5)
    first_update = link.updated_at
    link.state, link.score_given = PassbackState.SENT, 3.0
    again = _save_link(db, platform, ada, target="gru-update-gate")
    db.expire_all()
    assert again.id == link.id
    stored = lti_store.get_grade_link(session=db, link_id=link.id)
    assert stored is not None
    assert (stored.target, stored.state, stored.score_given) == (
        "gru-update-gate",
        PassbackState.SENT,
        3.0,
    )
    assert stored.updated_at > first_update
    found = lti_store.find_grade_link(
        session=db, platform=platform, resource_link_id="r1", user=ada
    )
    assert found is stored
    for resource, user in (("r2", ada), ("r1", bob)):
        assert (
            lti_store.find_grade_link(
                session=db, platform=platform, resource_link_id=resource, user=user
            )
            is None
        )
    assert lti_store.get_grade_link(session=db, link_id=link.id + 1000) is None


def test_grade_links_are_listed_the_latest_changed_first_and_filtered_by_state(
    db: Session,
) -> None:
    platform = _platform(db)
    ada, bob, carol, dan = _users(db, "ada", "bob", "carol", "dan")
    links = {
        user.name: _save_link(db, platform, user, minutes_ago=minutes)
        for user, minutes in ((ada, 10), (bob, 1), (carol, 30), (dan, 0))
    }
    # Changed at the same time as bob's: the later made comes first.
    links["dan"].updated_at = links["bob"].updated_at
    links["carol"].state = PassbackState.FAILED
    db.flush()
    every = lti_store.list_grade_links(session=db)
    assert [link.user.name for link in every] == ["dan", "bob", "ada", "carol"]
    failed = lti_store.list_grade_links(session=db, state=PassbackState.FAILED)
    assert [link.user.name for link in failed] == ["carol"]


def test_passback_attempts_are_listed_per_link_in_the_order_made(db: Session) -> None:
    platform = _platform(db)
    ada, bob = _users(db, "ada", "bob")
    first, other = _save_link(db, platform, ada), _save_link(db, platform, bob)
    now = utcnow()
    for link, sent, error in ((first, False, "timeout"), (other, True, ""), (first, True, "")):
        lti_store.add_attempt(
            session=db,
            link=link,
            sent=sent,
            score_given=4.0,
            score_maximum=10.0,
            error=error,
            now=now,
        )
    attempts = lti_store.attempts_of(session=db, link_id=first.id)
    assert [(a.sent, a.error, a.score_given, a.score_maximum, a.at) for a in attempts] == [
        (False, "timeout", 4.0, 10.0, now),
        (True, "", 4.0, 10.0, now),
    ]
    assert lti_store.attempts_of(session=db, link_id=first.id + other.id + 1000) == []


# --- contexts and enrolments -------------------------------------------------------------------


def _context(
    db: Session, platform: LtiPlatform, context_id: str = "course", url: str = ""
) -> LtiContext:
    return lti_store.save_context(
        session=db,
        platform=platform,
        context_id=context_id,
        title=f"{context_id} title",
        label=f"{context_id} label",
        memberships_url=url,
    )


def _enrol(db: Session, now: datetime, *members: tuple[LtiContext, User, EnrolmentState]) -> None:
    for context, user, state in members:
        lti_store.set_enrolment(session=db, context=context, user=user, state=state, now=now)


def test_saving_a_context_again_updates_it_and_keeps_its_memberships_url(db: Session) -> None:
    platform = _platform(db)
    first = _context(db, platform, url="https://lms.example/members")
    lti_store.save_context(
        session=db,
        platform=platform,
        context_id="course",
        title="Renamed",
        label="R",
        memberships_url="",
    )
    db.expire_all()
    stored = lti_store.get_context(session=db, context_id=first.id)
    assert stored is not None
    assert (stored.title, stored.label, stored.memberships_url) == (
        "Renamed",
        "R",
        "https://lms.example/members",
    )
    other = _context(db, platform, "another")
    assert lti_store.list_contexts(session=db) == [stored, other]
    assert lti_store.get_context(session=db, context_id=first.id + other.id + 1000) is None


def test_a_contexts_section_and_sync_outcome_are_stored(db: Session) -> None:
    platform = _platform(db)
    context = _context(db, platform)
    lti_store.set_context_section(session=db, context=context, section="B")
    now = utcnow()
    lti_store.record_sync(session=db, context=context, at=now, counts=(1, 2, 3, 4))
    db.expire_all()
    assert (context.section, context.synced_at, context.sync_state, context.sync_error) == (
        "B",
        now,
        SyncState.SUCCEEDED,
        "",
    )
    counts = (
        context.sync_added,
        context.sync_updated,
        context.sync_unchanged,
        context.sync_dropped,
    )
    assert counts == (1, 2, 3, 4)
    lti_store.record_sync(session=db, context=context, at=now + MINUTE, error="403 Forbidden")
    lti_store.set_context_section(session=db, context=context, section=None)
    db.expire_all()
    assert (context.section, context.sync_state, context.sync_error, context.sync_added) == (
        None,
        SyncState.FAILED,
        "403 Forbidden",
        0,
    )


def test_an_enrolment_says_its_earlier_state_and_moves_its_time_only_on_a_change(
    db: Session,
) -> None:
    context = _context(db, _platform(db))
    (ada,) = _users(db, "ada")
    now = utcnow()

    def enrol(state: EnrolmentState, at: timedelta) -> EnrolmentState | None:
        return lti_store.set_enrolment(
            session=db, context=context, user=ada, state=state, now=now + at
        )

    assert enrol(ACTIVE, timedelta()) is None
    assert enrol(ACTIVE, MINUTE) is ACTIVE
    assert enrol(DROPPED, 2 * MINUTE) is ACTIVE
    assert enrol(DROPPED, 3 * MINUTE) is DROPPED
    db.expire_all()
    assert lti_store.enrolled_users(session=db, context=context, state=DROPPED) == [ada]
    # Moved when ada was dropped, not by the launches that found her state unchanged.
    assert db.scalars(select(LtiEnrolment.changed_at)).one() == now + 2 * MINUTE


def test_members_left_out_of_a_roster_are_dropped_in_that_context_only(db: Session) -> None:
    platform = _platform(db)
    course, other = _context(db, platform), _context(db, platform, "other")
    ada, bob, carol, dan = _users(db, "ada", "bob", "carol", "dan")
    now = utcnow()
    _enrol(
        db,
        now,
        (course, ada, ACTIVE),
        (course, bob, ACTIVE),
        (course, carol, ACTIVE),
        (course, dan, DROPPED),
        (other, bob, ACTIVE),
    )
    dropped = lti_store.drop_others(
        session=db, context=course, kept_user_ids={ada.id}, now=now + MINUTE
    )
    assert {u.name for u in dropped} == {"bob", "carol"}  # dan was dropped before
    db.expire_all()
    assert lti_store.enrolled_users(session=db, context=course, state=ACTIVE) == [ada]
    assert lti_store.enrolled_users(session=db, context=other, state=ACTIVE) == [bob]


def test_enrolled_users_come_in_name_order_and_are_counted_per_context_and_state(
    db: Session,
) -> None:
    platform = _platform(db)
    course, other = _context(db, platform), _context(db, platform, "other")
    # Made out of name order, so that neither insertion nor id order gives the answer.
    zoe, ada, mia, ben = _users(db, "zoe", "ada", "mia", "ben")
    _enrol(
        db,
        utcnow(),
        (course, zoe, ACTIVE),
        (course, mia, ACTIVE),
        (course, ada, ACTIVE),
        (course, ben, DROPPED),
        (other, zoe, DROPPED),
    )
    names = [u.name for u in lti_store.enrolled_users(session=db, context=course, state=ACTIVE)]
    assert names == ["ada", "mia", "zoe"]
    assert lti_store.enrolment_counts(session=db) == {
        (course.id, ACTIVE): 3,
        (course.id, DROPPED): 1,
        (other.id, DROPPED): 1,
    }
