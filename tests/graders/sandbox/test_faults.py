"""Faults of the engine and hostile frames: the learner is never blamed for the engine's
faults, the trusted side never crashes on a frame, and the slot grades well right after."""

from __future__ import annotations

import json
import os
import signal
import textwrap
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from graders.api import (
    ExerciseCatalog,
    GradeReport,
    PreparedExercise,
    Sandbox,
    SandboxLimits,
    Verdict,
    canary,
    grade,
)
from tests.graders.sandbox.processes import descendants, past_its_layers

REPO = Path(__file__).resolve().parents[3]
SOLUTION = (REPO / "exercises" / "gru-update-gate" / "solution.py").read_text()
LIMITS = SandboxLimits(time_s=3.0, memory_mb=384, max_output_mb=32, max_stdout_chars=1000)
# An honest solution that takes a while: the grading after a hostile one must not inherit
# anything from it (a stale exit message, a late frame, a half-read channel).
SLOW_HONEST = SOLUTION + "\nimport time\ntime.sleep(1.0)\n"
FORGE = """
import json, os, socket, struct
for fd in range(3, 64):
    try:
        channel = socket.socket(fileno=fd)
        channel.getsockopt(socket.SOL_SOCKET, socket.SO_TYPE)
        break
    except OSError:
        continue
def send(header: bytes) -> None:
    channel.sendall(struct.pack(">I", len(header)) + header)
"""


@pytest.fixture(scope="module")
def gate() -> PreparedExercise:
    return ExerciseCatalog(REPO / "exercises").prepared("gru-update-gate")


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(workers=1, limits=LIMITS) as pool:
        yield pool


def grade_code(gate: PreparedExercise, sandbox: Sandbox, code: str) -> GradeReport:
    return grade(gate, code, sandbox, limits=LIMITS)


def assert_storable(report: GradeReport) -> None:
    text = json.dumps(report.to_dict(), ensure_ascii=False)
    text.encode("utf-8")  # a lone surrogate would raise here
    assert "\x00" not in text and "\\u0000" not in text


def assert_slow_honest_passes(gate: PreparedExercise, sandbox: Sandbox) -> None:
    report = grade_code(gate, sandbox, SLOW_HONEST)
    assert report.verdict is Verdict.PASSED, report.to_dict()


def forged(frames: str) -> str:
    return FORGE + textwrap.dedent(frames) + "\nos._exit(0)\n"


HOSTILE = {
    "infinite float index": forged("""
        send(b'{"kind":"loaded","buffers":[]}')
        send(b'{"kind":"results","first":Infinity,"results":[{"ok":true,"value":{"t":"py","v":1}}],'
             b'"buffers":[]}')
    """),
    "infinite float shape": forged("""
        send(b'{"kind":"results","first":0,"buffers":[],"results":[{"ok":true,'
             b'"value":{"t":"nd","dtype":"<f8","shape":[Infinity],"b":0}}]}')
    """),
    "deeply nested json": forged("""
        send(b'[' * 200000 + b']' * 200000)
    """),
    "deeply nested value": forged("""
        send(b'{"kind":"results","first":0,"buffers":[],"results":[{"ok":true,"value":'
             + b'{"t":"list","items":[' * 50000 + b']}' * 50000 + b'}]}')
    """),
    "public cases done with an infinite count": forged("""
        send(b'{"kind":"loaded","buffers":[]}')
        one = b'{"ok":true,"value":{"t":"py","v":1}}'
        send(b'{"kind":"results","first":0,"results":[%s],"buffers":[]}' % b",".join([one] * 4))
        send(b'{"kind":"public_done","dropped_chars":Infinity,"buffers":[]}')
    """),
    "huge forged output and message": forged("""
        # Within the 2 MiB all of a submission's headers may hold (protocol.py), 1.2 million
        # characters of output in all.
        big = "x" * 600_000
        send(b'{"kind":"loaded","buffers":[]}')
        send(json.dumps({"kind": "results", "first": 0, "buffers": [], "results": [
            {"ok": False, "stdout": "", "error": {"type": "E" * 5000, "message": big,
                                                  "line": [1] * 100, "traceback": "t" * 9999}}
        ]}).encode())
        for index in (1, 2, 3):
            send(json.dumps({"kind": "results", "first": index, "buffers": [], "results": [
                {"ok": False, "stdout": big[:400_000], "error": {}}]}).encode())
        send(b'{"kind":"public_done","dropped_chars":-5,"buffers":[]}')
    """),
}
FORGED = frozenset(HOSTILE)
HOSTILE |= {
    "lone surrogates and nul": SOLUTION + "\nprint('\\ud800 lone \\x00 nul \\udfff')\n",
    "unequal batched slices": SOLUTION
    + textwrap.dedent("""
        _reference = update_gate
        _calls = [0]

        def update_gate(x_t, h_prev, W_z, b_z):
            result = _reference(x_t, h_prev, W_z, b_z)
            if h_prev.ndim == 2:
                return result
            _calls[0] += 1
            return [result] * (2 - _calls[0] % 2)
    """),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_submission_is_its_own_error_and_the_next_slow_one_passes(
    gate: PreparedExercise, sandbox: Sandbox, name: str
) -> None:
    report = grade_code(gate, sandbox, HOSTILE[name])
    if name in FORGED:
        assert report.verdict is Verdict.ERROR, report.to_dict()
        assert report.score == 0
    assert_storable(report)
    assert len(report.output) <= LIMITS.max_stdout_chars + 100
    assert len(report.message) <= 600
    assert all(len(test.message) <= 5000 for test in report.tests)
    assert_slow_honest_passes(gate, sandbox)


def test_forged_caps_are_applied_on_the_trusted_side(
    gate: PreparedExercise, sandbox: Sandbox
) -> None:
    report = grade_code(gate, sandbox, HOSTILE["huge forged output and message"])
    assert report.verdict is Verdict.ERROR
    assert report.output.endswith("[... 1199000 more characters were cut]")
    first = report.tests[0].message
    assert first.startswith("raised " + "E" * 200 + ": xxx")  # public: the capped message shows
    assert len(first) < 4300


def test_surrogates_and_nul_are_replaced_before_storing(
    gate: PreparedExercise, sandbox: Sandbox
) -> None:
    report = grade_code(gate, sandbox, HOSTILE["lone surrogates and nul"])
    assert report.verdict is Verdict.PASSED
    assert "\ufffd lone \ufffd nul \ufffd" in report.output


def test_unequal_batched_slices_fail_batch_consistency(
    gate: PreparedExercise, sandbox: Sandbox
) -> None:
    report = grade_code(gate, sandbox, HOSTILE["unequal batched slices"])
    assert report.verdict is Verdict.FAILED
    batch = next(t for t in report.tests if t.name == "batch of two")
    assert batch.message.startswith("batch consistency: the unbatched results cannot be stacked")


def wait_for(condition: object, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:  # type: ignore[operator]
        time.sleep(0.02)
    assert condition(), "the condition never held"  # type: ignore[operator]


@pytest.mark.slow
def test_a_zygote_killed_mid_grading_is_retried_and_never_blamed(gate: PreparedExercise) -> None:
    with Sandbox(workers=1, limits=LIMITS) as pool:
        zygote = pool.zygotes[0]
        reports: list[GradeReport] = []
        runner = threading.Thread(
            target=lambda: reports.append(grade_code(gate, pool, SLOW_HONEST))
        )
        runner.start()
        wait_for(lambda: any(map(past_its_layers, descendants(zygote.process.pid))))
        os.kill(zygote.process.pid, signal.SIGKILL)
        runner.join(timeout=60)
        assert reports and reports[0].verdict is Verdict.PASSED, reports
        assert pool.zygotes[0] is not zygote and pool.zygotes[0].alive


@pytest.mark.slow
def test_a_stopped_zygote_is_an_engine_fault_never_a_timeout(gate: PreparedExercise) -> None:
    limits = replace(LIMITS, time_s=1.0)  # this side's backstop at 11 + 3 s
    with Sandbox(workers=1, limits=limits) as pool:
        zygote = pool.zygotes[0]
        reports: list[GradeReport] = []
        runner = threading.Thread(
            target=lambda: reports.append(grade(gate, SLOW_HONEST, pool, limits=limits))
        )
        runner.start()
        wait_for(lambda: any(map(past_its_layers, descendants(zygote.process.pid))))
        # A zygote (and its sandbox) frozen: this side's backstop fires, and the grading is
        # tried again in a fresh zygote rather than judged.
        os.killpg(zygote.process.pid, signal.SIGSTOP)
        runner.join(timeout=60)
        assert reports and reports[0].verdict is Verdict.PASSED, reports
        assert pool.zygotes[0] is not zygote
        assert_slow_honest_passes(gate, pool)


@pytest.mark.slow
def test_the_canary_grades_and_reports_a_pool_that_cannot() -> None:
    with Sandbox(workers=1, limits=LIMITS) as pool:
        assert canary(pool).ok
        broken = replace(LIMITS, max_open_files=0)  # no sandbox can be set up with these
        with Sandbox(workers=1, limits=broken) as bad_pool:
            result = canary(bad_pool)
    assert not result.ok
    assert "Too many open files" in result.message
