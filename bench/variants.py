"""What a learner's variant costs the service: its preparation against the default's.

A submission graded with a variant not prepared yet waits for its preparation (the
reference, the known mistakes and the mutants on every case, graders/exercises/catalog.py:
``ExerciseCatalog.prepare``); once prepared, a variant is served from memory. Alternates, in
one process, a fresh catalog's default preparation and a fresh catalog's preparation of one
variant, the medians of ``--rounds`` of CPU time and wall time; then the time of a prepared
variant served again. Prints the medians and the ratios (machines here are noisy: compare the
ratios, CPU the steadier on a loaded host).

    .venv/bin/python bench/variants.py [--exercise leaky-integrator] [--rounds 5]
"""

from __future__ import annotations

import argparse
import functools
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from graders.api import ExerciseCatalog
from graders.exercises import preparation

EXERCISES = Path(__file__).resolve().parents[1] / "exercises"


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """The CPU time and the wall time of ``work()``."""
    cpu, wall = time.process_time(), time.perf_counter()
    work()
    return time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--exercise", default="leaky-integrator")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    first = ExerciseCatalog(EXERCISES).prepared(args.exercise)  # warms the mutants' disk cache
    other = next(
        first.variant_for(seed)
        for seed in range(1000)
        if first.variant_for(seed) != dict(first.variant)
    )
    ExerciseCatalog(EXERCISES).prepared(args.exercise, other)
    default: list[tuple[float, float]] = []
    variant: list[tuple[float, float]] = []
    for _ in range(args.rounds):
        # A fresh catalog, and nothing in the content cache: each round prepares.
        preparation.forget_prepared_versions()
        catalog = ExerciseCatalog(EXERCISES)
        default.append(timed(functools.partial(catalog.prepared, args.exercise)))
        # The default stays in the catalog, as in a service: the variant alone.
        preparation.forget_prepared_versions()
        variant.append(timed(functools.partial(catalog.prepared, args.exercise, other)))
    catalog = ExerciseCatalog(EXERCISES)
    catalog.prepared(args.exercise, other)
    served = timed(lambda: catalog.prepared(args.exercise, other))
    d_cpu, d_wall = (statistics.median(x) for x in zip(*default, strict=True))
    v_cpu, v_wall = (statistics.median(x) for x in zip(*variant, strict=True))
    print(f"variant {other}")
    print(f"default preparation: {d_cpu:.2f} s CPU, {d_wall:.2f} s wall (median)")
    print(f"variant preparation: {v_cpu:.2f} s CPU, {v_wall:.2f} s wall (median)")
    print(f"ratio variant/default: {v_cpu / d_cpu:.2f} CPU, {v_wall / d_wall:.2f} wall")
    print(f"a prepared variant served again: {served[1] * 1e3:.3f} ms wall")


if __name__ == "__main__":
    main()
