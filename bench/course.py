"""Grading a whole course: every exercise's reference and starter through one warm sandbox.

Prints the median and fastest milliseconds per round (each exercise's reference and starter
graded once). The machines here are noisy, so compare two checkouts by running this in each,
alternately, on the same host (``PYTHONPATH=<checkout>`` picks the engine):

    .venv/bin/python bench/course.py [--course gated-recurrence] [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from graders.api import DEFAULT_COURSE_ID, ExerciseCatalog, Sandbox, grade

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exercises", type=Path, default=ROOT / "exercises")
    parser.add_argument("--course", default=DEFAULT_COURSE_ID, help="a course id, or 'all'")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    catalog = ExerciseCatalog(args.exercises)
    chosen = [
        exercise
        for exercise in catalog.all()
        if args.course in ("all", exercise.course or DEFAULT_COURSE_ID)
    ]
    prepared = {exercise.id: catalog.prepared(exercise.id) for exercise in chosen}
    codes = [
        (exercise.id, (exercise.path / name).read_text(encoding="utf-8"))
        for exercise in chosen
        for name in ("solution.py", "starter.py")
    ]
    rounds = []
    with Sandbox(workers=1) as sandbox:
        for exercise_id, code in codes:  # warm: the zygote, the caches
            grade(prepared[exercise_id], code, sandbox)
        for _ in range(args.rounds):
            start = time.perf_counter()
            for exercise_id, code in codes:
                grade(prepared[exercise_id], code, sandbox)
            rounds.append((time.perf_counter() - start) * 1000)
    print(
        f"{len(chosen)} exercises, {len(codes)} gradings per round: "
        f"median {statistics.median(rounds):.0f} ms, fastest {min(rounds):.0f} ms"
    )


if __name__ == "__main__":
    main()
