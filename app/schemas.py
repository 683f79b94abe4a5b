"""Pydantic bodies of the HTTP API (requests and responses), with OpenAPI examples."""

from __future__ import annotations

import enum
from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.core.text import check_storable
from graders.api import Failure

StatusName = Literal["queued", "running", "done"]
VerdictName = Literal["passed", "failed", "error", "timeout", "memory_limit"]

EXAMPLE_CODE = (
    "import numpy as np\n\n"
    "def update_gate(x_t, h_prev, W_z, b_z):\n"
    "    return 1 / (1 + np.exp(-(np.concatenate([h_prev, x_t], -1) @ W_z.T + b_z)))\n"
)


class SubmissionIn(BaseModel):
    """What ``POST /submit`` and ``POST /run`` take."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"exercise": "gru-update-gate", "code": EXAMPLE_CODE}]},
    )

    exercise: str = Field(
        min_length=1,
        max_length=100,
        description="the exercise id",
        examples=["gru-update-gate"],
        json_schema_extra={"pattern": r"^[^\x00]+$"},
    )
    code: str = Field(
        description="the Python source; limited to NUMJUDGE_MAX_CODE_BYTES; "
        "not only whitespace; no NUL character, no lone surrogate",
        # documented only: the validator below and the service say what is wrong
        json_schema_extra={"pattern": r"^[^\x00]*[^\x00\s][^\x00]*$"},
    )

    @field_validator("exercise", "code")
    @classmethod
    def _storable(cls, value: str) -> str:
        return check_storable(value)


class SliceIndexOut(BaseModel):
    axis: str = Field(examples=["axis 0"])
    index: int = Field(examples=[2])


NonFinite = Literal["NaN", "Infinity", "-Infinity"]
"""A number JSON cannot hold, named (graders/checks/error_map.py writes them so)."""


class ToleranceOut(BaseModel):
    rtol: float = Field(examples=[1e-7])
    atol: float = Field(examples=[1e-9])


class ErrorMapOut(BaseModel):
    """A wrong output reduced to its picture (docs/service.md, "Error maps"): ``error`` is a
    grid of absolute errors (``matrix``, ``slice``) or one row, the largest error per step or
    batch item (``sequence``, ``batch``); ``ticks`` give the output's index of each drawn row,
    column or point; large outputs are sampled (a matrix) or reduced to each run's largest
    error (a line). A value that is not a finite number is the string ``"NaN"``,
    ``"Infinity"`` or ``"-Infinity"``."""

    kind: Literal["matrix", "sequence", "batch", "slice"]
    shape: list[int] = Field(description="the whole output's shape", examples=[[4, 6]])
    axes: list[str] = Field(description="the drawn axes", examples=[["axis 0", "axis 1"]])
    ticks: list[list[int]] = Field(description="per drawn axis, the output's indices")
    worst: list[int] = Field(
        description="the index of the element furthest outside the tolerance, the one the "
        "test's message names",
        examples=[[3, 5]],
    )
    worst_error: float | NonFinite = Field(description="its absolute error", examples=[0.25])
    tolerance: ToleranceOut | None = Field(
        None, description="the tolerance the values were compared with (null in maps kept earlier)"
    )
    error: list[list[float | NonFinite]]
    expected: list[list[float | NonFinite]] = Field(
        description="the drawn elements; empty for a line"
    )
    got: list[list[float | NonFinite]] = Field(description="the drawn elements; empty for a line")
    fixed: list[SliceIndexOut] = Field(description="a slice's indices on the other axes")


class TestResultOut(BaseModel):
    name: str = Field(
        examples=["numerical example"], description="the test's name, the same in every language"
    )
    title: str = Field(
        "",
        examples=["数値例"],
        description="the test's name in the reader's language (Accept-Language); its name "
        "where the exercise does not translate it",
    )
    visibility: Literal["public", "hidden"]
    status: Literal["passed", "failed", "error"]
    points: float = Field(examples=[1.0])
    max_points: float = Field(examples=[1.0])
    failure: Failure | None = Field(
        None,
        description="why the test did not pass, from a fixed "
        "vocabulary; a hidden test's message says only this",
    )
    message: str = Field("", examples=["shape: expected (4, 3), got (3, 4)"])
    error_map: ErrorMapOut | None = Field(
        None,
        description="where a failed public test's values are wrong, to draw it (only when the "
        "values were compared and the output has more than a few elements; never on a hidden "
        "test)",
    )

    @model_validator(mode="after")
    def _title_defaults_to_name(self) -> TestResultOut:
        if not self.title:
            self.title = self.name
        return self


class TryIn(BaseModel):
    """What ``POST /exercises/{id}/try`` takes: the code, and one expression per parameter of
    the entry function (Python literals and a few numpy constructors, read without running
    anything; docs/service.md, "Custom inputs")."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "code": EXAMPLE_CODE,
                    "inputs": {"x": "np.array([[1.0, -2.0]])", "W": "np.eye(2)", "b": "[0.5, 0]"},
                }
            ]
        },
    )

    code: str = Field(description="the learner's code, as for /run")
    inputs: dict[str, str] = Field(
        description="per parameter of the entry function, its value as an expression",
        max_length=64,
    )

    @field_validator("code")
    @classmethod
    def _storable_code(cls, value: str) -> str:
        return check_storable(value)

    @field_validator("inputs")
    @classmethod
    def _storable_inputs(cls, value: dict[str, str]) -> dict[str, str]:
        for name, text in value.items():
            check_storable(name)
            check_storable(text)
        return value


class TryOut(BaseModel):
    """The learner's output next to the reference's on the learner's own inputs."""

    status: Literal["same", "different", "error", "reference_error"] = Field(
        description="the outputs agree; they differ; the learner's call gave no value; the "
        "reference's gave none (inputs outside what the statement promises)"
    )
    message: str = Field(
        description="the comparison's message, as a test's", examples=["values: 1 of 4 ..."]
    )
    yours: str = Field(description="the learner's output as numpy prints it (cut when long)")
    reference: str = Field(description="the reference's output, or why there is none")
    output: str = Field("", description="what the learner's code printed")
    error_map: ErrorMapOut | None = Field(
        None, description="where the values differ, as a failed public test's"
    )


class DiagnosisOut(BaseModel):
    """The one known mistake that explains every failing test whose output came back."""

    hint: str = Field(examples=["Your gate and the expected one add up to 1 in every entry."])
    cases: list[str] = Field(
        description="the failing tests it explains", examples=[["numerical example", "batched"]]
    )
    source: Literal["mistake", "mutant", "check"] = Field(
        description="a hand-written mistake of the exercise, a mutant of the reference, or a "
        "check that every failing test failed on right values"
    )


class AssignmentCreditOut(BaseModel):
    """What a graded submission is worth in the assignment that holds its exercise."""

    assignment: str = Field(examples=["week-1"])
    due: datetime = Field(description="the learner's own due time (an extension included)")
    late_factor: float = Field(
        description="the share of its score the late policy keeps: 1 on time, 0 after a cut-off"
    )
    points: float | None = Field(
        None,
        description="the submission's points in the assignment, the late policy applied "
        "(null until graded); the assignment counts the learner's best submission",
    )
    max_points: float = Field(description="the exercise's weight in the assignment")


class SubmissionOut(BaseModel):
    """A submission's result (``GET /submissions/{id}``); final once ``status`` is done."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "3f0c9a4e5b8d4f7e9a1b2c3d4e5f6a7b",
                    "url": "/submissions/3f0c9a4e5b8d4f7e9a1b2c3d4e5f6a7b",
                    "exercise": "gru-update-gate",
                    "exercise_version": "a1b2c3d4e5f60718",
                    "user": "ada",
                    "kind": "submit",
                    "status": "done",
                    "verdict": "failed",
                    "score": 7.0,
                    "max_score": 10.0,
                    "message": "",
                    "tests": [
                        {
                            "name": "numerical example",
                            "visibility": "public",
                            "status": "failed",
                            "points": 0.0,
                            "max_points": 1.0,
                            "failure": "wrong_shape",
                            "message": "shape: expected (4, 3), got (3, 4)",
                        }
                    ],
                    "diagnosis": {
                        "hint": "Your gate and the expected one add up to 1 in every entry.",
                        "cases": ["numerical example"],
                        "source": "mistake",
                    },
                    "output": "",
                    "created_at": "2026-01-05T10:00:00Z",
                    "started_at": "2026-01-05T10:00:00Z",
                    "finished_at": "2026-01-05T10:00:00Z",
                    "duration_ms": 12,
                    "attempts": 1,
                    "late": True,
                    "counts_for": {
                        "assignment": "week-1",
                        "due": "2026-01-04T22:59:00Z",
                        "late_factor": 0.9,
                        "points": 0.63,
                        "max_points": 1.0,
                    },
                }
            ]
        }
    )

    id: str
    url: str
    exercise: str
    exercise_version: str
    user: str
    kind: Literal["submit", "run"]
    status: StatusName
    verdict: VerdictName | None = None
    score: float | None = None
    max_score: float | None = None
    message: str = Field("", description="a whole-submission error, e.g. a SyntaxError")
    tests: list[TestResultOut] = Field(default_factory=list)
    diagnosis: DiagnosisOut | None = Field(
        None, description="a hint, shown only when one known mistake explains the failures"
    )
    output: str = Field("", description="what the code printed on public cases, truncated")
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    duration_ms: int | None = None
    attempts: int = 0
    regraded: bool = Field(
        False,
        description="graded again after the exercise changed; "
        "GET /submissions/{id}/reports lists every report it had",
    )
    variant: dict[str, float] = Field(
        default_factory=dict,
        description="the learner's numbers it was graded with (the exercise's @variant); "
        "empty for an exercise without variants",
    )
    late: bool = Field(
        False,
        description="made after the learner's due time of the assignment holding the "
        "exercise (false for a run and for an exercise kept for practice)",
    )
    counts_for: AssignmentCreditOut | None = Field(
        None, description="the assignment the submission counts for (null: a run, or practice)"
    )


class SubmissionSummary(BaseModel):
    """One line of a history (no code, no per-test detail)."""

    id: str
    url: str
    exercise: str
    kind: Literal["submit", "run"]
    status: StatusName
    verdict: VerdictName | None = None
    score: float | None = None
    max_score: float | None = None
    created_at: datetime
    finished_at: datetime | None = None
    late: bool = Field(
        False, description="a graded submission made after your due time (as in the result)"
    )


class ExerciseSummary(BaseModel):
    id: str = Field(examples=["gru-update-gate"])
    course: str = Field(
        description="the id of the exercise's course; GET /exercises lists course after course",
        examples=["gated-recurrence"],
    )
    course_title: str = Field(
        description="the course's title in the reader's language (GET /exercises: "
        "Accept-Language; GET /exercises/{id}: the statement's), else English",
        examples=["Gated recurrent networks"],
    )
    title: str = Field(
        description="the title in the reader's language (as course_title), else English",
        examples=["GRU update gate"],
    )
    difficulty: Literal["easy", "medium", "hard"]
    tags: list[str] = Field(examples=[["gru", "gates"]])
    order: int
    version: str = Field(description="content hash of the folder; changes on every edit")
    languages: list[str] = Field(examples=[["en", "ja"]])
    url: str


class RuleOut(BaseModel):
    """What the code may not use: code that uses it is not run, its tests fail (forbidden)."""

    rule: str = Field(
        description="as declared: a word of the fixed vocabulary "
        "(python-loop), import:<module> or a dotted name",
        examples=["python-loop"],
    )
    description: str = Field(
        examples=[
            "Python loops (for, while, comprehensions, map, filter, reduce, np.vectorize, "
            "np.frompyfunc, recursion)"
        ]
    )


class CaseRuleOut(BaseModel):
    """A test's own rule on CPU time (``@case(time_s=..., max_slowdown=...)`` in cases.py)."""

    test: str = Field(examples=["large"])
    time_limit_s: float | None = Field(
        None, description="the test's own CPU time limit, in seconds"
    )
    max_slowdown: float | None = Field(
        None, description="at most this many times the reference's CPU time on the test"
    )


class ExerciseDetail(ExerciseSummary):
    """Everything a learner may see. Never the solution, hidden inputs or expected outputs."""

    entry: str = Field(examples=["update_gate"])
    source: str | None = None
    time_limit_s: float
    memory_limit_mb: int
    language: str = Field(description="the language of statement and theory below")
    statement_markdown: str
    statement_html: str
    theory_markdown: str | None = None
    theory_html: str | None = None
    starter_code: str
    public_cases: list[str] = Field(examples=[["numerical example"]])
    forbidden: list[RuleOut] = Field(
        description="what the code may not use, checked before it runs"
    )
    case_rules: list[CaseRuleOut] = Field(
        default_factory=list, description="tests with a rule on CPU time of their own"
    )
    custom_inputs: bool = Field(
        description="whether POST /exercises/{id}/try takes the learner's own inputs "
        "([checks] custom_inputs; never for an exercise of several entries)"
    )
    variant: dict[str, float] = Field(
        default_factory=dict,
        examples=[{"alpha": 0.6}],
        description="the reader's own numbers (the exercise's @variant), already in the "
        "statement and in their public cases; empty for an exercise without variants",
    )


class PublicCaseInputs(BaseModel):
    name: str = Field(examples=["numerical example"])
    inputs: dict[str, Any] = Field(
        description="each argument of the entry function, encoded as app/services/public_inputs.py "
        "says: JSON, or {npy: base64 of np.save} for an array, {float: 'nan'}, {tuple: [...]}, "
        "{dict: [[key, value], ...]}"
    )


class PublicInputsOut(BaseModel):
    """The inputs of an exercise's public cases (shown on its page too); never a hidden case's,
    never an expected output. Empty for an exercise of several entries (scenarios)."""

    entry: str
    cases: list[PublicCaseInputs]
    skipped: list[str] = Field(
        default_factory=list, description="public cases whose inputs this encoding cannot carry"
    )


class HealthStatus(enum.Enum):
    OK = "ok"
    DEGRADED = "degraded"  # submissions are accepted but may not be graded


class Health(BaseModel):
    status: HealthStatus
    database: str = Field(description="'ok' or the error")
    queue: str = Field(description="'ok' or the error")
    sandbox: str = Field(
        description="'ok' when a live worker's canary grading passed at most "
        "NUMJUDGE_CANARY_MAX_AGE_S ago, else why not"
    )
    exercises: int
    workers: int | None = Field(None, description="grading processes with a live heartbeat")
    grading_threads: int | None = Field(None, description="their grading threads in all")
    queued: int | None = Field(None, description="submissions waiting to be graded")
    oldest_queued_s: float | None = Field(None, description="age of the oldest of them")
    canary_age_s: float | None = Field(None, description="age of the newest passing canary")
    problems: list[str] = Field(
        default_factory=list,
        description="why submissions cannot be graded now, and which "
        "exercises are graded against their last good version while "
        "their folder does not load (these leave the status ok)",
    )


class ErrorOut(BaseModel):
    detail: str = Field(examples=["Exercise 'nope' not found"])


class FieldErrorOut(BaseModel):
    loc: list[str | int] = Field(examples=[["body", "code"]])
    msg: str = Field(examples=["Field required"])
    type: str = Field(examples=["missing"])


class ValidationErrorOut(BaseModel):
    """A ``422``: a sentence, then each problem for programs."""

    detail: str = Field(examples=["Field 'code' is required"])
    errors: list[FieldErrorOut] = Field(default_factory=list)


class LatePolicyOut(BaseModel):
    policy: Literal["cutoff", "penalty"]
    per_day: float = Field(0.0, description="share of the score lost per started day late")
    floor: float = Field(0.0, description="the share a late submission keeps at least")


class RegradeStateOut(BaseModel):
    """A regrade in progress: some of the learner's work was graded by an earlier version."""

    state: Literal["queued", "not_queued"] = Field(
        description="queued: the regrade is running; not_queued: the exercise changed and no "
        "regrade was started"
    )
    graded_max: float = Field(description="the maximum the counted submission was graded out of")
    current_max: float | None = Field(
        description="the current version's maximum (null: the exercise does not prepare)"
    )


class ScoreChangeOut(BaseModel):
    """A finished regrade changed the points the schedule counts."""

    before: float
    after: float


class AssignmentExerciseOut(BaseModel):
    id: str = Field(examples=["gru-update-gate"])
    title: str
    url: str
    weight: float
    share: float = Field(description="best share of the points, late policy applied (0 to 1)")
    points: float = Field(description="weight × share, rounded to 2 decimals")
    late: bool = Field(description="the best share came from a late submission")
    attempts: int
    regrade: RegradeStateOut | None = Field(None, description="a regrade in progress")
    score_change: ScoreChangeOut | None = Field(None, description="what a finished regrade changed")


class AssignmentOut(BaseModel):
    """An assignment of the schedule with the signed-in user's progress."""

    id: str = Field(examples=["gru-by-hand"])
    title: str
    url: str
    opens: datetime
    due: datetime = Field(description="the user's own due time (an extension if granted)")
    extended: bool
    state: Literal["upcoming", "open", "late", "closed"]
    seconds_left: float = Field(description="until the due time; negative once past it")
    late_policy: LatePolicyOut
    score: float = Field(description="the points the schedule counts, rounded to 2 decimals")
    max_score: float
    complete: bool = Field(description="full marks on every exercise, late policy applied")
    submission_budget: int | None = Field(
        None,
        description="graded submissions a learner may make to each exercise (null: no limit); "
        "runs are not counted",
    )
    exercises: list[AssignmentExerciseOut]


class ReportOut(BaseModel):
    """One report a submission had: earlier ones were replaced by a regrade."""

    exercise_version: str
    verdict: VerdictName | None = None
    score: float | None = None
    max_score: float | None = None
    graded_at: datetime | None = None
    hint: str | None = Field(None, description="the diagnosis's hint, if it had one")
    current: bool = Field(description="the report the submission has now")


class StaleExerciseOut(BaseModel):
    exercise: str = Field(examples=["gru-update-gate"])
    title: str
    version: str = Field(description="the exercise's current version")
    stale: int = Field(description="graded submissions an earlier version graded")


class RegradeOut(BaseModel):
    exercise: str
    queued: int = Field(description="submissions queued again, behind learners' own work")


class CountOut(BaseModel):
    label: str = Field(examples=["100 %"])
    count: int


class DayCountOut(BaseModel):
    day: date
    count: int


class TestPassRateOut(BaseModel):
    name: str
    visibility: Literal["public", "hidden"]
    passed: int
    graded: int
    rate: float = Field(description="passed / graded, over every graded submission")


class MistakeCountOut(BaseModel):
    hint: str = Field(description="the diagnosis's hint, as learners saw it")
    submissions: int
    learners: int
    by_day: list[DayCountOut]


class ExerciseAnalyticsOut(BaseModel):
    """The class view of one exercise: learners' graded submissions (instructors' left out)."""

    exercise: str
    title: str
    learners: int = Field(description="learners with at least one graded submission")
    submissions: int
    best_scores: list[CountOut] = Field(description="learners per band of their best share")
    tests: list[TestPassRateOut]
    mistakes: list[MistakeCountOut] = Field(description="most frequent first")
    full_score_learners: int
    median_attempts_to_full: float | None = None
    median_hours_to_full: float | None = None


class AssignmentAnalyticsOut(BaseModel):
    assignment: str
    title: str
    learners: int
    complete: int = Field(description="learners with full marks on every exercise")
    completion_by_day: list[DayCountOut]
    submissions: int
    late_submissions: int
    late_share: float


class SubmissionBudgetOut(BaseModel):
    """A learner's graded submissions to one exercise against the schedule's bounds
    (``course.toml``: ``submissions``, ``submissions_per_day``, ``cooldown_minutes``)."""

    exercise: str
    limited: bool = Field(description="false: no bound applies (or an instructor)")
    allowed: int | None = Field(None, description="graded submissions in all (null: no total)")
    used: int = 0
    left: int | None = Field(None, description="left in all (null: no total)")
    per_day: int | None = Field(
        None, description="per calendar day of the schedule's time zone (null: no bound)"
    )
    left_today: int | None = None
    cooldown_s: float | None = Field(None, description="least seconds between two of them")
    blocked_by: Literal["total", "per_day", "cooldown"] | None = Field(
        None, description="what refuses a graded submission now (null: one is possible)"
    )
    next_at: datetime | None = Field(
        None, description="when the next one is possible (null: now, or never once total)"
    )
    retry_after_s: int | None = Field(None, description="seconds until next_at")


class HiddenCaseOut(BaseModel):
    """A hidden test revealed after its assignment closed: its inputs and expected output."""

    name: str
    inputs: dict[str, str] = Field(description="each argument's value, as numpy prints it")
    expected: str
    status: str | None = Field(None, description="this submission's result on it")
    message: str = Field(description="the message the submission's report showed")
    full_message: str | None = Field(
        None,
        description="what the test would have said as a public one (null: it passed, or the "
        "submission was graded before full messages were kept)",
    )


class HiddenTestsOut(BaseModel):
    """A submission's hidden tests: revealed once its assignment closed for everyone
    (``reveal_hidden_after_close`` in course.toml)."""

    submission: str
    reveals: bool = Field(description="its assignment reveals hidden tests once closed")
    revealed: bool
    cases: list[HiddenCaseOut]
