"""A result reaches a learner at its release, a boundary of the ladder, and shows the
boundary's times (app/services/release.py, docs/security.md): rows stored with a release time,
read through the API, the pages, the scores and the long-poll's wake-up."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import update

from app.models import Submission, SubmissionKind, SubmissionStatus, User, utcnow
from app.runtime import rungs
from app.runtime.context import GradingRuntime
from app.runtime.waiters import ResultWaiters
from app.services import release
from app.services.views import submission_out
from app.store import accounts as account_store
from app.store import regrades as regrade_store
from app.store import submissions as submission_store
from graders.results import Verdict
from tests.app.web.helpers import sign_up

EXERCISE = "gru-update-gate"
MakeUser = Callable[..., tuple[User, dict[str, str]]]
BACKSTOP = timedelta(seconds=11)  # a 5 s exercise's wall-clock backstop


def graded(runtime: GradingRuntime, user_id: int, created: datetime, finished: datetime) -> str:
    """A graded row, as a worker stores it: exact times and the release they give."""
    with runtime.sessions() as session:
        row = Submission(
            user_id=user_id,
            exercise_id=EXERCISE,
            exercise_version="v",
            code="def f(): pass",
            kind=SubmissionKind.SUBMIT,
            status=SubmissionStatus.DONE,
            verdict=Verdict.PASSED,
            score=26.0,
            max_score=26.0,
            tests=[],
            attempts=1,
            duration_ms=40,
            created_at=created,
            started_at=created + timedelta(milliseconds=20),
            finished_at=finished,
            released_at=release.release_at(created, finished, BACKSTOP),
        )
        session.add(row)
        session.commit()
        return row.id


def test_the_ladder_doubles_from_acceptance_up_to_the_backstop_then_steps_by_its_top() -> None:
    created = utcnow()
    at = [
        release.release_at(created, created + timedelta(milliseconds=ms), BACKSTOP) - created
        for ms in (-5, 0, 100, 101, 399, 401, 3000, 12_800, 20_000, 30_000)
    ]
    # A long queue (30 s) waits at most one top step (12.8 s) more, not as long again.
    assert [a / timedelta(milliseconds=1) for a in at] == [
        100,
        100,
        100,
        200,
        400,
        800,
        3200,
        12_800,
        25_600,
        38_400,
    ]
    assert release.boundaries_within(BACKSTOP) == 8  # 0.1 s to 12.8 s
    every = [
        b / timedelta(milliseconds=1) for b in itertools.islice(release.boundaries(BACKSTOP), 10)
    ]
    assert every == [100, 200, 400, 800, 1600, 3200, 6400, 12_800, 25_600, 38_400]
    assert release.leak_bound_bits(BACKSTOP) == 3.0


@pytest.mark.parametrize("first", rungs.FIRST_RUNGS)
def test_a_grading_done_before_the_first_rung_is_released_on_it(first: timedelta) -> None:
    created = utcnow()
    for done in (-first, timedelta(0), first / 3, first):
        assert release.release_at(created, created + done, BACKSTOP, first) == created + first


@pytest.mark.parametrize("first", rungs.FIRST_RUNGS)
def test_a_slower_grading_climbs_within_the_same_bound(first: timedelta) -> None:
    """From any first rung the ladder reaches the backstop within 8 boundaries (3 bits), each
    at least twice the one before, so a climbing result waits at most the ratio's time."""
    created = utcnow()
    ladder = list(itertools.islice(release.boundaries(BACKSTOP, first), 12))
    assert ladder[0] == first
    assert release.boundaries_within(BACKSTOP, first) <= release.RUNGS
    assert release.leak_bound_bits(BACKSTOP, first) <= 3.0
    top = ladder[release.boundaries_within(BACKSTOP, first) - 1]
    assert top >= BACKSTOP
    for lower, upper in itertools.pairwise(ladder):
        assert upper >= 2 * lower - timedelta(microseconds=1) or upper - lower == top
        # Just past a boundary, a result climbs to the next one.
        just_after = created + lower + timedelta(microseconds=1)
        assert release.release_at(created, just_after, BACKSTOP, first) == created + upper


@given(
    first=st.sampled_from(rungs.FIRST_RUNGS),
    graded_ms=st.floats(min_value=0, max_value=200_000),
    limit_s=st.sampled_from([1, 2, 5, 10]),
)
def test_a_result_is_never_released_before_it_was_graded(
    first: timedelta, graded_ms: float, limit_s: int
) -> None:
    created = datetime(2026, 12, 5)
    longest = timedelta(seconds=2 * limit_s + 1)
    finished = created + timedelta(milliseconds=graded_ms)
    released = release.release_at(created, finished, longest, first)
    assert released >= finished
    assert released - created in set(itertools.islice(release.boundaries(longest, first), 400))
    assert release.boundaries_within(longest, first) <= release.RUNGS


def test_the_first_rung_is_the_smallest_of_a_fixed_set_covering_the_measure() -> None:
    ms = timedelta(milliseconds=1)
    assert len(rungs.FIRST_RUNGS) == 16  # which one an exercise has: 4 bits, once per version
    assert rungs.first_rung(3 * ms) == rungs.FIRST_RUNGS[-1]
    assert rungs.first_rung(12 * ms) == rungs.FIRST_STEP / 8  # 12.5 ms, the first above it
    assert rungs.first_rung(80 * ms) == rungs.FIRST_STEP / 2**0.25  # 84.1 ms: a quarter octave
    assert rungs.first_rung(90 * ms) == rungs.FIRST_STEP
    assert rungs.first_rung(400 * ms) == rungs.FIRST_STEP  # slower than every rung: the old step


def test_an_unreleased_result_is_waiting_wherever_a_learner_looks(
    client: TestClient, make_user: MakeUser, runtime: GradingRuntime
) -> None:
    user, headers = make_user("ada")
    created = utcnow()
    # Finished just now, released an hour later: long enough that no read below is late.
    submission_id = graded(runtime, user.id, created, created + timedelta(minutes=40))

    one = client.get(f"/submissions/{submission_id}", headers=headers).json()
    assert (one["status"], one["verdict"], one["score"], one["tests"]) == ("queued", None, None, [])
    assert (one["started_at"], one["finished_at"], one["duration_ms"], one["attempts"]) == (
        None,
        None,
        None,
        0,
    )
    listed = client.get("/submissions", headers=headers).json()
    assert [(s["id"], s["status"], s["score"]) for s in listed] == [(submission_id, "queued", None)]
    with runtime.sessions() as session:
        assert (
            submission_store.graded_attempts(
                session=session, exercise_ids=[EXERCISE], user_id=user.id
            )
            == []
        )


def test_a_released_result_shows_its_boundary_instead_of_its_times(
    client: TestClient, make_user: MakeUser, runtime: GradingRuntime
) -> None:
    user, headers = make_user("ada")
    created = utcnow() - timedelta(minutes=1)
    submission_id = graded(runtime, user.id, created, created + timedelta(milliseconds=730))

    one = client.get(f"/submissions/{submission_id}", headers=headers).json()
    assert (one["status"], one["verdict"], one["score"]) == ("done", "passed", 26.0)
    started, finished = (datetime.fromisoformat(one[k]) for k in ("started_at", "finished_at"))
    assert started == created
    assert finished - started == timedelta(milliseconds=800)
    assert one["duration_ms"] == 40  # the report's: it stops before the first hidden case
    with runtime.sessions() as session:
        assert [
            a.score
            for a in submission_store.graded_attempts(session=session, exercise_ids=[EXERCISE])
        ] == [26.0]
        row = submission_store.get_submission(
            session=session, submission_id=submission_id, with_user=True
        )
        assert row is not None
        exact = submission_out(row, exact=True)
    assert exact.started_at == created + timedelta(milliseconds=20)  # the row's, exact
    assert exact.finished_at == created + timedelta(milliseconds=730)


def test_the_pages_show_an_unreleased_result_as_waiting(
    client: TestClient, runtime: GradingRuntime
) -> None:
    sign_up(client, "grace")
    with runtime.sessions() as session:
        learner = account_store.get_user_by_name(session=session, name="grace")
        assert learner is not None
        learner_id = learner.id
    created = utcnow()
    submission_id = graded(runtime, learner_id, created, created + timedelta(minutes=40))

    page = client.get(f"/history/{submission_id}").text
    assert "Reload the page in a moment" in page
    assert "26 / 26" not in page
    history = client.get("/history").text
    assert f"/history/{submission_id}" in history
    assert 'class="badge queued"' in history


def times(answer: dict[str, str]) -> tuple[datetime, datetime]:
    return datetime.fromisoformat(answer["started_at"]), datetime.fromisoformat(
        answer["finished_at"]
    )


def regrade_claimed(runtime: GradingRuntime, submission_id: str) -> datetime:
    """Queue the row's regrade and claim it, as the store and a worker do; the claim's time."""
    with runtime.sessions() as session:
        now = utcnow()
        assert regrade_store.queue_regrades(
            session=session, exercise_id=EXERCISE, version="w", now=now, lease_expires_at=now
        ) == [submission_id]
        session.execute(
            update(Submission)
            .where(Submission.id == submission_id)
            .values(status=SubmissionStatus.RUNNING, attempts=1, started_at=now)
        )
        session.commit()
        return now


def test_a_running_regrade_reads_as_queued_with_its_earlier_result(
    client: TestClient, make_user: MakeUser, runtime: GradingRuntime
) -> None:
    """That it started running, or its attempt, would tell when the previous regrade ended."""
    user, headers = make_user("ada")
    created = utcnow() - timedelta(minutes=1)
    submission_id = graded(runtime, user.id, created, created + timedelta(milliseconds=730))
    regrade_claimed(runtime, submission_id)

    one = client.get(f"/submissions/{submission_id}", headers=headers).json()
    assert (one["status"], one["verdict"], one["score"], one["attempts"]) == (
        "queued",
        "passed",
        26.0,
        0,
    )
    assert times(one) == (created, created + timedelta(milliseconds=800))
    listed = client.get("/submissions", headers=headers).json()
    assert [(s["status"], s["score"]) for s in listed] == [("queued", 26.0)]


def test_a_regrade_of_a_result_older_than_release_times_shows_its_first_times(
    client: TestClient, make_user: MakeUser, runtime: GradingRuntime
) -> None:
    """Shown as stored, its times would become the regrade's: when it ran, and how long."""
    user, headers = make_user("ada")
    created = utcnow() - timedelta(minutes=1)
    finished = created + timedelta(milliseconds=730)
    submission_id = graded(runtime, user.id, created, finished)
    with runtime.sessions() as session:
        session.execute(
            update(Submission).where(Submission.id == submission_id).values(released_at=None)
        )
        session.commit()
    regrade_claimed(runtime, submission_id)

    one = client.get(f"/submissions/{submission_id}", headers=headers).json()
    assert times(one) == (created, finished)


def test_a_waiter_is_woken_at_the_release_not_before() -> None:
    async def scenario() -> tuple[bool, bool]:
        waiters = ResultWaiters()
        later, now = waiters.register("later"), waiters.register("now")
        waiters.notify("later", at=utcnow() + timedelta(hours=1))
        waiters.notify("now", at=utcnow() - timedelta(seconds=1))
        await asyncio.wait_for(now.event.wait(), timeout=30)
        await asyncio.sleep(0)  # "later"'s timer was set first: it had its chance to fire
        return later.event.is_set(), now.event.is_set()

    assert asyncio.run(scenario()) == (False, True)
