"""Grade passback (LTI Assignment and Grade Services): the score the schedule counts, sent to
the LMS's gradebook.

A launch keeps what passback needs (``remember``): per platform, resource link and numjudge
user, the LMS user, the link's target (an exercise, ``/learn/<id>``, or an assignment,
``/course?assignment=<id>``) and the launch's AGS claim; a link opened for the first time after
the learner's work in its target was graded gets its score at once (``resend``, by the launch
page). After a grading or a regrade, and
when an extension changes a learner's due time, ``request`` marks the learner's links of that
work pending and sends one queue message per link, due when the score is released (the LMS
learns nothing before the learner's page shows it). The queue's handler (``run``) computes the
score the schedule counts now, gets an access token from the platform (connector.py) and posts
a Score to the line item's ``/scores`` (pylti1p3's ``AssignmentsGradesService``). A failure is
tried again later (``lti_passback_retry_s``, doubled each time) up to ``lti_passback_attempts``
times, then the link is marked failed with the reason (at once when no attempt could mend it:
no line item); every attempt is stored. Sending again is harmless: the score is the schedule's
current one and its timestamp the time of sending. When ``course.toml`` changes, ``reconcile``
sends again the scores the schedule now counts differently.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

from pylti1p3.assignments_grades import AssignmentsGradesService, TAssignmentsGradersData
from pylti1p3.exception import LtiServiceException
from pylti1p3.grade import Grade
from sqlalchemy.orm import Session

from app.models import (
    LtiGradeLink,
    LtiPassbackAttempt,
    LtiPlatform,
    PassbackState,
    User,
    WorkScope,
    utcnow,
)
from app.runtime.context import GradingRuntime
from app.runtime.queue import QueueUnavailable
from app.services.assignments import AssignmentNotFound
from app.services.errors import NotFound
from app.services.lti import scores
from app.services.lti.connector import SERVICE_ERRORS, connector, failure
from app.services.lti.scores import Score
from app.store import lti as lti_store
from graders.api import ExerciseCatalog, ExerciseError

logger = logging.getLogger(__name__)

AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
RESOURCE_LINK_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/resource_link"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
BUSY_DELAY = timedelta(seconds=5)
"""How long a passback waits when another one holds the process's slot."""
QUEUE_DOWN = "the task queue could not be reached: resend"


class PassbackFailed(Exception):
    """A score that could not be sent; the message says why."""


class NothingToSend(PassbackFailed):
    """A failure no later attempt can mend (no line item, no graded work, no such target)."""


# --- at launch ---------------------------------------------------------------------------------


def target_of(catalog: ExerciseCatalog, target_path: str) -> tuple[WorkScope, str] | None:
    """The gradable work a link opens: ``/learn/<exercise>`` or ``/course?assignment=<id>``."""
    parts = urlsplit(target_path)
    if parts.path.startswith("/learn/"):
        exercise_id = parts.path.removeprefix("/learn/").strip("/")
        return (WorkScope.EXERCISE, exercise_id) if exercise_id in catalog.ids() else None
    if parts.path == "/course":
        assignment_id = parse_qs(parts.query).get("assignment", [""])[-1]
        if catalog.schedule().assignment(assignment_id) is not None:
            return WorkScope.ASSIGNMENT, assignment_id
    return None


def remember(
    *,
    session: Session,
    catalog: ExerciseCatalog,
    platform: LtiPlatform,
    user: User,
    claims: dict[str, Any],
    target_path: str,
) -> LtiGradeLink | None:
    """Keep what passback needs of a launch whose link opens an exercise or an assignment and
    whose platform offers AGS with the score scope. A link opened for the first time after the
    learner's work in its target was graded is returned: its score is due now (no grading to
    come would send it); None otherwise."""
    endpoint = claims.get(AGS_CLAIM)
    link = claims.get(RESOURCE_LINK_CLAIM)
    target = target_of(catalog, target_path)
    if not isinstance(endpoint, dict) or not isinstance(link, dict) or target is None:
        return None
    scopes = [str(s) for s in endpoint.get("scope") or () if isinstance(s, str)]
    if SCORE_SCOPE not in scopes or not link.get("id"):
        return None
    resource_link_id = str(link["id"])[:255]
    first = (
        lti_store.find_grade_link(
            session=session, platform=platform, resource_link_id=resource_link_id, user=user
        )
        is None
    )
    saved = lti_store.save_grade_link(
        session=session,
        platform=platform,
        resource_link_id=resource_link_id,
        user=user,
        subject=str(claims["sub"]),
        scope=target[0],
        target=target[1],
        lineitem=str(endpoint.get("lineitem") or "")[:1024],
        lineitems=str(endpoint.get("lineitems") or "")[:1024],
        scopes=scopes,
        now=utcnow(),
    )
    due = first and scores.has_graded_work(session=session, catalog=catalog, link=saved)
    return saved if due else None


# --- asking for a passback ---------------------------------------------------------------------


def _covers(catalog: ExerciseCatalog, link: LtiGradeLink, exercise_ids: Sequence[str]) -> bool:
    if link.scope is WorkScope.EXERCISE:
        return link.target in exercise_ids
    assignment = catalog.schedule().assignment(link.target)
    return assignment is not None and bool(set(assignment.exercise_ids) & set(exercise_ids))


def request(
    runtime: GradingRuntime, *, user_id: int, exercise_ids: Sequence[str], at: datetime
) -> int:
    """Queue passbacks of ``user_id``'s links whose target holds one of ``exercise_ids``, due
    at ``at``; how many. Never raises: grading must not fail for the LMS's sake (a link whose
    message cannot be sent is marked failed, for an instructor to resend)."""
    try:
        with runtime.sessions() as session:
            links = [
                link
                for link in lti_store.grade_links_of_user(session=session, user_id=user_id)
                if _covers(runtime.catalog, link, exercise_ids)
            ]
            ids = _mark_pending(session, links)
    except Exception:
        logger.exception("lti.passback_not_requested", extra={"user_id": user_id})
        return 0
    for link_id in ids:
        _send(runtime, link_id, 1, at)
    return len(ids)


def _mark_pending(session: Session, links: Sequence[LtiGradeLink]) -> list[int]:
    if not links:  # most learners have none: no empty transaction per stored result
        return []
    for link in links:
        link.state, link.updated_at = PassbackState.PENDING, utcnow()
    session.commit()
    return [link.id for link in links]


def reconcile(runtime: GradingRuntime) -> int:
    """Send again every sent score the schedule now counts differently; how many. For a change
    of ``course.toml`` (a late policy, a due time, a weight): the recovery thread calls it
    when the file changed, and once at start-up (it may have changed while the service was
    down). Another process doing the same at once sends a score twice at worst: harmless."""
    with runtime.sessions() as session:
        changed = []
        for link in lti_store.list_grade_links(session=session, state=PassbackState.SENT):
            try:
                score = counted_score(session=session, catalog=runtime.catalog, link=link)
            except (PassbackFailed, AssignmentNotFound, ExerciseError):
                continue  # its next attempt says why; nothing to compare now
            if (score.given, score.maximum) != (link.score_given, link.score_maximum):
                changed.append(link)
        ids = _mark_pending(session, changed)
    for link_id in ids:
        _send(runtime, link_id, 1, utcnow())
    if ids:
        logger.info("lti.passback_reconciled", extra={"links": len(ids)})
    return len(ids)


def has_links(*, session: Session, user_id: int) -> bool:
    """Whether the user opened gradable work from an LMS (a passback could be due)."""
    return bool(lti_store.grade_links_of_user(session=session, user_id=user_id))


def _send(runtime: GradingRuntime, link_id: int, attempt: int, at: datetime) -> None:
    """Queue an attempt; if the queue is down, the link is marked failed (for a resend)."""
    try:
        runtime.queue.enqueue_passback(link_id, attempt, at)
    except QueueUnavailable as exc:
        logger.warning("lti.passback_unsent", extra={"link": link_id, "error": str(exc)[:200]})
        try:
            with runtime.sessions() as session:
                link = lti_store.get_grade_link(session=session, link_id=link_id)
                if link is not None:
                    link.state, link.error = PassbackState.FAILED, QUEUE_DOWN
                    link.updated_at = utcnow()
                    session.commit()
        except Exception:  # the database is down too: the link stays pending
            logger.exception("lti.passback_not_marked", extra={"link": link_id})


def resend(runtime: GradingRuntime, *, link_id: int) -> None:
    """Send a link's score again now, with a fresh round of attempts (``NotFound``)."""
    with runtime.sessions() as session:
        link = lti_store.get_grade_link(session=session, link_id=link_id)
        if link is None:
            raise NotFound(f"grade link {link_id} not found")
        link.state, link.updated_at = PassbackState.PENDING, utcnow()
        session.commit()
    _send(runtime, link_id, 1, utcnow())


def resend_failed(runtime: GradingRuntime) -> int:
    """Resend every failed link; how many."""
    with runtime.sessions() as session:
        ids = [
            link.id
            for link in lti_store.list_grade_links(session=session, state=PassbackState.FAILED)
        ]
    for link_id in ids:
        resend(runtime, link_id=link_id)
    return len(ids)


# --- the score the schedule counts ---------------------------------------------------------------


def counted_score(*, session: Session, catalog: ExerciseCatalog, link: LtiGradeLink) -> Score:
    """The link's learner's score in its target as the schedule counts it now (scores.py;
    ``NothingToSend`` before the first graded submission to a practice exercise)."""
    score = scores.counted(session=session, catalog=catalog, link=link)
    if score is None:
        raise NothingToSend("the learner has no graded submission to this exercise yet")
    return score


# --- sending -----------------------------------------------------------------------------------


def _post(session: Session, link: LtiGradeLink, score: Score, now: datetime) -> None:
    """Post ``score`` to the link's line item (``PassbackFailed``)."""
    if not link.lineitem:
        raise NothingToSend(
            "the LMS gave no line item for this link (only a line item container): "
            "numjudge sends scores to a link's own line item"
        )
    service_data = cast(
        TAssignmentsGradersData,
        {"scope": link.scopes, "lineitem": link.lineitem, "lineitems": link.lineitems},
    )
    grade = (
        Grade()
        .set_score_given(score.given)
        .set_score_maximum(score.maximum)
        .set_activity_progress(score.progress.value)
        .set_grading_progress(scores.GRADING_PROGRESS)
        .set_timestamp(now.isoformat(timespec="milliseconds"))
        .set_user_id(link.subject)
    )
    service = AssignmentsGradesService(connector(link.platform, session=session), service_data)
    try:
        service.put_grade(grade)
    except (LtiServiceException, *SERVICE_ERRORS) as exc:
        raise PassbackFailed(failure(exc)) from exc


def retry_delay(runtime: GradingRuntime, attempt: int) -> timedelta:
    return timedelta(seconds=runtime.settings.lti_passback_retry_s * 2 ** (attempt - 1))


def run(runtime: GradingRuntime, link_id: int, attempt: int) -> None:
    """The queue's passback handler: send the link's counted score, store the outcome, and
    queue the next attempt after a failure (until the last). While another passback of this
    process is waiting for its LMS, this one is put off (not counted as an attempt), so that
    a slow LMS holds one grading thread at most, never all of them."""
    if not runtime.passback_slot.acquire(blocking=False):
        _send(runtime, link_id, attempt, utcnow() + BUSY_DELAY)
        return
    try:
        _attempt(runtime, link_id, attempt)
    finally:
        runtime.passback_slot.release()


def _attempt(runtime: GradingRuntime, link_id: int, attempt: int) -> None:
    with runtime.sessions() as session:
        link = lti_store.get_grade_link(session=session, link_id=link_id)
        if link is None:
            return
        now = utcnow()
        score, error, final = Score(0.0, 0.0), "", False
        try:
            score = counted_score(session=session, catalog=runtime.catalog, link=link)
            _post(session, link, score, now)
        except (AssignmentNotFound, ExerciseError) as exc:
            error, final = f"the target is gone from the course: {exc}", True
        except PassbackFailed as exc:
            error, final = str(exc), isinstance(exc, NothingToSend)
        lti_store.add_attempt(
            session=session,
            link=link,
            sent=not error,
            score_given=score.given,
            score_maximum=score.maximum,
            error=error,
            now=now,
        )
        last = final or attempt >= runtime.settings.lti_passback_attempts
        if not error:
            link.state, link.error, link.sent_at = PassbackState.SENT, "", now
            link.score_given, link.score_maximum = score.given, score.maximum
        else:
            link.error = error
            link.state = PassbackState.FAILED if last else PassbackState.PENDING
        link.updated_at = now
        session.commit()
    log = {"link": link_id, "attempt": attempt, "score": score.given, "error": error[:200]}
    logger.log(logging.WARNING if error else logging.INFO, "lti.passback", extra=log)
    if error and not last:
        _send(runtime, link_id, attempt + 1, now + retry_delay(runtime, attempt))


# --- what the page and the command line show ---------------------------------------------------


@dataclass(frozen=True)
class PassbackView:
    id: int
    platform: str
    user_name: str
    subject: str
    scope: WorkScope
    target: str
    lineitem: str
    state: PassbackState
    score_given: float | None
    score_maximum: float | None
    sent_at: datetime | None
    error: str
    updated_at: datetime
    attempts: int


def view(session: Session, link: LtiGradeLink) -> PassbackView:
    attempts: list[LtiPassbackAttempt] = lti_store.attempts_of(session=session, link_id=link.id)
    return PassbackView(
        link.id,
        link.platform.issuer,
        f"{link.user.display_name} ({link.user.name})"
        if link.user.display_name
        else link.user.name,
        link.subject,
        link.scope,
        link.target,
        link.lineitem,
        link.state,
        link.score_given,
        link.score_maximum,
        link.sent_at,
        link.error,
        link.updated_at,
        len(attempts),
    )


def passbacks(*, session: Session, state: PassbackState | None = None) -> list[PassbackView]:
    """Every grade link with its passback's state, the latest changed first."""
    return [
        view(session, link) for link in lti_store.list_grade_links(session=session, state=state)
    ]
