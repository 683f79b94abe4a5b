"""What one ``numjudge grade <exercise> <file>`` costs an author, against a cold numpy start.

Alternates, in one run, the two: the cold start of ``python -c "import numpy"`` (this
interpreter, a fresh process each time) and the whole command of an author who grades one
file (``numjudge grade``: the command's imports, the exercise's preparation with its mutants'
cache, the sandbox's root image and zygote, the grading, the report). Each is measured in a
fresh process: its wall time and its CPU time with its child processes' (the builder, the
zygote), the medians of ``--rounds``; one warm-up of each first, so that the page cache holds
the files either reads and the exercise's prepared outputs are cached on disk (as for an
author who grades in a loop). Prints the medians and the ratios: machines here are noisy, so
the ratios are the figures to compare, the CPU one the steadier on a loaded host
(docs/performance.md).

    .venv/bin/python bench/grade_once.py [--exercise gru-update-gate] [--file PATH]
        [--rounds 7]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NUMJUDGE = Path(sys.executable).with_name("numjudge")


def children_cpu_s() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def measured(command: list[str], expect: int) -> tuple[float, float]:
    """The wall time and the CPU time (of every process it waited for) of ``command`` in a
    fresh process, which must exit with ``expect``."""
    cpu, started = children_cpu_s(), time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != expect:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr}")
    return elapsed, children_cpu_s() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exercise", default="gru-update-gate")
    parser.add_argument("--file", type=Path, help="the graded file (default: the reference)")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    file = args.file or ROOT / "exercises" / args.exercise / "solution.py"
    numpy_start = [sys.executable, "-c", "import numpy"]
    grade = [str(NUMJUDGE), "grade", args.exercise, str(file)]
    measured(numpy_start, 0)
    # A file that passes exits 0, one that fails 1: both are a grading, and every round must
    # end as the warm-up did.
    warm = subprocess.run(grade, cwd=ROOT, capture_output=True, text=True)
    if warm.returncode not in (0, 1):
        raise SystemExit(f"numjudge grade exited {warm.returncode}:\n{warm.stderr}")
    expect = warm.returncode
    numpy_runs, grade_runs = [], []
    for _ in range(args.rounds):
        numpy_runs.append(measured(numpy_start, 0))
        grade_runs.append(measured(grade, expect))
    numpy_wall, numpy_cpu = (statistics.median(r[i] for r in numpy_runs) for i in (0, 1))
    grade_wall, grade_cpu = (statistics.median(r[i] for r in grade_runs) for i in (0, 1))
    print(f"medians over {args.rounds} rounds: wall time, CPU time (with its child processes)")
    print(f"  python -c 'import numpy'  {numpy_wall * 1000:6.0f} ms  {numpy_cpu * 1000:6.0f} ms")
    print(f"  numjudge grade            {grade_wall * 1000:6.0f} ms  {grade_cpu * 1000:6.0f} ms")
    wall_ratio, cpu_ratio = grade_wall / numpy_wall, grade_cpu / numpy_cpu
    print(f"ratio grade / numpy start: wall {wall_ratio:.1f}, CPU {cpu_ratio:.1f}")


if __name__ == "__main__":
    main()
