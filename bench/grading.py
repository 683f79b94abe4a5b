"""Grading speed: the warm-zygote engine against a cold interpreter per submission.

Grades the reference of gru-update-gate through the engine, and a known wrong solution (its
outputs are matched against the known mistakes and the reference's mutants), then the
reference through a cold path (a fresh `python` of the same interpreter per submission that
imports numpy and the harness and runs the same tasks, with no isolation layers, so the
comparison favours the cold path), and measures gradings per second with two workers. Prints
medians, p95s and ratios measured in this one run; machines here are noisy, so only the
ratios mean much.

    .venv/bin/python bench/grading.py [--runs 60]
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from graders.api import ExerciseCatalog, PreparedExercise, Sandbox, SandboxLimits, Verdict, grade
from graders.grading.grade import judge
from graders.grading.plan import plan_tasks
from graders.sandbox.launch import PACKAGE_ROOT, child_environment
from graders.sandbox.protocol import encode_tasks, exchange

ROOT = Path(__file__).resolve().parents[1]
EXERCISE = "gru-update-gate"
COLD_HARNESS = (
    "import socket, sys, numpy; from graders.sandbox import harness; "
    "harness.serve(socket.socket(fileno=int(sys.argv[1])), 20000)"
)


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def timed(action: Callable[[], object], runs: int) -> list[float]:
    action()  # warm-up
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        samples.append(time.perf_counter() - started)
    return samples


def cold_grade(prepared: PreparedExercise, code: str, limits: SandboxLimits) -> Verdict:
    """The same grading, but through a freshly started interpreter."""
    tasks, plans = plan_tasks(prepared.cases)
    ours, theirs = socket.socketpair()
    process = subprocess.Popen(
        [sys.executable, "-c", COLD_HARNESS, str(theirs.fileno())],
        pass_fds=[theirs.fileno()],
        stdin=subprocess.DEVNULL,
        env={**child_environment(), "PYTHONPATH": PACKAGE_ROOT},
    )
    theirs.close()
    run = exchange(
        ours,
        code,
        prepared.exercise.sandbox_entry,
        encode_tasks(tasks),
        time.monotonic() + 30,
        limits,
    )
    ours.close()
    process.wait()
    return judge(prepared, plans, run, limits).verdict


def throughput(
    sandbox: Sandbox, prepared: PreparedExercise, code: str, seconds: float, threads: int
) -> float:
    done = [0] * threads
    stop = time.monotonic() + seconds

    def work(slot: int) -> None:
        while time.monotonic() < stop:
            assert grade(prepared, code, sandbox).verdict is Verdict.PASSED
            done[slot] += 1

    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return sum(done) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()

    prepared = ExerciseCatalog(ROOT / "exercises").prepared(EXERCISE)
    code = (ROOT / "exercises" / EXERCISE / "solution.py").read_text()
    wrong = (ROOT / "exercises" / EXERCISE / "mistakes" / "one_minus_z.py").read_text()
    tasks, _ = plan_tasks(prepared.cases)
    with Sandbox(workers=2) as sandbox:
        engine = timed(lambda: grade(prepared, code, sandbox), args.runs)
        failing = timed(lambda: grade(prepared, wrong, sandbox), args.runs)
        cold = timed(lambda: cold_grade(prepared, code, sandbox.limits), max(args.runs // 3, 10))
        rate = throughput(sandbox, prepared, code, args.seconds, threads=2)

    engine_median, cold_median = statistics.median(engine), statistics.median(cold)
    cold_rate = 2 / cold_median
    print(f"exercise {EXERCISE}: {len(prepared.cases)} cases, {len(tasks)} sandbox calls")
    for label, samples in (("engine", engine), ("wrong", failing), ("cold", cold)):
        print(
            f"{label:<7} median {statistics.median(samples) * 1000:7.1f} ms   "
            f"p95 {percentile(samples, 0.95) * 1000:7.1f} ms   ({len(samples)} gradings)"
        )
    print(f"ratio   engine/cold median {engine_median / cold_median:.3f}   (goal <= 0.100)")
    print(
        f"rate    {rate:.1f} gradings/s with 2 workers   (goal >= 40; two cold workers: "
        f"{cold_rate:.1f}/s, ratio {rate / cold_rate:.1f}x)"
    )


if __name__ == "__main__":
    main()
