"""Accepting a submission over HTTP and long-polling its result; result views."""

from __future__ import annotations

import asyncio
import contextlib
import time

from fastapi import HTTPException, status
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app import crud
from app.models import Submission, SubmissionKind, User, new_id
from app.schemas import SubmissionOut, SubmissionSummary, TestResultOut
from app.services import grading
from app.services.auth import Credentials, resolve_user
from app.services.exercises import load_visible
from app.services.grading import GradingRuntime
from app.services.waiters import Waiter


def submission_url(submission_id: str) -> str:
    return f"/submissions/{submission_id}"


def to_out(submission: Submission, user_name: str | None = None) -> SubmissionOut:
    """The contract's result view (without ``user_name``, call with the row's session open:
    it reads the user)."""
    return SubmissionOut(
        id=submission.id, url=submission_url(submission.id), exercise=submission.exercise_id,
        exercise_version=submission.exercise_version,
        user=user_name if user_name is not None else submission.user.name,
        kind=submission.kind.value, status=submission.status.value,
        verdict=submission.verdict.value if submission.verdict else None,
        score=submission.score, max_score=submission.max_score, message=submission.message,
        tests=[TestResultOut.model_validate(t) for t in submission.tests or []],
        output=submission.output, created_at=submission.created_at,
        started_at=submission.started_at, finished_at=submission.finished_at,
        duration_ms=submission.duration_ms, attempts=submission.attempts,
    )


def to_summary(submission: Submission) -> SubmissionSummary:
    return SubmissionSummary(
        id=submission.id, url=submission_url(submission.id), exercise=submission.exercise_id,
        kind=submission.kind.value, status=submission.status.value,
        verdict=submission.verdict.value if submission.verdict else None,
        score=submission.score, max_score=submission.max_score,
        created_at=submission.created_at, finished_at=submission.finished_at)


def check_code(code: str, max_bytes: int) -> None:
    size = len(code.encode("utf-8"))
    if size > max_bytes:
        raise HTTPException(status.HTTP_413_CONTENT_TOO_LARGE,
                            detail=f"Code is {size} bytes; the limit is {max_bytes} bytes")
    if not code.strip():
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, detail="Code is empty")


def accept(*, runtime: GradingRuntime, credentials: Credentials, exercise_id: str, code: str,
           kind: SubmissionKind, submission_id: str | None = None) -> SubmissionOut:
    """Authenticate, validate, store and enqueue (blocking: call from a worker thread)."""
    with runtime.sessions() as session:
        user = resolve_user(session=session, credentials=credentials)
        assert user is not None
        return _accept(runtime=runtime, session=session, user=user, exercise_id=exercise_id,
                       code=code, kind=kind, submission_id=submission_id)


def _accept(*, runtime: GradingRuntime, session: Session, user: User, exercise_id: str,
            code: str, kind: SubmissionKind, submission_id: str | None) -> SubmissionOut:
    check_code(code, runtime.settings.max_code_bytes)
    # ExerciseNotFound -> 404 (app/main.py), for drafts and unopened assignments too
    exercise = load_visible(runtime.catalog, exercise_id, user)
    submission = grading.submit(runtime=runtime, session=session, user=user, exercise=exercise,
                                code=code, kind=kind, submission_id=submission_id)
    return to_out(submission)


def load_out(runtime: GradingRuntime, submission_id: str) -> SubmissionOut:
    with runtime.sessions() as session:
        submission = crud.get_submission(session=session, submission_id=submission_id,
                                         with_user=True)
        if submission is None:
            raise HTTPException(status.HTTP_404_NOT_FOUND,
                                detail=f"Submission {submission_id!r} not found")
        return to_out(submission)


async def wait_for_result(runtime: GradingRuntime, result: SubmissionOut, wait_s: float,
                          waiter: Waiter) -> SubmissionOut:
    """Hold until the result is final or ``wait_s`` passed, without holding a thread.

    A grader in this process hands over the finished row with the wake-up; graders
    elsewhere are seen by a database poll every ``wait_poll_s``.
    """
    deadline = time.monotonic() + min(wait_s, runtime.settings.max_wait_s)
    while result.status != "done":
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(waiter.event.wait(),
                                   timeout=min(remaining, runtime.settings.wait_poll_s))
        if waiter.result is not None:  # the grader's detached row, without its user
            return to_out(waiter.result, user_name=result.user)
        waiter.event.clear()
        result = await run_in_threadpool(load_out, runtime, result.id)
    return result


async def accept_and_wait(*, runtime: GradingRuntime, credentials: Credentials, exercise_id: str,
                          code: str, kind: SubmissionKind, wait_s: float) -> SubmissionOut:
    """Accept, then long-poll; the waiter is registered before the grading can finish."""
    submission_id = new_id()
    waiter = runtime.waiters.register(submission_id) if wait_s > 0 else None
    try:
        result = await run_in_threadpool(lambda: accept(
            runtime=runtime, credentials=credentials, exercise_id=exercise_id, code=code, kind=kind,
            submission_id=submission_id))
        if waiter is not None:
            result = await wait_for_result(runtime, result, wait_s, waiter)
    finally:
        if waiter is not None:
            runtime.waiters.unregister(submission_id, waiter)
    return result
