"""The engine's CPU per grading, by process: the trusted side, the zygote, the sandboxes.

Grades an exercise's reference through one warm zygote (no HTTP, database or queue) and reads
the CPU time of this process, of its zygote and of the sandboxes the zygote reaped from
``/proc``, so each part is counted on its own. CPU time moves less with the host's load than
wall time, but still moves: compare two checkouts by running this in each, alternately.

    python bench/engine_cpu.py [--exercise gru-update-gate] [--gradings 200] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from graders.api import ExerciseCatalog, Sandbox, grade

REPO = Path(__file__).resolve().parents[1]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

OWN, REAPED = 0, 1
"""Which of a zygote's pair of counts: its own, or its reaped sandboxes'."""


def stat_fields(pid: int) -> list[int]:
    """``/proc/<pid>/stat`` from its state on, as numbers (the state itself as 0)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return [0, *(int(value) for value in fields[1:])]


def own_and_reaped_s(pid: int) -> tuple[float, float]:
    """CPU seconds of a process itself and of the children it reaped."""
    utime, stime, cutime, cstime = stat_fields(pid)[11:15]
    return (utime + stime) / CLOCK_TICKS, (cutime + cstime) / CLOCK_TICKS


def own_and_reaped_faults(pid: int) -> tuple[int, int]:
    """Minor page faults of a process itself and of the children it reaped: most of them
    copies on write of the zygote's pages, which move far less with the host's load than
    CPU time does."""
    minflt, cminflt = stat_fields(pid)[7:9]
    return minflt, cminflt


def children() -> list[int]:
    """This process's children: the zygote (and its first stage, when rootless)."""
    return [
        int(pid)
        for task in Path("/proc/self/task").iterdir()
        for pid in (task / "children").read_text().split()
    ]


def per_grading_ms(exercise: str, gradings: int) -> tuple[dict[str, float], dict[str, float]]:
    """Milliseconds of CPU per grading of ``exercise``'s reference, by part, and the page
    faults per grading of the zygote and of the sandbox."""
    prepared = ExerciseCatalog(REPO / "exercises").prepared(exercise)
    code = (REPO / "exercises" / exercise / "solution.py").read_text()
    with Sandbox(workers=1) as sandbox:
        for _ in range(10):  # warm-up: the zygote's first sandboxes fault in its pages
            grade(prepared, code, sandbox)
        zygotes = children()
        before = [own_and_reaped_s(pid) for pid in zygotes]
        faults_before = [own_and_reaped_faults(pid) for pid in zygotes]
        trusted = time.process_time()
        for _ in range(gradings):
            grade(prepared, code, sandbox)
        trusted = time.process_time() - trusted
        after = [own_and_reaped_s(pid) for pid in zygotes]
        faults_after = [own_and_reaped_faults(pid) for pid in zygotes]
    parts = {
        "trusted side": trusted,
        "zygote": grown(before, after, OWN),
        "sandboxes": grown(before, after, REAPED),
    }
    parts["engine"] = sum(parts.values())
    per_grading = {part: seconds / gradings * 1000 for part, seconds in parts.items()}
    faults = {
        part: grown(faults_before, faults_after, which) / gradings
        for part, which in (("zygote", OWN), ("sandbox", REAPED))
    }
    return per_grading, faults


def grown(
    before: Sequence[tuple[float, float]], after: Sequence[tuple[float, float]], which: int
) -> float:
    """How much one of the zygotes' counts grew, all zygotes together."""
    return sum(a[which] - b[which] for a, b in zip(after, before, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--exercise", default="gru-update-gate")
    parser.add_argument("--gradings", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rounds, faults = [], []
    for _ in range(args.rounds):
        cpu, faulted = per_grading_ms(args.exercise, args.gradings)
        rounds.append(cpu)
        faults.append(faulted)
        print(
            ", ".join(f"{part} {ms:.2f} ms" for part, ms in cpu.items())
            + "; page faults "
            + ", ".join(f"{part} {count:.0f}" for part, count in faulted.items())
            + f" (load average {os.getloadavg()[0]:.1f})"
        )
    print(
        "median per grading: "
        + ", ".join(
            f"{part} {statistics.median(r[part] for r in rounds):.2f} ms" for part in rounds[0]
        )
        + "; page faults "
        + ", ".join(
            f"{part} {statistics.median(f[part] for f in faults):.0f}" for part in faults[0]
        )
    )


if __name__ == "__main__":
    main()
