"""Rules judged by what runs (issue 38): in an exercise that forbids Python loops, the
sandbox counts the code's repeated Python work in the public calls
(graders/sandbox/repeats.py) and a loop the syntax tree cannot see is refused, with where it
repeated; a hidden test tells only the category ``forbidden``."""

from __future__ import annotations

import pytest

from graders.api import ExerciseCatalog, PreparedExercise, Sandbox, grade
from graders.results import Failure, Status, Verdict, Visibility
from tests.graders.helpers import EXERCISES

pytestmark = pytest.mark.slow

# A function passed to itself: no call by name closes a cycle, so the tree sees no recursion.
SELF_APPLIED = """\
import numpy as np


def rows(step, X, Y):
    if len(X) == 0:
        return np.zeros((0, len(Y)))
    head = np.sqrt(((X[0] - Y) ** 2).sum(axis=-1))
    return np.vstack([head, step(step, X[1:], Y)])


def pairwise_distances(X, Y):
    return rows(rows, X, Y)
"""
GREW = (
    "rules: the code ran, and its Python work repeated as a loop's does, which this exercise "
    "forbids (Python loops): line 4: rows recursed 5 deep in one call on 27 input "
    "elements, 4 on 10"
)
HIDDEN = "rules: the code uses what this exercise forbids (details are not shown for hidden tests)"


@pytest.fixture(scope="module")
def catalog() -> ExerciseCatalog:
    return ExerciseCatalog(EXERCISES)


@pytest.fixture(scope="module")
def pairwise(catalog: ExerciseCatalog) -> PreparedExercise:
    return catalog.prepared("pairwise-distances")


def test_a_loop_the_tree_cannot_see_is_refused_as_it_runs(
    pairwise: PreparedExercise, sandbox: Sandbox
) -> None:
    report = grade(pairwise, SELF_APPLIED, sandbox)
    assert (report.verdict, report.score, report.message) == (Verdict.FAILED, 0.0, GREW)
    public = [
        (t.status, t.failure, t.message) for t in report.tests if t.visibility is Visibility.PUBLIC
    ]
    hidden = {
        (t.status, t.failure, t.message) for t in report.tests if t.visibility is Visibility.HIDDEN
    }
    assert public == [(Status.FAILED, Failure.FORBIDDEN, GREW)] * 2
    assert hidden == {(Status.FAILED, Failure.FORBIDDEN, HIDDEN)}


@pytest.mark.parametrize("slug", ["pairwise-distances", "gru-candidate-state"])
def test_the_references_of_the_exercises_that_forbid_loops_still_pass(
    slug: str, catalog: ExerciseCatalog, sandbox: Sandbox
) -> None:
    prepared = catalog.prepared(slug)
    code = (prepared.exercise.path / "solution.py").read_text(encoding="utf-8")
    assert grade(prepared, code, sandbox).verdict is Verdict.PASSED


def test_nothing_is_counted_in_a_hidden_case(pairwise: PreparedExercise, sandbox: Sandbox) -> None:
    # The public inputs have 3 and 4 rows, the hidden ones more: this code recurses only on
    # those, where the sandbox counts nothing, so no number about a hidden input can leave it.
    # (The limit of the run-time check: docs/security.md, "Rules".)
    code = SELF_APPLIED.replace(
        "    return rows(rows, X, Y)",
        "    if len(X) > 4:\n        return rows(rows, X, Y)\n"
        "    return np.sqrt(((X[:, None] - Y[None]) ** 2).sum(axis=-1))",
    )
    report = grade(pairwise, code, sandbox)
    assert {t.failure for t in report.tests} == {None}
    assert report.verdict is Verdict.PASSED
