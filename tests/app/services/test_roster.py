"""Roster imports: every bad line reported, nothing half-imported; one-time sign-up links."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.config import Settings
from app.core.db import get_sessionmaker
from app.core.names import InvalidPassword
from app.core.security import hash_token, verify_password
from app.models import (
    Role,
    SignupLink,
    Submission,
    SubmissionKind,
    SubmissionStatus,
    User,
    utcnow,
)
from app.services import roster
from app.services.accounts import HashSlots
from app.services.roster import LinkState, LinkUsed, Problem
from app.services.standings.load import exercise_gradebook
from app.services.throttle import Throttled
from app.store import accounts as account_store
from tests.app.services.graded_rows import course_catalog

SETTINGS = Settings(database_url="sqlite://", queue_url="memory://")


def problems_of(session: Session, text: str) -> list[tuple[int, Problem]]:
    with pytest.raises(roster.RosterRejected) as rejected:
        roster.import_roster(session=session, text=text, link_days=14)
    return [(p.line, p.problem) for p in rejected.value.problems]


def user_count(session: Session) -> int:
    return session.scalar(select(func.count()).select_from(User)) or 0


def test_every_bad_line_is_reported_and_nothing_is_created(db: Session) -> None:
    account_store.create_user(session=db, name="Grace", role=Role.LEARNER)
    before = user_count(db)
    text = (
        "username,display_name,email,section\n"
        "ada,Ada Lovelace,ada@example.org,A\n"  # line 2: fine
        "a d a,Bad,,A\n"  # 3: outside the name rule
        "ADA,Ada again,,B\n"  # 4: ada once normalised
        "grace,Grace Hopper,,B\n"  # 5: taken (Grace)
        "alan,Alan Turing,alan-at-example,B\n"  # 6: malformed email
        "bob,Bob\n"  # 7: too few fields
        "ｃｙ,Cy,,A\n"
    )  # 8: fine (NFKC: cy)
    assert problems_of(db, text) == [
        (3, Problem.BAD_NAME),
        (4, Problem.DUPLICATE),
        (5, Problem.TAKEN),
        (6, Problem.BAD_EMAIL),
        (7, Problem.FIELD_COUNT),
    ]
    assert user_count(db) == before
    assert account_store.get_user_by_name(session=db, name="ada") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", [(1, Problem.EMPTY)]),
        ("username,section\n\n", [(1, Problem.NO_LEARNERS)]),
        ("name,section\nada,A\n", [(1, Problem.UNKNOWN_COLUMNS), (1, Problem.NO_USERNAME)]),
        ("username,section,section\nada,A,B\n", [(1, Problem.REPEATED_COLUMN)]),
        ("username,section\nada," + "x" * 33 + "\n", [(2, Problem.TOO_LONG)]),
    ],
)
def test_header_and_size_problems(text: str, expected: list[tuple[int, Problem]]) -> None:
    rows, problems = roster.parse_roster(text)
    assert rows == [] and [(p.line, p.problem) for p in problems] == expected


def test_messages_name_the_line() -> None:
    _, problems = roster.parse_roster("username\nada\nAda\n")
    assert [str(p) for p in problems] == ["line 3: 'Ada' is also on line 2"]


def test_import_creates_learners_without_passwords_and_with_links(db: Session) -> None:
    text = "\ufeffUsername,Section,Display_Name\nada,A,Ada Lovelace\nalan,B,\n"
    links = roster.import_roster(session=db, text=text, link_days=14)
    assert [(link.username, link.display_name) for link in links] == [
        ("ada", "Ada Lovelace"),
        ("alan", None),
    ]
    ada = account_store.get_user_by_name(session=db, name="ada")
    assert ada is not None and ada.password_hash is None and ada.role is Role.LEARNER
    assert (ada.display_name, ada.email, ada.section) == ("Ada Lovelace", None, "A")
    stored = db.scalars(select(SignupLink).where(SignupLink.user_id == ada.id)).one()
    assert stored.token_hash == hash_token(links[0].token)  # the token itself is not stored
    assert timedelta(days=13, hours=23) < stored.expires_at - utcnow() <= timedelta(days=14)
    assert links[0].url("https://nj.example/") == f"https://nj.example/join/{links[0].token}"
    csv_text = roster.links_csv(links, "https://nj.example")
    assert csv_text.splitlines() == [
        "username,display_name,link",
        f"ada,Ada Lovelace,https://nj.example/join/{links[0].token}",
        f"alan,,https://nj.example/join/{links[1].token}",
    ]
    assert account_store.list_sections(session=db) == ["A", "B"]
    assert [e.user.name for e in roster.roster(session=db, section="B")] == ["alan"]


def test_join_sets_the_password_once_and_a_new_link_revokes_the_old(committed_db: Session) -> None:
    [first] = roster.import_roster(session=committed_db, text="username\nada\n", link_days=14)
    ada = account_store.get_user_by_name(session=committed_db, name="ada")
    assert ada is not None
    second = roster.issue_link(session=committed_db, user=ada, days=14)
    assert roster.find_link(session=committed_db, token=first.token)[1] is LinkState.UNKNOWN
    link, state = roster.find_link(session=committed_db, token=second.token)
    assert state is LinkState.VALID and link is not None
    slots = HashSlots(1)
    with pytest.raises(InvalidPassword):
        roster.join(
            session=committed_db,
            settings=SETTINGS,
            slots=slots,
            address="198.51.100.1",
            link=link,
            password="short",
        )
    assert roster.find_link(session=committed_db, token=second.token)[1] is LinkState.VALID
    joined = roster.join(
        session=committed_db,
        settings=SETTINGS,
        slots=slots,
        address="198.51.100.1",
        link=link,
        password="a long enough password",
    )
    assert joined.password_hash is not None
    assert verify_password(joined.password_hash, "a long enough password")
    assert roster.find_link(session=committed_db, token=second.token)[1] is LinkState.USED
    assert [(e.user.name, e.joined, e.link) for e in roster.roster(session=committed_db)] == [
        ("ada", True, LinkState.USED)
    ]


def test_a_link_two_requests_found_valid_at_once_is_used_by_one(
    committed_db: Session, database_url: str
) -> None:
    """Two requests holding one link (its learner and whoever else read it) both found it
    valid before either had set a password: both set one and both were signed in."""
    [issued] = roster.import_roster(session=committed_db, text="username\nada\n", link_days=14)
    committed_db.commit()
    with get_sessionmaker(database_url)() as other:
        mine, _ = roster.find_link(session=committed_db, token=issued.token)
        theirs, state = roster.find_link(session=other, token=issued.token)
        assert mine is not None and theirs is not None and state is LinkState.VALID
        other.commit()  # their request goes on to the hash, as the page's POST does
        roster.join(
            session=committed_db,
            settings=SETTINGS,
            slots=HashSlots(1),
            address="198.51.100.1",
            link=mine,
            password="the learner's password",
        )
        committed_db.commit()
        with pytest.raises(LinkUsed):
            roster.join(
                session=other,
                settings=SETTINGS,
                slots=HashSlots(1),
                address="198.51.100.2",
                link=theirs,
                password="someone else's password",
            )
    ada = account_store.get_user_by_name(session=committed_db, name="ada")
    committed_db.refresh(ada)
    assert ada is not None and ada.password_hash is not None
    assert verify_password(ada.password_hash, "the learner's password")


def test_an_expired_link_is_expired(db: Session) -> None:
    [issued] = roster.import_roster(session=db, text="username\nada\n", link_days=1)
    link, _ = roster.find_link(session=db, token=issued.token)
    assert link is not None
    assert roster.link_state(link, utcnow() + timedelta(days=1, seconds=1)) is LinkState.EXPIRED
    assert roster.link_state(link, utcnow() + timedelta(hours=23)) is LinkState.VALID


def test_joining_counts_against_the_sign_up_throttle(committed_db: Session) -> None:
    links = roster.import_roster(session=committed_db, text="username\nada\nalan\n", link_days=14)
    settings = SETTINGS.model_copy(update={"signup_limit": 1})
    address = "203.0.113.77"
    first, _ = roster.find_link(session=committed_db, token=links[0].token)
    second, _ = roster.find_link(session=committed_db, token=links[1].token)
    assert first is not None and second is not None
    roster.join(
        session=committed_db,
        settings=settings,
        slots=HashSlots(1),
        address=address,
        link=first,
        password="a long enough password",
    )
    with pytest.raises(Throttled):
        roster.join(
            session=committed_db,
            settings=settings,
            slots=HashSlots(1),
            address=address,
            link=second,
            password="a long enough password",
        )
    assert second.used_at is None and second.user.password_hash is None


def test_sections_filter_the_gradebook(db: Session, tmp_path: Path) -> None:
    roster.import_roster(session=db, text="username,section\nada,A\nalan,B\ncy,\n", link_days=14)
    for name, score in (("ada", 3.0), ("alan", 4.0), ("cy", 1.0)):
        user = account_store.get_user_by_name(session=db, name=name)
        assert user is not None
        db.add(
            Submission(
                user_id=user.id,
                exercise_id="e",
                exercise_version="v",
                code="",
                kind=SubmissionKind.SUBMIT,
                status=SubmissionStatus.DONE,
                score=score,
                max_score=4.0,
            )
        )
    db.flush()
    catalog = course_catalog(tmp_path)

    def gradebook(section: str | None) -> list[tuple[str, float]]:
        rows = exercise_gradebook(session=db, catalog=catalog, exercise_ids=["e"], section=section)
        return [(r.name, r.total) for r in rows]

    assert gradebook("A") == [("ada", 3.0)]
    assert gradebook("B") == [("alan", 4.0)]
    assert {name for name, _ in gradebook(None)} >= {"ada", "alan", "cy"}


def test_roster_actions_follow_the_learners_state(db: Session) -> None:
    (link,) = roster.import_roster(session=db, text="username\nada\n", link_days=14)
    ada = account_store.get_user_by_name(session=db, name="ada")
    assert ada is not None
    assert roster.actions_for(ada) == (roster.RosterAction.NEW_LINK, roster.RosterAction.DISABLE)
    with pytest.raises(roster.ActionRefused):
        roster.act(session=db, user=ada, action=roster.RosterAction.RESET_PASSWORD, days=14)

    newer = roster.act(session=db, user=ada, action=roster.RosterAction.NEW_LINK, days=14)
    assert newer is not None and newer.token != link.token
    assert roster.find_link(session=db, token=link.token)[1] is LinkState.UNKNOWN
    assert roster.find_link(session=db, token=newer.token)[1] is LinkState.VALID

    account_store.set_password(session=db, user=ada, password="ada's password")
    assert roster.actions_for(ada)[0] is roster.RosterAction.RESET_PASSWORD
    reset = roster.act(session=db, user=ada, action=roster.RosterAction.RESET_PASSWORD, days=14)
    assert reset is not None and ada.password_hash is None
    assert roster.find_link(session=db, token=reset.token)[1] is LinkState.VALID

    assert roster.act(session=db, user=ada, action=roster.RosterAction.DISABLE, days=14) is None
    assert ada.disabled_at is not None
    assert roster.actions_for(ada) == (roster.RosterAction.ENABLE,)
    assert roster.find_link(session=db, token=reset.token)[1] is LinkState.DISABLED
    with pytest.raises(roster.ActionRefused):
        roster.act(session=db, user=ada, action=roster.RosterAction.NEW_LINK, days=14)
    roster.act(session=db, user=ada, action=roster.RosterAction.ENABLE, days=14)
    assert ada.is_active
    assert roster.find_link(session=db, token=reset.token)[1] is LinkState.VALID


def test_roster_actions_reach_learners_only(db: Session) -> None:
    account_store.create_user(session=db, name="teacher", role=Role.INSTRUCTOR)
    account_store.create_user(session=db, name="ada")
    assert roster.find_learner(session=db, name="teacher") is None
    assert roster.find_learner(session=db, name="nobody") is None
    learner = roster.find_learner(session=db, name="ADA")
    assert learner is not None and learner.name == "ada"
