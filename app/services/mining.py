"""Mistakes mined from submissions: the wrong answers no diagnosis explained, grouped by what
they got wrong, and a group's hint written by an instructor as a mistake of the exercise.

A submission's *fingerprint* is what its stored report says of each test: its status and
failure category and, on a public test that did not pass, its message with every number
rounded to ``SIGNIFICANT`` digits (the message names the wrong output, the worst element,
the expected and the got value: how the output relates to the reference's on that case).
Of a hidden test only what any learner's report already holds is used (status and category),
so a group says nothing of a hidden expected value. Submissions with one fingerprint form a
group; groups are listed largest first. The view is for instructors only.

Only the exercise's current version is mined, and only reports already stored are read: no
code runs. Writing a hint (:func:`write_hint`) adds the group's representative as a mistake
file once it validates (:func:`graders.add_mistake`), which makes a new version of the
exercise; then every submission mined under the old version is diagnosed again in the
background, the group's first (:func:`rediagnose`): graded anew by the sandbox, it takes
the new version's diagnosis, and the new version where its tests came out as before. Its
score, verdict and tests are never changed.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from app.services.errors import NotFound
from app.store import mining as mining_store
from app.store import submissions as submission_store
from app.store.mining import WrongSubmission
from graders.api import (
    CpuPriority,
    Exercise,
    ExerciseCatalog,
    Failure,
    GradeReport,
    MistakeOutcome,
    PreparedExercise,
    Sandbox,
    SandboxLimits,
    Status,
    Visibility,
    add_mistake,
)

logger = logging.getLogger(__name__)

SIGNIFICANT = 3
"""Digits a public message's numbers keep in a fingerprint: the same mistake written two ways
differs in the last bits of its floats, different mistakes differ in the first digits."""
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
KEY_LENGTH = 12

Grade = Callable[[PreparedExercise, str, bool, CpuPriority], GradeReport]


@dataclass(frozen=True)
class TestOutcome:
    """One test as a fingerprint sees it; ``relation`` is empty for a passed or hidden test."""

    name: str
    visibility: Visibility
    status: Status
    failure: Failure | None
    relation: str


Fingerprint = tuple[TestOutcome, ...]


@dataclass(frozen=True)
class MistakeGroup:
    """Wrong submissions with one fingerprint; ``representative`` is the shortest code among
    them (the oldest of equals): the one an instructor reads and may make a mistake file."""

    key: str
    submissions: tuple[str, ...]
    learners: int
    tests: int
    representative: str
    code: str
    failing: tuple[TestOutcome, ...]
    difference: TestOutcome | None
    """The first public test the group fails: its message is the representative's difference
    from the reference on that case."""

    @property
    def size(self) -> int:
        return len(self.submissions)


@dataclass(frozen=True)
class MinedExercise:
    exercise_id: str
    version: str
    undiagnosed: int
    groups: tuple[MistakeGroup, ...]
    languages: tuple[str, ...]
    """The statement's languages other than English: a hint is written in each of them too."""


def round_numbers(message: str) -> str:
    return NUMBER.sub(lambda number: f"{float(number.group()):.{SIGNIFICANT}g}", message)


def outcome(test: Mapping[str, Any]) -> TestOutcome:
    visibility = Visibility(test["visibility"])
    status = Status(test["status"])
    shown = visibility is Visibility.PUBLIC and status is not Status.PASSED
    return TestOutcome(
        name=test["name"],
        visibility=visibility,
        status=status,
        failure=Failure(test["failure"]) if test.get("failure") else None,
        relation=round_numbers(test.get("message", "")) if shown else "",
    )


def fingerprint(tests: Iterable[Mapping[str, Any]]) -> Fingerprint:
    """The tests' outcomes in the report's order (one version's reports share it)."""
    return tuple(outcome(test) for test in tests)


def fingerprint_key(print_: Fingerprint) -> str:
    return hashlib.sha256(repr(print_).encode()).hexdigest()[:KEY_LENGTH]


def group_submissions(submissions: Sequence[WrongSubmission]) -> tuple[MistakeGroup, ...]:
    """The submissions grouped by fingerprint: largest first, then most learners, then key."""
    members: dict[Fingerprint, list[WrongSubmission]] = defaultdict(list)
    for submission in submissions:
        members[fingerprint(submission.tests)].append(submission)
    groups = []
    for print_, alike in members.items():
        alike.sort(key=lambda s: (s.created_at, s.id))
        chosen = min(alike, key=lambda s: len(s.code))  # min keeps the oldest of equals
        failing = tuple(test for test in print_ if test.status is not Status.PASSED)
        groups.append(
            MistakeGroup(
                key=fingerprint_key(print_),
                submissions=tuple(s.id for s in alike),
                learners=len({s.user_id for s in alike}),
                tests=len(print_),
                representative=chosen.id,
                code=chosen.code,
                failing=failing,
                difference=next((t for t in failing if t.visibility is Visibility.PUBLIC), None),
            )
        )
    return tuple(sorted(groups, key=lambda g: (-g.size, -g.learners, g.key)))


def other_languages(exercise: Exercise) -> tuple[str, ...]:
    """The statement's languages besides English: a mined mistake's hint is needed in each."""
    return tuple(lang for lang in exercise.languages if lang != "en")


def mine(*, session: Session, catalog: ExerciseCatalog, exercise_id: str) -> MinedExercise:
    """The exercise's undiagnosed wrong submissions of its current version, grouped;
    ExerciseNotFound if there is no such exercise."""
    exercise = catalog.load(exercise_id)
    wrong = mining_store.undiagnosed_wrong(
        session=session, exercise_id=exercise.id, version=exercise.version
    )
    return MinedExercise(
        exercise_id=exercise.id,
        version=exercise.version,
        undiagnosed=len(wrong),
        groups=group_submissions(wrong),
        languages=other_languages(exercise),
    )


def find_group(mined: MinedExercise, key: str) -> MistakeGroup:
    for group in mined.groups:
        if group.key == key:
            return group
    raise NotFound(f"{mined.exercise_id} has no group {key!r} of undiagnosed submissions")


@dataclass(frozen=True)
class Rediagnosed:
    """What :func:`rediagnose` did: submissions that now have a diagnosis, and how many were
    looked at."""

    diagnosed: tuple[str, ...]
    looked_at: int


NOT_REVIEWED = (
    "confirm that you read the representative's code: the hint is written for that code (if "
    "the group's representative changed since the page was drawn, read the new one)"
)
_writing = threading.Lock()
"""One mined mistake written at a time in this process: two instructors naming two groups
alike (or one group twice) must not both pass the check before either is written."""


def write_hint(
    *,
    session: Session,
    catalog: ExerciseCatalog,
    limits: SandboxLimits,
    exercise_id: str,
    group_key: str,
    name: str,
    hint: str,
    translated: Mapping[str, str],
    reviewed: str,
) -> tuple[MistakeOutcome, MinedExercise]:
    """Make the group's representative ``mistakes/mined/<name>.py`` of the exercise if it validates
    (NotFound when no such group is mined now); with the mining it was written from, whose
    submissions :func:`rediagnose` then diagnoses again.

    ``reviewed`` is the submission whose code the instructor read: the hint is written for
    that code, so only the code that was read becomes the mistake (the group's representative
    may have changed since the page was drawn). It runs only in the sandbox, as it did when it
    was submitted (graders/exercises/model.py, ``Mistake``)."""
    with _writing:
        mined = mine(session=session, catalog=catalog, exercise_id=exercise_id)
        group = find_group(mined, group_key)
        if reviewed != group.representative:
            return MistakeOutcome(None, (NOT_REVIEWED,)), mined
        folder = catalog.load(exercise_id).path
        with Sandbox(workers=1, limits=limits) as sandbox:
            result = add_mistake(folder, name, group.code, hint, translated, sandbox)
    if result.written:
        logger.info(
            "mining.mistake_written",
            extra={"exercise": exercise_id, "mistake": name, "group_size": group.size},
        )
    return result, mined


Batch = tuple[str, ...]
"""Submissions whose new diagnoses are stored together, once all of them are graded."""


def rediagnosis_batches(mined: MinedExercise, group_key: str) -> tuple[Batch, ...]:
    """The group's submissions first (its learners wait for the new hint), then the rest of
    the mined version's."""
    first = find_group(mined, group_key).submissions
    rest = tuple(s for g in mined.groups if g.key != group_key for s in g.submissions)
    return (first, rest) if rest else (first,)


def same_tests(stored: Sequence[Mapping[str, Any]], report: GradeReport) -> bool:
    def essentials(tests: Iterable[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
        return [(t["name"], t["status"], t["points"], t.get("failure")) for t in tests]

    return essentials(stored) == essentials(test.to_dict() for test in report.tests)


def rediagnose(
    *,
    sessions: sessionmaker[Session],
    catalog: ExerciseCatalog,
    grade: Grade,
    exercise_id: str,
    mined_version: str,
    batches: Sequence[Batch],
    priority: CpuPriority,
) -> Rediagnosed:
    """Grade each submission again with the exercise's current version and keep only its
    diagnosis and the version, when its tests came out as stored: scores never change. A
    submission regraded or changed meanwhile, or whose tests came out otherwise (code that
    reads the clock, or draws unseeded numbers), is left alone.

    A batch's diagnoses are stored in one transaction once every one of its submissions is
    graded: when a hint appears on a learner's page tells nothing of how long that
    submission's hidden cases took (docs/security.md, the release ladder)."""
    prepared = catalog.prepared(exercise_id)
    diagnosed: list[str] = []
    for batch in batches:
        found = []
        for submission_id in batch:
            with sessions() as session:
                submission = submission_store.get_submission(
                    session=session, submission_id=submission_id
                )
                if submission is None or submission.exercise_version != mined_version:
                    continue
                code, stored = submission.code, list(submission.tests or [])
            report = grade(prepared, code, False, priority)
            if not same_tests(stored, report):
                # Another run than the stored one: its diagnosis, which names the tests it
                # explains, would tell which hidden tests this run failed or raised on,
                # outside any submission's report. The submission is left as it was graded.
                continue
            found.append(
                (
                    submission_id,
                    report.diagnosis.to_dict() if report.diagnosis else None,
                    prepared.exercise.version,
                )
            )
        with sessions() as session:
            for submission_id, diagnosis, version in found:
                changed = mining_store.rediagnose(
                    session=session,
                    submission_id=submission_id,
                    graded_version=mined_version,
                    diagnosis=diagnosis,
                    version=version,
                )
                if changed and diagnosis is not None:
                    diagnosed.append(submission_id)
            session.commit()
    looked_at = sum(map(len, batches))
    logger.info(
        "mining.rediagnosed",
        extra={"exercise": exercise_id, "diagnosed": len(diagnosed), "looked_at": looked_at},
    )
    return Rediagnosed(tuple(diagnosed), looked_at)


def rediagnose_in_background(
    *,
    sessions: sessionmaker[Session],
    catalog: ExerciseCatalog,
    grade: Grade,
    exercise_id: str,
    mined_version: str,
    batches: Sequence[Batch],
    priority: CpuPriority,
) -> threading.Thread:
    """:func:`rediagnose` on a thread of its own (the page answers at once)."""

    def run() -> None:
        try:
            rediagnose(
                sessions=sessions,
                catalog=catalog,
                grade=grade,
                exercise_id=exercise_id,
                mined_version=mined_version,
                batches=batches,
                priority=priority,
            )
        except Exception:
            logger.exception("mining.rediagnosis_failed", extra={"exercise": exercise_id})

    thread = threading.Thread(target=run, name="rediagnose", daemon=True)
    thread.start()
    return thread
