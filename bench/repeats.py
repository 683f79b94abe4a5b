"""What counting the submission's repeated work costs a public call (graders/sandbox/repeats.py).

For each exercise that forbids Python loops, its reference's public calls (main calls and
batch items) run in this process as the harness runs them, alternately plain and inside
``RepeatCounter()``; prints the mean milliseconds of one grading's public calls each way. A
sandbox's start and the hidden calls, which are never traced, are left out, so this is the
whole of the added time (``bench/course.py`` grades whole courses, where it drowns in noise):

    .venv/bin/python bench/repeats.py [--rounds 200]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from graders.api import ExerciseCatalog
from graders.checks.rules import forbids_loops
from graders.sandbox.harness import CappedText, load_submission, run_public
from graders.sandbox.repeats import RepeatCounter

ROOT = Path(__file__).resolve().parents[1]


def public_calls(catalog: ExerciseCatalog, slug: str) -> tuple[Any, list[list[Any]]]:
    prepared = catalog.prepared(slug)
    exercise = prepared.exercise
    function = load_submission((exercise.path / "solution.py").read_text(), exercise.sandbox_entry)
    calls = []
    for case in prepared.public_cases:
        calls.append(list(case.inputs.values()))
        calls.extend(list(inputs.values()) for inputs in case.slice_inputs or ())
    return function, calls


def run_calls(function: Any, calls: list[list[Any]], stdout: CappedText, counted: bool) -> None:
    with RepeatCounter() if counted else contextlib.nullcontext():
        for args in calls:
            run_public(function, [str(i) for i in range(len(args))], args, stdout)


def mean_ms(run: Callable[[], None], rounds: int) -> float:
    start = time.perf_counter()
    for _ in range(rounds):
        run()
    return (time.perf_counter() - start) / rounds * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    catalog = ExerciseCatalog(ROOT / "exercises")
    for exercise in catalog.all():
        if not forbids_loops(exercise.forbid):
            continue
        function, calls = public_calls(catalog, exercise.id)
        run = functools.partial(run_calls, function, calls, CappedText(10_000))
        times = [
            mean_ms(functools.partial(run, counted), args.rounds)
            for counted in (False, True, False, True)
        ]
        print(
            f"{exercise.id}: {len(calls)} public calls, plain {min(times[0::2]):.3f} ms, "
            f"counted {min(times[1::2]):.3f} ms"
        )


if __name__ == "__main__":
    main()
