"""The similarity report's cost: a class of 300 synthetic answers to one exercise.

Builds the answers of tests/app/services/similarity_answers.py (``layer-norm``, one planted
copy), compares every pair as a report does (copydetect; the starter and the reference as
boilerplate) and prints the time, the distribution and the flagged pairs. The target is a
minute on 2 cores; nothing is asserted (the machines here are noisy):

    .venv/bin/python bench/similarity.py [--learners 300]
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.services.similarity import Answer, compare  # noqa: E402
from app.services.similarity_jobs import boilerplate  # noqa: E402
from graders import ExerciseCatalog  # noqa: E402
from tests.app.services.similarity_answers import disguised_copy, honest_answers  # noqa: E402

logger = logging.getLogger("bench.similarity")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=300)
    parser.add_argument("--exercises", type=Path, default=ROOT / "exercises")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    codes = honest_answers(args.learners - 1, seed=1)
    answers = [Answer(f"learner-{i:03d}", f"s{i}", code) for i, code in enumerate(codes)]
    answers.append(Answer("planted", "s-planted", disguised_copy(codes[7])))
    shared = boilerplate(ExerciseCatalog(args.exercises), "layer-norm")
    started = time.perf_counter()
    report = compare("layer-norm", answers, shared)
    elapsed = time.perf_counter() - started
    spread = report.distribution
    logger.info(
        "%d answers, %d pairs in %.1f s (%.0f pairs/s); quartiles %.2f %.2f %.2f, fence %.2f",
        report.answers,
        spread.pairs,
        elapsed,
        spread.pairs / elapsed,
        spread.q1,
        spread.median,
        spread.q3,
        spread.fence,
    )
    for pair in report.flagged[:10]:
        logger.info("flagged %.2f %s %s", pair.similarity, pair.learner_a, pair.learner_b)
    logger.info("%d flagged in all", len(report.flagged))


if __name__ == "__main__":
    main()
