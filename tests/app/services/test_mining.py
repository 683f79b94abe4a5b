"""app/services/mining.py: wrong submissions without a hint grouped by what they got wrong
(generated reports), and on both databases a real class graded by the sandbox: mined, a
group's hint written as a mistake, the group diagnosed again with its scores unchanged."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from app.models import Role, Submission
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader, background_priority
from app.services import mining
from app.services.errors import NotFound
from app.store.mining import WrongSubmission
from graders.api import CpuPriority, Failure, MistakeOutcome, Status, Visibility
from tests.app.conftest import make_runtime, make_settings, wipe
from tests.app.mined_class import (
    DOUBLE_BIAS,
    HALVED,
    HALVED_OTHERWISE,
    HINT,
    JA,
    SQUARED,
    START,
    graded,
)


def row_of(
    name: str,
    status: str = "passed",
    *,
    public: bool = False,
    message: str = "",
    failure: str | None = None,
) -> dict[str, Any]:
    return {
        "name": name,
        "visibility": "public" if public else "hidden",
        "status": status,
        "points": 0.0 if status != "passed" else 1.0,
        "max_points": 1.0,
        "failure": failure,
        "message": message,
    }


def wrong(number: int, user: int, tests: list[dict[str, Any]], code: str = "x") -> WrongSubmission:
    return WrongSubmission(
        f"s{number:03d}", user, code, tuple(tests), START + timedelta(minutes=number)
    )


def values_failure(got: float, public: bool = True) -> dict[str, Any]:
    return row_of(
        "example",
        "failed",
        public=public,
        failure="values",
        message=f"values: 4 of 4 elements outside tolerance; worst at index [1]: expected 0.25, "
        f"got {got} (abs error {got - 0.25})",
    )


def test_submissions_with_one_fingerprint_form_one_group_largest_first() -> None:
    halved = [values_failure(0.125), row_of("hidden one", "failed", failure="values")]
    # The same mistake written otherwise: its floats differ in their last bits only.
    halved_otherwise = [values_failure(0.12500000000000003), halved[1]]
    shape = [
        row_of("example", "failed", public=True, failure="wrong_shape", message="shape"),
        row_of("hidden one", "error", failure="exception"),
    ]
    submissions = [
        wrong(1, 1, halved, code="long code " * 5),
        wrong(2, 2, shape),
        wrong(3, 2, halved_otherwise, code="short"),
        wrong(4, 3, halved, code="short"),  # as short, but later: the older one represents
        wrong(5, 2, shape),
    ]
    groups = mining.group_submissions(submissions)
    assert [g.submissions for g in groups] == [("s001", "s003", "s004"), ("s002", "s005")]
    assert [(g.size, g.learners, g.tests) for g in groups] == [(3, 3, 2), (2, 1, 2)]
    assert groups[0].representative == "s003" and groups[0].code == "short"
    first = groups[0].difference
    assert first is not None and first.name == "example" and first.failure is Failure.VALUES
    assert "got 0.125 (abs error -0.125)" in first.relation
    assert [t.name for t in groups[1].failing] == ["example", "hidden one"]
    assert groups[1].failing[1].status is Status.ERROR
    assert groups[1].failing[1].visibility is Visibility.HIDDEN


def test_different_outputs_on_a_public_case_are_different_groups() -> None:
    groups = mining.group_submissions(
        [wrong(1, 1, [values_failure(0.125)]), wrong(2, 2, [values_failure(0.5)])]
    )
    assert [g.size for g in groups] == [1, 1]
    assert len({g.key for g in groups}) == 2


def test_a_hidden_test_counts_by_its_status_and_category_only() -> None:
    # What a hidden test would have said is the instructor's only (and could carry a hidden
    # value): two messages of a failed hidden test are one fingerprint.
    first = [row_of("hidden", "failed", failure="values", message="got 0.1")]
    second = [row_of("hidden", "failed", failure="values", message="got 0.9")]
    groups = mining.group_submissions([wrong(1, 1, first), wrong(2, 2, second)])
    assert [g.size for g in groups] == [2]
    assert groups[0].difference is None
    assert groups[0].failing[0].relation == ""


def test_numbers_are_rounded_to_three_significant_digits() -> None:
    assert mining.round_numbers("index [1, 2]: expected 0.123456, got -1.5e-07") == (
        "index [1, 2]: expected 0.123, got -1.5e-07"
    )


def test_no_group_of_a_key_is_not_found() -> None:
    mined = mining.MinedExercise("e", "v", 0, (), ())
    with pytest.raises(NotFound):
        mining.find_group(mined, "nope")


@pytest.fixture
def class_runtime(
    database_url: str, gate_copy: Path, shared_grader: SandboxGrader
) -> Iterator[GradingRuntime]:
    settings = make_settings(database_url, gate_copy.parent, exercises_dir=gate_copy.parent)
    yield make_runtime(settings, shared_grader)
    wipe(database_url)


def write_halved(
    runtime: GradingRuntime, group_key: str, reviewed: str, name: str = "halved_preactivation"
) -> tuple[MistakeOutcome, mining.MinedExercise]:
    """An instructor's hint for the group ``group_key`` of gru-update-gate, in both languages."""
    with runtime.sessions() as session:
        return mining.write_hint(
            session=session,
            catalog=runtime.catalog,
            limits=runtime.settings.sandbox_limits,
            exercise_id="gru-update-gate",
            group_key=group_key,
            name=name,
            hint=HINT,
            translated=JA,
            reviewed=reviewed,
        )


def test_a_class_is_mined_and_a_groups_hint_diagnoses_it_again(
    class_runtime: GradingRuntime, gate_copy: Path
) -> None:
    runtime = class_runtime
    submit = graded(runtime)
    ada = submit("ada", HALVED)
    bo = submit("bo", HALVED_OTHERWISE)
    cy = submit("cy", SQUARED)
    submit("dee", DOUBLE_BIAS)  # diagnosed by a mistake the author wrote
    submit("eve", (gate_copy / "solution.py").read_text(encoding="utf-8"))
    teacher = submit("teacher", HALVED, Role.INSTRUCTOR)  # not the class's mistake
    with runtime.sessions() as session:
        mined = mining.mine(session=session, catalog=runtime.catalog, exercise_id="gru-update-gate")
        scores = {
            row.id: row.score for row in session.execute(select(Submission.id, Submission.score))
        }
    assert mined.undiagnosed == 3
    assert [g.submissions for g in mined.groups] == [(ada, bo), (cy,)]
    halved = mined.groups[0]
    assert halved.representative == ada  # the shorter code
    assert halved.difference is not None and halved.difference.name == "numerical example"
    assert "expected" in halved.difference.relation
    assert mined.languages == ("ja",)

    # Only the code the instructor read becomes a mistake: its hint is written for that code.
    for unread in ("", bo):
        assert write_halved(runtime, halved.key, unread)[0].problems == (mining.NOT_REVIEWED,)
    assert not (gate_copy / "mistakes" / "mined" / "halved_preactivation.py").exists()
    outcome, written_from = write_halved(runtime, halved.key, ada)
    assert outcome.written, outcome.problems
    written = gate_copy / "mistakes" / "mined" / "halved_preactivation.py"
    assert written.read_text().startswith(HALVED)
    new_version = runtime.catalog.load("gru-update-gate").version
    assert new_version != mined.version

    batches = mining.rediagnosis_batches(written_from, halved.key)
    assert batches == ((ada, bo), (cy,))
    done = mining.rediagnose(
        sessions=runtime.sessions,
        catalog=runtime.catalog,
        grade=runtime.grade,
        exercise_id="gru-update-gate",
        mined_version=written_from.version,
        batches=batches,
        priority=background_priority(runtime.settings),
    )
    assert done.diagnosed == (ada, bo) and done.looked_at == 3
    with runtime.sessions() as session:
        rows = {row.id: row for row in session.scalars(select(Submission))}
        assert {i: rows[i].score for i in rows} == scores  # no score changes
        assert [rows[i].diagnosis["hint"] for i in (ada, bo)] == [HINT, HINT]  # type: ignore[index]
        assert rows[cy].diagnosis is None and rows[cy].exercise_version == new_version
        assert rows[teacher].diagnosis is None and rows[teacher].exercise_version == mined.version
        again = mining.mine(session=session, catalog=runtime.catalog, exercise_id="gru-update-gate")
    assert [g.submissions for g in again.groups] == [(cy,)]


def test_writing_a_group_that_is_no_longer_mined_is_not_found(
    class_runtime: GradingRuntime,
) -> None:
    with pytest.raises(NotFound):
        write_halved(class_runtime, "0123456789ab", "", name="anything")


# Halved everywhere until FLIP_AT (the wall clock, which the sandbox reads); then raising on
# every case whose first input's first value is not positive: the hint of a rerun names the
# cases that returned, one bit of each hidden case's input.
CHANGING = """import time

import numpy as np

FLIP_AT = {flip_at}


def update_gate(x_t, h_prev, W_z, b_z):
    if time.time() >= FLIP_AT and x_t.flat[0] <= 0:
        raise ValueError("not this one")
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return 1 / (1 + np.exp(-0.5 * (joined @ W_z.T + b_z)))
"""


@pytest.mark.slow
def test_a_submission_whose_rerun_fails_other_tests_keeps_its_diagnosis(
    class_runtime: GradingRuntime,
) -> None:
    """A rediagnosis grades the learner's code again on the hidden cases: a diagnosis stored
    from a rerun whose tests differ from the stored ones would tell the learner which hidden
    tests that rerun failed (the hint names them), out of any submission budget, once per
    submission per mistake written (the hostile review: 11 bits, one per hidden case)."""
    runtime = class_runtime
    submit = graded(runtime)
    ada = submit("ada", HALVED)
    # Its row holds what grading its code gave before the flip (graded as code that never
    # flips), and the flip is past by the rerun: no waiting for the clock between the two.
    changing = CHANGING.format(flip_at=time.time())
    mallory = submit("mallory", CHANGING.format(flip_at="float('inf')"), stored=changing)
    with runtime.sessions() as session:
        mined = mining.mine(session=session, catalog=runtime.catalog, exercise_id="gru-update-gate")
        stored = session.get(Submission, mallory)
        assert stored is not None and stored.diagnosis is None
    [halved] = mined.groups
    assert halved.submissions == (ada, mallory) and halved.representative == ada
    outcome, written_from = write_halved(runtime, halved.key, ada)
    assert outcome.written, outcome.problems
    prepared = runtime.catalog.prepared("gru-update-gate")
    rerun = runtime.grade(prepared, changing, False, CpuPriority.NORMAL)
    assert rerun.diagnosis is not None  # what would have been stored: its tests differ
    assert [t.status for t in rerun.tests] != [Status(t["status"]) for t in stored.tests or []]
    done = mining.rediagnose(
        sessions=runtime.sessions,
        catalog=runtime.catalog,
        grade=runtime.grade,
        exercise_id="gru-update-gate",
        mined_version=written_from.version,
        batches=mining.rediagnosis_batches(written_from, halved.key),
        priority=background_priority(runtime.settings),
    )
    assert done.diagnosed == (ada,)
    with runtime.sessions() as session:
        row = session.get(Submission, mallory)
        assert row is not None and row.diagnosis is None
        assert row.exercise_version == written_from.version
