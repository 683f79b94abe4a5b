"""When a learner may see a result, and which of its times they see.

A submission's code can wait for a time chosen by a hidden input, so the moment its result
appears and the times it shows would carry that input (18 ms per value of a byte: 8 bits per
submission). Here both are quantised. A result is *released* at the first boundary of a
geometric ladder, ``created_at + first × ratio**k``, at or after the grading ended. ``first``
is the exercise's *first rung*, measured from its own reference and known mistakes
(app.runtime.rungs): a grading as fast as those is released the moment the rung passes, which
is as soon as it is graded; a slower one climbs, waiting at most ``ratio`` times as long, and a
submission tells by its time only which of at most :data:`RUNGS` boundaries it reached
(:func:`leak_bound_bits`). Until then every learner-facing read (the API, the long-poll, the
pages, the gradebook) shows the submission as waiting; afterwards its times are the boundary's.

The worker never waits for the boundary: it stores the result with its release time at once
and goes on grading; waiters in this process are woken at the release time, others see it at
their next poll. The row stays the truth, and instructors see its exact times on their pages.

A regrade's new result is released on the same ladder (:func:`release_at`), counted from its
*turn* (app.grading.lifecycle), and its row keeps the earlier result until then: a regrade
thread stores it at the boundary, and only then takes the next regrade, so the moments
regraded results appear are sums of boundaries, not of gradings.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from datetime import datetime, timedelta

from app.models import Submission, SubmissionStatus
from app.runtime.rungs import FIRST_STEP

RUNGS = 8
"""At most this many boundaries within an exercise's backstop: ``log2(8)`` = 3 bits per
submission, whatever its first rung."""


def _ratio(longest: timedelta, first: timedelta) -> float:
    """How much each rung grows: doubling, or faster when doubling from a small first rung
    would need more than :data:`RUNGS` boundaries to reach ``longest`` (the bound's count)."""
    fitted = (longest / first) ** (1 / (RUNGS - 1)) if longest > first else 1.0
    # A hair above the fit, so that float rounding never leaves the top just short.
    return max(2.0, fitted * (1 + 1e-9))


def release_at(
    start: datetime, finished_at: datetime, longest: timedelta, first: timedelta = FIRST_STEP
) -> datetime:
    """The first boundary at or after ``finished_at``: ``start + first × ratio**k`` up to the
    first such step that reaches ``longest`` (the longest the exercise's code can make its
    grading last: its wall-clock backstop), then every multiple of that top step.

    ``first`` is the exercise's first rung (app.runtime.rungs): a grading that ends before it
    is released on it, so honest work as fast as the exercise's own never waits on a rung.
    The ratio is 2, or more when the first rung is small (:func:`_ratio`), so that at most
    :data:`RUNGS` boundaries lie within ``longest`` whatever the first rung.

    Counted from a moment no hidden input can move, never from the grading's start: a first
    grading's acceptance, a regrade's turn. The time it waited in the queue (which an earlier
    submission's hidden-input-dependent run can lengthen) is inside the quantised span too.
    Past the top the steps stop growing, so a long queue (a rush, an outage) delays a result
    by at most one top step, not by as long again.
    """
    return next(start + b for b in boundaries(longest, first) if start + b >= finished_at)


def boundaries(longest: timedelta, first: timedelta = FIRST_STEP) -> Iterator[timedelta]:
    """Every boundary :func:`release_at` can return, from the start, in order: growing from
    ``first`` up to the first that reaches ``longest``, then every multiple of that top step."""
    ratio = _ratio(longest, first)
    step = first
    rung = 0
    yield step
    while step < longest:
        rung += 1
        step = first * ratio**rung
        yield step
    yield from (step * n for n in itertools.count(2))


def boundaries_within(longest: timedelta, first: timedelta = FIRST_STEP) -> int:
    """How many boundaries a result can be released on when from acceptance to the end of its
    grading takes at most ``longest``, the exercise's backstop (each further top step of a
    long queue adds one)."""
    return next(n for n, b in enumerate(boundaries(longest, first), 1) if b >= longest)


def leak_bound_bits(longest: timedelta, first: timedelta = FIRST_STEP) -> float:
    """What the time of one submission tells at most, in bits, if it takes at most ``longest``
    from acceptance to the end of its grading."""
    return math.log2(boundaries_within(longest, first))


def is_released(submission: Submission, now: datetime) -> bool:
    """Whether a learner may see the row's result at ``now``.

    A regrade's row keeps showing a result throughout, with the times of its first release:
    the earlier result until the regrade's boundary, when its thread stores the new one.
    """
    if submission.regrade:
        return True
    return submission.status is SubmissionStatus.DONE and released_by(submission.released_at, now)


def released_by(released_at: datetime | None, now: datetime) -> bool:
    """Whether a finished result released at ``released_at`` may be seen at ``now``; one
    without a release time was graded before results had one, and was shown at once."""
    return released_at is None or released_at <= now


def seen_by_learner(submission: Submission, now: datetime) -> Submission:
    """A detached copy of the row as a learner may see it at ``now``.

    Unreleased, it is waiting: status ``queued`` (the moment a grading starts is a time as
    well, when an earlier submission held the learner's place), no result, no times and no
    attempt yet. Released, its times are the boundary's: it started when it was accepted and
    finished at its release. ``duration_ms`` stays the report's: it stops when the first
    hidden case is sent (docs/security.md), so it times the learner's own code on public
    inputs only. What the run used is never a learner's to see. The hidden tests' full
    messages stay on a released copy for app.services.reveal, which alone shows them to the
    learner (once revealed); no learner's view carries them. A regrade not yet stored is
    waiting too, with its earlier result: that it started running, and its attempt, would
    say when the previous regrade's grading ended.
    """
    values = {column.key: getattr(submission, column.key) for column in Submission.__table__.c}
    values.update(cpu_ms=None, memory_kb=None, worker=None, lease_token=None)
    if submission.regrade and submission.status is not SubmissionStatus.DONE:
        values.update(status=SubmissionStatus.QUEUED, attempts=0)
    if not is_released(submission, now):
        values.update(
            status=SubmissionStatus.QUEUED,
            verdict=None,
            score=None,
            max_score=None,
            tests=None,
            hidden_messages=None,
            diagnosis=None,
            output="",
            message="",
            duration_ms=None,
            attempts=0,
            started_at=None,
            finished_at=None,
            released_at=None,
            lease_expires_at=None,
        )
    elif submission.released_at is not None:  # else graded before release times: as stored
        # A regrade's too: the first release's boundary, not when the regrade ran.
        values.update(started_at=submission.created_at, finished_at=submission.released_at)
    copy = Submission(**values)
    if "user" in submission.__dict__:  # loaded: the pages name the submission's author
        copy.user = submission.user
    return copy
