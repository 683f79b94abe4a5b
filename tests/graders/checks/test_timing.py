"""Rules on a case's CPU time, in the real sandbox: a speed rule against the reference
(``max_slowdown``) and a case's own time limit (``time_s``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from graders.api import PreparedExercise, Sandbox, load_exercise, prepare_exercise
from graders.authoring.validation import validate_folder
from graders.cases import case
from graders.checks.hidden import hidden_message
from graders.grading.grade import grade
from graders.grading.plan import Audience
from graders.results import Failure, Status, Verdict
from graders.sandbox.protocol import Deferral, Task, encode_tasks
from tests.graders.helpers import edit
from tests.graders.timed_exercises import (
    ENTRY_LOOP,
    SPINS_ON_LONG_INPUTS,
    make_gram,
    make_running_total,
)

# The entry loop is about 50 times the reference's CPU time on a 1100 x 1100 input: far past
# the rule of 5x on any host, as CPU time does not grow with the host's load.
SLOW_MESSAGE = re.compile(
    r"speed: \d+\.\dx the reference's CPU time on test 'large' \(\d\.\d{3} s against "
    r"\d\.\d{3} s, the best of 3 runs each\); the rule is at most 5x: replace Python loops "
    r"over the elements by whole-array operations"
)


@pytest.fixture(scope="module")
def gram(tmp_path_factory: pytest.TempPathFactory) -> PreparedExercise:
    return prepare_exercise(load_exercise(make_gram(tmp_path_factory.mktemp("timed"))))


@pytest.fixture(scope="module")
def running_total(tmp_path_factory: pytest.TempPathFactory) -> PreparedExercise:
    return prepare_exercise(load_exercise(make_running_total(tmp_path_factory.mktemp("timed"))))


def test_the_reference_keeps_its_speed_rule(gram: PreparedExercise, sandbox: Sandbox) -> None:
    report = grade(gram, (gram.exercise.path / "solution.py").read_text(), sandbox)
    assert report.verdict is Verdict.PASSED
    assert report.score == 3


def test_a_loop_over_the_entries_fails_the_speed_rule_saying_how_much_slower(
    gram: PreparedExercise, sandbox: Sandbox
) -> None:
    report = grade(gram, ENTRY_LOOP, sandbox, audience=Audience.AUTHOR)
    large = report.tests[1]
    assert (report.verdict, report.score) == (Verdict.FAILED, 1)
    assert (large.status, large.failure) == (Status.FAILED, Failure.SLOW)
    assert SLOW_MESSAGE.fullmatch(large.message), large.message
    assert report.diagnosis is not None and report.diagnosis.key == "slow"
    assert report.diagnosis.cases == ("large",)


def test_a_hidden_speed_case_says_only_its_category(
    gram: PreparedExercise, sandbox: Sandbox
) -> None:
    large = grade(gram, ENTRY_LOOP, sandbox).tests[1]
    assert (large.failure, large.message) == (Failure.SLOW, hidden_message(Failure.SLOW))
    assert large.message == (
        "speed: right values, but slower than this test's speed rule allows "
        "(details are not shown for hidden tests)"
    )


MEMOISED_LOOP = (
    ENTRY_LOOP.replace("def gram(x):", "def slow_gram(x):")
    + """
seen = {}


def gram(x):
    key = x.tobytes()
    if key not in seen:
        seen[key] = slow_gram(x)
    return seen[key]
"""
)

RIGHT_ONCE = """
import numpy as np

calls = []


def gram(x):
    calls.append(1)
    return x @ x.T if len(calls) <= 2 else np.zeros((x.shape[0], x.shape[0]))
"""


def test_a_speed_case_runs_on_new_inputs_each_time(
    gram: PreparedExercise, sandbox: Sandbox
) -> None:
    # Remembering the first run's result does not make the next runs fast: each has inputs
    # of its own, and each must be right.
    memoised = grade(gram, MEMOISED_LOOP, sandbox).tests[1]
    assert memoised.failure is Failure.SLOW
    right_once = grade(gram, RIGHT_ONCE, sandbox, audience=Audience.AUTHOR).tests[1]
    assert (right_once.failure, right_once.message) == (
        Failure.VALUES,
        "values: right on this test's inputs, but wrong on another run of it on inputs made "
        "the same way (a speed test is run 3 times, each on inputs of its own)",
    )


def test_validate_grades_the_loop_sample_and_reports_the_references_speed(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    result = validate_folder(make_gram(tmp_path), sandbox)
    assert result.problems == []
    assert "1 sample(s)" in result.notes
    assert any(
        re.fullmatch(
            r"speed case 'large': the reference takes \d\.\d{3} s, then \d\.\d{3} s of CPU "
            r"time measured again \(each the best of 3 runs\), \d+\.\d\dx apart; the rule "
            r"allows 5x",
            cost,
        )
        for cost in result.costs
    ), result.costs


def test_validate_refuses_a_speed_rule_without_room_for_noise(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    folder = make_gram(tmp_path)
    edit(folder / "cases.py", "max_slowdown=5", "max_slowdown=1.5")
    (folder / "samples" / "entry_loop.py").unlink()
    # So tight a rule the reference may fail too, by chance: that is why it is refused.
    problems = [p for p in validate_folder(folder, sandbox).problems if "speed case" in p]
    assert len(problems) == 1
    assert re.fullmatch(
        r"cases.py: speed case 'large': the reference measured against itself is \d+\.\d\dx, "
        r"not within 1.5x / 2: the rule leaves too little room for measurement noise; allow "
        r"more \(max_slowdown\) or make the input larger",
        problems[0],
    )


def test_validate_refuses_a_speed_case_too_small_to_measure(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    folder = make_gram(tmp_path)
    edit(folder / "cases.py", "size=(1100, 1100)", "size=(6, 6)")
    (folder / "samples" / "entry_loop.py").unlink()
    result = validate_folder(folder, sandbox)
    problems = [p for p in result.problems if "speed case" in p]
    assert len(problems) == 1
    figure = re.fullmatch(
        r"cases.py: speed case 'large': the reference takes only (0\.0\d\d) s of CPU time in "
        r"one of its two measurements, too little to measure \(at least 0.02 s each\): make "
        r"the input larger",
        problems[0],
    )
    assert figure is not None, problems[0]
    # The figure refused is one the costs line printed: never "takes 0.021 s" printed and
    # "only 0.019 s, too little" refused.
    (line,) = [cost for cost in result.costs if cost.startswith("speed case 'large'")]
    printed = re.search(r"takes (\d\.\d{3}) s, then (\d\.\d{3}) s", line)
    assert printed is not None and figure.group(1) == min(printed.groups()), line


def test_a_case_over_its_own_time_limit_is_stopped_there(
    running_total: PreparedExercise, sandbox: Sandbox
) -> None:
    report = grade(running_total, SPINS_ON_LONG_INPUTS, sandbox)
    short, long, after = report.tests
    assert (report.verdict, report.score) == (Verdict.TIMEOUT, 1)
    assert short.status is Status.PASSED
    assert (long.status, long.failure, long.message) == (
        Status.ERROR,
        Failure.TIME_LIMIT,
        "time limit exceeded: test 'long' was stopped at its limit of 0.5 s of CPU time; look "
        "for work that grows faster than the input (a Python loop over its elements, a copy "
        "inside a loop)",
    )
    # The sandbox was stopped: the cases after it did not run, whatever the whole
    # submission's limit (20 s) had left.
    assert report.message == "the code was stopped when test 'long' reached its limit of 0.5 s"
    assert (after.failure, after.message) == (
        Failure.TIME_LIMIT,
        hidden_message(Failure.TIME_LIMIT),
    )
    assert report.cost is not None and report.cost.cpu_ms < 20_000


def test_a_hidden_case_stopped_at_its_own_limit_is_told_as_any_timeout(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    folder = make_running_total(tmp_path)
    edit(folder / "cases.py", "@case(public=True, time_s=0.5)", "@case(time_s=0.5)")
    prepared = prepare_exercise(load_exercise(folder))
    report = grade(prepared, SPINS_ON_LONG_INPUTS, sandbox)
    assert [(t.name, t.failure) for t in report.tests] == [
        ("short", None),
        ("long", Failure.TIME_LIMIT),
        ("hidden after", Failure.TIME_LIMIT),
    ]
    assert report.tests[1].message == hidden_message(Failure.TIME_LIMIT)
    assert report.message.startswith("time limit exceeded during a hidden test (20 s of CPU time")
    # The author reads which case was stopped, and why.
    author = grade(prepared, SPINS_ON_LONG_INPUTS, sandbox, audience=Audience.AUTHOR)
    assert author.message == "the code was stopped when test 'long' reached its limit of 0.5 s"


def test_a_timed_public_case_keeps_its_printed_output_and_exception_text(
    running_total: PreparedExercise, sandbox: Sandbox
) -> None:
    code = """
import numpy as np


def running_total(x):
    print("length", x.size)
    if x.size > 100:
        raise ValueError("too long")
    return np.cumsum(x)
"""
    report = grade(running_total, code, sandbox)
    long = report.tests[1]
    assert (long.failure, long.message) == (
        Failure.EXCEPTION,
        "raised ValueError on line 8: too long",
    )
    assert "--- long ---\nlength 1000\n" in report.output
    assert report.tests[2].status is Status.PASSED


def test_a_timed_case_within_its_limit_passes(
    running_total: PreparedExercise, sandbox: Sandbox
) -> None:
    report = grade(
        running_total, (running_total.exercise.path / "solution.py").read_text(), sandbox
    )
    assert (report.verdict, report.score) == (Verdict.PASSED, 4)


def test_a_shown_case_cannot_follow_a_hidden_one() -> None:
    hidden = Task(("x",), (1.0,), hidden=True)
    shown = Task(("x",), (1.0,), hidden=True, deferral=Deferral(shown=True, timed=True))
    encode_tasks([shown, hidden])
    with pytest.raises(ValueError, match="a shown case must come before every hidden case"):
        encode_tasks([hidden, shown])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"time_s": 0.01}, "time_s must be at least 0.05 s, got 0.01"),
        ({"max_slowdown": 1}, "max_slowdown must be > 1, got 1"),
    ],
)
def test_case_refuses_limits_that_cannot_hold(options: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        case(**options)  # type: ignore[call-overload]


def test_validate_holds_the_reference_to_half_of_a_cases_own_limit(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    folder = make_running_total(tmp_path)
    result = validate_folder(folder, sandbox)
    assert result.problems == []
    assert any(
        re.fullmatch(
            r"case 'long': the reference takes 0\.\d{3} s of CPU time of its limit of 0.5 s", cost
        )
        for cost in result.costs
    ), result.costs
    # A reference that spins for 0.2 s or more on the case (5 million turns took only 0.051 to
    # 0.057 s here, too close to half the limit): over half a limit of 0.1 s, or stopped at it.
    edit(
        folder / "solution.py",
        "    return np.cumsum(x)",
        "    for _ in range(20_000_000 if x.size > 100 else 0):\n        pass\n"
        "    return np.cumsum(x)",
    )
    edit(folder / "cases.py", "time_s=0.5", "time_s=0.1")
    problems = validate_folder(folder, sandbox).problems
    own = [p for p in problems if p.startswith("cases.py: case 'long': the reference ")]
    assert len(own) == 1
    assert re.fullmatch(
        r"cases.py: case 'long': the reference (takes 0\.\d{3} s of CPU time, more than half "
        r"its|was stopped at the case's) own limit \(time_s=0.1\): raise the limit, or make "
        r"the case smaller",
        own[0],
    )


EXITS_AROUND_THE_TIMED_CASE = """
import os
import threading
import time

import numpy as np


next_case = threading.Event()


def leave():
    next_case.wait()
    os._exit(3)


def running_total(x):
    if x.size == 3:
        threading.Thread(target=leave).start()
    else:
        next_case.set()
        time.sleep(1)
    return np.cumsum(x)
"""


def test_a_sandbox_that_ends_around_a_timed_case_is_the_codes_crash(
    running_total: PreparedExercise, sandbox: Sandbox
) -> None:
    # It ends as the next case starts, so before, while or after the zygote reads the first
    # case's CPU time: the reading waits for the end, which is kept for the run's verdict. (It
    # ended 50 ms after the first case started, which a loaded host let come before that case's
    # result was out.)
    for _ in range(3):
        report = grade(running_total, EXITS_AROUND_THE_TIMED_CASE, sandbox)
        assert report.verdict is Verdict.ERROR
        assert [t.status for t in report.tests] == [Status.PASSED, Status.ERROR, Status.ERROR]
    assert grade(
        running_total, (running_total.exercise.path / "solution.py").read_text(), sandbox
    ).passed
