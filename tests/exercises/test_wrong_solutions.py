"""The hidden cases are strong: plausible wrong solutions fail at least one hidden test.

``tests/exercises/<corpus>/<exercise-id>/<name>.py`` holds a learner-style solution that
defines the exercise's entry function and starts with a one-line docstring saying what it
does. These go beyond each exercise's own ``mistakes/`` (which ``numjudge validate`` already
checks). There are three corpora, each written by someone who had not seen the mistakes, the
mutation operators or the corpora before it:

- ``wrong``: the first; later mistakes and operators were written with it in view;
- ``heldout``: written from the statements only, and first measured before any change it
  could have inspired (see its README);
- ``sealed``: written last, from the statements only, and measured once at the end;
- ``blind``: the numpy-foundations course's, written from its statements, theory, starters and
  exercise.toml only, by someone who had seen none of its mistakes, samples, solutions or
  cases (see its README), with ``shortcut_*.py`` files besides: attempts to pass without doing
  what the statement asks, which must fail like any wrong file;
- ``blind2``: a second such corpus for the same course and the three backward exercises,
  written on 2026-12-05 by someone who had not seen the grader's code either, while the
  mistakes and operators it measures were being written elsewhere (see its README);
- ``blind3``: a third, for the numpy-foundations course only, written and first measured on
  2026-12-05 the same way, while another branch was improving diagnosis with blind2 in view:
  the measure of how that work generalises (see its README);
- ``blind4``: three wrong files for every exercise of both courses, written and first measured
  on 2026-12-05 after branch diag4 by someone who had seen neither the grader, the mistakes nor
  the other corpora (see its README);
- ``blind5``: the exercises added after blind4 (kmeans-step, numerical-gradient), written the
  same way from the statement, theory, starter and exercise.toml alone, with right, wrong and
  shortcut files (see its READMEs).

Within a corpus:

- ``right_*.py`` is a correct alternative written differently from the reference (split
  weights, a per-step loop, a naive but finite sigmoid, ...). It must pass, which shows the
  cases are not over-fitted to the reference's way of computing.
- every other file is wrong and must fail: the verdict is not PASSED and at least one HIDDEN
  test fails or errors, so the mistake cannot slip through on the public tests alone. These
  files are written as a learner would, without looking at ``mistakes/`` or at the mutants;
  ``RIGHT_DIAGNOSES`` names the known mistakes, mutation operators and checks (a failure
  category such as ``changed_input``) whose hint describes the file truly. Any other diagnosis
  is a misleading hint, and none is allowed.

Every file is graded once, in the real sandbox, and the report is shared by the tests below.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from enum import Enum
from pathlib import Path

import pytest

from graders import api
from graders.api import GradeReport, Sandbox, Status, Verdict, Visibility
from graders.results import Diagnosis

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CATALOG = api.ExerciseCatalog(REPO / "exercises")
MIN_WRONG_PER_EXERCISE = 3
CORPORA = ("wrong", "heldout", "sealed", "blind", "blind2", "blind3", "blind4", "blind5")


class Cohort(Enum):
    """The exercises a floor was measured on."""

    FIRST = "first"  # those the corpora were written for
    NUMPY_FOUNDATIONS = "numpy foundations"  # the second course's, in the blind corpus
    ADDED_LATER = "added later"  # ADDED_LATER


# Added to the default course after the corpora were written and their floors set; their
# files joined each corpus on 2026-12-02, from someone who had not seen their mistakes (see
# each corpus's README).
ADDED_LATER = frozenset({"gru-pytorch-port", "gru-step-backward", "lstm-step-backward"})
# Per corpus and cohort, the share of wrong solutions that get a right diagnosis (a known
# mistake's hint or a mutant's meaning). The goal is 0.9; each floor is what the engine
# reached when it was set, so that it can only go up. FIRST's were set before the later
# exercises joined and still apply to the same exercises (2026-12-02: wrong 137 of 138,
# held-out 86 of 87, sealed 52 of 54). ADDED_LATER's were set on 2026-12-02 at their first
# measure after wrong/'s undiagnosed files got mistakes: wrong 12 of 12, held-out 5 of 12,
# sealed 5 of 12; held-out's was raised on 2026-12-05 when the gradient operators named a
# sigmoid's derivative left out (6 of 12).
# Raised on 2026-12-05 (branch diag, issue 38 D/E/F) after new operators (a statistic over the
# whole array, an argument for its complement, float32, a reshape for a transpose, a slice of
# the last axis taken on the first, a gate for another or on the wrong part of a sum, an
# activation's input for its output), new mistakes in every exercise of the numpy-foundations
# course and the three later ones, and two diagnosis rules (a non-finite number equals any
# other; a learner's code that also raises where no candidate does is told the mistake its
# returned values show): wrong 138 of 138 and 12 of 12, held-out 87 of 87 and 12 of 12,
# sealed 52 of 54 and 12 of 12, blind 75 of 80. The later exercises' held-out and sealed files
# were read to write those mistakes and operators, so their 12 of 12 measure no longer tells
# how diagnosis does on unseen work (the corpora's READMEs say so).
DIAGNOSED_FLOOR = {
    ("wrong", Cohort.FIRST): 1.0,
    ("heldout", Cohort.FIRST): 1.0,
    ("sealed", Cohort.FIRST): 0.96,
    ("wrong", Cohort.ADDED_LATER): 1.0,
    ("heldout", Cohort.ADDED_LATER): 1.0,
    ("sealed", Cohort.ADDED_LATER): 1.0,
    # Set on 2026-12-05 at the blind corpus's measure on main after that day's merges (43 of
    # its 80 wrong files, shortcuts apart; its README has the first measure, 40 of 80); raised
    # the same day to 75 of 80 (see above and the README).
    ("blind", Cohort.NUMPY_FOUNDATIONS): 0.93,
    # blind2's first measure, on main at de77798 (its README): 41 of 70 and 12 of 15; raised on
    # 2026-12-05 at its measure after branch diag's operators and mistakes, which were written
    # without this corpus in view: 50 of 70 and 14 of 15; raised again the same day after
    # branch diag4, which read its undiagnosed files (its README): 68 of 70 and 15 of 15.
    ("blind2", Cohort.NUMPY_FOUNDATIONS): 0.97,
    ("blind2", Cohort.ADDED_LATER): 1.0,
    # blind3's first measure, on main at 9bba078 (its README): 49 of 60; after branch diag4,
    # which never saw it, 52 of 60 (four new right hints, one lost to a new case); 53 of 60
    # once the lead, who had read it, gave the lost one's mistake its guarded spelling; 60 of 60
    # after branch diag5, which read its undiagnosed files and wrote mistakes in other
    # spellings for them (its README).
    ("blind3", Cohort.NUMPY_FOUNDATIONS): 1.0,
    # blind4's first measure, on main after branch diag4 (its README): numpy foundations 29 of
    # 30; the gated-recurrence course 40 of 42, of which 31 of 33 on its first exercises and 9
    # of 9 on the three added later.
    ("blind4", Cohort.NUMPY_FOUNDATIONS): 0.96,
    ("blind4", Cohort.FIRST): 0.93,
    ("blind4", Cohort.ADDED_LATER): 1.0,
    # blind5's first measures (its READMEs): kmeans-step on main after branch kmeans43, 5 of the
    # 9 wrong files that are not shortcuts (the tenth was a right alternative, renamed);
    # numerical-gradient on main after branch callables43, 6 of 10: 11 of 19.
    ("blind5", Cohort.NUMPY_FOUNDATIONS): 0.57,
}
# The corpora were written for the default course (gated recurrent networks), and every one of
# its exercises must keep three wrong solutions in each. Another course's exercises join when
# someone who has not seen their mistakes writes their files (a corpus written by the
# mistakes' author would measure nothing); until then their samples/ are what validate grades.
# Exercises added after blind4 was written: their mistakes' author cannot write their files;
# each has them in blind5, from someone who had not seen its mistakes.
AFTER_BLIND4 = frozenset({"kmeans-step", "numerical-gradient"})
FOUNDATIONS = [
    e.id for e in CATALOG.all() if e.course == "numpy-foundations" and e.id not in AFTER_BLIND4
]
COVERED_IDS = {
    corpus: [e.id for e in CATALOG.all() if e.course is None] for corpus in CORPORA[:3]
} | {
    "blind": FOUNDATIONS,
    "blind2": FOUNDATIONS + sorted(ADDED_LATER),
    "blind3": FOUNDATIONS,
    "blind4": [e.id for e in CATALOG.all() if e.id not in AFTER_BLIND4],
    "blind5": sorted(AFTER_BLIND4),
}
# Shortcuts that still pass, each a known gap of the grader named here with why, so that the
# test fails the day one starts failing (and the entry must go) as well as the day another
# passes.
KNOWN_PASSING_SHORTCUTS = {
    "blind/affine-layer/shortcut_global_registry": (
        "the cache is an index into a module-level list: it behaves right, and nothing the "
        "grader observes tells it from a cache that holds the arrays"
    ),
}

FILES = sorted(f for corpus in CORPORA for f in (HERE / corpus).glob("*/*.py"))
WRONG_FILES = [f for f in FILES if not f.stem.startswith("right_")]
RIGHT_FILES = [f for f in FILES if f.stem.startswith("right_")]


def corpus_of(path: Path) -> str:
    return path.parent.parent.name


def cohort_of(path: Path) -> Cohort:
    if path.parent.name in ADDED_LATER:
        return Cohort.ADDED_LATER
    if CATALOG.load(path.parent.name).course == "numpy-foundations":
        return Cohort.NUMPY_FOUNDATIONS
    return Cohort.FIRST


def is_shortcut(path: Path) -> bool:
    return path.stem.startswith("shortcut_")


def file_id(path: Path) -> str:
    return f"{corpus_of(path)}/{path.parent.name}/{path.stem}"


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    pool = Sandbox(workers=2)
    try:
        yield pool
    finally:
        pool.close()


@pytest.fixture(scope="module")
def reports() -> dict[Path, GradeReport]:
    """Reports by file, filled on first use so that each file is graded once per module."""
    return {}


def report_for(path: Path, sandbox: Sandbox, reports: dict[Path, GradeReport]) -> GradeReport:
    if path not in reports:
        prepared = CATALOG.prepared(path.parent.name)
        reports[path] = api.grade(prepared, path.read_text(encoding="utf-8"), sandbox)
    return reports[path]


def right_diagnoses(path: Path) -> frozenset[str]:
    """What the file declares a right diagnosis of itself: ``RIGHT_DIAGNOSES = ("name", ...)``
    holds mistake file names, mutation operator names and checks' failure categories (empty
    when none fits)."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "RIGHT_DIAGNOSES" for t in node.targets
        ):
            return frozenset(ast.literal_eval(node.value))
    return frozenset()


def diagnosis_name(diagnosis: Diagnosis) -> str:
    """A mistake's file name, a mutant's operator (its key is ``operator:line:column``) or a
    check's failure category."""
    return diagnosis.key.split(":")[0]


def describe(report: GradeReport) -> str:
    return "\n" + api.format_report(report)


# --- the collection -----------------------------------------------------------------------


@pytest.mark.parametrize("corpus", CORPORA)
def test_files_exist(corpus: str) -> None:
    assert [f for f in WRONG_FILES if corpus_of(f) == corpus], f"no wrong solutions in {corpus}"
    assert RIGHT_FILES, f"no right_* solutions under {HERE}"


@pytest.mark.parametrize(
    ("corpus", "exercise_id"),
    [(corpus, exercise_id) for corpus in CORPORA for exercise_id in COVERED_IDS[corpus]],
)
def test_every_exercise_has_at_least_three_wrong_solutions(corpus: str, exercise_id: str) -> None:
    wrong = [f.stem for f in WRONG_FILES if corpus_of(f) == corpus and f.parent.name == exercise_id]
    assert len(wrong) >= MIN_WRONG_PER_EXERCISE, (
        f"{exercise_id}: {len(wrong)} wrong solutions in {HERE / corpus / exercise_id} {wrong}; "
        f"want at least {MIN_WRONG_PER_EXERCISE}"
    )


@pytest.mark.parametrize("corpus", CORPORA)
def test_every_folder_names_an_exercise(corpus: str) -> None:
    folders = sorted(
        p.name for p in (HERE / corpus).iterdir() if p.is_dir() and p.name != "__pycache__"
    )
    assert set(folders) <= set(CATALOG.ids()), set(folders) - set(CATALOG.ids())


@pytest.mark.parametrize("path", FILES, ids=file_id)
def test_file_has_docstring_and_entry(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree)
    assert doc and "\n" not in doc.strip(), f"{file_id(path)}: want a one-line docstring"
    exercise = CATALOG.load(path.parent.name)
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    for entry in exercise.entries or (exercise.entry,):
        assert entry in defined, f"{file_id(path)}: does not define {entry}"


# --- grading ------------------------------------------------------------------------------


def known_passing(path: Path) -> pytest.MarkDecorator | tuple[()]:
    reason = KNOWN_PASSING_SHORTCUTS.get(file_id(path))
    return pytest.mark.xfail(strict=True, reason=reason) if reason else ()


@pytest.mark.parametrize(
    "path", [pytest.param(f, marks=known_passing(f)) for f in WRONG_FILES], ids=file_id
)
def test_hidden_cases_catch_wrong_solution(
    path: Path, sandbox: Sandbox, reports: dict[Path, GradeReport]
) -> None:
    report = report_for(path, sandbox, reports)
    assert report.verdict is not Verdict.PASSED, f"{file_id(path)} passes:{describe(report)}"
    hidden_failures = [
        t.name
        for t in report.tests
        if t.visibility is Visibility.HIDDEN and t.status is not Status.PASSED
    ]
    assert hidden_failures, (
        f"{file_id(path)} fails only public tests; no hidden test catches it:{describe(report)}"
    )


@pytest.mark.parametrize("path", WRONG_FILES, ids=file_id)
def test_no_misleading_hint(path: Path, sandbox: Sandbox, reports: dict[Path, GradeReport]) -> None:
    report = report_for(path, sandbox, reports)
    if report.diagnosis is not None:
        assert diagnosis_name(report.diagnosis) in right_diagnoses(path), (
            f"{file_id(path)} gets a misleading hint ({report.diagnosis.key}):{describe(report)}"
        )


@pytest.mark.parametrize(
    ("corpus", "cohort"), DIAGNOSED_FLOOR, ids=[f"{c}-{k.name.lower()}" for c, k in DIAGNOSED_FLOOR]
)
def test_share_of_right_diagnoses(
    corpus: str, cohort: Cohort, sandbox: Sandbox, reports: dict[Path, GradeReport]
) -> None:
    # A shortcut is no mistake a hint could name (it must only fail and mislead no one).
    files = [
        f
        for f in WRONG_FILES
        if corpus_of(f) == corpus and cohort_of(f) is cohort and not is_shortcut(f)
    ]
    diagnosed = []
    for path in files:
        diagnosis = report_for(path, sandbox, reports).diagnosis
        if diagnosis is not None and diagnosis_name(diagnosis) in right_diagnoses(path):
            diagnosed.append(file_id(path))
    share = len(diagnosed) / len(files)
    assert share >= DIAGNOSED_FLOOR[corpus, cohort], (
        f"{corpus}, {cohort.value} exercises: {len(diagnosed)} of {len(files)} wrong solutions "
        f"get a right diagnosis; none for {sorted({file_id(f) for f in files} - set(diagnosed))}"
    )


@pytest.mark.parametrize("path", RIGHT_FILES, ids=file_id)
def test_right_alternative_passes(
    path: Path, sandbox: Sandbox, reports: dict[Path, GradeReport]
) -> None:
    report = report_for(path, sandbox, reports)
    assert report.verdict is Verdict.PASSED, f"{file_id(path)} should pass:{describe(report)}"
