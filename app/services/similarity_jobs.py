"""Similarity reports as instructors ask for them: stored, computed on the grading queue behind
every grading, read back as pages and CSV.

A report is a row (``similarity_reports``) made ``queued`` by the request; the queue's report
task (``app.runtime.queue``, a lower priority than every grading wake-up) computes it with
``app.services.similarity`` and stores the result or the error. A wake-up lost with the queue
leaves the row queued: asking again makes a new report. The CLI computes the same way.

The comparing itself runs in a child process at the lowest CPU priority
(``app.core.background``; with ``background_lowest_priority`` off, the service's own), within
``similarity_cpu_s`` CPU seconds (pairs past them are left out, and counted in the report) and
killed a minute of CPU later (the report fails, saying so): learners choose what their answers
cost to compare, and the queue's thread shares its process with the pages and the gradings.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from app.core.background import OutOfCpuTime, run_in_background
from app.core.config import Settings
from app.models import ReportState, SimilarityReport, WorkScope, utcnow
from app.runtime.context import GradingRuntime
from app.runtime.queue import QueueUnavailable
from app.services.assignments import get_assignment
from app.services.errors import NotFound
from app.services.gradebook import Cell
from app.services.similarity import (
    Answer,
    Distribution,
    ExerciseSimilarity,
    Pair,
    Segment,
    SharedFragment,
    compare_all,
    segments,
)
from app.store import accounts as account_store
from app.store import similarity as similarity_store
from app.store import submissions as submission_store
from graders.api import ExerciseCatalog

logger = logging.getLogger(__name__)

SOLUTION_FILE = "solution.py"
CPU_BACKSTOP_S = 60.0
"""CPU seconds past the report's budget after which its process is killed: the budget is
checked between pairs, and the start (imports, fingerprints of capped answers) costs seconds."""


def exercise_ids(catalog: ExerciseCatalog, scope: WorkScope, target: str) -> tuple[str, ...]:
    """The exercises a report covers; ExerciseNotFound / AssignmentNotFound if none."""
    if scope is WorkScope.ASSIGNMENT:
        return get_assignment(catalog.schedule(), target).exercise_ids
    return (catalog.load(target).id,)


def boilerplate(catalog: ExerciseCatalog, exercise_id: str) -> tuple[str, ...]:
    """What every answer may share: the starter and the reference solution."""
    exercise = catalog.load(exercise_id)
    solution = exercise.path / SOLUTION_FILE
    return (exercise.starter, solution.read_text(encoding="utf-8") if solution.is_file() else "")


def compute(
    *,
    session: Session,
    catalog: ExerciseCatalog,
    scope: WorkScope,
    target: str,
    settings: Settings,
) -> list[ExerciseSimilarity]:
    """One section per exercise of the report, each learner's final answer compared, in a
    background process within ``similarity_cpu_s`` CPU seconds (``OutOfCpuTime`` if it was
    killed), below every other process unless ``background_lowest_priority`` is off."""
    ids = exercise_ids(catalog, scope, target)
    by_exercise: dict[str, list[Answer]] = defaultdict(list)
    for answer in similarity_store.final_answers(session=session, exercise_ids=ids):
        by_exercise[answer.exercise_id].append(
            Answer(answer.user_name, answer.submission_id, answer.code)
        )
    work = [(i, by_exercise[i], boilerplate(catalog, i)) for i in ids]
    cpu_s = settings.similarity_cpu_s
    return run_in_background(
        cpu_s + CPU_BACKSTOP_S,
        compare_all,
        work,
        cpu_s,
        lowest_priority=settings.background_lowest_priority,
    )


def store_computed(
    *, session: Session, catalog: ExerciseCatalog, report: SimilarityReport, settings: Settings
) -> None:
    """Compute ``report`` and store its result (or why it failed); the caller commits."""
    started = time.monotonic()
    try:
        sections = compute(
            session=session,
            catalog=catalog,
            scope=report.scope,
            target=report.target,
            settings=settings,
        )
    except OutOfCpuTime as exc:
        logger.warning("similarity.out_of_cpu", extra={"report": report.id})
        similarity_store.fail_report(session=session, report=report, error=str(exc), now=utcnow())
        return
    except Exception as exc:  # a broken exercise folder, say: the report says why
        logger.exception("similarity.failed", extra={"report": report.id})
        similarity_store.fail_report(session=session, report=report, error=str(exc), now=utcnow())
        return
    similarity_store.finish_report(
        session=session, report=report, result=[s.to_dict() for s in sections], now=utcnow()
    )
    logger.info(
        "similarity.done",
        extra={
            "report": report.id,
            "target": report.target,
            "answers": sum(s.answers for s in sections),
            "pairs_left_out": sum(s.pairs_left_out for s in sections),
            "elapsed_s": round(time.monotonic() - started, 3),
        },
    )


QUEUE_DOWN = "the task queue could not be reached when the report was asked for: ask again"


def request_report(
    *, runtime: GradingRuntime, scope: WorkScope, target: str, requested_by: str
) -> str:
    """Queue a new report of ``target``; its id. The target must exist (404 otherwise)."""
    exercise_ids(runtime.catalog, scope, target)
    with runtime.sessions() as session:
        report = similarity_store.create_report(
            session=session, scope=scope, target=target, requested_by=requested_by
        )
        session.commit()
        report_id = report.id
    try:
        runtime.queue.enqueue_report(report_id)
    except QueueUnavailable as exc:
        # Nothing would ever compute it: the instructor is told to ask again, rather than
        # shown a report queued for good.
        logger.warning("similarity.unsent", extra={"report": report_id, "error": str(exc)[:200]})
        with runtime.sessions() as session:
            unsent = similarity_store.get_report(session=session, report_id=report_id)
            if unsent is not None:
                similarity_store.fail_report(
                    session=session, report=unsent, error=QUEUE_DOWN, now=utcnow()
                )
                session.commit()
    return report_id


def compute_now(
    *,
    session: Session,
    catalog: ExerciseCatalog,
    scope: WorkScope,
    target: str,
    requested_by: str,
    settings: Settings,
) -> ReportView:
    """Make and compute a report in this process (``numjudge similarity``); it is stored as
    the pages' reports are, and committed."""
    exercise_ids(catalog, scope, target)
    report = similarity_store.create_report(
        session=session, scope=scope, target=target, requested_by=requested_by
    )
    store_computed(session=session, catalog=catalog, report=report, settings=settings)
    session.commit()
    return view(report)


def run(runtime: GradingRuntime, report_id: str) -> None:
    """The queue's report handler: compute a queued report (one already done is left)."""
    with runtime.sessions() as session:
        report = similarity_store.get_report(session=session, report_id=report_id)
        if report is None or report.state is not ReportState.QUEUED:
            return
        store_computed(
            session=session,
            catalog=runtime.catalog,
            report=report,
            settings=runtime.settings,
        )
        session.commit()


@dataclass(frozen=True)
class ReportView:
    id: str
    scope: WorkScope
    target: str
    state: ReportState
    requested_by: str
    created_at: datetime
    finished_at: datetime | None
    error: str
    sections: tuple[ExerciseSimilarity, ...]


def view(report: SimilarityReport) -> ReportView:
    sections = tuple(ExerciseSimilarity.from_dict(s) for s in report.result or ())
    return ReportView(
        report.id,
        report.scope,
        report.target,
        report.state,
        report.requested_by,
        report.created_at,
        report.finished_at,
        report.error,
        sections,
    )


def load_view(*, session: Session, report_id: str) -> ReportView:
    report = similarity_store.get_report(session=session, report_id=report_id)
    if report is None:
        raise NotFound(f"Similarity report {report_id!r} not found")
    return view(report)


def recent(*, session: Session) -> list[ReportView]:
    """The latest reports, newest first (their results too: a page lists what they flagged)."""
    return [view(r) for r in similarity_store.list_reports(session=session)]


@dataclass(frozen=True)
class SharedStatement:
    """A statement both answers of a pair have (normalised alike): its first line and text
    in each."""

    line_a: int
    text_a: str
    line_b: int
    text_b: str


@dataclass(frozen=True)
class PairView:
    """One pair side by side: each answer cut into matched and unmatched stretches, the
    statements they share, and the section's distributions (the fences of the flags)."""

    pair: Pair
    section: ExerciseSimilarity
    code_a: list[Segment]
    code_b: list[Segment]
    shared: tuple[SharedStatement, ...]

    @property
    def distribution(self) -> Distribution:
        return self.section.distribution


def shared_statements(
    code_a: str, code_b: str, fragments: Sequence[SharedFragment]
) -> tuple[SharedStatement, ...]:
    """Each shared fragment's line and text in both answers."""

    def line(code: str, offset: int) -> int:
        return code.count("\n", 0, offset) + 1

    return tuple(
        SharedStatement(
            line(code_a, f.span_a[0]),
            code_a[slice(*f.span_a)],
            line(code_b, f.span_b[0]),
            code_b[slice(*f.span_b)],
        )
        for f in fragments
    )


def pair_view(*, session: Session, report: ReportView, exercise_id: str, rank: int) -> PairView:
    """The pair ranked ``rank`` (from 1) in the report's section of ``exercise_id``."""
    section = next((s for s in report.sections if s.exercise_id == exercise_id), None)
    if section is None or not 1 <= rank <= len(section.pairs):
        raise NotFound(f"Report {report.id!r} has no pair {rank} for {exercise_id!r}")
    pair = section.pairs[rank - 1]
    codes = []
    for submission_id in (pair.submission_a, pair.submission_b):
        submission = submission_store.get_submission(session=session, submission_id=submission_id)
        codes.append(submission.code if submission is not None else "")
    return PairView(
        pair,
        section,
        segments(codes[0], pair.regions_a),
        segments(codes[1], pair.regions_b),
        shared_statements(codes[0], codes[1], pair.fragments),
    )


def learner_names(*, session: Session, report: ReportView) -> dict[str, str]:
    """The names the roster or the LMS gives the report's learners, by account name (those
    with one)."""
    names = {p.learner_a for s in report.sections for p in s.pairs}
    names |= {p.learner_b for s in report.sections for p in s.pairs}
    return {
        user.name: user.display_name
        for user in account_store.list_users(session=session)
        if user.name in names and user.display_name
    }


def csv_rows(
    sections: Sequence[ExerciseSimilarity], names: Mapping[str, str]
) -> list[tuple[Cell, ...]]:
    """``exercise, learner_a, learner_b, similarity, share_a, share_b, flagged, fence,
    submission_a, submission_b, structure, structure_fence, reasons, name_a, name_b``: every
    pair, the most similar first within an exercise (``similarity`` and ``fence`` are the
    tokens', ``reasons`` each flag's measure and kind, ``tokens: near-identical; structure:
    outlier``); ``names``: the learners' names (``learner_names``), empty where they have
    none."""
    header: tuple[Cell, ...] = (
        "exercise",
        "learner_a",
        "learner_b",
        "similarity",
        "share_a",
        "share_b",
        "flagged",
        "fence",
        "submission_a",
        "submission_b",
        "structure",
        "structure_fence",
        "reasons",
        "name_a",
        "name_b",
    )
    return [header] + [
        (
            p.exercise_id,
            p.learner_a,
            p.learner_b,
            round(p.similarity, 4),
            round(p.share_a, 4),
            round(p.share_b, 4),
            "flagged" if p.flagged else None,
            round(s.distribution.fence, 4),
            p.submission_a,
            p.submission_b,
            round(p.structure, 4),
            round(s.structure_distribution.fence, 4) if s.structure_distribution else None,
            "; ".join(f"{r.measure.value}: {r.kind.value}" for r in p.reasons) or None,
            names.get(p.learner_a),
            names.get(p.learner_b),
        )
        for s in sections
        for p in s.pairs
    ]
