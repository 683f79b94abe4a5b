"""What one ``numjudge grade <exercise> <file>`` costs an author, against a cold numpy start.

Alternates, in one run, the two: the cold start of ``python -c "import numpy"`` (this
interpreter, a fresh process each time) and the whole command of an author who grades one
file (``numjudge grade``: the command's imports, the exercise's preparation with its mutants'
cache, the sandbox's root image and zygote, the grading, the report). Each is the wall time
of a fresh process, the median of ``--rounds``; one warm-up of each first, so that the page
cache holds the files either reads and the exercise's prepared outputs are cached on disk
(as for an author who grades in a loop). Prints both medians and their ratio: machines here
are noisy, so the ratio is the figure to compare (docs/performance.md).

    .venv/bin/python bench/grade_once.py [--exercise gru-update-gate] [--file PATH]
        [--rounds 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NUMJUDGE = Path(sys.executable).with_name("numjudge")


def wall_s(command: list[str], expect: int) -> float:
    """The wall time of ``command`` in a fresh process, which must exit with ``expect``."""
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != expect:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exercise", default="gru-update-gate")
    parser.add_argument("--file", type=Path, help="the graded file (default: the reference)")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    file = args.file or ROOT / "exercises" / args.exercise / "solution.py"
    numpy_start = [sys.executable, "-c", "import numpy"]
    grade = [str(NUMJUDGE), "grade", args.exercise, str(file)]
    wall_s(numpy_start, 0)
    # A file that passes exits 0, one that fails 1: both are a grading, and every round must
    # end as the warm-up did.
    warm = subprocess.run(grade, cwd=ROOT, capture_output=True, text=True)
    if warm.returncode not in (0, 1):
        raise SystemExit(f"numjudge grade exited {warm.returncode}:\n{warm.stderr}")
    expect = warm.returncode
    numpy_times, grade_times = [], []
    for _ in range(args.rounds):
        numpy_times.append(wall_s(numpy_start, 0))
        grade_times.append(wall_s(grade, expect))
    numpy_s, grade_s = statistics.median(numpy_times), statistics.median(grade_times)
    print(f"python -c 'import numpy'   median {numpy_s * 1000:7.0f} ms over {args.rounds}")
    print(f"numjudge grade {args.exercise:<11} median {grade_s * 1000:7.0f} ms over {args.rounds}")
    print(f"ratio grade / numpy start: {grade_s / numpy_s:.1f}")


if __name__ == "__main__":
    main()
