"""Verdicts on a loaded host: an honest solution that needs about 1.5 s of CPU time, graded
while CPU-spinning submissions hold the pool's other slots and extra spinning processes keep
the host's load average at 8 or more.

A pool of four slots (as the service runs on 2 cores: the cores plus two): three of them grade
a submission that spins at import, again and again, each stopped at its CPU time limit; the
fourth grades the honest solution (gru-update-gate's reference after 1.5 s of CPU-bound work)
N times under a 2 s limit. Extra spinning processes, each in a session and so a scheduling
group of its own, load the host until its one-minute load average reaches the target before
the first grading. With a wall-clock time limit the honest solution got "timeout" whenever it
was slowed by more than a third; with the CPU-time limit the goal is 0 timeouts.

Prints the outcomes of the honest gradings (verdicts, and engine faults by kind), the load
average seen, and the honest runs' CPU and wall-clock times. Nothing is asserted: hosts vary.

    .venv/bin/python bench/loaded_host.py [--gradings 200] [--spinners 8] [--load 8]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from graders.api import (
    ExerciseCatalog,
    PreparedExercise,
    SandboxFault,
    SandboxLimits,
    SandboxStarved,
    grade,
)
from graders.sandbox.runner import Sandbox

ROOT = Path(__file__).resolve().parents[1]
EXERCISE = "gru-update-gate"
SLOTS = 4
HONEST_CPU_S = 1.5
TIME_LIMIT_S = 2.0
SPIN = "while True:\n    pass\n"
LOAD_WAIT_S = 300.0


def honest_solution() -> str:
    """The reference, after work that needs ``HONEST_CPU_S`` of CPU time however slowly it
    gets it (process time, not wall-clock time)."""
    reference = (ROOT / "exercises" / EXERCISE / "solution.py").read_text()
    return reference + (
        f"\nimport time\n_end = time.process_time() + {HONEST_CPU_S}\n"
        "while time.process_time() < _end:\n    pass\n"
    )


def spin_in_slots(
    sandbox: Sandbox,
    prepared: PreparedExercise,
    limits: SandboxLimits,
    stop: threading.Event,
    verdicts: Counter[str],
) -> None:
    """Grade a spinning submission again and again until ``stop``."""
    while not stop.is_set():
        try:
            verdicts[grade(prepared, SPIN, sandbox, limits=limits).verdict.value] += 1
        except SandboxFault as fault:
            verdicts[type(fault).__name__] += 1


def start_spinners(count: int) -> list[subprocess.Popen[bytes]]:
    return [
        subprocess.Popen([sys.executable, "-c", SPIN], start_new_session=True) for _ in range(count)
    ]


def wait_for_load(target: float) -> float:
    """The one-minute load average once it reaches ``target`` (or after ``LOAD_WAIT_S``)."""
    deadline = time.monotonic() + LOAD_WAIT_S
    while os.getloadavg()[0] < target and time.monotonic() < deadline:
        time.sleep(2)
    return os.getloadavg()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gradings", type=int, default=200, help="honest gradings (200)")
    parser.add_argument(
        "--spinners", type=int, default=8, help="extra spinning processes outside the pool (8)"
    )
    parser.add_argument(
        "--load",
        type=float,
        default=8.0,
        help="one-minute load average to reach before grading (8)",
    )
    options = parser.parse_args()

    prepared = ExerciseCatalog(ROOT / "exercises").prepared(EXERCISE)
    honest = honest_solution()
    limits = replace(
        SandboxLimits(), time_s=TIME_LIMIT_S, memory_mb=prepared.exercise.limits.memory_mb
    )
    outcomes: Counter[str] = Counter()
    spinner_verdicts: Counter[str] = Counter()
    cpu_ms: list[int] = []
    wall_s: list[float] = []
    loads: list[float] = []
    stop = threading.Event()
    # Stopped by a signal, the spinners (sessions of their own) are still killed below.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    spinners = start_spinners(options.spinners)
    try:
        with Sandbox(workers=SLOTS, limits=limits) as sandbox:
            slots = [
                threading.Thread(
                    target=spin_in_slots, args=(sandbox, prepared, limits, stop, spinner_verdicts)
                )
                for _ in range(SLOTS - 1)
            ]
            for slot in slots:
                slot.start()
            print(
                f"waiting for a load average of {options.load:g} "
                f"({options.spinners} spinning processes, {SLOTS - 1} spinning slots)...",
                flush=True,
            )
            loads.append(wait_for_load(options.load))
            print(
                f"load average {loads[0]:.1f}: grading the honest solution "
                f"{options.gradings} times ({HONEST_CPU_S:g} s of CPU time each, limit "
                f"{TIME_LIMIT_S:g} s)",
                flush=True,
            )
            for number in range(1, options.gradings + 1):
                started = time.monotonic()
                try:
                    report = grade(prepared, honest, sandbox, limits=limits)
                except SandboxStarved:
                    outcomes["engine fault: starved (graded again later)"] += 1
                except SandboxFault:
                    outcomes["engine fault: other"] += 1
                else:
                    outcomes[f"{report.verdict.value} {report.score:g}/{report.max_score:g}"] += 1
                    if report.cost is not None:
                        cpu_ms.append(report.cost.cpu_ms)
                wall_s.append(time.monotonic() - started)
                loads.append(os.getloadavg()[0])
                if number % 10 == 0:
                    print(f"  {number} gradings: {dict(outcomes)}", flush=True)
            stop.set()
            for slot in slots:
                slot.join()
    finally:
        stop.set()
        for spinner in spinners:
            os.killpg(spinner.pid, signal.SIGKILL)
            spinner.wait()

    timeouts = sum(count for outcome, count in outcomes.items() if outcome.startswith("timeout"))
    print()
    print(f"honest gradings: {options.gradings}, timeouts: {timeouts}")
    for outcome, count in outcomes.most_common():
        print(f"  {outcome}: {count}")
    print(f"spinning slots' gradings: {dict(spinner_verdicts)}")
    print(
        f"load average: {min(loads):.1f} to {max(loads):.1f} "
        f"(median {statistics.median(loads):.1f})"
    )
    if cpu_ms:
        print(
            f"honest CPU time: median {statistics.median(cpu_ms) / 1000:.2f} s, "
            f"max {max(cpu_ms) / 1000:.2f} s"
        )
    print(
        f"honest wall-clock time: median {statistics.median(wall_s):.1f} s, "
        f"max {max(wall_s):.1f} s (backstop at {limits.wall_s:g} s, ceiling at "
        f"{limits.starved_wall_s:g} s)"
    )


if __name__ == "__main__":
    main()
